// tma-descriptor on hostile input: negative values (reported as the
// unsigned values the driver sees), arithmetic that wraps or overflows 64
// bits (exact or silent, never wrong), absurdly large arrays, recursion,
// deep nesting, and (with -DBROKEN) a translation unit with compile errors,
// where the check must not crash and must not report a value it cannot know.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -expect-clang-tidy-error -check-suffixes=,BROKEN %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host -DBROKEN

#include <cuda.h>

// 200 parentheses and a 1000-term sum, spelled by macros.
#define P10(X) ((((((((((X))))))))))
#define P100(X) P10(P10(P10(P10(P10(P10(P10(P10(P10(P10(X))))))))))
#define SUM10(X) X + X + X + X + X + X + X + X + X + X
#define SUM1000(X) SUM10(SUM10(SUM10(X)))

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// Negative values converted to the unsigned parameter types.
void negativeValues(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, -1, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:64: warning: tensorRank is 4294967295, outside the supported range 1..5 (TMAP-TILED-RANK) [tma-descriptor]
  cuTensorMapEncodeTiled(Map, (CUtensorMapDataType)-2, 2, Src, Dims, Strides,
                         Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)-1,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-5]]:31: warning: tensorDataType is 4294967294, not a CUtensorMapDataType enumerator (0..15) (TMAP-ENC-DTYPE-ENUM) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: warning: swizzle is 4294967295, not a CUtensorMapSwizzle enumerator (0..6) (TMAP-ENC-ENUM-RANGE) [tma-descriptor]

  int MinusOne = -1;
  cuuint64_t NegDims[2];
  NegDims[0] = -1;
  NegDims[1] = 64;
  cuuint32_t NegBox[2];
  NegBox[0] = 64;
  NegBox[1] = MinusOne;
  cuuint32_t NegEs[2] = {1, (cuuint32_t)-8};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, NegDims,
                         Strides, NegBox, NegEs, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalDim[0] is 18446744073709551615, above the limit of 4294967296 (2^32) (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: boxDim[1] is 4294967295, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:43: warning: elementStrides[1] is 4294967288, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
}

