// The two stride-unit heuristics of TMAP-ENC-GSTRIDE-UNITS: globalStrides
// written in elements instead of bytes (the stride equals the element count
// of the dimensions below it), and globalStrides that start with the
// implicit innermost stride (its first entry is the element size). Each is
// reported instead of the misalignment it usually causes, and suggests a fix
// that --fix-notes applies. tma-rules.md makes the layout recurrence itself
// no rule: permuted, broadcast and overlapping views must stay silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host --cuda-gpu-arch=sm_100a

#include <cstdint>
#include <cuda.h>

// As cuda_bf16.h declares it; the mock headers have no cuda_bf16.h.
struct __nv_bfloat16 {
  unsigned short __x;
};
using bf16 = __nv_bfloat16;

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// Strides in elements: an fp16 [M][K] matrix with the stride K. 4096 is a
// multiple of 16, so the driver accepts the map and TMA reads the wrong rows.
CUresult encodeHalfMatrix(CUtensorMap *Map, uint16_t *A) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t RowStride[1] = {4096};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, RowStride, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 4096, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT16 tensor needs 8192 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:30: note: globalStrides[0] = 4096 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:26: note: globalDim[0] = 4096 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:30: note: multiply by the element size: 8192 bytes (4096 elements * 2 bytes)
  // CHECK-FIXES: cuuint64_t RowStride[1] = {8192};
}

// The same with K = 100: the unit mistake is reported instead of the
// misalignment of the 100-byte stride.
CUresult encodeHalfMatrixOddK(CUtensorMap *Map, uint16_t *A) {
  const cuuint64_t K = 100;
  cuuint64_t Shape[2] = {K, 4096};
  cuuint64_t Strides[1] = {K};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 100, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT16 tensor needs 200 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 100 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:26: note: globalDim[0] = 100 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:28: note: multiply by the element size: 200 bytes (100 elements * 2 bytes)
}

// A bf16 batch [B][M][K] with element strides at both indices: globalDim[0]
// and globalDim[0] * globalDim[1].
CUresult encodeBatch(CUtensorMap *Map, bf16 *X) {
  cuuint64_t Shape[3] = {256, 512, 8};
  cuuint64_t Strides[2] = {256, 256 * 512};
  cuuint32_t Box[3] = {64, 64, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 256, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 tensor needs 512 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 256 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:26: note: globalDim[0] = 256 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:28: note: multiply by the element size: 512 bytes (256 elements * 2 bytes)
  // CHECK-FIXES: cuuint64_t Strides[2] = {512, 256 * 512};
  // CHECK-NOTES: :[[@LINE-10]]:40: warning: globalStrides[1] is 131072, the element count of globalDim[0] * ... * globalDim[1]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 tensor needs 262144 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-15]]:33: note: globalStrides[1] = 131072 comes from here
  // CHECK-NOTES: :[[@LINE-17]]:26: note: globalDim[0] = 256 comes from here
  // CHECK-NOTES: :[[@LINE-17]]:33: note: multiply by the element size: 262144 bytes (131072 elements * 2 bytes)
}

// Strides in elements for fp32 and fp64 too (the heuristic applies to every
// type of more than one byte).
CUresult encodeWideTypes(CUtensorMap *Maps, float *F, double *D) {
  const CUtensorMapDataType F32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  cuuint64_t Shape[2] = {1024, 1024};
  cuuint64_t F32Strides[1] = {1024};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      &Maps[0], F32, 2, F, Shape, F32Strides, Box, ElemStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:35: warning: globalStrides[0] is 1024, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 tensor needs 4096 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:31: note: globalStrides[0] = 1024 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:26: note: globalDim[0] = 1024 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:35: note: tensorDataType = 7 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:31: note: multiply by the element size: 4096 bytes (1024 elements * 4 bytes)
  // CHECK-FIXES: cuuint64_t F32Strides[1] = {4096};
  if (R != CUDA_SUCCESS)
    return R;
  cuuint64_t Strides64[1] = {1024};
  return cuTensorMapEncodeTiled(
      &Maps[1], CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 2, D, Shape, Strides64, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:63: warning: globalStrides[0] is 1024, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT64 tensor needs 8192 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:30: note: globalStrides[0] = 1024 comes from here
  // CHECK-NOTES: :[[@LINE-23]]:26: note: globalDim[0] = 1024 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:30: note: multiply by the element size: 8192 bytes (1024 elements * 8 bytes)
  // CHECK-FIXES: cuuint64_t Strides64[1] = {8192};
}

// The innermost stride included (rank strides instead of rank - 1): an
// fp32 [4096][4096] matrix with strides {4, 4096 * 4}. The array has one
// stride more than rank 2 reads, so passing it from its second element is
// the fix.
CUresult encodeInnermostIncluded(CUtensorMap *Map, float *B) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[2] = {4, 4096 * 4};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, B,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 4 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_FLOAT32 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:40: note: drop the innermost stride: pass the array from its second element
  // CHECK-FIXES: Shape, Strides + 1, Box, ElemStrides,
}

// fast.cu's 5-element arrays without the `+ 1`: the helper passes
// gmem_prob_stride itself.
CUresult createTensorMap(CUtensorMap *TmaMap, bf16 *Gmem) {
  constexpr int Width = 4096, Height = 4096;
  uint64_t GmemProbShape[5] = {Width, Height, 1, 1, 1};
  uint64_t GmemProbStride[5] = {sizeof(bf16), sizeof(bf16) * Width, 0, 0, 0};
  uint32_t SmemBoxShape[5] = {64, 128, 1, 1, 1};
  uint32_t SmemBoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                Gmem, GmemProbShape, GmemProbStride,
                                SmemBoxShape, SmemBoxStride,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-6]]:54: warning: globalStrides[0] is 2 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:33: note: globalStrides[0] = 2 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:54: note: drop the innermost stride: pass the array from its second element
  // CHECK-FIXES: Gmem, GmemProbShape, GmemProbStride + 1,
}

