// Warp roles of a persistent kernel driven by a tile scheduler object: the
// warp index is lane 0's `threadIdx.x / 32` (`__shfl_sync`), one elected
// lane of warp 1 initialises the ring of full/empty barriers, and each role
// walks the tiles with its own copy of a kernel-local scheduler, `while
// (walk.next(tile))`. The scheduler's state is written only with uniform
// values (a tile counter stepped by one, blockIdx, gridDim, a kernel
// parameter), so every thread of a role takes the same passes: the
// consumer warp's wait runs in all 32 lanes of warp 1, 31 of which ran no
// init. MBAR-INIT-VISIBLE asks whether a thread outside the initialising
// set uses the barrier. A scheduler whose state the model cannot prove
// uniform (a tile list read from global memory, an object handed to a
// helper by reference, roles re-entered in a loop) leaves the consumer's
// threads unknown, and the rule silent. Each wrong kernel has its correct
// twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __syncwarp(unsigned mask = 0xffffffff);
__device__ unsigned __shfl_sync(unsigned mask, unsigned var, int src,
                                int width = 32);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ bool electOne() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n"
               " @p mov.s32 %0, 1;\n}\n"
               : "+r"(pred));
  return pred != 0;
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
__device__ __forceinline__ void loadTile(void *dst, const CUtensorMap *map,
                                         uint64_t *bar, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   smemAddr(dst)),
               "l"(map), "r"(smemAddr(bar)), "r"(x), "r"(y)
               : "memory");
}

__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

constexpr int kStages = 4;
constexpr int kTile = 32 * 64;

// Tiles blockIdx.x, blockIdx.x + gridDim.x, ... below `total`.
struct TileWalk {
  int step = -1;
  int total;
  __device__ explicit TileWalk(int n) : total(n) {}
  __device__ bool next(int &tile) {
    int at = (++step) * gridDim.x + blockIdx.x;
    if (at >= total)
      return false;
    tile = at;
    return true;
  }
};

// The tiles of a list in global memory: which, the model cannot read.
struct ListWalk {
  int step;
  const int *list;
  __device__ bool next(int &tile) {
    int at = list[step];
    if (at < 0)
      return false;
    ++step;
    tile = at;
    return true;
  }
};

// --- Producer and consumer warps ---------------------------------------------

// Warp 1's elected lane initialises the ring; the producer (warp 0's
// elected lane) and the consumer warp (all of warp 1) use it with no
// __syncthreads() in between.
__global__ void __launch_bounds__(128)
rolesNoSync(const __grid_constant__ CUtensorMap map, int tiles, int nk,
            float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages], empty[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne()) {
    for (int s = 0; s < kStages; ++s) {
      initBar(&full[s], 1);
      initBar(&empty[s], 1);
    }
  }
  TileWalk walk(tiles);
  int t = 0;
  if (warp == 0 && electOne()) {
    int k = 0;
    while (walk.next(t)) {
      for (int i = 0; i < nk; ++i, ++k) {
        waitBar(&empty[k % kStages], ((k / kStages) & 1) ^ 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'empty' is used by thread 0, which runs no init of it, here after its mbarrier.init at line [[#@LINE-10]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
        // CHECK-NOTES: :[[@LINE-11]]:7: note: initialised here, by the threads of this branch only
        // CHECK-NOTES: :38:3: note: issued here
        // CHECK-FIXES: {{^}}  int t = 0;{{$}}
        // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
        // CHECK-FIXES-NEXT: {{^}}  if (warp == 0 && electOne()) {{[{]}}{{$}}
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], i, t);
      }
    }
  } else if (warp == 1) {
    float acc = 0.f;
    int k = 0;
    while (walk.next(t)) {
      for (int i = 0; i < nk; ++i, ++k) {
        waitBar(&full[k % kStages], (k / kStages) & 1);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'full' is used by thread 33, which runs no init of it, here after its mbarrier.init at line [[#@LINE-27]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
        // CHECK-NOTES: :[[@LINE-28]]:7: note: initialised here, by the threads of this branch only
        // CHECK-NOTES: :38:3: note: issued here
        // CHECK-NOTES: :[[@LINE-20]]:9: note: this lies on some path from the init to the use, not on every one: a path skips it (a loop that may run no pass, another branch)
        // CHECK-NOTES: :42:3: note: issued here
        acc += tile[k % kStages][threadIdx.x % 32];
        fenceAsync();
        __syncwarp();
        if (electOne())
          arriveBar(&empty[k % kStages]);
      }
    }
    out[threadIdx.x] = acc;
  }
}

// The twin: a __syncthreads() after the inits.
__global__ void __launch_bounds__(128)
rolesSynced(const __grid_constant__ CUtensorMap map, int tiles, int nk,
            float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages], empty[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne()) {
    for (int s = 0; s < kStages; ++s) {
      initBar(&full[s], 1);
      initBar(&empty[s], 1);
    }
  }
  __syncthreads();
  TileWalk walk(tiles);
  int t = 0;
  if (warp == 0 && electOne()) {
    int k = 0;
    while (walk.next(t)) {
      for (int i = 0; i < nk; ++i, ++k) {
        waitBar(&empty[k % kStages], ((k / kStages) & 1) ^ 1);
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], i, t);
      }
    }
  } else if (warp == 1) {
    float acc = 0.f;
    int k = 0;
    while (walk.next(t)) {
      for (int i = 0; i < nk; ++i, ++k) {
        waitBar(&full[k % kStages], (k / kStages) & 1);
        acc += tile[k % kStages][threadIdx.x % 32];
        fenceAsync();
        __syncwarp();
        if (electOne())
          arriveBar(&empty[k % kStages]);
      }
    }
    out[threadIdx.x] = acc;
  }
}

