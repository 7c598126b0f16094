// Barriers and buffers reached through integer shared-window addresses with
// arithmetic, the layout of many hand-written kernels (issue 24 item 3):
// `base = __cvta_generic_to_shared(smem)` of a byte pool, `bars = base +
// OFF`, a barrier `bars + s * 8` of a ring and a tile `base + s * STAGE`,
// handed to asm helpers that take `int` addresses. A barrier is named by
// its byte offset in the pool (`smem + 65536 + 8 * s` is the family of the
// ring's barriers); offsets fold through constants, sizeof and locals,
// const locals captured by reference by a lambda, and a local assigned by
// the statement after its declaration. Each wrong kernel has its correct
// twin; an offset that does not fold stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

constexpr int S = 2;
constexpr int kStage = 32768;
constexpr int kBarOff = S * kStage;

__device__ inline void initAt(int a, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void expectAt(int a, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ inline void loadAt(int dst, const void *src, int a) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(kStage), "r"(a)
               : "memory");
}
__device__ inline void waitAt(int a, int phase) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}" ::"r"(a),
               "r"(phase)
               : "memory");
}
__device__ inline float readAt(int a) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(a));
  return static_cast<float>(v);
}

// --- MBAR-INIT-VISIBLE: an init loop over the pool's barriers --------------

__global__ void poolInitNoSync(const char *src, float *out) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + kBarOff;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initAt(bars + i * 8, 1);
  for (int s = 0; s < S; ++s)
    waitAt(bars + s * 8, 0);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'smem + 65536 + 8 * s' is used by all threads here after its mbarrier.init at line [[#@LINE-3]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :25:3: note: issued here
  // CHECK-FIXES: {{^}}      initAt(bars + i * 8, 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  for (int s = 0; s < S; ++s){{$}}
  out[threadIdx.x] = readAt(base + threadIdx.x * 4);
}

// The twin.
__global__ void poolInitSynced(const char *src, float *out) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + kBarOff;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initAt(bars + i * 8, 1);
  __syncthreads();
  for (int s = 0; s < S; ++s)
    waitAt(bars + s * 8, 0);
  out[threadIdx.x] = readAt(base + threadIdx.x * 4);
}

// --- MBAR-WAIT-PARITY and TMA-LOAD-WAIT-BEFORE-READ on the ring -------------
// learn-cuda's 02c matmul: the producer is one thread, the ring's stage and
// phase are locals of the kernel, the loads and the wait take `int`
// addresses computed by lambdas that capture const locals by reference.

#define WINDOW_RING(PARITY, WAIT)                                              \
  extern __shared__ __align__(1024) char smem[];                               \
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));           \
  const int tiles = base;                                                      \
  const int bars = base + kBarOff;                                             \
  if (threadIdx.x == 0)                                                        \
    for (int i = 0; i < S; ++i)                                                \
      initAt(bars + i * 8, 1);                                                 \
  __syncthreads();                                                             \
  auto load = [&](int k, int s) {                                              \
    if (threadIdx.x == 0) {                                                    \
      const int bar = bars + s * 8;                                            \
      expectAt(bar, kStage);                                                   \
      loadAt(tiles + s * kStage, src + k * kStage, bar);                       \
    }                                                                          \
  };                                                                           \
  float acc = 0;                                                               \
  int stage = 0, phase = 0;                                                    \
  for (int k = 0; k < nk; ++k) {                                               \
    __syncthreads();                                                           \
    load(k, stage);                                                            \
    WAIT(bars + stage * 8, PARITY);                                            \
    acc += readAt(tiles + stage * kStage + threadIdx.x * 4);                   \
    stage = (stage + 1) % S;                                                   \
    if (stage == 0)                                                            \
      phase ^= 1;                                                              \
  }                                                                            \
  out[threadIdx.x] = acc;

#define NO_WAIT(A, P) (void)0

__global__ void __launch_bounds__(128)
ringParityFlipped(const char *src, float *out, int nk) {
  WINDOW_RING(phase ^ 1, waitAt)
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: wait on 'smem + 65536 + 8 * s' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the copy or expect-tx that completes the first phase
  // CHECK-NOTES: :28:3: note: issued here
}

