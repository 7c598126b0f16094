// MBAR-WAIT-PARITY on parities real kernels compute (issue 24 item 1): a
// parity of the stage index alone (`(qidx / 2) & 1` on the member `qidx`
// of fast.cu's ring, `s & 1`) names one parity every time the ring comes
// back to the stage (case 1); a counter's lap spelled with an offset
// (`(k / S + 1) & 1`, `((k + S) / S) % 2`) is the ring's phase, flipped
// (cases 2 and 3). Real-kernel shapes: a producer thread and consumer
// warpgroups, full/empty arrays initialised in a loop, fast.cu matmul_7's
// stage and phase pair `if (qidx == QSIZE) { qidx = 0; p ^= 1; }`. Each
// wrong kernel has its correct twin; what the model does not prove stays
// silent.
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
constexpr int QSIZE = 3;
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

#define RING_SETUP(N)                                                          \
  __shared__ alignas(128) float tile[N][kTile / 4];                            \
  __shared__ alignas(8) uint64_t full[N], empty[N];                            \
  if (threadIdx.x == 0)                                                        \
    for (int i = 0; i < N; ++i) {                                              \
      initBarrier(&full[i], 1);                                                \
      initBarrier(&empty[i], 256);                                             \
    }                                                                          \
  __syncthreads();

// fast.cu matmul_7's producer: the consumers release every stage first, so
// its first lap waits with parity 0.
__device__ void produce7(float (*tile)[kTile / 4], uint64_t *full,
                         uint64_t *empty, const char *src, int tiles, int nk) {
  int p = 0;
  int qidx = 0;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < nk; ++k, ++qidx) {
      if (qidx == QSIZE) { qidx = 0; p ^= 1; }
      wait(&empty[qidx], p);
      expectBytes(&full[qidx], kTile);
      loadAsync(tile[qidx], src + k * kTile, &full[qidx]);
    }
}

// --- A parity of the stage index alone ---------------------------------------

// The consumers wait with `(qidx / 2) & 1`: member 0 is waited with parity 0
// on every lap.
__global__ void __launch_bounds__(384)
stageHalfParity(const char *src, float *out, int tiles, int nk) {
  RING_SETUP(QSIZE)
  if (threadIdx.x < 128) {
    if (threadIdx.x == 0)
      produce7(tile, full, empty, src, tiles, nk);
  } else {
    for (int i = 0; i < QSIZE; ++i)
      if (threadIdx.x == 128) release(&empty[i]);
    int p = 0;
    int qidx = 0;
    for (int t = 0; t < tiles; ++t) {
      float acc = 0;
      for (int k = 0; k < nk; ++k, ++qidx) {
        if (qidx == QSIZE) { qidx = 0; p ^= 1; }
        wait(&full[qidx], (qidx / 2) & 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: wait on 'full' names a parity computed from the stage index alone, the same parity each time the ring comes back to the stage, but the barrier completes a phase each lap: from the second lap on the wait names a phase that has already completed and returns at once; flip the parity each time the stage wraps (MBAR-WAIT-PARITY) [tma-ordering]
        // CHECK-NOTES: :[[@LINE-12]]:7: note: the barrier completes here, in a loop
        // CHECK-NOTES: :[[@LINE-72]]:3: note: issued here
        acc += tile[qidx][threadIdx.x];
        if (threadIdx.x == 128) release(&empty[qidx]);
      }
      out[t * 256 + threadIdx.x] = acc;
    }
  }
}

// Twin: the ring's phase bit.
__global__ void __launch_bounds__(384)
stagePhase(const char *src, float *out, int tiles, int nk) {
  RING_SETUP(QSIZE)
  if (threadIdx.x < 128) {
    if (threadIdx.x == 0)
      produce7(tile, full, empty, src, tiles, nk);
  } else {
    for (int i = 0; i < QSIZE; ++i)
      if (threadIdx.x == 128) release(&empty[i]);
    int p = 0;
    int qidx = 0;
    for (int t = 0; t < tiles; ++t) {
      float acc = 0;
      for (int k = 0; k < nk; ++k, ++qidx) {
        if (qidx == QSIZE) { qidx = 0; p ^= 1; }
        wait(&full[qidx], p);
        acc += tile[qidx][threadIdx.x];
        if (threadIdx.x == 128) release(&empty[qidx]);
      }
      out[t * 256 + threadIdx.x] = acc;
    }
  }
}

// A counter's member and a parity of it through a local: `(s >> 1) & 1`.
__global__ void __launch_bounds__(384)
memberShift(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], ((k / S) & 1) ^ 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      const int bit = (s >> 1) & 1;
      wait(&full[s], bit);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names a parity computed from the stage index alone, {{.*}} (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:7: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-124]]:3: note: issued here
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// Silent: a counted loop of QSIZE passes never comes back to a stage.
__global__ void __launch_bounds__(384)
stageHalfOneLap(const char *src, float *out) {
  RING_SETUP(QSIZE)
  if (threadIdx.x == 0)
    for (int k = 0; k < QSIZE; ++k) {
      expectBytes(&full[k], kTile);
      loadAsync(tile[k], src + k * kTile, &full[k]);
    }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < QSIZE; ++k) {
      wait(&full[k], (k / 2) & 1);
      acc += tile[k][threadIdx.x];
    }
    out[threadIdx.x] = acc;
  }
}

