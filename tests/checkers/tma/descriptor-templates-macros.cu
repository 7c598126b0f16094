// tma-descriptor in templates and macros: one diagnostic per distinct
// (location, message) over all instantiations, with a note naming the
// instantiation; calls inside CHECK_CU(...) are checked and reported at the
// spelling location; no fix-it is applied inside a macro expansion; nothing
// is reported in a system header (the host run adds --system-headers to show
// that the check itself skips them). --fix-notes applies every fix-it that
// a note offers, so CHECK-FIXES pins what changes and what must not.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes --system-headers -- %cuda_stub_host

#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult Status_ = (call);                                                 \
    if (Status_ != CUDA_SUCCESS)                                               \
      return;                                                                  \
  } while (0)

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A templated helper instantiated with good and bad boxes. <128, 64> and
// <64, 64> break the same rule with the same message at the same place: it
// is reported once, for the first instantiation.
template <int BM, int BK>
void create_tensor_map(CUtensorMap *Map, float *Src) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(float)};
  cuuint32_t Box[2] = {BK, BM};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-4]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE+15]]:3: note: in instantiation of 'create_tensor_map<300, 32>' requested here
  // CHECK-NOTES: :[[@LINE-8]]:35: warning: inner box is boxDim[0] = 2 * 4 bytes = 8 bytes, not a multiple of 16 bytes (TMAP-TILED-BOX-INNER-16B) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:24: note: boxDim[0] = 2 comes from here
  // CHECK-NOTES: :[[@LINE-13]]:24: note: round boxDim[0] up to 4 (16 bytes)
  // CHECK-NOTES: :[[@LINE+12]]:3: note: in instantiation of 'create_tensor_map<256, 2>' requested here
  // CHECK-NOTES: :[[@LINE-12]]:35: warning: inner box is boxDim[0] = 64 * 4 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-16]]:24: note: boxDim[0] = 64 comes from here
  // CHECK-NOTES: :[[@LINE-17]]:24: note: use boxDim[0] = 32 and issue one copy per 128-byte column
  // CHECK-NOTES: :[[@LINE+5]]:3: note: in instantiation of 'create_tensor_map<128, 64>' requested here
}

void instantiate(CUtensorMap *Map, float *Src) {
  create_tensor_map<128, 32>(Map, Src);
  create_tensor_map<128, 64>(Map, Src);
  create_tensor_map<64, 64>(Map, Src);
  create_tensor_map<300, 32>(Map, Src);
  create_tensor_map<256, 2>(Map, Src);
  create_tensor_map<256, 16>(Map, Src);
}

// Values from static constexpr members of a configuration struct. Two
// configurations share the bad row pitch: one warning.
struct GemmConfig {
  static constexpr int BlockM = 128;
  static constexpr int BlockK = 64;
  static constexpr cuuint64_t K = 4100;
};
struct SmallGemmConfig {
  static constexpr int BlockM = 64;
  static constexpr int BlockK = 64;
  static constexpr cuuint64_t K = 4100;
};
struct WideGemmConfig {
  static constexpr int BlockM = 512;
  static constexpr int BlockK = 64;
  static constexpr cuuint64_t K = 4096;
};
template <typename Config> void makeOperandMap(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {Config::K, 4096};
  cuuint64_t Strides[1] = {Config::K * 2};
  cuuint32_t Box[2] = {Config::BlockK, Config::BlockM};
  cuuint32_t Es[2] = {1, 1};
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                  Src, Dims, Strides, Box, Es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  // CHECK-NOTES: :[[@LINE-5]]:46: warning: globalStrides[0] is 8200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 8200 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 8208 bytes
  // CHECK-NOTES: :[[@LINE+6]]:15: note: in instantiation of 'makeOperandMap<GemmConfig>' requested here
  // CHECK-NOTES: :[[@LINE-9]]:55: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-13]]:40: note: boxDim[1] = 512 comes from here
  // CHECK-NOTES: :[[@LINE-14]]:40: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE+4]]:15: note: in instantiation of 'makeOperandMap<WideGemmConfig>' requested here
}
template void makeOperandMap<GemmConfig>(CUtensorMap *, void *);
template void makeOperandMap<SmallGemmConfig>(CUtensorMap *, void *);
template void makeOperandMap<WideGemmConfig>(CUtensorMap *, void *);

