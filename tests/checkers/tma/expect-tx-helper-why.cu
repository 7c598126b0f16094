// MBAR-TX-EQUALS-BYTES on a producer helper that gets its barrier from its
// callers (TransformerEngine's issue_tma_load_strided: an expect-tx and a
// copy on a `uint64_t *mbar` parameter; ThunderKittens' LCF load: a
// reference member of an argument struct). The helper's phase on its own is
// not the barrier's: the callers' phases, which hold the helper's ops at the
// call, are judged. A wrong count that folds at the call is reported there;
// its right twin is silent; a count of run-time values stays silent, and
// ExplainSilence says what the helper's barrier is, where it is judged and
// which run-time values the count reads.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffix=WHY %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.ExplainSilence: true}}" -- %cuda_stub_device

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline void expectTx(uint64_t *mbar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(mbar)),
               "r"(bytes)
               : "memory");
}

__device__ inline void load2d(void *dst, const CUtensorMap *map, int x, int y,
                              uint64_t *mbar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(dst)),
               "l"(map), "r"((uint32_t)__cvta_generic_to_shared(mbar)),
               "r"(x), "r"(y)
               : "memory");
}

// The helper: its expect-tx and its copy on the caller's barrier.
__device__ void issueLoad(bf16 *smem, const CUtensorMap *map, int row,
                          uint64_t *mbar, uint32_t tile_bytes) {
  expectTx(mbar, tile_bytes);
  load2d(smem, map, 0, row, mbar);
}

// A box of 64 x 32 bf16: 4096 bytes; the kernel expects TileBytes.
template <uint32_t TileBytes>
__global__ void transposeFixed(const __grid_constant__ CUtensorMap map,
                               int tiles) {
  __shared__ alignas(128) bf16 smem[64 * 32];
  __shared__ alignas(8) uint64_t mbar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(&mbar)));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      issueLoad(smem, &map, t * 32, &mbar, TileBytes);
    __syncthreads();
  }
}

// The count made of run-time values (TransformerEngine's
// s_tile_size * D_in * sizeof(T)): silent.
__global__ void transposeRuntime(const __grid_constant__ CUtensorMap map,
                                 int tiles, size_t s_tile_size, size_t d_in) {
  __shared__ alignas(128) bf16 smem[64 * 32];
  __shared__ alignas(8) uint64_t mbar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(
        (uint32_t)__cvta_generic_to_shared(&mbar)));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  const size_t rows = s_tile_size;
  const uint32_t tile_bytes = (uint32_t)(rows * d_in * sizeof(bf16));
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      issueLoad(smem, &map, t * 32, &mbar, tile_bytes);
    __syncthreads();
  }
}

CUtensorMap encode(bf16 *ptr) {
  CUtensorMap map;
  uint64_t dims[2] = {64, 4096};
  uint64_t strides[1] = {64 * sizeof(bf16)};
  uint32_t box[2] = {64, 32};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void launch(bf16 *p, size_t s, size_t d) {
  CUtensorMap map = encode(p);
  // 16 bytes more than the box: wrong.
  transposeFixed<4112><<<1, 128>>>(map, 8);
  // Right.
  transposeFixed<4096><<<1, 128>>>(map, 8);
  transposeRuntime<<<1, 128>>>(map, 8, s, d);
}

// ThunderKittens' LCF shape: the barrier a reference member of the
// argument struct its caller builds.
struct LoadArgs {
  uint64_t &arrived;
  bf16 *tile;
  __device__ LoadArgs(uint64_t &a, bf16 *t) : arrived(a), tile(t) {}
};

__device__ void produce(LoadArgs args, const CUtensorMap *map) {
  expectTx(&args.arrived, 4096);
  load2d(args.tile, map, 0, 0, &args.arrived);
}

// CHECK-MESSAGES: :60:7: warning: expect-tx of 4112 bytes on 'mbar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :60:7: note: this copy delivers 4096 bytes to 'mbar'
// CHECK-MESSAGES: :93:35: note: the tensor map it reads is encoded here: box 64 x 32 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :103:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :60:7: note: expect 4096 bytes
// CHECK-MESSAGES-NOT: :{{[0-9]+}}:{{[0-9]+}}: warning: expect-tx of 4096
// CHECK-MESSAGES-NOT: :81:7: warning: expect-tx
// The helpers' phases (expectTx's expect-tx alone, issueLoad's pair, and
// produce's on a reference member), the wrong count, and the run-time one.
// CHECK-MESSAGES-WHY: :23:3: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'mbar': the phase is not counted: a barrier of the callers of this helper (its parameter 'mbar'); judged in the phases of its callers, with this helper's ops (first call: line 42 of {{.*}}) [tma-expect-tx]
// CHECK-MESSAGES-WHY: :42:3: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'mbar': the phase is not counted: a barrier of the callers of this helper (its parameter 'mbar'); judged in the phases of its callers, with this helper's ops (first call: line 60 of {{.*}}) [tma-expect-tx]
// CHECK-MESSAGES-WHY: :60:7: warning: expect-tx of 4112 bytes on 'mbar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES-WHY: :81:7: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'mbar': the count of the expect-tx at line 81 is not folded (it reads the kernel parameters 's_tile_size' and 'd_in') [tma-expect-tx]
// CHECK-MESSAGES-WHY: :118:3: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'args.arrived': the phase is not counted: a barrier of the callers of this helper (the reference member 'arrived' of its parameter 'args', bound where its callers build 'args': the model does not follow a reference member to its binding) [tma-expect-tx]
