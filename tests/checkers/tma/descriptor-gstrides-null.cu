// TMAP-ENC-GSTRIDES-NULL: a null globalStrides is rejected by the driver even
// for tensorRank 1 (bench/driver/recorded.tsv), and read for a higher rank.
// The correct twin passes a (never read) one-element array.
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cuda.h>
#include <cstddef>

CUresult rank1(CUtensorMap *Map, float *X) {
  cuuint64_t Dims[1] = {1 << 20};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  CUresult R = cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, X, Dims, nullptr, Box,
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: globalStrides is a null pointer; the driver rejects it even for tensorRank 1, where no stride is read (TMAP-ENC-GSTRIDES-NULL) [tma-descriptor]
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  cuuint64_t Unused[1] = {0};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, X, Dims, Unused, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult rank3(CUtensorMap *Map, float *X, cuuint64_t *RuntimeStrides) {
  cuuint64_t Dims[3] = {64, 32, 32};
  int Lower[1] = {0};
  int Upper[1] = {0};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  CUresult R = cuTensorMapEncodeIm2col(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, X, Dims, NULL, Lower, Upper, 32,
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: globalStrides is a null pointer, but tensorRank 3 reads 2 strides (TMAP-ENC-GSTRIDES-NULL) [tma-descriptor]
      32, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  // A run-time pointer: unknown, silent.
  return cuTensorMapEncodeIm2col(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, X, Dims, RuntimeStrides, Lower,
      Upper, 32, 32, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
