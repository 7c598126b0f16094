// Seed: JAX Mosaic GPU rejects a copy with "async_copy requires all GMEM
// strides except the last one to be a multiple of 16 bytes"; the driver
// returns CUDA_ERROR_INVALID_VALUE for the same descriptor
// (TMAP-ENC-GSTRIDE-ALIGN). The last GMEM stride, the element size, is the
// implicit innermost stride that cuTensorMapEncodeTiled never receives.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

// Rank 1 reads no stride, but the driver rejects a null globalStrides
// (TMAP-ENC-GSTRIDES-NULL).
static const cuuint64_t Stride1[1] = {0};

// As cuda_bf16.h declares it; the mock headers have no cuda_bf16.h.
struct __nv_bfloat16 {
  unsigned short __x;
};

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult Status = (call);                                                  \
    if (Status != CUDA_SUCCESS)                                                \
      return Status;                                                           \
  } while (0)

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A bf16 activation tensor [Batch][Seq][Hidden] with Hidden = 100 and
// Seq = 33: the row stride is 200 bytes, the batch stride 6600 bytes.
CUresult encodeActivations(CUtensorMap *Map, __nv_bfloat16 *X) {
  constexpr cuuint64_t Hidden = 100, Seq = 33, Batch = 4;
  cuuint64_t Shape[3] = {Hidden, Seq, Batch};
  cuuint64_t Strides[2] = {Hidden * sizeof(__nv_bfloat16),
                           Seq * Hidden * sizeof(__nv_bfloat16)};
  cuuint32_t Box[3] = {64, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, X,
                                  Shape, Strides, Box, ElemStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  // CHECK-NOTES: :[[@LINE-5]]:42: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-11]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-12]]:28: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-8]]:42: warning: globalStrides[1] is 6600 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-13]]:28: note: globalStrides[1] = 6600 comes from here
  // CHECK-NOTES: :[[@LINE-14]]:28: note: pad the row to 6608 bytes
  return CUDA_SUCCESS;
}

// An int8 [M][1000] matrix: 1000-byte rows.
CUresult encodeInt8Rows(CUtensorMap *Map, int8_t *A) {
  cuuint64_t Shape[2] = {1000, 4096};
  cuuint64_t RowStrides[1] = {1000};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemRowStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, A,
                                Shape, RowStrides, Box, ElemRowStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 1000 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:31: note: globalStrides[0] = 1000 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:31: note: pad the row to 1008 bytes
  // CHECK-FIXES: cuuint64_t RowStrides[1] = {1008};
}

// Six fp32 features per point: 24-byte rows.
CUresult encodePointFeatures(CUtensorMap *Map, float *Points) {
  const int Features = 6;
  cuuint64_t Shape[2] = {Features, 1 << 20};
  cuuint64_t Strides[1] = {Features * sizeof(float)};
  cuuint32_t Box[2] = {8, 256};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Points,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 24 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 24 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 32 bytes
}

// A 64-column slice of an fp16 [512][772] matrix, encoded through the entry
// point that the CUDA guide recommends. The pitch is a literal, so the
// suggestion carries a fix-it.
CUresult encodeSlice(CUtensorMap *Map, uint16_t *Base) {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 12000,
                                   cudaEnableDefault, &Query);
  auto Encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Fn);
  cuuint64_t Shape[2] = {64, 512};
  cuuint64_t Strides[1] = {1544};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Base + 8, Shape,
                Strides, Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-3]]:17: warning: globalStrides[0] is 1544 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: globalStrides[0] = 1544 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: pad the row to 1552 bytes
  // CHECK-FIXES: cuuint64_t Strides[1] = {1552};
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// The same tensors with padded rows: Hidden padded to 104, M padded to 1008
// bytes, 8 features.
CUresult encodePaddedActivations(CUtensorMap *Map, __nv_bfloat16 *X) {
  constexpr cuuint64_t Hidden = 100, Pitch = 104, Seq = 33, Batch = 4;
  cuuint64_t Shape[3] = {Hidden, Seq, Batch};
  cuuint64_t Strides[2] = {Pitch * sizeof(__nv_bfloat16),
                           Seq * Pitch * sizeof(__nv_bfloat16)};
  cuuint32_t Box[3] = {64, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, X,
                                  Shape, Strides, Box, ElemStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return CUDA_SUCCESS;
}

CUresult encodePaddedInt8Rows(CUtensorMap *Map, int8_t *A) {
  cuuint64_t Shape[2] = {1000, 4096};
  cuuint64_t Strides[1] = {1008};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodePaddedPointFeatures(CUtensorMap *Map, float *Points) {
  const int Features = 6, Pitch = 8;
  cuuint64_t Shape[2] = {Features, 1 << 20};
  cuuint64_t Strides[1] = {Pitch * sizeof(float)};
  cuuint32_t Box[2] = {8, 256};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Points,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// "Except the last one": the innermost stride is the element size and is not
// passed, so a 1-D tensor of any length has no stride to check.
CUresult encodeOddVector(CUtensorMap *Map, uint16_t *V) {
  cuuint64_t Shape[1] = {1001};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 1, V,
                                Shape, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Strides past rank - 1 are not read: the rank-2 view of a rank-3 array.
CUresult encodeFirstBatchOnly(CUtensorMap *Map, __nv_bfloat16 *X) {
  cuuint64_t Shape[3] = {104, 33, 4};
  cuuint64_t Strides[2] = {208, 33 * 200};
  cuuint32_t Box[3] = {64, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// Hidden is a parameter that no call in this file binds: JAX checks it at
// trace time, a static checker only when a caller passes a constant.
CUresult encodeRuntimeHidden(CUtensorMap *Map, __nv_bfloat16 *X,
                             cuuint64_t Hidden, cuuint64_t Rows) {
  cuuint64_t Shape[2] = {Hidden, Rows};
  cuuint64_t Strides[1] = {Hidden * sizeof(__nv_bfloat16)};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A pitch returned by an allocator.
cuuint64_t pitchOf(cuuint64_t Width);

CUresult encodePitched(CUtensorMap *Map, float *Image) {
  cuuint64_t Shape[2] = {1000, 1000};
  cuuint64_t Strides[1] = {pitchOf(1000 * sizeof(float))};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Image,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// A pitch from a macro: the notes point at the expansion, and the suggestion
// carries no fix-it, since a macro body may serve other code.
#define ROW_PITCH_BYTES 200
CUresult encodeMacroPitch(CUtensorMap *Map, uint16_t *A) {
  cuuint64_t Shape[2] = {100, 4096};
  cuuint64_t Strides[1] = {ROW_PITCH_BYTES};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 208 bytes
}
