// ASYNC-REUSE-BEFORE-RELEASE: a producer thread refills the stages of a
// ring that consumer warps read after waiting on full[s] and hand back with
// an arrive on empty[s]; a producer that never waits on empty[s] (or waits
// only on another barrier) may overwrite a stage the consumers still read.
// Each wrong kernel has its correct twin; the last kernels stay silent (a
// prologue filling every stage before a ring that waits, an unknown call in
// the producer, a loop filling each stage once) but one pass more (last). The consumers of the cluster kernels hand a stage
// back to every CTA with mapa and a remote arrive in one asm statement: the
// arrive names the peer's copy of empty[s]. When they release every stage
// once before the ring starts, the producer's first lap waits on parity 0
// (MBAR-WAIT-PARITY when it starts at 1).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(a), "r"(bytes));
}
__device__ static inline void arriveOn(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}
__device__ static inline void loadTile(void *dst, const void *map,
                                       uint64_t *bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))), "l"(map),
        "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(x),
        "r"(y)
      : "memory");
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

// A descriptor built from a pointer (the 14-bit start address, 16-byte
// units; leading and stride offsets; 128-byte swizzle).
__device__ static inline uint64_t encodeField(uint64_t x) {
  return (x & 0x3FFFF) >> 4;
}
__device__ uint64_t makeDesc(uint16_t *ptr) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint64_t desc = 0;
  desc |= encodeField(addr);
  desc |= encodeField(16) << 16;
  desc |= encodeField(1024) << 32;
  desc |= 1llu << 62;
  return desc;
}

__device__ void wgmma64(float d[4], uint16_t *sA, uint16_t *sB) {
  uint64_t descA = makeDesc(&sA[0]);
  uint64_t descB = makeDesc(&sB[0]);
  asm volatile("{\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
               "}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(descA), "l"(descB));
}

__device__ void opaque();

// An arrive on the barrier of CTA \p cta of the cluster at the same offset
// as \p bar: the register that mapa writes names the peer's copy of bar.
__device__ static inline void arriveCluster(uint64_t *bar, uint32_t cta) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n\t.reg .b32 remAddr32;\n\t"
               "mapa.shared::cluster.u32 remAddr32, %0, %1;\n\t"
               "mbarrier.arrive.shared::cluster.b64 _, [remAddr32];\n\t}"
               ::"r"(a), "r"(cta)
               : "memory");
}

constexpr int S = 4;

