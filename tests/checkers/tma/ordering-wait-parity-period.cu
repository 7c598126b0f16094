// MBAR-WAIT-PARITY case 5 (issue 24 item 1, "a stage index used for the
// wrong barrier array"): a wait whose parity flips at another count than the
// one at which the ring comes back to its barrier. A counter's lap `(k / T)
// & 1` on the member `k % S` with T != S, or the phase of a ring of S > 1
// stages on one barrier that completes every pass: two visits of the same
// member, a lap apart, name the same parity. Real-kernel shapes: a producer
// thread and consumer warpgroups, full/empty arrays initialised in a loop.
// Each wrong kernel has its correct twin; what the model does not prove
// stays silent.
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

// The producer of the CUTLASS convention (its first lap waits with parity 1
// on empty barriers no one released before).
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

// --- A lap of another length than the ring ----------------------------------

// The consumers divide by 2 where the ring has 4 stages: member 0 is waited
// at k = 0 and k = 4 with parity 0 both times.
__global__ void __launch_bounds__(384)
lapOfTwo(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / 2) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names a parity that flips once every 2 steps of its count, but the ring comes back to a member every 4 steps: member 0 is waited at steps 0 and 4, a lap apart, with the same parity 0, so the second wait names the phase the first saw complete and returns at once (or, once the next phase completed too, waits a lap late); flip the parity every 4 steps, when the member wraps (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-6]]:5: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-66]]:3: note: issued here
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the lap of the ring's own length.
__global__ void __launch_bounds__(384)
lapOfFour(const char *src, float *out, int nk) {
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

// The lap of a ring twice as long (the stage count of another pipeline):
// member 0 is waited at k = 0 and k = 4 with parity 0 both times.
constexpr int kOtherStages = 8;
__global__ void __launch_bounds__(384)
lapOfOtherRing(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      const int s = k % S;
      wait(&full[s], (k / kOtherStages) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names a parity that flips once every 8 steps of its count, but the ring comes back to a member every 4 steps: member 0 is waited at steps 0 and 4, a lap apart, with the same parity 0, so the second wait names the phase the first saw complete and returns at once (or, once the next phase completed too, waits a lap late); flip the parity every 4 steps, when the member wraps (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-106]]:3: note: issued here
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

// Not proven: the counter steps twice a pass (the wait sees every other
// member), or only on some passes.
__global__ void __launch_bounds__(384)
lapTwoStepsAPass(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    int k = 0;
    for (int i = 0; i < nk; ++i) {
      wait(&full[k % S], (k / 2) & 1);
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
      ++k;
      if (acc > 0)
        ++k;
    }
    out[threadIdx.x] = acc;
  }
}

// A ring of 3 waited with the counter's own bit: every lap flips the
// parity (3 is odd), but member 1 starts at parity 1: not judged.
__global__ void __launch_bounds__(384)
lapOfOneOnThree(const char *src, float *out, int nk) {
  __shared__ alignas(128) float tile[3][kTile / 4];
  __shared__ alignas(8) uint64_t full[3];
  if (threadIdx.x == 0)
    for (int i = 0; i < 3; ++i)
      initBarrier(&full[i], 1);
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      expectBytes(&full[k % 3], kTile);
      loadAsync(tile[k % 3], src + k * kTile, &full[k % 3]);
    }
    wait(&full[k % 3], k & 1);
    acc += tile[k % 3][threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// --- One barrier waited with the phase of a ring -----------------------------

// A Q tile reloaded every pass on one barrier, waited with the K ring's
// phase bit: it flips once every 4 passes, the barrier completes every
// pass.
__global__ void __launch_bounds__(384)
oneBarrierRingPhase(const char *src, const char *q, float *out, int nk) {
  RING_SETUP
  __shared__ alignas(128) float qtile[kTile / 4];
  __shared__ alignas(8) uint64_t qfull, qempty;
  if (threadIdx.x == 0) {
    initBarrier(&qfull, 1);
    initBarrier(&qempty, 256);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    produce(tile, full, empty, src, nk);
    for (int k = 0; k < nk; ++k) {
      wait(&qempty, (k & 1) ^ 1);
      expectBytes(&qfull, kTile);
      loadAsync(qtile, q + k * kTile, &qfull);
    }
  }
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      wait(&qfull, phase);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'qfull' names a parity that flips once every 4 steps of its count, at most one step a pass, but the barrier completes a phase each pass: two passes in a row name the same parity, so the second wait names the phase the first saw complete and returns at once (or, once the next phase completed too, waits a pass late); keep a phase bit for this barrier and flip it after each wait (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-11]]:7: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-190]]:3: note: issued here
      acc += tile[stage][threadIdx.x] * qtile[threadIdx.x];
      release(&empty[stage]);
      release(&qempty);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the barrier's own phase bit, flipped after each wait (a phase the
