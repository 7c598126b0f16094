// MBAR-WAIT-PARITY on rings stepped as production kernels step them (issue
// 24 item 1): a helper taking the stage and phase by reference (simplegemm's
// stage_next), a lambda capturing them by reference (DeepGEMM's
// advance_pipeline, with its `s == S - 1 ? 0 : s + 1` and `phase ^= s == 0`),
// and a stride n that skips the stages another consumer takes (simplegemm's
// stage_advance, fast.cu's `qidx += n; p ^= (qidx / S) % 2; qidx %= S;`).
// Each wrong kernel (a full barrier waited with parity 1 on its first lap:
// the wait returns before the copy lands) has its correct twin; steps the
// model cannot prove keep it silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

constexpr int S = 4;
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

#define RING_SETUP                                                             \
  __shared__ alignas(128) float tile[S][kTile / 4];                            \
  __shared__ alignas(8) uint64_t full[S], empty[S];                            \
  if (threadIdx.x == 0)                                                        \
    for (int i = 0; i < S; ++i) {                                              \
      initBarrier(&full[i], 1);                                                \
      initBarrier(&empty[i], 256);                                             \
    }                                                                          \
  __syncthreads();

__device__ static inline void stageNext(int &stage, int &phase) {
  stage++;
  if (stage == S) {
    stage = 0;
    phase ^= 1;
  }
}

__device__ static inline void stageAdvance(int &stage, int &phase, int steps) {
  phase = phase ^ (((stage + steps) / S) & 1);
  stage = (stage + steps) % S;
}

// The producer warp of every kernel below: its empty waits start at parity 1
// (the phase before the first), stepped by the helper.
__device__ void produce(float (*tile)[kTile / 4], uint64_t *full,
                        uint64_t *empty, const char *src, int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    wait(&empty[stage], phase ^ 1);
    expectBytes(&full[stage], kTile);
    loadAsync(tile[stage], src + k * kTile, &full[stage]);
    stageNext(stage, phase);
  }
}

// --- A helper taking the stage and phase by reference ------------------------

__global__ void __launch_bounds__(384)
helperFullAtOne(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase ^ 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: the copy or expect-tx that completes the first phase
      // CHECK-NOTES: :[[@LINE-75]]:3: note: issued here
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageNext(stage, phase);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: parity `phase`.
__global__ void __launch_bounds__(384)
helperFullAtZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageNext(stage, phase);
    }
    out[threadIdx.x] = acc;
  }
}

// --- A lambda capturing them by reference, in the loop's increment -----------

