// Generic shared-memory accesses of class-typed elements with the real CUDA
// headers (TMA-LOAD-WAIT-BEFORE-READ): a `__nv_bfloat16` passed by value or
// to its operators, a `uint4` copied by value, the `.x` of a `uint4`
// element and a compound assignment all read the copy's destination, and
// need the wait on its barrier. Each wrong kernel has a correct twin.
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

// A bf16 element passed by value to __bfloat162float.
__global__ void bf16ByValue(const __nv_bfloat16 *src, float *out) {
  __shared__ alignas(16) __nv_bfloat16 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  out[threadIdx.x] = __bfloat162float(buf[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
}

__global__ void bf16ByValueWaited(const __nv_bfloat16 *src, float *out) {
  __shared__ alignas(16) __nv_bfloat16 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  waitParity(&bar, 0);
  out[threadIdx.x] = __bfloat162float(buf[threadIdx.x]);
}

// bf16 elements read by the type's operator*.
__global__ void bf16Operator(const __nv_bfloat16 *src, __nv_bfloat16 *out) {
  __shared__ alignas(16) __nv_bfloat16 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x] * buf[threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
}

__global__ void bf16OperatorWaited(const __nv_bfloat16 *src,
                                   __nv_bfloat16 *out) {
  __shared__ alignas(16) __nv_bfloat16 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x] * buf[threadIdx.x + 1];
}

// A 16-byte vector copied by value.
__global__ void vectorCopy(const uint4 *src, uint4 *out) {
  __shared__ alignas(16) uint4 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  uint4 v = buf[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  out[threadIdx.x] = v;
  waitParity(&bar, 0);
}

__global__ void vectorCopyWaited(const uint4 *src, uint4 *out) {
  __shared__ alignas(16) uint4 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  waitParity(&bar, 0);
  uint4 v = buf[threadIdx.x];
  out[threadIdx.x] = v;
}

// One lane of a vector element.
__global__ void vectorLane(const float4 *src, float *out) {
  __shared__ alignas(16) float4 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x].y;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
}

__global__ void vectorLaneWaited(const float4 *src, float *out) {
  __shared__ alignas(16) float4 buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x].y;
}

// `+=` reads the element before it writes it.
__global__ void compoundAssign(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  __syncthreads();
  buf[threadIdx.x] *= 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void compoundAssignWaited(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  load(buf, src, bar);
  waitParity(&bar, 0);
  buf[threadIdx.x] *= 2.0f;
  out[threadIdx.x] = buf[threadIdx.x];
}
