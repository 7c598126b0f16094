// nvFuser non-matmul kernel with a TMA-store epilogue inside the persistent
// outer loop: every iteration writes its result tile to shared memory and
// stores it with a 2-D TMA store, but the commit/wait pair was only emitted
// after the loop (the WAR-wait pass short-circuited to the compute-warp path).
// The next iteration overwrites T7 while the previous store may still read it.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace Hopper {
__device__ inline uint32_t toSmem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void cpAsyncBulkTensorTileS2G(const CUtensorMap* desc, int c0, int c1,
                                                uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
               :
               : "l"(desc), "r"(src), "r"(c0), "r"(c1)
               : "memory");
}
__device__ inline void cpAsyncBulkCommitGroup() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
template <int keep_stages>
__device__ inline void cpAsyncBulkWaitGroup() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(keep_stages) : "memory");
}
__device__ inline void fenceAsyncProxy() { asm volatile("fence.proxy.async;\n" ::: "memory"); }
}  // namespace Hopper

constexpr int kTileM = 32, kTileN = 64;

__global__ void __launch_bounds__(256, 1)
nvfuser_none_f0_c0_r0_g0(const __nv_bfloat16* T0, const __nv_bfloat16* T1,
                         const __grid_constant__ CUtensorMap var2, int num_tiles) {
  alignas(128) extern __shared__ char array[];
  __nv_bfloat16* T7 = reinterpret_cast<__nv_bfloat16*>(array + 0);
  const uint32_t i4 = Hopper::toSmem(T7);
  for (int i5 = blockIdx.x; i5 < num_tiles; i5 += gridDim.x) {
    for (int i6 = threadIdx.x; i6 < kTileM * kTileN; i6 += blockDim.x) {
      const size_t g = size_t(i5) * kTileM * kTileN + i6;
      T7[i6] = __float2bfloat16(__bfloat162float(T0[g]) + __bfloat162float(T1[g]));
    }
    Hopper::fenceAsyncProxy();
    __syncthreads();
    if (threadIdx.x == 0) Hopper::cpAsyncBulkTensorTileS2G(&var2, 0, i5 * kTileM, i4);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Hopper::cpAsyncBulkCommitGroup();
    Hopper::cpAsyncBulkWaitGroup<0>();
  }
}

int main() {
  const int num_tiles = 4096;
  __nv_bfloat16 *T0 = nullptr, *T1 = nullptr, *T5 = nullptr;
  const size_t n = size_t(num_tiles) * kTileM * kTileN;
  cudaMalloc(&T0, n * sizeof(__nv_bfloat16));
  cudaMalloc(&T1, n * sizeof(__nv_bfloat16));
  cudaMalloc(&T5, n * sizeof(__nv_bfloat16));
  CUtensorMap var2;
  const cuuint64_t dims[2] = {kTileN, uint64_t(num_tiles) * kTileM};
  const cuuint64_t strides[1] = {kTileN * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kTileN, kTileM};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&var2, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, T5, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  nvfuser_none_f0_c0_r0_g0<<<132, 256, kTileM * kTileN * sizeof(__nv_bfloat16)>>>(T0, T1, var2,
                                                                                  num_tiles);
  cudaDeviceSynchronize();
  return 0;
}
