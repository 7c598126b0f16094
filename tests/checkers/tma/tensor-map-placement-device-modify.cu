// Device-side modification of tensor maps (tma-rules.md section 5):
// TMAP-DEV-READONLY-PARAM, a const __grid_constant__ map written in place
// by tensormap.replace (inline PTX, through a `mov` register as
// TransformerEngine writes it, a helper, cuda::ptx) or by the destination
// of tensormap.cp_fenceproxy; TMAP-DEV-REPLACE-ENCODING, tensormap.replace
// values written as driver enumerators whose numbers mean something else
// to PTX (CUtensorMapDataType 8/9/10, CUtensorMapSwizzle 4/5/6), a rank
// that is not the rank minus one, and codes outside a field. Each wrong
// kernel has a correct twin: the map staged in shared memory (the
// Programming Guide's workflow, DeepGEMM's helpers), PTX codes.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <stdint.h>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace cuda::ptx {
inline namespace __4 {
template <int N> struct n32_t {};
template <int N>
__device__ static inline void
tensormap_replace_elemtype(space_shared_t, void *tm_addr, n32_t<N> new_val);
template <int N>
__device__ static inline void
tensormap_replace_swizzle_mode(space_shared_t, void *tm_addr, n32_t<N> new_val);
template <typename B32>
__device__ static inline void tensormap_replace_rank(space_shared_t,
                                                     void *tm_addr,
                                                     B32 new_val);
template <typename = void>
__device__ static inline void
tensormap_replace_global_address(space_global_t, void *tm_addr,
                                 uint64_t new_val);
template <int N, typename Scope>
__device__ static inline void tensormap_cp_fenceproxy(sem_release_t, Scope,
                                                      void *dst,
                                                      const void *src,
                                                      n32_t<N> size);
} // namespace __4
} // namespace cuda::ptx
namespace ptx = cuda::ptx;

//===----------------------------------------------------------------------===//
// TMAP-DEV-READONLY-PARAM
//===----------------------------------------------------------------------===//

__global__ void replaceParam(const __grid_constant__ CUtensorMap map,
                             uint64_t next) {
  asm volatile("tensormap.replace.tile.global_address.b1024.b64 [%0], %1;"
               :: "l"(&map), "l"(next) : "memory");
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: tensormap.replace writes tensor map 'map' in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-5]]:66: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

// TransformerEngine's form: the address moves into a PTX register first.
__global__ void replaceParamThroughMov(const __grid_constant__ CUtensorMap map,
                                      uint64_t next, uint32_t rows) {
  asm volatile("{\n\t"
               ".reg.b64 tensor_map_ptr; \n\t"
               "mov.b64 tensor_map_ptr, %0; \n\t"
               "tensormap.replace.tile.global_address.b1024.b64 "
               "[tensor_map_ptr], %1; \n\t"
               "tensormap.replace.tile.global_dim.b1024.b32 "
               "[tensor_map_ptr], 1, %2; \n\t"
               "}\n" :: "l"(reinterpret_cast<uintptr_t>(&map)), "l"(next),
               "r"(rows) : "memory");
  // CHECK-MESSAGES: :[[@LINE-9]]:3: warning: tensormap.replace writes tensor map 'map' in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-12]]:76: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

// flashinfer's helper, reached with the constness cast away.
__device__ inline void setGlobalAddress(CUtensorMap &tensorMap, void *ptr) {
  asm volatile(
      "tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n"
      :: "l"(&tensorMap), "l"(ptr) : "memory");
}

__global__ void replaceParamInHelper(const __grid_constant__ CUtensorMap map,
                                     void *next) {
  setGlobalAddress(const_cast<CUtensorMap &>(map), next);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the address of tensor map 'map' is passed on here to tensormap.replace, which writes it in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the write
  // CHECK-MESSAGES: :[[@LINE-5]]:74: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

// cuda::ptx, and the destination of tensormap.cp_fenceproxy.
__global__ void ptxReplaceParam(const __grid_constant__ CUtensorMap map,
                                uint64_t next) {
  ptx::tensormap_replace_global_address(ptx::space_global,
                                        const_cast<CUtensorMap *>(&map), next);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: cuda::ptx::tensormap_replace_global_address writes tensor map 'map' in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-5]]:69: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

__global__ void publishOverParam(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) CUtensorMap staged;
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta,
                               const_cast<CUtensorMap *>(&map), &staged,
                               ptx::n32_t<128>{});
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: cuda::ptx::tensormap_cp_fenceproxy writes tensor map 'map' in place; 'map' is a const __grid_constant__ kernel parameter, and modifying a __grid_constant__ object is undefined behaviour (TMAP-DEV-READONLY-PARAM) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-6]]:70: note: 'map' is declared here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: copy the map to a __shared__ alignas(128) CUtensorMap, modify the copy with tensormap.replace.*.shared::cta and publish it with tensormap.cp_fenceproxy to global memory
}

