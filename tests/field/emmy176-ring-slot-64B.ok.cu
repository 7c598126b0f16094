// Generated linear-reduce kernel (BK = 16, BM = 1, BN = 128, fp32): the
// materializer declares the TMA ring as a slice of dynamic shared memory
// sized from the box.  Fixed: every ring slot is padded to the TMA alignment
// (128 bytes), so slot 1 starts 128 bytes into the ring.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int BK = 16, BM = 1, BN = 128, STAGES = 2;
constexpr uint32_t kBoxBytes = BK * BM * sizeof(float);   // 64 bytes of data
constexpr uint32_t kSlotBytes = (kBoxBytes + 127) / 128 * 128;
constexpr uint32_t kSlotFloats = kSlotBytes / sizeof(float);  // 32 floats
constexpr uint32_t kHeaderBytes = 128;                    // mbarriers live here

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void __launch_bounds__(BN)
k_linear_reduce(const __grid_constant__ CUtensorMap x_map, const float* __restrict__ w,
                float* __restrict__ y, int K) {
  extern __shared__ __align__(128) unsigned char smem[];
  uint64_t* full = reinterpret_cast<uint64_t*>(smem);
  float* mul_smem = reinterpret_cast<float*>(smem + kHeaderBytes);
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc = 0.f;
  const int row = blockIdx.x;
  for (int kt = 0; kt < K / BK; ++kt) {
    const int s = kt % STAGES;
    float* slot = mul_smem + s * kSlotFloats;
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&full[s])),
                   "r"(kBoxBytes)
                   : "memory");
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(slot)),
          "l"(&x_map), "r"(kt * BK), "r"(row), "r"(sa(&full[s]))
          : "memory");
    }
    asm volatile(
        "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        " @!p bra W_%=;\n}\n" ::"r"(sa(&full[s])),
        "r"((kt / STAGES) & 1)
        : "memory");
    for (int k = 0; k < BK; ++k) acc += slot[k] * w[size_t(kt * BK + k) * BN + threadIdx.x];
    __syncthreads();
  }
  y[size_t(row) * BN + threadIdx.x] = acc;
}

int main() {
  const int M = 1024, K = 1024;
  float *x = nullptr, *w = nullptr, *y = nullptr;
  cudaMalloc(&x, size_t(M) * K * sizeof(float));
  cudaMalloc(&w, size_t(K) * BN * sizeof(float));
  cudaMalloc(&y, size_t(M) * BN * sizeof(float));
  CUtensorMap x_map;
  const cuuint64_t dims[2] = {uint64_t(K), uint64_t(M)};
  const cuuint64_t strides[1] = {uint64_t(K) * sizeof(float)};
  const cuuint32_t box[2] = {BK, BM};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&x_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, x, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  k_linear_reduce<<<M, BN, kHeaderBytes + STAGES * kSlotBytes>>>(x_map, w, y, K);
  cudaDeviceSynchronize();
  return 0;
}
