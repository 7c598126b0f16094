// TileLang on an RTX 5090 (sm_120): the 1024-byte alignment of TMA buffers was
// only applied for Hopper targets, so on Blackwell the merged allocation packs
// the two 128B-swizzled operand tiles at 128-byte granules.  Fixed
// (tilelang#2134): every target with bulk copies gets the 1024-byte alignment,
// so B starts at 3072, the next swizzle-atom boundary after the bias vector.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kM = 16, kN = 16, kK = 64;
constexpr uint32_t kABytes = kM * kK * 2, kBBytes = kN * kK * 2;  // 2048 each
constexpr uint32_t kBiasBytes = 128;
constexpr uint32_t kOffA = 0;
constexpr uint32_t kOffBias = kOffA + kABytes;        // 2048
constexpr uint32_t kOffB = (kOffBias + kBiasBytes + 1023) / 1024 * 1024;  // 3072

__device__ __forceinline__ uint32_t sp(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void load_2d(const CUtensorMap* m, void* dst, uint64_t* bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(sp(dst)),
      "l"(m), "r"(x), "r"(y), "r"(sp(bar))
      : "memory");
}

__global__ void __launch_bounds__(128)
gemm_kernel(const __grid_constant__ CUtensorMap A_desc, const __grid_constant__ CUtensorMap B_desc,
            const half* __restrict__ bias, float* __restrict__ C, int K) {
  extern __shared__ __align__(1024) unsigned char buf_dyn_shmem[];
  __shared__ alignas(8) uint64_t bar;
  half* A_shared = reinterpret_cast<half*>(buf_dyn_shmem + kOffA);
  half* bias_shared = reinterpret_cast<half*>(buf_dyn_shmem + kOffBias);
  half* B_shared = reinterpret_cast<half*>(buf_dyn_shmem + kOffB);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sp(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (threadIdx.x < kN) bias_shared[threadIdx.x] = bias[blockIdx.y * kN + threadIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < K / kK; ++k) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sp(&bar)),
                   "r"(kABytes + kBBytes)
                   : "memory");
      load_2d(&A_desc, A_shared, &bar, k * kK, blockIdx.x * kM);
      load_2d(&B_desc, B_shared, &bar, k * kK, blockIdx.y * kN);
    }
    asm volatile(
        "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        " @!p bra W_%=;\n}\n" ::"r"(sp(&bar)),
        "r"(k & 1)
        : "memory");
    for (int i = threadIdx.x; i < kM * kN; i += blockDim.x)
      for (int kk = 0; kk < kK; ++kk)
        acc += __half2float(A_shared[(i / kN) * kK + kk]) * __half2float(B_shared[(i % kN) * kK + kk]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
  C[(blockIdx.x * gridDim.y + blockIdx.y) * blockDim.x + threadIdx.x] =
      acc + __half2float(bias_shared[threadIdx.x % kN]);
}

static bool encode(CUtensorMap* m, half* base, int rows, int K, int box_rows) {
  const cuuint64_t dims[2] = {uint64_t(K), uint64_t(rows)};
  const cuuint64_t strides[1] = {uint64_t(K) * sizeof(half)};
  const cuuint32_t box[2] = {kK, cuuint32_t(box_rows)};
  const cuuint32_t es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, strides, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main() {
  const int M = 256, N = 256, K = 512;
  half *A = nullptr, *B = nullptr, *bias = nullptr;
  float* C = nullptr;
  cudaMalloc(&A, size_t(M) * K * sizeof(half));
  cudaMalloc(&B, size_t(N) * K * sizeof(half));
  cudaMalloc(&bias, N * sizeof(half));
  cudaMalloc(&C, size_t(M / kM) * (N / kN) * 128 * sizeof(float));
  CUtensorMap A_desc, B_desc;
  if (!encode(&A_desc, A, M, K, kM) || !encode(&B_desc, B, N, K, kN)) return 1;
  gemm_kernel<<<dim3(M / kM, N / kN), 128, kOffB + kBBytes>>>(A_desc, B_desc, bias, C, K);
  cudaDeviceSynchronize();
  return 0;
}
