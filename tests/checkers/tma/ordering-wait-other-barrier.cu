// TMA-LOAD-WAIT-BEFORE-READ judges the wait by its barrier: a wait on a
// barrier proven other than the one the copy completes on (another
// `__shared__` variable, another field of one shared struct) does not order
// the read (h100_gemm's two-barrier GEMM with `barA.wait` dropped: the
// wait on barB is left). A wait whose barrier may be the copy's (the same
// variable, a barrier in the dynamic pool, which any `extern __shared__`
// view aliases) still counts. Wrong kernels and their correct twins.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t sAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void initBar(uint64_t *bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sAddr(bar)));
}
__device__ void expectBytes(uint64_t *bar, uint32_t n) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   sAddr(bar)),
               "r"(n)
               : "memory");
}
__device__ void load(const CUtensorMap *map, void *dst, uint64_t *bar, int x) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               ::"r"(sAddr(dst)), "l"(map), "r"(sAddr(bar)), "r"(x), "r"(0)
               : "memory");
}
__device__ void waitOn(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(sAddr(bar)),
               "r"(phase)
               : "memory");
}

// Two copies, each on its own barrier; only barB is waited for.
__global__ void __launch_bounds__(128)
waitsOtherVariable(const __grid_constant__ CUtensorMap mapA,
                   const __grid_constant__ CUtensorMap mapB, float *out) {
  __shared__ alignas(128) float sharedA[32 * 32];
  __shared__ alignas(128) float sharedB[32 * 32];
  __shared__ uint64_t barA, barB;
  if (threadIdx.x == 0) {
    initBar(&barA);
    initBar(&barB);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&barA, sizeof(sharedA));
    load(&mapA, sharedA, &barA, 0);
    expectBytes(&barB, sizeof(sharedB));
    load(&mapB, sharedB, &barB, 0);
  }
  waitOn(&barB, 0);
  out[threadIdx.x] = sharedA[threadIdx.x] + sharedB[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'sharedA' while the TMA load at line [[#@LINE-6]] may still write it: no wait on 'barA' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the TMA load into 'sharedA' completes on 'barA'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this wait is on another barrier: it does not order the read
}

__global__ void __launch_bounds__(128)
waitsBoth(const __grid_constant__ CUtensorMap mapA,
          const __grid_constant__ CUtensorMap mapB, float *out) {
  __shared__ alignas(128) float sharedA[32 * 32];
  __shared__ alignas(128) float sharedB[32 * 32];
  __shared__ uint64_t barA, barB;
  if (threadIdx.x == 0) {
    initBar(&barA);
    initBar(&barB);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&barA, sizeof(sharedA));
    load(&mapA, sharedA, &barA, 0);
    expectBytes(&barB, sizeof(sharedB));
    load(&mapB, sharedB, &barB, 0);
  }
  waitOn(&barA, 0);
  waitOn(&barB, 0);
  out[threadIdx.x] = sharedA[threadIdx.x] + sharedB[threadIdx.x];
}

// Fields of one shared struct: the wait is on 'empty', the copy on 'full'.
struct Bars {
  uint64_t full[2], empty[2];
};
__global__ void __launch_bounds__(128)
waitsOtherField(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ Bars bars;
  if (threadIdx.x == 0) {
    initBar(&bars.full[0]);
    initBar(&bars.empty[0]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bars.full[0], sizeof(tile));
    load(&map, tile, &bars.full[0], 0);
  }
  waitOn(&bars.empty[0], 0);
  out[threadIdx.x] = tile[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 'tile' while the TMA load at line [[#@LINE-4]] may still write it: no wait on 'bars' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the TMA load into 'tile' completes on 'bars'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this wait is on another barrier: it does not order the read
}

__global__ void __launch_bounds__(128)
waitsSameField(const __grid_constant__ CUtensorMap map, float *out, int s) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ Bars bars;
  if (threadIdx.x == 0) {
    initBar(&bars.full[0]);
    initBar(&bars.full[1]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bars.full[0], sizeof(tile));
    load(&map, tile, &bars.full[0], 0);
  }
  // Another member of the family, by a run-time index: it may be the
  // copy's barrier.
  waitOn(&bars.full[s & 1], 0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// Barriers in the dynamic pool through two views: not told apart, the
// wait counts (and `b.other` is `a.bar`, which the init made: no
// MBAR-UNINIT either).
struct ViewA {
  alignas(128) float tile[32 * 32];
  uint64_t bar;
};
struct ViewB {
  alignas(128) float tile[32 * 32];
  uint64_t other;
};
__global__ void __launch_bounds__(128)
poolViews(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(128) uint8_t smem[];
  ViewA &a = *reinterpret_cast<ViewA *>(smem);
  ViewB &b = *reinterpret_cast<ViewB *>(smem);
  if (threadIdx.x == 0)
    initBar(&a.bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&a.bar, sizeof(a.tile));
    load(&map, a.tile, &a.bar, 0);
  }
  waitOn(&b.other, 0);
  out[threadIdx.x] = a.tile[threadIdx.x];
}
