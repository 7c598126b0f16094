// tma-descriptor: every form of value that the constant folder must see
// through, each with a bad value that must be reported (and a note at the
// value's origin), and its unfolded counterpart that must stay silent.
// CHECK-NOTES pins every note as well as every warning.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda.h>

// The four enumerations every call below passes; all of them valid.
#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

void sink(cuuint32_t *);             // may write through its argument
void peek(const cuuint32_t *);       // only reads
void byValue(cuuint32_t);
void byConstRef(const cuuint32_t &);
void byRef(cuuint32_t &);
cuuint32_t runtimeRows();

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// An integer literal in an initialiser list.
void literal(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 9};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:26: note: elementStrides[1] = 9 comes from here
}

// Enumerators, in an array and as a scalar operand. A value that is the
// argument itself gets no note.
enum : cuuint32_t { BadElementStride = 9 };
enum { BadRank = 6 };
void enumerators(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, BadElementStride};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:26: note: elementStrides[1] = 9 comes from here
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, BadRank, Src,
                         Dims, Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-2]]:64: warning: tensorRank is 6, outside the supported range 1..5 (TMAP-TILED-RANK) [tma-descriptor]
}

// sizeof.
void sizeofValue(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {50, 64};
  cuuint64_t Strides[1] = {50 * sizeof(float)};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: pad the row to 208 bytes
}

// constexpr and const values: locals, globals, static members, functions.
constexpr cuuint32_t GlobalRows = 300;
const cuuint32_t GlobalBox[2] = {64, 272};
struct TileConfig {
  static constexpr cuuint32_t Rows = 512;
  static const cuuint64_t Pitch = 1000;
};
constexpr cuuint64_t rowPitch(cuuint64_t Cols) { return Cols * 2; }

void constValues(CUtensorMap *Map, void *Src) {
  constexpr cuuint32_t LocalRows = 260;
  const cuuint64_t Pitch = 1004;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {Pitch};
  cuuint32_t Box[2] = {64, LocalRows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 1004 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: globalStrides[0] = 1004 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: pad the row to 1008 bytes
  // CHECK-NOTES: :[[@LINE-4]]:35: warning: boxDim[1] is 260, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: boxDim[1] = 260 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: split the box: at most 256 per dimension

  cuuint64_t Strides2[1] = {rowPitch(100)};
  cuuint32_t Box2[2] = {64, GlobalRows};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides2, Box2, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:29: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-6]]:29: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:36: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:29: note: split the box: at most 256 per dimension

  cuuint64_t Strides3[1] = {TileConfig::Pitch};
  cuuint32_t Box3[2] = {64, TileConfig::Rows};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides3, Box3, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 1000 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:29: note: globalStrides[0] = 1000 comes from here
  // CHECK-NOTES: :[[@LINE-6]]:29: note: pad the row to 1008 bytes
  // CHECK-NOTES: :[[@LINE-4]]:36: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: boxDim[1] = 512 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:29: note: split the box: at most 256 per dimension

  // A const global array, passed as it is.
  cuuint64_t Strides4[1] = {256};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides4, GlobalBox, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: boxDim[1] is 272, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-50]]:38: note: boxDim[1] = 272 comes from here
  // CHECK-NOTES: :[[@LINE-51]]:38: note: split the box: at most 256 per dimension
}

// Template-instantiation values: the note names the instantiation.
template <cuuint32_t Rows, typename T>
void fromTemplate(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {100, 64};
  cuuint64_t Strides[1] = {100 * sizeof(T)};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE+7]]:15: note: in instantiation of 'fromTemplate<64U, short>' requested here
  // CHECK-NOTES: :[[@LINE-5]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE+2]]:15: note: in instantiation of 'fromTemplate<300U, float>' requested here
}
template void fromTemplate<300, float>(CUtensorMap *, void *);
template void fromTemplate<64, short>(CUtensorMap *, void *);

// A non-const local that nothing writes after its initialisation; passing
// it by value or by const reference is no write.
void unwrittenLocal(CUtensorMap *Map, void *Src) {
  cuuint32_t Rows = 300;
  byValue(Rows);
  byConstRef(Rows);
  cuuint64_t Cols = 100;
  cuuint64_t Pitch = Cols * 2;
  cuuint64_t Dims[2] = {Cols, 64};
  cuuint64_t Strides[1] = {Pitch};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: split the box: at most 256 per dimension
}