// --- One warp: the elected lane loads, the whole warp reads ------------------

// Only warp 1 uses the ring: its elected lane initialised it, and the
// scheduler makes every lane of the warp take the same passes, so lanes
// 33..63 wait on a barrier that lane 32 initialised with no barrier between.
__global__ void __launch_bounds__(64)
warpNoSync(const __grid_constant__ CUtensorMap map, int tiles, float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne())
    for (int s = 0; s < kStages; ++s)
      initBar(&full[s], 1);
  if (warp == 1) {
    TileWalk walk(tiles);
    float acc = 0.f;
    int t = 0, k = 0;
    while (walk.next(t)) {
      if (electOne()) {
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], 0, t);
      }
      waitBar(&full[k % kStages], (k / kStages) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by thread 33, which runs no init of it, here after its mbarrier.init at line [[#@LINE-11]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-12]]:7: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :38:3: note: issued here
      // CHECK-FIXES: {{^}}warpNoSync(const __grid_constant__ CUtensorMap map, int tiles, float *out) {{[{]}}{{$}}
      // CHECK-FIXES: {{^}}      initBar(&full[s], 1);{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (warp == 1) {{[{]}}{{$}}
      acc += tile[k % kStages][threadIdx.x % 32];
      fenceAsync();
      __syncwarp();
      ++k;
    }
    out[threadIdx.x] = acc;
  }
}

// The twin.
__global__ void __launch_bounds__(64)
warpSynced(const __grid_constant__ CUtensorMap map, int tiles, float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne())
    for (int s = 0; s < kStages; ++s)
      initBar(&full[s], 1);
  __syncthreads();
  if (warp == 1) {
    TileWalk walk(tiles);
    float acc = 0.f;
    int t = 0, k = 0;
    while (walk.next(t)) {
      if (electOne()) {
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], 0, t);
      }
      waitBar(&full[k % kStages], (k / kStages) & 1);
      acc += tile[k % kStages][threadIdx.x % 32];
      fenceAsync();
      __syncwarp();
      ++k;
    }
    out[threadIdx.x] = acc;
  }
}

// --- Schedulers the model cannot prove uniform: silent -----------------------

// The tile list is read from global memory: which lanes take a pass, the
// model cannot tell (lane 32 alone, for all it knows).
__global__ void __launch_bounds__(64)
warpListWalk(const __grid_constant__ CUtensorMap map, const int *list,
             float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne())
    for (int s = 0; s < kStages; ++s)
      initBar(&full[s], 1);
  if (warp == 1) {
    ListWalk walk{0, list};
    float acc = 0.f;
    int t = 0, k = 0;
    while (walk.next(t)) {
      if (electOne()) {
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], 0, t);
      }
      waitBar(&full[k % kStages], (k / kStages) & 1);
      acc += tile[k % kStages][threadIdx.x % 32];
      fenceAsync();
      __syncwarp();
      ++k;
    }
    out[threadIdx.x] = acc;
  }
}

__device__ bool advance(TileWalk &walk, int &tile) { return walk.next(tile); }

// The scheduler is handed to a helper by reference.
__global__ void __launch_bounds__(64)
warpWalkByReference(const __grid_constant__ CUtensorMap map, int tiles,
                    float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne())
    for (int s = 0; s < kStages; ++s)
      initBar(&full[s], 1);
  if (warp == 1) {
    TileWalk walk(tiles);
    float acc = 0.f;
    int t = 0, k = 0;
    while (advance(walk, t)) {
      if (electOne()) {
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], 0, t);
      }
      waitBar(&full[k % kStages], (k / kStages) & 1);
      acc += tile[k % kStages][threadIdx.x % 32];
      fenceAsync();
      __syncwarp();
      ++k;
    }
    out[threadIdx.x] = acc;
  }
}

// One lane steps the shared scheduler copy of each thread on its own: the
// lanes of warp 1 no longer agree on the tile counter.
__global__ void __launch_bounds__(64)
warpWalkSkewed(const __grid_constant__ CUtensorMap map, int tiles,
               float *out) {
  __shared__ alignas(128) float tile[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  const uint32_t warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 1 && electOne())
    for (int s = 0; s < kStages; ++s)
      initBar(&full[s], 1);
  if (warp == 1) {
    TileWalk walk(tiles);
    float acc = 0.f;
    int t = 0, k = 0;
    if (threadIdx.x % 32 == 0)
      walk.next(t);
    while (walk.next(t)) {
      if (electOne()) {
        expectBytes(&full[k % kStages], kTile * sizeof(float));
        loadTile(tile[k % kStages], &map, &full[k % kStages], 0, t);
      }
      waitBar(&full[k % kStages], (k / kStages) & 1);
      acc += tile[k % kStages][threadIdx.x % 32];
      fenceAsync();
      __syncwarp();
      ++k;
    }
    out[threadIdx.x] = acc;
  }
}
