// Barrier initialisation through libcu++ and cuda::ptx with the real CCCL
// headers: `init(&bar, n)` on a cuda::barrier is the barrier's
// mbarrier.init, `cuda::device::barrier_native_handle(bar)` its native
// word (through a local pointer), `cuda::ptx::mbarrier_init` +
// `fence_mbarrier_init` an init that still needs a thread barrier before
// the other threads use it. MBAR-INIT-VISIBLE, MBAR-REINIT-INVAL and
// MBAR-UNINIT, each with its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>
#include <utility>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace ptx = cuda::ptx;

// MBAR-INIT-VISIBLE: cuda::barrier initialised by thread 0, used by all.
__global__ void barrierInitNoSync(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  if (threadIdx.x == 0)
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar);
  block_barrier::arrival_token token = bar.arrive();
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-4]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  block_barrier::arrival_token token = bar.arrive();{{$}}
  bar.wait(std::move(token));
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void barrierInitSynced(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar);
  block_barrier::arrival_token token = bar.arrive();
  bar.wait(std::move(token));
  out[threadIdx.x] = s[threadIdx.x];
}

// MBAR-REINIT-INVAL: the barrier is initialised again on every pass.
__global__ void barrierInitInLoop(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0)
      init(&bar, blockDim.x);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: mbarrier.init of 'bar' inside a loop that uses it: the next pass re-initialises a live barrier without mbarrier.inval (MBAR-REINIT-INVAL) [tma-ordering]
    __syncthreads();
    if (threadIdx.x == 0)
      cuda::device::memcpy_async_tx(s, g + k * 256, cuda::aligned_size_t<16>(sizeof(s)), bar);
    bar.wait(bar.arrive());
    out[k * 256 + threadIdx.x] = s[threadIdx.x];
    __syncthreads();
  }
}

__global__ void barrierInitOnce(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0)
      cuda::device::memcpy_async_tx(s, g + k * 256, cuda::aligned_size_t<16>(sizeof(s)), bar);
    bar.wait(bar.arrive());
    out[k * 256 + threadIdx.x] = s[threadIdx.x];
    __syncthreads();
  }
}

// The native handle of a cuda::barrier is the barrier: its init is not
// visible to the threads that wait on the handle (MBAR-INIT-VISIBLE), and
// the tile is read before the wait (TMA-LOAD-WAIT-BEFORE-READ).
__global__ void nativeHandleNoSync(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  uint64_t *h = cuda::device::barrier_native_handle(bar);
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, sizeof(s), h);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, h, sizeof(s));
  }
  out[threadIdx.x] = s[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 's' while the bulk copy at line [[#@LINE-4]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  while (!ptx::mbarrier_try_wait_parity(h, 0)) {
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-10]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}  uint64_t *h = cuda::device::barrier_native_handle(bar);{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  while (!ptx::mbarrier_try_wait_parity(h, 0)) {{[{]$}}
}

__global__ void nativeHandleSynced(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  uint64_t *h = cuda::device::barrier_native_handle(bar);
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, sizeof(s), h);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, h, sizeof(s));
  }
  while (!ptx::mbarrier_try_wait_parity(h, 0)) {
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// cuda::ptx: fence.mbarrier_init orders the init for the async proxy of
// the cluster, not for the block's other threads (MBAR-INIT-VISIBLE).
__global__ void ptxInitFenceNoSync(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(s));
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, sizeof(s), &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-9]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}__global__ void ptxInitFenceNoSync(const float *g, float *out) {{[{]$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {{[{]$}}
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void ptxInitFenceSynced(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(s));
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, sizeof(s), &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// MBAR-UNINIT through cuda::ptx: an arrive.expect_tx where mbarrier_init
// was meant.
__global__ void ptxNeverInit(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(s));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, sizeof(s), &bar);
  }
  __syncthreads();
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  out[threadIdx.x] = s[threadIdx.x];
}