__global__ void __launch_bounds__(128)
ringNoWait(const char *src, float *out, int nk) {
  WINDOW_RING(phase, NO_WAIT)
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: generic load reads 'smem' while the bulk copy at line [[#@LINE-1]] may still write it: no wait on 'smem + 65536 + 8 * s' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the bulk copy into 'smem' completes on 'smem + 65536 + 8 * s'
  // CHECK-NOTES: :34:3: note: issued here
}

// The twin of both.
__global__ void __launch_bounds__(128)
ringCorrect(const char *src, float *out, int nk) {
  WINDOW_RING(phase, waitAt)
}

// The consumer reads the stage through a local it moves along the tile
// (`a += 32` in a loop, learn-cuda's ldmatrix addresses): still the pool.
__global__ void __launch_bounds__(128)
ringMovedRead(const char *src, float *out, int nk) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + kBarOff;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initAt(bars + i * 8, 1);
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0) {
      expectAt(bars + s * 8, kStage);
      loadAt(base + s * kStage, src + k * kStage, bars + s * 8);
    }
    int a = (base + s * kStage) ^ (threadIdx.x * 16);
    for (int j = 0; j < 4; ++j) {
      acc += readAt(a);
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: generic load reads 'smem' while the bulk copy at line [[#@LINE-5]] may still write it: no wait on 'smem + 65536 + 8 * s' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-6]]:7: note: the bulk copy into 'smem' completes on 'smem + 65536 + 8 * s'
      // CHECK-NOTES: :34:3: note: issued here
      a += 32;
    }
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// The twin: the wait before the reads.
__global__ void __launch_bounds__(128)
ringMovedReadWaited(const char *src, float *out, int nk) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + kBarOff;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initAt(bars + i * 8, 1);
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0) {
      expectAt(bars + s * 8, kStage);
      loadAt(base + s * kStage, src + k * kStage, bars + s * 8);
    }
    waitAt(bars + s * 8, (k / S) & 1);
    int a = (base + s * kStage) ^ (threadIdx.x * 16);
    for (int j = 0; j < 4; ++j) {
      acc += readAt(a);
      a += 32;
    }
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// --- A local assigned by the statement after its declaration ----------------
// flashinfer's kda kernels: `int smem; smem = (int)cvta(smem_raw);`.

__global__ void assignedBaseNoSync(float *out) {
  extern __shared__ __align__(1024) char raw[];
  int smem;
  smem = (int)(unsigned long long)__cvta_generic_to_shared(raw);
  const int mbar = smem;
  if (threadIdx.x == 0) {
    initAt(mbar + 0, 1);
    initAt(mbar + 8, 1);
  }
  waitAt(mbar + 8, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'raw + 8' is used by all threads here after its mbarrier.init at line [[#@LINE-3]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}    initAt(mbar + 8, 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitAt(mbar + 8, 0);{{$}}
  // CHECK-NOTES: :[[@LINE-8]]:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :25:3: note: issued here
  out[threadIdx.x] = readAt(smem + 1024 + threadIdx.x * 4);
}

// The twin.
__global__ void assignedBaseSynced(float *out) {
  extern __shared__ __align__(1024) char raw[];
  int smem;
  smem = (int)(unsigned long long)__cvta_generic_to_shared(raw);
  const int mbar = smem;
  if (threadIdx.x == 0) {
    initAt(mbar + 0, 1);
    initAt(mbar + 8, 1);
  }
  __syncthreads();
  waitAt(mbar + 8, 0);
  out[threadIdx.x] = readAt(smem + 1024 + threadIdx.x * 4);
}

// --- Silent: offsets the model does not fold ---------------------------------

// The barrier's offset is a run-time value that is no stage times a
// constant: the barrier is unknown.
__global__ void unknownOffset(float *out, int off) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  if (threadIdx.x == 0)
    initAt(base + off, 1);
  waitAt(base + off, 0);
  out[threadIdx.x] = readAt(base + 1024 + threadIdx.x * 4);
}

// The base is written again after its initialisation.
__global__ void reassignedBase(float *out, int shift) {
  extern __shared__ __align__(1024) char smem[];
  int base = static_cast<int>(__cvta_generic_to_shared(smem));
  base += shift;
  if (threadIdx.x == 0)
    initAt(base, 1);
  waitAt(base, 0);
  out[threadIdx.x] = readAt(base + 1024 + threadIdx.x * 4);
}
