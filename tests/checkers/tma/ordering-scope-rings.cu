// BULK-WAITGROUP-SCOPE and the wait-before-reuse rules over a ring of
// staging buffers (the shape of a double-buffered quantize or epilogue
// kernel): each pass every thread writes stage `it % 2` in a thread-strided
// loop, one leader stores it and commits, and the next write of that stage
// comes two passes later. The write lies in a loop nested in the ring's, and
// is still the same stage as the store's (`out[it % 2][i]` inside
// `for (i ...)` names stage `out[it % 2]`). Every thread runs
// `wait_group.read 1`, though only the leader committed: the others pass it
// at once and overwrite the stage the store may still read. The twin waits
// in the leader and then hands the completion on with __syncthreads.
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

constexpr int kRing = 2;
constexpr int kTile = 32 * 64;

__global__ void __launch_bounds__(128)
ringAllThreadsWait(const __grid_constant__ CUtensorMap out, const float *in,
                   int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    cde::cp_async_bulk_wait_group_read<kRing - 1>();
    for (int i = threadIdx.x; i < kTile; i += 128)
      stage[b][i] = in[it * kTile + i];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: generic store overwrites the stage of 'stage' that the TMA store at line [[#@LINE+5]] read 2 passes earlier (a ring of 2 stages) and may still read: the wait at line [[#@LINE-3]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: the TMA store reads 'stage' here, issued by the threads of this branch only
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, it, stage[b]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// The twin: the leader waits, then the block's barrier hands it on.
__global__ void __launch_bounds__(128)
ringLeaderWaits(const __grid_constant__ CUtensorMap out, const float *in,
                int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<kRing - 1>();
    __syncthreads();
    for (int i = threadIdx.x; i < kTile; i += 128)
      stage[b][i] = in[it * kTile + i];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, it, stage[b]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// TMA-STORE-WAIT over the same nested write: the leader alone writes and
// stores, but waits with depth 2, which lets the store of the same stage
// (two groups back) stay pending.
__global__ void ringWaitTooShallow(const __grid_constant__ CUtensorMap out,
                                   const float *in, int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  if (threadIdx.x != 0)
    return;
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    cde::cp_async_bulk_wait_group_read<2>();
    for (int i = 0; i < kTile; ++i)
      stage[b][i] = in[it * kTile + i];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: generic store overwrites the stage of 'stage' that the TMA store at line [[#@LINE+4]] read 2 passes earlier (a ring of 2 stages) and may still read: wait_group.read 2 at line [[#@LINE-3]] lets its group stay pending (2 groups committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+3]]:5: note: the TMA store reads 'stage' here
    // CHECK-NOTES: :[[@LINE-5]]:5: note: wait_group.read 1 would complete the copy's group
    cde::fence_proxy_async_shared_cta();
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, it, stage[b]);
    cde::cp_async_bulk_commit_group();
  }
  cde::cp_async_bulk_wait_group_read<0>();
}

// The twin: depth 1 completes the group of two passes back.
__global__ void ringWaitDeepEnough(const __grid_constant__ CUtensorMap out,
                                   const float *in, int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  if (threadIdx.x != 0)
    return;
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    cde::cp_async_bulk_wait_group_read<1>();
    for (int i = 0; i < kTile; ++i)
      stage[b][i] = in[it * kTile + i];
    cde::fence_proxy_async_shared_cta();
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, 0, it, stage[b]);
    cde::cp_async_bulk_commit_group();
  }
  cde::cp_async_bulk_wait_group_read<0>();
}
