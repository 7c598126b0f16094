// CallSiteContexts: false evaluates each op on its own, so a helper's
// parameters stay unknown and only values written at the op are checked.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CallSiteContexts: false}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CallSiteContexts: false}}" -- %cuda_stub_host
// CoverageReport: a warning per op saying in how many contexts its value
// operand folded (a debugging aid, used on real code).
// RUN: %check_clang_tidy -check-suffixes=COVERAGE %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CoverageReport: true}}" -- %cuda_stub_device

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void expect_bytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(bytes));
  // CHECK-MESSAGES-COVERAGE: :[[@LINE-2]]:3: warning: coverage: mbarrier.arrive.expect_tx: operand folded in 1 of 2 context(s) [tma-bulk-copy]
  // CHECK-MESSAGES-COVERAGE: :[[@LINE+6]]:22: warning: mbarrier.arrive.expect_tx txCount is 2000000 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
}

__global__ void kernel() {
  __shared__ uint64_t bar;
  // Through the helper: not seen without call-site contexts.
  expect_bytes(&bar, 2000000);
  expect_bytes(&bar, threadIdx.x);
  // At the op: still reported.
  cuda::ptx::mbarrier_init(&bar, 0);
  // CHECK-MESSAGES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cuda::ptx::mbarrier_init: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-MESSAGES-COVERAGE: :[[@LINE-2]]:34: warning: cuda::ptx::mbarrier_init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:34: warning: cuda::ptx::mbarrier_init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
}
