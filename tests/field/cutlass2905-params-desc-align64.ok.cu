// SM120 blockwise-scaled mainloop shape: the kernel's Params struct carries
// the TMA descriptors as raw 128-byte blobs after a few scalars.  Fixed as
// proposed in cutlass#2905: the descriptor member is alignas(64), so it sits at
// a 64-byte boundary of the parameter block.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

struct alignas(64) TmaDescriptorBlob {
  uint64_t words[16];  // 128 bytes, copied from a CUtensorMap
};

struct MainloopParams {
  int k_tiles;
  float alpha;
  uint64_t scale_ptr;
  TmaDescriptorBlob tma_load_a;
};

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void __launch_bounds__(128)
sm120_blockwise_mainloop(const __grid_constant__ MainloopParams params, float* __restrict__ out) {
  __shared__ alignas(128) uint8_t smem_a[128 * 128];
  __shared__ alignas(8) uint64_t bar;
  const void* desc_a = &params.tma_load_a;
  if (threadIdx.x == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(desc_a) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < params.k_tiles; ++k) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)),
                   "r"(128 * 128)
                   : "memory");
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(smem_a)),
          "l"(desc_a), "r"(k * 128), "r"(int(blockIdx.x) * 128), "r"(sa(&bar))
          : "memory");
    }
    asm volatile(
        "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        " @!p bra W_%=;\n}\n" ::"r"(sa(&bar)),
        "r"(k & 1)
        : "memory");
    for (int i = threadIdx.x; i < 128 * 128; i += blockDim.x) acc += float(smem_a[i]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc * params.alpha;
}

int main() {
  const int M = 4096, K = 4096;
  uint8_t* a = nullptr;
  float* out = nullptr;
  cudaMalloc(&a, size_t(M) * K);
  cudaMalloc(&out, size_t(M / 128) * 128 * sizeof(float));
  CUtensorMap map;
  const cuuint64_t dims[2] = {uint64_t(K), uint64_t(M)};
  const cuuint64_t strides[1] = {uint64_t(K)};
  const cuuint32_t box[2] = {128, 128};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, a, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  MainloopParams params{};
  params.k_tiles = K / 128;
  params.alpha = 1.f;
  std::memcpy(&params.tma_load_a, &map, sizeof(map));
  sm120_blockwise_mainloop<<<M / 128, 128>>>(params, out);
  cudaDeviceSynchronize();
  return 0;
}
