// TMAP-PLACE-GLOBAL-FENCE: a tensor map read from global memory (a
// `const CUtensorMap *` kernel parameter, a __device__ map) by a tensor copy
// needs fence.proxy.tensormap::generic.acquire in the kernel: even a map
// copied with cudaMemcpy before the launch (the programming guide's example,
// scope .sys). Silent when the kernel, or a function it calls, executes the
// acquire fence anywhere, or calls a function whose body is not visible.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cde = cuda::device::experimental;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

__device__ static inline void loadAsync(float *Dst, void const *Map,
                                        uint64_t *Bar, int X, int Y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :
               : "r"(0), "l"(Map), "r"(0), "r"(X), "r"(Y)
               : "memory");
}

__device__ static inline void acquire(const void *Map) {
  asm volatile("fence.proxy.tensormap::generic.acquire.sys [%0], 128;"
               ::"l"(Map) : "memory");
}

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// The map was copied to global memory with cudaMemcpy (fast.cu#8).
__global__ void noFence(const CUtensorMap *Map) {
  // CHECK-NOTES: :[[@LINE-1]]:44: warning: tensor map 'Map' is read from global memory by a TMA operation, but 'noFence' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  // CHECK-NOTES: :[[@LINE+5]]:3: note: the address of 'Map' is passed on here and reaches a TMA operation
  // CHECK-NOTES: :[[@LINE-20]]:3: note: the TMA operation
  // CHECK-NOTES: :[[@LINE-4]]:17: note: in one thread of each block, before the first use: cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then __syncthreads(); or pass the map as 'const __grid_constant__ CUtensorMap'
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, Map, &Bar, 0, 0);
}

// One map of an array, through cde.
__global__ void arrayOfMaps(const CUtensorMap *Maps, Barrier *Bar, int I) {
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: tensor map 'Maps' is read from global memory by a TMA operation, but 'arrayOfMaps' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  // CHECK-NOTES: :[[@LINE+3]]:3: note: the address of 'Maps' reaches a TMA operation here
  // CHECK-NOTES: :[[@LINE-3]]:17: note: in one thread of each block, before the first use: cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then __syncthreads(); or pass the map as 'const __grid_constant__ CUtensorMap'
  __shared__ alignas(128) float Tile[64 * 64];
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, &Maps[I], 0, 0, *Bar);
}

// A __device__ map, written by another kernel.
__device__ CUtensorMap DeviceMap;
__global__ void deviceMap() {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &DeviceMap, &Bar, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor map 'DeviceMap' is read from global memory by a TMA operation, but 'deviceMap' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  // CHECK-NOTES: :[[@LINE-43]]:3: note: the TMA operation
  // CHECK-NOTES: :[[@LINE-6]]:17: note: in one thread of each block, before the first use: cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then __syncthreads(); or pass the map as 'const __grid_constant__ CUtensorMap'
}

// A release is not an acquire.
__global__ void releaseOnly(const CUtensorMap *Map) {
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: tensor map 'Map' is read from global memory by a TMA operation, but 'releaseOnly' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  // CHECK-NOTES: :[[@LINE+6]]:3: note: the address of 'Map' is passed on here and reaches a TMA operation
  // CHECK-NOTES: :[[@LINE-51]]:3: note: the TMA operation
  // CHECK-NOTES: :[[@LINE-4]]:17: note: in one thread of each block, before the first use: cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then __syncthreads(); or pass the map as 'const __grid_constant__ CUtensorMap'
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  loadAsync(Tile, Map, &Bar, 0, 0);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// The programming guide's form.
__global__ void fenced(const CUtensorMap *Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0)
    asm volatile("fence.proxy.tensormap::generic.acquire.sys [%0], 128;"
                 ::"l"(Map) : "memory");
  __syncthreads();
  loadAsync(Tile, Map, &Bar, 0, 0);
}

// The fence in a helper (CuTe's tma_descriptor_fence_acquire).
__global__ void fencedInHelper(const CUtensorMap *Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  acquire(Map);
  loadAsync(Tile, Map, &Bar, 0, 0);
}

// A helper whose body is elsewhere may fence.
__device__ void opaque(const CUtensorMap *Map);
__global__ void opaqueHelper(const CUtensorMap *Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  opaque(Map);
  loadAsync(Tile, Map, &Bar, 0, 0);
}

// Not a tensor copy: a prefetch of the descriptor, a tensormap.replace.
__global__ void notACopy(CUtensorMap *Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(Map) : "memory");
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 "
               "[%0], %1;" ::"l"(Map), "l"(0ull) : "memory");
}

// A map that does not reach a TMA operation.
__global__ void unused(const CUtensorMap *Map, uint64_t *Out) {
  *Out = reinterpret_cast<uint64_t>(Map);
}

// __constant__ and __grid_constant__ maps need no fence.
__constant__ CUtensorMap ConstantMap;
__global__ void notGlobal(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &Map, &Bar, 0, 0);
  loadAsync(Tile, &ConstantMap, &Bar, 0, 0);
}
