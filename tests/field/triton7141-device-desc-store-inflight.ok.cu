// Triton device-side tensor descriptor for a pipelined TMA store (grouped
// output: each group writes to its own base pointer).  Warp 0 rewrites the
// one global-memory descriptor slot of its CTA for every group and issues the
// store through it.  Fixed (triton#7141): before the rewrite the issuing thread
// waits for the previous store to complete (wait_group 0, not .read).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kRows = 64, kCols = 64;

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void __launch_bounds__(128)
grouped_store(const __grid_constant__ CUtensorMap out_tmpl, CUtensorMap* __restrict__ workspace,
              float* const* __restrict__ group_out, const float* __restrict__ src, int groups) {
  __shared__ alignas(128) CUtensorMap tmp;
  __shared__ alignas(128) float tile[kRows * kCols];
  CUtensorMap* gdesc = workspace + blockIdx.x;
  const int warp = threadIdx.x / 32;
  for (int g = 0; g < groups; ++g) {
    // The previous group's store: its source tile and its descriptor are reused below.
    if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x)
      tile[i] = src[(size_t(g) * gridDim.x + blockIdx.x) * kRows * kCols + i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (warp == 0) {
      // Rebuild this CTA's descriptor for group g from the template.
      if (threadIdx.x < 32)
        reinterpret_cast<uint32_t*>(&tmp)[threadIdx.x] =
            reinterpret_cast<const uint32_t*>(&out_tmpl)[threadIdx.x];
      __syncwarp();
      if (threadIdx.x == 0)
        asm volatile(
            "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(sa(&tmp)),
            "l"(reinterpret_cast<uint64_t>(group_out[g]))
            : "memory");
      __syncwarp();
      asm volatile(
          "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
          " [%0], [%1], 128;" ::"l"(gdesc),
          "r"(sa(&tmp))
          : "memory");
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gdesc) : "memory");
      if (threadIdx.x == 0) {
        asm volatile(
            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(gdesc),
            "r"(sa(tile)), "r"(0), "r"(int(blockIdx.x) * kRows)
            : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

int main() {
  const int groups = 8, blocks = 64;
  float* src = nullptr;
  float** group_out = nullptr;
  CUtensorMap* workspace = nullptr;
  cudaMalloc(&src, size_t(groups) * blocks * kRows * kCols * sizeof(float));
  cudaMalloc(&group_out, groups * sizeof(float*));
  cudaMalloc(&workspace, blocks * sizeof(CUtensorMap));
  float* first = nullptr;
  cudaMalloc(&first, size_t(blocks) * kRows * kCols * sizeof(float));
  CUtensorMap out_tmpl;
  const cuuint64_t dims[2] = {kCols, uint64_t(blocks) * kRows};
  const cuuint64_t strides[1] = {kCols * sizeof(float)};
  const cuuint32_t box[2] = {kCols, kRows};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&out_tmpl, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, first, dims, strides, box,
                             es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  grouped_store<<<blocks, 128>>>(out_tmpl, workspace, group_out, src, groups);
  cudaDeviceSynchronize();
  return 0;
}
