// Helpers called from the kernel are seen at their calls with the caller's
// buffers, through chains of helpers: `fill(tile)` calls `writeRow(tile +
// off, i)`, whose generic store writes the kernel's 'tile'
// (TMA-STORE-FENCE). A helper first seen with a buffer that is not shared
// is walked again when a shared one reaches it. Each wrong kernel has a
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const void *smem) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(smem))),
                  "r"(0), "r"(0)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__device__ void writeRow(float *row, int i) { row[i] = 1.0f; }
__device__ void fill(float *tile) {
  writeRow(tile + 64 * (threadIdx.x / 64), threadIdx.x % 64);
}

__global__ void helperChainNoFence(const __grid_constant__ CUtensorMap map,
                                   float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  float local[64];
  writeRow(local, 0); // not shared memory: nothing to order
  out[threadIdx.x] = local[0];
  fill(tile);
  __syncthreads();
  // CHECK-FIXES: {{^}}__global__ void helperChainNoFence{{.*}}
  // CHECK-FIXES: {{^}}  fill(tile);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0)
    storeTile(&map, tile);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-8]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: generic store to 'tile' here
  // CHECK-NOTES: :28:54: note: issued here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
  // CHECK-NOTES: :18:3: note: issued here
}

__global__ void helperChainFenced(const __grid_constant__ CUtensorMap map,
                                  float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  float local[64];
  writeRow(local, 0);
  out[threadIdx.x] = local[0];
  fill(tile);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    storeTile(&map, tile);
}
