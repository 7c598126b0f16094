// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: the fence must precede the
// hand-off in the writing threads (issue 24). When the threads that write the
// buffer are not all the thread that issues the copy, a fence that every
// writer runs only after the __syncthreads() that hands the buffer over
// orders nothing for the issuing thread. The twin fences first; a writer
// that issues the copy itself may fence after the barrier.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

// Every thread writes its element, then the barrier, then the fence.
__global__ void __launch_bounds__(128) fenceAfterSync(
    const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float out[128];
  out[threadIdx.x] = 2.0f * threadIdx.x;
  __syncthreads();
  // CHECK-FIXES: {{^}}  cde::fence_proxy_async_shared_cta();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  cde::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, out);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'out' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async before the thread barrier that hands it over (the fence at line [[#@LINE-3]] comes after it) (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-8]]:20: note: generic store to 'out' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute cuda::device::experimental::fence_proxy_async_shared_cta() after its stores, before the thread barrier that hands the buffer to the issuing thread
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__global__ void __launch_bounds__(128) fenceBeforeSync(
    const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float out[128];
  out[threadIdx.x] = 2.0f * threadIdx.x;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, out);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// Thread 0 writes and issues: its own fence after the barrier still orders
// its own stores before its copy.
__global__ void __launch_bounds__(128) sameThreadFenceAfterSync(
    const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float out[128];
  if (threadIdx.x == 0)
    out[0] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::fence_proxy_async_shared_cta();
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, out);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}
