// Each of the 4 warps elects one lane that copies its 4096-byte chunk of the
// stage (elect.sync with no warp guard); thread 0 expects one chunk: 16384
// bytes arrive against 4096.  The kernel runs in a 2-CTA cluster.
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

constexpr int kWarps = 4;
constexpr uint32_t kChunk = 4096;

__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, 0xffffffff;\n selp.b32 %0, 1, 0, P;\n}\n"
               : "=r"(pred));
  return pred != 0;
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(kWarps * 32)
per_warp_chunks(const uint8_t* __restrict__ src, float* __restrict__ out, int tiles) {
  __shared__ alignas(128) uint8_t buf[kWarps * kChunk];
  __shared__ alignas(8) uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) init_bar(&full);
  cluster_sync();
  float s = 0.f;
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0) arrive_expect(&full, kChunk);
    __syncwarp();
    if (elect_one())
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
          ::"r"(sa(buf + warp * kChunk)),
          "l"(src + (size_t(blockIdx.x) * tiles + t) * kWarps * kChunk + warp * kChunk),
          "r"(kChunk), "r"(sa(&full))
          : "memory");
    wait_parity(&full, t & 1);
    for (int i = threadIdx.x; i < int(kWarps * kChunk); i += blockDim.x) s += float(buf[i]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
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
  const int blocks = 132, tiles = 16;
  uint8_t* src = nullptr;
  float* out = nullptr;
  cudaMalloc(&src, size_t(blocks) * tiles * kWarps * kChunk);
  cudaMalloc(&out, blocks * kWarps * 32 * sizeof(float));
  per_warp_chunks<<<blocks, kWarps * 32>>>(src, out, tiles);
  cudaDeviceSynchronize();
  return 0;
}
