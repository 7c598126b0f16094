// tma-bulk-copy with the real CUDA toolkit headers and CCCL (<cuda/barrier>,
// <cuda/ptx>): the cuda::ptx, cde and cuda::device wrappers are recognised
// through CCCL's tags and inline ABI namespaces, and the asm inside them (a
// system header) is not reported a second time.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void wrappers(float *g, block_barrier *cbar) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t bar;
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                           g, s, 3 * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: cuda::ptx::cp_async_bulk size is 12 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:34: note: pad the transfer to 16 bytes
  cuda::ptx::mbarrier_init(&bar, 0);
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: cuda::ptx::mbarrier_init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 1u << 20);
  // CHECK-NOTES: :[[@LINE-1]]:71: warning: cuda::ptx::mbarrier_arrive_expect_tx txCount is 1048576 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:71: note: if the count is in bits, the byte count is 131072 bytes
  cde::cp_async_bulk_global_to_shared(s, g, 20, *cbar);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cde::cp_async_bulk_global_to_shared size is 20 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:45: note: pad the transfer to 32 bytes
  cuda::device::barrier_arrive_tx(*cbar, 1, 2000000);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cuda::device::barrier_arrive_tx txCount is 2000000 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:45: note: if the count is in bits, the byte count is 250000 bytes
}

// Correct uses stay silent.
__global__ void correct(float *g, block_barrier *cbar) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t bar;
  cuda::ptx::mbarrier_init(&bar, 1);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                           g, s, 64 * sizeof(float));
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar,
                                       sizeof(s));
  cde::cp_async_bulk_global_to_shared(s, g, sizeof(s), *cbar);
  cuda::device::barrier_arrive_tx(*cbar, 1, sizeof(s));
}
