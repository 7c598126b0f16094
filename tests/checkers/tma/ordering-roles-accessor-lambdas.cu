// A stage ring carved out of one byte buffer by accessor lambdas
// (`full(i)`, `empty(i)`, `data(i)`: the barriers and the tile of stage i)
// is named like the same arithmetic written out: a lambda's one return,
// its parameter standing for the call's argument. The consumer warps read
// a stage with generic loads and release it with an arrive on empty(s);
// the producer warp waits on empty(s) and refills the stage with a bulk
// copy. Without fence.proxy.async in the readers before their arrive, the
// copy may overtake the reads (ASYNC-WAR-FENCE). Each wrong kernel has a
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void initBar(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
__device__ __forceinline__ void waitBar(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(smemAddr(bar)),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void arriveBar(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smemAddr(bar))
               : "memory");
}
__device__ __forceinline__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddr(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void loadBulk(void *dst, const void *src,
                                         uint64_t *bar, uint32_t bytes) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smemAddr(dst)),
               "l"(src), "r"(bytes), "r"(smemAddr(bar))
               : "memory");
}
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

constexpr int kStages = 2;
constexpr int kTileBytes = 128 * 4;
constexpr int kSlotBytes = 16 + kTileBytes; // [full | empty | tile]

// Warps 0-3 consume; warp 4 produces.
__global__ void __launch_bounds__(160)
ringNoFence(const float *src, float *out, int nk) {
  __shared__ alignas(128) uint8_t ring[kStages * kSlotBytes];
  auto full = [&](int i) {
    return reinterpret_cast<uint64_t *>(ring + i * kSlotBytes);
  };
  auto empty = [&](int i) {
    return reinterpret_cast<uint64_t *>(ring + i * kSlotBytes + 8);
  };
  auto data = [&](int i) { return ring + i * kSlotBytes + 16; };
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 4 && lane < kStages) {
    initBar(full(lane), 1);
    initBar(empty(lane), 128);
  }
  fenceAsync();
  __syncthreads();
  if (warp == 4) {
    if (lane == 0) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % kStages;
        waitBar(empty(s), ((k / kStages) & 1) ^ 1);
        expectBytes(full(s), kTileBytes);
        loadBulk(data(s), src + k * 128, full(s), kTileBytes);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: bulk copy overwrites 'ring' that generic loads read at line [[#@LINE+11]] and hand back through the arrive on 'ring + 8 + 528 * s' at line [[#@LINE+12]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
        // CHECK-NOTES: :[[@LINE+10]]:36: note: generic load of 'ring' here
        // CHECK-NOTES: :[[@LINE+10]]:7: note: each reading thread must execute fence.proxy.async.shared::cta after its reads, before this arrive
        // CHECK-NOTES: :33:3: note: issued here
      }
    }
  } else {
    for (int k = 0; k < nk; ++k) {
      const int s = k % kStages;
      waitBar(full(s), (k / kStages) & 1);
      const float *tile = reinterpret_cast<const float *>(data(s));
      out[k * 128 + threadIdx.x] = tile[threadIdx.x];
      arriveBar(empty(s));
    }
  }
}

__global__ void __launch_bounds__(160)
ringFenceBeforeRelease(const float *src, float *out, int nk) {
  __shared__ alignas(128) uint8_t ring[kStages * kSlotBytes];
  auto full = [&](int i) {
    return reinterpret_cast<uint64_t *>(ring + i * kSlotBytes);
  };
  auto empty = [&](int i) {
    return reinterpret_cast<uint64_t *>(ring + i * kSlotBytes + 8);
  };
  auto data = [&](int i) { return ring + i * kSlotBytes + 16; };
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 4 && lane < kStages) {
    initBar(full(lane), 1);
    initBar(empty(lane), 128);
  }
  fenceAsync();
  __syncthreads();
  if (warp == 4) {
    if (lane == 0) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % kStages;
        waitBar(empty(s), ((k / kStages) & 1) ^ 1);
        expectBytes(full(s), kTileBytes);
        loadBulk(data(s), src + k * 128, full(s), kTileBytes);
      }
    }
  } else {
    for (int k = 0; k < nk; ++k) {
      const int s = k % kStages;
      waitBar(full(s), (k / kStages) & 1);
      const float *tile = reinterpret_cast<const float *>(data(s));
      out[k * 128 + threadIdx.x] = tile[threadIdx.x];
      fenceAsync();
      arriveBar(empty(s));
    }
  }
}
