// The target parts of TMA-CTA-GROUP and TMA-GATHER4 (tma-rules.md section
// 7) through a helper and cuda::ptx (the stub headers; the real CCCL gates
// in bulk-copy-arch-real-headers.cu): `.cta_group::N` tensor copies need an
// sm_100 family target, .tile::gather4 into .shared::cta sm_100. Reported
// on a device pass for sm_90a, for kernels and the device functions they
// call; silent on the host pass (no target), on sm_100a, and for unused
// inline helpers, which are never compiled.
// RUN: %check_clang_tidy -check-suffixes=,SM90 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

// A CTA-pair load in a helper the kernel uses.
__device__ void pairLoad(void *dst, const CUtensorMap *map, uint64_t *bar,
                         int x) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::2 [%0], [%1, {%2}], [%3];"
               :: "r"(smem(dst)), "l"(map), "r"(x), "r"(smem(bar))
               : "memory");
  // CHECK-MESSAGES-SM90: :[[@LINE-4]]:3: warning: cp.async.bulk.tensor .cta_group is not supported on sm_90a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
}

// Never used: nvcc does not compile it for this GPU. Silent.
__device__ inline void unusedPairLoad(void *dst, const CUtensorMap *map,
                                      uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::1 [%0], [%1, {%2}], [%3];"
               :: "r"(smem(dst)), "l"(map), "r"(0), "r"(smem(bar))
               : "memory");
}

__global__ void kernel(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) uint16_t rows[4 * 64];
  __shared__ uint64_t bar;
  pairLoad(rows, &map, &bar, 0);
  int32_t at[5] = {0, 1, 2, 3, 4};
  cuda::ptx::cp_async_bulk_tensor_tile_gather4(
      cuda::ptx::space_shared, cuda::ptx::space_global, rows, &map, at, &bar);
  // CHECK-MESSAGES-SM90: :[[@LINE-2]]:3: warning: cuda::ptx::cp_async_bulk_tensor_tile_gather4 .tile::gather4 into .shared::cta is not supported on sm_90a, the target of this device pass; it needs sm_100 or newer (TMA-GATHER4) [tma-bulk-copy]
  // A guarded Blackwell path: not in the sm_90a pass.
#if __CUDA_ARCH__ >= 1000
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::1 [%0], [%1, {%2}], [%3];"
               :: "r"(smem(rows)), "l"(&map), "r"(0), "r"(smem(&bar))
               : "memory");
#endif
}
