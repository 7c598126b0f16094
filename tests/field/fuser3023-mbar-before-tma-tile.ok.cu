// nvFuser-generated shape: one dynamic shared-memory array carved by byte
// offsets, circular-buffer mbarriers first.  Fixed (Fuser#3023): the array is
// 128-aligned and the mbarrier region is rounded up to 128 bytes, so the TMA
// destination starts at offset 128.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace Hopper {
__device__ inline uint32_t toSmem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void mbarrierInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ inline void mbarrierArriveExpectTx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ inline void mbarrierWait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred done;\n LAB_WAIT:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      " @!done bra LAB_WAIT;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ inline void cpAsyncBulkTensorTileG2S(const CUtensorMap* map, int c0, int c1,
                                                uint32_t bar, uint32_t dst) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(dst),
      "l"(map), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}
}  // namespace Hopper

constexpr int kRows = 32, kCols = 32;  // float tile, 4096 bytes
constexpr uint32_t kTileBytes = kRows * kCols * sizeof(float);

__global__ void __launch_bounds__(128)
nvfuser_pointwise_f0_c1(const __grid_constant__ CUtensorMap var0, float* T2, int tiles) {
  alignas(128) extern __shared__ char array[];
  const unsigned smem_offset = 0;
  uint64_t* T5 = reinterpret_cast<uint64_t*>(array + smem_offset + 0);  // 2 mbarriers
  float* T1 = reinterpret_cast<float*>(array + smem_offset + 128);
  const uint32_t i3 = Hopper::toSmem(T1);

  if (threadIdx.x == 0) {
    Hopper::mbarrierInit(Hopper::toSmem(&T5[0]), 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  for (int i4 = 0; i4 < tiles; ++i4) {
    if (threadIdx.x == 0) {
      Hopper::mbarrierArriveExpectTx(Hopper::toSmem(&T5[0]), kTileBytes);
      Hopper::cpAsyncBulkTensorTileG2S(&var0, 0, (blockIdx.x * tiles + i4) * kRows,
                                       Hopper::toSmem(&T5[0]), i3);
    }
    Hopper::mbarrierWait(Hopper::toSmem(&T5[0]), i4 & 1);
    for (int i5 = threadIdx.x; i5 < kRows * kCols; i5 += blockDim.x)
      T2[(size_t(blockIdx.x) * tiles + i4) * kRows * kCols + i5] = T1[i5] * 2.f;
    __syncthreads();
  }
}

int main() {
  const int tiles = 8, blocks = 132;
  const size_t rows = size_t(blocks) * tiles * kRows;
  float *T0 = nullptr, *T2 = nullptr;
  cudaMalloc(&T0, rows * kCols * sizeof(float));
  cudaMalloc(&T2, rows * kCols * sizeof(float));
  CUtensorMap var0;
  const cuuint64_t dims[2] = {kCols, rows};
  const cuuint64_t strides[1] = {kCols * sizeof(float)};
  const cuuint32_t box[2] = {kCols, kRows};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&var0, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, T0, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  nvfuser_pointwise_f0_c1<<<blocks, 128, 128 + kTileBytes>>>(var0, T2, tiles);
  cudaDeviceSynchronize();
  return 0;
}
