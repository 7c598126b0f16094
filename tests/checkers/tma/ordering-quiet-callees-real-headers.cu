// Calls of CUDA's value-only math between a bulk copy and a generic read of
// its destination (TMA-LOAD-WAIT-BEFORE-READ) with the real CUDA headers:
// hexp2 and __float2bfloat16 order nothing, so the read still needs the
// wait on the copy's barrier. tma-clangd leaves such bodies out of its
// preamble (clangd/PreambleBodies.cpp) and must judge the kernel as the
// plugin does (the parity test runs this file's device pass): were the
// bodiless calls taken as opaque, the rule would stay silent there.
// Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

template <typename T, int N>
__device__ void load(T (&buf)[N], const T *src, uint64_t &bar) {
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
}

__global__ void mathBeforeRead(const float *src, float *out, float x) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  __nv_bfloat16 scale = hexp2(__float2bfloat16(x));
  out[threadIdx.x] = buf[threadIdx.x] * __bfloat162float(scale);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-4]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
}

__global__ void mathBeforeReadWaited(const float *src, float *out, float x) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __nv_bfloat16 scale = hexp2(__float2bfloat16(x));
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x] * __bfloat162float(scale);
}
