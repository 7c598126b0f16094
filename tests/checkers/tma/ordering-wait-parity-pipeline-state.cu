// MBAR-WAIT-PARITY with a PipelineState-like ring index (CUTLASS's
// cutlass::PipelineState, issue 24 item 1): a local object whose `index()`
// names the member and whose `phase()` names the parity, stepped only by
// its prefix `++`, which advances the index and, where it reaches S, sets it
// to 0 and flips the phase; default-constructed at index 0, phase 0. The
// wait on `full[st.index()]` with parity `st.phase()` is the ring's phase;
// a flipped parity (`st.phase() ^ 1`) returns at once on the first lap.
// The wrong kernel has its correct twin; a state whose `++` does not flip
// the phase where it wraps, or that the kernel assigns, stays silent. The
// state classes are this test's own stand-ins.
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


// The ring's index and phase, as CUTLASS's PipelineState keeps them.
template <int Stages_> struct RingState {
  static constexpr unsigned Stages = Stages_;
  int index_ = 0;
  unsigned phase_ = 0;
  unsigned count_ = 0;
  __device__ RingState() : index_{}, phase_{}, count_{} {}
  __device__ int index() const { return index_; }
  __device__ unsigned phase() const { return phase_; }
  __device__ void operator++() {
    if constexpr (Stages > 0) {
      ++index_;
      ++count_;
      if (index_ == Stages) {
        index_ = 0;
        phase_ ^= 1;
      }
    }
  }
};

// A state whose ++ wraps the index but never flips the phase.
template <int Stages_> struct NoFlipState {
  static constexpr unsigned Stages = Stages_;
  int index_ = 0;
  unsigned phase_ = 0;
  __device__ NoFlipState() : index_{}, phase_{} {}
  __device__ int index() const { return index_; }
  __device__ unsigned phase() const { return phase_; }
  __device__ void operator++() {
    if (++index_ == Stages)
      index_ = 0;
  }
};

#define RING_SETUP                                                             \
  __shared__ alignas(128) float tile[S][kTile / 4];                            \
  __shared__ alignas(8) uint64_t full[S], empty[S];                            \
  if (threadIdx.x == 0)                                                        \
    for (int i = 0; i < S; ++i) {                                              \
      initBarrier(&full[i], 1);                                                \
      initBarrier(&empty[i], 256);                                             \
    }                                                                          \
  __syncthreads();

// The producer: waits on empty with the phase before the first (parity 1).
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

// Wrong: the consumers wait on the flipped phase.
__global__ void __launch_bounds__(384)
flippedState(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    auto read = RingState<S>();
    for (int k = 0; k < nk; ++k) {
      int s = read.index();
      wait(&full[s], read.phase() ^ 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
      ++read;
    }
    out[threadIdx.x] = acc;
  }
}

// Correct twin: the state's phase.
__global__ void __launch_bounds__(384)
stateParity(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    auto read = RingState<S>();
    for (int k = 0; k < nk; ++k) {
      int s = read.index();
      wait(&full[s], read.phase());
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
      ++read;
    }
    out[threadIdx.x] = acc;
  }
}

// A state whose ++ never flips the phase: not the form. Silent.
__global__ void __launch_bounds__(384)
noFlipState(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    auto read = NoFlipState<S>();
    for (int k = 0; k < nk; ++k) {
      int s = read.index();
      wait(&full[s], read.phase() ^ 1);
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
      ++read;
    }
    out[threadIdx.x] = acc;
  }
}

// The kernel assigns the state (a restart it does not follow): silent.
__global__ void __launch_bounds__(384)
assignedState(const char *src, float *out, int nk) {
  RING_SETUP
  if (threadIdx.x == 0)
    produce(tile, full, empty, src, nk);
  if (threadIdx.x >= 128) {
    float acc = 0;
    auto read = RingState<S>();
    for (int k = 0; k < nk; ++k) {
      int s = read.index();
      wait(&full[s], read.phase() ^ 1);
      acc += tile[s][threadIdx.x];
      release(&empty[s]);
      ++read;
      if (k == 7)
        read = RingState<S>();
    }
    out[threadIdx.x] = acc;
  }
}
