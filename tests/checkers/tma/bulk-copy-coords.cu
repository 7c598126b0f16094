// Tensor copies pass exactly one coordinate per dimension of .Nd, five for
// .tile::gather4 (TMA-COORD-COUNT). ptxas rejects a mismatch in inline asm;
// it mostly happens in asm strings built by macros. The cuda::ptx and cde
// forms cannot get it wrong (array type, arity) and stay silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace cde = cuda::device::experimental;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define TMA_LOAD(N)                                                            \
  "cp.async.bulk.tensor." #N "d.shared::cluster.global.tile.mbarrier::"       \
  "complete_tx::bytes"

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A 2-D string with three coordinates (a 3-D operand list).
__device__ void load2dWithThree(void *dst, const CUtensorMap *map,
                                uint64_t *bar, int x, int y, int z) {
  asm volatile(TMA_LOAD(2) " [%0], [%1, {%2, %3, %4}], [%5];"
               :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(map),
                  "r"(x), "r"(y), "r"(z),
                  "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
  // CHECK-NOTES: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor coordinates has 3 elements, but .2d takes exactly 2 (TMA-COORD-COUNT) [tma-bulk-copy]
}

// A 3-D store with two coordinates.
__device__ void store3dWithTwo(const CUtensorMap *map, void *src, int x,
                               int y) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"
               " [%0, {%1, %2}], [%3];"
               :: "l"(map), "r"(x), "r"(y),
                  "r"((uint32_t)__cvta_generic_to_shared(src))
               : "memory");
  // CHECK-NOTES: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor coordinates has 2 elements, but .3d takes exactly 3 (TMA-COORD-COUNT) [tma-bulk-copy]
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

__device__ void load3d(void *dst, const CUtensorMap *map, uint64_t *bar,
                       int x, int y, int z) {
  asm volatile(TMA_LOAD(3) " [%0], [%1, {%2, %3, %4}], [%5];"
               :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(map),
                  "r"(x), "r"(y), "r"(z),
                  "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
}

__device__ void store2d(const CUtensorMap *map, void *src, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%1, %2}], [%3];"
               :: "l"(map), "r"(x), "r"(y),
                  "r"((uint32_t)__cvta_generic_to_shared(src))
               : "memory");
}

__device__ void prefetch1d(const CUtensorMap *map, int x) {
  asm volatile("cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%0, {%1}];"
               :: "l"(map), "r"(x) : "memory");
}

__global__ void libraryForms(const __grid_constant__ CUtensorMap map,
                             float *g) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t bar;
  __shared__ block_barrier cbar;
  const int32_t coords[2] = {0, 64};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                  cuda::ptx::space_global, tile, &map, coords,
                                  &bar);
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global,
                                  cuda::ptx::space_shared, &map, coords, tile);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, 64, cbar);
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 64, tile);
  load3d(tile, &map, &bar, 0, 0, 0);
  store2d(&map, tile, 0, 0);
  prefetch1d(&map, 0);
}