// Correct twins: the parameter is copied to shared memory, the copy is
// modified and published to a map in global memory; reading the parameter
// (the copy's source, the cp_fenceproxy source) is no write.
__global__ void replaceStagedCopy(const __grid_constant__ CUtensorMap map,
                                  CUtensorMap *out, uint64_t next) {
  __shared__ alignas(128) CUtensorMap staged;
  if (threadIdx.x == 0)
    staged = map;
  __syncthreads();
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&staged));
  asm volatile(
      "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;"
      :: "r"(s), "l"(next) : "memory");
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
               "generic.release.gpu.sync.aligned [%0], [%1], 128;"
               :: "l"(out), "r"(s) : "memory");
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta, out,
                               &staged, ptx::n32_t<128>{});
}

// A map in global memory (a pointer parameter) may be modified in place.
__global__ void replaceGlobal(CUtensorMap *map, uint64_t next) {
  ptx::tensormap_replace_global_address(ptx::space_global, map, next);
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-REPLACE-ENCODING
//===----------------------------------------------------------------------===//

__device__ void encodings(CUtensorMap *staged) {
  // Driver enumerators whose numbers are other types / swizzles to PTX.
  ptx::tensormap_replace_elemtype(
      ptx::space_shared, staged,
      ptx::n32_t<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 (9), a CUtensorMapDataType; PTX reads 9 as .f64 and spells this type 10 (.bf16) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: pass the PTX .elemtype code 10, not the driver enumerator
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(staged));
  asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 "
               "[%0], %1;" :: "r"(s), "n"(CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
               : "memory");
  // CHECK-MESSAGES: :[[@LINE-2]]:43: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_FLOAT64 (8), a CUtensorMapDataType; PTX reads 8 as .f32.ftz and spells this type 9 (.f64) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-3]]:43: note: pass the PTX .elemtype code 9, not the driver enumerator
  ptx::tensormap_replace_swizzle_mode(
      ptx::space_shared, staged,
      ptx::n32_t<CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensormap.replace .swizzle_mode is given CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (4), a CUtensorMapSwizzle; PTX reads 4 as the 96B swizzle (sm_103a only), not a 128-byte swizzle with a wider atom (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: set .swizzle_mode to 3 (128B) and .swizzle_atomicity to 1
  // The rank, not the rank minus one; a code past a field's last one.
  ptx::tensormap_replace_rank(ptx::space_shared, staged, 5u);
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: tensormap.replace .rank is given 5, which sets rank 6: the field takes the rank minus one, at most 4 (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:58: note: pass the rank minus one
  asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024"
               ".b32 [%0], 3;" :: "r"(s) : "memory");
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: tensormap.replace .interleave_layout is given 3, not a valid code (0 to 2) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pass one of the field's PTX codes (PTX ISA, tensormap.replace)
}

// Correct twins: PTX codes, driver enumerators whose numbers coincide, and
// the rank minus one.
__device__ void encodingsTwin(CUtensorMap *staged, uint32_t rank) {
  ptx::tensormap_replace_elemtype(ptx::space_shared, staged, ptx::n32_t<10>{});
  ptx::tensormap_replace_elemtype(ptx::space_shared, staged,
                                  ptx::n32_t<CU_TENSOR_MAP_DATA_TYPE_FLOAT16>{});
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(staged));
  asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 "
               "[%0], 9;" :: "r"(s) : "memory");
  ptx::tensormap_replace_swizzle_mode(ptx::space_shared, staged,
                                      ptx::n32_t<CU_TENSOR_MAP_SWIZZLE_128B>{});
  ptx::tensormap_replace_rank(ptx::space_shared, staged, 4u);
  ptx::tensormap_replace_rank(ptx::space_shared, staged, rank - 1);
  asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024"
               ".b32 [%0], %1;" :: "r"(s), "n"(CU_TENSOR_MAP_INTERLEAVE_32B)
               : "memory");
}

