// tma-encode-result: the CUresult of every tensor-map encode call
// (cuTensorMapEncodeTiled, Im2col, Im2colWide, cuTensorMapReplaceAddress),
// direct or through a function pointer with the driver's signature, must not
// be discarded (TMAP-ENC-RESULT-CHECKED). The host code is in the AST of both
// passes, so each warning appears in both. There is no fix-it.
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#define TILED_ARGS(Map, Src)                                                   \
  Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,        \
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,               \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult Status_ = (call);                                                 \
    if (Status_ != CUDA_SUCCESS)                                               \
      return;                                                                  \
  } while (0)

// A check macro that compiles to the bare call in release builds.
#define CU_TRY(call) call

// A macro that issues the whole call: the call is the user's statement.
#define ENCODE_A(Map, Src) cuTensorMapEncodeTiled(TILED_ARGS(Map, Src))

void check(CUresult R);
bool ok(CUresult R);

static cuuint64_t Dims[2] = {64, 64};
static cuuint64_t Strides[1] = {256};
static cuuint32_t Box[2] = {16, 16};
static cuuint32_t Es[2] = {1, 1};

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

void statement(CUtensorMap *Map, float *Src) {
  cuTensorMapEncodeTiled(TILED_ARGS(Map, Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; a rejected descriptor is only reported through it (TMAP-ENC-RESULT-CHECKED) [tma-encode-result]
}

void voidCast(CUtensorMap *Map, float *Src) {
  (void)cuTensorMapEncodeTiled(TILED_ARGS(Map, Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  static_cast<void>(cuTensorMapEncodeTiled(TILED_ARGS(Map, Src)));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  (void)(cuTensorMapEncodeTiled(TILED_ARGS(Map, Src)));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
}

void im2col(CUtensorMap *Map, float *Src) {
  cuuint64_t D[3] = {64, 64, 64};
  cuuint64_t S[2] = {256, 16384};
  int Lower[1] = {0};
  int Upper[1] = {0};
  cuuint32_t E[3] = {1, 1, 1};
  cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, D, S,
                          Lower, Upper, 64, 32, E,
                          CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-6]]:3: warning: the CUresult of cuTensorMapEncodeIm2col is discarded; {{.*}} [tma-encode-result]
  cuTensorMapEncodeIm2colWide(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, D,
                              S, 0, 0, 64, 32, E,
                              CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                              CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-7]]:3: warning: the CUresult of cuTensorMapEncodeIm2colWide is discarded; {{.*}} [tma-encode-result]
}

void replace(CUtensorMap *Map, float *NewSrc) {
  cuTensorMapReplaceAddress(Map, NewSrc);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}

// Function pointers with the driver's signature: the PFN typedef, decltype,
// a reference, and the result of cudaGetDriverEntryPoint.
void pointers(CUtensorMap *Map, float *Src) {
  PFN_cuTensorMapEncodeTiled_v12000 Encode = nullptr;
  Encode(TILED_ARGS(Map, Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  (*Encode)(TILED_ARGS(Map, Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  decltype(&cuTensorMapReplaceAddress) Replace = &cuTensorMapReplaceAddress;
  Replace(Map, Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  auto &Ref = cuTensorMapEncodeTiled;
  Ref(TILED_ARGS(Map, Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  void *Raw = nullptr;
  cudaGetDriverEntryPoint("cuTensorMapEncodeIm2col", &Raw, cudaEnableDefault);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: cudaGetDriverEntryPoint looks "cuTensorMapEncodeIm2col" up without a version, {{.*}} (TMAP-ENTRY-UNVERSIONED) [tma-encode-result]
  auto Im2col = reinterpret_cast<PFN_cuTensorMapEncodeIm2col_v12000>(Raw);
  int Corner[1] = {0};
  Im2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, Dims, Strides, Corner,
         Corner, 64, 32, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-4]]:3: warning: the CUresult of cuTensorMapEncodeIm2col is discarded; {{.*}} [tma-encode-result]
}

// Control statements: the call is the body, a branch, or the increment.
void control(CUtensorMap *Maps, float *Src, bool Flag) {
  if (Flag)
    cuTensorMapReplaceAddress(&Maps[0], Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  else
    cuTensorMapReplaceAddress(&Maps[1], Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  for (int I = 0; I < 4; ++I)
    cuTensorMapEncodeTiled(TILED_ARGS(&Maps[I], Src));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
  switch (Flag) {
  case true:
    cuTensorMapReplaceAddress(&Maps[2], Src);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
    break;
  default:
    break;
  }
  // The left side of a comma, and both branches of a discarded ?:.
  (cuTensorMapReplaceAddress(&Maps[3], Src), check(CUDA_SUCCESS));
  // CHECK-MESSAGES: :[[@LINE-1]]:4: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  Flag ? cuTensorMapReplaceAddress(&Maps[0], Src)
       : cuTensorMapReplaceAddress(&Maps[1], Src);
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}

// A lambda body, as dispatch macros write them: the call is a statement of
// the lambda, not an argument of a macro.
#define DISPATCH(Body) Body()
void lambda(CUtensorMap *Map, float *Src) {
  DISPATCH([&] { cuTensorMapReplaceAddress(Map, Src); });
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}

// A macro that writes the whole call: reported at the macro's use.
void wholeCallMacro(CUtensorMap *Map, float *Src) {
  ENCODE_A(Map, Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; {{.*}} [tma-encode-result]
}

// Templates: one warning for all instantiations.
template <class T> void encodeAs(CUtensorMap *Map, T *Src) {
  cuTensorMapReplaceAddress(Map, Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}
template <class Fn> void encodeThrough(Fn F, CUtensorMap *Map, float *Src) {
  F(Map, Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}
void instantiate(CUtensorMap *Map, float *F, int *I) {
  encodeAs(Map, F);
  encodeAs(Map, I);
  encodeThrough(&cuTensorMapReplaceAddress, Map, F);
  encodeThrough(cuTensorMapReplaceAddress, Map, F);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

CUresult returned(CUtensorMap *Map, float *Src) {
  return cuTensorMapEncodeTiled(TILED_ARGS(Map, Src));
}

void used(CUtensorMap *Map, float *Src, PFN_cuTensorMapEncodeTiled_v12000 Fn) {
  CUresult R = cuTensorMapEncodeTiled(TILED_ARGS(Map, Src));
  check(R);
  R = Fn(TILED_ARGS(Map, Src));
  auto A = cuTensorMapReplaceAddress(Map, Src);
  (void)A;
  check(cuTensorMapReplaceAddress(Map, Src));
  if (cuTensorMapReplaceAddress(Map, Src) != CUDA_SUCCESS)
    return;
  if (cuTensorMapReplaceAddress(Map, Src))
    return;
  if (CUresult S = cuTensorMapReplaceAddress(Map, Src); S != CUDA_SUCCESS)
    return;
  while (cuTensorMapReplaceAddress(Map, Src) != CUDA_SUCCESS) {
  }
  bool Ok = ok(cuTensorMapReplaceAddress(Map, Src)) &&
            cuTensorMapReplaceAddress(Map, Src) == CUDA_SUCCESS;
  (void)Ok;
  switch (cuTensorMapReplaceAddress(Map, Src)) {
  default:
    break;
  }
  CUresult Results[2] = {cuTensorMapReplaceAddress(Map, Src),
                         cuTensorMapReplaceAddress(Map, Src)};
  (void)Results;
  // The right side of a comma whose value is used.
  R = (check(CUDA_SUCCESS), cuTensorMapReplaceAddress(Map, Src));
  // A GNU statement expression yields its last statement.
  R = ({ cuTensorMapReplaceAddress(Map, Src); });
  // Chosen by ?: and used.
  R = Ok ? cuTensorMapReplaceAddress(Map, Src) : CUDA_SUCCESS;
}

// Passed to macros: CHECK_CU keeps the result, and CU_TRY (the bare call in
// release builds) is the author's check.
void macros(CUtensorMap *Map, float *Src) {
  CHECK_CU(cuTensorMapEncodeTiled(TILED_ARGS(Map, Src)));
  CHECK_CU(cuTensorMapReplaceAddress(Map, Src));
  CU_TRY(cuTensorMapReplaceAddress(Map, Src));
  CU_TRY((cuTensorMapReplaceAddress(Map, Src)));
}

// Lambdas that return the result.
void lambdaReturns(CUtensorMap *Map, float *Src) {
  auto Encode = [&] { return cuTensorMapReplaceAddress(Map, Src); };
  check(Encode());
}

// Functions of other names, or other signatures, are not encode calls.
CUresult myEncode(CUtensorMap *Map, void *Src);
struct Wrapper {
  // A method of the driver's name that returns void is not checked.
  void cuTensorMapReplaceAddress(CUtensorMap *Map, void *Src);
};
void others(CUtensorMap *Map, float *Src, Wrapper W,
            CUresult (*Other)(CUtensorMap *, int *), int *Ints) {
  myEncode(Map, Src);
  W.cuTensorMapReplaceAddress(Map, Src);
  Other(Map, Ints);
  cuInit(0);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// A result stored and never read is not reported (it is "assigned").
void storedNeverRead(CUtensorMap *Map, float *Src) {
  CUresult Ignored = cuTensorMapReplaceAddress(Map, Src);
  (void)Ignored;
}

// A forwarding wrapper returns the result; its callers are not followed.
template <class... Args> CUresult forward(Args... A) {
  return cuTensorMapReplaceAddress(A...);
}
void throughWrapper(CUtensorMap *Map, float *Src) { forward(Map, Src); }
