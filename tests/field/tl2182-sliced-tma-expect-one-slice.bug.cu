// TileLang bulk-copy lowering of a 128-wide K tile under SWIZZLE_128B: the
// descriptor's inner box is clamped to the 128-byte swizzle span (64 bf16),
// so the copy becomes two TMA instructions per stage (k and k + 64).  The
// transaction count is computed from the per-instruction box only, so the
// barrier expects 16384 bytes while 32768 arrive: the phase can flip after
// the first slice and the consumer reads the second half too early.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kBlockM = 128, kBlockK = 128, kInstK = 64, kStages = 2;
constexpr uint32_t kSliceBytes = kBlockM * kInstK * sizeof(__nv_bfloat16);  // 16384

namespace tl {
__device__ __forceinline__ uint32_t s(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void tma_load(const CUtensorMap& desc, uint64_t& bar, void* dst, int c0,
                                         int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(s(dst)),
      "l"(&desc), "r"(s(&bar)), "r"(c0), "r"(c1)
      : "memory");
}
__device__ __forceinline__ void mbarrier_expect_tx_arrive(uint64_t& bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(s(&bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_wait(uint64_t& bar, int parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(s(&bar)),
      "r"(parity)
      : "memory");
}
}  // namespace tl

__global__ void __launch_bounds__(256)
gemm_a_stream(const __grid_constant__ CUtensorMap A_desc, float* __restrict__ C, int K) {
  extern __shared__ __align__(1024) unsigned char buf_dyn_shmem[];
  auto* A_shared = reinterpret_cast<__nv_bfloat16*>(buf_dyn_shmem);  // [stages][2][128][64]
  __shared__ alignas(8) uint64_t full[kStages];
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(tl::s(&full[i])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0.f;
  for (int ko = 0; ko < K / kBlockK; ++ko) {
    const int stage = ko % kStages;
    __nv_bfloat16* dst = A_shared + stage * kBlockM * kBlockK;
    if (threadIdx.x == 0) {
      tl::mbarrier_expect_tx_arrive(full[stage], kSliceBytes);
      tl::tma_load(A_desc, full[stage], dst, ko * kBlockK, blockIdx.x * kBlockM);
      tl::tma_load(A_desc, full[stage], dst + kBlockM * kInstK, ko * kBlockK + kInstK,
                   blockIdx.x * kBlockM);
    }
    tl::mbarrier_wait(full[stage], (ko / kStages) & 1);
    for (int i = threadIdx.x; i < kBlockM * kBlockK; i += blockDim.x) acc += __bfloat162float(dst[i]);
    __syncthreads();
  }
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int M = 4096, K = 4096;
  __nv_bfloat16* A = nullptr;
  float* C = nullptr;
  cudaMalloc(&A, size_t(M) * K * sizeof(__nv_bfloat16));
  cudaMalloc(&C, size_t(M / kBlockM) * 256 * sizeof(float));
  CUtensorMap A_desc;
  const cuuint64_t dims[2] = {uint64_t(K), uint64_t(M)};
  const cuuint64_t strides[1] = {uint64_t(K) * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {kInstK, kBlockM};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&A_desc, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, A, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                             CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  const int smem = kStages * kBlockM * kBlockK * sizeof(__nv_bfloat16);
  cudaFuncSetAttribute(gemm_a_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  gemm_a_stream<<<M / kBlockM, 256, smem>>>(A_desc, C, K);
  cudaDeviceSynchronize();
  return 0;
}
