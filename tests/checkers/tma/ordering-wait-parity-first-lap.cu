// MBAR-WAIT-PARITY on the first lap of an empty barrier (issue 24 item 1):
// a producer warp waits on empty[s] before it refills stage s; consumer
// warpgroups wait on full[s], read the stage and arrive on empty[s]. The
// empty barriers start in phase 0 and only the consumers arrive on them,
// after their wait on full[s], which the producer's copy after its empty
// wait completes. A producer wait with parity 0 on the first lap waits for
// phase 0 of empty[s], which waits for it: the kernel hangs. Parity 1 (the
// phase before the first, complete from the start) passes at once. Each
// hanging kernel has its correct twin; where an arrival may come from
// something the model does not see, or before the ring, it stays silent.
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
// The MMA warp of a Blackwell kernel: its commit arrives on the barrier
// when the MMAs before it complete (the model has no event for it).
__device__ static __forceinline__ void commitTo(uint64_t *bar) {
  uint32_t p = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(p)
               : "memory");
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

// The consumers of every kernel below: the ring's phase from 0, released
// after each read.
__device__ void consume(float (*tile)[kTile / 4], uint64_t *full,
                        uint64_t *empty, float *out, int nk) {
  float acc = 0;
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    wait(&full[stage], phase);
    acc += tile[stage][threadIdx.x % 128];
    release(&empty[stage]);
    if (++stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
  out[threadIdx.x] = acc;
}

// --- A phase bit that starts at 0 on the producer's empty wait --------------

__global__ void __launch_bounds__(384)
producerStartsAtZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x / 128 == 0) {
    if (threadIdx.x == 0) {
      int stage = 0, phase = 0;
      for (int k = 0; k < nk; ++k) {
        wait(&empty[stage], phase);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: wait on 'empty' names parity 0 on the ring's first lap, so it waits for the barrier's first phase, but every arrive on it comes after a wait for the first phase of 'full', and every copy, expect-tx or arrive on 'full' after a wait for a first phase like this one: neither first phase can complete and the kernel hangs; wait with parity 1 on the first lap (it names the phase before the first, which counts as complete) (MBAR-WAIT-PARITY) [tma-ordering]
        // CHECK-NOTES: :[[@LINE+13]]:5: note: the arrive that would complete the first phase
        // CHECK-NOTES: :[[@LINE-51]]:3: note: issued here
        // CHECK-NOTES: :[[@LINE+11]]:5: note: the wait it comes after
        // CHECK-NOTES: :[[@LINE-61]]:3: note: issued here
        expectBytes(&full[stage], kTile);
        loadAsync(tile[stage], src + k * kTile, &full[stage]);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else {
    consume(tile, full, empty, out, nk);
  }
}

// Twin: the producer waits on the phase before the first.
__global__ void __launch_bounds__(384)
producerStartsAtOne(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x / 128 == 0) {
    if (threadIdx.x == 0) {
      int stage = 0, phase = 0;
      for (int k = 0; k < nk; ++k) {
        wait(&empty[stage], phase ^ 1);
        expectBytes(&full[stage], kTile);
        loadAsync(tile[stage], src + k * kTile, &full[stage]);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else {
    consume(tile, full, empty, out, nk);
  }
}

// --- A counter's lap on both sides ------------------------------------------

__global__ void __launch_bounds__(384)
counterLapZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], (k / S) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'empty' names parity 0 on the ring's first lap, {{.*}} neither first phase can complete and the kernel hangs; {{.*}} (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+12]]:7: note: the arrive that would complete the first phase
      // CHECK-NOTES: :[[@LINE-99]]:3: note: issued here
      // CHECK-NOTES: :[[@LINE+8]]:7: note: the wait it comes after
      // CHECK-NOTES: :[[@LINE-109]]:3: note: issued here
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      acc += tile[k % S][threadIdx.x % 128];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the producer's lap flipped.
__global__ void __launch_bounds__(384)
counterLapOne(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], ((k / S) & 1) ^ 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      acc += tile[k % S][threadIdx.x % 128];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- Silent: what the model cannot prove ------------------------------------

// The consumers release every stage before their loop (fast.cu): phase 0
// of each empty barrier completes before the producer's first wait, and
// parity 0 is right.
__global__ void __launch_bounds__(384)
releasedBeforeTheRing(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&empty[stage], phase);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  } else if (threadIdx.x >= 128) {
    for (int i = 0; i < S; ++i)
      release(&empty[i]);
    consume(tile, full, empty, out, nk);
  }
}

// The MMA warp's commit may also arrive on the empty barriers: their
// arrivals are not all seen.
__global__ void __launch_bounds__(384)
commitArrives(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&empty[stage], phase);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  } else if (threadIdx.x == 32) {
    commitTo(&empty[0]);
  } else if (threadIdx.x >= 128) {
    consume(tile, full, empty, out, nk);
  }
}

// The producer's copy does not wait for the empty barrier on every path:
// the full barrier's first phase may complete first.
__global__ void __launch_bounds__(384)
copyBeforeTheWait(const char *src, float *out, int nk, bool first) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      if (!first || k > 0)
        wait(&empty[stage], phase);
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  } else if (threadIdx.x >= 128) {
    consume(tile, full, empty, out, nk);
  }
}
