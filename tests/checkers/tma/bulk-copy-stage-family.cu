// Stage families (issue 24): a buffer array indexed by a ring index
// (`buf[k % S]` with S the array's extent and k a counted loop's counter, or
// a local holding it) takes every stage, so an alignment rule reports the
// first stage whose address breaks it, naming the stage, even where stage 0
// is aligned. An index that is not proven to be a ring index stays silent.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace ptx = cuda::ptx;

__device__ static inline void tensorLoad1d(void *dst, const void *map,
                                           uint64_t *bar, int c0) {
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3}], [%2];"
               :: "r"(d), "l"(map), "r"(b), "r"(c0)
               : "memory");
}

constexpr int S = 2;

// --- TMA-SMEM-ALIGN-128 ---------------------------------------------------------

// Two stages of 32 halves: stage 1 starts 64 bytes in.
__global__ void stages64(const void *map, int nk) {
  __shared__ alignas(128) unsigned short tile[S][32];
  __shared__ uint64_t bar[S];
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    tensorLoad1d(tile[s], map, &bar[s], k * 32);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: cp.async.bulk.tensor: stage 1 starts 64 bytes into 'tile', so its shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  }
}

// The twin: stages of 64 halves (128 bytes).
__global__ void stages128(const void *map, int nk) {
  __shared__ alignas(128) unsigned short tile[S][64];
  __shared__ uint64_t bar[S];
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    tensorLoad1d(tile[s], map, &bar[s], k * 64);
  }
}

// The ring index written in the subscript, over a SharedStorage member
// array whose stages are 128 bytes each: every stage aligned (silent).
struct Storage {
  struct Stage {
    alignas(128) unsigned short a[32];
  } stage[4];
  uint64_t full[4];
};
__global__ void storageStages(const void *map, int nk) {
  __shared__ alignas(128) Storage st;
  for (int k = 0; k < nk; k += 1)
    tensorLoad1d(st.stage[k % 4].a, map, &st.full[k % 4], k * 32);
}

// --- BULK-ADDR-ALIGN16 ----------------------------------------------------------

// Rows of 6 floats: stage 1 starts 24 bytes in (8-byte aligned).
__global__ void rows24(const float *g, int nk) {
  __shared__ alignas(128) float rows[4][6];
  __shared__ uint64_t bar;
  for (int k = 0; k < nk; ++k)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, rows[k % 4], g,
                       16, &bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: cuda::ptx::cp_async_bulk: stage 1 starts 24 bytes into 'rows', so its shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
}

// The twin: rows of 8 floats.
__global__ void rows32(const float *g, int nk) {
  __shared__ alignas(128) float rows[4][8];
  __shared__ uint64_t bar;
  for (int k = 0; k < nk; ++k)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, rows[k % 4], g,
                       16, &bar);
}

// --- Through a helper's parameter ----------------------------------------------

// A producer lambda takes the counter and picks the stage itself
// (`s = kt % S`): called with a counted loop's counter, it takes every stage.
__global__ void lambdaStages64(const void *map, int nk) {
  __shared__ alignas(128) unsigned short tile[S][32];
  __shared__ uint64_t bar[S];
  auto produce = [&](int kt) {
    const int s = kt % S;
    tensorLoad1d(tile[s], map, &bar[s], kt * 32);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: cp.async.bulk.tensor: stage 1 starts 64 bytes into 'tile', so its shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  };
  for (int k = 0; k < nk; ++k)
    produce(k);
}

// The twin: stages of 128 bytes.
__global__ void lambdaStages128(const void *map, int nk) {
  __shared__ alignas(128) unsigned short tile[S][64];
  __shared__ uint64_t bar[S];
  auto produce = [&](int kt) {
    const int s = kt % S;
    tensorLoad1d(tile[s], map, &bar[s], kt * 64);
  };
  for (int k = 0; k < nk; ++k)
    produce(k);
}

// The lambda called with the kernel's parameter: which stages run is not
// known (silent).
__global__ void lambdaStageOfParameter(const void *map, int first) {
  __shared__ alignas(128) unsigned short tile[S][32];
  __shared__ uint64_t bar[S];
  auto produce = [&](int kt) {
    const int s = kt % S;
    tensorLoad1d(tile[s], map, &bar[s], kt * 32);
  };
  produce(first);
}

// --- Silent -------------------------------------------------------------------

// A stage chosen by the caller: which stages run is not known.
__global__ void stageParameter(const void *map, int s) {
  __shared__ alignas(128) unsigned short tile[S][32];
  __shared__ uint64_t bar[S];
  tensorLoad1d(tile[s], map, &bar[s], 0);
}

// A modulus of something other than a loop counter (the block's index).
__global__ void stageOfBlock(const void *map) {
  __shared__ alignas(128) unsigned short tile[S][32];
  __shared__ uint64_t bar[S];
  const int s = static_cast<int>(blockIdx.x) % S;
  tensorLoad1d(tile[s], map, &bar[s], 0);
}

// A counter stepping by two selects stages 0 and 2 only (both aligned): no
// ring over every stage.
__global__ void stageStepTwo(const void *map, int nk) {
  __shared__ alignas(128) unsigned short tile[4][32];
  __shared__ uint64_t bar[4];
  for (int k = 0; k < nk; k += 2)
    tensorLoad1d(tile[k % 4], map, &bar[k % 4], 0);
}