__global__ void __launch_bounds__(384)
lambdaFullAtOne(const char *src, float *out, int nk) {
  RING_SETUP
  int stage = 0, phase = 0;
  auto advance = [&](int &k) {
    ++k;
    stage = stage == S - 1 ? 0 : stage + 1;
    phase ^= stage == 0;
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; advance(k)) {
      wait(&empty[stage], phase ^ 1);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; advance(k)) {
      wait(&full[stage], phase ^ 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-8]]:7: note: the copy or expect-tx that completes the first phase
      // CHECK-NOTES: :[[@LINE-126]]:3: note: issued here
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: parity `phase` on the full barrier.
__global__ void __launch_bounds__(384)
lambdaFullAtZero(const char *src, float *out, int nk) {
  RING_SETUP
  int stage = 0, phase = 0;
  auto advance = [&](int &k) {
    ++k;
    stage = stage == S - 1 ? 0 : stage + 1;
    phase ^= stage == 0;
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; advance(k)) {
      wait(&empty[stage], phase ^ 1);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; advance(k)) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- A stride: two consumer warpgroups take turns of nk stages ---------------

__global__ void __launch_bounds__(384)
strideFullAtOne(const char *src, float *out, int nk, int tiles) {
  RING_SETUP
  if (threadIdx.x == 0) {
    for (int t = 0; t < tiles; ++t)
      produce(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    int cons = threadIdx.x / 128 - 1;
    float acc = 0;
    int stage = 0, phase = 0;
    if (cons == 1)
      stageAdvance(stage, phase, nk);
    for (int t = cons; t < tiles; t += 2) {
      for (int k = 0; k < nk; ++k) {
        wait(&full[stage], phase ^ 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
        // CHECK-NOTES: :[[@LINE-11]]:7: note: the copy or expect-tx that completes the first phase
        // CHECK-NOTES: :[[@LINE-180]]:3: note: issued here
        acc += tile[stage][threadIdx.x % 128];
        release(&empty[stage]);
        ++stage;
        if (stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
      stage += nk;
      phase ^= (stage / S) % 2;
      stage %= S;
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: parity `phase`.
__global__ void __launch_bounds__(384)
strideFullAtZero(const char *src, float *out, int nk, int tiles) {
  RING_SETUP
  if (threadIdx.x == 0) {
    for (int t = 0; t < tiles; ++t)
      produce(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    int cons = threadIdx.x / 128 - 1;
    float acc = 0;
    int stage = 0, phase = 0;
    if (cons == 1)
      stageAdvance(stage, phase, nk);
    for (int t = cons; t < tiles; t += 2) {
      for (int k = 0; k < nk; ++k) {
        wait(&full[stage], phase);
        acc += tile[stage][threadIdx.x % 128];
        release(&empty[stage]);
        ++stage;
        if (stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
      stage += nk;
      phase ^= (stage / S) % 2;
      stage %= S;
    }
    out[threadIdx.x] = acc;
  }
}

// --- A stride before the first wait: the first pass may be on a later lap -----

// The producer skips the first lap of the empty barriers (the phase bit is 1
// after it), so its first wait names parity 1 and passes at once: no hang.
// With parity 0 on the ring's first lap the model would call it one
// (MBAR-WAIT-PARITY case 4); a stride keeps it from judging the first pass.
__global__ void __launch_bounds__(384)
strideSkipsFirstLap(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    stageAdvance(stage, phase, S);
    for (int k = 0; k < nk; ++k) {
      wait(&empty[stage], phase);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      stageNext(stage, phase);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageNext(stage, phase);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: no stride, the producer's first wait names parity 0 on the empty
// barrier's first phase, which waits for it: the kernel hangs.
__global__ void __launch_bounds__(384)
noStrideFirstLapZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&empty[stage], phase);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'empty' names parity 0 on the ring's first lap, so it waits for the barrier's first phase, but every arrive on it comes after a wait for the first phase of 'full', and every copy, expect-tx or arrive on 'full' after a wait for a first phase like this one: neither first phase can complete and the kernel hangs; wait with parity 1 on the first lap (it names the phase before the first, which counts as complete) (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+14]]:7: note: the arrive that would complete the first phase
      // CHECK-NOTES: :[[@LINE-249]]:3: note: issued here
      // CHECK-NOTES: :[[@LINE+10]]:7: note: the wait it comes after
      // CHECK-NOTES: :[[@LINE-259]]:3: note: issued here
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      stageNext(stage, phase);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageNext(stage, phase);
    }
    out[threadIdx.x] = acc;
  }
}

// --- Steps the model cannot prove: silent ------------------------------------
// Each kernel below waits on 'full' with parity 1 on its first lap, as the
// wrong kernels above do; the model does not prove what the phase is, and a
// parity it does not follow is no finding.

// The stride's lap divides by another count than the ring's wrap.
__global__ void __launch_bounds__(384)
strideOtherLap(const char *src, float *out, int nk, int tiles) {
  RING_SETUP
  if (threadIdx.x == 0) {
    for (int t = 0; t < tiles; ++t)
      produce(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int t = 0; t < tiles; ++t) {
      wait(&full[stage], phase ^ 1);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageNext(stage, phase);
      phase = phase ^ (((stage + nk) / (2 * S)) & 1);
      stage = (stage + nk) % S;
    }
    out[threadIdx.x] = acc;
  }
}

// A helper steps the stage from where an inline `++stage` may leave it at S,
// before its wrap.
__global__ void __launch_bounds__(384)
helperAfterInlineStep(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      if (stage == S) {
        stage = 0;
        phase ^= 1;
      }
      wait(&full[stage], phase ^ 1);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      ++stage;
      if (k == 7)
        stageNext(stage, phase);
    }
    out[threadIdx.x] = acc;
  }
}

// A mutable lambda steps its own copies.
__global__ void __launch_bounds__(384)
lambdaByCopy(const char *src, float *out, int nk) {
  RING_SETUP
  int stage = 0, phase = 0;
  auto advance = [=](int &k) mutable {
    ++k;
    stage = stage == S - 1 ? 0 : stage + 1;
    phase ^= stage == 0;
  };
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; advance(k)) {
      wait(&full[stage], phase ^ 1);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
    }
    out[threadIdx.x] = acc;
  }
}

// A helper steps the stage alone; the phase flips in the kernel, after it.
__device__ static inline void stageOnly(int &stage) {
  if (++stage == S)
    stage = 0;
}

__global__ void __launch_bounds__(384)
helperStageOnly(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase ^ 1);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stageOnly(stage);
      if (stage == 0)
        phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}
