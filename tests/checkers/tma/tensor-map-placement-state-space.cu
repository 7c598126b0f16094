// TMA-MAP-STATE-SPACE: a tensor copy reads its map from .param, .const or
// .global memory. A local copy of a map, a map passed by value to a
// __device__ function, and a __shared__ map are none of these once their
// address reaches a tensor copy (inline PTX, cuda::ptx, cde). A by-value
// kernel parameter is TMAP-PLACE-GRID-CONSTANT's (tensor-map-placement.cu).
// tensormap.* instructions on a shared-memory copy (the device-side
// modification workflow) are not tensor copies and stay silent.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cde = cuda::device::experimental;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

__device__ size_t __cvta_generic_to_shared(const void *);

// A __device__ helper that takes the map by value: its copy is local.
__device__ void loadByValue(float *dst, CUtensorMap map, uint64_t *bar) {
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: tensor map 'map' is a by-value parameter of a __device__ function, a copy in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: the address of 'map' reaches a TMA operation here
  // CHECK-MESSAGES: :[[@LINE-3]]:53: note: pass the map by pointer or reference to const
  uint32_t d = (uint32_t)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               :: "r"(d), "l"(&map), "r"(0),
                  "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
}

// Correct twins: by reference and by pointer.
__device__ void loadByRef(float *dst, const CUtensorMap &map, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(&map),
                  "r"(0), "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
}

__device__ void loadByPtr(float *dst, const CUtensorMap *map, Barrier &bar) {
  cde::cp_async_bulk_tensor_1d_global_to_shared(dst, map, 0, bar);
}

struct Maps {
  CUtensorMap a;
  int n;
};

__global__ void kernel(const __grid_constant__ CUtensorMap map,
                       const __grid_constant__ Maps maps,
                       const CUtensorMap *gmap) {
  __shared__ alignas(128) float tile[256];
  __shared__ Barrier bar;
  __shared__ uint64_t mbar;
  // A local copy of the parameter.
  CUtensorMap local = map;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor map 'local' is a local variable, in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: the address of 'local' reaches a TMA operation here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
  cde::cp_async_bulk_tensor_1d_global_to_shared(tile, &local, 0, bar);
  // A local copy of a struct that holds a map, through a helper.
  Maps copy = maps;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 'copy' holds a CUtensorMap and is a local variable, in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: the address of 'copy' is passed on here and reaches a TMA operation
  // CHECK-MESSAGES: :[[@LINE-24]]:3: note: the TMA operation
  // CHECK-MESSAGES: :[[@LINE-4]]:8: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
  loadByPtr(tile, &copy.a, bar);
  // A map copied from global into shared memory, read by cuda::ptx.
  __shared__ CUtensorMap smap;
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: tensor map 'smap' is in shared memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: the address of 'smap' reaches a TMA operation here
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
  if (threadIdx.x == 0)
    smap = *gmap;
  int32_t at[1] = {0};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                  cuda::ptx::space_global, tile, &smap, at,
                                  &mbar);
  // Correct twins: the parameters themselves, the global map, references.
  cde::cp_async_bulk_tensor_1d_global_to_shared(tile, &map, 0, bar);
  loadByPtr(tile, &maps.a, bar);
  loadByPtr(tile, gmap, bar);
  const CUtensorMap &ref = map;
  loadByRef(tile, ref, &mbar);
  loadByValue(tile, map, &mbar);
}

// The device-side modification workflow: a shared-memory copy that only
// tensormap instructions touch; the copies read the global map. Silent.
__global__ void modify(CUtensorMap *gmap, float *newBase) {
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ alignas(128) float tile[256];
  __shared__ Barrier bar;
  if (threadIdx.x == 0) {
    staged = *gmap;
    asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64"
                 " [%0], %1;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(&staged)),
                    "l"(newBase)
                 : "memory");
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
                 "generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 :: "l"(gmap),
                    "r"((uint32_t)__cvta_generic_to_shared(&staged))
                 : "memory");
  }
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :: "l"(gmap) : "memory");
  cde::cp_async_bulk_tensor_1d_global_to_shared(tile, gmap, 0, bar);
  // A local map that never reaches a copy.
  CUtensorMap scratch = *gmap;
  gmap[1] = scratch;
}
