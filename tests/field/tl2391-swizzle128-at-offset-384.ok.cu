// TileLang after MergeSharedMemoryAllocations: all shared buffers share one
// dynamic allocation.  A 384-byte fp32 row-scale buffer comes first and the
// 64 x 64 bf16 tile of a 128B-swizzled TMA load follows it.  Fixed
// (tilelang#2391): the merge honours the buffer's swizzle alignment, so the
// tile starts at offset 1024, a swizzle-atom boundary.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace tl {
__device__ __forceinline__ uint32_t smem_ptr_to_uint(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarrier_init(uint64_t& b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_ptr_to_uint(&b)), "r"(n));
}
__device__ __forceinline__ void mbarrier_expect_tx_arrive(uint64_t& b, uint32_t n) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_ptr_to_uint(&b)),
               "r"(n)
               : "memory");
}
__device__ __forceinline__ void mbarrier_wait(uint64_t& b, uint32_t phase) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(smem_ptr_to_uint(&b)),
      "r"(phase)
      : "memory");
}
__device__ __forceinline__ void tma_load(const CUtensorMap& d, uint64_t& b, void* dst, int c0,
                                         int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_ptr_to_uint(dst)),
      "l"(&d), "r"(smem_ptr_to_uint(&b)), "r"(c0), "r"(c1)
      : "memory");
}
}  // namespace tl

constexpr int kRows = 64, kCols = 64;

__global__ void __launch_bounds__(128)
main_kernel(const __grid_constant__ CUtensorMap A_desc, const float* __restrict__ row_scale,
            float* __restrict__ out) {
  extern __shared__ __align__(1024) unsigned char buf_dyn_shmem[];
  __shared__ alignas(8) uint64_t mbar[1];
  float* scale_shared = reinterpret_cast<float*>(buf_dyn_shmem);                      // 384 B
  __nv_bfloat16* A_shared = reinterpret_cast<__nv_bfloat16*>(buf_dyn_shmem + 1024);  // 8 KiB
  if (threadIdx.x == 0) {
    tl::mbarrier_init(mbar[0], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  for (int i = threadIdx.x; i < 96; i += blockDim.x) scale_shared[i] = row_scale[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    tl::mbarrier_expect_tx_arrive(mbar[0], kRows * kCols * sizeof(__nv_bfloat16));
    tl::tma_load(A_desc, mbar[0], A_shared, 0, blockIdx.x * kRows);
  }
  tl::mbarrier_wait(mbar[0], 0);
  float s = 0.f;
  for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x)
    s += __bfloat162float(A_shared[i]) * scale_shared[(i / kCols) % 96];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  const int M = 8192;
  __nv_bfloat16* A = nullptr;
  float *scale = nullptr, *out = nullptr;
  cudaMalloc(&A, size_t(M) * kCols * sizeof(__nv_bfloat16));
  cudaMalloc(&scale, 96 * sizeof(float));
  cudaMalloc(&out, size_t(M / kRows) * 128 * sizeof(float));
  CUtensorMap A_desc;
  const cuuint64_t dims[2] = {kCols, uint64_t(M)};
  const cuuint64_t strides[1] = {kCols * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kCols, kRows};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&A_desc, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, A, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  const int smem = 1024 + kRows * kCols * sizeof(__nv_bfloat16);
  cudaFuncSetAttribute(main_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  main_kernel<<<M / kRows, 128, smem>>>(A_desc, scale, out);
  cudaDeviceSynchronize();
  return 0;
}
