// TMA-LOAD-WAIT-BEFORE-READ with CuTe's algorithms, whose bodies lie too
// deep for the model's walk: `copy(tma.with(bar), src, dst)` with a TMA load
// atom is a tensor load into the buffer dst's view is built from (through
// locals, structured bindings, slices `t(_, s)` and CuTe's view makers),
// completing on bar; `gemm(mma, A, B, C)` reads A's and B's buffers. A
// ring's consumer that reads a stage with no wait on its full barrier is
// reported; the twin waits. A view built from two buffers names none:
// silent. The CuTe types here are this test's own small stand-ins.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

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
__device__ void waitOn(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(smemAddr(bar)),
               "r"(phase)
               : "memory");
}

namespace cute {
struct SM90_TMA_LOAD {};
struct Underscore {};
constexpr Underscore _;
template <class Op> struct Copy_Traits {
  const void *desc;
  uint64_t *mbar;
};
template <class... Args> struct Copy_Atom;
template <class Op, class T> struct Copy_Atom<Copy_Traits<Op>, T> {
  Copy_Traits<Op> traits;
  __device__ Copy_Traits<Op> with(uint64_t &bar) const {
    return {traits.desc, &bar};
  }
};
template <class T> struct smem_ptr {
  T *p;
};
template <class T> __device__ smem_ptr<T> make_smem_ptr(T *p) { return {p}; }
template <class T> __device__ smem_ptr<T> make_gmem_ptr(T *p) { return {p}; }
// A view of memory: a pointer and a stage stride.
template <class T> struct Tensor {
  T *p;
  int stride;
  __device__ Tensor operator()(Underscore, int s) const {
    return {p + s * stride, stride};
  }
};
template <class T> __device__ Tensor<T> make_tensor(smem_ptr<T> ptr, int n) {
  return {ptr.p, n};
}
template <class T> struct Pair {
  Tensor<T> a, b;
};
template <class T>
__device__ Pair<T> partition(Tensor<T> x, Tensor<T> y) {
  // (The global view's coordinates and the shared view's stages.)
  return {x, y};
}
// The library's bodies, which the model does not follow here.
__device__ void tmaIssue(const void *desc, uint64_t *bar, void *dst);
__device__ void mmaIssue(const void *a, const void *b, float *c);
template <class Op, class S, class D>
__device__ void copy(const Copy_Traits<Op> &t, const S &, const D &dst) {
  tmaIssue(t.desc, t.mbar, dst.p);
}
template <class M, class A, class B, class C>
__device__ void gemm(const M &, const A &a, const B &b, C &c) {
  mmaIssue(a.p, b.p, c);
}
} // namespace cute

using TmaAtom = cute::Copy_Atom<cute::Copy_Traits<cute::SM90_TMA_LOAD>, float>;
struct Mma {};

constexpr int Stages = 2;
struct Storage {
  alignas(128) float a[Stages * 1024];
  alignas(128) float b[Stages * 1024];
  uint64_t full[Stages];
};

// Wrong: the consumer reads the stage with no wait on its full barrier.
__global__ void readNoWait(const __grid_constant__ TmaAtom tma, float *src,
                           float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto gA = cute::make_tensor(cute::make_gmem_ptr(src), 1024);
  auto [tA, tG] = cute::partition(sA, gA);
  uint64_t *full = smem.full;
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s)
      initBarrier(&full[s], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), tG, tA(cute::_, 0));
  }
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sA(cute::_, 0), acc);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the MMA (shared-memory descriptor) reads 'pool.a' while the TMA load at line [[#@LINE-4]] may still write it: no wait on 'pool.full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  out[threadIdx.x] = acc[0];
  waitOn(&full[0], 0);
}

// Correct twin: the consumer waits on the stage's full barrier.
__global__ void readAfterWait(const __grid_constant__ TmaAtom tma, float *src,
                              float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto gA = cute::make_tensor(cute::make_gmem_ptr(src), 1024);
  auto [tA, tG] = cute::partition(sA, gA);
  uint64_t *full = smem.full;
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s)
      initBarrier(&full[s], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), tG, tA(cute::_, 0));
  }
  waitOn(&full[0], 0);
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sA(cute::_, 0), acc);
  out[threadIdx.x] = acc[0];
}