// Elements past a partial initialiser list are zero.
void partialInit(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64};
  cuuint32_t Es[2] = {};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:23: note: boxDim[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-3]]:40: warning: elementStrides[0] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:22: note: elementStrides[0] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:22: note: use 1
  // CHECK-NOTES: :[[@LINE-6]]:40: warning: elementStrides[1] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:22: note: elementStrides[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:22: note: use 1
}

// Constant-index stores in straight-line code before the call; the last
// store wins over the initialiser and over earlier stores.
void stores(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2];
  Dims[0] = 64;
  Dims[1] = 0;
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  Es[1] = 4;
  Es[1] = 9;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-2]]:72: warning: globalDim[1] is 0; every extent must be at least 1 (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:13: note: globalDim[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-3]]:40: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:11: note: elementStrides[1] = 9 comes from here
}

// std::array: initialiser list, element stores through operator[], data().
void stdArray(CUtensorMap *Map, void *Src) {
  std::array<cuuint64_t, 2> Dims{64, 64};
  std::array<cuuint64_t, 1> Strides{256};
  std::array<cuuint32_t, 2> Box{};
  Box[0] = 64;
  Box[1] = 512;
  std::array<cuuint32_t, 2> Es{1, 9};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                         Dims.data(), Strides.data(), Box.data(), Es.data(),
                         MODES);
  // CHECK-NOTES: :[[@LINE-2]]:55: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:12: note: boxDim[1] = 512 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:12: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE-5]]:67: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:35: note: elementStrides[1] = 9 comes from here
}

// Elements of another local array, through a scalar and through a store.
void elementsOfAnotherArray(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Tile[2] = {64, 300};
  cuuint32_t Rows = Tile[1];
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Box2[2];
  Box2[0] = 64;
  Box2[1] = Tile[1];
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: split the box: at most 256 per dimension
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box2, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:13: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:13: note: split the box: at most 256 per dimension
}

// Pointers into arrays: arr + k, &arr[k] of a const array, and a local
// pointer that is never re-pointed.
void pointers(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[3] = {1, 64, 64};
  cuuint64_t Strides[2] = {256, 200};
  const cuuint32_t Box[3] = {0, 64, 300};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                         Dims + 1, Strides + 1, &Box[1], Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:33: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:33: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:49: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:37: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:37: note: split the box: at most 256 per dimension
  const cuuint32_t *EsPtr = Es;
  cuuint32_t Es2[2] = {0, 1};
  const cuuint32_t *Es2Ptr = Es2;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es2Ptr, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[0] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-16]]:30: note: boxDim[0] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-3]]:40: warning: elementStrides[0] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:24: note: elementStrides[0] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:24: note: use 1
  (void)EsPtr;
}

// Casts: conversions of scalars (truncation included, as C++ does it), enum
// casts, and a static_cast to a pointer to const.
void casts(CUtensorMap *Map, void *Src) {
  long long Wide = 9;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, (cuuint32_t)((1ull << 32) + 300)};
  cuuint32_t Es[2] = {1, static_cast<cuuint32_t>(Wide)};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         static_cast<const cuuint64_t *>(Strides), Box, Es,
                         MODES);
  // CHECK-NOTES: :[[@LINE-2]]:68: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE-5]]:73: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:26: note: elementStrides[1] = 9 comes from here
  cuuint32_t Good[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CUtensorMapDataType(16), 2, Src, Dims, Strides,
                         Good, Good, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)128,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:31: warning: tensorDataType is 16, not a CUtensorMapDataType enumerator (0..15) (TMAP-ENC-DTYPE-ENUM) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:26: warning: swizzle is 128, not a CUtensorMapSwizzle enumerator (0..6); swizzle is an enumerator, not a byte count (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:26: note: use CU_TENSOR_MAP_SWIZZLE_128B
}

// The order rule: what happens after the call does not matter, not even an
// escape; a store before a loop that holds the call does.
void afterTheCall(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 300};
  cuuint32_t Es[2] = {1, 1};
  peek(Box);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: split the box: at most 256 per dimension
  Box[1] = 64;
  sink(Box);
}

void storeBeforeLoop(CUtensorMap *Maps, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  Es[0] = 0;
  for (int I = 0; I < 4; ++I)
    cuTensorMapEncodeTiled(&Maps[I], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                           Dims, Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:48: warning: elementStrides[0] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:11: note: elementStrides[0] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-6]]:11: note: use 1
  Es[0] = 1;
}

