// MBAR-TX-EQUALS-BYTES with the copies of one phase issued by an inner
// counted loop (hand-written inline-PTX GEMM style, learn-cuda 02e: BLOCK_K
// / 8 slices of A and B per barrier): the loop's copies count once per
// iteration in the phase of the region around the loop.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ inline void load_slice(char *dst, const char *src, uint32_t size,
                                  uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smem(dst)),
               "l"(src), "r"(size), "r"(bar)
               : "memory");
}

template <int BLOCK_K, int SLICE>
__global__ void slicedGemm(const char *a, const char *b, int num_iters) {
  __shared__ alignas(128) char a_smem[BLOCK_K / 8 * SLICE];
  __shared__ alignas(128) char b_smem[BLOCK_K / 8 * SLICE];
  __shared__ uint64_t mbar;
  const uint32_t mbar_addr = smem(&mbar);
  for (int iter = 0; iter < num_iters; ++iter) {
    if (threadIdx.x == 0) {
      for (int k = 0; k < BLOCK_K / 8; k++) {
        load_slice(a_smem + k * SLICE, a + iter * 4096 + k * SLICE, SLICE,
                   mbar_addr);
        load_slice(b_smem + k * SLICE, b + iter * 4096 + k * SLICE, SLICE,
                   mbar_addr);
      }
      constexpr int cp_size = 2 * (BLOCK_K / 8) * 512;
      asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, "
                   "[%0], %1;" ::"r"(mbar_addr),
                   "r"(cp_size)
                   : "memory");
      // CHECK-MESSAGES: :40:7: warning: expect-tx of 8192 bytes on 'mbar' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      // CHECK-MESSAGES: :34:9: note: this copy delivers 1024 bytes to 'mbar'
      // CHECK-MESSAGES: :33:7: note: in each of the 8 iterations of this loop
      // CHECK-MESSAGES: :36:9: note: this copy delivers 1024 bytes to 'mbar'
      // CHECK-MESSAGES: :33:7: note: in each of the 8 iterations of this loop
      // CHECK-MESSAGES: :40:7: note: expect 16384 bytes
    }
  }
}
// 512-byte slices are counted right: silent. 1024-byte slices are not.
template __global__ void slicedGemm<64, 512>(const char *, const char *, int);
template __global__ void slicedGemm<64, 1024>(const char *, const char *, int);

// A loop that may skip a slice: its copies do not count per iteration
// (silent, although the count looks short).
__global__ void skippingLoop(const char *a) {
  __shared__ alignas(128) char a_smem[8 * 512];
  __shared__ uint64_t mbar;
  const uint32_t mbar_addr = smem(&mbar);
  if (threadIdx.x == 0) {
    for (int k = 0; k < 8; k++) {
      if (a[k] == 0)
        continue;
      load_slice(a_smem + k * 512, a + k * 512, 512, mbar_addr);
    }
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     mbar_addr),
                 "r"(1024)
                 : "memory");
  }
}

// A trip count known only at run time: silent.
__global__ void runtimeTrips(const char *a, int slices) {
  __shared__ alignas(128) char a_smem[8 * 512];
  __shared__ uint64_t mbar;
  const uint32_t mbar_addr = smem(&mbar);
  if (threadIdx.x == 0) {
    for (int k = 0; k < slices; k++)
      load_slice(a_smem + k * 512, a + k * 512, 512, mbar_addr);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     mbar_addr),
                 "r"(4096)
                 : "memory");
  }
}
