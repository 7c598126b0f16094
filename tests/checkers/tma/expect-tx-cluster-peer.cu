// MBAR-TX-EQUALS-BYTES in a cluster, for ops on a peer CTA's barrier: a copy
// whose barrier address is mapped to CTA r (`mapa.shared::cluster`) completes
// its bytes on CTA r's barrier (a DSMEM push, a `.cta_group::2` load), and
// an expect-tx on a mapped address counts there. The phase is counted CTA by
// CTA of the kernel's cluster, each op times the threads that issue it
// (MBAR-TX-ISSUERS: `elect.sync` in every warp). Each wrong kernel has a
// correct twin; unknown clusters and ranks stay silent.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t ctaRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
// The shared::cluster address of the same variable in CTA `rank`.
__device__ __forceinline__ uint32_t peer(const void *p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(out) : "r"(smem(p)), "r"(rank));
  return out;
}
__device__ __forceinline__ bool electOne() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, 0xffffffff;\n"
               " selp.b32 %0, 1, 0, P;\n}\n" : "=r"(pred));
  return pred != 0;
}
__device__ __forceinline__ void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem(bar)), "r"(bytes) : "memory");
}
// Copies `bytes` of this CTA's `src` into `dst` of CTA `rank`, completing
// on `bar` of CTA `rank`.
__device__ __forceinline__ void push(void *dst, const void *src,
                                     uint64_t *bar, uint32_t bytes,
                                     uint32_t rank) {
  asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
               "complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(peer(dst, rank)), "r"(smem(src)), "r"(bytes),
                  "r"(peer(bar, rank))
               : "memory");
}

// CTA 0 pushes 2048 bytes into CTA 1, whose barrier counts 1024.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pushHalfCounted() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 1 && threadIdx.x == 0)
    expectTx(&bar, 1024);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 1 of the cluster of 2, expect-tx of 1024 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pushHalfCounted'
  // CHECK-NOTES: :[[@LINE+3]]:5: note: this copy in CTA 0 delivers 2048 bytes to 'bar' of CTA 1: mapa names that CTA's barrier
  // CHECK-NOTES: :[[@LINE-4]]:5: note: expect 2048 bytes in CTA 1
  if (rank == 0 && threadIdx.x == 0)
    push(dst, src, &bar, 2048, 1);
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pushCounted() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 1 && threadIdx.x == 0)
    expectTx(&bar, 2048);
  if (rank == 0 && threadIdx.x == 0)
    push(dst, src, &bar, 2048, 1);
}

// One elected thread in each of the 4 warps pushes the tile
// (facebookexperimental/triton#1538's shape): 4 x 2048 bytes arrive.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pushEveryWarp() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 1 && threadIdx.x == 0)
    expectTx(&bar, 2048);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 1 of the cluster of 2, expect-tx of 2048 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pushEveryWarp'
  // CHECK-NOTES: :[[@LINE+5]]:7: note: this copy in CTA 0 delivers 2048 bytes to 'bar' of CTA 1: mapa names that CTA's barrier
  // CHECK-NOTES: :[[@LINE+4]]:7: note: issued by 4 threads of each CTA's block of 128 threads, each counting its bytes (MBAR-TX-ISSUERS)
  // CHECK-NOTES: :[[@LINE-5]]:5: note: expect 8192 bytes in CTA 1
  if (rank == 0) {
    if (electOne())
      push(dst, src, &bar, 2048, 1);
  }
}

// The twin: only warp 0 elects.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pushWarpZero() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 1 && threadIdx.x == 0)
    expectTx(&bar, 2048);
  if (rank == 0) {
    if (threadIdx.x / 32 == 0 && electOne())
      push(dst, src, &bar, 2048, 1);
  }
}

// ThunderKittens' shape: the mapped address in a local that a mapa asm
// writes. CTA 0 expects on its own barrier the bytes it pushes to CTA 1:
// nothing completes on CTA 0's barrier, its phase never completes.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
expectOnPusher() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 0 && threadIdx.x == 0) {
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote) : "r"(smem(&bar)), "r"(1));
    expectTx(&bar, 2048);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'bar' in CTA 0 of the cluster of 2, but no copy of the cluster completes on it there: its phase never completes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'expectOnPusher'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: send the bytes to this CTA (a multicast mask or a mapa rank that names it), or expect none here
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
                 "complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(peer(dst, 1)), "r"(smem(src)), "r"(2048),
                    "r"(remote)
                 : "memory");
  }
}