// The same bad enumerators, once in plain code (the fix-its apply) and once
// as CHECK_CU arguments (reported at the spelling location, left as they are).
void plainAndChecked(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {16, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)64,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
  // CHECK-NOTES: :[[@LINE-3]]:26: warning: swizzle is 64, not a CUtensorMapSwizzle enumerator (0..6); swizzle is an enumerator, not a byte count (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:26: note: use CU_TENSOR_MAP_SWIZZLE_64B
  // CHECK-NOTES: :[[@LINE-3]]:26: warning: oobFill CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point, non-packed data type, not CU_TENSOR_MAP_DATA_TYPE_INT32 (TMAP-ENC-OOBFILL-FLOAT) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:26: note: use CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
  // CHECK-FIXES: CU_TENSOR_MAP_SWIZZLE_64B,
  // CHECK-FIXES-NEXT: CU_TENSOR_MAP_L2_PROMOTION_NONE,
  // CHECK-FIXES-NEXT: CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, Src,
                                  Dims, Strides, Box, Es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  (CUtensorMapSwizzle)64,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
  // CHECK-NOTES: :[[@LINE-3]]:35: warning: swizzle is 64, not a CUtensorMapSwizzle enumerator (0..6); swizzle is an enumerator, not a byte count (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:35: note: use CU_TENSOR_MAP_SWIZZLE_64B
  // CHECK-NOTES: :[[@LINE-3]]:35: warning: oobFill CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point, non-packed data type, not CU_TENSOR_MAP_DATA_TYPE_INT32 (TMAP-ENC-OOBFILL-FLOAT) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-4]]:35: note: use CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
  // CHECK-FIXES: (CUtensorMapSwizzle)64,
  // CHECK-FIXES-NEXT: CU_TENSOR_MAP_L2_PROMOTION_NONE,
  // CHECK-FIXES-NEXT: CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
}

// Array literals shared by a plain call and a CHECK_CU call: the fix-its
// are outside the macro, so they are offered (and applied).
void sharedOutsideTheMacro(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200}; // Padded.
  // CHECK-FIXES: cuuint64_t Strides[1] = {208}; // Padded.
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 0}; // Made 1.
  // CHECK-FIXES: cuuint32_t Es[2] = {1, 1}; // Made 1.
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:28: note: globalStrides[0] = 200 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:28: note: pad the row to 208 bytes
  // CHECK-NOTES: :[[@LINE-4]]:55: warning: elementStrides[1] is 0, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-8]]:26: note: elementStrides[1] = 0 comes from here
  // CHECK-NOTES: :[[@LINE-9]]:26: note: use 1
}

// The innermost stride passed in globalStrides: outside a macro the fix-it
// inserts " + 1" after the array; as a CHECK_CU argument it does not.
void innermostStride(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[2] = {4, 256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: globalStrides[0] is 4 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_FLOAT32 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-3]]:26: note: drop the innermost stride: pass the array from its second element
  // CHECK-FIXES: Strides + 1, Box, Es, MODES);
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: globalStrides[0] is 4 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_FLOAT32 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:28: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-3]]:41: note: drop the innermost stride: pass the array from its second element
  // CHECK-FIXES: CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
  // CHECK-FIXES-NEXT: Dims, Strides, Box, Es, MODES));
}

// Values spelled by macros: the note is at the expansion, no fix-it.
#define ROW_PITCH 200
#define ROWS 300
// CHECK-FIXES: #define ROW_PITCH 200
// CHECK-FIXES-NEXT: #define ROWS 300
void valuesFromMacros(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {ROW_PITCH};
  cuuint32_t Box[2] = {64, ROWS};
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

// A call whose whole expansion is a macro: with the operands as macro
// arguments (reported where they are spelled), and with a bad operand in the
// macro body (reported at the expansion, no fix-it).
#define ENCODE_2D(Map, Src, Dims, Strides, Box, Es)                            \
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,   \
                         Strides, Box, Es, MODES)
