// Low-latency dispatch receive path with TMA (DeepEP PR 293 shape): one warp
// per expert pulls each received token row (7168 bf16 = 14336 bytes) from the
// NVLink buffer into shared memory with a 1-D bulk copy.  Lane 0 posts the
// byte count with mbarrier.expect_tx and issues the copy; then every lane of
// the warp arrives.  The barrier was initialised with an arrival count of 1,
// so the phase can complete with the first arrival, before the bytes land,
// and the 31 other arrivals spill into the following phases.
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kHidden = 7168;
constexpr uint32_t kRowBytes = kHidden * 2;

__device__ __forceinline__ uint32_t smem_ptr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarrier_init(uint64_t* b, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_ptr(b)), "r"(count));
}
__device__ __forceinline__ void mbarrier_expect_tx(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_ptr(b)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_ptr(b)) : "memory");
}
__device__ __forceinline__ void mbarrier_wait(uint64_t* b, uint32_t& phase) {
  asm volatile(
      "{\n .reg .pred p;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra W_%=;\n}\n" ::"r"(smem_ptr(b)),
      "r"(phase)
      : "memory");
  phase ^= 1;
}
__device__ __forceinline__ void tma_load_1d(void* dst, const void* src, uint64_t* b, uint32_t n) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          smem_ptr(dst)),
      "l"(src), "r"(n), "r"(smem_ptr(b))
      : "memory");
}

__global__ void __launch_bounds__(32)
ll_dispatch_recv(const int4* __restrict__ recv_buf, float* __restrict__ out, int num_tokens) {
  __shared__ alignas(128) int4 row[kRowBytes / sizeof(int4)];
  __shared__ alignas(8) uint64_t bar;
  const int lane_id = threadIdx.x % 32;
  if (lane_id == 0) {
    mbarrier_init(&bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  uint32_t phase = 0;
  for (int t = 0; t < num_tokens; ++t) {
    if (lane_id == 0) {
      mbarrier_expect_tx(&bar, kRowBytes);
      tma_load_1d(row, recv_buf + size_t(blockIdx.x * num_tokens + t) * (kRowBytes / 16), &bar,
                  kRowBytes);
    }
    __syncwarp();
    mbarrier_arrive(&bar);
    mbarrier_wait(&bar, phase);
    float s = 0.f;
    for (int i = lane_id; i < int(kRowBytes / 16); i += 32) s += float(row[i].x);
    out[blockIdx.x * num_tokens + t] = s;
    __syncwarp();
  }
}

int main() {
  const int experts = 32, tokens = 128;
  int4* recv = nullptr;
  float* out = nullptr;
  cudaMalloc(&recv, size_t(experts) * tokens * kRowBytes);
  cudaMalloc(&out, experts * tokens * sizeof(float));
  ll_dispatch_recv<<<experts, 32>>>(recv, out, tokens);
  cudaDeviceSynchronize();
  return 0;
}