// The destination view is built from both buffers (the pair's two views):
// the model cannot tell which one the copy writes. Silent.
__global__ void twoBuffers(const __grid_constant__ TmaAtom tma, float *src,
                           float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto sB = cute::make_tensor(cute::make_smem_ptr(smem.b), 1024);
  auto [tA, tB] = cute::partition(sA, sB);
  uint64_t *full = smem.full;
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s)
      initBarrier(&full[s], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), sA, tB(cute::_, 0));
  }
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sB(cute::_, 0), acc);
  out[threadIdx.x] = acc[0];
  waitOn(&full[0], 0);
}

// --- MBAR-INIT-VISIBLE: CUTLASS's init loop --------------------------------
// The loop runs to a stage count held in a CuTe-style integral constant
// (`auto P = C<Stages>{}`: its conversion returns a static constexpr value,
// whatever the object) and its guard takes every pass alike: the loop
// initialises every member of the family.
namespace cute {
template <int v> struct C {
  static constexpr int value = v;
  constexpr operator int() const { return value; }
};
} // namespace cute

// Wrong: no thread barrier between the init loop and the wait of all
// threads.
__global__ void initLoopNoSync(const __grid_constant__ TmaAtom tma, float *src,
                               float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto gA = cute::make_tensor(cute::make_gmem_ptr(src), 1024);
  auto [tA, tG] = cute::partition(sA, gA);
  uint64_t *full = smem.full;
  auto P = cute::C<Stages>{};
  bool leader = threadIdx.x == 0;
  for (int s = 0; s < P; ++s)
    if (leader)
      initBarrier(&full[s], 1);
  if (leader) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), tG, tA(cute::_, 0));
  } // the leader's copy
  waitOn(&full[0], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pool.full' is used by all threads here after its mbarrier.init at line [[#@LINE-6]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES: {{^}}  } // the leader's copy{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitOn(&full[0], 0);{{$}}
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sA(cute::_, 0), acc);
  out[threadIdx.x] = acc[0];
}

// Correct twin: __syncthreads() after the init loop.
__global__ void initLoopSynced(const __grid_constant__ TmaAtom tma, float *src,
                               float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto gA = cute::make_tensor(cute::make_gmem_ptr(src), 1024);
  auto [tA, tG] = cute::partition(sA, gA);
  uint64_t *full = smem.full;
  auto P = cute::C<Stages>{};
  bool leader = threadIdx.x == 0;
  for (int s = 0; s < P; ++s)
    if (leader)
      initBarrier(&full[s], 1);
  __syncthreads();
  if (leader) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), tG, tA(cute::_, 0));
  }
  waitOn(&full[0], 0);
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sA(cute::_, 0), acc);
  out[threadIdx.x] = acc[0];
}

// A guard that changes per pass (`s == 0`) inits one member only: the wait
// on member 0 may or may not be on it; silent.
__global__ void initLoopOneMember(const __grid_constant__ TmaAtom tma,
                                  float *src, float *out) {
  extern __shared__ char pool[];
  Storage &smem = *reinterpret_cast<Storage *>(pool);
  auto sA = cute::make_tensor(cute::make_smem_ptr(smem.a), 1024);
  auto gA = cute::make_tensor(cute::make_gmem_ptr(src), 1024);
  auto [tA, tG] = cute::partition(sA, gA);
  uint64_t *full = smem.full;
  for (int s = 0; s < Stages; ++s)
    if (threadIdx.x == 0 && s == 0)
      initBarrier(&full[s], 1);
  if (threadIdx.x == 0) {
    expectBytes(&full[0], 4096);
    cute::copy(tma.with(full[0]), tG, tA(cute::_, 0));
  }
  waitOn(&full[0], 0);
  float acc[4] = {};
  cute::gemm(Mma{}, sA(cute::_, 0), sA(cute::_, 0), acc);
  out[threadIdx.x] = acc[0];
}
