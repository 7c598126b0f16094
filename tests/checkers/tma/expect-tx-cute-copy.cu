// MBAR-TX-EQUALS-BYTES with CuTe's `copy(tma.with(bar), src, dst)`, as the
// CuTe Hopper tutorial writes its ring: the copy with an SM90_TMA_LOAD atom
// loads every element of dst, so it completes dst's bytes on bar (its size
// is static: every extent a `C<N>`). A stage whose expect-tx forgets one of
// its two copies is reported, with each copy's bytes; the twin that counts
// both is silent. A multicast atom (the bytes land in other CTAs too) and a
// dst with a run-time extent stay silent. The CuTe types here are this
// test's own small stand-ins.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void initBarrier(uint64_t *bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
__device__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smemAddr(bar)), "r"(bytes) : "memory");
}

namespace cutlass {
struct half_t {
  unsigned short storage;
};
} // namespace cutlass

namespace cute {
struct SM90_TMA_LOAD {};
struct SM90_TMA_LOAD_MULTICAST {};
struct Underscore {};
constexpr Underscore _;
template <int N> struct C {
  static constexpr int value = N;
};
template <class... T> struct tuple {};
template <class Shape, class Stride> struct Layout {};
template <class T> struct smem_ptr {
  T *p;
};
template <class T> struct ViewEngine {
  using value_type = T;
  T *p;
};
// A slice `t(_, s)` keeps the first mode: the layout of one stage.
template <class L> struct FirstMode;
template <class S0, class S1, class T0, class T1>
struct FirstMode<Layout<tuple<S0, S1>, tuple<T0, T1>>> {
  using type = Layout<S0, T0>;
};
template <class Engine, class L> struct Tensor {
  using value_type = typename Engine::value_type;
  Engine engine;
  __device__ Tensor<Engine, typename FirstMode<L>::type>
  operator()(Underscore, int s) const {
    return {{engine.p + s * 4096}};
  }
};
template <class Op, class Bits> struct Copy_Traits {
  const void *desc;
  uint64_t *mbar;
};
template <class Traits, class T> struct Copy_Atom {
  Traits traits;
  __device__ Traits with(uint64_t &bar) const { return {traits.desc, &bar}; }
};
// The library's body, which the model does not follow here.
__device__ void tmaIssue(const void *desc, uint64_t *bar, void *dst);
template <class Op, class Bits, class S, class D>
__device__ void copy(const Copy_Traits<Op, Bits> &t, const S &, const D &dst) {
  tmaIssue(t.desc, t.mbar, dst.engine.p);
}
} // namespace cute

using cute::C;
using cute::tuple;
using Half = cutlass::half_t;
using TmaLoad =
    cute::Copy_Atom<cute::Copy_Traits<cute::SM90_TMA_LOAD, C<65536>>, Half>;
using TmaMulticast =
    cute::Copy_Atom<cute::Copy_Traits<cute::SM90_TMA_LOAD_MULTICAST, C<65536>>,
                    Half>;
// (64 x 64) x 2 stages of half: 8192 bytes a stage.
using RingLayout = cute::Layout<tuple<tuple<C<64>, C<64>>, C<2>>,
                                tuple<tuple<C<1>, C<64>>, C<4096>>>;
// The same with a run-time row count.
using DynamicRing = cute::Layout<tuple<tuple<C<64>, int>, C<2>>,
                                 tuple<tuple<C<1>, C<64>>, C<4096>>>;
using GlobalLayout =
    cute::Layout<tuple<tuple<C<64>, C<64>>, int>, tuple<tuple<C<1>, int>, int>>;
template <class L>
using SmemTensor = cute::Tensor<cute::ViewEngine<Half>, L>;
using GmemTensor = cute::Tensor<cute::ViewEngine<const Half>, GlobalLayout>;

constexpr int Stages = 2;
struct SharedStorage {
  alignas(128) Half A[Stages * 4096];
  alignas(128) Half B[Stages * 4096];
  uint64_t tma_barrier[Stages];
};

