// MBAR-UNINIT with the barrier handed to a CuTe TMA load atom: `tma.with(bar)`
// (`Copy_Atom<Copy_Traits<SM90_TMA_LOAD, ...>>::with`, a TiledCopy of one)
// keeps the barrier's address for the copies to complete on and never
// initialises it, so the barrier's references stay all known and a kernel
// that drops the init is reported. The correct twin initialises it. The
// `with` of an atom of another operation may do anything with the barrier:
// silent. The atoms here are this test's own small stand-ins.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

namespace cute {
struct SM90_TMA_LOAD {};
struct OTHER_COPY {};
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
} // namespace cute

using TmaAtom = cute::Copy_Atom<cute::Copy_Traits<cute::SM90_TMA_LOAD>, float>;
using OtherAtom = cute::Copy_Atom<cute::Copy_Traits<cute::OTHER_COPY>, float>;

template <class Op>
__device__ void issue(const cute::Copy_Traits<Op> &t, float *dst) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               :: "r"(smemAddr(dst)), "l"(t.desc), "r"(0),
                  "r"(smemAddr(t.mbar))
               : "memory");
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

// Wrong: the init is missing.
__global__ void noInit(const __grid_constant__ TmaAtom tma, float *out) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t full[2];
  uint64_t *bars = full;
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bars[0], 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    issue(tma.with(bars[0]), tile);
  }
  waitOn(&bars[0], 0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// Correct twin.
__global__ void withInit(const __grid_constant__ TmaAtom tma, float *out) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t full[2];
  uint64_t *bars = full;
  if (threadIdx.x == 0)
    initBarrier(&bars[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bars[0], 1024);
    issue(tma.with(bars[0]), tile);
  }
  waitOn(&bars[0], 0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// Another operation's atom: its `with` is not known to leave the barrier
// alone. Silent.
__global__ void otherAtom(const __grid_constant__ TmaAtom tma,
                          const __grid_constant__ OtherAtom other, float *out) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t full[2];
  uint64_t *bars = full;
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bars[0], 1024);
    issue(tma.with(bars[0]), tile);
    issue(other.with(bars[0]), tile);
  }
  waitOn(&bars[0], 0);
  out[threadIdx.x] = tile[threadIdx.x];
}
