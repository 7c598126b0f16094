// BULK-S2G-WAIT-BEFORE-REUSE when the overwrite is a copy: a bulk load
// that refills the buffer a bulk store still reads (a load -> store ring,
// DeepEP's shape) needs a wait_group.read deep enough to complete the
// store's group, as a generic store does. Each wrong kernel has a correct
// twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

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

// The refill at the top of the next pass waits with depth 1 while the one
// store committed since is still reading 'buf'.
__global__ void refillTooSoon(const float *src, float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0)
    return;
  ptx::mbarrier_init(&bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  uint32_t phase = 0;
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    // CHECK-FIXES: {{^}}    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");{{$}}
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                       src + t * 256, sizeof(buf), &bar);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: bulk load overwrites 'buf' while the bulk copy at line [[#@LINE+3]] may still read it: wait_group.read 1 at line [[#@LINE-6]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    waitParity(&bar, phase);
    phase ^= 1;
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                       buf, sizeof(buf));
    asm volatile("cp.async.bulk.commit_group;");
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void refillAfterStore(const float *src, float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0)
    return;
  ptx::mbarrier_init(&bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
  uint32_t phase = 0;
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                       src + t * 256, sizeof(buf), &bar);
    waitParity(&bar, phase);
    phase ^= 1;
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                       buf, sizeof(buf));
    asm volatile("cp.async.bulk.commit_group;");
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
