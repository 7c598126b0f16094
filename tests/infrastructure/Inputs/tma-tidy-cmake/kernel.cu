// Two descriptor bugs that a single clang-tidy pass cannot both see, in a
// file compiled by nvcc: tma-tidy finds each once.
#include <cuda.h>
#include <cuda/barrier> // CCCL: include/cccl, which nvcc searches itself.
static const cuuint64_t Stride1[1] = {0}; // rank 1: never read, not null
// The host pass only; HOST_BOX comes from the CMake target.
void encodeHost(CUtensorMap *Map, float *Data) {
#ifndef __CUDA_ARCH__
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {HOST_BOX};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         Stride1, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
#endif
}

// The sm_90a device pass only, as in CUTLASS: nvcc's version macro and the
// architecture both gate it.
void encodeSm90(CUtensorMap *Map, float *Data) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 &&                        \
    __CUDACC_VER_MAJOR__ >= 12 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
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
