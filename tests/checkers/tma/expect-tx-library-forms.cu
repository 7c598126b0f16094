// MBAR-TX-EQUALS-BYTES through the library forms of the device-op model:
// cuda::device::memcpy_async_tx (a bulk copy without its own expect-tx,
// CDE-BULK-NO-TX) and CUTLASS's ClusterTransactionBarrier expect-tx, static
// and member forms. cuda::memcpy_async alone does its own expect-tx and
// stays silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device -I %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host -I %S/../Inputs/cutlass

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cutlass/arch/barrier.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
using cutlass::arch::ClusterTransactionBarrier;
namespace ptx = cuda::ptx;

__global__ void memcpy_async_tx(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar[1];
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)),
                                bar[0]);
  cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s) / 2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: expect-tx of 128 bytes on 'bar[0]' but the copies completing on it in this phase deliver 256 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: this copy delivers 256 bytes to 'bar[0]'
  // CHECK-NOTES: :[[@LINE-3]]:3: note: expect 256 bytes
}

__global__ void cutlass_static(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t raw;
  ClusterTransactionBarrier::arrive_and_expect_tx(&raw, sizeof(s) / 2);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:3: warning: expect-tx of 128 bytes on 'raw' but the copies completing on it in this phase deliver 256 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                     &raw);
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:3: note: this copy delivers 256 bytes to 'raw'
  // CHECK-NOTES-DEVICE: :[[@LINE-5]]:3: note: expect 256 bytes
}

__global__ void cutlass_member(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ ClusterTransactionBarrier full[1];
  full[0].arrive_and_expect_tx(sizeof(s) / 2);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:3: warning: expect-tx of 128 bytes on 'full[0]' but the copies completing on it in this phase deliver 256 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                     reinterpret_cast<uint64_t *>(&full[0]));
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:3: note: this copy delivers 256 bytes to 'full[0]'
  // CHECK-NOTES-DEVICE: :[[@LINE-5]]:3: note: expect 256 bytes
}

// Correct phases stay silent.
__global__ void correct(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ alignas(16) float t[64];
  __shared__ block_barrier bar[2];
  __shared__ ClusterTransactionBarrier full[1];
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)),
                                bar[0]);
  cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s));
  cuda::memcpy_async(t, g, cuda::aligned_size_t<16>(sizeof(t)), bar[1]);
  bar[1].arrive();
  full[0].arrive_and_expect_tx(sizeof(s));
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                     reinterpret_cast<uint64_t *>(&full[0]));
}