// --- A counter's lap spelled with an offset ----------------------------------

// `(k / S + 1) & 1` on the full barriers: parity 1 on the first lap, before
// any copy has landed.
__global__ void __launch_bounds__(384)
lapPlusOne(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], (k / S + 1) & 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S + 1) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 1 on the ring's first lap{{.*}} (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-8]]:7: note: the copy or expect-tx that completes the first phase
      // CHECK-NOTES: :[[@LINE-170]]:3: note: issued here
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the producer's `(k / S + 1) & 1` is the CUTLASS convention; the
// consumers' `((k + 2 * S) / S) % 2` is the lap itself.
__global__ void __launch_bounds__(384)
lapPlusTwoLaps(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], (k / S + 1) & 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], ((k + 2 * S) / S) % 2);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// `((k + S) / S) % 2` on the empty barriers after the consumers released
// every stage: from the second lap on the producer refills a stage still
// being read.
__global__ void __launch_bounds__(384)
lapPlusRingAfterRelease(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], ((k + S) / S) % 2);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'empty' names parity 1 on the ring's first lap{{.*}} (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+7]]:7: note: these arrivals complete phase 0 before any wait
      // CHECK-NOTES: :[[@LINE-189]]:3: note: issued here
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  else if (threadIdx.x >= 128) {
    for (int i = 0; i < S; ++i)
      release(&empty[i]);
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: `(k / S + 2) & 1` (parity 0 on the first lap) after the release.
__global__ void __launch_bounds__(384)
lapPlusTwoAfterRelease(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], (k / S + 2) & 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  else if (threadIdx.x >= 128) {
    for (int i = 0; i < S; ++i)
      release(&empty[i]);
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Silent: an offset that is no multiple of the ring, `((k + 1) / S) & 1`
// (not a lap the model reads).
__global__ void __launch_bounds__(384)
lapOffsetNotRing(const char *src, float *out, int nk) {
  RING_SETUP(S)
  if (threadIdx.x == 0)
    for (int k = 0; k < nk; ++k) {
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], ((k + 1) / S) & 1);
      acc += tile[k % S][threadIdx.x];
    }
    out[threadIdx.x] = acc;
  }
}

// Silent, the cross-ring case: the consumers' stage wraps at QSIZE - 1 on
// the array the producer's ring of QSIZE fills. Wrong if the two counts
// step together, which the model does not prove (docs: not judged yet).
__global__ void __launch_bounds__(384)
crossRingShort(const char *src, float *out, int tiles, int nk) {
  RING_SETUP(QSIZE)
  if (threadIdx.x < 128) {
    if (threadIdx.x == 0)
      produce7(tile, full, empty, src, tiles, nk);
  } else {
    for (int i = 0; i < QSIZE; ++i)
      if (threadIdx.x == 128) release(&empty[i]);
    int p = 0;
    int qidx = 0;
    for (int t = 0; t < tiles; ++t) {
      float acc = 0;
      for (int k = 0; k < nk; ++k, ++qidx) {
        if (qidx == QSIZE - 1) { qidx = 0; p ^= 1; }
        wait(&full[qidx], p);
        acc += tile[qidx][threadIdx.x];
        if (threadIdx.x == 128) release(&empty[qidx]);
      }
      out[t * 256 + threadIdx.x] = acc;
    }
  }
}
