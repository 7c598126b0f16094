// Split-K reduction in a cluster of 2: CTA 1 pushes its 64 x 64 fp32 partial
// tile (16384 bytes) into CTA 0's shared memory with a DSMEM bulk copy that
// completes on CTA 0's barrier, then arrives with expect-tx on the barrier
// of the receiver.  Here the arrive.expect_tx takes the sender's own barrier
// (the shape of apache/tvm#20074, where a remote barrier view took the local
// arrive path): CTA 1's barrier expects 16384 bytes that no copy of the
// cluster sends it, and whoever waits on it hangs.
#include <cuda_runtime.h>

#include <cstdint>

constexpr int kTile = 64 * 64;
constexpr uint32_t kTileBytes = kTile * sizeof(float);  // 16384

__device__ __forceinline__ uint32_t sh(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cta_id_in_cluster() {
  uint32_t x;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(x));
  return x;
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256)
splitk_reduce(const float* __restrict__ partials, float* __restrict__ c) {
  __shared__ alignas(128) float acc[kTile];
  __shared__ alignas(128) float peer_acc[kTile];
  __shared__ alignas(8) uint64_t peer_ready;
  const uint32_t me = cta_id_in_cluster();
  const int tile = blockIdx.x / 2;

  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sh(&peer_ready)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    acc[i] = partials[(size_t(tile) * 2 + me) * kTile + i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");

  if (me == 1 && threadIdx.x == 0) {
    uint32_t ready_in_0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ready_in_0) : "r"(sh(&peer_ready)), "r"(0));
    uint32_t dst_in_0;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(dst_in_0) : "r"(sh(peer_acc)), "r"(0));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sh(&peer_ready)),
                 "r"(kTileBytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(dst_in_0),
        "r"(sh(acc)), "r"(kTileBytes), "r"(ready_in_0)
        : "memory");
  }
  if (me == 0) {
    asm volatile(
        "{\n .reg .pred ok;\n R_%=:\n"
        " mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 ok, [%0], 0;\n"
        " @!ok bra R_%=;\n}\n" ::"r"(sh(&peer_ready))
        : "memory");
    for (int i = threadIdx.x; i < kTile; i += blockDim.x)
      c[size_t(tile) * kTile + i] = acc[i] + peer_acc[i];
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

int main() {
  const int tiles = 64;
  float *partials = nullptr, *c = nullptr;
  cudaMalloc(&partials, size_t(tiles) * 2 * kTileBytes);
  cudaMalloc(&c, size_t(tiles) * kTileBytes);
  splitk_reduce<<<2 * tiles, 256>>>(partials, c);
  cudaDeviceSynchronize();
  cudaFree(c);
  cudaFree(partials);
  return 0;
}
