// Persistent SM90 GEMM with two-way A multicast (cluster 2 x 1): the leader
// CTA multicasts each A stage to itself and its peer.  The output staging tile
// of the epilogue shares a union with the A stages.  Before the next output
// tile the leader only waits for its own epilogue (__syncthreads) and then
// multicasts new A data, which also overwrites the peer's union while the
// peer's epilogue is still reading it: receiver-only corruption on rank 1.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kBM = 128, kBK = 64, kBN = 128;
constexpr uint32_t kABytes = kBM * kBK * sizeof(__nv_bfloat16);  // 16384

struct SharedStorage {
  union {
    alignas(1024) __nv_bfloat16 a[kBM * kBK];
    alignas(1024) __nv_bfloat16 epi[kBM * kBK];
  } u;
  alignas(8) uint64_t full;
};

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_arrive_wait() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}
__device__ __forceinline__ void wait_parity(uint64_t* b, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(sa(b)),
      "r"(parity)
      : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
gemm_mc_a(const __grid_constant__ CUtensorMap a_map, __nv_bfloat16* __restrict__ d, int tiles) {
  __shared__ SharedStorage smem;
  const uint32_t rank = cluster_rank();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&smem.full)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_arrive_wait();
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&smem.full)),
                   "r"(kABytes)
                   : "memory");
      if (rank == 0)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
            ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(sa(smem.u.a)),
            "l"(&a_map), "r"(0), "r"((blockIdx.x / 2 * tiles + t) * kBM), "r"(sa(&smem.full)),
            "h"(uint16_t(0x3))
            : "memory");
    }
    wait_parity(&smem.full, t & 1);
    float acc = 0.f;
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x) acc += __bfloat162float(smem.u.a[i]);
    __syncthreads();
    // Epilogue: stage the output row block in the union, then write it out.
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x)
      smem.u.epi[i] = __float2bfloat16(acc + float(i));
    __syncthreads();
    for (int i = threadIdx.x; i < kBM * kBK; i += blockDim.x)
      d[(size_t(blockIdx.x) * tiles + t) * kBM * kBK + i] = smem.u.epi[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic reads before TMA writes
    __syncthreads();  // local epilogue done; the peer's may not be
  }
  cluster_arrive_wait();
}

int main() {
  const int tiles = 16, clusters = 66, M = clusters * tiles * kBM;
  __nv_bfloat16 *a = nullptr, *d = nullptr;
  cudaMalloc(&a, size_t(M) * kBK * sizeof(__nv_bfloat16));
  cudaMalloc(&d, size_t(2 * clusters) * tiles * kBM * kBK * sizeof(__nv_bfloat16));
  CUtensorMap a_map;
  const cuuint64_t dims[2] = {kBK, uint64_t(M)};
  const cuuint64_t strides[1] = {kBK * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kBK, kBM};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&a_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  gemm_mc_a<<<2 * clusters, 128>>>(a_map, d, tiles);
  cudaDeviceSynchronize();
  (void)kBN;
  return 0;
}
