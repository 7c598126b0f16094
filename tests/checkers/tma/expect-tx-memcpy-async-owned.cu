// MEMCPY-ASYNC-TX-OWNED: cuda::memcpy_async on its TMA path performs the
// expect-tx of its own bytes (BulkCopy::OwnsExpectTx), so a phase that mixes
// it with a copy that needs an explicit expect-tx is correct when that
// expect-tx counts the other copy only.
// XFAIL: *
// Expected to fail until tma-expect-tx reads BulkCopy::OwnsExpectTx: today
// it counts the memcpy_async bytes as delivered but not as expected, and
// reports this correct phase. Remove the XFAIL line with that change.
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
