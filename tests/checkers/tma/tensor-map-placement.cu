// tma-tensor-map-placement: a __global__ kernel parameter that holds a
// CUtensorMap by value without 'const __grid_constant__' is a local copy once
// its address is taken; when that address provably reaches a TMA operation
// (inline PTX, cuda::ptx or cde wrappers, directly or through up to three
// levels of device functions) the map read is undefined behaviour
// (TMAP-PLACE-GRID-CONSTANT, tma-rules.md section 5 and TMA-MAP-STATE-SPACE).
// Kernels are in the AST of both passes; code under #if __CUDA_ARCH__ only in
// the device pass. The fix-it adds 'const __grid_constant__' (never '&').
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cde = cuda::device::experimental;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

// CuTe's name for the map (cute/arch/copy_sm90_desc.hpp).
namespace cute {
using TmaDescriptor = CUtensorMap;
} // namespace cute

// The fast.cu style: a generic pointer, turned into an integer for the asm.
__device__ static inline void loadAsync(float *Dst, void const *const SrcMap,
                                        uint64_t *Bar, int Col, int Row) {
  uint64_t MapPtr = reinterpret_cast<uint64_t>(SrcMap);
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :
               : "r"(0), "l"(MapPtr), "r"(0), "r"(Col), "r"(Row)
               : "memory");
}

// Captured by reference in a lambda (learn-cuda's load_AB: `[&]` and
// `&A_tmap` passed on to a helper): the parameter itself.
__device__ void loadFromCapture(int Dst, const void *Map) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(Dst), "l"(Map), "r"(0), "r"(0), "r"(0) : "memory");
}
__global__ void capturedByReference(CUtensorMap MapA, int Dst) {
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: CUtensorMap parameter 'MapA' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void capturedByReference(const __grid_constant__ CUtensorMap MapA, int Dst) {
  auto Load = [&](int Stage) { loadFromCapture(Dst + Stage, &MapA); };
  Load(0);
}
__global__ void capturedByReferenceNamed(CUtensorMap MapA, int Dst) {
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: CUtensorMap parameter 'MapA' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void capturedByReferenceNamed(const __grid_constant__ CUtensorMap MapA, int Dst) {
  auto Load = [&MapA, Dst] { loadFromCapture(Dst, &MapA); };
  Load();
}
// The correct twin: the parameter is already const __grid_constant__.
__global__ void capturedByReferenceOk(const __grid_constant__ CUtensorMap MapA,
                                      int Dst) {
  auto Load = [&](int Stage) { loadFromCapture(Dst + Stage, &MapA); };
  Load(0);
}

// A reference parameter whose address feeds the asm.
__device__ void prefetchRef(const CUtensorMap &Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
}

// Three levels of device functions down to the TMA operation.
__device__ void level3(const void *Map) {
  asm volatile("cp.async.bulk.prefetch.tensor.1d.L2.global [%0, {%1}];" ::"l"(
                   Map),
               "r"(0));
}
__device__ void level2(const void *Map) { level3(Map); }
__device__ void level1(const void *Map) { level2(Map); }

// A non-const pointer: the kernel's map cannot become const for this call.
__device__ void storeThroughMutable(void *Map, const float *Src) {
  asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group "
               "[%0, {%1}], [%2];" ::"l"(Map),
               "r"(0), "r"(0)
               : "memory");
}

struct GemmParams {
  CUtensorMap MapA;
  CUtensorMap MapB;
  int M, N, K;
};

struct MapArray {
  CUtensorMap Maps[2];
};

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// Inline PTX in the kernel, in both passes.
__global__ void asmInKernel(CUtensorMap Map, uint64_t *Bar) {
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: CUtensorMap parameter 'Map' is passed by value without 'const __grid_constant__': its address points to a local copy, which TMA cannot read (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void asmInKernel(const __grid_constant__ CUtensorMap Map, uint64_t *Bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :
               : "r"(0), "l"(&Map), "r"(0), "r"(0), "r"(0)
               : "memory");
}

// The same under #if __CUDA_ARCH__: only the device pass sees the asm.
__global__ void asmGuarded(CUtensorMap Map) {
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:40: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES-DEVICE: __global__ void asmGuarded(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-HOST: __global__ void asmGuarded(CUtensorMap Map) {
#if __CUDA_ARCH__ >= 900
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
#endif
}

// The cde wrapper of <cuda/barrier>.
__global__ void cdeCopy(float *Out, CUtensorMap Map) {
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void cdeCopy(float *Out, const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ Barrier *Bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, &Map, 0, 0, *Bar);
}

// cuda::ptx::cp_async_bulk_tensor and cp_reduce_async_bulk_tensor.
__global__ void ptxCopy(CUtensorMap Load, CUtensorMap Reduce, uint64_t *Bar) {
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: CUtensorMap parameter 'Load' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:55: warning: CUtensorMap parameter 'Reduce' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void ptxCopy(const __grid_constant__ CUtensorMap Load, const __grid_constant__ CUtensorMap Reduce, uint64_t *Bar) {
  __shared__ alignas(128) float Tile[64 * 64];
  int32_t Coords[2] = {0, 0};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                  cuda::ptx::space_global, Tile, &Load,
                                  Coords, Bar);
  cuda::ptx::cp_reduce_async_bulk_tensor(
      cuda::ptx::space_global, cuda::ptx::space_shared, cuda::ptx::op_add,
      &Reduce, Coords, Tile);
}

// Through a __device__ helper with a generic pointer parameter.
__global__ void throughHelper(CUtensorMap MapA, float *Out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: CUtensorMap parameter 'MapA' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void throughHelper(const __grid_constant__ CUtensorMap MapA, float *Out) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &MapA, &Bar, 0, 0);
}

// Bound to a reference parameter; and three levels deep.
__global__ void throughReference(CUtensorMap Map, CUtensorMap Deep) {
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: CUtensorMap parameter 'Deep' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void throughReference(const __grid_constant__ CUtensorMap Map, const __grid_constant__ CUtensorMap Deep) {
  prefetchRef(Map);
  level1(&Deep);
}

// Local aliases: a pointer, a reference, an integer, __builtin_addressof.
__global__ void aliases(CUtensorMap A, CUtensorMap B, CUtensorMap C,
                        CUtensorMap D) {
  // CHECK-MESSAGES: :[[@LINE-2]]:37: warning: CUtensorMap parameter 'A' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-3]]:52: warning: CUtensorMap parameter 'B' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-4]]:67: warning: CUtensorMap parameter 'C' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-4]]:37: warning: CUtensorMap parameter 'D' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void aliases(const __grid_constant__ CUtensorMap A, const __grid_constant__ CUtensorMap B, const __grid_constant__ CUtensorMap C,
  // CHECK-FIXES-NEXT: const __grid_constant__ CUtensorMap D) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ Barrier *Bar;
  const CUtensorMap *PA = &A;
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, PA, 0, 0, *Bar);
  const CUtensorMap &RB = B;
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, &RB, 0, 0, *Bar);
  uint64_t AddrC = reinterpret_cast<uint64_t>(&C);
  asm volatile("prefetch.tensormap [%0];" ::"l"(AddrC) : "memory");
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, __builtin_addressof(D),
                                                0, 0, *Bar);
}

// Already const: only __grid_constant__ is missing.
__global__ void alreadyConst(const CUtensorMap Map, CUtensorMap const East) {
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-2]]:71: warning: CUtensorMap parameter 'East' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void alreadyConst(const __grid_constant__ CUtensorMap Map, __grid_constant__ CUtensorMap const East) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
  asm volatile("prefetch.tensormap [%0];" ::"l"(&East) : "memory");
}

