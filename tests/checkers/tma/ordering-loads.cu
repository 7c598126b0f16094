// TMA-LOAD-WAIT-BEFORE-READ, BULK-WAITGROUP-SCOPE, ASYNC-WAR-FENCE and
// MBAR-EXPECT-BEFORE-LAST-ARRIVE over the kernel model: generic reads of a
// copy's destination only after a wait on its mbarrier (a bulk-group wait
// does not count); no refill of a buffer that threads still read; the
// expect-tx before the arrive. Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
template <typename = void>
__device__ static inline uint64_t mbarrier_arrive(uint64_t *addr);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

namespace ptx = cuda::ptx;
namespace cde = cuda::device::experimental;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// --- TMA-LOAD-WAIT-BEFORE-READ / BULK-WAITGROUP-SCOPE -------------------------

// __syncthreads() does not wait for the copy.
__global__ void readBeforeWait(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-5]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the bulk copy into 'buf' completes on 'bar'
  waitParity(&bar, 0);
}

__global__ void readAfterWait(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// A TMA tensor load waited for with the bulk-group wait of stores.
__global__ void groupWaitForLoad(const __grid_constant__ CUtensorMap map,
                                 float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    const int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              &map, coords, &bar);
    cde::cp_async_bulk_wait_group_read<0>();
  }
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: generic load reads 'tile' while the TMA load at line [[#@LINE-6]] may still write it: cp.async.bulk.wait_group at line [[#@LINE-4]] does not wait for copies that complete on an mbarrier (BULK-WAITGROUP-SCOPE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: the TMA load into 'tile' completes on 'bar'
}

// A producer warp and consumer warps: the reads are in the other branch.
__global__ void warpSpecialised(const float *src, float *out, int iters) {
  __shared__ alignas(16) float buf[4][256];
  __shared__ uint64_t full[4], empty[4];
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 128);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128)
      for (int k = 0; k < iters; ++k) {
        int s = k % 4;
        if (k >= 4)
          waitParity(&empty[s], ((k / 4) - 1) & 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s],
                           src + k * 256, 1024, &full[s]);
      }
  } else {
    float acc = 0;
    for (int k = 0; k < iters; ++k) {
      int s = k % 4;
      waitParity(&full[s], (k / 4) & 1);
      acc += buf[s][threadIdx.x];
      // The readers' fence before they hand the stage back (ASYNC-WAR-FENCE).
      ptx::fence_proxy_async(ptx::space_shared);
      ptx::mbarrier_arrive(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- ASYNC-WAR-FENCE -----------------------------------------------------------

// One buffer, reloaded on the next pass while threads may still read it.
__global__ void reloadWhileReading(const float *src, float *out, int iters) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + k * 256, sizeof(buf), &bar);
      // CHECK-NOTES: :[[@LINE-2]]:7: warning: bulk copy overwrites 'buf' that generic loads read at line [[#@LINE+4]] with no fence.proxy.async, thread barrier or mbarrier hand-off in between (ASYNC-WAR-FENCE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+3]]:12: note: generic load of 'buf' here
    }
    waitParity(&bar, k & 1);
    acc += buf[threadIdx.x];
  }
  out[threadIdx.x] = acc;
}

__global__ void reloadAfterSync(const float *src, float *out, int iters) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + k * 256, sizeof(buf), &bar);
    }
    waitParity(&bar, k & 1);
    acc += buf[threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// --- MBAR-EXPECT-BEFORE-LAST-ARRIVE --------------------------------------------

__global__ void arriveThenExpect(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
    ptx::mbarrier_arrive(&bar);
    ptx::mbarrier_expect_tx(ptx::sem_t<ptx::dot_sem::relaxed>{},
                            ptx::scope_cta, ptx::space_shared, &bar,
                            sizeof(buf));
    // CHECK-NOTES: :[[@LINE-3]]:5: warning: expect-tx on 'bar' after an arrive on it at line [[#@LINE-4]]: the arrive may complete the phase before these bytes are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: arrives here; expect the bytes before it, or use mbarrier.arrive.expect_tx
  }
  waitParity(&bar, 0);
}

__global__ void expectThenArrive(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_expect_tx(ptx::sem_t<ptx::dot_sem::relaxed>{},
                            ptx::scope_cta, ptx::space_shared, &bar,
                            sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
    ptx::mbarrier_arrive(&bar);
  }
  waitParity(&bar, 0);
}

// TransformerEngine's transpose_to_bhsd_kernel shape: a helper reads its
// pointer parameter to issue the copy (that reads no buffer); all threads
// arrive and wait; the reads go through a local pointer; __syncthreads()
// hands the buffer back. Silent.
__device__ void issueLoad(float *dst, const float *src, uint64_t *bar,
                          uint32_t bytes) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, bytes);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, bytes,
                     bar);
}
__global__ void transposeShape(const float *src, float *out, int tiles) {
  extern __shared__ __align__(128) char smem_raw[];
  float *smem = reinterpret_cast<float *>(smem_raw);
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, blockDim.x);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  int parity = 0;
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      issueLoad(smem, src + t * 1024, &bar, 4096);
    else
      ptx::mbarrier_arrive(&bar);
    waitParity(&bar, parity);
    parity ^= 1;
    out[t * 1024 + threadIdx.x] = smem[threadIdx.x];
    __syncthreads();
  }
}

// The same with the pointer parameter read in the helper before the copy
// and the buffer read directly after the wait, without the hand-off: the
// parameter read is no read of the buffer, so only the real read counts.
__device__ void issueLoadFrom(float *dst, const float *src, uint64_t *bar) {
  float *d = dst;
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, 1024);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, d, src, 1024,
                     bar);
}
