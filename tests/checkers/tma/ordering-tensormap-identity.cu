// TMAP-INFLIGHT-IMMUTABLE on maps the kernel names through pointers of its
// own: a local pointer a run-time offset derives from a parameter (one per
// CTA in a workspace), a constant step from it (`mine + 1`), a field of a
// pointed-to struct (`&maps->b`, `&maps[0].b`). The same map spelt two ways
// is one map; another map of the same workspace is not; a local declared in
// the loop points to a new map on every lap. A wait_group before the
// rewrite completes the loads' reads of the map. Each wrong kernel has its
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void initOne(uint64_t *bar) {
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
}
__device__ inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(smemAddr(bar)), "r"(bytes) : "memory");
}
__device__ inline void waitPhase(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n L_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra L_%=;\n}\n" ::"r"(smemAddr(bar)), "r"(parity)
               : "memory");
}
__device__ inline void acquireMap(const CUtensorMap *map) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               ::"l"(map) : "memory");
}
__device__ inline void loadTile(float *dst, const CUtensorMap *map,
                                uint64_t *bar, int x) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(smemAddr(dst)), "l"(reinterpret_cast<uint64_t>(map)),
                 "r"(x), "r"(0), "r"(smemAddr(bar))
               : "memory");
}
__device__ inline void publishMap(CUtensorMap *gmem, const CUtensorMap *smem) {
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
               "generic.release.gpu.sync.aligned [%0], [%1], 128;"
               ::"l"(gmem), "r"(smemAddr(smem)) : "memory");
}

// Two maps per CTA in a workspace: each group stores new maps over the ones
// the last group's loads may still read.
__global__ void workspaceInFlight(CUtensorMap *workspace,
                                  const CUtensorMap *next, int groups) {
  __shared__ alignas(128) float tileA[64 * 64];
  __shared__ alignas(128) float tileB[64 * 64];
  __shared__ uint64_t bar;
  initOne(&bar);
  CUtensorMap *mine = workspace + 2 * blockIdx.x;
  CUtensorMap *second = mine + 1;
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    *mine = next[2 * g];
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: tensor map 'mine' is rewritten while the TMA load at line [[#@LINE+11]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+10]]:5: note: the TMA load reads the tensor map here
    // CHECK-NOTES: :44:3: note: issued here
    second[0] = next[2 * g + 1];
    // CHECK-NOTES: :[[@LINE-1]]:15: warning: tensor map 'second[0]' is rewritten while the TMA load at line [[#@LINE+8]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+7]]:5: note: the TMA load reads the tensor map here
    // CHECK-NOTES: :44:3: note: issued here
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    acquireMap(mine);
    acquireMap(&workspace[2 * blockIdx.x + 1]);
    expectBytes(&bar, sizeof(tileA) + sizeof(tileB));
    loadTile(tileA, mine, &bar, g);
    loadTile(tileB, &mine[1], &bar, g);
  }
  waitPhase(&bar, 0);
}

// The twin: the issuing thread waits for the loads' reads of the maps
// (commit and wait_group.read) before it stores the next ones.
__global__ void workspaceWaited(CUtensorMap *workspace,
                                const CUtensorMap *next, int groups) {
  __shared__ alignas(128) float tileA[64 * 64];
  __shared__ alignas(128) float tileB[64 * 64];
  __shared__ uint64_t bar;
  initOne(&bar);
  CUtensorMap *mine = workspace + 2 * blockIdx.x;
  CUtensorMap *second = mine + 1;
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    *mine = next[2 * g];
    second[0] = next[2 * g + 1];
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    acquireMap(mine);
    acquireMap(second);
    expectBytes(&bar, sizeof(tileA) + sizeof(tileB));
    loadTile(tileA, mine, &bar, g);
    loadTile(tileB, &mine[1], &bar, g);
  }
  waitPhase(&bar, 0);
}

// Fields of a pointed-to struct: the load reads maps->b, the copy that
// publishes the next map writes maps[0].b (the same map), with no wait.
struct MapPair {
  CUtensorMap a;
  CUtensorMap b;
};
__global__ void fieldInFlight(MapPair *maps, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ uint64_t bar;
  initOne(&bar);
  if (threadIdx.x >= 32)
    return;
  for (int g = 0; g < groups; ++g) {
    publishMap(&maps[0].b, &staged);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor map 'maps[0].b' is rewritten while the TMA load at line [[#@LINE+6]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+5]]:7: note: the TMA load reads the tensor map here
    // CHECK-NOTES: :44:3: note: issued here
    acquireMap(&maps->b);
    if (threadIdx.x == 0) {
      expectBytes(&bar, sizeof(tile));
      loadTile(tile, &maps->b, &bar, g);
    }
  }
}

// The twin: the publish writes the other map of the pair, and the next
// pair, never the one the load reads.
__global__ void fieldOther(MapPair *maps, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ uint64_t bar;
  initOne(&bar);
  if (threadIdx.x >= 32)
    return;
  for (int g = 0; g < groups; ++g) {
    publishMap(&maps->a, &staged);
    publishMap(&maps[1].b, &staged);
    acquireMap(&maps->b);
    if (threadIdx.x == 0) {
      expectBytes(&bar, sizeof(tile));
      loadTile(tile, &maps->b, &bar, g);
    }
  }
}

// Silent: a pointer declared in the loop points to another map on every
// lap (the group's own), and a pointer assigned twice is not followed.
__global__ void perGroupMaps(CUtensorMap *workspace, const CUtensorMap *next,
                             int groups, int pick) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t bar;
  initOne(&bar);
  if (threadIdx.x != 0)
    return;
  CUtensorMap *chosen = workspace;
  if (pick)
    chosen = workspace + 1;
  for (int g = 0; g < groups; ++g) {
    CUtensorMap *own = workspace + gridDim.x + g;
    *own = next[g];
    *chosen = next[g];
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    acquireMap(own);
    acquireMap(chosen);
    expectBytes(&bar, 2 * sizeof(tile));
    loadTile(tile, own, &bar, g);
    loadTile(tile, chosen, &bar, g);
  }
  waitPhase(&bar, 0);
}