// The producer never waits on empty[s]: the refill of a stage may overtake
// the consumers' wgmma on it.
__global__ void __launch_bounds__(256)
refillNoRelease(const __grid_constant__ CUtensorMap mapA,
                const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: TMA load refills 'sA' that the MMA (shared-memory descriptor) reads at line [[#@LINE+9]] in other threads' code and hands back through the arrive on 'empty' at line [[#@LINE+14]], but these threads never wait on 'empty': the copy may overwrite the stage before its reads are done (ASYNC-REUSE-BEFORE-RELEASE) [tma-ordering]
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the MMA reads 'sA' here, after waiting on 'full'
      // CHECK-NOTES: :70:3: note: issued here
      // CHECK-NOTES: :[[@LINE+2]]:7: note: the readers release the stage here; wait on this barrier's phase before the refill
      // CHECK-NOTES: :32:3: note: issued here
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The twin: the producer waits until the consumers released the stage.
__global__ void __launch_bounds__(256)
refillAfterRelease(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&empty[s], ((k / S) & 1) ^ 1);
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The producer waits, but on full[s], which the consumers never arrive on:
// no wait on empty[s] releases the stage.
__global__ void __launch_bounds__(256)
refillWaitsOnFull(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&full[s], ((k / S) & 1) ^ 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: wait on 'full' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
        // CHECK-NOTES: :[[@LINE+2]]:9: note: the copy or expect-tx that completes the first phase
        // CHECK-NOTES: :27:3: note: issued here
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: TMA load refills 'sA' that the MMA (shared-memory descriptor) reads at line [[#@LINE+9]] in other threads' code and hands back through the arrive on 'empty' at line [[#@LINE+14]], but these threads never wait on 'empty': the copy may overwrite the stage before its reads are done (ASYNC-REUSE-BEFORE-RELEASE) [tma-ordering]
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the MMA reads 'sA' here, after waiting on 'full'
      // CHECK-NOTES: :70:3: note: issued here
      // CHECK-NOTES: :[[@LINE+2]]:7: note: the readers release the stage here; wait on this barrier's phase before the refill
      // CHECK-NOTES: :32:3: note: issued here
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The cluster's consumers hand each stage back with a remote arrive; the
// producer never waits on empty[q].

__global__ void __launch_bounds__(256)
clusterRefillNoRelease(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 2);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int p = 0;
      int q = 0;
      for (int k = 0; k < nk; ++k, ++q) {
        if (q == S) {
          q = 0;
          p ^= 1;
        }
        expectBytes(&full[q], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[q], &mapA, &full[q], k * 64, 0);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: TMA load refills 'sA' that the MMA (shared-memory descriptor) reads at line [[#@LINE+14]] in other threads' code and hands back through the arrive on 'empty' at line [[#@LINE+20]], but these threads never wait on 'empty': the copy may overwrite the stage before its reads are done (ASYNC-REUSE-BEFORE-RELEASE) [tma-ordering]
        loadTile(sB[q], &mapB, &full[q], k * 64, 0);
      }
    }
  } else {
    const int tid = threadIdx.x % 128;
    for (int s = 0; s < S; ++s) {
      if (tid < 2)
        arriveCluster(&empty[s], tid);
    }
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: note: the MMA reads 'sA' here, after waiting on 'full'
      // CHECK-NOTES: :70:3: note: issued here
      // CHECK-NOTES: :[[@LINE+3]]:9: note: the readers release the stage here; wait on this barrier's phase before the refill
      // CHECK-NOTES: :84:3: note: issued here
      if (threadIdx.x < 2)
        arriveCluster(&empty[s], threadIdx.x);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The twin: the producer waits on empty[q], parity 0 on the first lap (the
// consumers released every stage once before the ring).

__global__ void __launch_bounds__(256)
clusterRefillAfterRelease(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 2);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int p = 0;
      int q = 0;
      for (int k = 0; k < nk; ++k, ++q) {
        if (q == S) {
          q = 0;
          p ^= 1;
        }
        waitBarrier(&empty[q], p);
        expectBytes(&full[q], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[q], &mapA, &full[q], k * 64, 0);
        loadTile(sB[q], &mapB, &full[q], k * 64, 0);
      }
    }
  } else {
    const int tid = threadIdx.x % 128;
    for (int s = 0; s < S; ++s) {
      if (tid < 2)
        arriveCluster(&empty[s], tid);
    }
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      if (threadIdx.x < 2)
        arriveCluster(&empty[s], threadIdx.x);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The producer waits on the flipped phase bit (parity 1 on the first lap): its first lap passes on the fresh
// barriers, and from the second lap on it waits for phase 0, which the
// consumers' first round of arrivals completed before any read.

__global__ void __launch_bounds__(256)
clusterFlippedParity(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 2);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int p = 0;
      int q = 0;
      for (int k = 0; k < nk; ++k, ++q) {
        if (q == S) {
          q = 0;
          p ^= 1;
        }
        waitBarrier(&empty[q], p ^ 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: wait on 'empty' names parity 1 on the ring's first lap, but the arrivals at line [[#@LINE+12]] complete phase 0 of every stage before the ring starts: from the second lap on the wait names a phase that completed a lap earlier and returns before the stage is released; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
        // CHECK-NOTES: :[[@LINE+11]]:9: note: these arrivals complete phase 0 before any wait
        // CHECK-NOTES: :84:3: note: issued here
        expectBytes(&full[q], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[q], &mapA, &full[q], k * 64, 0);
        loadTile(sB[q], &mapB, &full[q], k * 64, 0);
      }
    }
  } else {
    const int tid = threadIdx.x % 128;
    for (int s = 0; s < S; ++s) {
      if (tid < 2)
        arriveCluster(&empty[s], tid);
    }
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      if (threadIdx.x < 2)
        arriveCluster(&empty[s], threadIdx.x);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// --- Silent ------------------------------------------------------------------

// A prologue fills every stage once with no wait; the ring after it waits
// on empty[s] before each refill.
__global__ void __launch_bounds__(256)
prologueThenRing(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int s = 0; s < S; ++s) {
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], s * 64, 0);
        loadTile(sB[s], &mapB, &full[s], s * 64, 0);
      }
      for (int k = S; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&empty[s], ((k / S) & 1) ^ 1);
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// An unknown call in the producer may wait on empty[s].
__global__ void __launch_bounds__(256)
refillAfterUnknown(const __grid_constant__ CUtensorMap mapA,
       const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        opaque();
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The consumers arrive on another barrier first (an epilogue's), then on
// empty[s]; the producer waits on empty[s].
__global__ void __launch_bounds__(256)
releaseAfterOtherArrive(const __grid_constant__ CUtensorMap mapA,
                        const __grid_constant__ CUtensorMap mapB, float *out,
                        int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S], done;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
    initBarrier(&done, 128);
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&empty[s], ((k / S) & 1) ^ 1);
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      arriveOn(&done);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The producer's loop fills each stage once (S passes of a ring of S
// stages, or the loop's counter as the stage): no stage is refilled, so
// nothing waits on empty[s] and the consumers' arrives are never awaited.
__global__ void __launch_bounds__(256)
fillEachStageOnce(const __grid_constant__ CUtensorMap mapA, float *out) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < S; ++k) {
        int s = k % S;
        expectBytes(&full[s], sizeof(sA[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
      }
    }
  } else {
    float acc = 0;
    for (int k = 0; k < S; ++k) {
      int s = k % S;
      waitBarrier(&full[s], 0);
      acc += sA[s][threadIdx.x];
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = acc;
  }
}

__global__ void __launch_bounds__(256)
fillByCounter(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk && k < S; ++k) {
        expectBytes(&full[k], sizeof(sA[0]));
        loadTile(sA[k], &mapA, &full[k], k * 64, 0);
      }
    }
  } else {
    float acc = 0;
    for (int k = 0; k < nk && k < S; ++k) {
      waitBarrier(&full[k], 0);
      acc += sA[k][threadIdx.x];
      arriveOn(&empty[k]);
    }
    out[threadIdx.x] = acc;
  }
}

// One pass more than the ring has stages: stage 0 is refilled.
__global__ void __launch_bounds__(256)
fillOnePassMore(const __grid_constant__ CUtensorMap mapA, float *out) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < S + 1; ++k) {
        int s = k % S;
        expectBytes(&full[s], sizeof(sA[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: TMA load refills 'sA' that generic loads read at line [[#@LINE+8]] in other threads' code and hands back through the arrive on 'empty' at line [[#@LINE+9]], but these threads never wait on 'empty': the copy may overwrite the stage before its reads are done (ASYNC-REUSE-BEFORE-RELEASE) [tma-ordering]
      }
    }
  } else {
    float acc = 0;
    for (int k = 0; k < S + 1; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      acc += sA[s][threadIdx.x];
      arriveOn(&empty[s]);
      // CHECK-NOTES: :[[@LINE-2]]:14: note: generic load of 'sA' here, after waiting on 'full'
      // CHECK-NOTES: :[[@LINE-2]]:7: note: the readers release the stage here; wait on this barrier's phase before the refill
      // CHECK-NOTES: :32:3: note: issued here
    }
    out[threadIdx.x] = acc;
  }
}
