// CallSiteContexts: false evaluates each op on its own, so a helper's
// parameters stay unknown and only values written at the op are checked.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CallSiteContexts: false}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CallSiteContexts: false}}" -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void expect_bytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(bytes));
}

__global__ void kernel() {
  __shared__ uint64_t bar;
  // Through the helper: not seen without call-site contexts.
  expect_bytes(&bar, 2000000);
  // At the op: still reported.
  cuda::ptx::mbarrier_init(&bar, 0);
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: cuda::ptx::mbarrier_init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
}
