// BULK-ADDR-ALIGN16 on the global operand of a 1-D bulk copy: a kernel
// pointer parameter that its launch binds to a device allocation (cudaMalloc:
// 256-byte aligned) plus a constant offset. Silent where the launch passes
// a pointer from elsewhere, a run-time offset, or an aligned one.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__device__ size_t __cvta_generic_to_shared(const void *);

__global__ void load(const float *src) {
  __shared__ alignas(128) float tile[256];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(tile, src, sizeof(tile), bar);
}

__global__ void store(float *dst) {
  __shared__ alignas(128) float tile[256];
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;"
               :: "l"(dst), "r"(s) : "memory");
}

void launches(size_t N, size_t Runtime, float *External) {
  float *D;
  cudaMalloc(&D, N);
  load<<<1, 32>>>(D + 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: cde::cp_async_bulk_global_to_shared global address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the global address is 8 bytes past 'D', which cudaMalloc allocates 256-byte aligned
  // CHECK-MESSAGES: :20:3: note: passed to the global address of cde::cp_async_bulk_global_to_shared here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: keep the offset from the allocation a multiple of 16 bytes
  store<<<1, 32>>>(D + 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: cp.async.bulk global address is guaranteed only 4-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the global address is 4 bytes past 'D', which cudaMalloc allocates 256-byte aligned
  // CHECK-MESSAGES: :26:3: note: passed to the global address of cp.async.bulk here
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: keep the offset from the allocation a multiple of 16 bytes
  // Correct twins.
  load<<<1, 32>>>(D + 4);
  store<<<1, 32>>>(D + 64);
  load<<<1, 32>>>(D + Runtime);
  load<<<1, 32>>>(External + 1);
}
