// MEMCPY-ASYNC-TX-OWNED: cuda::memcpy_async on its TMA path performs the
// expect-tx of its own bytes (BulkCopy::OwnsExpectTx), so a phase that mixes
// it with a copy that needs an explicit expect-tx is correct when that
// expect-tx counts the other copy only, and an expect-tx that repeats its
// bytes double-counts them.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device

#include <cstdint>
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void mixed(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ alignas(16) float t[64];
  __shared__ block_barrier bar[1];
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
  cuda::device::memcpy_async_tx(t, g, cuda::aligned_size_t<16>(sizeof(t)),
                                bar[0]);
  cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(t));
}

// Double counting: the explicit expect-tx repeats the bytes memcpy_async
// already expects.
__global__ void doubleCounted(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar[1];
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
  cuda::device::barrier_arrive_tx(bar[0], 1, 256);
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:3: warning: expect-tx of 512 bytes on 'bar[0]' but the copies completing on it in this phase deliver 256 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-MESSAGES-DEVICE: :[[@LINE-3]]:3: note: this copy delivers 256 bytes to 'bar[0]'
  // CHECK-MESSAGES-DEVICE: :[[@LINE-4]]:3: note: and expects them itself: cuda::memcpy_async performs the expect-tx of its own bytes (MEMCPY-ASYNC-TX-OWNED)
  // CHECK-MESSAGES-DEVICE: :[[@LINE-4]]:3: note: remove this expect-tx: cuda::memcpy_async already expects the 256 bytes it copies (MEMCPY-ASYNC-TX-OWNED)
}
