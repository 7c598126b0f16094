// ASYNC-WAR-FENCE across warp roles with the ring laid over one dynamic
// shared byte buffer (flashinfer's mamba selective-state-update shape:
// `auto &sram = *reinterpret_cast<Sram *>(sbuffer)`): the barrier the
// readers arrive on is named with its fields ('sbuffer.empty'), not as the
// byte buffer that also holds the tiles. Wrong kernel and its fenced twin.
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

constexpr int S = 3;

struct Sram {
  alignas(128) float tile[S][256];
  uint64_t full[S], empty[S];
};

__global__ void __launch_bounds__(288) carvedNoFence(const float *src,
                                                     float *out, int nk) {
  extern __shared__ __align__(128) uint8_t sbuffer[];
  auto &sram = *reinterpret_cast<Sram *>(sbuffer);
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&sram.full[s], 1);
      ptx::mbarrier_init(&sram.empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&sram.empty[s], ((k / S) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &sram.full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                           sram.tile[s], src + k * 256, 1024, &sram.full[s]);
        // CHECK-NOTES: :[[@LINE-2]]:9: warning: bulk copy overwrites 'sbuffer.tile' that generic loads read at line [[#@LINE+8]] and hand back through the arrive on 'sbuffer.empty' at line [[#@LINE+10]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&sram.full[s], (k / S) & 1);
      acc += sram.tile[s][threadIdx.x];
      // CHECK-NOTES: :[[@LINE-1]]:14: note: generic load of 'sbuffer.tile' here
      arriveOn(&sram.empty[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: each reading thread must execute fence.proxy.async.shared::cta after its reads, before this arrive
      // CHECK-NOTES: :[[@LINE-46]]:3: note: issued here
    }
    out[threadIdx.x] = acc;
  }
}

__global__ void __launch_bounds__(288) carvedFenced(const float *src,
                                                    float *out, int nk) {
  extern __shared__ __align__(128) uint8_t sbuffer[];
  auto &sram = *reinterpret_cast<Sram *>(sbuffer);
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ptx::mbarrier_init(&sram.full[s], 1);
      ptx::mbarrier_init(&sram.empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 8) {
    if (threadIdx.x == 256) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % S;
        waitParity(&sram.empty[s], ((k / S) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &sram.full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                           sram.tile[s], src + k * 256, 1024, &sram.full[s]);
      }
    }
  } else {
    float acc = 0.f;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      waitParity(&sram.full[s], (k / S) & 1);
      acc += sram.tile[s][threadIdx.x];
      ptx::fence_proxy_async(ptx::space_shared);
      arriveOn(&sram.empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}
