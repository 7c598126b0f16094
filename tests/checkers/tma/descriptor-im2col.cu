// cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide: the rules of
// tma-rules.md sections 1.C and 1.D, and the section 1.A rules they share
// with cuTensorMapEncodeTiled, direct and through the PFN typedefs, with a
// correct twin next to each case.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host --cuda-gpu-arch=sm_100a
#include <cuda.h>
#include <cudaTypedefs.h>

struct __half {
  unsigned short __x;
};

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeIm2col
//===----------------------------------------------------------------------===//

// fp16 NHWC [8][32][32][C], 3x3 filter, padding 1.
CUresult nhwc(CUtensorMap *Map, __half *X, cuuint32_t Channels,
              CUtensorMapSwizzle Swizzle) {
  cuuint64_t Dims[4] = {128, 32, 32, 8};
  cuuint64_t Strides[3] = {256, 256 * 32, 256 * 32 * 32};
  int Lower[2] = {-1, -1};
  int Upper[2] = {-1, -1};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X,
                                 Dims, Strides, Lower, Upper, Channels, 128,
                                 ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 Swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void channels(CUtensorMap *Map, __half *X) {
  // The field report: 128 fp16 channels per pixel under SWIZZLE_128B.
  nhwc(Map, X, 128, CU_TENSOR_MAP_SWIZZLE_128B);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: inner box is channelsPerPixel = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-I2C-CHANNELS) [tma-descriptor]
  // Correct twins: 64 channels fill the 128-byte span; no swizzle, no span.
  nhwc(Map, X, 64, CU_TENSOR_MAP_SWIZZLE_128B);
  nhwc(Map, X, 128, CU_TENSOR_MAP_SWIZZLE_NONE);
}

