// MBAR-WAIT-PARITY on a stage and a phase bit that count two different
// things (issue 24 item 1): `stage = (stage + 1) % S` once a pass and
// `phase ^= 1` once a pass. The member at step k is k % S, the parity
// flips every step: case 5 with a lap of one step. Member 0 is waited at
// steps 0 and S; for an even S both name the same parity, so the second
// wait returns on the phase the first saw complete. Reported with a note
// at the step and at the flip; the ring whose bit flips where the stage
// wraps is its twin. An odd S flips the parity at every lap (the members
// start at different parities: not judged) and a flip under a condition
// is not followed: silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

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

// The producer warp of every kernel below: a ring of S stages whose bit
// flips where the stage wraps.
template <int S>
__device__ void produce(float (*tile)[kTile / 4], uint64_t *full,
                        uint64_t *empty, const char *src, int nk) {
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

#define RING_SETUP(S)                                                          \
  __shared__ alignas(128) float tile[S][kTile / 4];                            \
  __shared__ alignas(8) uint64_t full[S], empty[S];                            \
  if (threadIdx.x == 0)                                                        \
    for (int i = 0; i < S; ++i) {                                              \
      initBarrier(&full[i], 1);                                                \
      initBarrier(&empty[i], 256);                                             \
    }                                                                          \
  __syncthreads();

// --- Wrong: the bit flips every step of a ring of 4 -------------------------

__global__ void __launch_bounds__(384)
flipEveryStep(const char *src, float *out, int nk) {
  RING_SETUP(4)
  if (threadIdx.x == 0) {
    produce<4>(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: wait on 'full' names a parity that flips every step of its count, but the ring comes back to a member every 4 steps: member 0 is waited at steps 0 and 4, a lap apart, with the same parity 0, so the second wait names the phase the first saw complete and returns at once (or, once the next phase completed too, waits a lap late); flip the parity every 4 steps, when the member wraps (MBAR-WAIT-PARITY) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: the barrier completes here, in a loop
      // CHECK-NOTES: :[[@LINE-66]]:3: note: issued here
      // CHECK-NOTES: :[[@LINE+4]]:7: note: the stage steps here, by one a pass, wrapping at 4
      // CHECK-NOTES: :[[@LINE+4]]:7: note: the phase bit flips here, on every pass, not when the stage wraps
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stage = (stage + 1) % 4;
      phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// Twin: the bit flips where the stage wraps.
__global__ void __launch_bounds__(384)
flipWhereItWraps(const char *src, float *out, int nk) {
  RING_SETUP(4)
  if (threadIdx.x == 0) {
    produce<4>(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stage = (stage + 1) % 4;
      if (stage == 0)
        phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// --- Silent ------------------------------------------------------------------

// A ring of 3: every lap flips the parity (members 0 and 1 start at
// different parities, which is not judged).
__global__ void __launch_bounds__(384)
flipEveryStepOfThree(const char *src, float *out, int nk) {
  RING_SETUP(3)
  if (threadIdx.x == 0) {
    produce<3>(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stage = (stage + 1) % 3;
      phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The flip runs on some passes only: not followed.
__global__ void __launch_bounds__(384)
flipOnSomeSteps(const char *src, float *out, int nk) {
  RING_SETUP(4)
  if (threadIdx.x == 0) {
    produce<4>(tile, full, empty, src, nk);
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      acc += tile[stage][threadIdx.x % 128];
      release(&empty[stage]);
      stage = (stage + 1) % 4;
      if (k % 3 == 2)
        phase ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}
