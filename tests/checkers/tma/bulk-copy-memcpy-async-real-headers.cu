// cuda::memcpy_async and cuda::device::memcpy_async_tx with the real CCCL
// headers: the TMA path is recognised from CCCL's own dispatch (its
// instantiation reaches cuda::ptx::cp_async_bulk only for SM 90+ and an
// alignment of 16 or more), including the cooperative-group overload; the
// host pass, where CCCL copies with memcpy, sees no memcpy_async copy.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host
// The expect-tx check stays silent: the copy does its own expect-tx.
// RUN: %check_clang_tidy -check-suffixes=EXPECTTX %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_real_device

#include <cooperative_groups.h>
#include <cstdint>
#include <cuda/barrier>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void tma_path(const float *g, float *out) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar[1];
  cg::thread_block block = cg::this_thread_block();
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(100), bar[0]);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:53: warning: cuda::memcpy_async size is 100 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:53: note: pad the transfer to 112 bytes
  cuda::memcpy_async(block, s, g, cuda::aligned_size_t<16>(72), bar[0]);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:60: warning: cuda::memcpy_async size is 72 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:60: note: pad the transfer to 80 bytes
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(24), bar[0]);
  // CHECK-NOTES: :[[@LINE-1]]:64: warning: cuda::device::memcpy_async_tx size is 24 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:64: note: pad the transfer to 32 bytes

  // cp.async (alignment 8) and a global destination: no bulk copy.
  cuda::memcpy_async(s, g, cuda::aligned_size_t<8>(100), bar[0]);
  cuda::memcpy_async(out, g, cuda::aligned_size_t<16>(100), bar[0]);
  // Correct.
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
  bar[0].arrive_and_wait();
}
