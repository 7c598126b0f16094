// Generic stores through local pointers into a tracked __shared__ buffer
// (`bf16 *sC = s.C; bf16 *block_sC = sC + off; block_sC[i] = v;`) are stores
// to that buffer (TMA-STORE-FENCE, BULK-S2G-FENCE-BEFORE): the shape of
// fast.cu's matmul_10 epilogue. A pointer that is reassigned or whose
// address escapes stands for nothing. Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void storeAsync(const void *map, float *src, int x,
                                         int y) {
  uint64_t map_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t src_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(src));
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map_ptr), "r"(src_ptr), "r"(x), "r"(y)
               : "memory");
}

template <int BM, int BN> struct SMem {
  alignas(128) float A[BM * 64];
  alignas(128) float C[BM * BN];
  alignas(8) uint64_t full[2];
};

// The consumers write the tile through a pointer into the shared struct,
// meet at a named barrier and thread 128 stores it: no fence.proxy.async.
__global__ void __launch_bounds__(384)
epilogueThroughPointer(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(128) uint8_t smem[];
  SMem<128, 64> &s = *reinterpret_cast<SMem<128, 64> *>(smem);
  float *sC = s.C;
  int wg = threadIdx.x / 128;
  int tid = threadIdx.x % 128;
  if (wg != 0) {
    float *block_sC = sC + (wg - 1) * 64 * 64;
    for (int i = 0; i < 64; ++i)
      block_sC[i * 128 + tid] = 1.0f;
    asm volatile("bar.sync 10, 256;\n");
    // CHECK-FIXES: {{^}}    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-NEXT: {{^}}    asm volatile("bar.sync 10, 256;\n");{{$}}
    if (threadIdx.x == 128) {
      storeAsync(&map, &sC[0], 0, 0);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: TMA store reads 'smem.C' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:31: note: generic store to 'smem.C' here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
      // CHECK-NOTES: :19:3: note: issued here
      asm volatile("cp.async.bulk.commit_group;");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
  }
}

__global__ void __launch_bounds__(384)
epilogueThroughPointerFenced(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(128) uint8_t smem[];
  SMem<128, 64> &s = *reinterpret_cast<SMem<128, 64> *>(smem);
  float *sC = s.C;
  int wg = threadIdx.x / 128;
  int tid = threadIdx.x % 128;
  if (wg != 0) {
    float *block_sC = sC + (wg - 1) * 64 * 64;
    for (int i = 0; i < 64; ++i)
      block_sC[i * 128 + tid] = 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 10, 256;\n");
    if (threadIdx.x == 128) {
      storeAsync(&map, &sC[0], 0, 0);
      asm volatile("cp.async.bulk.commit_group;");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
  }
}

// A plain array and a pointer to it: the same buffer.
__global__ void pointerToArray(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  float *p = tile;
  p[threadIdx.x] = 2.0f;
  __syncthreads();
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = 2.0f;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    storeAsync(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-8]]:18: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :19:3: note: issued here
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// The pointer moves to another buffer before the store: it is no alias.
__global__ void reassignedPointer(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) float other[64 * 64];
  float *p = tile;
  if (blockIdx.x == 1)
    p = other;
  p[threadIdx.x] = 2.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    storeAsync(&map, tile, 0, 0);
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// The address of the pointer escapes to a helper that may redirect it.
__device__ void redirect(float **p);
__global__ void escapingPointer(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  float *p = tile;
  redirect(&p);
  p[threadIdx.x] = 2.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    storeAsync(&map, tile, 0, 0);
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
