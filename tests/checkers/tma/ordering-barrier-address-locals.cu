// A barrier whose shared-window address is kept in an integer local
// (`uint32_t a = __cvta_generic_to_shared(&bar)`, `smem_u32(&bar)`) and
// used by inline PTX is the same barrier: MBAR-INIT-VISIBLE,
// TMA-LOAD-WAIT-BEFORE-READ and MBAR-UNINIT see it (every use of the local
// is a recognised op). Each wrong kernel has a correct twin; a local
// written again stays unknown (silent).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void initAt(uint32_t a) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(1));
}
__device__ void expectAt(uint32_t a, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ void loadAt(uint32_t dst, const void *src, uint32_t n, uint32_t a) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(n), "r"(a)
               : "memory");
}
__device__ void waitAt(uint32_t a, uint32_t phase) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(a),
               "r"(phase)
               : "memory");
}

// MBAR-INIT-VISIBLE through an integer address.
__global__ void addressInitNoSync(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0)
    initAt(a);
  expectAt(a, 1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-2]] with no __syncthreads() in between{{.*}}(MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}    initAt(a);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  loadAt(smem_u32(buf), src, 1024, a);
  waitAt(a, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// The twin; and the wait before the read.
__global__ void addressInitSynced(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  uint32_t a = smem_u32(&bar);
  if (threadIdx.x == 0)
    initAt(a);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(a, 1024);
    loadAt(smem_u32(buf), src, 1024, a);
  }
  waitAt(a, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// TMA-LOAD-WAIT-BEFORE-READ: the wait on the address comes too late.
__global__ void addressReadBeforeWait(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  uint32_t a = smem_u32(&bar);
  if (threadIdx.x == 0) {
    initAt(a);
    expectAt(a, 1024);
    loadAt(smem_u32(buf), src, 1024, a);
  }
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-4]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitAt(a, 0);
}

// MBAR-UNINIT: every use of the address is a recognised op, none an init.
__global__ void addressNeverInit(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  uint32_t a = smem_u32(&bar);
  if (threadIdx.x == 0) {
    expectAt(a, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    loadAt(smem_u32(buf), src, 1024, a);
  }
  waitAt(a, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// Silent: the local is handed to a function the model does not see into.
__device__ void setUpAt(uint32_t a);
__global__ void addressHandedOn(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  uint32_t a = smem_u32(&bar);
  if (threadIdx.x == 0) {
    setUpAt(a);
    expectAt(a, 1024);
    loadAt(smem_u32(buf), src, 1024, a);
  }
  waitAt(a, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}
