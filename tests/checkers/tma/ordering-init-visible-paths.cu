// MBAR-INIT-VISIBLE on paths: a thread barrier orders the init with a use by
// other threads only on the paths through it. One that lies only in a loop
// that may run no pass (a main loop of nk - 1 passes, then a drain that
// waits), or under a condition, leaves a path from the init to the use
// with none: reported, with a note at the barrier the path skips. Each
// wrong kernel has its twin; a loop whose first pass surely runs gives no
// path around its barrier and stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

constexpr int S = 2;

// The barrier after the init was dropped; the main loop's __syncthreads()
// orders its own waits, but with nk <= 1 it runs no pass and warp 0 waits
// in the drain with no thread barrier since the init.
__global__ void syncOnlyInLoop(int nk) {
  __shared__ uint64_t bar[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initBarrier(&bar[i], 1);
  int s = 0;
  for (int k = 0; k < nk - 1; ++k) {
    __syncthreads();
    if (threadIdx.x < 32)
      waitBarrier(&bar[s], 0);
    s = (s + 1) % S;
  }
  if (threadIdx.x < 32)
    waitBarrier(&bar[s], 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'bar' is used by thread 1, which runs no init of it, here after its mbarrier.init at line [[#@LINE-10]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-11]]:7: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :19:3: note: issued here
    // CHECK-NOTES: :[[@LINE-10]]:5: note: this lies on some path from the init to the use, not on every one: a path skips it (a loop that may run no pass, another branch)
    // CHECK-FIXES: {{^}}    s = (s + 1) % S;{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x < 32){{$}}
}

// Its twin: the thread barrier right after the init.
__global__ void syncAfterInit(int nk) {
  __shared__ uint64_t bar[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initBarrier(&bar[i], 1);
  __syncthreads();
  int s = 0;
  for (int k = 0; k < nk - 1; ++k) {
    __syncthreads();
    if (threadIdx.x < 32)
      waitBarrier(&bar[s], 0);
    s = (s + 1) % S;
  }
  if (threadIdx.x < 32)
    waitBarrier(&bar[s], 0);
}

// A thread barrier under a condition: with nk == 0 the threads pass none.
__global__ void syncUnderCondition(int nk) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  if (nk > 0)
    __syncthreads();
  waitBarrier(&bar, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-4]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :19:3: note: issued here
  // CHECK-NOTES: :[[@LINE-5]]:5: note: this lies on some path from the init to the use, not on every one: a path skips it (a loop that may run no pass, another branch)
  // CHECK-FIXES: {{^}}  if (nk > 0){{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitBarrier(&bar, 0);{{$}}
}

// Its twin: the thread barrier on every path.
__global__ void syncUnconditional(int nk) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  if (nk > 0)
    waitBarrier(&bar, 0);
}

// Silent: the loop's first pass surely runs (four passes), so every path
// to the use after it passes its thread barrier.
__global__ void loopRunsOnce(int nk) {
  __shared__ uint64_t bar[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initBarrier(&bar[i], 1);
  for (int k = 0; k < 4; ++k) {
    __syncthreads();
    if (threadIdx.x < 32)
      waitBarrier(&bar[k % S], 0);
  }
  if (threadIdx.x < 32)
    waitBarrier(&bar[0], 1);
}

