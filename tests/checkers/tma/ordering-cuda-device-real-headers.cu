// tma-ordering through cuda::device and libcu++'s cuda::barrier with the
// real CCCL headers: cuda::device::memcpy_async_tx into a buffer and
// cuda::device::barrier_arrive_tx, init(&bar, n), bar.arrive() and
// bar.wait(std::move(token)): a read before the wait
// (TMA-LOAD-WAIT-BEFORE-READ), a barrier never initialised (MBAR-UNINIT),
// a refill of a buffer just read (ASYNC-WAR-FENCE); each with its correct
// twin. (MBAR-INIT-VISIBLE and MBAR-REINIT-INVAL through cuda::barrier:
// ordering-barrier-init-real-headers.cu.)
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>
#include <utility>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace ptx = cuda::ptx;

// TMA-LOAD-WAIT-BEFORE-READ
__global__ void readBeforeWait(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0)
    init(&bar[0], blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
    token = cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s));
  } else {
    token = bar[0].arrive();
  }
  out[threadIdx.x] = s[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 's' while the bulk copy at line [[#@LINE-6]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  bar[0].wait(std::move(token));
}

__global__ void readAfterWait(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0)
    init(&bar[0], blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
    token = cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s));
  } else {
    token = bar[0].arrive();
  }
  bar[0].wait(std::move(token));
  out[threadIdx.x] = s[threadIdx.x];
}

// MBAR-UNINIT: never initialised.
__global__ void neverInit(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    (void)cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s));
  }
}

// The twin: initialised, synchronised, waited for.
__global__ void initialised(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0)
    init(&bar[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
    bar[0].wait(cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s)));
    out[0] = s[0];
  }
}

// ASYNC-WAR-FENCE
__global__ void refill(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0)
    init(&bar[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = s[k];
      cuda::device::memcpy_async_tx(s, g + k * 256, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: bulk copy overwrites 's' that generic loads read at line [[#@LINE-2]] {{.*}}(ASYNC-WAR-FENCE) [tma-ordering]
      bar[0].wait(cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s)));
    }
  }
}

// The twin: the reads are fenced before the refill.
__global__ void refillFenced(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar[1];
  if (threadIdx.x == 0)
    init(&bar[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = s[k];
      cuda::device::experimental::fence_proxy_async_shared_cta();
      cuda::device::memcpy_async_tx(s, g + k * 256, cuda::aligned_size_t<16>(sizeof(s)), bar[0]);
      bar[0].wait(cuda::device::barrier_arrive_tx(bar[0], 1, sizeof(s)));
    }
  }
}
