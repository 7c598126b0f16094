// __syncwarp (and `bar.warp.sync`) orders the threads of one warp: it is a
// barrier of that warp, not an event the model cannot follow. A rule that a
// thread barrier silences stays silent across it; any other rule looks
// through it (a map rewritten while the loads of the last group may still
// read it, with __syncwarp between the producer lanes); and it hands
// nothing over to other warps, so a fence after it, before the block's
// __syncthreads, still covers the writers. Each wrong kernel has its
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);

__device__ inline uint32_t sAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline bool electOne() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, 0xffffffff;\n"
               " selp.b32 %0, 1, 0, P;\n}\n" : "=r"(pred));
  return pred != 0;
}
__device__ inline void waitOn(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n L_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra L_%=;\n}\n" ::"r"(sAddr(bar)), "r"(parity)
               : "memory");
}
__device__ inline void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(sAddr(bar)), "r"(bytes) : "memory");
}
__device__ inline void loadOne(float *dst, const CUtensorMap *map,
                               uint64_t *bar, int x) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(sAddr(dst)), "l"(reinterpret_cast<uint64_t>(map)),
                 "r"(x), "r"(0), "r"(sAddr(bar))
               : "memory");
}
__device__ inline void publish(CUtensorMap *gmem, const CUtensorMap *smem) {
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
               "generic.release.gpu.sync.aligned [%0], [%1], 128;"
               ::"l"(gmem), "r"(sAddr(smem)) : "memory");
}

constexpr int kStages = 2;

// A producer warp publishes each group's map over the one the loads of the
// last group may still read; the lanes meet at __syncwarp, which completes
// no load.
__global__ void __launch_bounds__(96)
groupMapInFlight(CUtensorMap *workspace, int groups, int tiles) {
  __shared__ alignas(128) float ring[kStages][64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ alignas(8) uint64_t full[kStages], empty[kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sAddr(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" ::"r"(sAddr(&empty[s])));
    }
  }
  __syncthreads();
  CUtensorMap *mine = workspace + blockIdx.x;
  if (threadIdx.x / 32 == 2) {
    int it = 0;
    for (int g = 0; g < groups; ++g) {
      __syncwarp();
      publish(mine, &staged);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: tensor map 'mine' is rewritten while the TMA load at line [[#@LINE+10]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+9]]:11: note: the TMA load reads the tensor map here
      // CHECK-NOTES: :40:3: note: issued here
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                   ::"l"(mine) : "memory");
      if (electOne()) {
        for (int t = 0; t < tiles; ++t, ++it) {
          const int s = it % kStages;
          waitOn(&empty[s], ((it / kStages) & 1) ^ 1);
          expectTx(&full[s], sizeof(ring[0]));
          loadOne(ring[s], mine, &full[s], t);
        }
      }
      __syncwarp();
    }
  }
}

// The twin: the electing lane waits for the reads of its loads
// (commit_group, wait_group.read 0) before the warp publishes the next map.
__global__ void __launch_bounds__(96)
groupMapWaited(CUtensorMap *workspace, int groups, int tiles) {
  __shared__ alignas(128) float ring[kStages][64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ alignas(8) uint64_t full[kStages], empty[kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sAddr(&full[s])));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" ::"r"(sAddr(&empty[s])));
    }
  }
  __syncthreads();
  CUtensorMap *mine = workspace + blockIdx.x;
  if (threadIdx.x / 32 == 2) {
    int it = 0;
    for (int g = 0; g < groups; ++g) {
      if (electOne()) {
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      }
      __syncwarp();
      publish(mine, &staged);
      asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                   ::"l"(mine) : "memory");
      if (electOne()) {
        for (int t = 0; t < tiles; ++t, ++it) {
          const int s = it % kStages;
          waitOn(&empty[s], ((it / kStages) & 1) ^ 1);
          expectTx(&full[s], sizeof(ring[0]));
          loadOne(ring[s], mine, &full[s], t);
        }
      }
      asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
    }
  }
}

// Every thread of the block writes the tile; each warp meets at __syncwarp
// and then fences, all before the block's __syncthreads: the fence precedes
// the hand-off to the issuing thread. No finding.
__global__ void __launch_bounds__(128)
fenceAfterWarpSync(const __grid_constant__ CUtensorMap out) {
  __shared__ alignas(128) float tile[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += 128)
    tile[i] = 1.0f;
  __syncwarp();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
                 " [%0, {%1, %2}], [%3];"
                 ::"l"(reinterpret_cast<uint64_t>(&out)), "r"(0), "r"(0),
                   "r"(sAddr(tile))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// Its wrong twin: the warp meets at __syncwarp, but no thread fences. The
// fix goes before the block's hand-off, not before __syncwarp.
// CHECK-FIXES: {{^}}noFenceAfterWarpSync{{.*}}
// CHECK-FIXES: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
__global__ void __launch_bounds__(128)
noFenceAfterWarpSync(const __grid_constant__ CUtensorMap out) {
  __shared__ alignas(128) float tile[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += 128)
    tile[i] = 1.0f;
  __syncwarp();
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
                 " [%0, {%1, %2}], [%3];"
                 ::"l"(reinterpret_cast<uint64_t>(&out)), "r"(0), "r"(0),
                   "r"(sAddr(tile))
                 : "memory");
    // CHECK-NOTES: :[[@LINE-5]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-9]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-10]]:13: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-7]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