// Unsigned arithmetic wraps (exactly as C++ does), 128-bit intermediates are
// exact, and truncation to a narrower type keeps the low bits.
void wrappingArithmetic(CUtensorMap *Map, void *Src) {
  cuuint64_t Half = 1ull << 63;
  cuuint64_t Dims[2] = {64, 65536ull * 65537};
  cuuint64_t Strides[1] = {Half * 2 + 200};
  cuuint32_t Box[2] = {(cuuint32_t)(4294967296ull + 64), 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalDim[1] is 4295032832, above the limit of 4294967296 (2^32) (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]

  cuuint64_t Dims2[2] = {64, 64};
  cuuint64_t Strides2[1] = {0ull - 64};
  unsigned __int128 Wide = (unsigned __int128)1 << 100;
  cuuint64_t Strides3[1] = {(cuuint64_t)(((unsigned __int128)1 << 64) + 200)};
  cuuint32_t Box2[2] = {64, (cuuint32_t)(Wide >> 91)};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims2,
                         Strides2, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 18446744073709551552 bytes, not below the limit of 2^40 (TMAP-ENC-GSTRIDE-MAX) [tma-descriptor]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims2,
                         Strides3, Box2, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

// Absurdly large arrays, local and global: only the elements the driver
// reads are folded; elements past the initialiser list are zero.
const cuuint32_t HugeConstBox[1u << 28] = {64, 300};
void hugeArrays(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[1u << 28] = {64, 0};
  cuuint64_t Strides[1u << 28];
  Strides[0] = 200;
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, HugeConstBox, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalDim[1] is 0; every extent must be at least 1 (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, HugeConstBox + 64, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalDim[1] is 0; every extent must be at least 1 (TMAP-ENC-GDIM-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:35: warning: boxDim[0] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-4]]:35: warning: boxDim[1] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

// An array shorter than the rank reads past its end.
void shortArrays(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[1] = {64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:72: warning: globalDim provides 1 element but tensorRank 2 reads 2; the driver reads past the end of the array (TMAP-TILED-RANK) [tma-descriptor]
}

// A recursive constexpr helper, and a recursive function that passes its
// parameter on unchanged (every context binds the same value).
constexpr cuuint64_t factorial(cuuint64_t N) {
  return N <= 1 ? 1 : N * factorial(N - 1);
}
void recursiveHelper(CUtensorMap *Map, void *Src, cuuint32_t Rows, int Depth) {
  if (Depth > 0)
    recursiveHelper(Map, Src, Rows, Depth - 1);
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {factorial(5) + 80};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}
void startRecursion(CUtensorMap *Map, void *Src) {
  recursiveHelper(Map, Src, 300, 8);
}

// Deeply nested expressions: 200 parentheses around a literal and around a
// non-const local, a 1000-term sum of literals.
void deepNesting(CUtensorMap *Map, void *Src) {
  cuuint64_t Pitch = 200;
  cuuint64_t Dims[2] = {P100(P100(64)), 64};
  cuuint64_t Strides[1] = {P100(P100(Pitch))};
  cuuint32_t Box[2] = {64, SUM1000(1)};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: boxDim[1] is 1000, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Values that wrap back into range are fine; 2^32 is the largest extent.
void wrapsIntoRange(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 65536ull * 65536};
  cuuint64_t Strides[1] = {(1ull << 63) * 4 + 256};
  cuuint32_t Box[2] = {(cuuint32_t)(-1) + 65, 256};
  cuuint32_t Es[2] = {1, (cuuint32_t)(0x100000008ull)};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// Signed overflow, division by zero, shifts out of range: undefined, so not
// a value.
void undefinedArithmetic(CUtensorMap *Map, void *Src) {
  long long Max = 9223372036854775807LL;
  int IntMax = 2147483647;
  int Zero = 0;
  cuuint64_t Dims[2] = {(cuuint64_t)(Max + 1), (cuuint64_t)(IntMax * 2)};
  cuuint64_t Strides[1] = {(cuuint64_t)(65536 * 65536)};
  cuuint32_t Box[2] = {(cuuint32_t)(1 << 40), (cuuint32_t)(300 / Zero)};
  cuuint32_t Es[2] = {(cuuint32_t)(1 << -1), (cuuint32_t)((-Max - 1) / -1)};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// Offsets too far into huge arrays, and huge non-const globals.
cuuint64_t HugeGlobal[1u << 28];
static cuuint64_t HugerGlobal[1ull << 40];
void farOffsets(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[1u << 28] = {0, 0};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                         Dims + (1u << 27), HugerGlobal + (1ull << 39),
                         &HugeConstBox[(1u << 28) - 2], Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                         HugeGlobal, HugerGlobal, HugeConstBox + 100000, Es,
                         MODES);
}

// Recursion that never ends, a self-referential initialiser, a
// non-constexpr recursive function.
constexpr int neverEnds(int N) { return N < 0 ? 0 : neverEnds(N + 1); }
cuuint32_t runtimeRecursion(cuuint32_t N) {
  return N == 0 ? 300 : runtimeRecursion(N - 1);
}
void recursionNotFolded(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {(cuuint64_t)neverEnds(1)};
  cuuint32_t Self = Self + 300;
  cuuint32_t Box[2] = {64, Self};
  cuuint32_t Box2[2] = {64, runtimeRecursion(4)};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box2, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// A chain of 60 non-const locals, and a 1000-term sum of a non-const local,
// are deeper than the folder follows (its own recursion is bounded).
void deepLocalChain(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t V0 = 141;
  cuuint64_t V1 = V0 + 1;
  cuuint64_t V2 = V1 + 1;
  cuuint64_t V3 = V2 + 1;
  cuuint64_t V4 = V3 + 1;
  cuuint64_t V5 = V4 + 1;
  cuuint64_t V6 = V5 + 1;
  cuuint64_t V7 = V6 + 1;
  cuuint64_t V8 = V7 + 1;
  cuuint64_t V9 = V8 + 1;
  cuuint64_t V10 = V9 + 1;
  cuuint64_t V11 = V10 + 1;
  cuuint64_t V12 = V11 + 1;
  cuuint64_t V13 = V12 + 1;
  cuuint64_t V14 = V13 + 1;
  cuuint64_t V15 = V14 + 1;
  cuuint64_t V16 = V15 + 1;
  cuuint64_t V17 = V16 + 1;
  cuuint64_t V18 = V17 + 1;
  cuuint64_t V19 = V18 + 1;
  cuuint64_t V20 = V19 + 1;
  cuuint64_t V21 = V20 + 1;
  cuuint64_t V22 = V21 + 1;
  cuuint64_t V23 = V22 + 1;
  cuuint64_t V24 = V23 + 1;
  cuuint64_t V25 = V24 + 1;
  cuuint64_t V26 = V25 + 1;
  cuuint64_t V27 = V26 + 1;
  cuuint64_t V28 = V27 + 1;
  cuuint64_t V29 = V28 + 1;
  cuuint64_t V30 = V29 + 1;
  cuuint64_t V31 = V30 + 1;
  cuuint64_t V32 = V31 + 1;
  cuuint64_t V33 = V32 + 1;
  cuuint64_t V34 = V33 + 1;
  cuuint64_t V35 = V34 + 1;
  cuuint64_t V36 = V35 + 1;
  cuuint64_t V37 = V36 + 1;
  cuuint64_t V38 = V37 + 1;
  cuuint64_t V39 = V38 + 1;
  cuuint64_t V40 = V39 + 1;
  cuuint64_t V41 = V40 + 1;
  cuuint64_t V42 = V41 + 1;
  cuuint64_t V43 = V42 + 1;
  cuuint64_t V44 = V43 + 1;
  cuuint64_t V45 = V44 + 1;
  cuuint64_t V46 = V45 + 1;
  cuuint64_t V47 = V46 + 1;
  cuuint64_t V48 = V47 + 1;
  cuuint64_t V49 = V48 + 1;
  cuuint64_t V50 = V49 + 1;
  cuuint64_t V51 = V50 + 1;
  cuuint64_t V52 = V51 + 1;
  cuuint64_t V53 = V52 + 1;
  cuuint64_t V54 = V53 + 1;
  cuuint64_t V55 = V54 + 1;
  cuuint64_t V56 = V55 + 1;
  cuuint64_t V57 = V56 + 1;
  cuuint64_t V58 = V57 + 1;
  cuuint64_t V59 = V58 + 1;
  cuuint64_t Strides[1] = {V59};
  cuuint32_t One = 1;
  cuuint32_t Box[2] = {64, SUM1000(One)};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// A translation unit with compile errors (-DBROKEN)
//===----------------------------------------------------------------------===//

#ifdef BROKEN
// An element with an error is unknown; the others are still folded.
void brokenElement(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, Undeclared};
  // CHECK-MESSAGES-BROKEN: :[[@LINE-1]]:29: error: use of undeclared identifier 'Undeclared' [clang-diagnostic-error]
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 300 + missingFunction()};
  // CHECK-MESSAGES-BROKEN: :[[@LINE-1]]:34: error: use of undeclared identifier 'missingFunction' [clang-diagnostic-error]
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES-BROKEN: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// Calls that do not resolve: wrong count, wrong types, an undeclared name.
// An array used in such a call counts as escaped, so the last (valid) call
// is silent although its operands are bad.
void brokenCalls(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 300};
  cuuint32_t Es[2] = {1, 9};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es);
  // CHECK-MESSAGES-BROKEN: :[[@LINE-2]]:3: error: no matching function for call to 'cuTensorMapEncodeTiled' [clang-diagnostic-error]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE, 3.5,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES-BROKEN: :[[@LINE-4]]:3: error: no matching function for call to 'cuTensorMapEncodeTiled' [clang-diagnostic-error]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, NoSuchFill);
  // CHECK-MESSAGES-BROKEN: :[[@LINE-1]]:59: error: use of undeclared identifier 'NoSuchFill' [clang-diagnostic-error]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

// A template whose body has an error, instantiated with a bad value.
template <cuuint32_t Rows> void brokenTemplate(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES)
}
// CHECK-MESSAGES-BROKEN: :[[@LINE-2]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
// CHECK-MESSAGES-BROKEN: :[[@LINE-3]]:50: error: expected ';' after expression [clang-diagnostic-error]
void useBrokenTemplate(CUtensorMap *Map, void *Src) {
  brokenTemplate<300>(Map, Src);
}

// A declaration that does not parse.
struct Broken {
  int Field = ;
  // CHECK-MESSAGES-BROKEN: :[[@LINE-1]]:15: error: expected expression [clang-diagnostic-error]
};
#endif
