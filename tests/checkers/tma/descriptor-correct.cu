// Correct descriptors from real kernels: tma-descriptor must stay silent on
// every one of them, in both CUDA passes.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host --cuda-gpu-arch=sm_100a

#include <array>
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
using bf16 = __nv_bfloat16;

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult Status = (call);                                                  \
    if (Status != CUDA_SUCCESS)                                                \
      return Status;                                                           \
  } while (0)

constexpr int M = 4096, N = 4096, K = 4096;
constexpr int BlockM = 128, BlockN = 128, BlockK = 64;

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// A bf16 GEMM operand: [M][K] row-major, 64x64 tiles of 128-byte rows under
// SWIZZLE_128B.
CUresult encodeOperandA(CUtensorMap *Map, bf16 *A) {
  cuuint64_t Shape[2] = {K, M};
  cuuint64_t Strides[1] = {K * sizeof(bf16)};
  cuuint32_t Box[2] = {BlockK, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, A,
                                  Shape, Strides, Box, ElemStrides,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return CUDA_SUCCESS;
}

// An FP8 (e4m3, encoded as UINT8) operand: 128x128 tiles of 128-byte rows.
CUresult encodeFp8Operand(CUtensorMap *Map, uint8_t *B) {
  cuuint64_t Shape[2] = {K, N};
  cuuint64_t Strides[1] = {K};
  cuuint32_t Box[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, B,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A batched fp16 tensor [Batch][M][K], one matrix per box, NaN fill for the
// ragged edge.
CUresult encodeBatched(CUtensorMap *Map, uint16_t *X) {
  constexpr cuuint64_t Batch = 16, Rows = 1000, Cols = 1024;
  std::array<cuuint64_t, 3> Shape = {Cols, Rows, Batch};
  std::array<cuuint64_t, 2> Strides = {Cols * sizeof(uint16_t),
                                       Rows * Cols * sizeof(uint16_t)};
  std::array<cuuint32_t, 3> Box = {64, 128, 1};
  std::array<cuuint32_t, 3> ElemStrides = {1, 1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, X, Shape.data(), Strides.data(),
      Box.data(), ElemStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

// Interleaved NC/8HWC8 fp16 activations (8 channels are 16 bytes): rank 4
// {C8, W, H, N * C / 8}, and rank 5 with a depth dimension.
CUresult encodeNC8HWC8(CUtensorMap *Map, uint16_t *X) {
  constexpr cuuint64_t Batch = 8, C = 64, H = 56, W = 56;
  cuuint64_t Shape[4] = {8, W, H, Batch * C / 8};
  cuuint64_t Strides[3] = {16, 16 * W, 16 * W * H};
  cuuint32_t Box[4] = {8, 8, 8, 1};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult encodeNC8DHWC8(CUtensorMap *Map, uint16_t *X) {
  constexpr cuuint64_t Batch = 2, C = 32, D = 16, H = 28, W = 28;
  cuuint64_t Shape[5] = {8, W, H, D, Batch * C / 8};
  cuuint64_t Strides[4] = {16, 16 * W, 16 * W * H, 16 * W * H * D};
  cuuint32_t Box[5] = {8, 4, 4, 2, 1};
  cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 5, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_16B,
                                CU_TENSOR_MAP_SWIZZLE_64B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Interleaved NC/32HWC32 int8 activations: INTERLEAVE_32B with SWIZZLE_32B
// and 32-byte strides, and a traversal stride of 2 in H and W.
CUresult encodeNC32HWC32(CUtensorMap *Map, int8_t *X) {
  constexpr cuuint64_t Batch = 4, C = 128, H = 28, W = 28;
  cuuint64_t Shape[4] = {32, W, H, Batch * C / 32};
  cuuint64_t Strides[3] = {32, 32 * W, 32 * W * H};
  cuuint32_t Box[4] = {32, 8, 8, 1};
  cuuint32_t ElemStrides[4] = {1, 2, 2, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, X,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// fast.cu (matmul_2-6): 5-element arrays encoded with rank 2, the strides
// passed from their second element, the tile from template arguments.
template <int BlockMajorSize, int BlockMinorSize>
CUresult createTensorMap(CUtensorMap *TmaMap, bf16 *Gmem, int BlocksHeight,
                         int BlocksWidth) {
  void *GmemAddress = (void *)Gmem;
  uint64_t GmemProbShape[5] = {(uint64_t)BlockMinorSize * BlocksWidth,
                               (uint64_t)BlockMajorSize * BlocksHeight, 1, 1,
                               1};
  uint64_t GmemProbStride[5] = {sizeof(bf16),
                                sizeof(bf16) * BlockMinorSize * BlocksWidth, 0,
                                0, 0};
  uint32_t SmemBoxShape[5] = {uint32_t(BlockMinorSize),
                              uint32_t(BlockMajorSize), 1, 1, 1};
  uint32_t SmemBoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(
      TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, GmemAddress, GmemProbShape,
      GmemProbStride + 1, SmemBoxShape, SmemBoxStride,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The same helper with sizes known in the caller's constants.
CUresult createFixedTensorMap(CUtensorMap *TmaMap, bf16 *Gmem) {
  uint64_t GmemProbShape[5] = {K, M, 1, 1, 1};
  uint64_t GmemProbStride[5] = {sizeof(bf16), sizeof(bf16) * K, 0, 0, 0};
  uint32_t SmemBoxShape[5] = {BlockK, BlockM, 1, 1, 1};
  uint32_t SmemBoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(
      TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Gmem, GmemProbShape,
      GmemProbStride + 1, SmemBoxShape, SmemBoxStride,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// fast.cu matmul_7 and simplegemm: a permuted 3-D/5-D view {64, M, K / 64}
// with strides {2K, 128}, and a 64-wide padded box without swizzle.
CUresult createTensorMap3D(CUtensorMap *TmaMap, bf16 *Gmem) {
  uint64_t Shape[5] = {64, M, K / 64, 1, 1};
  uint64_t Stride[4] = {sizeof(bf16) * K, 64 * sizeof(bf16), 0, 0};
  uint32_t BoxShape[5] = {64, BlockM, BlockK / 64, 1, 1};
  uint32_t BoxStride[5] = {1, 1, 1, 1, 1};
  return cuTensorMapEncodeTiled(
      TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 5, Gmem, Shape, Stride,
      BoxShape, BoxStride, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <bool Padding>
CUresult createPaddedMap(CUtensorMap *TmaMap, bf16 *Gmem) {
  cuuint64_t Shape[3] = {64, M, K / 64};
  cuuint64_t Stride[2] = {sizeof(bf16) * K, 64 * sizeof(bf16)};
  cuuint32_t BoxShape[3] = {Padding ? 72u : 64u, BlockM, BlockK / 64};
  cuuint32_t BoxStride[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(
      TmaMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, Gmem, Shape, Stride,
      BoxShape, BoxStride, CU_TENSOR_MAP_INTERLEAVE_NONE,
      Padding ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// FP4 in the 16-byte-aligned layout (CUTLASS float_e2m1_unpacksmem_t): a box
// of exactly 128 values, 32-byte strides, SWIZZLE_128B. FP6 likewise, with
// the 6-bit store swizzle.
CUresult encodeSubByte(CUtensorMap *Maps, uint8_t *Fp4, uint8_t *Fp6) {
  cuuint64_t Fp4Shape[2] = {K, N};
  cuuint64_t Fp4Strides[1] = {K / 2};
  cuuint32_t Box[2] = {128, BlockN};
  cuuint32_t ElemStrides[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(
      &Maps[0], CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2, Fp4, Fp4Shape,
      Fp4Strides, Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  cuuint64_t Fp6Shape[2] = {K, N};
  cuuint64_t Fp6Strides[1] = {K * 3 / 4};
  return cuTensorMapEncodeTiled(
      &Maps[1], CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 2, Fp6, Fp6Shape,
      Fp6Strides, Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The driver entry point as the CUDA guide fetches it, a decltype pointer, a
// 1-D map without strides, and a lambda (learn-cuda's init_tmap_AB: rank 3,
// an inner box of 8 bf16 values, 16 bytes).
CUresult encodeThroughPointers(CUtensorMap *Maps, float *Bias, bf16 *A) {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Query;
  CU_CHECK((CUresult)cudaGetDriverEntryPointByVersion(
      "cuTensorMapEncodeTiled", &Fn, 12000, cudaEnableDefault, &Query));
  auto Encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Fn);
  cuuint64_t BiasShape[1] = {N};
  cuuint32_t BiasBox[1] = {BlockN};
  cuuint32_t One[1] = {1};
  CU_CHECK(Encode(&Maps[0], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Bias,
                  BiasShape, Stride1, BiasBox, One,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));

  decltype(&cuTensorMapEncodeTiled) Direct = cuTensorMapEncodeTiled;
  auto InitTmapAB = [&](CUtensorMap *Map, bf16 *Ptr, uint64_t Rows) {
    cuuint64_t Shape[3] = {8, Rows, K / 8};
    cuuint64_t Strides[2] = {K * sizeof(bf16), 16};
    cuuint32_t Box[3] = {8, 128, 64 / 8};
    cuuint32_t ElemStrides[3] = {1, 1, 1};
    return Direct(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, Ptr, Shape,
                  Strides, Box, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_NONE,
                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  return InitTmapAB(&Maps[1], A, M);
}

// The maps reach the kernel as __grid_constant__ parameters.
__global__ void gemm(const __grid_constant__ CUtensorMap MapA,
                     const __grid_constant__ CUtensorMap MapB, bf16 *C) {
  if (threadIdx.x == 0)
    C[blockIdx.x] = bf16{};
}

CUresult launchGemm(bf16 *A, bf16 *B, bf16 *C) {
  CUtensorMap MapA, MapB;
  CU_CHECK(encodeOperandA(&MapA, A));
  CU_CHECK((createTensorMap<BlockN, BlockK>(&MapB, B, N / BlockN,
                                            K / BlockK)));
  CU_CHECK(createPaddedMap<true>(&MapB, B));
  CU_CHECK(createPaddedMap<false>(&MapB, B));
  gemm<<<dim3(M / BlockM * (N / BlockN)), dim3(384)>>>(MapA, MapB, C);
  return CUDA_SUCCESS;
}
