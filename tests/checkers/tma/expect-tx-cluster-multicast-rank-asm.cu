// MBAR-TX-EQUALS-BYTES in a cluster whose CTA rank is read by an asm `mov`
// in the kernel itself, into a local that an earlier `mov` of another
// register (%clusterid.x) wrote first; a multicast mask accumulated over a
// counted loop (`m |= 1 << (i * N)`); the producer's ops in one thread,
// inside a loop whose condition the model cannot fold (a scheduler's
// `next()`). The rows of a 2 x 1 cluster: CTA 0 multicasts B to the
// column's CTAs, each CTA loads its own A. The template's EXTRA = 16
// instance expects 16 bytes more than the cluster delivers; its EXTRA = 0
// twin is silent. Silent too: a mask from the register the local held
// before the rank was read, and a mask accumulated over an unknown bound.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void load(void *dst, const void *src,
                                     uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], 1024, [%2];"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void loadMulticast(void *dst, const void *src,
                                              uint64_t *bar, uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 1024, [%2], %3;"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)), "h"(mask)
               : "memory");
}
// A work scheduler: whether there is another tile (not foldable).
__device__ bool next(int &tile, int tiles) { return ++tile < tiles; }

template <int CM, int CN, int EXTRA>
__global__ void __launch_bounds__(256) __cluster_dims__(CM * CN, 1, 1)
rowsMulticastB(const char *a, const char *b, int tiles) {
  __shared__ alignas(128) char sA[1024];
  __shared__ alignas(128) char sB[1024];
  __shared__ uint64_t full;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(rank) :);
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank) :);
  uint32_t rank_m = rank / CN;
  uint32_t rank_n = rank % CN;
  int wg = threadIdx.x / 128;
  int tid = threadIdx.x % 128;
  if (wg == 0) {
    if (tid == 0) {
      uint32_t col_mask = 0;
      for (int i = 0; i < CM; ++i)
        col_mask |= (1 << (i * CN));
      int tile = -1;
      while (next(tile, tiles)) {
        expectBytes(&full, 2048 + EXTRA);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: in CTA 0 of the cluster of 2, expect-tx of 2064 bytes on 'full' but the copies of the cluster completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
        // CHECK-NOTES: :[[@LINE-21]]:40: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'rowsMulticastB'
        // CHECK-NOTES: :[[@LINE+5]]:13: note: this multicast from CTA 0 (mask 0x3) delivers 1024 bytes to 'full' in CTA 0
        // CHECK-NOTES: :[[@LINE-4]]:9: note: expect 2048 bytes in CTA 0
        load(sA, a, &full);
        if constexpr (CM > 1) {
          if (rank_m == 0)
            loadMulticast(sB, b, &full, col_mask << rank_n);
        } else {
          load(sB, b, &full);
        }
      }
    }
  } else {
    --wg;
  }
}
template __global__ void rowsMulticastB<2, 1, 16>(const char *, const char *,
                                                  int);
template __global__ void rowsMulticastB<2, 1, 0>(const char *, const char *,
                                                 int);

// The mask shifts by a value read before the rank: the local then held
// %clusterid.x, not the CTA's rank. Silent.
__global__ void __launch_bounds__(128) __cluster_dims__(2, 1, 1)
rankReadTooEarly(const char *a, const char *b) {
  __shared__ alignas(128) char sA[1024];
  __shared__ alignas(128) char sB[1024];
  __shared__ uint64_t full;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(rank) :);
  uint32_t early = rank % 2;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank) :);
  if (threadIdx.x == 0) {
    expectBytes(&full, 2064);
    load(sA, a, &full);
    if (rank == 0)
      loadMulticast(sB, b, &full, 1u << early);
  }
}

// A mask accumulated over a bound the model cannot fold. Silent.
__global__ void __launch_bounds__(128) __cluster_dims__(2, 1, 1)
maskOverUnknownBound(const char *a, const char *b, int n) {
  __shared__ alignas(128) char sA[1024];
  __shared__ alignas(128) char sB[1024];
  __shared__ uint64_t full;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank) :);
  uint32_t mask = 0;
  for (int i = 0; i < n; ++i)
    mask |= 1u << i;
  if (threadIdx.x == 0) {
    expectBytes(&full, 2064);
    load(sA, a, &full);
    if (rank == 0)
      loadMulticast(sB, b, &full, mask);
  }
}
