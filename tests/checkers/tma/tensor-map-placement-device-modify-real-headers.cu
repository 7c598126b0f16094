// TMAP-DEV-READONLY-PARAM and TMAP-DEV-REPLACE-ENCODING with the real CUDA
// toolkit headers and CCCL's cuda::ptx (n32_t is integral_constant there,
// the wrappers live in an inline ABI namespace). Each wrong kernel has a
// correct twin.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_real_host

#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__global__ void replaceParam(const __grid_constant__ CUtensorMap map,
                             uint64_t next) {
  ptx::tensormap_replace_global_address(ptx::space_global,
                                        const_cast<CUtensorMap *>(&map), next);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: cuda::ptx::tensormap_replace_global_address writes tensor map 'map' in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-5]]:66: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

// The Programming Guide's workflow: stage, modify, publish.
__global__ void replaceStaged(const __grid_constant__ CUtensorMap map,
                              CUtensorMap *out, uint64_t next) {
  __shared__ alignas(128) CUtensorMap staged;
  if (threadIdx.x == 0)
    staged = map;
  __syncwarp();
  ptx::tensormap_replace_global_address(ptx::space_shared, &staged, next);
  ptx::tensormap_replace_elemtype(ptx::space_shared, &staged,
                                  ptx::n32_t<10>{});
  ptx::tensormap_replace_swizzle_mode(ptx::space_shared, &staged,
                                      ptx::n32_t<3>{});
  ptx::tensormap_replace_rank(ptx::space_shared, &staged, 1u);
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out,
                               &staged, ptx::n32_t<128>{});
}

__global__ void replaceEncodings(CUtensorMap *out) {
  __shared__ alignas(128) CUtensorMap staged;
  ptx::tensormap_replace_elemtype(
      ptx::space_shared, &staged,
      ptx::n32_t<CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ (10), a CUtensorMapDataType; PTX reads 10 as .bf16 and spells this type 8 (.f32.ftz) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: pass the PTX .elemtype code 8, not the driver enumerator
  ptx::tensormap_replace_swizzle_mode(
      ptx::space_shared, &staged,
      ptx::n32_t<CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensormap.replace .swizzle_mode is given CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B (6), a CUtensorMapSwizzle; PTX reads 6 as no valid swizzle mode, not a 128-byte swizzle with a wider atom (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: set .swizzle_mode to 3 (128B) and .swizzle_atomicity to 3
  ptx::tensormap_replace_rank(ptx::space_shared, &staged, 5u);
  // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: tensormap.replace .rank is given 5, which sets rank 6: the field takes the rank minus one, at most 4 (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:59: note: pass the rank minus one
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out,
                               &staged, ptx::n32_t<128>{});
}

// Through a helper's parameter: the rank its caller passes.
__device__ void setRank(CUtensorMap *staged, uint32_t rank) {
  ptx::tensormap_replace_rank(ptx::space_shared, staged, rank);
}

__global__ void replaceThroughHelper(CUtensorMap *out) {
  __shared__ alignas(128) CUtensorMap staged;
  setRank(&staged, 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensormap.replace .rank is given 5, which sets rank 6: the field takes the rank minus one, at most 4 (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: passed to tensormap.replace .rank here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: pass the rank minus one
  // Correct twin: the rank minus one.
  setRank(&staged, 4);
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, out,
                               &staged, ptx::n32_t<128>{});
}
