// TMA-LOAD-WAIT-BEFORE-READ between two barrier rings of one byte pool at
// integer window addresses (`base + 40 + s * 8`, `base + 80 + s * 8`): with
// one stage index unwritten between the copy and the wait, barriers at
// offsets 40 apart are different barriers, so a wait on the first ring does
// not order the reads of a tile the second ring's copy writes; and a
// cp.async.wait_group (cp.async groups only) completes no cp.async.bulk
// (issue 24 item 3, issue 28's drop-wait mutant on flashinfer's kda kernel).
// Where the index may change between them, any wait still counts.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline void initAt(int a, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void waitAt(int a, int p) {
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(a),
               "r"(p)
               : "memory");
}
__device__ inline void expectAt(int a, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ inline void bulkLoad(int dst, const void *src, unsigned bytes,
                                int bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

constexpr int S = 4;

// The tile of the second ring is read after a wait on the first ring and a
// cp.async.wait_group only.
__global__ void readAfterOtherRingsWait(const char *a, const char *b,
                                        float *out, int iters) {
  extern __shared__ __align__(1024) char pool[];
  int base;
  base = static_cast<int>(__cvta_generic_to_shared(pool));
  float *tileA = reinterpret_cast<float *>(pool + 1024);
  float *tileB = reinterpret_cast<float *>(pool + 2048);
#define A_FULL (base + 40)
#define B_FULL (base + 80)
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(A_FULL + s * 8, 1);
      initAt(B_FULL + s * 8, 1);
    }
  __syncthreads();
  unsigned stage = 0, phase = 0;
  for (int i = 0; i < iters; ++i) {
    if (threadIdx.x == 0) {
      expectAt(A_FULL + (stage) * 8, 1024);
      bulkLoad(base + 1024, a + i * 1024, 1024, A_FULL + (stage) * 8);
      expectAt(B_FULL + (stage) * 8, 1024);
      bulkLoad(base + 2048, b + i * 1024, 1024, B_FULL + (stage) * 8);
    }
    waitAt(A_FULL + (stage) * 8, phase);
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    out[i] = tileA[threadIdx.x] + tileB[threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: generic load reads 'pool + 2048' while the bulk copy at line [[#@LINE-5]] may still write it: no wait on 'pool + 80 + 8 * s' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    __syncthreads();
    stage += 1;
    if (stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
#undef A_FULL
#undef B_FULL
}

// Each tile is read after a wait on its own ring.
__global__ void readAfterOwnRingsWait(const char *a, const char *b,
                                      float *out, int iters, int partial) {
  extern __shared__ __align__(1024) char pool[];
  int base;
  base = static_cast<int>(__cvta_generic_to_shared(pool));
  float *tileA = reinterpret_cast<float *>(pool + 1024);
  float *tileB = reinterpret_cast<float *>(pool + 2048);
#define A_FULL (base + 40)
#define B_FULL (base + 80)
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(A_FULL + s * 8, 1);
      initAt(B_FULL + s * 8, 1);
    }
  __syncthreads();
  unsigned stage = 0, phase = 0;
  for (int i = 0; i < iters; ++i) {
    if (threadIdx.x == 0) {
      expectAt(A_FULL + (stage) * 8, 1024);
      bulkLoad(base + 1024, a + i * 1024, 1024, A_FULL + (stage) * 8);
      expectAt(B_FULL + (stage) * 8, 1024);
      bulkLoad(base + 2048, b + i * 1024, 1024, B_FULL + (stage) * 8);
    }
    waitAt(A_FULL + (stage) * 8, phase);
    if (partial)
      asm volatile("cp.async.wait_group 0;" ::: "memory");
    waitAt(B_FULL + (stage) * 8, phase);
    out[i] = tileA[threadIdx.x] + tileB[threadIdx.x];
    __syncthreads();
    stage += 1;
    if (stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
#undef A_FULL
#undef B_FULL
}

// The stage index is written between the copy and the wait: the wait on
// the first ring may then be on the barrier of the copy (silent).
__global__ void indexChangesBetween(const char *b, float *out, int iters) {
  extern __shared__ __align__(1024) char pool[];
  int base;
  base = static_cast<int>(__cvta_generic_to_shared(pool));
  float *tileB = reinterpret_cast<float *>(pool + 2048);
#define A_FULL (base + 40)
#define B_FULL (base + 80)
  if (threadIdx.x == 0)
    for (int s = 0; s < 2 * S; ++s)
      initAt(A_FULL + s * 8, 1);
  __syncthreads();
  unsigned stage = 0;
  for (int i = 0; i < iters; ++i) {
    if (threadIdx.x == 0) {
      expectAt(B_FULL + (stage) * 8, 1024);
      bulkLoad(base + 2048, b + i * 1024, 1024, B_FULL + (stage) * 8);
    }
    stage += S;
    waitAt(A_FULL + (stage) * 8, i & 1);
    out[i] = tileB[threadIdx.x];
    __syncthreads();
    stage = (i + 1) % S;
  }
#undef A_FULL
#undef B_FULL
}
