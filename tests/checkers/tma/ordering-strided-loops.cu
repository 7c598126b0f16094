// A thread-strided loop (`for (i = threadIdx.x; i < N; i += blockDim.x)`)
// runs in every thread that reaches it, not in a subset its condition
// chooses: its generic stores are the block's, so a fence.proxy.async that
// only the issuing thread runs after the thread barrier does not order them
// (TMA-STORE-FENCE: the fence must precede the hand-off in the writing
// threads). Each wrong kernel has its correct twin; a loop whose first
// value is no thread expression keeps an unknown thread set (silent).
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

constexpr int N = 64 * 64;

// Every thread writes its elements; thread 0 fences after the barrier.
__global__ void stridedFenceAfterSync(const __grid_constant__ CUtensorMap map,
                                      const float *in) {
  __shared__ alignas(128) float tile[N];
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    tile[i] = in[i];
  __syncthreads();
  // CHECK-FIXES: {{^}}__global__ void stridedFenceAfterSync{{.*}}
  // CHECK-FIXES: {{^}}    tile[i] = in[i];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    fenceAsync();
    storeTile(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-9]] with no fence.proxy.async before the thread barrier that hands it over (the fence at line [[#@LINE-2]] comes after it) (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-10]]:13: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :19:3: note: issued here
    commit();
    waitRead0();
  }
}

// The writing threads fence before the barrier.
__global__ void stridedFenceBeforeSync(const __grid_constant__ CUtensorMap map,
                                       const float *in) {
  __shared__ alignas(128) float tile[N];
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    tile[i] = in[i];
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

// A warp-strided loop over a lane (`i = lane; i += 32`), written as
// `i = i + 32`: the same.
__global__ void laneStridedFenceAfterSync(
    const __grid_constant__ CUtensorMap map, const float *in) {
  __shared__ alignas(128) float tile[N];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32)
    for (int i = lane; i < N; i = i + 32)
      tile[i] = in[i];
  __syncthreads();
  // CHECK-FIXES: {{^}}__global__ void laneStridedFenceAfterSync{{.*}}
  // CHECK-FIXES: {{^}}      tile[i] = in[i];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    fenceAsync();
    storeTile(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-9]] with no fence.proxy.async before the thread barrier that hands it over (the fence at line [[#@LINE-2]] comes after it) (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-10]]:15: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :19:3: note: issued here
    commit();
    waitRead0();
  }
}

__global__ void laneStridedFenceBeforeSync(
    const __grid_constant__ CUtensorMap map, const float *in) {
  __shared__ alignas(128) float tile[N];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    for (int i = lane; i < N; i = i + 32)
      tile[i] = in[i];
    fenceAsync();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}

// The counter starts at a per-thread value read from memory, no thread
// expression: the threads of the body stay unknown, silent.
__global__ void unknownStart(const __grid_constant__ CUtensorMap map,
                             const float *in, const int *first) {
  __shared__ alignas(128) float tile[N];
  for (int i = first[threadIdx.x]; i < N; i += blockDim.x)
    tile[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    fenceAsync();
    storeTile(&map, tile, 0, 0);
    commit();
    waitRead0();
  }
}
