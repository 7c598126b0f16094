// tma-expect-tx options: CoverageReport says, per expect-tx, whether its
// phase was proven equal or why it is unknown; CallSiteContexts folds a
// helper's parameters with its callers' arguments.
// RUN: %check_clang_tidy -check-suffixes=COVERAGE %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.CoverageReport: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=COVERAGE %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.CoverageReport: true}}" -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=NOCTX %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.CallSiteContexts: false}}" -- %cuda_stub_device

#include <cstdint>
#include <cuda/ptx>

__global__ void equal(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 1024);
  // CHECK-NOTES-COVERAGE: :[[@LINE-3]]:3: warning: coverage: expect-tx on 'bar': proven equal [tma-expect-tx]
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, sizeof(buf), &bar);
}

__device__ void helper(uint64_t *bar, char *dst, const char *src);
__global__ void unknown(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 1024);
  // CHECK-NOTES-COVERAGE: :[[@LINE-3]]:3: warning: coverage: expect-tx on 'bar': unknown (the barrier is passed to a function or stored) [tma-expect-tx]
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 512, &bar);
  helper(&bar, buf + 512, src + 512);
}

// A __device__ helper with its own local barrier; the size comes from the
// caller.
__device__ void load(const char *src, uint32_t n) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 2048);
  // CHECK-NOTES-COVERAGE: :[[@LINE-3]]:3: warning: coverage: expect-tx on 'bar': not proven (a byte count does not fold, or a mismatch) [tma-expect-tx]
  // CHECK-NOTES-COVERAGE: :[[@LINE-4]]:3: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES-COVERAGE: :[[@LINE+2]]:3: note: this copy delivers 4096 bytes to 'bar'
  // CHECK-FIXES-COVERAGE: {{^}}                                       cuda::ptx::space_shared, &bar, 4096);{{$}}
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, n, &bar);
}
__global__ void caller(const char *src) { load(src, 4096); }
