// TLX kernel after shared-memory allocation: the user allocated and
// initialised barrier A (an early handshake), then barrier B for the TMA
// pipeline in the same 8 bytes.  Fixed (TLX fixup pass): barrier A is
// invalidated with mbarrier.inval before its storage is initialised again.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

__device__ __forceinline__ uint32_t sa(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void init_barrier(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(b)), "r"(n));
}
__device__ __forceinline__ void barrier_expect(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void barrier_arrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sa(b)) : "memory");
}
__device__ __forceinline__ void barrier_wait(uint64_t* b, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(sa(b)),
      "r"(parity)
      : "memory");
}

constexpr int kRows = 64, kCols = 64;

__global__ void __launch_bounds__(128)
tlx_kernel(const __grid_constant__ CUtensorMap x_desc, float* __restrict__ y, int iters) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // Offsets chosen by the allocator: A and B share slot 0 (live ranges "disjoint").
  uint64_t* barrier_a = reinterpret_cast<uint64_t*>(smem + 0);
  uint64_t* barrier_b = reinterpret_cast<uint64_t*>(smem + 0);
  float* tile = reinterpret_cast<float*>(smem + 1024);

  if (threadIdx.x == 0) {
    init_barrier(barrier_a, blockDim.x);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  barrier_arrive(barrier_a);  // all threads: warm-up handshake
  barrier_wait(barrier_a, 0);

  __syncthreads();  // every thread is past its wait on A
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(sa(barrier_a)) : "memory");
    init_barrier(barrier_b, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    if (threadIdx.x == 0) {
      barrier_expect(barrier_b, kRows * kCols * sizeof(float));
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3}], [%4];" ::"r"(sa(tile)),
          "l"(&x_desc), "r"(0), "r"((blockIdx.x * iters + it) * kRows), "r"(sa(barrier_b))
          : "memory");
    }
    barrier_wait(barrier_b, it & 1);
    float s = 0.f;
    for (int i = threadIdx.x; i < kRows * kCols; i += blockDim.x) s += tile[i];
    y[(blockIdx.x * iters + it) * blockDim.x + threadIdx.x] = s;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
}

int main() {
  const int blocks = 132, iters = 8, M = blocks * iters * kRows;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, size_t(M) * kCols * sizeof(float));
  cudaMalloc(&y, size_t(blocks) * iters * 128 * sizeof(float));
  CUtensorMap x_desc;
  const cuuint64_t dims[2] = {kCols, uint64_t(M)};
  const cuuint64_t strides[1] = {kCols * sizeof(float)};
  const cuuint32_t box[2] = {kCols, kRows};
  const cuuint32_t es[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&x_desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, x, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  const int smem = 1024 + kRows * kCols * sizeof(float);
  cudaFuncSetAttribute(tlx_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  tlx_kernel<<<blocks, 128, smem>>>(x_desc, y, iters);
  cudaDeviceSynchronize();
  return 0;
}
