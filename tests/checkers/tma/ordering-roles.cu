// ASYNC-WAR-FENCE across warp roles: consumer warps read a stage of the ring
// with generic loads and hand it back to the producer with a plain arrive on
// empty[s]; the producer waits on empty[s] and refills the stage with a TMA
// copy. Without fence.proxy.async in the readers before their arrive, the
// copy (async proxy) may overtake the reads (generic proxy). Each wrong
// kernel has a correct twin; the last kernels stay silent (a fence the
// readers run, an unknown call before the arrive).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx

namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

__device__ void arriveOn(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(bar)))
               : "memory");
}

__device__ void opaque();

constexpr int S = 3;

// The consumers arrive on empty[s] right after their reads.
__global__ void __launch_bounds__(288) handOffNoFence(const float *src,
                                                      float *out, int nk) {
  __shared__ alignas(128) float tile[S][256];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&empty[s], ((k / S) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 256, 1024, &full[s]);
        // CHECK-NOTES: :[[@LINE-2]]:9: warning: bulk copy overwrites 'tile' that generic loads read at line [[#@LINE+8]] and hand back through the arrive on 'empty' at line [[#@LINE+10]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&full[s], (k / S) & 1);
      acc += tile[s][threadIdx.x];
      // CHECK-NOTES: :[[@LINE-1]]:14: note: generic load of 'tile' here
      arriveOn(&empty[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: each reading thread must execute fence.proxy.async.shared::cta after its reads, before this arrive
      // CHECK-NOTES: :[[@LINE-44]]:3: note: issued here
    }
    out[threadIdx.x] = acc;
  }
}

__global__ void __launch_bounds__(288) handOffFenced(const float *src,
                                                     float *out, int nk) {
  __shared__ alignas(128) float tile[S][256];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&empty[s], ((k / S) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 256, 1024, &full[s]);
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&full[s], (k / S) & 1);
      acc += tile[s][threadIdx.x];
      ptx::fence_proxy_async(ptx::space_shared);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// The producer fences after its wait: the readers' loads are still not
// ordered before the copy.
__global__ void __launch_bounds__(288) producerFenceOnly(const float *src,
                                                         float *out, int nk) {
  __shared__ alignas(128) float tile[S][256];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&empty[s], ((k / S) & 1) ^ 1);
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 256, 1024, &full[s]);
        // CHECK-NOTES: :[[@LINE-2]]:9: warning: bulk copy overwrites 'tile' that generic loads read at line [[#@LINE+8]] and hand back through the arrive on 'empty' at line [[#@LINE+10]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&full[s], (k / S) & 1);
      acc += tile[s][threadIdx.x];
      // CHECK-NOTES: :[[@LINE-1]]:14: note: generic load of 'tile' here
      arriveOn(&empty[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: each reading thread must execute fence.proxy.async.shared::cta after its reads, before this arrive
      // CHECK-NOTES: :[[@LINE-124]]:3: note: issued here
    }
    out[threadIdx.x] = acc;
  }
}

// --- Silent ------------------------------------------------------------------

// An unknown call between the reads and the arrive may fence.
__global__ void __launch_bounds__(288) unknownBeforeArrive(const float *src,
                                                           float *out, int nk) {
  __shared__ alignas(128) float tile[S][256];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&empty[s], ((k / S) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 256, 1024, &full[s]);
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&full[s], (k / S) & 1);
      acc += tile[s][threadIdx.x];
      opaque();
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}