// Through helpers' parameters: the value each caller passes (reported at
// the caller's argument), one and two calls deep, and a kernel parameter
// bound by its launch.
__device__ void setElemType(CUtensorMap *staged, uint32_t type) {
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(staged));
  asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 "
               "[%0], %1;" :: "r"(s), "r"(type) : "memory");
}
__device__ void setRank(CUtensorMap *staged, uint32_t rank) {
  ptx::tensormap_replace_rank(ptx::space_shared, staged, rank);
}
__device__ void setRankOf(CUtensorMap *staged, uint32_t rank) {
  setRank(staged, rank);
}

__global__ void replaceThroughHelpers(CUtensorMap *out) {
  __shared__ alignas(128) CUtensorMap staged;
  setElemType(&staged, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 (9), a CUtensorMapDataType; PTX reads 9 as .f64 and spells this type 10 (.bf16) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: passed to tensormap.replace .elemtype here
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: pass the PTX .elemtype code 10, not the driver enumerator
  setRank(&staged, 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensormap.replace .rank is given 5, which sets rank 6: the field takes the rank minus one, at most 4 (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-14]]:3: note: passed to tensormap.replace .rank here
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: pass the rank minus one
  setRankOf(&staged, 7);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: tensormap.replace .rank is given 7, which sets rank 8: the field takes the rank minus one, at most 4 (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-15]]:19: note: with 'rank' = 7 from this call
  // CHECK-MESSAGES: :[[@LINE-19]]:3: note: passed to tensormap.replace .rank here
  // CHECK-MESSAGES: :[[@LINE-4]]:22: note: pass the rank minus one
  // Correct twins: PTX codes and the rank minus one through the same
  // helpers.
  setElemType(&staged, 10);
  setElemType(&staged, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  setRank(&staged, 4);
  setRankOf(&staged, 1);
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta, out,
                               &staged, ptx::n32_t<128>{});
}

// A kernel parameter that the launch binds to a driver enumerator.
__global__ void replaceFromLaunch(CUtensorMap *out, CUtensorMapDataType type) {
  __shared__ alignas(128) CUtensorMap staged;
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(&staged));
  asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 "
               "[%0], %1;" :: "r"(s), "r"(type) : "memory");
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta, out,
                               &staged, ptx::n32_t<128>{});
}

void launchReplace(CUtensorMap *out) {
  replaceFromLaunch<<<1, 32>>>(out, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ (10), a CUtensorMapDataType; PTX reads 10 as .bf16 and spells this type 8 (.f32.ftz) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: passed to tensormap.replace .elemtype here
  // CHECK-MESSAGES: :[[@LINE-3]]:37: note: pass the PTX .elemtype code 8, not the driver enumerator
  // Correct twin: a type whose number PTX shares.
  replaceFromLaunch<<<1, 32>>>(out, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
}

// A template parameter of a driver enum type: each instantiation's
// argument (reported in the template, with the instantiation). An int
// parameter does not say which enum the argument was (silent), and an
// argument whose number PTX shares is right (correct twins).
template <CUtensorMapDataType Type>
__device__ void setElemTypeOf(CUtensorMap *staged) {
  ptx::tensormap_replace_elemtype(ptx::space_shared, staged,
                                  ptx::n32_t<Type>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: tensormap.replace .elemtype is given CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 (9), a CUtensorMapDataType; PTX reads 9 as .f64 and spells this type 10 (.bf16) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:46: note: pass the PTX .elemtype code 10, not the driver enumerator
  // CHECK-MESSAGES: :[[@LINE+9]]:3: note: in instantiation of 'setElemTypeOf<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16>' requested here
}
template <int Code> __device__ void setElemTypeCode(CUtensorMap *staged) {
  ptx::tensormap_replace_elemtype(ptx::space_shared, staged,
                                  ptx::n32_t<Code>{});
}

__global__ void replaceThroughTemplates(CUtensorMap *out) {
  __shared__ alignas(128) CUtensorMap staged;
  setElemTypeOf<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16>(&staged);
  setElemTypeOf<CU_TENSOR_MAP_DATA_TYPE_FLOAT16>(&staged);
  setElemTypeCode<10>(&staged);
  ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_cta, out,
                               &staged, ptx::n32_t<128>{});
}
