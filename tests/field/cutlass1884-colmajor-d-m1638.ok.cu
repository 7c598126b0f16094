// Hopper grouped GEMM example, TMA epilogue: D is column-major half, so its
// descriptor's inner dimension is M and the pitch of a column is M * 2 bytes.
// Fixed as the maintainers advised: the column pitch must be 128-bit aligned,
// so ldd is padded to a multiple of 8 halves (1640) while M stays 1638.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

struct GemmShape {
  int m, n, k;
};

// Epilogue TMA for one group: D(m, n) column-major, tile 128 x 128 split into
// 64 x 32 stores.
static bool make_epilogue_tma(CUtensorMap* desc, __half* d, GemmShape p) {
  const uint64_t ldd = (uint64_t(p.m) + 7) / 8 * 8;
  const cuuint64_t dims[2] = {uint64_t(p.m), uint64_t(p.n)};
  const cuuint64_t strides[1] = {ldd * sizeof(__half)};
  const cuuint32_t box[2] = {64, 32};
  const cuuint32_t es[2] = {1, 1};
  return cuTensorMapEncodeTiled(desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, d, dims, strides, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main() {
  const GemmShape problem{1638, 6144, 3584};
  const int groups = 5;
  for (int g = 0; g < groups; ++g) {
    __half* d = nullptr;
    cudaMalloc(&d, size_t(problem.m + 7) / 8 * 8 * problem.n * sizeof(__half));
    CUtensorMap desc;
    if (!make_epilogue_tma(&desc, d, problem)) {
      std::fprintf(stderr, "Got cutlass error: Invalid status (group %d)\n", g);
      return 1;
    }
  }
  return 0;
}
