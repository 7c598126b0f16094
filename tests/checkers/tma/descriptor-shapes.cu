// Shapes of real code that the folder sees through: configuration structs,
// type-to-dtype and swizzle mappings, fill loops and forwarding wrappers.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

namespace std {
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T>
T &&forward(typename remove_reference<T>::type &V) noexcept {
  return static_cast<T &&>(V);
}
template <class A, class B> struct is_same {
  static constexpr bool value = false;
};
template <class A> struct is_same<A, A> {
  static constexpr bool value = true;
};
} // namespace std

#define MODES(Swizzle)                                                         \
  CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,     \
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A configuration struct, passed by const reference and by value, with a
// nested tile, a default swizzle and an array member.
struct Tile {
  cuuint32_t Rows, Cols;
};
struct TmaConfig {
  cuuint64_t Height, Width;
  Tile Box;
  CUtensorMapSwizzle Swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  cuuint32_t ElemStrides[2] = {1, 1};
};

void encodeConfig(CUtensorMap *Map, unsigned short *Ptr,
                  const TmaConfig &Cfg) {
  cuuint64_t Dims[2] = {Cfg.Width, Cfg.Height};
  cuuint64_t Strides[1] = {Cfg.Width * 2};
  cuuint32_t Box[2] = {Cfg.Box.Cols, Cfg.Box.Rows};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, Cfg.ElemStrides, MODES(Cfg.Swizzle));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 2002 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: inner box is boxDim[0] = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:40: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
}

void copyConfig(CUtensorMap *Map, unsigned short *Ptr, TmaConfig Cfg) {
  encodeConfig(Map, Ptr, Cfg);
}

void configCallers(CUtensorMap *Map, unsigned short *Ptr) {
  TmaConfig Good{4096, 4096, {64, 64}};
  encodeConfig(Map, Ptr, Good);
  TmaConfig OddWidth{4096, 1001, {64, 64}};
  encodeConfig(Map, Ptr, OddWidth);
  encodeConfig(Map, Ptr, {4096, 4096, {64, 128}});
  TmaConfig BadStrides{4096, 4096, {64, 64}, CU_TENSOR_MAP_SWIZZLE_128B, {1, 9}};
  copyConfig(Map, Ptr, BadStrides);
}

// The data type from the element type, the swizzle from the inner box bytes.
template <class T> CUtensorMapDataType dataTypeOf() {
  if constexpr (std::is_same<T, float>::value)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  else if constexpr (std::is_same<T, unsigned short>::value)
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  else
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle swizzleFor(int Bytes) {
  switch (Bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

template <class T> void encodeTyped(CUtensorMap *Map, T *Ptr, int Inner) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(T)};
  cuuint32_t Box[2] = {(cuuint32_t)Inner, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  int Bytes = Inner * sizeof(T);
  cuTensorMapEncodeTiled(Map, dataTypeOf<T>(), 2, Ptr, Dims, Strides, Box,
                         // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: inner box is boxDim[0] = 64 * 4 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
                         ElemStrides,
                         MODES(swizzleFor(Bytes > 128 ? 128 : Bytes)));
}

void typedCallers(CUtensorMap *Map, float *F, unsigned short *H) {
  encodeTyped(Map, H, 64); // 128 bytes, 128B swizzle: fine
  encodeTyped(Map, F, 32); // 128 bytes: fine
  encodeTyped(Map, F, 64); // 256 bytes: too wide for any swizzle
}

// Arrays filled by counted loops.
void fillLoops(CUtensorMap *Map, unsigned short *Ptr) {
  constexpr int Rank = 3;
  cuuint64_t Dims[Rank], Strides[Rank - 1];
  cuuint32_t Box[Rank], ElemStrides[Rank];
  for (int I = 0; I < Rank; ++I) {
    Dims[I] = 64;
    Box[I] = I == 2 ? 300 : 64;
    ElemStrides[I] = 1;
  }
  for (int I = 0; I < Rank - 1; I++)
    Strides[I] = 128 << (I * 6);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, Rank, Ptr,
                         Dims, Strides, Box, ElemStrides,
                         // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: boxDim[2] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
                         MODES(CU_TENSOR_MAP_SWIZZLE_128B));
}

// Forwarding wrappers: CUTLASS's driver wrapper and DeepGEMM's dlsym one.
// The warning is at the argument the caller wrote.
template <class... Args> CUresult callEncodeTiled(Args... A) {
  static PFN_cuTensorMapEncodeTiled_v12000 Fn = nullptr;
  return Fn(A...);
}
template <class... Args> auto lazyEncodeTiled(Args &&...A) {
  using FuncType = decltype(&cuTensorMapEncodeTiled);
  static FuncType Fn =
      reinterpret_cast<FuncType>(dlsym(nullptr, "cuTensorMapEncodeTiled"));
  return Fn(std::forward<Args>(A)...);
}

void wrapperCallers(CUtensorMap *Map, unsigned short *Ptr) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  callEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                  Strides, Box, ElemStrides, MODES(CU_TENSOR_MAP_SWIZZLE_64B));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: globalStrides[0] is 8200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:28: warning: inner box is boxDim[0] = 64 * 2 bytes = 128 bytes, above the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
}