// In a loop, a store that precedes the call in the same iteration counts.
void storeInLoopBody(CUtensorMap *Maps, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  for (int I = 0; I < 4; ++I) {
    Box[1] = 257;
    cuTensorMapEncodeTiled(&Maps[I], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                           Dims, Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: boxDim[1] is 257, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: boxDim[1] = 257 comes from here
  // CHECK-NOTES: :[[@LINE-5]]:14: note: split the box: at most 256 per dimension
  }
}

// The host and the device pass see different code.
#ifdef __CUDA_ARCH__
constexpr cuuint32_t PassRows = 511;
#else
constexpr cuuint32_t PassRows = 311;
#endif
void perPass(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, PassRows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:35: warning: boxDim[1] is 511, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES-DEVICE: :[[@LINE-5]]:28: note: boxDim[1] = 511 comes from here
  // CHECK-NOTES-DEVICE: :[[@LINE-6]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES-HOST: :[[@LINE-4]]:35: warning: boxDim[1] is 311, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES-HOST: :[[@LINE-8]]:28: note: boxDim[1] = 311 comes from here
  // CHECK-NOTES-HOST: :[[@LINE-9]]:28: note: split the box: at most 256 per dimension
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Valid values through every form above.
enum : cuuint32_t { GoodRows = 128 };
void goodThroughEveryForm(CUtensorMap *Map, void *Src) {
  constexpr cuuint32_t Cols = 64;
  cuuint64_t Width = 1024;
  cuuint64_t Dims[3] = {0, Width, 512};
  cuuint64_t Strides[1];
  Strides[0] = Width * sizeof(float);
  std::array<cuuint32_t, 2> Box{Cols, GoodRows};
  cuuint32_t Es[2] = {1, (cuuint32_t)2};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                         Dims + 1, Strides, Box.data(), Es, MODES);
}

// A store before the call repairs a bad initialiser.
void repairedBeforeTheCall(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 9};
  Strides[0] = 256;
  Es[1] = 1;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// A bad store after the call is not seen by the call.
void badStoreAfterTheCall(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  Es[1] = 9;
  Box[1] = 300;
}

// Elements the driver does not read (rank 2 reads two) may hold anything.
void unreadElements(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[3] = {64, 64, 0};
  cuuint64_t Strides[2] = {256, 3};
  cuuint32_t Box[3] = {64, 64, 1000};
  cuuint32_t Es[3] = {1, 1, 0};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// A local written in a branch before the call, scalar or element.
void writtenInBranch(CUtensorMap *Map, void *Src, bool Wide) {
  cuuint32_t Rows = 300;
  if (Wide)
    Rows = 64;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  if (!Wide)
    Strides[0] = 256;
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// A scalar local that is written anywhere, even after the call or in
// straight-line code, is not "never written".
void writtenScalar(CUtensorMap *Map, void *Src) {
  cuuint32_t Rows = 64;
  Rows = 300;
  cuuint32_t Rows2 = 300;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Box2[2] = {64, Rows2};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box2, Es, MODES);
  Rows2 = 64;
}

// A scalar whose address escapes, or that is bound to a non-const reference.
void escapedScalar(CUtensorMap *Map, void *Src) {
  cuuint32_t Rows = 300;
  sink(&Rows);
  cuuint32_t Rows2 = 300;
  byRef(Rows2);
  cuuint32_t Rows3 = 300;
  cuuint32_t *Alias = &Rows3;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {Rows, Rows2};
  cuuint32_t Box2[2] = {64, Rows3};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box2, Es, MODES);
  (void)Alias;
}

// A store with a non-constant index, a compound assignment, an increment.
void unknownStores(CUtensorMap *Map, void *Src, int K) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  Strides[K] = 256;
  cuuint32_t Box[2] = {64, 300};
  Box[1] -= 44;
  cuuint32_t Es[2] = {1, 9};
  Es[1]++;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// A store inside a loop that precedes the call.
void storeInLoop(CUtensorMap *Map, void *Src, int N) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 9};
  for (int I = 0; I < N; ++I)
    Es[1] = 1;
  while (N-- > 0)
    Strides[0] = 256;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// The call is in a loop: a store after it runs before the next iteration.
