// Every rule of cuTensorMapEncodeTiled that tma-descriptor reports
// (tma-rules.md sections 1.A and 1.B), one positive case each, and next to it
// the boundary value that the driver accepts. Value suggestions are notes;
// --fix-notes applies them, and CHECK-FIXES checks where they land.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host --cuda-gpu-arch=sm_100a

#include <array>
#include <cstdint>
#include <cuda.h>

// Rank 1 reads no stride, but the driver rejects a null globalStrides
// (TMAP-ENC-GSTRIDES-NULL).
static const cuuint64_t Stride1[1] = {0};

// As cuda_bf16.h declares it; the mock headers have no cuda_bf16.h.
struct __nv_bfloat16 {
  unsigned short __x;
};

constexpr int BlockM = 128;
constexpr int BlockK = 64;

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// TMAP-TILED-RANK: a sixth dimension.
CUresult encodeRank6(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[6] = {64, 8, 8, 8, 8, 8};
  cuuint64_t Strides[5] = {256, 2048, 16384, 131072, 1048576};
  cuuint32_t Box[6] = {64, 8, 1, 1, 1, 1};
  cuuint32_t ElemStrides[6] = {1, 1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-6]]:71: warning: tensorRank is 6, outside the supported range 1..5 (TMAP-TILED-RANK) [tma-descriptor]
}

// TMAP-TILED-RANK: rank 0, from a rank formula that subtracts the two batch
// dimensions of the 4-D variant of this helper.
CUresult encodeRank0(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  const cuuint32_t Rank = sizeof(Dims) / sizeof(Dims[0]) - 2;
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-6]]:71: warning: tensorRank is 0, outside the supported range 1..5 (TMAP-TILED-RANK) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:27: note: tensorRank = 0 comes from here
}

// TMAP-TILED-RANK: a batch dimension was added to the rank and to globalDim,
// but the other arrays still have the size of the 2-D map; the driver reads
// past their end.
CUresult encodeBatchedShortArrays(CUtensorMap *Map, float *Data) {
  constexpr cuuint32_t Rank = 3;
  cuuint64_t Dims[Rank] = {1024, 1024, 16};
  cuuint64_t Strides[1] = {1024 * sizeof(float)};
  cuuint32_t Box[2] = {32, 32};
  std::array<cuuint32_t, 2> ElemStrides = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank,
                                Data, Dims, Strides, Box, ElemStrides.data(),
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:45: warning: globalStrides provides 1 element but tensorRank 3 reads 2; the driver reads past the end of the array (TMAP-TILED-RANK) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:14: note: 'Strides' declared here
  // CHECK-NOTES: :[[@LINE-13]]:31: note: tensorRank = 3 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:54: warning: boxDim provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-TILED-RANK) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:14: note: 'Box' declared here
  // CHECK-NOTES: :[[@LINE-16]]:31: note: tensorRank = 3 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:59: warning: elementStrides provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-TILED-RANK) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-14]]:29: note: 'ElemStrides' declared here
  // CHECK-NOTES: :[[@LINE-19]]:31: note: tensorRank = 3 comes from here
}

// TMAP-TILED-RANK: a 2-D map whose globalDim pointer starts one element into
// a 2-element array.
CUresult encodeOffsetDims(CUtensorMap *Map, float *Data) {
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data,
                                Shape + 1, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim provides 1 element but tensorRank 2 reads 2; the driver reads past the end of the array (TMAP-TILED-RANK) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:14: note: 'Shape' declared here
}

