// The threads of each operation in the kernel model (guards, warp roles,
// elect.sync, a top-level early return) decide BULK-WAITGROUP-SCOPE (a
// wait by threads that committed nothing, a store by threads that did not
// wait) and TMA-STORE-FENCE / BULK-S2G-FENCE-BEFORE (the fence must run in
// the writing threads). Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const void *smem, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(smem))),
                  "r"(x), "r"(y)
               : "memory");
}
__device__ __forceinline__ void commit() {
  asm volatile("cp.async.bulk.commit_group;");
}
__device__ __forceinline__ void waitRead0() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// --- BULK-WAITGROUP-SCOPE --------------------------------------------------

// Thread 0 stores and commits, waits in a second block of its own, then
// rewrites the tile: the same thread all along. Silent.
__global__ void sameThreadTwoBlocks(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
  }
  if (threadIdx.x == 0)
    waitRead0();
  if (threadIdx.x == 0)
    tile[0] = 2.0f;
}

// The wait runs in all of warp 0, the rewrite too: lanes 1..31 committed
// nothing and do not wait.
__global__ void warpWaitsForThread(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
  }
  if (threadIdx.x < 32) {
    waitRead0();
    tile[threadIdx.x] = 2.0f;
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-6]] may still read it: the wait at line [[#@LINE-2]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: the TMA store reads 'tile' here, issued by the threads of this branch only
    // CHECK-NOTES: :17:3: note: issued here
  }
}

// elect.sync in warp 0 issues and waits; the same elected thread rewrites.
// Silent.
__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, %1;\n selp.b32 %0, 1, 0, P;\n}"
               : "+r"(pred) : "r"(0xffffffffu));
  return pred;
}
__global__ void electedWaits(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  int warp = threadIdx.x / 32;
  if (warp == 0) {
    if (elect_one_sync()) {
      storeTile(&map, tile, 0, 0);
      commit();
      waitRead0();
      tile[0] = 2.0f;
    }
  }
}

// --- TMA-STORE-FENCE: the fence must run in the writing threads ------------

// Every thread writes, only thread 0 fences.
__global__ void fenceInOneThread(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  if (threadIdx.x == 0)
    fenceAsync();
  __syncthreads();
  // CHECK-FIXES: {{^}}__global__ void fenceInOneThread{{.*}}
  // CHECK-FIXES: {{^}}    fenceAsync();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-10]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-11]]:21: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :17:3: note: issued here
    commit();
    waitRead0();
  }
}

// The two halves of the block write and fence in their own branches.
// Silent.
__global__ void fenceInEachBranch(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  if (threadIdx.x < 64) {
    tile[threadIdx.x] = 1.0f;
    fenceAsync();
  } else {
    tile[threadIdx.x] = 2.0f;
    fenceAsync();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

// Warp-specialised: warpgroup 0 returns (the producer's work is elsewhere),
// the consumers write, one lane per warp fences, and thread 128 stores.
// Threads 129.. exist: the kernel is launched with 384 threads below.
__global__ void __launch_bounds__(384)
consumersFenceOneLane(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  tile[threadIdx.x - 128] = 1.0f;
  if (threadIdx.x % 32 == 0)
    fenceAsync();
  asm volatile("bar.sync 1, 256;");
  // CHECK-FIXES: {{^}}  if (threadIdx.x % 32 == 0){{$}}
  // CHECK-FIXES-NEXT: {{^}}    fenceAsync();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("bar.sync 1, 256;");{{$}}
  if (threadIdx.x == 128) {
    storeTile(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-10]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-11]]:27: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :17:3: note: issued here
    commit();
    waitRead0();
  }
}

__global__ void __launch_bounds__(384)
consumersFenceAll(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  tile[threadIdx.x - 128] = 1.0f;
  fenceAsync();
  asm volatile("bar.sync 1, 256;");
  if (threadIdx.x == 128) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

// A fence under a guard the model cannot read: silent.
__global__ void fenceUnderUnknownGuard(const __grid_constant__ CUtensorMap map,
                                       const int *flags) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  if (flags[threadIdx.x])
    fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

// The same kernel, never launched here: at most 384 threads, so thread 129
// is not proven to exist. Silent.
__global__ void __launch_bounds__(384)
unlaunchedFenceOneLane(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  tile[threadIdx.x - 128] = 1.0f;
  if (threadIdx.x % 32 == 0)
    fenceAsync();
  asm volatile("bar.sync 1, 256;");
  if (threadIdx.x == 128) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

void launch(const CUtensorMap &map) {
  consumersFenceOneLane<<<1, 384>>>(map);
  consumersFenceAll<<<1, 384>>>(map);
}
