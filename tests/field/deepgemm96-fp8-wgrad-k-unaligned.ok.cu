// DeepGEMM fp8 wgrad GEMM host side (make_2d_tma_desc shape): lhs and rhs are
// e4m3 with K contiguous; the TMA descriptor's row pitch is stride(0) bytes.
// Fixed as the maintainers advised: the operands are padded so that stride(0)
// is a multiple of 16 bytes (2064) while K stays 2060.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

constexpr uint32_t BLOCK_M = 128, BLOCK_N = 128, BLOCK_K = 128;

template <typename T>
static CUtensorMap make_2d_tma_desc(T* base, uint32_t gmem_inner, uint32_t gmem_outer,
                                    uint32_t smem_inner, uint32_t smem_outer, uint64_t stride0) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {gmem_inner, gmem_outer};
  const cuuint64_t strides[1] = {stride0 * sizeof(T)};
  const cuuint32_t box[2] = {smem_inner, smem_outer};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "TMA descriptor failed: %d\n", int(r));
  return map;
}

int main() {
  const uint32_t m = 4096, n = 7168, k = 2060;
  const uint32_t ld = (k + 15) / 16 * 16;  // 2064
  uint8_t *lhs = nullptr, *rhs = nullptr;
  cudaMalloc(&lhs, size_t(m) * ld);
  cudaMalloc(&rhs, size_t(n) * ld);
  const CUtensorMap lhs_desc = make_2d_tma_desc(lhs, k, m, BLOCK_K, BLOCK_M, ld);
  const CUtensorMap rhs_desc = make_2d_tma_desc(rhs, k, n, BLOCK_K, BLOCK_N, ld);
  (void)lhs_desc;
  (void)rhs_desc;
  return 0;
}