// TMAP-ENC-INTERLEAVE-RANK: an NC/8HWC8-style interleave on a plain matrix.
CUresult encodeInterleaved2D(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[2] = {8, 4096};
  cuuint64_t Strides[1] = {16};
  cuuint32_t Box[2] = {8, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: interleave CU_TENSOR_MAP_INTERLEAVE_16B needs tensorRank >= 3, but tensorRank is 2 (TMAP-ENC-INTERLEAVE-RANK) [tma-descriptor]
}

// TMAP-ENC-GDIM-RANGE: rank 3 with a 2-element initialiser, so the batch
// extent is 0.
CUresult encodeZeroExtent(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[3] = {1024, 1024};
  cuuint64_t Strides[2] = {4096, 4096 * 1024};
  cuuint32_t Box[3] = {32, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[2] is 0; every extent must be at least 1 (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:24: note: globalDim[2] = 0 comes from here
}

// TMAP-ENC-GDIM-RANGE: a flat byte buffer of 2^32 + 16 elements.
CUresult encodeHugeVector(CUtensorMap *Map, uint8_t *Data) {
  const cuuint64_t Elems = (1ULL << 32) + 16;
  cuuint64_t Dims[1] = {Elems};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, Data,
                                Dims, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[0] is 4294967312, above the limit of 4294967296 (2^32) (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:25: note: globalDim[0] = 4294967312 comes from here
}

// TMAP-ENC-GDIM-PACKED: FP4 in the 16-byte-aligned layout, with an inner
// extent that is no multiple of 128 values.
CUresult encodeFp4Unpacked(CUtensorMap *Map, uint8_t *Data) {
  constexpr cuuint64_t K = 192;
  cuuint64_t Dims[2] = {K, 256};
  cuuint64_t Strides[1] = {128};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:39: warning: globalDim[0] is 192 4-bit values, not a multiple of 128 as CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B requires (TMAP-ENC-GDIM-PACKED) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:25: note: globalDim[0] = 192 comes from here
}

// TMAP-ENC-GSTRIDE-ALIGN: an fp16 [M][100] matrix, rows of 200 bytes.
CUresult encodeUnpaddedRows(CUtensorMap *Map, uint16_t *Data) {
  const int K = 100;
  cuuint64_t Dims[2] = {K, 4096};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:39: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 208 bytes
  // CHECK-FIXES: cuuint64_t Strides[1] = {208};
}

// TMAP-ENC-GSTRIDE-ALIGN: the batch stride of a rank-3 tensor, computed from
// the row pitch, is off by 8 bytes.
CUresult encodeBatchStride(CUtensorMap *Map, float *Data) {
  const cuuint64_t Pitch = 256 * sizeof(float);
  cuuint64_t Dims[3] = {256, 100, 8};
  cuuint64_t Strides[2] = {Pitch, Pitch * 100 + 8};
  cuuint32_t Box[3] = {32, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:39: warning: globalStrides[1] is 102408 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:35: note: globalStrides[1] = 102408 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:35: note: pad the row to 102416 bytes
}

// TMAP-ENC-GSTRIDE-ALIGN: INTERLEAVE_32B needs 32-byte strides; 48 is only a
// multiple of 16.
CUresult encodeInterleave32Stride(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {32, 48, 64};
  cuuint64_t Strides[2] = {48, 48 * 48};
  cuuint32_t Box[3] = {32, 16, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:39: warning: globalStrides[0] is 48 bytes, not a multiple of 32 as CU_TENSOR_MAP_INTERLEAVE_32B requires (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 48 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 64 bytes
  // CHECK-FIXES: cuuint64_t Strides[2] = {64, 48 * 48};
}

// TMAP-ENC-GSTRIDE-ALIGN: 16U6_ALIGN16B rows are 16-byte multiples, but the
// packed types need 32-byte strides.
CUresult encodeFp6Rows(CUtensorMap *Map, uint8_t *Data) {
  const CUtensorMapDataType Type = CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  cuuint64_t Dims[2] = {128, 512};
  cuuint64_t Fp6Strides[1] = {112};
  cuuint32_t Box[2] = {128, 32};
  cuuint32_t ElemFp6Strides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, Data, Dims, Fp6Strides, Box,
                                ElemFp6Strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:59: warning: globalStrides[0] is 112 bytes, not a multiple of 32 as CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:31: note: globalStrides[0] = 112 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:36: note: tensorDataType = 15 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:31: note: pad the row to 128 bytes
  // CHECK-FIXES: cuuint64_t Fp6Strides[1] = {128};
}

// TMAP-ENC-GSTRIDE-MAX: a [8][2^22][2^16] fp32 tensor: the batch stride is
// 2^40 bytes.
CUresult encodeHugeBatch(CUtensorMap *Map, float *Data) {
  constexpr cuuint64_t K = 1 << 16, M = 1 << 22;
  cuuint64_t Dims[3] = {K, M, 8};
  cuuint64_t Strides[2] = {K * sizeof(float), K * M * sizeof(float)};
  cuuint32_t Box[3] = {64, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:39: warning: globalStrides[1] is 1099511627776 bytes, not below the limit of 2^40 (TMAP-ENC-GSTRIDE-MAX) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:47: note: globalStrides[1] = 1099511627776 comes from here
}

// TMAP-TILED-BOX-RANGE: a 512-row box, and a box extent of 0.
CUresult encodeTallBox(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[3] = {4096, 4096, 4};
  cuuint64_t Strides[2] = {4096 * 4, 4096 * 4096 * 4ULL};
  cuuint32_t Box[3] = {32, 512, 0};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:48: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:28: note: boxDim[1] = 512 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:28: note: split the box: at most 256 per dimension
  // CHECK-FIXES: cuuint32_t Box[3] = {32, 256, 0};
  // CHECK-NOTES: :[[@LINE-9]]:48: warning: boxDim[2] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-13]]:33: note: boxDim[2] = 0 comes from here
}

// TMAP-TILED-BOX-INNER-16B: 36 bf16 values are 72 bytes.
CUresult encodeNarrowTile(CUtensorMap *Map, __nv_bfloat16 *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t Tile[2];
  Tile[0] = 36;
  Tile[1] = BlockM;
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Data,
                                Dims, Strides, Tile, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:48: warning: inner box is boxDim[0] = 36 * 2 bytes = 72 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:13: note: boxDim[0] = 36 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:13: note: round boxDim[0] up to 40 (80 bytes)
  // CHECK-FIXES: Tile[0] = 40;
}

// TMAP-TILED-BOX-PACKED: 16U6_ALIGN16B boxes are exactly 128 values wide.
CUresult encodeFp6Fp6Box(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * 3 / 4};
  cuuint32_t Fp6Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 2,
                                Data, Dims, Strides, Fp6Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:54: warning: boxDim[0] is 64, but CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires exactly 128 (TMAP-TILED-BOX-PACKED) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:27: note: boxDim[0] = 64 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:27: note: use 128
  // CHECK-FIXES: cuuint32_t Fp6Box[2] = {128, 64};
}

// TMAP-TILED-SWIZZLE-INNER: the fast.cu helper, instantiated with a 128-wide
// bf16 box (256 bytes) under SWIZZLE_128B. The box comes from template
// arguments, so the suggestion carries no fix-it.
template <int BlockMajorSize, int BlockMinorSize>
CUresult createTensorMap(CUtensorMap *TmaMap, __nv_bfloat16 *Gmem,
                         int BlocksHeight, int BlocksWidth) {
  uint64_t Shape[5] = {(uint64_t)BlockMinorSize * BlocksWidth,
                       (uint64_t)BlockMajorSize * BlocksHeight, 1, 1, 1};
  uint64_t Stride[5] = {sizeof(__nv_bfloat16),
                        sizeof(__nv_bfloat16) * BlockMinorSize * BlocksWidth,
                        0, 0, 0};
  uint32_t BoxShape[5] = {uint32_t(BlockMinorSize), uint32_t(BlockMajorSize),
                          1, 1, 1};
  uint32_t BoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                Gmem, Shape, Stride + 1, BoxShape, BoxStride,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:58: warning: inner box is boxDim[0] = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:27: note: boxDim[0] = 128 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:27: note: use boxDim[0] = 64 and issue one copy per 128-byte column
  // CHECK-NOTES: :[[@LINE+5]]:3: note: in instantiation of 'createTensorMap<128, 128>' requested here
}

void createWideTileMaps(CUtensorMap *A, __nv_bfloat16 *DA, int M, int K) {
  createTensorMap<BlockM, BlockK>(A, DA, M / BlockM, K / BlockK);
  createTensorMap<BlockM, 2 * BlockK>(A, DA, M / BlockM, K / (2 * BlockK));
}

// TMAP-TILED-SWIZZLE-INNER: fp32 with SWIZZLE_32B holds 8 values per row.
CUresult encodeSwizzle32(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Tile[2] = {16, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data,
                                Dims, Strides, Tile, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:48: warning: inner box is boxDim[0] = 16 * 4 bytes = 64 bytes, above the 32-byte span of CU_TENSOR_MAP_SWIZZLE_32B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:25: note: boxDim[0] = 16 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:25: note: use boxDim[0] = 8 and issue one copy per 32-byte column
  // CHECK-FIXES: cuuint32_t Tile[2] = {8, 64};
}

// TMAP-ENC-ESTRIDE-RANGE: a traversal stride of 0, and one of 16.
CUresult encodeStridedBox(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[3] = {1024, 1024, 64};
  cuuint64_t Strides[2] = {4096, 4096 * 1024};
  cuuint32_t Box[3] = {32, 32, 16};
  cuuint32_t ElemStrides[3] = {1, 0, 16};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:53: warning: elementStrides[1] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:35: note: elementStrides[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:35: note: use 1
  // CHECK-FIXES: cuuint32_t ElemStrides[3] = {1, 1, 16};
  // CHECK-NOTES: :[[@LINE-9]]:53: warning: elementStrides[2] is 16, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:38: note: elementStrides[2] = 16 comes from here
}

// TMAP-ENC-INTERLEAVE32-SWIZZLE32: INTERLEAVE_32B with a 128-byte swizzle.
CUresult encodeInterleave32Swizzle(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {32, 56, 64};
  cuuint64_t Strides[2] = {32, 32 * 56};
  cuuint32_t Box[3] = {32, 8, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_128B, // as in the GEMM
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: interleave CU_TENSOR_MAP_INTERLEAVE_32B requires swizzle CU_TENSOR_MAP_SWIZZLE_32B, not CU_TENSOR_MAP_SWIZZLE_128B (TMAP-ENC-INTERLEAVE32-SWIZZLE32) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:33: note: use CU_TENSOR_MAP_SWIZZLE_32B
  // CHECK-FIXES: CU_TENSOR_MAP_SWIZZLE_32B, // as in the GEMM
}

// TMAP-ENC-PACKED-INTERLEAVE: 16U6_ALIGN16B with an interleaved layout.
CUresult encodeFp6Interleaved(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {128, 64, 64};
  cuuint64_t Strides[2] = {96, 96 * 64};
  cuuint32_t Box[3] = {128, 8, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 3,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave CU_TENSOR_MAP_INTERLEAVE_NONE, not CU_TENSOR_MAP_INTERLEAVE_16B (TMAP-ENC-PACKED-INTERLEAVE) [tma-descriptor]
}

// TMAP-ENC-PACKED-SWIZZLE: FP4 (16U4_ALIGN16B) with a 64-byte swizzle, and
// with the store-only 128B_ATOM_64B of the 6-bit type.
CUresult encodeFp4Swizzle64(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: swizzle CU_TENSOR_MAP_SWIZZLE_64B is not supported for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (allowed: NONE, 128B, 128B_ATOM_32B) (TMAP-ENC-PACKED-SWIZZLE) [tma-descriptor]
}

CUresult encodeFp4Atom64(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: swizzle CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B is not supported for CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B (allowed: NONE, 128B, 128B_ATOM_32B) (TMAP-ENC-PACKED-SWIZZLE) [tma-descriptor]
}

// TMAP-ENC-OOBFILL-FLOAT: FP8 data is encoded as UINT8, which has no NaN.
CUresult encodeFp8NanFill(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {128, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA); // mark the edge
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: oobFill CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point, non-packed data type, not CU_TENSOR_MAP_DATA_TYPE_UINT8 (TMAP-ENC-OOBFILL-FLOAT) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: use CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
  // CHECK-FIXES: CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); // mark the edge
}

// TMAP-ENC-DTYPE-ENUM: the bit width of the element instead of the
// enumerator.
CUresult encodeBitWidthType(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  auto Type = (CUtensorMapDataType)(sizeof(uint16_t) * 8);
  return cuTensorMapEncodeTiled(Map, Type, 2, Data, Dims, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:38: warning: tensorDataType is 16, not a CUtensorMapDataType enumerator (0..15) (TMAP-ENC-DTYPE-ENUM) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:15: note: tensorDataType = 16 comes from here
}

// TMAP-ENC-ENUM-RANGE: byte counts instead of the swizzle and L2 promotion
// enumerators.
CUresult encodeByteCountEnums(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  const int SwizzleBytes = 64;
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CUtensorMapSwizzle(SwizzleBytes),
                                (CUtensorMapL2promotion)128,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: swizzle is 64, not a CUtensorMapSwizzle enumerator (0..6); swizzle is an enumerator, not a byte count (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:33: note: use CU_TENSOR_MAP_SWIZZLE_64B
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: l2Promotion is 128, not a CUtensorMapL2promotion enumerator (0..3) (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
}

// TMAP-ENC-ENUM-RANGE: one past the last interleave, swizzle and OOB fill
// enumerators.
CUresult encodeEnumsOnePast(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[3] = {8, 4096, 16};
  cuuint64_t Strides[2] = {16, 16 * 4096};
  cuuint32_t Box[3] = {8, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                (CUtensorMapInterleave)3,
                                (CUtensorMapSwizzle)7,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                (CUtensorMapFloatOOBfill)2);
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: interleave is 3, not a CUtensorMapInterleave enumerator (0..2) (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: swizzle is 7, not a CUtensorMapSwizzle enumerator (0..6) (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: oobFill is 2, not a CUtensorMapFloatOOBfill enumerator (0..1) (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
}

// TMAP-ENC-GADDR-TYPE: a float buffer described as FLOAT16 data, and a bf16
// buffer described as FLOAT32 data.
CUresult encodeFloatAsHalf(CUtensorMap *Map, float *Activations) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                                Activations, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalAddress points to 32-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT16 has 16-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
}

CUresult encodeBf16AsFloat(CUtensorMap *Map, __nv_bfloat16 *Weights) {
  const CUtensorMapDataType Type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {16384};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, Weights, Dims, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:47: warning: globalAddress points to 16-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 has 32-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:36: note: tensorDataType = 7 comes from here
}

// Several rules at once: each broken rule is its own warning.
CUresult encodeEverythingWrong(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[2] = {1000, 0};
  cuuint64_t Strides[1] = {2000 + 8};
  cuuint32_t Box[2] = {100, 300};
  cuuint32_t ElemStrides[2] = {1, 9};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:33: warning: globalDim[1] is 0; every extent must be at least 1 (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:31: note: globalDim[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:39: warning: globalStrides[0] is 2008 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:28: note: globalStrides[0] = 2008 comes from here
  // CHECK-NOTES: :[[@LINE-13]]:28: note: pad the row to 2016 bytes
  // CHECK-NOTES: :[[@LINE-10]]:48: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-14]]:29: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-15]]:29: note: split the box: at most 256 per dimension
  // CHECK-FIXES: cuuint32_t Box[2] = {104, 256};
  // CHECK-NOTES: :[[@LINE-14]]:48: warning: inner box is boxDim[0] = 100 * 2 bytes = 200 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-18]]:24: note: boxDim[0] = 100 comes from here
  // CHECK-NOTES: :[[@LINE-19]]:24: note: round boxDim[0] up to 104 (208 bytes)
  // CHECK-NOTES: :[[@LINE-17]]:53: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-20]]:35: note: elementStrides[1] = 9 comes from here
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// TMAP-TILED-RANK: 5 is the largest rank, 1 the smallest; globalStrides of a
// rank-1 map may be null.
CUresult encodeRank5(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[5] = {64, 8, 8, 8, 8};
  cuuint64_t Strides[4] = {256, 2048, 16384, 131072};
  cuuint32_t Box[5] = {64, 8, 1, 1, 1};
  cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeRank1(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[1] = {1 << 20};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data,
                                Dims, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-TILED-RANK: arrays of exactly rank (rank - 1 for globalStrides)
// elements, with std::array.
CUresult encodeBatchedExact(CUtensorMap *Map, float *Data) {
  constexpr cuuint32_t Rank = 3;
  std::array<cuuint64_t, Rank> Dims = {1024, 1024, 16};
  std::array<cuuint64_t, Rank - 1> Strides = {1024 * sizeof(float),
                                              1024 * 1024 * sizeof(float)};
  std::array<cuuint32_t, Rank> Box = {32, 32, 1};
  std::array<cuuint32_t, Rank> ElemStrides = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank,
                                Data, Dims.data(), Strides.data(), Box.data(),
                                ElemStrides.data(),
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-INTERLEAVE-RANK: rank 3 is the smallest interleaved rank.
CUresult encodeInterleaved3D(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[3] = {8, 4096, 16};
  cuuint64_t Strides[2] = {16, 16 * 4096};
  cuuint32_t Box[3] = {8, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-GDIM-RANGE: extents of 1 and of exactly 2^32.
CUresult encodeLargestVector(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {1ULL << 32, 1};
  cuuint64_t Strides[1] = {1ULL << 32};
  cuuint32_t Box[2] = {256, 1};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-GDIM-PACKED: 256 values is a multiple of 128.
CUresult encodeFp4Packed(CUtensorMap *Map, uint8_t *Data) {
  constexpr cuuint64_t K = 256;
  cuuint64_t Dims[2] = {K, 256};
  cuuint64_t Strides[1] = {K / 2};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-GSTRIDE-ALIGN: the same fp16 rows padded to 104 elements; the
// 32-byte cases with 32-byte strides.
CUresult encodePaddedRows(CUtensorMap *Map, uint16_t *Data) {
  const int K = 100, Pitch = 104;
  cuuint64_t Dims[2] = {K, 4096};
  cuuint64_t Strides[1] = {Pitch * sizeof(uint16_t)};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeInterleave32Aligned(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {32, 48, 64};
  cuuint64_t Strides[2] = {64, 64 * 48};
  cuuint32_t Box[3] = {32, 16, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeFp6AlignedRows(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {128, 512};
  cuuint64_t Strides[1] = {128};
  cuuint32_t Box[2] = {128, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-GSTRIDE-MAX: one row less keeps the batch stride below 2^40.
CUresult encodeLargestBatch(CUtensorMap *Map, float *Data) {
  constexpr cuuint64_t K = 1 << 16, M = (1 << 22) - 1;
  cuuint64_t Dims[3] = {K, M, 8};
  cuuint64_t Strides[2] = {K * sizeof(float), K * M * sizeof(float)};
  cuuint32_t Box[3] = {64, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-TILED-BOX-RANGE: 256 and 1 are the limits; a box larger than the
// tensor is fine (the rest is filled out of bounds).
CUresult encodeLargestBox(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {4096, 100, 4};
  cuuint64_t Strides[2] = {4096, 4096 * 100};
  cuuint32_t Box[3] = {128, 256, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-TILED-BOX-INNER-16B: 40 bf16 values are 80 bytes; 72 padded bf16
// values are 144 bytes, legal without swizzle (fast.cu's padding variant);
// the inner box of an interleaved map is not checked.
CUresult encodeBoxMultipleOf16(CUtensorMap *Map, __nv_bfloat16 *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t Box[2];
  Box[0] = 40;
  Box[1] = BlockM;
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodePaddedBox(CUtensorMap *Map, __nv_bfloat16 *Data) {
  const bool Padding = true;
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t Box[2] = {Padding ? 72u : 64u, BlockM};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      Padding ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeInterleavedNarrowBox(CUtensorMap *Map, uint16_t *Data) {
  cuuint64_t Dims[4] = {8, 56, 56, 64};
  cuuint64_t Strides[3] = {16, 16 * 56, 16 * 56 * 56};
  cuuint32_t Box[4] = {4, 8, 8, 1};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-TILED-BOX-PACKED: 128 values.
CUresult encodeFp6Box128(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * 3 / 4};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-TILED-SWIZZLE-INNER: inner boxes of exactly the span: 64 bf16 values
// under SWIZZLE_128B (the fast.cu instantiation above), 8 fp32 values under
// SWIZZLE_32B, 16 under SWIZZLE_64B, 32 under 128B_ATOM_32B.
CUresult encodeSwizzleSpans(CUtensorMap *Maps, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box32[2] = {8, 64}, Box64[2] = {16, 64}, Box128[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      &Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims, Strides, Box32,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  R = cuTensorMapEncodeTiled(
      &Maps[1], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims, Strides, Box64,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  return cuTensorMapEncodeTiled(
      &Maps[2], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims, Strides, Box128,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-ESTRIDE-RANGE: traversal strides of 1 and 8.
CUresult encodeStridedBoxMax(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[3] = {1024, 1024, 64};
  cuuint64_t Strides[2] = {4096, 4096 * 1024};
  cuuint32_t Box[3] = {32, 32, 16};
  cuuint32_t ElemStrides[3] = {1, 1, 8};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-INTERLEAVE32-SWIZZLE32: interleave 16B may use any swizzle.
CUresult encodeInterleave16Swizzle(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {16, 56, 64};
  cuuint64_t Strides[2] = {16, 16 * 56};
  cuuint32_t Box[3] = {16, 8, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-PACKED-INTERLEAVE: the 4-bit types may be interleaved.
CUresult encodeFp4Interleaved(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[3] = {128, 64, 64};
  cuuint64_t Strides[2] = {64, 64 * 64};
  cuuint32_t Box[3] = {128, 8, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 3,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-PACKED-SWIZZLE: 128B_ATOM_32B for FP4; any swizzle for the 8-byte
// aligned FP4 layout.
CUresult encodeFp4Atom32(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeFp4Align8Swizzle64(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-OOBFILL-FLOAT: NaN fill for bf16 and tf32.
CUresult encodeBf16NanFill(CUtensorMap *Map, __nv_bfloat16 *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

CUresult encodeTf32NanFill(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {16384};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

// TMAP-ENC-DTYPE-ENUM: 15 (16U6_ALIGN16B) is the last enumerator.
CUresult encodeLastType(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {768};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  auto Type = (CUtensorMapDataType)15;
  return cuTensorMapEncodeTiled(Map, Type, 2, Data, Dims, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-ENUM-RANGE: the last enumerator of each enumeration.
CUresult encodeLastEnums(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[3] = {8, 4096, 16};
  cuuint64_t Strides[2] = {32, 32 * 4096};
  cuuint32_t Box[3] = {8, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Data, Dims, Strides,
      Box, ElemStrides, (CUtensorMapInterleave)2, (CUtensorMapSwizzle)1,
      (CUtensorMapL2promotion)3,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

CUresult encodeLastSwizzle(CUtensorMap *Map, uint8_t *Data) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, (CUtensorMapSwizzle)6,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-ENC-GADDR-TYPE: element types of the data type's size; untyped and
// byte pointers; any pointer for the packed types.
CUresult encodeMatchingPointers(CUtensorMap *Maps, uint16_t *Half,
                                __nv_bfloat16 *Bf16, float *Fp32, int *Int32,
                                void *Raw, unsigned char *Bytes) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {16384};
  cuuint32_t Box[2] = {16, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Half,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[1], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Bf16,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[2], CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 2, Fp32,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[3], CU_TENSOR_MAP_DATA_TYPE_INT32, 2, Int32,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[4], CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 2, Raw,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&Maps[5], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Bytes,
                         Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuuint32_t Fp4Box[2] = {128, 64};
  return cuTensorMapEncodeTiled(&Maps[6], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
                                2, Half, Dims, Strides, Fp4Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// Sizes that are parameters, and no call in this file binds them: a K of 100
// would make a misaligned stride, but nothing proves it.
CUresult encodeRuntimeMatrix(CUtensorMap *Map, uint16_t *Data, cuuint64_t M,
                             cuuint64_t K, cuuint32_t BoxK) {
  cuuint64_t Dims[2] = {K, M};
  cuuint64_t Strides[1] = {K * sizeof(uint16_t)};
  cuuint32_t Box[2] = {BoxK, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Arrays and a rank that an unknown caller provides.
CUresult encodeFromArrays(CUtensorMap *Map, float *Data, cuuint32_t Rank,
                          const cuuint64_t *Dims, const cuuint64_t *Strides,
                          const cuuint32_t *Box) {
  const cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Elements written in a loop, in a branch, or through a pointer that escapes.
void fillBox(cuuint32_t *Box, int N);

CUresult encodeWrittenArrays(CUtensorMap *Map, float *Data, bool Transposed) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096};
  if (Transposed)
    Strides[0] = 200;
  cuuint32_t Box[2] = {512, 512};
  for (int I = 0; I < 2; ++I)
    Box[I] = 64;
  cuuint32_t ElemStrides[2] = {0, 0};
  fillBox(ElemStrides, 2);
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Non-const globals may be written anywhere; a swizzle chosen at run time
// (learn-cuda's init_tensor_map); a data type from a non-constexpr function.
cuuint64_t GlobalDims[2] = {1024, 0};
CUtensorMapDataType dataTypeOf(int Code);

CUresult encodeRuntimeSwizzle(CUtensorMap *Map, float *Data, int SmemWidth,
                              int Code) {
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  int Bytes = SmemWidth * (int)sizeof(float);
  CUtensorMapSwizzle Swizzle = Bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                               : Bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                             : CU_TENSOR_MAP_SWIZZLE_32B;
  return cuTensorMapEncodeTiled(Map, dataTypeOf(Code), 2, Data, GlobalDims,
                                Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A template that is never instantiated: its dependent values are unknown.
template <int BoxK>
CUresult encodeDependent(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {4096 + BoxK};
  cuuint32_t Box[2] = {BoxK, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// With an unknown rank (a parameter that no call binds) only element 0 of
// globalDim, boxDim and elementStrides is certainly read, and no element of
// globalStrides: boxDim[1] = 512 and the 200-byte stride are not reported,
// boxDim[0] = 0 is.
CUresult encodeUnknownRank(CUtensorMap *Map, float *Data, cuuint32_t Rank) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {0, 512};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank,
                                Data, Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:54: warning: boxDim[0] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:24: note: boxDim[0] = 0 comes from here
}

// An invalid rank is reported alone: the arrays are only checked at element 0
// (a rank of 7 reads 7 elements, but which rank was meant is unknown).
CUresult encodeRank7(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[7] = {64, 0, 8, 8, 8, 8, 8};
  cuuint64_t Strides[6] = {200, 2048, 16384, 131072, 1048576, 8388608};
  cuuint32_t Box[7] = {64, 512, 1, 1, 1, 1, 1};
  cuuint32_t ElemStrides[7] = {1, 1, 1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 7, Data,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-6]]:71: warning: tensorRank is 7, outside the supported range 1..5 (TMAP-TILED-RANK) [tma-descriptor]
}