// A rank-3 int32 tensor with strides {4, 4 * K, 4 * K * M}: the array is one
// longer than rank 3 reads; only the first stride is reported.
CUresult encodeInt3D(CUtensorMap *Map, int32_t *T) {
  constexpr cuuint64_t K = 64, M = 32, B = 16;
  const cuuint64_t Strides[3] = {4, 4 * K, 4 * K * M};
  cuuint64_t Shape[3] = {K, M, B};
  cuuint32_t Box[3] = {32, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_INT32, 3, T,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 4 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_INT32 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:34: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:40: note: drop the innermost stride: pass the array from its second element
  // CHECK-FIXES: Shape, Strides + 1, Box, ElemStrides,
}

// The innermost stride included in an array of exactly rank - 1 elements:
// the shift cannot be undone by skipping an element, so there is no fix.
CUresult encodeInnermostOnly(CUtensorMap *Map, uint16_t *A) {
  const CUtensorMapDataType Type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {sizeof(uint16_t)};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, A, Shape, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:57: warning: globalStrides[0] is 2 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_FLOAT16 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:28: note: globalStrides[0] = 2 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:36: note: tensorDataType = 6 comes from here
}

// An fp32 column (globalDim[0] = 1) whose stride is 4 bytes: not the
// innermost stride passed by mistake, but still no multiple of 16.
CUresult encodeColumn(CUtensorMap *Map, float *Column) {
  cuuint64_t Shape[2] = {1, 4096};
  cuuint64_t Strides[1] = {4};
  cuuint32_t Box[2] = {4, 256};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                Column, Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:48: warning: globalStrides[0] is 4 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 16 bytes
  // CHECK-FIXES: cuuint64_t Strides[1] = {16};
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Byte strides: K * sizeof(element) for fp16, and a batch of bf16.
CUresult encodeByteStrides(CUtensorMap *Maps, uint16_t *A, bf16 *X) {
  constexpr cuuint64_t K = 4096;
  cuuint64_t Shape[2] = {K, 4096};
  cuuint64_t Strides[1] = {K * sizeof(uint16_t)};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                         Shape, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuuint64_t BatchShape[3] = {256, 512, 8};
  cuuint64_t BatchStrides[2] = {256 * sizeof(bf16), 256 * 512 * sizeof(bf16)};
  cuuint32_t BatchBox[3] = {64, 64, 1};
  cuuint32_t BatchElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(&Maps[1], CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3,
                                X, BatchShape, BatchStrides, BatchBox,
                                BatchElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// fast.cu's helper as written: the array from its second element.
CUresult createTensorMapFixed(CUtensorMap *TmaMap, bf16 *Gmem) {
  constexpr int Width = 4096, Height = 4096;
  uint64_t Shape[5] = {Width, Height, 1, 1, 1};
  uint64_t Stride[5] = {sizeof(bf16), sizeof(bf16) * Width, 0, 0, 0};
  uint32_t BoxShape[5] = {64, 128, 1, 1, 1};
  uint32_t BoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                Gmem, Shape, Stride + 1, BoxShape, BoxStride,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// 4-bit packed data: K values take K / 2 bytes, and that stride is right.
CUresult encodeFp4Weights(CUtensorMap *Map, uint8_t *W) {
  constexpr cuuint64_t K = 4096, N = 4096;
  cuuint64_t Shape[2] = {K, N};
  cuuint64_t Strides[1] = {K / 2};
  cuuint32_t Box[2] = {128, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, W,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// 16U4_ALIGN16B rows of 8192 values (4096 bytes) padded to 8192 bytes: the
// stride equals globalDim[0], but strides in elements are only looked for
// in types whose elements are whole bytes of more than one.
CUresult encodeFp4PaddedRows(CUtensorMap *Map, uint8_t *W) {
  cuuint64_t Shape[2] = {8192, 1024};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2,
                                W, Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// fast.cu / simplegemm: a bf16 [M][N] matrix viewed as {64, M, N / 64} with
// strides {2N, 128}: the strides are not monotonic, on purpose.
CUresult encodePermutedView(CUtensorMap *Map, bf16 *C) {
  constexpr cuuint64_t M = 4096, N = 4096;
  cuuint64_t Shape[3] = {64, M, N / 64};
  cuuint64_t Strides[2] = {sizeof(bf16) * N, 64 * sizeof(bf16)};
  cuuint32_t Box[3] = {64, 128, 4};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, C,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// fast.cu matmul_7: rank 5 with zero strides for the dimensions of size 1.
CUresult encodeRank5View(CUtensorMap *Map, bf16 *A) {
  constexpr int W = 4096, H = 4096;
  uint64_t Shape[5] = {64, H, W / 64, 1, 1};
  uint64_t Stride[4] = {sizeof(bf16) * W, 64 * sizeof(bf16), 0, 0};
  uint32_t BoxShape[5] = {64, 128, 1, 1, 1};
  uint32_t BoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 5, A,
                                Shape, Stride, BoxShape, BoxStride,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A broadcast: one fp32 bias row read for every one of M rows (stride 0).
CUresult encodeBroadcastBias(CUtensorMap *Map, float *Bias) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {0};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Bias,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Overlapping sliding windows over an fp32 signal: windows of 256 samples,
// a hop of 32 samples (128 bytes), 1000 windows.
CUresult encodeSlidingWindows(CUtensorMap *Map, float *Signal) {
  constexpr cuuint64_t Window = 256, Hop = 32, Windows = 1000;
  cuuint64_t Shape[2] = {Window, Windows};
  cuuint64_t Strides[1] = {Hop * sizeof(float)};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Signal,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// 1-byte data: a stride equal to globalDim[0] is right, since the element
// count and the byte count agree.
CUresult encodeFp8Matrix(CUtensorMap *Map, uint8_t *A) {
  cuuint64_t Shape[3] = {4096, 4096, 2};
  cuuint64_t Strides[2] = {4096, 4096 * 4096};
  cuuint32_t Box[3] = {128, 128, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Strides past rank - 1 are not read: a rank-1 map with a leftover
// element-count array.
CUresult encodeVector(CUtensorMap *Map, uint16_t *V) {
  cuuint64_t Shape[2] = {4096, 1};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {256, 1};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 1, V,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// K from a caller that is not in this file: Strides = {K} looks like a stride
// in elements, but neither value is known.
CUresult encodeRuntimeK(CUtensorMap *Map, uint16_t *A, cuuint64_t K,
                        cuuint64_t M) {
  cuuint64_t Shape[2] = {K, M};
  cuuint64_t Strides[1] = {K};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The data type from a caller that is not in this file: a stride equal to
// globalDim[0] is only wrong for elements of more than one byte.
CUresult encodeRuntimeType(CUtensorMap *Map, void *A,
                           CUtensorMapDataType Type) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, A, Shape, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// The heuristics read only values. A byte stride that happens to equal the
// element count is reported: fp32 windows of 64 samples with a hop of 16
// samples (64 bytes).
CUresult encodeShortWindows(CUtensorMap *Map, float *Signal) {
  constexpr cuuint64_t Window = 64, Hop = 16, Windows = 1000;
  cuuint64_t Shape[2] = {Window, Windows};
  cuuint64_t Strides[1] = {Hop * sizeof(float)};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Signal,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 64, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 tensor needs 256 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 64 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:26: note: globalDim[0] = 64 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:28: note: multiply by the element size: 256 bytes (64 elements * 4 bytes)
}

// Strides in elements that are not the element count of the lower
// dimensions are not recognised: a row pitch of 4160 elements (padded K)
// passed for an fp16 [M][4096] matrix is only a valid, wrong, byte stride.
CUresult encodePaddedPitchInElements(CUtensorMap *Map, uint16_t *A) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4160};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
