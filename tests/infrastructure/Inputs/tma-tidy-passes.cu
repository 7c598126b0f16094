// Three descriptor bugs for tests/infrastructure/tma-tidy-passes.test: one
// that every CUDA pass sees, one only the host pass sees, and one only the
// device pass of sm_90 and newer sees.
#include <cuda.h>
static const cuuint64_t Stride1[1] = {0}; // rank 1: never read, not null
// Seen by every pass.
void encodeBoth(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {512};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         Stride1, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Only the host pass.
void encodeHost(CUtensorMap *Map, float *Data) {
#ifndef __CUDA_ARCH__
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {300};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         Stride1, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
#endif
}

// Only the device pass of sm_90 and newer.
void encodeSm90(CUtensorMap *Map, float *Data) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {1000};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         Stride1, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
#endif
}
