// Cluster of 4 in a ring: every CTA forwards its 32 x 64 fp32 slab (8192
// bytes) to the next CTA, (rank + 1) % 4, with a DSMEM bulk copy that
// completes on the receiver's barrier.  The forwarding partition has 4 warps
// and elects one thread in warp 0 only: each receiver gets the slab once,
// as its single expect-tx counts (the fix of facebookexperimental/triton
// #1538).
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kElems = 32 * 64;
constexpr uint32_t kSlabBytes = kElems * sizeof(float);  // 8192
constexpr int kCluster = 4;

__device__ __forceinline__ uint32_t to_smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t my_rank() {
  uint32_t v;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v));
  return v;
}
__device__ __forceinline__ uint32_t in_cta(const void* p, uint32_t cta) {
  uint32_t v;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(v) : "r"(to_smem(p)), "r"(cta));
  return v;
}
__device__ __forceinline__ bool elect_lane() {
  uint32_t is_leader = 0;
  asm volatile("{\n .reg .pred q;\n elect.sync _|q, 0xffffffff;\n selp.u32 %0, 1, 0, q;\n}\n"
               : "=r"(is_leader));
  return is_leader == 1;
}
__device__ __forceinline__ void sync_cluster() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

__global__ void __cluster_dims__(kCluster, 1, 1) __launch_bounds__(128)
ring_forward(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ alignas(128) float mine[kElems];
  __shared__ alignas(128) float inbox[kElems];
  __shared__ alignas(8) uint64_t inbox_full;
  const uint32_t rank = my_rank();
  const uint32_t next = (rank + 1) % kCluster;

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(to_smem(&inbox_full)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  for (int i = threadIdx.x; i < kElems; i += blockDim.x) mine[i] = in[blockIdx.x * kElems + i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  sync_cluster();

  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 _, [%0], %1;" ::"r"(
                     to_smem(&inbox_full)),
                 "r"(kSlabBytes)
                 : "memory");
  if (threadIdx.x < 32 && elect_lane())
    asm volatile(
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(in_cta(inbox, next)),
        "r"(to_smem(mine)), "r"(kSlabBytes), "r"(in_cta(&inbox_full, next))
        : "memory");

  asm volatile(
      "{\n .reg .pred done;\n L_%=:\n"
      " mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], 0;\n"
      " @!done bra L_%=;\n}\n" ::"r"(to_smem(&inbox_full))
      : "memory");
  for (int i = threadIdx.x; i < kElems; i += blockDim.x) out[blockIdx.x * kElems + i] = inbox[i];
  sync_cluster();
}

int main() {
  const int ctas = 33 * kCluster;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, size_t(ctas) * kSlabBytes);
  cudaMalloc(&out, size_t(ctas) * kSlabBytes);
  ring_forward<<<ctas, 128>>>(in, out);
  cudaDeviceSynchronize();
  cudaFree(out);
  cudaFree(in);
  return 0;
}
