// Thread sets beyond threadIdx.x of a 1-D block: threadIdx.y and .z of a
// 2-D or 3-D block whose launches fix its shape (threadIdx.x is then the
// rank modulo the x dimension), `cg::this_thread_block().thread_rank()`
// (the rank in any block shape), flags computed once (`const bool leader =
// ...;`), a local read before its only write, and wrappers returning
// elect_one_sync(). They decide TMA-STORE-FENCE (the fence must run in the
// writing threads) and BULK-WAITGROUP-SCOPE. Each wrong kernel has a
// correct twin; without a launch, threadIdx.y is unknown and silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace cooperative_groups {
inline namespace __v1 {
class thread_block {
public:
  __device__ unsigned long long thread_rank() const;
};
__device__ thread_block this_thread_block();
} // namespace __v1
} // namespace cooperative_groups
namespace cg = cooperative_groups;

__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const void *smem) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %2}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(smem))), "r"(0)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
}
__device__ __forceinline__ void waitRead0() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, %1;\n selp.b32 %0, 1, 0, P;\n}"
               : "+r"(pred) : "r"(0xffffffffu));
  return pred;
}
// A wrapper of the wrapper.
__device__ __forceinline__ bool electLeader() { return elect_one_sync(); }

// A 32 x 4 block (launched below): only the row threadIdx.y == 0 fences,
// every thread wrote.
__global__ void rowFences(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 4];
  tile[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  if (threadIdx.y == 0)
    fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    storeTile(&map, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:40: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :30:3: note: issued here
    // CHECK-FIXES: {{^}}    fenceAsync();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    waitRead0();
  }
}

// Every thread of the 32 x 4 block fences: silent.
__global__ void allFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 4];
  tile[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  if (threadIdx.z == 0) // always: the block is 2-D
    fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    storeTile(&map, tile);
    waitRead0();
  }
}

// Not launched here: the block's shape, and so threadIdx.y, is unknown.
// Silent.
__global__ void rowFencesUnlaunched(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 4];
  tile[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  if (threadIdx.y == 0)
    fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    storeTile(&map, tile);
    waitRead0();
  }
}

// cooperative_groups: the thread of rank 0 fences, all wrote.
__global__ void rankZeroFences(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  cg::thread_block block = cg::this_thread_block();
  tile[block.thread_rank()] = 1.0f;
  if (block.thread_rank() == 0)
    fenceAsync();
  __syncthreads();
  const bool first = cg::this_thread_block().thread_rank() == 0;
  if (first) {
    storeTile(&map, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-8]]:29: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :30:3: note: issued here
    // CHECK-FIXES: {{^}}  if (block.thread_rank() == 0){{$}}
    // CHECK-FIXES-NEXT: {{^}}    fenceAsync();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    waitRead0();
  }
}

__global__ void rankZeroAfterAllFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  cg::thread_block block = cg::this_thread_block();
  tile[block.thread_rank()] = 1.0f;
  fenceAsync();
  __syncthreads();
  const bool first = block.thread_rank() == 0;
  if (first) {
    storeTile(&map, tile);
    waitRead0();
  }
}

// warp_idx is read before its only write (`--wg` in the consumer branch,
// fast.cu's shape): the guard `wg == 0` is still threadIdx.x / 128 == 0.
// Only warpgroup 1's first lane fences; warpgroup 1 wrote.
__global__ void __launch_bounds__(256)
consumerLaneFences(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[128];
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  --wg;
  tile[threadIdx.x - 128] = 1.0f;
  if (threadIdx.x == 128)
    fenceAsync();
  asm volatile("bar.sync 1, 128;");
  if (threadIdx.x == 128) {
    storeTile(&map, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:27: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :30:3: note: issued here
    // CHECK-FIXES: {{^}}  if (threadIdx.x == 128){{$}}
    // CHECK-FIXES-NEXT: {{^}}    fenceAsync();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    waitRead0();
  }
}

// The same with every consumer fencing: silent.
__global__ void __launch_bounds__(256)
consumersFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[128];
  int wg = threadIdx.x / 128;
  if (wg == 0)
    return;
  --wg;
  tile[threadIdx.x - 128] = 1.0f;
  fenceAsync();
  asm volatile("bar.sync 1, 128;");
  if (threadIdx.x == 128) {
    storeTile(&map, tile);
    waitRead0();
  }
}

// The elected lane of warp 0 stores and commits (through a wrapper of
// elect_one_sync held in a flag); all of warp 0 waits and rewrites.
__global__ void electedFlagStores(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32];
  tile[threadIdx.x % 32] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    const bool leader = electLeader();
    if (leader)
      storeTile(&map, tile);
    waitRead0();
    tile[threadIdx.x] = 2.0f;
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-3]] may still read it: the wait at line [[#@LINE-2]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the TMA store reads 'tile' here, issued by the threads of this branch only
    // CHECK-NOTES: :30:3: note: issued here
  }
}

// The elected lane alone waits and rewrites: silent.
__global__ void electedFlagWaits(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32];
  tile[threadIdx.x % 32] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x / 32 == 0) {
    const bool leader = electLeader();
    if (leader)
      storeTile(&map, tile);
    if (leader) {
      waitRead0();
      tile[0] = 2.0f;
    }
  }
}

void launch(const CUtensorMap &map) {
  rowFences<<<1, dim3(32, 4)>>>(map);
  allFence<<<1, dim3(32, 4)>>>(map);
  consumerLaneFences<<<1, 256>>>(map);
  consumersFence<<<1, 256>>>(map);
}
