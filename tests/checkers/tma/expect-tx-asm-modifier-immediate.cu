// MBAR-TX-EQUALS-BYTES when an inline-PTX tensor copy names a modifier with
// an immediate operand: `.cta_group::%6` with "n"(CTA_GROUP), as
// learn-cuda's tma_3d_g2s writes it. The instantiation fixes the value, and
// the copy is seen as the assembler sees it.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;

__device__ size_t __cvta_generic_to_shared(const void *);

void make_map(CUtensorMap *map, bf16 *ptr, uint32_t rows) {
  uint64_t dims[3] = {64, 4096, 64};
  uint64_t strides[2] = {8192, 128};
  uint32_t box[3] = {64, rows, 1};
  uint32_t estrides[3] = {1, 1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <int CTA_GROUP = 1>
__device__ inline void tma_3d_g2s(int dst, const void *tmap_ptr, int x, int y,
                                  int z, int mbar_addr) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes.cta_group::%6 "
               "[%0], [%1, {%2, %3, %4}], [%5];"
               :: "r"(dst), "l"(tmap_ptr), "r"(x), "r"(y), "r"(z),
                  "r"(mbar_addr), "n"(CTA_GROUP)
               : "memory");
}

__device__ inline void expect_tx(int mbar_addr, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;"
               :: "r"(mbar_addr), "r"(bytes) : "memory");
}

// One 64 x 128 box of bf16 (16384 bytes) is counted as 8192.
__global__ void wrongCount(const __grid_constant__ CUtensorMap A_tmap) {
  __shared__ alignas(1024) bf16 tile[64 * 128];
  __shared__ uint64_t bar;
  const int smem = static_cast<int>(__cvta_generic_to_shared(tile));
  const int mbar = static_cast<int>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    tma_3d_g2s(smem, &A_tmap, 0, 0, 0, mbar);
    expect_tx(mbar, 64 * 64 * sizeof(bf16));
  }
}

// Counted right: silent.
__global__ void rightCount(const __grid_constant__ CUtensorMap A_tmap) {
  __shared__ alignas(1024) bf16 tile[64 * 128];
  __shared__ uint64_t bar;
  const int smem = static_cast<int>(__cvta_generic_to_shared(tile));
  const int mbar = static_cast<int>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    tma_3d_g2s(smem, &A_tmap, 0, 0, 0, mbar);
    expect_tx(mbar, 64 * 128 * sizeof(bf16));
  }
}

// .cta_group::2: the pair's byte count is not modelled, silent.
__global__ void pairCount(const __grid_constant__ CUtensorMap A_tmap) {
  __shared__ alignas(1024) bf16 tile[64 * 128];
  __shared__ uint64_t bar;
  const int smem = static_cast<int>(__cvta_generic_to_shared(tile));
  const int mbar = static_cast<int>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    tma_3d_g2s<2>(smem, &A_tmap, 0, 0, 0, mbar);
    expect_tx(mbar, 64 * 64 * sizeof(bf16));
  }
}

void run(bf16 *a) {
  CUtensorMap map;
  make_map(&map, a, 128);
  wrongCount<<<1, 128>>>(map);
  rightCount<<<1, 128>>>(map);
  pairCount<<<1, 128>>>(map);
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :52:5: warning: expect-tx of 8192 bytes on 'bar' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :51:5: note: this copy delivers 16384 bytes to 'bar'
// CHECK-MESSAGES: :22:35: note: the tensor map it reads is encoded here: box 64 x 128 x 1 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :83:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :52:5: note: expect 16384 bytes
