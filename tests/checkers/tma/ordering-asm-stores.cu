// Generic stores to shared memory written in inline PTX (`stmatrix`,
// `st.shared`) at a 32-bit shared address computed from a tracked buffer
// (`__cvta_generic_to_shared(p) + off`, through locals) are writes of that
// buffer for TMA-STORE-FENCE: the shape of fast.cu's matmul_12 epilogue.
// An address the model cannot trace writes nothing it knows. Each wrong
// kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void storeAsync(const void *map, void *src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(src))),
                  "r"(0), "r"(0)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
}

// Each warpgroup writes its part of the tile with stmatrix, meets at its
// named barrier, and its first thread stores: no fence.proxy.async.
__global__ void stmatrixNoFence(const __grid_constant__ CUtensorMap map,
                                const int *acc) {
  __shared__ alignas(128) uint16_t sC[128 * 64];
  int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  uint16_t *block_sC = sC + wg * 64 * 64;
  uint32_t base_addr =
      static_cast<uint32_t>(__cvta_generic_to_shared(block_sC)) + tid * 16;
  for (int w = 0; w < 4; ++w) {
    uint32_t addr = base_addr + w * 2048;
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(addr), "r"(acc[0]), "r"(acc[1]), "r"(acc[2]), "r"(acc[3]));
  }
  asm volatile("bar.sync %0, 128;\n" ::"r"(wg + 2) : "memory");
  if (tid == 0) {
    storeAsync(&map, block_sC);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'sC' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: generic store to 'sC' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :17:3: note: issued here
    // CHECK-FIXES: {{^}}  }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-NEXT: {{^}}  asm volatile("bar.sync %0, 128;\n" ::"r"(wg + 2) : "memory");{{$}}
  }
}

__global__ void stmatrixFenced(const __grid_constant__ CUtensorMap map,
                               const int *acc) {
  __shared__ alignas(128) uint16_t sC[128 * 64];
  int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
  uint16_t *block_sC = sC + wg * 64 * 64;
  uint32_t base_addr =
      static_cast<uint32_t>(__cvta_generic_to_shared(block_sC)) + tid * 16;
  for (int w = 0; w < 4; ++w) {
    uint32_t addr = base_addr + w * 2048;
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(addr), "r"(acc[0]), "r"(acc[1]), "r"(acc[2]), "r"(acc[3]));
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("bar.sync %0, 128;\n" ::"r"(wg + 2) : "memory");
  if (tid == 0)
    storeAsync(&map, block_sC);
}

// st.shared of one float per thread, at an address taken from the buffer:
// with and without the fence.
__global__ void stSharedFenced(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(1.0f) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    storeAsync(&map, tile);
}

__global__ void stSharedNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(1.0f) : "memory");
  __syncthreads();
  // CHECK-FIXES: {{^}}  asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(1.0f) : "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0)
    storeAsync(&map, tile);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: generic store to 'tile' here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
  // CHECK-NOTES: :17:3: note: issued here
}

// An address the model cannot trace (a parameter of the kernel): no write
// of 'tile' it knows. Silent.
__global__ void stSharedUnknownAddress(const __grid_constant__ CUtensorMap map,
                                       uint32_t where) {
  __shared__ alignas(128) float tile[64 * 64];
  asm volatile("st.shared.f32 [%0], %1;" :: "r"(where), "f"(1.0f) : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    storeAsync(&map, tile);
}

// The address variable is rewritten before the store: not traced. Silent.
__global__ void stSharedRewrittenAddress(const __grid_constant__ CUtensorMap map,
                                         uint32_t other) {
  __shared__ alignas(128) float tile[64 * 64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  if (blockIdx.x == 1)
    a = other;
  asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(1.0f) : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    storeAsync(&map, tile);
}