// The twin: CTA 0 expects on CTA 1's barrier (an expect-tx on the mapped
// address counts there).
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
expectOnReceiver() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 0 && threadIdx.x == 0) {
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote) : "r"(smem(&bar)), "r"(1));
    asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 "
                 "[%0], %1;" :: "r"(remote), "r"(2048) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
                 "complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(peer(dst, 1)), "r"(smem(src)), "r"(2048),
                    "r"(remote)
                 : "memory");
  }
}

// Every CTA swaps its tile with its partner (rank ^ 1) and counts what it
// receives; the wrong one counts half.
__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128)
swapHalf() {
  __shared__ alignas(128) char src[4096];
  __shared__ alignas(128) char dst[4096];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 2048);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 0 of the cluster of 4, expect-tx of 2048 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 4 CTAs: __cluster_dims__(4, 1, 1) of 'swapHalf'
    // CHECK-NOTES: :[[@LINE+2]]:5: note: this copy in CTA 1 delivers 4096 bytes to 'bar' of CTA 0: mapa names that CTA's barrier
    // CHECK-NOTES: :[[@LINE-4]]:5: note: expect 4096 bytes in CTA 0
    push(dst, src, &bar, 4096, rank ^ 1);
  }
}

__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128)
swapCounted() {
  __shared__ alignas(128) char src[4096];
  __shared__ alignas(128) char dst[4096];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 4096);
    push(dst, src, &bar, 4096, rank ^ 1);
  }
}

// Unknown: the peer's rank from a parameter, no cluster, a rank outside
// the cluster: silent.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
rankFromParameter(uint32_t to) {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    push(dst, src, &bar, 2048, to);
  }
}

__global__ void __launch_bounds__(128) noCluster() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    push(dst, src, &bar, 2048, 1);
  }
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
rankOutsideCluster() {
  __shared__ alignas(128) char src[2048];
  __shared__ alignas(128) char dst[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    push(dst, src, &bar, 2048, 5);
  }
}

// .cta_group::2 (CUTLASS's 2-SM loads): each CTA of the pair loads its half
// of the tile, both completing on the leader CTA 0's barrier. The leader
// must expect both halves.
__device__ __forceinline__ void loadPair(void *dst, const CUtensorMap *map,
                                         uint64_t *bar, uint32_t to, int x,
                                         int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes.cta_group::2"
               " [%0], [%1, {%3, %4}], [%2];"
               :: "r"(smem(dst)), "l"(map), "r"(peer(bar, to)), "r"(x), "r"(y)
               : "memory");
}

template <uint32_t Expected>
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pairLoad(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) unsigned short tile[64 * 64];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 0 && threadIdx.x == 0)
    expectTx(&bar, Expected);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 0 of the cluster of 2, expect-tx of 8192 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pairLoad'
  // CHECK-NOTES: :[[@LINE+4]]:5: note: this copy in CTA 0 delivers 8192 bytes to 'bar' of CTA 0: mapa names that CTA's barrier
  // CHECK-NOTES: :[[@LINE+3]]:5: note: this copy in CTA 1 delivers 8192 bytes to 'bar' of CTA 0: mapa names that CTA's barrier
  // CHECK-NOTES: :[[@LINE-5]]:5: note: expect 16384 bytes in CTA 0
  if (threadIdx.x == 0)
    loadPair(tile, &map, &bar, 0, 0, rank * 64);
}

// The odd CTA of the pair as the barrier's CTA: how the pair routes that
// signal is not documented, silent.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
pairLoadToOdd(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) unsigned short tile[64 * 64];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank == 1 && threadIdx.x == 0)
    expectTx(&bar, 1000);
  if (threadIdx.x == 0)
    loadPair(tile, &map, &bar, 1, 0, rank * 64);
}

void runPair(unsigned short *ptr) {
  CUtensorMap map;
  uint64_t dims[2] = {64, 4096};
  uint64_t strides[1] = {128};
  uint32_t box[2] = {64, 64};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  pairLoad<8192><<<2, 128>>>(map);
  pairLoad<16384><<<2, 128>>>(map);
  pairLoadToOdd<<<2, 128>>>(map);
}

void launchAll() {
  pushHalfCounted<<<2, 128>>>();
  pushCounted<<<2, 128>>>();
  pushEveryWarp<<<2, 128>>>();
  pushWarpZero<<<2, 128>>>();
  expectOnPusher<<<2, 128>>>();
  expectOnReceiver<<<2, 128>>>();
  swapHalf<<<4, 128>>>();
  swapCounted<<<4, 128>>>();
  noCluster<<<2, 128>>>();
  rankOutsideCluster<<<2, 128>>>();
  // rankFromParameter has no launch: its `to` stays unknown.
}
