// 2-SM GEMM prologue on Blackwell: the two CTAs of a pair each load their
// 128 x 64 bf16 half of the A tile with a `.cta_group::2` TMA load whose
// barrier is the leader CTA's (`mapa` to rank & ~1), because the leader
// issues the pair's MMA.  The leader expects only the half it loads itself:
// its barrier completes while the peer's half is still in flight, and the
// surplus 16384 bytes roll into the next phase (the 2-CTA TMA barrier hang
// fixed in triton-lang/triton#9460 by counting on the lead CTA's barrier).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kHalfRows = 128, kCols = 64;
constexpr uint32_t kHalfBytes = kHalfRows * kCols * sizeof(__nv_bfloat16);  // 16384

__device__ __forceinline__ uint32_t cvta_smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t pair_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t remote_addr(const void* p, uint32_t cta) {
  uint32_t a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(cvta_smem(p)), "r"(cta));
  return a;
}
__device__ __forceinline__ void tma_load_2sm(void* dst, const CUtensorMap* map, uint32_t bar,
                                             int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".cta_group::2 [%0], [%1, {%3, %4}], [%2];" ::"r"(cvta_smem(dst)),
      "l"(map), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
gemm_2sm_prologue(const __grid_constant__ CUtensorMap map_a, float* out) {
  __shared__ alignas(1024) __nv_bfloat16 a_half[kHalfRows * kCols];
  __shared__ alignas(8) uint64_t full;
  const uint32_t rank = pair_rank();
  const uint32_t leader = rank & ~1u;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(cvta_smem(&full)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
  if (rank == leader && threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(cvta_smem(&full)),
                 "r"(kHalfBytes)
                 : "memory");
  if (threadIdx.x == 0)
    tma_load_2sm(a_half, &map_a, remote_addr(&full, leader), 0,
                 (blockIdx.x / 2) * 2 * kHalfRows + rank * kHalfRows);
  if (rank == leader) {
    asm volatile(
        "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
        " @!p bra W_%=;\n}\n" ::"r"(cvta_smem(&full))
        : "memory");
    if (threadIdx.x == 0) out[blockIdx.x / 2] = __bfloat162float(a_half[0]);
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

int main() {
  const uint64_t rows = 4096;
  __nv_bfloat16* a = nullptr;
  float* out = nullptr;
  cudaMalloc(&a, rows * kCols * sizeof(__nv_bfloat16));
  cudaMalloc(&out, 64 * sizeof(float));
  CUtensorMap map_a;
  const cuuint64_t dims[2] = {kCols, rows};
  const cuuint64_t strides[1] = {kCols * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kCols, kHalfRows};
  const cuuint32_t estr[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&map_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box,
                             estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  gemm_2sm_prologue<<<2 * 16, 128>>>(map_a, out);
  cudaDeviceSynchronize();
  return 0;
}
