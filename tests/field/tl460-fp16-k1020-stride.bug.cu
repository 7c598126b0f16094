// TileLang host stub for a Hopper GEMM (A: M x K fp16 row-major, B: K x N):
// the generated init code encodes one descriptor per operand from the shapes
// it was compiled for.  With an irregular K = 1020 the row pitch of A is
// 2040 bytes, not a multiple of 16, and descriptor creation fails at launch
// ("Fail to initialize TMA with irregular shape on H100").
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;

static CUresult tl_tensormap_init_tiled(CUtensorMap* desc, void* base, uint64_t inner,
                                        uint64_t outer, uint64_t row_pitch_bytes,
                                        uint32_t box_inner, uint32_t box_outer) {
  const cuuint64_t global_dim[2] = {inner, outer};
  const cuuint64_t global_stride[1] = {row_pitch_bytes};
  const cuuint32_t box_dim[2] = {box_inner, box_outer};
  const cuuint32_t elem_stride[2] = {1, 1};
  return cuTensorMapEncodeTiled(desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, global_dim,
                                global_stride, box_dim, elem_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  constexpr int M = 1024, N = 1024, K = 1020;
  __half *A = nullptr, *B = nullptr;
  cudaMalloc(&A, size_t(M) * K * sizeof(__half));
  cudaMalloc(&B, size_t(K) * N * sizeof(__half));
  CUtensorMap A_desc, B_desc;
  CUresult r = tl_tensormap_init_tiled(&A_desc, A, K, M, K * sizeof(__half), kBlockK, kBlockM);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "Failed to initialize the TMA descriptor A_desc (%d)\n", int(r));
    return 1;
  }
  r = tl_tensormap_init_tiled(&B_desc, B, N, K, N * sizeof(__half), 32, kBlockK);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "Failed to initialize the TMA descriptor B_desc (%d)\n", int(r));
    return 1;
  }
  (void)kBlockN;
  return 0;
}
