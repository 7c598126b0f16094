// MBAR-UNINIT through an init helper that does nothing with the barrier
// (bench/mutate's drop-init: the helper's asm deleted, its address
// conversion left): a parameter whose references all end in a local that
// nothing reads initialises nothing. In the device pass the helper's body
// is the code that runs; in the host pass only when the preprocessor left
// nothing out of it (an `#if __CUDA_ARCH__` around the asm makes the host
// body empty while the device body inits: silent there). Wrong kernels and
// their correct twins. A helper that ignores its parameter altogether
// (CUTLASS's `__CUTLASS_UNUSED(x)` of a log compiled out) does nothing to
// the barrier in the device pass; in the host pass it stays unknown (a
// macro may have emptied a device body there).
// RUN: %check_clang_tidy -check-suffixes=ALL,DEV %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=ALL %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void initNothing(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
}
__device__ void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ void ignores(uint64_t *bar, int count) {}
__device__ void initOnDevice(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
#ifdef __CUDA_ARCH__
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
#endif
}
__device__ void initNothingOnDevice(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
#ifndef __CUDA_ARCH__
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
#endif
}
__device__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ void load(float *dst, const void *src, uint32_t n, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(static_cast<uint32_t>(
                                                     __cvta_generic_to_shared(
                                                         dst))),
               "l"(src), "r"(n),
               "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar)))
               : "memory");
}
__device__ void waitOn(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(static_cast<uint32_t>(
                                          __cvta_generic_to_shared(bar))),
               "r"(phase)
               : "memory");
}

__global__ void deadInit(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initNothing(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(buf, src, 1024, &bar);
  }
  waitOn(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void realInit(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    load(buf, src, 1024, &bar);
  }
  waitOn(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void ignoredInit(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ignores(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    // CHECK-MESSAGES-DEV: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(buf, src, 1024, &bar);
  }
  waitOn(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// The same through an array of barriers whose elements go to the helpers
// (`&full[i]`): each helper uses the element, so the array.
__global__ void deadInitRing(const float *src, float *out) {
  __shared__ alignas(128) float buf[4][256];
  __shared__ uint64_t full[4];
  if (threadIdx.x == 0)
    for (int i = 0; i < 4; ++i)
      initNothing(&full[i], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[2], 1024);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: 'full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(buf[2], src, 1024, &full[2]);
  }
  waitOn(&full[2], 0);
  out[threadIdx.x] = buf[2][threadIdx.x];
}

__global__ void initRing(const float *src, float *out) {
  __shared__ alignas(128) float buf[4][256];
  __shared__ uint64_t full[4];
  if (threadIdx.x == 0)
    for (int i = 0; i < 4; ++i)
      initBarrier(&full[i], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[2], 1024);
    load(buf[2], src, 1024, &full[2]);
  }
  waitOn(&full[2], 0);
  out[threadIdx.x] = buf[2][threadIdx.x];
}

// Compiled out in one pass: the host pass sees no init and stays silent
// (its body had a branch left out); the device pass sees the init.
__global__ void initOnDeviceOnly(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initOnDevice(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    load(buf, src, 1024, &bar);
  }
  waitOn(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// The device body does nothing: the device pass reports it.
__global__ void noInitOnDevice(const float *src, float *out) {
  __shared__ alignas(128) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initNothingOnDevice(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    // CHECK-MESSAGES-DEV: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(buf, src, 1024, &bar);
  }
  waitOn(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}
