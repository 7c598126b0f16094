// The kernel model skips a helper that provably shows no event (no op, no
// asm instruction it reads, no __shared__ variable named, nothing shown by
// what it calls, and no parameter standing for a shared buffer or a
// kernel's tensor map at the call): it builds neither the helper's CFG nor
// its walk. Each kernel here has an event that only a helper shows, and
// would lose it if that helper were skipped: a thread barrier, an mbarrier
// wait and a proxy fence reached only through a call of a helper that has
// no asm of its own (MBAR-INIT-VISIBLE, TMA-LOAD-WAIT-BEFORE-READ and
// TMA-STORE-FENCE stay silent), generic stores and loads of a shared
// buffer through a helper's parameter, directly and one helper further
// down (TMA-STORE-FENCE, TMA-LOAD-WAIT-BEFORE-READ), and a store into a
// kernel's tensor map through a helper's parameter
// (TMAP-INFLIGHT-IMMUTABLE). The helpers that do show nothing (wgmma
// fences, index math, a constructor) are skipped without hiding anything.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(a), "r"(bytes));
}
__device__ static inline void loadTile(void *dst, const void *map,
                                       uint64_t *bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))),
        "l"(map), "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))),
        "r"(x), "r"(y)
      : "memory");
}
__device__ static inline void waitParity(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\n"
               "bra.uni LAB_WAIT;\n"
               "DONE:\n"
               "}\n" ::"r"(a), "r"(phase));
}
__device__ static inline void storeTile(const void *map, const void *src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               ::"l"(map),
                 "r"(static_cast<uint32_t>(__cvta_generic_to_shared(src))),
                 "r"(0), "r"(0)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Helpers that show nothing: skipped.
__device__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ static inline uint64_t encode(uint64_t x) {
  return (x & 0x3FFFF) >> 0x4;
}
__device__ uint64_t descriptorOf(float *p) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  return encode(addr) | (1llu << 62);
}
struct Tile {
  int row, col;
  __device__ Tile(int r, int c) : row(r * 64), col(c * 64) {}
  __device__ int index() const { return row * 128 + col; }
};

// Events reached only through a call: the helper that holds no asm of its
// own shows them.
__device__ void barSync() { asm volatile("bar.sync 0;" ::: "memory"); }
__device__ void syncAll() { barSync(); }
__device__ void waitFull(uint64_t *bar) { waitParity(bar, 0); }
__device__ void proxyFence() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ void publish() { proxyFence(); }

// Buffer accesses through a parameter, and one helper further down.
__device__ void fill(float *dst, int i) { dst[i] = 1.0f; }
__device__ void fillTwo(float *dst, int i) {
  fill(dst, i);
  fill(dst + 64, i);
}
__device__ float firstOf(const float *src) { return src[0]; }
__device__ float sumOf(const float *src) { return firstOf(src) + src[1]; }

// A store into the tensor map a kernel parameter points to.
__device__ void patchMap(CUtensorMap *m, uint64_t next) {
  reinterpret_cast<uint64_t *>(m)[2] = next;
}

// MBAR-INIT-VISIBLE: silent, the __syncthreads is bar.sync in a helper of
// a helper.
__global__ void syncThroughHelpers(const __grid_constant__ CUtensorMap map,
                                   float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  wgmmaFence();
  syncAll();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, &map, &full, 0, 0);
  }
  waitParity(&full, 0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// The same with a helper that shows nothing in place of syncAll.
__global__ void noSyncInHelpers(const __grid_constant__ CUtensorMap map,
                                float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  wgmmaFence();
  Tile t(1, 2);
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, &map, &full, 0, 0);
  }
  waitParity(&full, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'full' is used by all threads here after its mbarrier.init at line [[#@LINE-8]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-9]]:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :26:3: note: issued here
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitParity(&full, 0);{{$}}
  out[threadIdx.x + t.index()] = tile[threadIdx.x];
}

// TMA-LOAD-WAIT-BEFORE-READ: silent, the wait is in a helper of a helper.
__global__ void waitThroughHelper(const __grid_constant__ CUtensorMap map,
                                  float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, &map, &full, 0, 0);
  }
  waitFull(&full);
  out[threadIdx.x] = sumOf(tile) + descriptorOf(tile);
}

// The reads of sumOf's parameter and of firstOf's, one helper down, are
// reads of the tile before any wait.
__global__ void readThroughParameters(const __grid_constant__ CUtensorMap map,
                                      float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, &map, &full, 0, 0);
  }
  out[threadIdx.x] = sumOf(tile) + descriptorOf(tile);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: generic load reads 'tile' while the TMA load at line [[#@LINE-3]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: the TMA load into 'tile' completes on 'full'
  // CHECK-NOTES: :35:3: note: issued here
  waitFull(&full);
}

// TMA-STORE-FENCE: silent, the fence is in a helper of a helper.
__global__ void fenceThroughHelper(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  fillTwo(tile, threadIdx.x);
  publish();
  __syncthreads();
  if (threadIdx.x == 0)
    storeTile(&map, tile);
}

// The stores through fillTwo's parameter, one helper down, with a helper
// that shows nothing in place of the fence.
__global__ void storeThroughParameters(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  fillTwo(tile, threadIdx.x);
  wgmmaFence();
  __syncthreads();
  if (threadIdx.x == 0)
    storeTile(&map, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-5]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: generic store to 'tile' here
    // CHECK-NOTES: :93:50: note: issued here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :55:3: note: issued here
    // CHECK-FIXES: {{^}}  wgmmaFence();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

// TMAP-INFLIGHT-IMMUTABLE: the map is rewritten through patchMap's
// parameter while the load may still read it; silent after the wait.
__global__ void patchInFlight(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, map, &full, 0, 0);
    patchMap(map, next);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor map 'map' is rewritten while the TMA load at line [[#@LINE-2]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the TMA load reads the tensor map here
    // CHECK-NOTES: :35:3: note: issued here
  }
  waitParity(&full, 0);
}

__global__ void patchAfterWait(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(tile));
    loadTile(tile, map, &full, 0, 0);
  }
  waitParity(&full, 0);
  if (threadIdx.x == 0)
    patchMap(map, next);
}
