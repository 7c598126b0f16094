// A local const array initialised from parameters folds under each call
// (the shape of flashinfer's makeTensorMapForQ before commit 001ab5871,
// where a BF16 box of 64 elements met CU_TENSOR_MAP_SWIZZLE_64B).
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cstdint>
#include <cuda.h>

CUtensorMap makeMap(void const *addr, uint32_t partElems, uint32_t rows) {
  CUtensorMap map{};
  uint64_t const dims[] = {576, 1024};
  uint64_t const strides[] = {1152};
  uint32_t const box[] = {partElems, rows};
  uint32_t const elemStrides[] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                         const_cast<void *>(addr), dims, strides, box,
                         elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_64B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :15:67: warning: inner box is boxDim[0] = 64 * 2 bytes = 128 bytes, above the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-MESSAGES: :12:27: note: boxDim[0] = 64 comes from here
  // CHECK-MESSAGES: :29:32: note: with 'partElems' = 64 from this call
  // CHECK-MESSAGES: :12:27: note: use boxDim[0] = 32 and issue one copy per 64-byte column
  return map;
}

// 32 BF16 elements fit the 64-byte span: silent.
void fine(void *q) { makeMap(q, 32, 128); }
void bad(void *q) { makeMap(q, 64, 128); }