// TMAP-I2C-CHANNELS above 256, TMAP-I2C-PIXELS above 1024.
CUresult limits(CUtensorMap *Map, unsigned char *X) {
  cuuint64_t Dims[3] = {512, 1024, 4};
  cuuint64_t Strides[2] = {512, 512 * 1024};
  int Lower[1] = {0};
  int Upper[1] = {0};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  CUresult R = cuTensorMapEncodeIm2col(
      Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, X, Dims, Strides, Lower, Upper,
      300, 2048, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: channelsPerPixel is 300, above the limit of 256 (TMAP-I2C-CHANNELS) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: pixelsPerColumn is 2048, above the limit of 1024 (TMAP-I2C-PIXELS) [tma-descriptor]
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  // Correct twin: the largest values the driver accepts.
  return cuTensorMapEncodeIm2col(
      Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, X, Dims, Strides, Lower, Upper,
      256, 1024, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-I2C-RANK and TMAP-I2C-CORNER-RANGE: a rank-5 convolution with padding
// 20, through the driver's function-pointer type.
CUresult corners(PFN_cuTensorMapEncodeIm2col_v12000 Encode, CUtensorMap *Map,
                 float *X, int Pad) {
  cuuint64_t Dims[5] = {32, 16, 16, 16, 2};
  cuuint64_t Strides[4] = {128, 128 * 16, 128 * 256, 128 * 4096};
  int Lower[3] = {-Pad, -1, -1};
  int Upper[3] = {-1, -1, -1};
  cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 5, X, Dims, Strides,
                Lower, Upper, 32, 64, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: pixelBoxLowerCorner[0] is -20, outside [-16, 15] for tensorRank 5 (TMAP-I2C-CORNER-RANGE) [tma-descriptor]
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void cornerCalls(PFN_cuTensorMapEncodeIm2col_v12000 Encode, CUtensorMap *Map,
                 float *X, int RuntimePad) {
  corners(Encode, Map, X, 20);
  corners(Encode, Map, X, 16); // correct twin: -16 is the lowest offset
  corners(Encode, Map, X, RuntimePad); // unknown: silent
}

CUresult rank2(CUtensorMap *Map, float *X) {
  cuuint64_t Dims[2] = {32, 64};
  cuuint64_t Strides[1] = {128};
  int Lower[1] = {0};
  int Upper[1] = {0};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, X,
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: tensorRank is 2, outside 3..5 (NWC, NHWC or NDHWC), the ranks of cuTensorMapEncodeIm2col (TMAP-I2C-RANK) [tma-descriptor]
                                 Dims, Strides, Lower, Upper, 32, 64,
                                 ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// TMAP-I2C-CORNER-AREA: an 8-pixel-wide image and an upper corner of -8
// leave no filter position; -7 leaves one (the correct twin).
CUresult area(CUtensorMap *Map, float *X, int UpperW) {
  cuuint64_t Dims[3] = {32, 8, 4};
  cuuint64_t Strides[2] = {128, 1024};
  int Lower[1] = {0};
  int Upper[1] = {UpperW};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, X,
                                 Dims, Strides, Lower, Upper, 32, 8,
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: the bounding box is empty along W: globalDim[1] + pixelBoxUpperCorner[0] - pixelBoxLowerCorner[0] = 8 + -8 - 0 = 0 filter positions; it needs at least 1 (TMAP-I2C-CORNER-AREA) [tma-descriptor]
                                 ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void areaCalls(CUtensorMap *Map, float *X) {
  area(Map, X, -8);
  area(Map, X, -7);
}

// Section 1.A through Im2col: element-count strides.
CUresult units(CUtensorMap *Map, __half *X) {
  cuuint64_t Dims[4] = {64, 32, 32, 8};
  cuuint64_t Strides[3] = {64, 4096, 131072};
  int Lower[2] = {-1, -1};
  int Upper[2] = {-1, -1};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X,
                                 Dims, Strides, Lower, Upper, 64, 128,
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: globalStrides[0] is 64, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT16 tensor needs 128 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
                                 ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                 CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeIm2colWide
//===----------------------------------------------------------------------===//

CUresult wide(PFN_cuTensorMapEncodeIm2colWide_v12080 Encode, CUtensorMap *Map,
              __half *X, CUtensorMapInterleave Interleave,
              CUtensorMapIm2ColWideMode Mode, CUtensorMapSwizzle Swizzle,
              int LowerW, cuuint32_t Pixels) {
  cuuint64_t Dims[4] = {64, 1024, 32, 8};
  cuuint64_t Strides[3] = {128, 128 * 1024, 128 * 1024 * 32};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X, Dims, Strides,
                LowerW, -1, 64, Pixels, ElemStrides, Interleave, Mode,
                Swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void wideCalls(PFN_cuTensorMapEncodeIm2colWide_v12080 Encode,
               CUtensorMap *Map, __half *X) {
  wide(Encode, Map, X, CU_TENSOR_MAP_INTERLEAVE_16B,
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: interleave CU_TENSOR_MAP_INTERLEAVE_16B is not supported by cuTensorMapEncodeIm2colWide; it needs CU_TENSOR_MAP_INTERLEAVE_NONE (TMAP-I2CW-INTERLEAVE) [tma-descriptor]
       CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_NONE, -40000,
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: swizzle CU_TENSOR_MAP_SWIZZLE_NONE is not supported by cuTensorMapEncodeIm2colWide (allowed: CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B) (TMAP-I2CW-SWIZZLE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:70: warning: pixelBoxLowerCornerWidth is -40000, outside [-32768, 32767] (TMAP-I2CW-CORNER) [tma-descriptor]
       2048);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: pixelsPerColumn is 2048, above the limit of 1024 (CU_TENSOR_MAP_IM2COL_WIDE_MODE_W) (TMAP-I2CW-MODE) [tma-descriptor]
  // Correct twins: W128 ignores pixelsPerColumn.
  wide(Encode, Map, X, CU_TENSOR_MAP_INTERLEAVE_NONE,
       CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128, CU_TENSOR_MAP_SWIZZLE_128B, -1,
       2048);
  wide(Encode, Map, X, CU_TENSOR_MAP_INTERLEAVE_NONE,
       CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
       -32768, 1024);
}

// Direct: 128 fp16 channels against SWIZZLE_64B's 64-byte span.
CUresult wideSpan(CUtensorMap *Map, __half *X) {
  cuuint64_t Dims[3] = {128, 4096, 4};
  cuuint64_t Strides[2] = {256, 256 * 4096};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  CUresult R = cuTensorMapEncodeIm2colWide(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, X, Dims, Strides, 0, 0, 128, 256,
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: inner box is channelsPerPixel = 128 * 2 bytes = 256 bytes, above the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B (TMAP-I2CW-SWIZZLE) [tma-descriptor]
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_64B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  // Correct twin: 32 channels fill the 64-byte span.
  return cuTensorMapEncodeIm2colWide(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, X, Dims, Strides, 0, 0, 32, 256,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_64B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
