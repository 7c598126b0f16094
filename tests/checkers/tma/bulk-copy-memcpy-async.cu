// cuda::memcpy_async is a bulk copy only on its TMA path
// (MEMCPY-ASYNC-TMA-PATH): SM 90+ device code, an alignment of 16 or more
// (aligned_size_t<A> or alignof(T)), a block-scope cuda::barrier with the
// default completion in shared memory, a global source and a shared
// destination. There tma-bulk-copy checks its size like any bulk copy;
// elsewhere it stays silent. cuda::device::memcpy_async_tx always issues
// cp.async.bulk (static_assert(16 <= A)).
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
using device_barrier = cuda::barrier<cuda::thread_scope_device>;
struct alignas(16) Vec4 {
  float x[4];
};
struct Group {
  __device__ unsigned thread_rank() const;
};

__global__ void tma_path(const float *g, const Vec4 *gv, Group grp) {
  __shared__ alignas(16) float s[64];
  __shared__ Vec4 sv[8];
  __shared__ block_barrier bar[2];
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(100), bar[0]);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:53: warning: cuda::memcpy_async size is 100 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:53: note: pad the transfer to 112 bytes
  // The cooperative-group overload; an offset into the shared array.
  cuda::memcpy_async(grp, s + 4, g, cuda::aligned_size_t<32>(40), bar[1]);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:62: warning: cuda::memcpy_async size is 40 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:62: note: pad the transfer to 48 bytes
  // alignof(Vec4) is 16: a plain size_t takes the TMA path too.
  const size_t bytes = 3 * sizeof(float);
  cuda::memcpy_async(sv, gv, bytes, bar[0]);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:30: warning: cuda::memcpy_async size is 12 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:24: note: size = 12 comes from here
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:30: note: pad the transfer to 16 bytes
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(24), bar[0]);
  // CHECK-NOTES: :[[@LINE-1]]:64: warning: cuda::device::memcpy_async_tx size is 24 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:64: note: pad the transfer to 32 bytes
}

// Not the TMA path: cp.async or a plain copy, whatever the size.
__global__ void other_paths(const float *g, float *out, block_barrier *pbar) {
  __shared__ alignas(16) float s[64];
  __shared__ alignas(16) float t[64];
  __shared__ block_barrier bar[1];
  __shared__ device_barrier dbar[1];
  cuda::memcpy_async(s, g, cuda::aligned_size_t<8>(100), bar[0]);
  cuda::memcpy_async(s, g, 100, bar[0]);
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(100), dbar[0]);
  cuda::memcpy_async(out, g, cuda::aligned_size_t<16>(100), bar[0]);
  cuda::memcpy_async(s, t, cuda::aligned_size_t<16>(100), bar[0]);
  // Not provably in shared memory.
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(100), *pbar);
}

// A device function's pointer parameter may point anywhere.
__device__ void helper(float *dst, const float *src, block_barrier &bar) {
  cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(100), bar);
}

// Correct uses stay silent.
__global__ void correct(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar[1];
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(64), bar[0]);
  helper(s, g, bar[0]);
}