// Wrong: the expect-tx counts the A tile only; B's copy lands on the same
// barrier, so the phase completes before B's bytes do.
__global__ void forgetsB(const __grid_constant__ TmaLoad tma_a,
                         const __grid_constant__ TmaLoad tma_b, GmemTensor gA,
                         GmemTensor gB) {
  extern __shared__ char shared_memory[];
  SharedStorage &smem = *reinterpret_cast<SharedStorage *>(shared_memory);
  SmemTensor<RingLayout> sA{{smem.A}}, sB{{smem.B}};
  uint64_t *producer_mbar = smem.tma_barrier;
  if (threadIdx.x == 0)
    for (int pipe = 0; pipe < Stages; ++pipe)
      initBarrier(&producer_mbar[pipe], 1);
  __syncthreads();
  for (int pipe = 0; pipe < Stages; ++pipe) {
    if (threadIdx.x == 0) {
      expectBytes(&producer_mbar[pipe], 64 * 64 * sizeof(Half));
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: expect-tx of 8192 bytes on 'producer_mbar[pipe]' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      cute::copy(tma_a.with(producer_mbar[pipe]), gA(cute::_, pipe),
                 sA(cute::_, pipe));
      // CHECK-MESSAGES: :[[@LINE-2]]:7: note: this copy delivers 8192 bytes to 'producer_mbar[pipe]'
      // CHECK-MESSAGES: :[[@LINE-3]]:7: note: cute::copy with an SM90_TMA_LOAD atom loads every element of its destination: 4096 elements of 'cutlass::half_t' (2 bytes each)
      cute::copy(tma_b.with(producer_mbar[pipe]), gB(cute::_, pipe),
                 sB(cute::_, pipe));
      // CHECK-MESSAGES: :[[@LINE-2]]:7: note: this copy delivers 8192 bytes to 'producer_mbar[pipe]'
      // CHECK-MESSAGES: :[[@LINE-3]]:7: note: cute::copy with an SM90_TMA_LOAD atom loads every element of its destination: 4096 elements of 'cutlass::half_t' (2 bytes each)
      // CHECK-MESSAGES: :[[@LINE-10]]:7: note: expect 16384 bytes
    }
  }
}

// Correct twin: both tiles counted.
__global__ void countsBoth(const __grid_constant__ TmaLoad tma_a,
                           const __grid_constant__ TmaLoad tma_b,
                           GmemTensor gA, GmemTensor gB) {
  extern __shared__ char shared_memory[];
  SharedStorage &smem = *reinterpret_cast<SharedStorage *>(shared_memory);
  SmemTensor<RingLayout> sA{{smem.A}}, sB{{smem.B}};
  uint64_t *producer_mbar = smem.tma_barrier;
  if (threadIdx.x == 0)
    for (int pipe = 0; pipe < Stages; ++pipe)
      initBarrier(&producer_mbar[pipe], 1);
  __syncthreads();
  for (int pipe = 0; pipe < Stages; ++pipe) {
    if (threadIdx.x == 0) {
      expectBytes(&producer_mbar[pipe], 2 * 64 * 64 * sizeof(Half));
      cute::copy(tma_a.with(producer_mbar[pipe]), gA(cute::_, pipe),
                 sA(cute::_, pipe));
      cute::copy(tma_b.with(producer_mbar[pipe]), gB(cute::_, pipe),
                 sB(cute::_, pipe));
    }
  }
}

// Silent: a multicast atom's bytes complete on the barrier of every CTA of
// its mask, which this model of the copy does not count.
__global__ void multicastAtom(const __grid_constant__ TmaMulticast tma_a,
                              GmemTensor gA) {
  extern __shared__ char shared_memory[];
  SharedStorage &smem = *reinterpret_cast<SharedStorage *>(shared_memory);
  SmemTensor<RingLayout> sA{{smem.A}};
  uint64_t *producer_mbar = smem.tma_barrier;
  if (threadIdx.x == 0)
    initBarrier(&producer_mbar[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&producer_mbar[0], 100);
    cute::copy(tma_a.with(producer_mbar[0]), gA(cute::_, 0),
               sA(cute::_, 0));
  }
}

// Silent: the destination's row count is a run-time value.
__global__ void dynamicExtent(const __grid_constant__ TmaLoad tma_a,
                              GmemTensor gA) {
  extern __shared__ char shared_memory[];
  SharedStorage &smem = *reinterpret_cast<SharedStorage *>(shared_memory);
  SmemTensor<DynamicRing> sA{{smem.A}};
  uint64_t *producer_mbar = smem.tma_barrier;
  if (threadIdx.x == 0)
    initBarrier(&producer_mbar[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&producer_mbar[0], 100);
    cute::copy(tma_a.with(producer_mbar[0]), gA(cute::_, 0),
               sA(cute::_, 0));
  }
}
