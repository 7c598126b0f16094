// torchao mxfp8 MoE training: the CUDA kernel that rearranges e8m0 scales
// (one byte per 32 elements) into the blocked layout reads row-major scale
// chunks with a 2-D TMA load.  A model with a 1408-wide MoE intermediate dim
// gives 1408 / 32 = 44 scale columns.  Fixed upstream by validating
// scale_cols % 16 == 0 up front and sending other shapes to the Triton kernel.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

constexpr uint32_t kChunkRows = 128;

template <uint32_t kChunkWidth>
__global__ void __launch_bounds__(128)
mx_blocked_layout_kernel(const __grid_constant__ CUtensorMap scales_map, uint8_t* __restrict__ out,
                         int rows, int cols) {
  __shared__ alignas(128) uint8_t chunk[kChunkRows * kChunkWidth];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const int row0 = blockIdx.y * kChunkRows, col0 = blockIdx.x * kChunkWidth;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
                 "r"(kChunkRows * kChunkWidth)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(chunk))),
        "l"(&scales_map), "r"(col0), "r"(row0), "r"(b)
        : "memory");
  }
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
      " @!p bra W_%=;\n}\n" ::"r"(b)
      : "memory");
  // 128 x 4 blocked tiles: row r of the chunk goes to (r % 32) * 16 + (r / 32) * 4.
  for (uint32_t i = threadIdx.x; i < kChunkRows * kChunkWidth; i += blockDim.x) {
    const uint32_t r = i / kChunkWidth, c = i % kChunkWidth;
    if (row0 + r < uint32_t(rows) && col0 + c < uint32_t(cols))
      out[size_t(blockIdx.y * gridDim.x + blockIdx.x) * kChunkRows * kChunkWidth +
          (c / 4) * 512 + (r % 32) * 16 + (r / 32) * 4 + c % 4] = chunk[i];
  }
}

static int mx_block_rearrange(uint8_t* scales, uint8_t* out, int rows, int scale_cols) {
  constexpr uint32_t kChunkWidth = 16;
  if (scale_cols % 16 != 0) {
    std::fprintf(stderr, "scale_cols (%d) must be a multiple of 16 for the CUDA kernel; "
                         "use the Triton kernel\n", scale_cols);
    return -1;
  }
  CUtensorMap map;
  const cuuint64_t dims[2] = {uint64_t(scale_cols), uint64_t(rows)};
  const cuuint64_t strides[1] = {uint64_t(scale_cols)};  // e8m0: one byte each
  const cuuint32_t box[2] = {kChunkWidth, kChunkRows};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, scales, dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return int(r);
  dim3 grid((scale_cols + kChunkWidth - 1) / kChunkWidth, (rows + kChunkRows - 1) / kChunkRows);
  mx_blocked_layout_kernel<kChunkWidth><<<grid, 128>>>(map, out, rows, scale_cols);
  return 0;
}

int main() {
  const int rows = 16384, dim = 1408, scale_cols = dim / 32;  // 44
  uint8_t *scales = nullptr, *out = nullptr;
  cudaMalloc(&scales, size_t(rows) * scale_cols);
  cudaMalloc(&out, size_t(rows) * 64);
  if (int err = mx_block_rearrange(scales, out, rows, scale_cols)) {
    std::fprintf(stderr, "CUDA error %d\n", err);
    return 1;
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
