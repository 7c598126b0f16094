// tma-ordering through libcu++'s cuda::pipeline with the real CCCL headers:
// cuda::memcpy_async into shared memory on a thread-scope pipeline, then
// pipe.consumer_wait() (asm cp.async.wait_group) before the reads, with a
// `continue` between the copy and the read that the CFG follows (the shape
// of flashinfer's bgmv_moe kernel): the wait counts, so the correct form
// stays silent; a read before consumer_wait() is TMA-LOAD-WAIT-BEFORE-READ.
// The host pass compiles CCCL's copy without its device code: the finder
// sees no copy there, and the check is silent.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda/pipeline>

// The read waits for the copy with consumer_wait(); a `continue` skips
// invalid rows in between.
__global__ void waitThenRead(const float *g, float *out, const int *valid,
                             int n) {
  __shared__ alignas(16) float s[256];
  auto pipe = cuda::make_pipeline();
  for (int k = 0; k < n; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(s + threadIdx.x * 4, g + k * 256 + threadIdx.x * 4,
                       cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    if (!valid[k]) {
      pipe.consumer_release();
      continue;
    }
    out[k * 256 + threadIdx.x] = s[threadIdx.x];
    __syncthreads();
    pipe.consumer_release();
  }
}

// The same loop reading before consumer_wait().
__global__ void readBeforeWait(const float *g, float *out, const int *valid,
                               int n) {
  __shared__ alignas(16) float s[256];
  auto pipe = cuda::make_pipeline();
  for (int k = 0; k < n; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(s + threadIdx.x * 4, g + k * 256 + threadIdx.x * 4,
                       cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
    __syncthreads();
    if (!valid[k]) {
      pipe.consumer_release();
      continue;
    }
    out[k * 256 + threadIdx.x] = s[threadIdx.x];
    // CHECK-NOTES-DEVICE: :[[@LINE-1]]:34: warning: generic load reads 's' while the bulk copy at line [[#@LINE-9]] may still write it: no wait on its mbarrier in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES-DEVICE: :[[@LINE-10]]:5: note: the bulk copy into 's' completes on its mbarrier
    pipe.consumer_wait();
    __syncthreads();
    pipe.consumer_release();
  }
}