// A struct that holds maps (the CUTLASS Params pattern), a member array of
// maps, and CuTe's TmaDescriptor.
__global__ void holders(GemmParams Params, MapArray Arr,
                        cute::TmaDescriptor Desc) {
  // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: parameter 'Params' holds a CUtensorMap and is passed by value without 'const __grid_constant__': its address points to a local copy, which TMA cannot read (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-3]]:53: warning: parameter 'Arr' holds a CUtensorMap and is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE-3]]:45: warning: CUtensorMap parameter 'Desc' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void holders(const __grid_constant__ GemmParams Params, const __grid_constant__ MapArray Arr,
  // CHECK-FIXES-NEXT: const __grid_constant__ cute::TmaDescriptor Desc) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &Params.MapB, &Bar, Params.M, Params.N);
  loadAsync(Tile, &Arr.Maps[1], &Bar, 0, 0);
  loadAsync(Tile, &Desc, &Bar, 0, 0);
}

// A kernel template: one warning for all instantiations.
template <int BlockM>
__global__ void templated(CUtensorMap Map, float *Out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void templated(const __grid_constant__ CUtensorMap Map, float *Out) {
  __shared__ alignas(128) float Tile[BlockM * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &Map, &Bar, BlockM, 0);
}
template __global__ void templated<64>(CUtensorMap, float *);
template __global__ void templated<128>(CUtensorMap, float *);

// A kernel declared before its definition: both declarations are fixed.
__global__ void declaredTwice(CUtensorMap Map);
// CHECK-FIXES: __global__ void declaredTwice(const __grid_constant__ CUtensorMap Map);
__global__ void declaredTwice(CUtensorMap Map) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void declaredTwice(const __grid_constant__ CUtensorMap Map) {
  prefetchRef(Map);
}

//===----------------------------------------------------------------------===//
// Positive cases without a fix-it: adding const would not compile, or the
// text is not the user's to edit
//===----------------------------------------------------------------------===//

// The kernel writes the map.
__global__ void writesMap(CUtensorMap Map) {
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void writesMap(CUtensorMap Map) {
  Map.opaque[0] = 0;
  prefetchRef(Map);
}

// A non-const pointer to the map leaves the kernel.
__global__ void mutablePointer(CUtensorMap Map, const float *Src) {
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void mutablePointer(CUtensorMap Map, const float *Src) {
  storeThroughMutable(&Map, Src);
}

// The parameter is spelled by a macro.
#define MAP_PARAM(Name) CUtensorMap Name
__global__ void macroParam(MAP_PARAM(Map)) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void macroParam(MAP_PARAM(Map)) {
  prefetchRef(Map);
}

// The type is a template parameter, shared with other instantiations.
template <class MapT> __global__ void dependentType(MapT Map) {
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: template <class MapT> __global__ void dependentType(MapT Map) {
  prefetchRef(Map);
}
template __global__ void dependentType<CUtensorMap>(CUtensorMap);

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

__constant__ CUtensorMap ConstantMap;

// The right forms: const __grid_constant__, a __constant__ map, and a map in
// global memory behind the acquire fence of TMAP-PLACE-GLOBAL-FENCE.
__global__ void correct(const __grid_constant__ CUtensorMap Map,
                        const __grid_constant__ GemmParams Params,
                        const CUtensorMap *GlobalMap, CUtensorMap *Mutable) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0)
    asm volatile("fence.proxy.tensormap::generic.acquire.sys [%0], 128;"
                 :: "l"(GlobalMap) : "memory");
  __syncthreads();
  loadAsync(Tile, &Map, &Bar, 0, 0);
  loadAsync(Tile, &Params.MapA, &Bar, 0, 0);
  loadAsync(Tile, GlobalMap, &Bar, 0, 0);
  loadAsync(Tile, Mutable, &Bar, 0, 0);
  loadAsync(Tile, &ConstantMap, &Bar, 0, 0);
}

// CUTLASS_GRID_CONSTANT is __grid_constant__ for nvcc and empty for clang:
// the author asked for the attribute.
#define CUTLASS_GRID_CONSTANT
__global__ void cutlassMacro(CUTLASS_GRID_CONSTANT GemmParams const Params) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadAsync(Tile, &Params.MapA, &Bar, 0, 0);
}

__device__ void notTma(const void *P, uint64_t *Out) {
  asm volatile("mov.b64 %0, %1;" : "=l"(*Out) : "l"(P));
}
__device__ void tmaOnOther(const void *Map, const void *Other) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(Other) : "memory");
}
__device__ void byValue(CUtensorMap Copy) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Copy) : "memory");
}

