// What the Triton pipeliner emitted for a rank-1 tensor-descriptor load of
// XBLOCK = 4 fp32 inside a tl.range loop with num_stages = 3: a 3-slot ring
// <3x4xf32> in shared memory, one TMA load per iteration into slot it % 3.
// Each slot is 16 bytes, so slots 1 and 2 are not 128-byte aligned and the
// loads fault with CUDA_ERROR_MISALIGNED_ADDRESS.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

constexpr int XBLOCK = 4;
constexpr int NUM_STAGES = 3;
constexpr uint32_t kStageBytes = XBLOCK * sizeof(float);

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void tma_load_1d(void* dst, const CUtensorMap* desc, int x, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2}], [%3];" ::"r"(smem_u32(dst)),
      "l"(desc), "r"(x), "r"(smem_u32(bar))
      : "memory");
}
__device__ __forceinline__ void expect_bytes(uint64_t* bar, uint32_t n) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(n)
               : "memory");
}
__device__ __forceinline__ void wait_phase(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
}

__global__ void __launch_bounds__(128)
kernel_iv_based(const __grid_constant__ CUtensorMap in_desc, float* __restrict__ out_ptr, int xnumel,
                int rsplit_size) {
  __shared__ alignas(128) float ring[NUM_STAGES][XBLOCK];
  __shared__ alignas(8) uint64_t bars[NUM_STAGES];
  if (threadIdx.x == 0) {
    for (int s = 0; s < NUM_STAGES; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bars[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const int xoffset = blockIdx.x * rsplit_size;
  const int split = min(rsplit_size, xnumel - xoffset);
  const int iters = split / XBLOCK;
  for (int it = 0; it < iters; ++it) {
    const int s = it % NUM_STAGES;
    if (threadIdx.x == 0) {
      expect_bytes(&bars[s], kStageBytes);
      tma_load_1d(ring[s], &in_desc, xoffset + it * XBLOCK, &bars[s]);
    }
    wait_phase(&bars[s], (it / NUM_STAGES) & 1);
    if (threadIdx.x < XBLOCK) out_ptr[xoffset + it * XBLOCK + threadIdx.x] = ring[s][threadIdx.x];
    __syncthreads();
  }
}

int main() {
  const int xnumel = 1 << 20, rsplit = 4096;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, xnumel * sizeof(float));
  cudaMalloc(&out, xnumel * sizeof(float));
  CUtensorMap in_desc;
  const cuuint64_t dims[1] = {uint64_t(xnumel)};
  const cuuint64_t strides[1] = {uint64_t(xnumel) * sizeof(float)};
  const cuuint32_t box[1] = {XBLOCK};
  const cuuint32_t es[1] = {1};
  if (cuTensorMapEncodeTiled(&in_desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, in, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  kernel_iv_based<<<xnumel / rsplit, 128>>>(in_desc, out, xnumel, rsplit);
  cudaDeviceSynchronize();
  return 0;
}
