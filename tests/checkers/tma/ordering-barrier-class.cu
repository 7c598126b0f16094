// A user's barrier class (a transaction barrier wrapped in a struct whose
// members issue inline PTX on `&bar`, as FlashKDA and many kernels write
// it): `this` of a member called on a `__shared__` object is that object,
// so its init, expect-tx, wait and the copy completing on it are one
// barrier for MBAR-INIT-VISIBLE, MBAR-UNINIT and TMA-LOAD-WAIT-BEFORE-READ.
// Each wrong kernel has a correct twin; an object outside shared memory
// stays unnamed (silent).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

struct TxBarrier {
  uint64_t bar;
  __device__ void init(uint32_t n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(&bar)),
                 "r"(n));
  }
  __device__ void expect(uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smem_u32(&bar)),
                 "r"(bytes)
                 : "memory");
  }
  __device__ void wait(uint32_t phase) {
    asm volatile("{\n .reg .pred p;\n W_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 " @!p bra W_%=;\n}\n" ::"r"(smem_u32(&bar)),
                 "r"(phase)
                 : "memory");
  }
  // Calls through `this`.
  __device__ void expectAndWait(uint32_t bytes) {
    expect(bytes);
    wait(0);
  }
};

__device__ void load(void *dst, const void *src, uint32_t n, TxBarrier &b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smem_u32(dst)),
               "l"(src), "r"(n), "r"(smem_u32(&b.bar))
               : "memory");
}

// MBAR-INIT-VISIBLE: thread 0 initialises, every thread arrives.
__global__ void memberInitNoSync(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ TxBarrier b;
  if (threadIdx.x == 0)
    b.init(1);
  b.expect(1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'b' is used by all threads here after its mbarrier.init at line [[#@LINE-2]] with no __syncthreads() in between{{.*}}(MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}    b.init(1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  load(buf, src, 1024, b);
  b.wait(0);
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void memberInitSynced(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ TxBarrier b;
  if (threadIdx.x == 0)
    b.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    b.expect(1024);
    load(buf, src, 1024, b);
  }
  b.wait(0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// MBAR-UNINIT: no member initialises it.
__global__ void memberNeverInit(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ TxBarrier b;
  if (threadIdx.x == 0) {
    b.expect(1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'b' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(buf, src, 1024, b);
  }
  b.wait(0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// TMA-LOAD-WAIT-BEFORE-READ: __syncthreads() instead of the member wait.
__global__ void memberReadBeforeWait(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ TxBarrier b;
  if (threadIdx.x == 0) {
    b.init(1);
    b.expect(1024);
    load(buf, src, 1024, b);
  }
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-4]] may still write it: no wait on 'b' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  b.wait(0);
}

// The twin, waiting through a member that calls members on `this`.
__global__ void memberWaitThroughThis(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ TxBarrier b;
  if (threadIdx.x == 0)
    b.init(1);
  __syncthreads();
  if (threadIdx.x == 0)
    load(buf, src, 1024, b);
  b.expectAndWait(1024);
  out[threadIdx.x] = buf[threadIdx.x];
}

// Silent: the object is not in shared memory as far as the model knows.
__global__ void memberOfPointer(const float *src, float *out, TxBarrier *g) {
  __shared__ alignas(128) float buf[256];
  if (threadIdx.x == 0) {
    g->expect(1024);
    load(buf, src, 1024, *g);
  }
  g->wait(0);
  out[threadIdx.x] = buf[threadIdx.x];
}
