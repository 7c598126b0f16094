// MBAR-UNINIT on one member of a family of the dynamic shared-memory pool
// (issue 24 item 1): the full and empty barriers of a ring of S stages at
// byte offsets (`bars + s * 8`), a producer warp and consumer warpgroups,
// the uses naming the barrier by a run-time stage. Where the inits cover
// some member of the family, the family as a whole may be initialised; the
// rule reports the member the stage names the first time a use runs (the
// stage starts at 0 and nothing writes it before then) when no init covers
// it: the full family's init dropped while the empty family's lies next to
// it, an unrolled init of stage 0 dropped, a counter `k % S`. A member the
// stage reaches only on a later pass of a loop of unknown passes stays
// silent (ordering-explain-pool-members.cu says why). Each wrong kernel has
// its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void initAt(uint32_t a, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void waitAt(uint32_t a, int p) {
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(a),
               "r"(p)
               : "memory");
}
__device__ inline void arriveAt(uint32_t a) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a)
               : "memory");
}
__device__ inline void expectAt(uint32_t a, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ inline void tileLoad(uint32_t dst, const CUtensorMap *m, int x,
                                int y, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(m), "r"(x), "r"(y), "r"(bar)
               : "memory");
}
__device__ inline void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ inline float loadAt(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(a));
  return static_cast<float>(v);
}

constexpr int S = 4, TILE = 8192, BARS = S * TILE;

