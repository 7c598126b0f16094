// nvFuser TMA-store test kernel: each CTA fills an 8-element half tile in
// shared memory with generic stores (zero, then a predicated copy of the
// input), and thread 0 writes it out with a 1-D bulk tensor store, commits and
// waits.  Nothing orders the generic writes before the async-proxy read.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace Hopper {
struct CpAsyncBulkTensorTileS2GIndex1 {
  const CUtensorMap* descriptor;
  int crd0;
};
__device__ inline uint32_t toSmem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void cpAsyncBulkTensorTileS2G(const CpAsyncBulkTensorTileS2GIndex1& dest,
                                                uint32_t smem_addr) {
  asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%2}], [%1];"
               :
               : "l"(dest.descriptor), "r"(smem_addr), "r"(dest.crd0)
               : "memory");
}
}  // namespace Hopper

constexpr int kElems = 8;  // 16 bytes of half

__global__ void nvfuser_none_f0_c0_r0_g0(const __half* T0, int64_t T0_size,
                                         const __grid_constant__ CUtensorMap var0) {
  alignas(128) extern __shared__ char array[];
  const unsigned smem_offset = 0;
  const int64_t i1 = 8LL * blockIdx.x;
  const int64_t i2 = -T0_size + i1;
  __half* T1 = reinterpret_cast<__half*>(array + smem_offset + 0);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int i3 = 0; i3 < kElems; ++i3) T1[i3] = __float2half(0.f);
#pragma unroll
    for (int i3 = 0; i3 < kElems; ++i3)
      if (i2 < -i3) T1[i3] = T0[i1 + i3];
    Hopper::cpAsyncBulkTensorTileS2G({&var0, static_cast<int>(i1)}, Hopper::toSmem(T1));
    asm volatile("cp.async.bulk.commit_group;\n");
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(0LL) : "memory");
  }
}

int main() {
  const int64_t n = 1 << 20;
  __half *T0 = nullptr, *T2 = nullptr;
  cudaMalloc(&T0, n * sizeof(__half));
  cudaMalloc(&T2, n * sizeof(__half));
  CUtensorMap var0;
  const cuuint64_t dims[1] = {uint64_t(n)};
  const cuuint64_t strides[1] = {n * sizeof(__half)};
  const cuuint32_t box[1] = {kElems};
  const cuuint32_t es[1] = {1};
  if (cuTensorMapEncodeTiled(&var0, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 1, T2, dims, strides, box, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return 1;
  nvfuser_none_f0_c0_r0_g0<<<n / kElems, 32, 128>>>(T0, n, var0);
  cudaDeviceSynchronize();
  return 0;
}
