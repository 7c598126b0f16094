// Cluster 2 x 1: CTA 0 pushes a 64 x 64 bf16 tile (8192 bytes) into CTA 1 with
// a DSMEM bulk copy that completes on CTA 1's barrier (mapa); CTA 1 expects
// 8192 bytes.
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

constexpr int kTile = 64 * 64;
constexpr uint32_t kTileBytes = kTile * 2;  // 8192

__device__ __forceinline__ uint32_t map_to_rank(const void* p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(sa(p)), "r"(rank));
  return out;
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
push_to_peer(const __nv_bfloat16* __restrict__ x, float* __restrict__ y) {
  __shared__ alignas(128) __nv_bfloat16 src[kTile];
  __shared__ alignas(128) __nv_bfloat16 dst[kTile];
  __shared__ alignas(8) uint64_t recv;
  const uint32_t rank = cluster_ctarank();
  if (threadIdx.x == 0) init_bar(&recv);
  cluster_sync();
  if (rank == 1 && threadIdx.x == 0) arrive_expect(&recv, kTileBytes);
  if (rank == 0) {
    for (int i = threadIdx.x; i < kTile; i += blockDim.x) src[i] = x[blockIdx.x / 2 * kTile + i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0)
      asm volatile(
          "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
          ::"r"(map_to_rank(dst, 1)), "r"(sa(src)), "r"(kTileBytes), "r"(map_to_rank(&recv, 1))
          : "memory");
  } else {
    wait_parity(&recv, 0);
    float s = 0.f;
    for (int i = threadIdx.x; i < kTile; i += blockDim.x) s += __bfloat162float(dst[i]);
    atomicAdd(&y[blockIdx.x / 2], s);
  }
  cluster_sync();
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
  const int pairs = 66;
  __nv_bfloat16* x = nullptr;
  float* y = nullptr;
  cudaMalloc(&x, size_t(pairs) * kTileBytes);
  cudaMalloc(&y, pairs * sizeof(float));
  push_to_peer<<<2 * pairs, 128>>>(x, y);
  cudaDeviceSynchronize();
  return 0;
}
