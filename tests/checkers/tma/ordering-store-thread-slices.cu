// TMA-STORE-WAIT over a part of a buffer chosen by the thread's index
// (issue 24 item 3: a store of a slice of a buffer is a store of that
// slice). Epilogues give each warp (or warpgroup) its own slice of the
// output tile (`sOut[warp]`, `warp = threadIdx.x / 32`); the warp writes
// it, one lane stores it, and the next tile writes the same slice again:
// the same index expression, none of whose variables change in the thread,
// names the same slice one pass later. Without a wait deep enough before
// that write, the store may still read it. A slice is the same only in the
// threads that issued the store: a write by other threads (another warp's
// slice) or with another index stays silent, as before.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>

namespace cde = cuda::device::experimental;
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental
__device__ void __syncwarp(unsigned mask = 0xffffffffu);

constexpr int kWarps = 4;
constexpr int kSlice = 32 * 32;

// Each warp writes its slice, lane 0 stores it; the next tile writes the
// slice again with no wait for the store.
__global__ void __launch_bounds__(128)
warpSliceNoWait(const __grid_constant__ CUtensorMap out, const float *in,
                int tiles) {
  __shared__ alignas(128) float sOut[kWarps][kSlice];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    for (int i = lane; i < kSlice; i += 32)
      sOut[warp][i] = in[t * kSlice + i];
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites the stage of 'sOut' that the TMA store at line [[#@LINE+5]] read in the previous pass of its loop and may still read: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: the TMA store reads 'sOut' here
    cde::fence_proxy_async_shared_cta();
    __syncwarp();
    if (lane == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t * kWarps + warp,
                                                    sOut[warp]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (lane == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// The twin: lane 0 waits for its store, then __syncwarp hands that on to
// the warp before it writes the slice again.
__global__ void __launch_bounds__(128)
warpSliceWaits(const __grid_constant__ CUtensorMap out, const float *in,
               int tiles) {
  __shared__ alignas(128) float sOut[kWarps][kSlice];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    if (lane == 0)
      cde::cp_async_bulk_wait_group_read<0>();
    __syncwarp();
    for (int i = lane; i < kSlice; i += 32)
      sOut[warp][i] = in[t * kSlice + i];
    cde::fence_proxy_async_shared_cta();
    __syncwarp();
    if (lane == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t * kWarps + warp,
                                                    sOut[warp]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (lane == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// A warpgroup's slice (`threadIdx.x / 128`, recomputed in each pass: the
// same value), written by the warpgroup and stored by its first thread,
// which waits too shallow: `wait_group.read 1` leaves the one group it
// committed since pending.
__global__ void __launch_bounds__(256)
warpgroupSliceShallowWait(const __grid_constant__ CUtensorMap out,
                          const float *in, int tiles) {
  __shared__ alignas(128) float sOut[2][kSlice];
  for (int t = 0; t < tiles; ++t) {
    const int wg = threadIdx.x / 128;
    if (threadIdx.x % 128 == 0)
      cde::cp_async_bulk_wait_group_read<1>();
    asm volatile("bar.sync %0, 128;" ::"r"(1 + wg));
    for (int i = threadIdx.x % 128; i < kSlice; i += 128)
      sOut[wg][i] = in[t * kSlice + i];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: generic store overwrites the stage of 'sOut' that the TMA store at line [[#@LINE+6]] read in the previous pass of its loop and may still read: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+5]]:7: note: the TMA store reads 'sOut' here
    // CHECK-NOTES: :[[@LINE-6]]:7: note: wait_group.read 0 would complete the copy's group
    cde::fence_proxy_async_shared_cta();
    asm volatile("bar.sync %0, 128;" ::"r"(1 + wg));
    if (threadIdx.x % 128 == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t * 2 + wg,
                                                    sOut[wg]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x % 128 == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// The twin: `wait_group.read 0` completes the group before the rewrite.
__global__ void __launch_bounds__(256)
warpgroupSliceFullWait(const __grid_constant__ CUtensorMap out,
                       const float *in, int tiles) {
  __shared__ alignas(128) float sOut[2][kSlice];
  for (int t = 0; t < tiles; ++t) {
    const int wg = threadIdx.x / 128;
    if (threadIdx.x % 128 == 0)
      cde::cp_async_bulk_wait_group_read<0>();
    asm volatile("bar.sync %0, 128;" ::"r"(1 + wg));
    for (int i = threadIdx.x % 128; i < kSlice; i += 128)
      sOut[wg][i] = in[t * kSlice + i];
    cde::fence_proxy_async_shared_cta();
    asm volatile("bar.sync %0, 128;" ::"r"(1 + wg));
    if (threadIdx.x % 128 == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t * 2 + wg,
                                                    sOut[wg]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x % 128 == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// Silent: thread 0 stores warp 0's slice, only warp 1 writes (its own
// slice): the same expression, other threads, another slice.
__global__ void __launch_bounds__(128)
otherWarpWrites(const __grid_constant__ CUtensorMap out, const float *in,
                int tiles) {
  __shared__ alignas(128) float sOut[kWarps][kSlice];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    if (warp == 1)
      for (int i = lane; i < kSlice; i += 32)
        sOut[warp][i] = in[t * kSlice + i];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t, sOut[warp]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// Silent: the write's index is another expression (the next warp's
// slice): the model does not prove it the same slice.
__global__ void __launch_bounds__(128)
otherIndexWrites(const __grid_constant__ CUtensorMap out, const float *in,
                 int tiles) {
  __shared__ alignas(128) float sOut[kWarps][kSlice];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    for (int i = lane; i < kSlice; i += 32)
      sOut[(warp + 1) % kWarps][i] = in[t * kSlice + i];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (lane == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, t * kWarps + warp,
                                                    sOut[warp]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (lane == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}