#define ENCODE_2D_SWIZZLE_BYTES(Map, Src)                                      \
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,   \
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,      \
                         (CUtensorMapSwizzle)32,                               \
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,                      \
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
// CHECK-FIXES: (CUtensorMapSwizzle)32,{{ +\\}}
void wholeCallInMacro(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuuint32_t BadEs[2] = {1, 16};
  ENCODE_2D(Map, Src, Dims, Strides, Box, BadEs);
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: elementStrides[1] is 16, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: elementStrides[1] = 16 comes from here
  ENCODE_2D_SWIZZLE_BYTES(Map, Src);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: swizzle is 32, not a CUtensorMapSwizzle enumerator (0..6); swizzle is an enumerator, not a byte count (TMAP-ENC-ENUM-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: use CU_TENSOR_MAP_SWIZZLE_32B
  CHECK_CU(ENCODE_2D(Map, Src, Dims, Strides, Box, BadEs));
  // CHECK-NOTES: :[[@LINE-1]]:52: warning: elementStrides[1] is 16, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:29: note: elementStrides[1] = 16 comes from here
}

// A template parameter and a function parameter together: the function
// parameter is bound by the constant argument of the only caller.
template <int Cols>
void fromCaller(CUtensorMap *Map, float *Src, cuuint32_t Rows) {
  cuuint64_t Dims[2] = {Cols, 64};
  cuuint64_t Strides[1] = {Cols * sizeof(float)};
  cuuint32_t Box[2] = {32, Rows};
  cuuint32_t Es[2] = {1, 1};
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-5]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE+5]]:28: note: with 'Rows' = 300 from this call
  // CHECK-NOTES: :[[@LINE-7]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: :[[@LINE+3]]:3: note: in instantiation of 'fromCaller<64>' requested here
}
void callsFromCaller(CUtensorMap *Map, float *Src) {
  fromCaller<64>(Map, Src, 300);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Good instantiations only.
template <int Rows> void goodHelper(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
}
void goodInstantiations(CUtensorMap *Map, void *Src) {
  goodHelper<1>(Map, Src);
  goodHelper<64>(Map, Src);
  goodHelper<256>(Map, Src);
}

// A template that is never instantiated.
template <int Rows> void neverInstantiated(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, Rows / 16};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// A parameter that only run-time arguments bind.
template <typename T>
void fromParameter(CUtensorMap *Map, T *Src, cuuint32_t Rows) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {64 * sizeof(T)};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
}
cuuint32_t runtimeRows();
void parameterInstantiations(CUtensorMap *Map, float *Src, cuuint32_t Rows) {
  fromParameter(Map, Src, Rows);
  fromParameter(Map, Src, runtimeRows());
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// FIXME: two calls that read the same bad literal each offer the same fix-it
// for it; clang-tidy then applies neither ("overlaps with another fix").
void sharedLiteralTwoCalls(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 300}; // Shared by two calls.
  // CHECK-FIXES: cuuint32_t Box[2] = {64, 300}; // Shared by two calls.
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-7]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: {{^}}note: this fix will not be applied because it overlaps with another fix
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES));
  // CHECK-NOTES: :[[@LINE-1]]:50: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-12]]:28: note: boxDim[1] = 300 comes from here
  // CHECK-NOTES: :[[@LINE-13]]:28: note: split the box: at most 256 per dimension
  // CHECK-NOTES: {{^}}note: this fix will not be applied because it overlaps with another fix
}

// A library header: its calls are never reported, not even an instantiation
// requested from user code. The line marker makes the rest of this file a
// system header, so it must stay last.
template <unsigned Rows> void libraryMakeMap(CUtensorMap *Map, void *Src);
void useLibrary(CUtensorMap *Map, void *Src) {
  libraryMakeMap<300>(Map, Src);
}
# 1 "tma_library.h" 1 3
template <unsigned Rows> void libraryMakeMap(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}
inline void libraryPlain(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 300}; // Library box.
  // CHECK-FIXES: cuuint32_t Box[2] = {64, 300}; // Library box.
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, (CUtensorMapInterleave)7,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