// model does not follow: silent either way).
__global__ void __launch_bounds__(384)
oneBarrierOwnPhase(const char *src, const char *q, float *out, int nk) {
  RING_SETUP
  __shared__ alignas(128) float qtile[kTile / 4];
  __shared__ alignas(8) uint64_t qfull, qempty;
  if (threadIdx.x == 0) {
    initBarrier(&qfull, 1);
    initBarrier(&qempty, 256);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    produce(tile, full, empty, src, nk);
    for (int k = 0; k < nk; ++k) {
      wait(&qempty, (k & 1) ^ 1);
      expectBytes(&qfull, kTile);
      loadAsync(qtile, q + k * kTile, &qfull);
    }
  }
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0, qphase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      wait(&qfull, qphase);
      qphase ^= 1;
      acc += tile[stage][threadIdx.x] * qtile[threadIdx.x];
      release(&empty[stage]);
      release(&qempty);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
    out[threadIdx.x] = acc;
  }
}

// The same with a counter's lap: `(k / S) & 1` on the one barrier.
__global__ void __launch_bounds__(384)
oneBarrierCounterLap(const char *src, const char *q, float *out, int nk) {
  RING_SETUP
  __shared__ alignas(128) float qtile[kTile / 4];
  __shared__ alignas(8) uint64_t qfull, qempty;
  if (threadIdx.x == 0) {
    initBarrier(&qfull, 1);
    initBarrier(&qempty, 256);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    produce(tile, full, empty, src, nk);
    for (int k = 0; k < nk; ++k) {
      wait(&qempty, (k & 1) ^ 1);
      expectBytes(&qfull, kTile);
      loadAsync(qtile, q + k * kTile, &qfull);
    }
  }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      wait(&qfull, (k / S) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'qfull' names a parity that flips once every 4 steps of its count, at most one step a pass, but the barrier completes a phase each pass: two passes in a row name the same parity, so the second wait names the phase the first saw complete and returns at once (or, once the next phase completed too, waits a pass late); keep a phase bit for this barrier and flip it after each wait (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:7: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-268]]:3: note: issued here
      acc += tile[k % S][threadIdx.x] * qtile[threadIdx.x];
      release(&empty[k % S]);
      release(&qempty);
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the counter's own bit, `k & 1`, flips every pass (not followed on
// one barrier: silent).
__global__ void __launch_bounds__(384)
oneBarrierCounterBit(const char *src, const char *q, float *out, int nk) {
  RING_SETUP
  __shared__ alignas(128) float qtile[kTile / 4];
  __shared__ alignas(8) uint64_t qfull, qempty;
  if (threadIdx.x == 0) {
    initBarrier(&qfull, 1);
    initBarrier(&qempty, 256);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    produce(tile, full, empty, src, nk);
    for (int k = 0; k < nk; ++k) {
      wait(&qempty, (k & 1) ^ 1);
      expectBytes(&qfull, kTile);
      loadAsync(qtile, q + k * kTile, &qfull);
    }
  }
  if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      wait(&qfull, k & 1);
      acc += tile[k % S][threadIdx.x] * qtile[threadIdx.x];
      release(&empty[k % S]);
      release(&qempty);
    }
    out[threadIdx.x] = acc;
  }
}

// Not proven: the stage steps in an inner loop (several steps a pass may
// flip the phase every pass).
__global__ void __launch_bounds__(384)
oneBarrierInnerSteps(const char *src, const char *q, float *out, int nk,
                     int per) {
  RING_SETUP
  __shared__ alignas(128) float qtile[kTile / 4];
  __shared__ alignas(8) uint64_t qfull, qempty;
  if (threadIdx.x == 0) {
    initBarrier(&qfull, 1);
    initBarrier(&qempty, 256);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    produce(tile, full, empty, src, nk * per);
    for (int k = 0; k < nk; ++k) {
      wait(&qempty, (k & 1) ^ 1);
      expectBytes(&qfull, kTile);
      loadAsync(qtile, q + k * kTile, &qfull);
    }
  }
  if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&qfull, phase);
      for (int j = 0; j < per; ++j) {
        wait(&full[stage], phase);
        acc += tile[stage][threadIdx.x] * qtile[threadIdx.x];
        release(&empty[stage]);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
      release(&qempty);
    }
    out[threadIdx.x] = acc;
  }
}
