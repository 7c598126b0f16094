// Triton-generated kernel (cuda::ptx spelling): the shared-memory allocator
// reuses the bytes of the pipeline's mbarriers for the epilogue's staging
// buffer once the main loop is over.  Fixed (triton#3858): the barriers are
// invalidated after their last use, before the bytes are reused.
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>

namespace ptx = cuda::ptx;

constexpr int kStages = 2, kRows = 32, kCols = 32;
constexpr uint32_t kTileBytes = kRows * kCols * sizeof(float);

__global__ void __launch_bounds__(128)
matmul_kernel(const __grid_constant__ CUtensorMap a_desc, float* __restrict__ c, int k_tiles) {
  extern __shared__ __align__(128) unsigned char global_smem[];
  // Allocation: [0, 128) barriers (main loop) and, after it, the epilogue scratch;
  // [128, 128 + 2 * 4096) the A ring.
  uint64_t* bars = reinterpret_cast<uint64_t*>(global_smem);
  float* epilogue = reinterpret_cast<float*>(global_smem);
  float* ring = reinterpret_cast<float*>(global_smem + 128);

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&bars[s], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < k_tiles; ++k) {
    const int s = k % kStages;
    float* stage = ring + s * kRows * kCols;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bars[s],
                                     uint32_t{kTileBytes});
      const int32_t coords[2] = {k * kCols, int32_t(blockIdx.x) * kRows};
      ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stage, &a_desc, coords,
                                &bars[s]);
    }
    while (!ptx::mbarrier_try_wait_parity(&bars[s], (k / kStages) & 1)) {
    }
    for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x) acc += stage[i];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int s = 0; s < kStages; ++s)
      asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(
                       static_cast<uint32_t>(__cvta_generic_to_shared(&bars[s])))
                   : "memory");
  __syncthreads();
  // Epilogue: reduce the per-thread sums through the (reused) scratch.
  epilogue[threadIdx.x % 32] = 0.f;
  __syncthreads();
  atomicAdd(&epilogue[threadIdx.x % 32], acc);
  __syncthreads();
  if (threadIdx.x < 32) c[blockIdx.x * 32 + threadIdx.x] = epilogue[threadIdx.x];
}

int main() {
  const int M = 4096, K = 1024;
  float *a = nullptr, *c = nullptr;
  cudaMalloc(&a, size_t(M) * K * sizeof(float));
  cudaMalloc(&c, size_t(M / kRows) * 32 * sizeof(float));
  CUtensorMap a_desc;
  const cuuint64_t dims[2] = {uint64_t(K), uint64_t(M)};
  const cuuint64_t strides[1] = {uint64_t(K) * sizeof(float)};
  const cuuint32_t box[2] = {kCols, kRows};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&a_desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, a, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  matmul_kernel<<<M / kRows, 128, 128 + kStages * kTileBytes>>>(a_desc, c, K / kCols);
  cudaDeviceSynchronize();
  return 0;
}
