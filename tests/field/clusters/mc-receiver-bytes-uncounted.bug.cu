// Cluster 2 x 1: CTA 0 multicasts the B tile to both CTAs (mask 0x3); every CTA
// expects only its own A tile.  The multicast completes 8192 bytes on the
// barrier of both CTAs: 24576 arrive against 16384 expected in each.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}
__device__ __forceinline__ void init_bar(uint64_t* b) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(b)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void arrive_expect(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void wait_parity(uint64_t* b, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(sa(b)),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void load_2d(void* dst, const CUtensorMap* m, uint64_t* b, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(dst)),
      "l"(m), "r"(x), "r"(y), "r"(sa(b))
      : "memory");
}
__device__ __forceinline__ void load_2d_mc(void* dst, const CUtensorMap* m, uint64_t* b, int x, int y,
                                           uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(sa(dst)),
      "l"(m), "r"(x), "r"(y), "r"(sa(b)), "h"(mask)
      : "memory");
}

constexpr int BM = 128, BN = 64, BK = 64;
constexpr uint32_t kA = BM * BK * 2, kB = BN * BK * 2;  // 16384, 8192

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
gemm_mc_b(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
          float* __restrict__ c, int k_tiles) {
  __shared__ alignas(1024) __nv_bfloat16 sA[BM * BK];
  __shared__ alignas(1024) __nv_bfloat16 sB[BN * BK];
  __shared__ alignas(8) uint64_t full;
  const uint32_t rank = cluster_ctarank();
  if (threadIdx.x == 0) init_bar(&full);
  cluster_sync();
  float acc = 0.f;
  for (int k = 0; k < k_tiles; ++k) {
    if (threadIdx.x == 0) {
      arrive_expect(&full, kA);
      load_2d(sA, &a_map, &full, k * BK, blockIdx.x * BM);
      if (rank == 0) load_2d_mc(sB, &b_map, &full, k * BK, (blockIdx.x / 2) * BN, 0x3);
    }
    wait_parity(&full, k & 1);
    for (int i = threadIdx.x; i < BN * BK; i += blockDim.x)
      acc += __bfloat162float(sA[i]) * __bfloat162float(sB[i]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    cluster_sync();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static bool encode(CUtensorMap* m, void* base, uint64_t cols, uint64_t rows, uint32_t bc,
                   uint32_t br) {
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * 2};
  const cuuint32_t box[2] = {bc, br};
  const cuuint32_t es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims, strides, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main() {
  const int M = 1024, N = 512, K = 1024;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  cudaMalloc(&a, size_t(M) * K * 2);
  cudaMalloc(&b, size_t(N) * K * 2);
  cudaMalloc(&c, size_t(M / 128) * 128 * sizeof(float));
  CUtensorMap a_map, b_map;
  if (!encode(&a_map, a, K, M, 64, 128) || !encode(&b_map, b, K, N, 64, 64)) return 1;
  gemm_mc_b<<<M / 128, 128>>>(a_map, b_map, c, K / 64);
  cudaDeviceSynchronize();
  return 0;
}
