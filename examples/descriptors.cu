// Host code that encodes TMA descriptors, with the mistakes tma-tidy finds.
// Run: examples/run-example.sh
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdio>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult Status = (call);                                                  \
    if (Status != CUDA_SUCCESS)                                                \
      std::printf("%s failed: %d\n", #call, int(Status));                     \
  } while (0)

constexpr int BlockM = 128;
constexpr int BlockK = 64;

// A row-major [M][K] bf16 matrix with a K that is not padded to 16 bytes.
void encodeA(CUtensorMap *Map, __nv_bfloat16 *A, int M) {
  const int K = 1000;
  cuuint64_t Dims[2] = {K, (cuuint64_t)M};
  cuuint64_t Strides[1] = {K};                  // elements, not bytes
  cuuint32_t Box[2] = {BlockK * 2, BlockM};     // 256 bytes > 128B swizzle
  cuuint32_t ElemStrides[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, A, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

// The driver entry point fetched at run time, as the CUDA guide recommends.
void encodeB(CUtensorMap *Map, float *B) {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 12000,
                                   cudaEnableDefault, &Query);
  auto Encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Fn);

  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[2] = {4, 4096 * 4};        // innermost stride included
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  CU_CHECK(Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, B, Dims, Strides,
                  Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  (CUtensorMapSwizzle)128, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

// A float buffer described as FLOAT16 data, with NaN fill for an integer map.
// Rank 1 reads no stride, but the driver still needs a non-null pointer.
void encodeC(CUtensorMap *Map, float *C, CUtensorMap *Ids, int *IdsPtr) {
  cuuint64_t Dims[1] = {1 << 20};
  cuuint64_t Unused[1] = {0};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  CU_CHECK(cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 1, C, Dims, Unused, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  CU_CHECK(cuTensorMapEncodeTiled(
      Ids, CU_TENSOR_MAP_DATA_TYPE_INT32, 1, IdsPtr, Dims, Unused, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
}
