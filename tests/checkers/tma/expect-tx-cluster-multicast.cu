// MBAR-TX-EQUALS-BYTES in a cluster: a multicast completes its bytes on the
// barrier at the same offset in every CTA of its mask, so each CTA's
// expect-tx must count the multicasts of the other CTAs that name it. The
// phase is counted CTA by CTA of the kernel's cluster (__cluster_dims__),
// with the CTA's rank (%cluster_ctarank) folded into the guards, masks and
// byte counts; where any of them is unknown the check stays silent. Each
// wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
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
__device__ __forceinline__ void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void load(void *dst, const void *src, uint64_t *bar,
                                     uint32_t bytes) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];"
               :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar))
               : "memory");
}
__device__ __forceinline__ void loadMulticast(void *dst, const void *src,
                                              uint64_t *bar, uint32_t bytes,
                                              uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
               :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar)),
                  "h"(mask)
               : "memory");
}

// Every CTA loads its own 1024 bytes; CTA 0 multicasts 2048 more to both.
// Each CTA expects only its own load.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
receiverUncounted(const char *src) {
  __shared__ alignas(128) char own[1024];
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 0 of the cluster of 2, expect-tx of 1024 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 3072 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'receiverUncounted'
    // CHECK-NOTES: :[[@LINE+4]]:7: note: this multicast from CTA 0 (mask 0x3) delivers 2048 bytes to 'bar' in CTA 0
    // CHECK-NOTES: :[[@LINE-4]]:5: note: expect 3072 bytes in CTA 0
    load(own, src, &bar, 1024);
    if (rank == 0)
      loadMulticast(shared, src + 1024, &bar, 2048, 0x3);
  }
}

// The twin: each CTA counts the multicast it receives.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
receiverCounted(const char *src) {
  __shared__ alignas(128) char own[1024];
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024 + 2048);
    load(own, src, &bar, 1024);
    if (rank == 0)
      loadMulticast(shared, src + 1024, &bar, 2048, 0x3);
  }
}

// Only the issuing CTA counts the multicast (flashinfer-bench#183's shape):
// CTA 1 receives 2048 bytes it does not expect.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
issuerOnlyCounts(const char *src) {
  __shared__ alignas(128) char own[1024];
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    const uint32_t bytes = 1024 + (rank == 0 ? 2048 : 0);
    expectTx(&bar, bytes);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 1 of the cluster of 2, expect-tx of 1024 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 3072 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'issuerOnlyCounts'
    // CHECK-NOTES: :[[@LINE+4]]:7: note: this multicast from CTA 0 (mask 0x3) delivers 2048 bytes to 'bar' in CTA 1
    // CHECK-NOTES: :[[@LINE-4]]:5: note: expect 3072 bytes in CTA 1
    load(own, src, &bar, 1024);
    if (rank == 0)
      loadMulticast(shared, src + 1024, &bar, 2048, 0x3);
  }
}

// A mask that leaves out a CTA which expects the bytes: nothing of the
// cluster completes on CTA 1's barrier, its phase never completes.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
maskMissesExpecter(const char *src) {
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 2048);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'bar' in CTA 1 of the cluster of 2, but no copy of the cluster completes on it there: its phase never completes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'maskMissesExpecter'
    // CHECK-NOTES: :[[@LINE-3]]:5: note: send the bytes to this CTA (a multicast mask or a mapa rank that names it), or expect none here
    if (rank == 0)
      loadMulticast(shared, src, &bar, 2048, 0x1);
  }
}

// The twin: the mask names both CTAs.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
maskNamesBoth(const char *src) {
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 2048);
    if (rank == 0)
      loadMulticast(shared, src, &bar, 2048, 0x3);
  }
}

// Each CTA multicasts its half of a tile to both (CUTLASS's split
// multicast): every CTA receives both halves. Counting one half is wrong,
// counting both is right.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
splitHalvesOwnOnly(const char *src) {
  __shared__ alignas(128) char tile[4096];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 2048);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: in CTA 0 of the cluster of 2, expect-tx of 2048 bytes on 'bar' but the copies of the cluster completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'splitHalvesOwnOnly'
    // CHECK-NOTES: :[[@LINE+3]]:5: note: this multicast from CTA 0 (mask 0x3) delivers 2048 bytes to 'bar' in CTA 0
    // CHECK-NOTES: :[[@LINE+2]]:5: note: this multicast from CTA 1 (mask 0x3) delivers 2048 bytes to 'bar' in CTA 0
    // CHECK-NOTES: :[[@LINE-5]]:5: note: expect 4096 bytes in CTA 0
    loadMulticast(tile + rank * 2048, src + rank * 2048, &bar, 2048, 0x3);
  }
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
splitHalvesBoth(const char *src) {
  __shared__ alignas(128) char tile[4096];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 2 * 2048);
    loadMulticast(tile + rank * 2048, src + rank * 2048, &bar, 2048, 0x3);
  }
}

// Unknown: a mask from a kernel parameter, or no cluster: silent.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
maskFromParameter(const char *src, uint16_t mask) {
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    if (rank == 0)
      loadMulticast(shared, src, &bar, 2048, mask);
  }
}

__global__ void __launch_bounds__(128) noCluster(const char *src) {
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expectTx(&bar, 1024);
    loadMulticast(shared, src, &bar, 2048, 0x3);
  }
}

// A jump under a rank condition decides which CTAs reach the ops, which the
// branches around them do not show: unknown, silent (here only CTA 0 runs,
// and its count is right).
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
earlyReturnByRank(const char *src) {
  __shared__ alignas(128) char shared[2048];
  __shared__ uint64_t bar;
  const uint32_t rank = ctaRank();
  if (rank != 0)
    return;
  if (threadIdx.x == 0) {
    expectTx(&bar, 2048);
    loadMulticast(shared, src, &bar, 2048, 0x1);
  }
}
