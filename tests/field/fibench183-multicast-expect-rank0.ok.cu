// Cluster matmul skill (2 x 1 cluster): each CTA loads its own A tile, CTA 0
// multicasts the shared B tile to both CTAs.  Fixed as the review asked: the
// multicast completes its bytes on the barrier at the same offset in every
// destination CTA, so every CTA in the mask expects A + B bytes.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int TILE_M = 128, TILE_N = 64, TILE_K = 64;
constexpr uint32_t kBytesA = TILE_M * TILE_K * sizeof(__nv_bfloat16);  // 16384
constexpr uint32_t kBytesB = TILE_K * TILE_N * sizeof(__nv_bfloat16);  // 8192

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cta_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_wait(uint64_t* b, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(sa(b)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* m, uint64_t* b, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(dst)),
      "l"(m), "r"(x), "r"(y), "r"(sa(b))
      : "memory");
}
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* m, uint64_t* b,
                                                      int x, int y, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(sa(dst)),
      "l"(m), "r"(x), "r"(y), "r"(sa(b)), "h"(mask)
      : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
matmul_cluster(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
               float* __restrict__ c, int K) {
  __shared__ alignas(1024) __nv_bfloat16 sA[TILE_M * TILE_K];
  __shared__ alignas(1024) __nv_bfloat16 sB[TILE_K * TILE_N];
  __shared__ alignas(8) uint64_t load_bar;
  const uint32_t cta = cta_rank();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&load_bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  float acc = 0.f;
  for (int k = 0; k < K / TILE_K; k++) {
    if (threadIdx.x == 0) {
      const uint32_t load_bytes = kBytesA + kBytesB;
      mbarrier_arrive_expect_tx(&load_bar, load_bytes);
      tma_load_2d(sA, &a_map, &load_bar, k * TILE_K, blockIdx.x * TILE_M);
      if (cta == 0)
        tma_load_2d_multicast(sB, &b_map, &load_bar, (blockIdx.x / 2) * TILE_N, k * TILE_K, 0x3);
    }
    mbarrier_wait(&load_bar, k & 1);
    for (int i = threadIdx.x; i < TILE_K * TILE_N; i += blockDim.x)
      acc += __bfloat162float(sA[i % (TILE_M * TILE_K)]) * __bfloat162float(sB[i]);
    cluster_sync();  // both CTAs done with sB before CTA 0 multicasts the next tile
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int M = 1024, N = 512, K = 1024;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  cudaMalloc(&a, size_t(M) * K * sizeof(__nv_bfloat16));
  cudaMalloc(&b, size_t(K) * N * sizeof(__nv_bfloat16));
  cudaMalloc(&c, size_t(M / TILE_M) * 128 * sizeof(float));
  CUtensorMap a_map, b_map;
  const cuuint32_t es[2] = {1, 1};
  {
    const cuuint64_t dims[2] = {uint64_t(K), uint64_t(M)};
    const cuuint64_t strides[1] = {uint64_t(K) * sizeof(__nv_bfloat16)};
    const cuuint32_t box[2] = {TILE_K, TILE_M};
    if (cuTensorMapEncodeTiled(&a_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box,
                               es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
      return 1;
  }
  {
    const cuuint64_t dims[2] = {uint64_t(N), uint64_t(K)};
    const cuuint64_t strides[1] = {uint64_t(N) * sizeof(__nv_bfloat16)};
    const cuuint32_t box[2] = {TILE_N, TILE_K};
    if (cuTensorMapEncodeTiled(&b_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, b, dims, strides, box,
                               es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
      return 1;
  }
  matmul_cluster<<<M / TILE_M, 128>>>(a_map, b_map, c, K);
  cudaDeviceSynchronize();
  return 0;
}
