// MBAR-WAIT-PARITY on one barrier waited once a pass (issue 24 item 1): a
// barrier the same on every pass of the wait's loop (a fixed one, or the
// member of a warpgroup's own, `tc[wg]`, whose index the loop never
// writes), waited once a pass with a phase bit flipped once a pass (`ph ^=
// 1` in the loop, under no condition that may change between passes): a
// ring of one stage whose lap is a pass. Cases 2 and 4 of the rule are
// judged on it (they read the first pass alone); case 3, an early release,
// needs each pass to complete exactly one phase, which the model does not
// count: silent with its Why. Shapes the model does not prove stay silent.
// Each wrong kernel has its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_device 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_host 2>&1 | FileCheck %s --check-prefix=WHY

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

constexpr int kTile = 4096;

__device__ static __forceinline__ void initBarrier(uint64_t *bar, int count) {
  uint32_t p = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(p), "r"(count));
}
__device__ static __forceinline__ void expectBytes(uint64_t *bar, uint32_t n) {
  uint32_t p = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(p),
               "r"(n));
}
__device__ static __forceinline__ void loadAsync(void *dst, const void *src,
                                                 uint64_t *bar) {
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(d),
               "l"(src), "r"(kTile), "r"(b)
               : "memory");
}
__device__ static __forceinline__ void wait(uint64_t *bar, int kPhaseBit) {
  uint32_t p = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}" ::"r"(p),
               "r"(kPhaseBit));
}
__device__ static __forceinline__ void release(uint64_t *bar) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  uint32_t p = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(p) : "memory");
}

// One tile buffer, one full and one empty barrier: the producer warp fills
// the tile, the consumer warpgroups read it, tile after tile.
#define ONE_SETUP                                                              \
  __shared__ alignas(128) float tile[kTile / 4];                               \
  __shared__ alignas(8) uint64_t full, empty;                                  \
  if (threadIdx.x == 0) {                                                      \
    initBarrier(&full, 1);                                                     \
    initBarrier(&empty, 256);                                                  \
  }                                                                            \
  __syncthreads();

// --- Case 2: parity 1 on the first pass of a barrier copies complete ------

__global__ void __launch_bounds__(384)
consumerStartsAtOne(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty, ph ^ 1);
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 1;
    for (int t = 0; t < tiles; ++t) {
      wait(&full, ph);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 1 on its first pass (one barrier, its phase bit flipped once a pass), but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:7: note: the copy or expect-tx that completes the first phase
      // CHECK-NOTES: :[[@LINE-56]]:3: note: issued here
      acc += tile[threadIdx.x % 128];
      release(&empty);
      ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the consumers start at 0.
__global__ void __launch_bounds__(384)
consumerStartsAtZero(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty, ph ^ 1);
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&full, ph);
      acc += tile[threadIdx.x % 128];
      release(&empty);
      ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// --- Case 4: parity 0 on the producer's first pass: a hang ------------------

// The flip comes first in the pass: the first wait names 1 ^ 1 = 0.
__global__ void __launch_bounds__(384)
producerFlipsFirst(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 1;
    for (int t = 0; t < tiles; ++t) {
      ph ^= 1;
      wait(&empty, ph);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'empty' names parity 0 on its first pass (one barrier, its phase bit flipped once a pass), so it waits for the barrier's first phase, but every arrive on it comes after a wait for the first phase of 'full', {{.*}} neither first phase can complete and the kernel hangs; {{.*}} (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+12]]:7: note: the arrive that would complete the first phase
      // CHECK-NOTES: :[[@LINE-81]]:3: note: issued here
      // CHECK-NOTES: :[[@LINE+8]]:7: note: the wait it comes after
      // CHECK-NOTES: :[[@LINE-91]]:3: note: issued here
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int t = 0, ph = 0; t < tiles; ++t) {
      wait(&full, ph);
      acc += tile[threadIdx.x % 128];
      release(&empty);
      ph = !ph;
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the flip first from 0, so the first wait names 1.
__global__ void __launch_bounds__(384)
producerFlipsFirstFromZero(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      ph ^= 1;
      wait(&empty, ph);
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&full, ph);
      acc += tile[threadIdx.x % 128];
      release(&empty);
      ph = !ph;
    }
    out[threadIdx.x] = acc;
  }
}