// The full family's init loop dropped; the empty family's lies right after
// it (`bars + S * 8`), so an init covers some member of what `full + s * 8`
// may name, but none covers `full + 0`, which the producer's expect-tx
// names on its first pass.
__global__ void __launch_bounds__(384)
    fullDropped(const __grid_constant__ CUtensorMap map, float *out,
                int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      initAt(empty + s * 8, 2);
  __syncthreads();
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    if (threadIdx.x == 0) {
      int stage = 0, phase = 0;
      for (int k = 0; k < iters; ++k) {
        waitAt(empty + stage * 8, phase ^ 1);
        expectAt(full + stage * 8, TILE);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'smem + 32768' is never initialised: the use here reaches it the first time it runs, when 'stage' is 0 (MBAR-UNINIT) [tma-ordering]
        // CHECK-MESSAGES: :[[@LINE-5]]:11: note: 'stage' starts at 0 here, and no write of it can run before the use first does; it names 'smem + 32768' of 'smem + 32768 + 8 * s'
        // CHECK-MESSAGES: :[[@LINE-11]]:7: note: the pool's mbarrier.init of 'smem + 32800 + 8 * s' does not cover 'smem + 32768'
        // CHECK-MESSAGES: :26:3: note: issued here
        tileLoad(base + stage * TILE, &map, 0, k, full + stage * 8);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else {
    // Two consumer warpgroups read each stage and release it.
    int stage = 0, phase = 0;
    for (int k = 0; k < iters; ++k) {
      waitAt(full + stage * 8, phase);
      out[threadIdx.x] += loadAt(base + stage * TILE + threadIdx.x * 4);
      fenceAsync();
      if (threadIdx.x % 128 == 32)
        arriveAt(empty + stage * 8);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  }
}

__global__ void __launch_bounds__(384)
    fullInit(const __grid_constant__ CUtensorMap map, float *out, int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(full + s * 8, 1);
      initAt(empty + s * 8, 2);
    }
  __syncthreads();
  const int warp = threadIdx.x / 32;
  if (warp == 0) {
    if (threadIdx.x == 0) {
      int stage = 0, phase = 0;
      for (int k = 0; k < iters; ++k) {
        waitAt(empty + stage * 8, phase ^ 1);
        expectAt(full + stage * 8, TILE);
        tileLoad(base + stage * TILE, &map, 0, k, full + stage * 8);
        if (++stage == S) {
          stage = 0;
          phase ^= 1;
        }
      }
    }
  } else {
    int stage = 0, phase = 0;
    for (int k = 0; k < iters; ++k) {
      waitAt(full + stage * 8, phase);
      out[threadIdx.x] += loadAt(base + stage * TILE + threadIdx.x * 4);
      fenceAsync();
      if (threadIdx.x % 128 == 32)
        arriveAt(empty + stage * 8);
      if (++stage == S) {
        stage = 0;
        phase ^= 1;
      }
    }
  }
}

// Unrolled inits of a pool of windows, stage 0's dropped: the producer's
// expect-tx, at a counter's `k % S`, names it on its first pass (the
// consumers' wait too; the member is reported once).
__global__ void __launch_bounds__(384)
    unrolledFirstDropped(const __grid_constant__ CUtensorMap map, float *out,
                         int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  if (threadIdx.x == 0) {
    initAt(full + 8, 1);
    initAt(full + 16, 1);
    initAt(full + 24, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < iters; ++k) {
      expectAt(full + (k % S) * 8, TILE);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'smem + 32768' is never initialised: the use here reaches it the first time it runs, when 'k' is 0 (MBAR-UNINIT) [tma-ordering]
      // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'k' starts at 0 here, and no write of it can run before the use first does; it names 'smem + 32768' of 'smem + 32768 + 8 * s'
      // CHECK-MESSAGES: :[[@LINE-10]]:5: note: the pool's mbarrier.init of 'smem + 32776' does not cover 'smem + 32768'
      // CHECK-MESSAGES: :26:3: note: issued here
      // CHECK-MESSAGES: :[[@LINE-11]]:5: note: the pool's mbarrier.init of 'smem + 32784' does not cover 'smem + 32768'
      // CHECK-MESSAGES: :26:3: note: issued here
      // CHECK-MESSAGES: :[[@LINE-12]]:5: note: the pool's mbarrier.init of 'smem + 32792' does not cover 'smem + 32768'
      // CHECK-MESSAGES: :26:3: note: issued here
      tileLoad(base + (k % S) * TILE, &map, 0, k, full + (k % S) * 8);
    }
  for (int k = 0; k < iters; ++k) {
    const int s = k % S;
    waitAt(full + s * 8, (k / S) & 1);
    out[threadIdx.x] += loadAt(base + s * TILE + threadIdx.x * 4);
    __syncthreads();
  }
}

__global__ void __launch_bounds__(384)
    unrolledAll(const __grid_constant__ CUtensorMap map, float *out,
                int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  if (threadIdx.x == 0) {
    initAt(full, 1);
    initAt(full + 8, 1);
    initAt(full + 16, 1);
    initAt(full + 24, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < iters; ++k) {
      expectAt(full + (k % S) * 8, TILE);
      tileLoad(base + (k % S) * TILE, &map, 0, k, full + (k % S) * 8);
    }
  for (int k = 0; k < iters; ++k) {
    const int s = k % S;
    waitAt(full + s * 8, (k / S) & 1);
    out[threadIdx.x] += loadAt(base + s * TILE + threadIdx.x * 4);
    __syncthreads();
  }
}

// Silent: stage 1's init dropped. The stage names it from the second pass
// on, and the loop's passes (`iters`) are not known: silence over a guess.
__global__ void __launch_bounds__(384)
    unrolledLaterDropped(const __grid_constant__ CUtensorMap map, float *out,
                         int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  if (threadIdx.x == 0) {
    initAt(full, 1);
    initAt(full + 16, 1);
    initAt(full + 24, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < iters; ++k) {
      expectAt(full + (k % S) * 8, TILE);
      tileLoad(base + (k % S) * TILE, &map, 0, k, full + (k % S) * 8);
    }
  for (int k = 0; k < iters; ++k) {
    const int s = k % S;
    waitAt(full + s * 8, (k / S) & 1);
    out[threadIdx.x] += loadAt(base + s * TILE + threadIdx.x * 4);
    __syncthreads();
  }
}

// Silent: the first pass may skip the use (a condition that changes from
// pass to pass), so the stage it first names is not known.
__global__ void __launch_bounds__(384)
    skipsFirstPass(const __grid_constant__ CUtensorMap map, float *out,
                   int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t full = base + BARS;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      initAt(empty + s * 8, 2);
  __syncthreads();
  int stage = 0;
  for (int k = 0; k < iters; ++k) {
    if (k > 0 && threadIdx.x == 0) {
      expectAt(full + stage * 8, TILE);
      tileLoad(base + stage * TILE, &map, 0, k, full + stage * 8);
    }
    stage = (stage + 1) % S;
  }
}