void storeAfterTheCallInLoop(CUtensorMap *Maps, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  for (int I = 0; I < 4; ++I) {
    cuTensorMapEncodeTiled(&Maps[I], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                           Dims, Strides, Box, Es, MODES);
    Box[1] = 300;
  }
}

// An array whose address escapes to a function taking a non-const pointer,
// or to a non-const alias, before the call.
void escapedArray(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 300};
  sink(Box);
  cuuint32_t Es[2] = {1, 9};
  cuuint32_t *EsAlias = Es;
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  (void)EsAlias;
}

// Function parameters, scalar and array.
void parameters(CUtensorMap *Map, void *Src, cuuint32_t Rows,
                const cuuint32_t Box[2], cuuint32_t Rank = 9) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box2[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Rank, Src, Dims,
                         Strides, Box2, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// Non-const globals and statics: anything may write them.
cuuint32_t MutableRows = 300;
cuuint32_t MutableBox[2] = {64, 300};
void globals(CUtensorMap *Map, void *Src) {
  static cuuint32_t StaticRows = 300;
  static cuuint32_t StaticEs[2] = {1, 9};
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {MutableRows, StaticRows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, StaticEs, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, MutableBox, Es, MODES);
}

// Values read from memory, returned by functions, or held in a struct
// parameter that no call binds. (A local aggregate's field is folded.)
struct Shape {
  cuuint32_t Cols, Rows;
};
void memoryAndRuntime(CUtensorMap *Map, void *Src, const cuuint32_t *Rows,
                      const cuuint64_t *Strides, const Shape &Param) {
  Shape Local{64, 300};
  volatile cuuint32_t Volatile = 300;
  cuuint64_t Dims[2] = {64, 64};
  cuuint32_t Box[2] = {*Rows, Rows[1]};
  cuuint32_t Box2[2] = {runtimeRows(), Param.Rows};
  cuuint32_t Box3[2] = {Local.Rows, Volatile};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides + 0, Box2, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box3, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[0] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:25: note: boxDim[0] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:25: note: split the box: at most 256 per dimension
}

// Arrays that are not initialised at all.
void uninitialised(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2];
  cuuint64_t Strides[1];
  cuuint32_t Box[2];
  cuuint32_t Es[2];
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// `&arr[k]` into a non-const local array (C array or std::array) reaches
// element k on (it was taken for a write before; kept here as a regression
// test).
void addressOfElement(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[3] = {0, 0, 200};
  std::array<cuuint32_t, 3> Box{0, 300, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         &Strides[2], &Box[1], Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:34: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:34: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:39: warning: boxDim[0] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:36: note: boxDim[0] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:36: note: split the box: at most 256 per dimension
}

// Explicit pointer casts to pointer-to-const read the array (they were taken
// for escapes before; kept here as a regression test).
void explicitPointerCasts(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  std::size_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 64};
  int Es[2] = {1, 9};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         reinterpret_cast<const cuuint64_t *>(Strides), Box,
                         (const cuuint32_t *)Es, MODES);
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:29: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:26: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:19: note: elementStrides[1] = 9 comes from here
}

// An element of another local array read inside a braced initialiser,
// through a scalar local and by a store into a third array (once missed;
// kept as a regression test).
void elementInInitialiser(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Tile[2] = {64, 300};
  cuuint32_t Box[2] = {64, Tile[1]};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-6]]:28: note: split the box: at most 256 per dimension
  cuuint32_t Rows = Tile[1];
  cuuint32_t Box2[2] = {64, Rows};
  cuuint32_t Box3[2];
  Box3[0] = 64;
  Box3[1] = Tile[1];
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box2, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-8]]:29: note: split the box: at most 256 per dimension
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box3, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:13: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:13: note: split the box: at most 256 per dimension
}

// A store in a nested block is straight-line code too (it used to be
// forgotten; kept as a regression test).
void storeInNestedBlock(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  {
    Box[1] = 300;
  }
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:14: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:14: note: split the box: at most 256 per dimension
}

// A chain of non-const locals longer than the folder's depth limit.
void longChain(CUtensorMap *Map, void *Src) {
  cuuint32_t R0 = 290;
  cuuint32_t R1 = R0 + 1, R2 = R1 + 1, R3 = R2 + 1, R4 = R3 + 1, R5 = R4 + 1;
  cuuint32_t R6 = R5 + 1, R7 = R6 + 1, R8 = R7 + 1, R9 = R8 + 1;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, R9};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}