// The address is taken but never reaches a TMA operation.
__global__ void addressNotForTma(CUtensorMap A, CUtensorMap B, CUtensorMap C,
                                 CUtensorMap D, const CUtensorMap *G,
                                 uint64_t *Out) {
  notTma(&A, Out);
  tmaOnOther(&B, G);
  // A copy goes to the device function, not the address.
  byValue(C);
  *Out = reinterpret_cast<uint64_t>(&D);
}

// A copy of the map is a local of its own (TMA-MAP-STATE-SPACE, not this
// rule); a struct member that is not a map.
__global__ void copies(CUtensorMap Map, GemmParams Params) {
  CUtensorMap Local = Map;
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Local) : "memory");
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Params.M) : "memory");
}

// A pointer that is reassigned may no longer hold the map's address; a
// 32-bit truncation is not an address.
__global__ void notProven(CUtensorMap A, CUtensorMap B, const CUtensorMap *G,
                          bool Flag) {
  const CUtensorMap *P = &A;
  if (Flag)
    P = G;
  asm volatile("prefetch.tensormap [%0];" ::"l"(P) : "memory");
  uint32_t Low = static_cast<uint32_t>(reinterpret_cast<uint64_t>(&B));
  asm volatile("prefetch.tensormap [%0];" ::"r"(Low) : "memory");
}

// A host function and a device function with a by-value map are no kernels.
void hostFunction(CUtensorMap Map) { (void)&Map; }
__device__ void deviceFunction(CUtensorMap Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

__device__ void level4(const void *Map) { level1(Map); }

// Four levels of device functions: not followed (CallDepth is 3).
__global__ void tooDeep(CUtensorMap Map) { level4(&Map); }

// A capture by copy is the closure's own map, not the parameter: not
// followed.
__global__ void capturedByCopy(CUtensorMap Map) {
  auto Prefetch = [=] {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
  };
  Prefetch();
}
__global__ void capturedByName(CUtensorMap Map) {
  auto Prefetch = [Map] {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
  };
  Prefetch();
}

// Through a function pointer: not followed.
__global__ void throughPointer(CUtensorMap Map,
                               void (*Fn)(const CUtensorMap &)) {
  Fn(Map);
}
