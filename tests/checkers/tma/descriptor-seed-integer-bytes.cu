// Seed: JAX Pallas rejects a sub-byte copy with "Can only transfer integer
// bytes (shape=..., dtype=...)". For cuTensorMapEncodeTiled the same mistake
// breaks two rules: a 16U4_ALIGN8B tensor whose innermost extent is odd
// (TMAP-ENC-GDIM-PACKED), and a 4-bit box whose inner extent is no whole
// number of bytes (TMAP-TILED-BOX-INNER-16B).
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host --cuda-gpu-arch=sm_100a

#include <cstdint>
#include <cuda.h>

// Rank 1 reads no stride, but the driver rejects a null globalStrides
// (TMAP-ENC-GSTRIDES-NULL).
static const cuuint64_t Stride1[1] = {0};

// FP4 (e2m1) values, two per byte, as CUTLASS stores float_e2m1_t.
using Fp4x2 = uint8_t;

constexpr int BlockN = 128;

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// FP4 weights [N][K] with K = 4095 values: the last value of each row is
// half a byte.
CUresult encodeFp4Weights(CUtensorMap *Map, Fp4x2 *W) {
  constexpr cuuint64_t K = 4095, N = 4096;
  cuuint64_t Shape[2] = {K, N};
  cuuint64_t Strides[1] = {(K + 1) / 2};
  cuuint32_t Box[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[0] is 4095 4-bit values (2047.5 bytes), not a whole number of bytes: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B needs a multiple of 2 (TMAP-ENC-GDIM-PACKED) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:26: note: globalDim[0] = 4095 comes from here
}

// A 1-D FP4 vector of 1001 values.
CUresult encodeFp4Vector(CUtensorMap *Map, Fp4x2 *V) {
  cuuint64_t Shape[1] = {1001};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 1, V,
                                Shape, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[0] is 1001 4-bit values (500.5 bytes), not a whole number of bytes: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B needs a multiple of 2 (TMAP-ENC-GDIM-PACKED) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:26: note: globalDim[0] = 1001 comes from here
}

// A box of 31 FP4 values is 15.5 bytes.
CUresult encodeFp4OddBox(CUtensorMap *Map, Fp4x2 *W) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {31, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:49: warning: inner box is boxDim[0] = 31 * 4 bits = 15.5 bytes, not a whole number of bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:24: note: boxDim[0] = 31 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:24: note: round boxDim[0] up to 32 (16 bytes)
  // CHECK-FIXES: cuuint32_t Box[2] = {32, BlockN};
}

// Both at once: the box was sized for the odd K of the tensor.
CUresult encodeFp4OddTile(CUtensorMap *Map, Fp4x2 *W) {
  const cuuint32_t TileK = 65;
  cuuint64_t Shape[2] = {65 * 63, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {TileK, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[0] is 4095 4-bit values (2047.5 bytes), not a whole number of bytes: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B needs a multiple of 2 (TMAP-ENC-GDIM-PACKED) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:26: note: globalDim[0] = 4095 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:49: warning: inner box is boxDim[0] = 65 * 4 bits = 32.5 bytes, not a whole number of bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:24: note: boxDim[0] = 65 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:24: note: round boxDim[0] up to 96 (48 bytes)
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Even extents, and boxes of 32 (16 bytes) and 128 (64 bytes) values.
CUresult encodeFp4Even(CUtensorMap *Maps, Fp4x2 *W) {
  constexpr cuuint64_t K = 4096, N = 4096;
  cuuint64_t Shape[2] = {K, N};
  cuuint64_t Strides[1] = {K / 2};
  cuuint32_t Box[2] = {32, BlockN}, WideBox[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      &Maps[0], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W, Shape, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  return cuTensorMapEncodeTiled(
      &Maps[1], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W, Shape, Strides,
      WideBox, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A 1-D vector of 1002 values (501 bytes): the driver needs an even extent,
// not a 16-byte one.
CUresult encodeFp4EvenVector(CUtensorMap *Map, Fp4x2 *V) {
  cuuint64_t Shape[1] = {1002};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 1, V,
                                Shape, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The same odd K as 8-bit data (one FP8 value per byte) transfers whole
// bytes.
CUresult encodeFp8OddK(CUtensorMap *Map, uint8_t *W) {
  cuuint64_t Shape[2] = {4095, 4096};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// 16U6_ALIGN16B boxes are 128 values, one byte each in shared memory.
CUresult encodeFp6(CUtensorMap *Map, uint8_t *W) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * 3 / 4};
  cuuint32_t Box[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 2,
                                W, Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// K and the tile width from a caller that is not in this file.
CUresult encodeFp4Runtime(CUtensorMap *Map, Fp4x2 *W, cuuint64_t K,
                          cuuint64_t N, cuuint32_t TileK) {
  cuuint64_t Shape[2] = {K, N};
  cuuint64_t Strides[1] = {(K + 1) / 2};
  cuuint32_t Box[2] = {TileK, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The data type from a caller that is not in this file: 4095 and 31 are only
// wrong for the 4-bit types.
CUresult encodeAnyType(CUtensorMap *Map, void *W, CUtensorMapDataType Type) {
  cuuint64_t Shape[1] = {4095};
  cuuint32_t Box[1] = {31};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, Type, 1, W, Shape, Stride1, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
