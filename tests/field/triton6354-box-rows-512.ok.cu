// Lowered shape of an autotuned Triton kernel that loads a (BLOCK_SIZE, 16)
// int32 block through a tensor descriptor.  The autotuner tries BLOCK_SIZE in
// {128, 256, 512}.  Fixed: configurations are limited to block shapes a TMA
// box can hold (every box dimension <= 256).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int BLOCK_SIZE>
__global__ void __launch_bounds__(128)
test_kernel(const __grid_constant__ CUtensorMap desc, int* __restrict__ matrix) {
  extern __shared__ __align__(1024) unsigned char smem[];
  int* data = reinterpret_cast<int*>(smem);
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar)),
                 "r"(BLOCK_SIZE * 16 * 4)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_u32(data)),
        "l"(&desc), "r"(0), "r"(0), "r"(smem_u32(&bar))
        : "memory");
  }
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
      " @!p bra W_%=;\n}\n" ::"r"(smem_u32(&bar))
      : "memory");
  for (int i = threadIdx.x; i < BLOCK_SIZE * 16; i += blockDim.x) matrix[i] += data[i] * 0;
}

template <int BLOCK_SIZE>
static bool bench_config(int* matrix, int n) {
  CUtensorMap desc;
  const cuuint64_t dims[2] = {uint64_t(n), uint64_t(n)};
  const cuuint64_t strides[1] = {uint64_t(n) * sizeof(int)};
  const cuuint32_t box[2] = {16, BLOCK_SIZE};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&desc, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, matrix, dims, strides, box,
                             es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return false;
  const int smem = BLOCK_SIZE * 16 * sizeof(int);
  cudaFuncSetAttribute(test_kernel<BLOCK_SIZE>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  test_kernel<BLOCK_SIZE><<<1, 128, smem>>>(desc, matrix);
  return cudaDeviceSynchronize() == cudaSuccess;
}

int main() {
  const int n = 4096;
  int* matrix = nullptr;
  cudaMalloc(&matrix, size_t(n) * n * sizeof(int));
  // autotune_config = [Config(BLOCK_SIZE=2**k) for k in range(7, 9)]
  bool ok = bench_config<128>(matrix, n);
  ok = bench_config<256>(matrix, n) && ok;
  return ok ? 0 : 1;
}
