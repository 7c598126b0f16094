// KDA chunk forward epilogue (cuLA style, cde wrappers): the two math warpgroups
// write the bf16 output chunk (64 x 128) from registers into shared memory,
// meet at a named barrier of the 256 math threads, and one thread stores the
// chunk with a 2-D TMA store.  Fixed: every writer fences the async proxy
// before the named barrier.
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace cde = cuda::device::experimental;

constexpr int kChunk = 64, kHeadDim = 128;
constexpr int kMathThreads = 256;

__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__global__ void __launch_bounds__(kMathThreads + 128)
kda_fwd_chunk_epilogue(const __grid_constant__ CUtensorMap o_map, const float* __restrict__ acc_in,
                       int num_chunks) {
  __shared__ alignas(128) __nv_bfloat16 o_smem[kChunk * kHeadDim];
  const int tid = threadIdx.x;
  if (tid >= kMathThreads) return;  // producer warpgroup has left

  for (int c = blockIdx.x; c < num_chunks; c += gridDim.x) {
    // acc -> bf16 -> smem, 32 elements per math thread.
    for (int i = tid; i < kChunk * kHeadDim; i += kMathThreads)
      o_smem[i] = __float2bfloat16(acc_in[size_t(c) * kChunk * kHeadDim + i]);
    cde::fence_proxy_async_shared_cta();
    named_barrier_sync(1, kMathThreads);
    if (tid == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&o_map, 0, c * kChunk, o_smem);
      cde::cp_async_bulk_commit_group();
      cde::cp_async_bulk_wait_group_read<0>();
    }
    named_barrier_sync(1, kMathThreads);
  }
}

int main() {
  const int num_chunks = 512;
  float* acc = nullptr;
  __nv_bfloat16* o = nullptr;
  cudaMalloc(&acc, size_t(num_chunks) * kChunk * kHeadDim * sizeof(float));
  cudaMalloc(&o, size_t(num_chunks) * kChunk * kHeadDim * sizeof(__nv_bfloat16));
  CUtensorMap o_map;
  const cuuint64_t dims[2] = {kHeadDim, uint64_t(num_chunks) * kChunk};
  const cuuint64_t strides[1] = {kHeadDim * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kHeadDim, kChunk};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&o_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, o, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  kda_fwd_chunk_epilogue<<<132, kMathThreads + 128>>>(o_map, acc, num_chunks);
  cudaDeviceSynchronize();
  return 0;
}
