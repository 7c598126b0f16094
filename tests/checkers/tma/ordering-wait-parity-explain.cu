// tma-ordering.ExplainModel shows the parity MBAR-WAIT-PARITY reads on each
// wait (api/WaitParity): the ring's phase and its first lap, a constant on
// every pass; and why the rule is silent on a parity it does not follow or
// a first lap of parity 0 on a barrier copies complete, which it does not
// judge.
// Only the parity lines are checked: the other events of the model have
// tests of their own.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_device 2>&1 | FileCheck %s
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_host 2>&1 | FileCheck %s

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

// One warp-specialised ring: the producer's phase bit, the consumers'
// counter lap, and a constant parity the rule reports.
__global__ void __launch_bounds__(384)
explainRing(const char *src, float *out, int nk) {
  __shared__ alignas(128) float tile[S][kTile / 4];
  __shared__ alignas(8) uint64_t full[S], empty[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 256);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    int stage = 0, phase = 1;
    for (int k = 0; k < nk; ++k) {
      wait(&empty[stage], phase);
      // CHECK: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'empty' (parity: the ring's phase, 1 on the first lap), under a condition
      expectBytes(&full[stage], kTile);
      loadAsync(tile[stage], src + k * kTile, &full[stage]);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], (k / S) & 1);
      // CHECK: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full' (parity: the ring's phase, 0 on the first lap), under a condition
      acc += tile[k % S][threadIdx.x];
      release(&empty[k % S]);
    }
    for (int k = 0; k < nk; ++k)
      wait(&full[k % S], 0);
      // CHECK: :[[@LINE-1]]:7: note: model: event {{[0-9]+}}: mbarrier wait on 'full' (parity: 0 on every pass), under a condition
    uint32_t phases[S] = {0, 0, 0, 0};
    for (int k = 0; k < nk; ++k) {
      wait(&full[k % S], phases[k % S]);
      // CHECK: :{{[0-9]+}}:3: note: model: silent: MBAR-WAIT-PARITY on event {{[0-9]+}} ('full'): parity 0 on the ring's first lap waits for the barrier's first phase, which a copy or expect-tx on it completes: whether that copy waits for this side is judged only on barriers that plain arrives alone complete
      // CHECK: :{{[0-9]+}}:3: note: model: silent: MBAR-WAIT-PARITY on event {{[0-9]+}} ('full'): its parity is no constant, no counter's lap `(k / S) & 1` with the member `k % S` and no phase bit flipped exactly where its stage wraps (inline, in a helper taking both by reference, in a lambda capturing both by reference, or by a stride whose lap divides by the wrap): the model cannot tell which phase it names
      // CHECK: :[[@LINE-7]]:7: warning: wait on 'full' names parity 0 on every pass of its loop, but the barrier completes a phase each lap: from the second lap on the wait names a phase that has already completed and returns at once; flip the parity each time the stage wraps (MBAR-WAIT-PARITY) [tma-ordering]
      phases[k % S] ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The cross-ring case: the consumers' stage wraps at 2 on an array of 4
// (the producer's ring): silent, and the Why says so.
__global__ void __launch_bounds__(384)
explainCrossRing(const char *src, float *out, int nk) {
  __shared__ alignas(128) float tile[S][kTile / 4];
  __shared__ alignas(8) uint64_t full[S], empty[S];
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 256);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k) {
      wait(&empty[k % S], ((k / S) & 1) ^ 1);
      expectBytes(&full[k % S], kTile);
      loadAsync(tile[k % S], src + k * kTile, &full[k % S]);
    }
  } else if (threadIdx.x >= 128) {
    float acc = 0;
    int stage = 0, phase = 0;
    for (int k = 0; k < nk; ++k) {
      wait(&full[stage], phase);
      // CHECK: :{{[0-9]+}}:3: note: model: silent: MBAR-WAIT-PARITY on event {{[0-9]+}} ('full'): its barrier's index is a ring of 2 stages, but the barrier array has 4 members: the wait follows another ring than the one that fills the array, and whether the two counts step together, one step for one, is not proven
      acc += tile[stage][threadIdx.x];
      release(&empty[stage]);
      if (++stage == S / 2) {
        stage = 0;
        phase ^= 1;
      }
    }
    out[threadIdx.x] = acc;
  }
}