// --- Case 3 on one barrier: silent (the completions a pass are not counted)

// Two consumer warpgroups take turns (simplegemm's and fast.cu's pingpong):
// each waits on its own tc[wg] once a tile and hands the turn to the other;
// thread 0 gives warpgroup 0 the first turn. Parity 1 on the first pass
// would return a turn early, but only if each pass completes one phase,
// which the model does not prove: silent.
__global__ void __launch_bounds__(384)
turnsFromOne(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t tc[2];
  if (threadIdx.x == 0) {
    initBarrier(&tc[0], 1);
    initBarrier(&tc[1], 1);
    release(&tc[0]);
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    int wg = threadIdx.x / 128 - 1;
    int tcp = 1;
    float acc = 0;
    for (int t = wg; t < tiles; t += 2) {
      wait(&tc[wg], tcp);
      // WHY: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'tc' (parity: one barrier's phase, flipped once a pass, 1 on the first pass), under a condition
      acc += tile[threadIdx.x % 128];
      if (threadIdx.x % 128 == 0)
        release(&tc[wg ^ 1]);
      tcp ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}
// WHY: note: model: silent: MBAR-WAIT-PARITY on event {{[0-9]+}} ('tc'): one barrier waited once a pass with a bit flipped once a pass, released before the loop: whether each pass completes exactly one phase of it (the arrives of a pass, their count, the barrier's expected count, and the passes of the loops they lie in) is not proven (event {{[0-9]+}}, line [[@LINE-18]])

// --- Silent: shapes the model does not prove --------------------------------

// The flip is under a condition that changes between passes.
__global__ void __launch_bounds__(384)
flipOnSomePasses(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty, ph ^ 1);
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 1;
    for (int t = 0; t < tiles; ++t) {
      wait(&full, ph);
      // WHY: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full', under a condition
      acc += tile[threadIdx.x % 128];
      release(&empty);
      if (t % 3)
        ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// A pass may end early, before the flip.
__global__ void __launch_bounds__(384)
continueBeforeTheFlip(const char *src, float *out, int tiles) {
  ONE_SETUP
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty, ph ^ 1);
      expectBytes(&full, kTile);
      loadAsync(tile, src + t * kTile, &full);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 1;
    for (int t = 0; t < tiles; ++t) {
      wait(&full, ph);
      // WHY: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full', under a condition
      acc += tile[threadIdx.x % 128];
      release(&empty);
      if (acc > 1.0f)
        continue;
      ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The member changes between passes: not one barrier.
__global__ void __launch_bounds__(384)
memberSteps(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[2][kTile / 4];
  __shared__ alignas(8) uint64_t full[2], empty[2];
  if (threadIdx.x == 0)
    for (int i = 0; i < 2; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 256);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty[t % 2], ph ^ 1);
      expectBytes(&full[t % 2], kTile);
      loadAsync(tile[t % 2], src + t * kTile, &full[t % 2]);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 1, s = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&full[s], ph);
      // WHY: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full', under a condition
      acc += tile[s][threadIdx.x % 128];
      release(&empty[s]);
      s ^= 1;
      ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The member is a local declared in the loop: it starts again every pass,
// here from the tile's parity: not one barrier.
__global__ void __launch_bounds__(384)
memberDeclaredInTheLoop(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[2][kTile / 4];
  __shared__ alignas(8) uint64_t full[2], empty[2];
  if (threadIdx.x == 0)
    for (int i = 0; i < 2; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 256);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    int ph = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&empty[t % 2], ph ^ 1);
      expectBytes(&full[t % 2], kTile);
      loadAsync(tile[t % 2], src + t * kTile, &full[t % 2]);
      ph ^= 1;
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int ph = 1;
    for (int t = 0; t < tiles; ++t) {
      const int s = t % 2;
      wait(&full[s], ph);
      // WHY: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full', under a condition
      acc += tile[s][threadIdx.x % 128];
      release(&empty[s]);
      ph ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}
