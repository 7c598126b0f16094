// MBAR-TX-EQUALS-BYTES on barriers of a dynamic shared-memory pool given
// as integer shared-window addresses (`bars + 40 + s * 8`, a ring of
// barriers carved at a byte offset): each barrier is identified by its
// offset in the pool, so the expect-tx and the copies of one barrier form
// a phase, apart from those of the barrier 40 bytes further (issue 24,
// issue 28's expect-tx-count mutant). A wrong count and its correct twin.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

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
__device__ inline void bulkLoad(uint32_t dst, const void *src, uint32_t bytes,
                                uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

constexpr int S = 2, STAGE = 16384, BARS = S * STAGE;

__global__ void windowRingWrongCount(const char *a, const char *b, int iters) {
  extern __shared__ __align__(1024) char smem[];
  int base;
  base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + BARS;
#define A_FULL (bars + 0)
#define B_FULL (bars + 40)
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(A_FULL + s * 8, 1);
      initAt(B_FULL + s * 8, 1);
    }
  __syncthreads();
  for (int i = 0; i < iters; ++i) {
    const int s = i % S;
    if (threadIdx.x == 0) {
      expectAt(A_FULL + (s) * 8, 8192 + 16);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: expect-tx of 8208 bytes on 'smem + 32768 + 8 * s' but the copies completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      bulkLoad(base + s * STAGE, a + i * 8192, 8192, A_FULL + (s) * 8);
      expectAt(B_FULL + (s) * 8, 4096);
      bulkLoad(base + s * STAGE + 8192, b + i * 4096, 4096, B_FULL + (s) * 8);
    }
    waitAt(A_FULL + s * 8, (i / S) & 1);
    waitAt(B_FULL + s * 8, (i / S) & 1);
    __syncthreads();
  }
#undef A_FULL
#undef B_FULL
}

__global__ void windowRingRightCount(const char *a, const char *b, int iters) {
  extern __shared__ __align__(1024) char smem[];
  int base;
  base = static_cast<int>(__cvta_generic_to_shared(smem));
  const int bars = base + BARS;
#define A_FULL (bars + 0)
#define B_FULL (bars + 40)
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(A_FULL + s * 8, 1);
      initAt(B_FULL + s * 8, 1);
    }
  __syncthreads();
  for (int i = 0; i < iters; ++i) {
    const int s = i % S;
    if (threadIdx.x == 0) {
      expectAt(A_FULL + (s) * 8, 8192);
      bulkLoad(base + s * STAGE, a + i * 8192, 8192, A_FULL + (s) * 8);
      expectAt(B_FULL + (s) * 8, 4096);
      bulkLoad(base + s * STAGE + 8192, b + i * 4096, 4096, B_FULL + (s) * 8);
    }
    waitAt(A_FULL + s * 8, (i / S) & 1);
    waitAt(B_FULL + s * 8, (i / S) & 1);
    __syncthreads();
  }
#undef A_FULL
#undef B_FULL
}
