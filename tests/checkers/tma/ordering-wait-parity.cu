// MBAR-WAIT-PARITY on the rings real pipelines write (issue 24 item 1): a
// warp-specialised producer fills S stages that complete on full[s], the
// consumers wait on full[s], read the stage and hand it back on empty[s].
// A wait names the parity of the phase it waits for; the phase a member is
// in flips each time the ring comes back to it. The model follows a
// counter's lap `(k / S) & 1` with the member `k % S`, a stage and a phase
// bit flipped exactly where the stage wraps (`if (++stage == S)`, `stage =
// (stage + 1) % S`, fast.cu's `if (qidx == QSIZE)`), and constant parities
// on a wait that comes back to the same barrier. Each wrong kernel has its
// correct twin; a parity the model cannot follow stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace ptx = cuda::ptx;

__device__ size_t __cvta_generic_to_shared(const void *);

constexpr int S = 4;
constexpr int kTile = 4096;

// The inline-PTX helpers of fast.cu / simplegemm.
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

// The producer of the CUTLASS convention: no stage is released before the
// ring starts, so the first lap waits on the phase before the first (parity
// 1), which returns at once.
__device__ void produce(float (*tile)[kTile / 4], uint64_t *full,
                        uint64_t *empty, const char *src, int nk) {
  int stage = 0, phase = 1;
  for (int k = 0; k < nk; ++k) {
    wait(&empty[stage], phase);
    expectBytes(&full[stage], kTile);
    loadAsync(tile[stage], src + k * kTile, &full[stage]);
    if (++stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
}

// --- A constant parity on a ring -------------------------------------------

__global__ void __launch_bounds__(384)
constantParity(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], 0);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 0 on every pass of its loop, but the barrier completes a phase each lap: from the second lap on the wait names a phase that has already completed and returns at once; flip the parity each time the stage wraps (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-6]]:5: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-65]]:3: note: issued here
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the counter's lap.
__global__ void __launch_bounds__(384)
counterLap(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- The stage's bit used as its phase ---------------------------------------

__global__ void __launch_bounds__(384)
stageBit(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      wait(&full[s], s & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names a parity computed from the stage index alone, the same parity each time the ring comes back to the stage, but the barrier completes a phase each lap: from the second lap on the wait names a phase that has already completed and returns at once; flip the parity each time the stage wraps (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-104]]:3: note: issued here
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the lap of the same counter.
__global__ void __launch_bounds__(384)
stageLap(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      wait(&full[s], (k / S) & 1);
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- A phase bit that starts at 1 on a full barrier --------------------------

__global__ void __launch_bounds__(384)
fullStartsAtOne(const char *src, float *out, int nk) {
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
      // CHECK-NOTES: :[[@LINE-144]]:3: note: issued here
      acc += tile[stage][threadIdx.x];
      release(&empty[stage]);
      stage = (stage + 1) % S;
      if (stage == 0)
        phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the phase bit starts at 0.
__global__ void __launch_bounds__(384)
fullStartsAtZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x];
      release(&empty[stage]);
      stage = (stage + 1) % S;
      if (stage == 0)
        phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// --- Empty barriers released before the ring starts (fast.cu) ----------------

// The consumers release every stage once before their loop, so phase 0 of
// each empty barrier completes before the producer's first wait: the
// producer must start at 0. Starting at 1 (the CUTLASS convention, right
// without the early release) lets the second lap through a phase that
// completed a lap earlier.
__global__ void __launch_bounds__(384)
releasedEarlyStartsAtOne(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int p = 1;
    int qidx = 0;
    for (int k = 0; k < nk; ++k, ++qidx) {
      if (qidx == S) {
        qidx = 0;
        p ^= 1;
      }
      wait(&empty[qidx], p);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'empty' names parity 1 on the ring's first lap, but the arrivals at line [[#@LINE+8]] complete phase 0 of every stage before the ring starts: from the second lap on the wait names a phase that completed a lap earlier and returns before the stage is released; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+7]]:7: note: these arrivals complete phase 0 before any wait
      // CHECK-NOTES: :[[@LINE-175]]:3: note: issued here
      expectBytes(&full[qidx], kTile);
      loadAsync(tile[qidx], src + k * kTile, &full[qidx]);
    }
  } else if (threadIdx.x >= 128) {
    for (int i = 0; i < S; ++i)
      release(&empty[i]);
    float acc = 0;
    int p = 0;
    int qidx = 0;
    for (int k = 0; k < nk; ++k, ++qidx) {
      if (qidx == S) {
        qidx = 0;
        p ^= 1;
      }
      wait(&full[qidx], p);
      acc += tile[qidx][threadIdx.x];
      release(&empty[qidx]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the producer starts at 0.
__global__ void __launch_bounds__(384)
releasedEarlyStartsAtZero(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0) {
    int p = 0;
    int qidx = 0;
    for (int k = 0; k < nk; ++k, ++qidx) {
      if (qidx == S) {
        qidx = 0;
        p ^= 1;
      }
      wait(&empty[qidx], p);
      expectBytes(&full[qidx], kTile);
      loadAsync(tile[qidx], src + k * kTile, &full[qidx]);
    }
  } else if (threadIdx.x >= 128) {
    for (int i = 0; i < S; ++i)
      release(&empty[i]);
    float acc = 0;
    int p = 0;
    int qidx = 0;
    for (int k = 0; k < nk; ++k, ++qidx) {
      if (qidx == S) {
        qidx = 0;
        p ^= 1;
      }
      wait(&full[qidx], p);
      acc += tile[qidx][threadIdx.x];
      release(&empty[qidx]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- One barrier, a constant parity in a persistent tile loop ---------------

__global__ void persistentConstant(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0) {
      expectBytes(&bar, kTile);
      loadAsync(tile, src + t * kTile, &bar);
    }
    wait(&bar, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: wait on 'bar' names parity 0 on every pass of its loop, but the barrier completes a phase each pass: from the second pass on the wait names a phase that has already completed and returns at once; flip the parity after each wait (MBAR-WAIT-PARITY) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the barrier completes here, in a loop
    // CHECK-NOTES: :[[@LINE-271]]:3: note: issued here
    out[t * 128 + threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
  }
}

// Twin: the parity flips after each wait (a phase the model does not
// follow without a stage: silent either way).
__global__ void persistentFlipped(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  unsigned phase = 0;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0) {
      expectBytes(&bar, kTile);
      loadAsync(tile, src + t * kTile, &bar);
    }
    wait(&bar, phase);
    phase ^= 1;
    out[t * 128 + threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
  }
}

// --- cuda::ptx: one role, a phase bit that starts at 1 -----------------------

__global__ void ptxStartsAtOne(const char *src, float *out, int nk) {
  __shared__ alignas(128) float tile[S][kTile / 4];
  __shared__ alignas(8) uint64_t full[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      ptx::mbarrier_init(&full[i], 1);
  __syncthreads();
  int stage = 0;
  uint32_t phase = 1;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[stage], kTile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[stage],
                         src + k * kTile, kTile, &full[stage]);
    }
    while (!ptx::mbarrier_try_wait_parity(&full[stage], phase)) {
    // CHECK-NOTES: :[[@LINE-1]]:13: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:7: note: the copy or expect-tx that completes the first phase
    }
    out[k * 128 + threadIdx.x] = tile[stage][threadIdx.x];
    __syncthreads();
    if (++stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
}

// Twin: it starts at 0.
__global__ void ptxStartsAtZero(const char *src, float *out, int nk) {
  __shared__ alignas(128) float tile[S][kTile / 4];
  __shared__ alignas(8) uint64_t full[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      ptx::mbarrier_init(&full[i], 1);
  __syncthreads();
  int stage = 0;
  uint32_t phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[stage], kTile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[stage],
                         src + k * kTile, kTile, &full[stage]);
    }
    while (!ptx::mbarrier_try_wait_parity(&full[stage], phase)) {
    }
    out[k * 128 + threadIdx.x] = tile[stage][threadIdx.x];
    __syncthreads();
    if (++stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
}

// --- Silent: what the model cannot prove ------------------------------------

// A barrier completed once, before the loop: every wait on phase 0 after
// it returns at once, as it should.
__global__ void completedOnce(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    initBarrier(&bar, 1);
    expectBytes(&bar, kTile);
    loadAsync(tile, src, &bar);
  }
  __syncthreads();
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    wait(&bar, 0);
    out[t * 128 + threadIdx.x] = tile[threadIdx.x];
  }
}

// The wait runs only on the loop's first pass.
__global__ void firstPassOnly(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0 && t == 0) {
      expectBytes(&bar, kTile);
      loadAsync(tile, src, &bar);
    }
    if (t == 0)
      wait(&bar, 0);
    out[t * 128 + threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
  }
}

// Unrolled by two: each pass waits on both phases.
__global__ void unrolledTwo(const char *src, float *out, int tiles) {
  __shared__ alignas(128) float tile[kTile / 4];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar, 1);
  __syncthreads();
  for (int t = 0; t < tiles; t += 2) {
    if (threadIdx.x == 0) {
      expectBytes(&bar, kTile);
      loadAsync(tile, src + t * kTile, &bar);
    }
    wait(&bar, 0);
    out[t * 128 + threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
      expectBytes(&bar, kTile);
      loadAsync(tile, src + (t + 1) * kTile, &bar);
    }
    wait(&bar, 1);
    out[(t + 1) * 128 + threadIdx.x] = tile[threadIdx.x];
    __syncthreads();
  }
}

// The stage is also written outside the wrap: the phase is not proven.
__global__ void __launch_bounds__(384)
stageSkips(const char *src, float *out, int nk, int skip) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase ^ 1);
      acc += tile[stage][threadIdx.x];
      release(&empty[stage]);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
      stage = skip;
    }
    out[threadIdx.x] = acc;
  }
}

// A counted loop that visits each stage once, and a wait in a
// `do { } while (0)` block: neither comes back to the same barrier.
__global__ void __launch_bounds__(384)
oncePerStage(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < S; ++k) {
      wait(&full[k % S], 0);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    do {
      wait(&full[0], 1);
      acc += tile[0][threadIdx.x];
    } while (0);
    out[threadIdx.x] = acc;
  }
}

// The ring restarts every tile (stage and phase declared in the tile loop)
// while its barriers go on: right only when each tile runs a multiple of
// 2 * S passes, which the model cannot tell from `nk`: silent.
__global__ void __launch_bounds__(384)
restartedEachTile(const char *src, float *out, int nk, int tiles) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk * tiles);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int t = 0; t < tiles; ++t) {
      int stage = 0, phase = 0;
      for (int k = 0; k < nk; ++k) {
        wait(&full[stage], phase);
        acc += tile[stage][threadIdx.x];
        release(&empty[stage]);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
    out[threadIdx.x] = acc;
  }
}
