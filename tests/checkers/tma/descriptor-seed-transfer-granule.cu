// Seed: "Transfer is not a multiple of 16 bytes". TMA moves the inner box
// dimension in 16-byte granules, so without interleave boxDim[0] times the
// element size must be a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B);
// the driver returns CUDA_ERROR_INVALID_VALUE otherwise. The fp32 box
// {6, 64} (24 bytes) is the example of tma-rules.md.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host --cuda-gpu-arch=sm_100a

#include <array>
#include <cstdint>
#include <cuda.h>

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// fp32 box {6, 64}: 24 bytes.
CUresult encodeFp32Tile(CUtensorMap *Map, float *A) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * sizeof(float)};
  cuuint32_t Box[2] = {6, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:49: warning: inner box is boxDim[0] = 6 * 4 bytes = 24 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:24: note: boxDim[0] = 6 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:24: note: round boxDim[0] up to 8 (32 bytes)
  // CHECK-FIXES: cuuint32_t Box[2] = {8, 64};
}

// One head of a bf16 [SeqLen][8][HeadDim] tensor, with the tile from
// template arguments: a head dimension of 12 values is 24 bytes.
template <int HeadDim, int BlockQ>
CUresult encodeQ(CUtensorMap *Map, uint16_t *Q, cuuint64_t SeqLen) {
  cuuint64_t Shape[2] = {HeadDim, SeqLen};
  cuuint64_t Strides[1] = {8 * HeadDim * sizeof(uint16_t)};
  cuuint32_t Box[2] = {HeadDim, BlockQ};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Q,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:49: warning: inner box is boxDim[0] = 12 * 2 bytes = 24 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:24: note: boxDim[0] = 12 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:24: note: round boxDim[0] up to 16 (32 bytes)
  // CHECK-NOTES: :[[@LINE+4]]:10: note: in instantiation of 'encodeQ<12, 64>' requested here
}

CUresult encodeSmallHeads(CUtensorMap *Map, uint16_t *Q) {
  return encodeQ<12, 64>(Map, Q, 2048);
}

// 24 int8 values, std::array operands.
CUresult encodeInt8Tile(CUtensorMap *Map, int8_t *A) {
  std::array<cuuint64_t, 2> Shape = {4096, 4096};
  std::array<cuuint64_t, 1> Strides = {4096};
  std::array<cuuint32_t, 2> Box = {24, 128};
  std::array<cuuint32_t, 2> ElemStrides = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, A,
                                Shape.data(), Strides.data(), Box.data(),
                                ElemStrides.data(),
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-6]]:63: warning: inner box is boxDim[0] = 24 * 1 byte = 24 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:36: note: boxDim[0] = 24 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:36: note: round boxDim[0] up to 32 (32 bytes)
  // CHECK-FIXES: std::array<cuuint32_t, 2> Box = {32, 128};
}

// 3 fp64 values, and a 16U4_ALIGN8B box of 16 values: 8 whole bytes, still
// no 16-byte granule.
CUresult encodeSmallBoxes(CUtensorMap *Maps, double *D, uint8_t *Fp4) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {3, 32};
  cuuint32_t Fp4Box[2] = {16, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      &Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 2, D, Shape, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:72: warning: inner box is boxDim[0] = 3 * 8 bytes = 24 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:24: note: boxDim[0] = 3 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:24: note: round boxDim[0] up to 4 (32 bytes)
  // CHECK-FIXES: cuuint32_t Box[2] = {4, 32};
  if (R != CUDA_SUCCESS)
    return R;
  return cuTensorMapEncodeTiled(
      &Maps[1], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, Fp4, Shape, Strides,
      Fp4Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:7: warning: inner box is boxDim[0] = 16 * 4 bits = 8 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-18]]:27: note: boxDim[0] = 16 comes from here
  // CHECK-NOTES: :[[@LINE-19]]:27: note: round boxDim[0] up to 32 (16 bytes)
  // CHECK-FIXES: cuuint32_t Fp4Box[2] = {32, 32};
}

// Whole granules can still be too many for a swizzle: 20 fp32 values are
// 80 bytes, above the span of SWIZZLE_64B (TMAP-TILED-SWIZZLE-INNER).
CUresult encodeSwizzledTile(CUtensorMap *Map, float *A) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {20, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:49: warning: inner box is boxDim[0] = 20 * 4 bytes = 80 bytes, above the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:24: note: boxDim[0] = 20 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:24: note: use boxDim[0] = 16 and issue one copy per 64-byte column
  // CHECK-FIXES: cuuint32_t Box[2] = {16, 64};
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// One granule and more: fp32 {4, 64} and {8, 64}, 16 bf16 head values, 16
// int8 values, 2 fp64 values, 32 4-bit values.
CUresult encodeGranules(CUtensorMap *Maps, float *A, double *D,
                        uint8_t *Fp4) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box4[2] = {4, 64}, Box8[2] = {8, 64}, Box2[2] = {2, 64};
  cuuint32_t Fp4Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                         Shape, Strides, Box4, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[1], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                         Shape, Strides, Box8, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_32B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[2], CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 2, D,
                         Shape, Strides, Box2, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return cuTensorMapEncodeTiled(&Maps[3], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
                                2, Fp4, Shape, Strides, Fp4Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeLargeHeads(CUtensorMap *Map, uint16_t *Q) {
  return encodeQ<16, 64>(Map, Q, 2048);
}

CUresult encodeInt8Granule(CUtensorMap *Map, int8_t *A) {
  std::array<cuuint64_t, 2> Shape = {4096, 4096};
  std::array<cuuint64_t, 1> Strides = {4096};
  std::array<cuuint32_t, 2> Box = {16, 128};
  std::array<cuuint32_t, 2> ElemStrides = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, A,
                                Shape.data(), Strides.data(), Box.data(),
                                ElemStrides.data(),
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Interleaved maps have no inner-box rule: an NC/8HWC8 fp16 activation with
// a box of 4 values (8 bytes) in dimension 0.
CUresult encodeInterleaved(CUtensorMap *Map, uint16_t *X) {
  cuuint64_t Shape[4] = {8, 56, 56, 32};
  cuuint64_t Strides[3] = {16, 16 * 56, 16 * 56 * 56};
  cuuint32_t Box[4] = {4, 8, 8, 1};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Only the inner dimension counts: a box of 3 rows is fine.
CUresult encodeThreeRows(CUtensorMap *Map, float *A) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {64, 3};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// The box width from a caller that is not in this file, and a template that
// is never instantiated.
CUresult encodeRuntimeBox(CUtensorMap *Map, float *A, cuuint32_t BoxK) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {BoxK, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <typename T, int BoxK>
CUresult encodeGeneric(CUtensorMap *Map, T *A, CUtensorMapDataType Type) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * sizeof(T)};
  cuuint32_t Box[2] = {BoxK, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, A, Shape, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
