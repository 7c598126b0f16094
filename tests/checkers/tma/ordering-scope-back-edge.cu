// BULK-WAITGROUP-SCOPE through the back edge of a persistent epilogue loop
// (the shape of fast.cu's matmul_10/11): one consumer thread stores the
// tile and commits at the end of a pass; at the start of the next pass
// every consumer executes `cp.async.bulk.wait_group 0` and rewrites the
// tile. Only the committing thread waits; the others committed nothing,
// pass the wait at once and overwrite the tile the store may still read.
// A thread barrier after the wait makes them wait for it (the twin); so
// does a wait by the storing thread alone followed by one. The mbarrier
// waits of the main loop lie before the wait and change nothing.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void storeAsync(const void *map, const void *src,
                                         int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(src))),
                  "r"(x), "r"(y)
               : "memory");
}
__device__ static inline void waitFull(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

__device__ static inline void initFull(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(a));
}

struct SMem {
  alignas(128) float C[128 * 64];
  uint64_t full;
};

__global__ void __launch_bounds__(384)
epilogueAllWait(const __grid_constant__ CUtensorMap mapC, const float *acc,
                int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  SMem &s = *reinterpret_cast<SMem *>(smem);
  float *sC = s.C;
  if (threadIdx.x == 0)
    initFull(&s.full);
  __syncthreads();
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return; // the producer's work is not shown
  for (int tile = 0; tile < tiles; ++tile) {
    waitFull(&s.full, tile & 1);
    asm volatile("cp.async.bulk.wait_group 0;");
    sC[threadIdx.x - 128] = acc[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:27: warning: generic store overwrites 'smem.C' while the TMA store at line [[#@LINE+6]] may still read it: the wait at line [[#@LINE-2]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+5]]:7: note: the TMA store reads 'smem.C' here, issued by the threads of this branch only
    // CHECK-NOTES: :21:3: note: issued here
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 10, 256;\n");
    if (threadIdx.x == 128) {
      storeAsync(&mapC, &sC[0], 0, tile);
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
}

// The twin: the consumers meet at their named barrier after the wait, so
// none rewrites the tile before thread 128's wait returned.
__global__ void __launch_bounds__(384)
epilogueWaitThenSync(const __grid_constant__ CUtensorMap mapC,
                     const float *acc, int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  SMem &s = *reinterpret_cast<SMem *>(smem);
  float *sC = s.C;
  if (threadIdx.x == 0)
    initFull(&s.full);
  __syncthreads();
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  for (int tile = 0; tile < tiles; ++tile) {
    waitFull(&s.full, tile & 1);
    asm volatile("cp.async.bulk.wait_group 0;");
    asm volatile("bar.sync 10, 256;\n");
    sC[threadIdx.x - 128] = acc[threadIdx.x];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 10, 256;\n");
    if (threadIdx.x == 128) {
      storeAsync(&mapC, &sC[0], 0, tile);
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
}

// The storing thread alone waits (wait_group.read), then the barrier:
// silent.
__global__ void __launch_bounds__(384)
epilogueIssuerWaits(const __grid_constant__ CUtensorMap mapC,
                    const float *acc, int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  SMem &s = *reinterpret_cast<SMem *>(smem);
  float *sC = s.C;
  if (threadIdx.x == 0)
    initFull(&s.full);
  __syncthreads();
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  for (int tile = 0; tile < tiles; ++tile) {
    waitFull(&s.full, tile & 1);
    if (threadIdx.x == 128)
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("bar.sync 10, 256;\n");
    sC[threadIdx.x - 128] = acc[threadIdx.x];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 10, 256;\n");
    if (threadIdx.x == 128) {
      storeAsync(&mapC, &sC[0], 0, tile);
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
}

void launch(const CUtensorMap &mapC, const float *acc, int tiles) {
  epilogueAllWait<<<132, 384, sizeof(SMem)>>>(mapC, acc, tiles);
  epilogueWaitThenSync<<<132, 384, sizeof(SMem)>>>(mapC, acc, tiles);
  epilogueIssuerWaits<<<132, 384, sizeof(SMem)>>>(mapC, acc, tiles);
}