void lazyCallers(CUtensorMap *Map, unsigned short *Ptr) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  lazyEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims, Strides,
                  Box, ElemStrides, MODES(CU_TENSOR_MAP_SWIZZLE_128B));
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalStrides[0] is 8200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// A loop with a run-time trip count, and two stores to one array per
// iteration (their interleaving is not modelled).
void unknownLoops(CUtensorMap *Map, unsigned short *Ptr, int Rank) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {128};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Box2[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  for (int I = 0; I < Rank; ++I)
    Box[I] = 300;
  for (int I = 0; I < 1; ++I) {
    Box2[I + 1] = 300;
    Box2[1] = 64;
  }
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         MODES(CU_TENSOR_MAP_SWIZZLE_128B));
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box2, ElemStrides,
                         MODES(CU_TENSOR_MAP_SWIZZLE_128B));
}

// A mapping whose argument is a run-time value, and a struct written after
// its initialisation.
void unknownConfig(CUtensorMap *Map, unsigned short *Ptr, int Bytes) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides, MODES(swizzleFor(Bytes)));
  TmaConfig Cfg{4096, 4096, {64, 64}};
  Cfg.Box.Cols = (cuuint32_t)Bytes;
  cuuint32_t Box2[2] = {Cfg.Box.Cols, 64};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box2, ElemStrides,
                         MODES(CU_TENSOR_MAP_SWIZZLE_128B));
}

//===----------------------------------------------------------------------===//
// Stores under `if`s on template arguments
//===----------------------------------------------------------------------===//

template <bool Padding, bool Swizzle>
void encodeVariant(CUtensorMap *Map, unsigned short *Ptr, bool Runtime) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  if (Padding) {
    Box[0] = 72;
  }
  if (Runtime)
    ElemStrides[1] = 9; // not known: silent
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: inner box is boxDim[0] = 72 * 2 bytes = 144 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
                         MODES(Swizzle ? CU_TENSOR_MAP_SWIZZLE_128B
                                       : CU_TENSOR_MAP_SWIZZLE_NONE));
}

void variants(CUtensorMap *Map, unsigned short *Ptr, bool Runtime) {
  encodeVariant<true, false>(Map, Ptr, Runtime); // 144 bytes unswizzled: fine
  encodeVariant<false, true>(Map, Ptr, Runtime); // 128 bytes: fine
  encodeVariant<true, true>(Map, Ptr, Runtime);  // 144 bytes > 128B span
}

// A goto can jump over straight-line code: stores in such a function are
// not trusted.
void jumpsOverStore(CUtensorMap *Map, unsigned short *Ptr) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  goto Encode;
  Box[1] = 300;
Encode:
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         MODES(CU_TENSOR_MAP_SWIZZLE_128B));
}
