// tma-encode-result finds the function that holds an encode call without
// the contexts index (which leaves out template patterns and system
// headers): from a local or parameter the call names and that function's
// own parent map, or, for a call that names none, from a walk of the whole
// TU made once (TMAP-ENC-RESULT-CHECKED). Uninstantiated templates and
// lambdas included; the twins that use the result stay silent.
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>

// Never instantiated: the pattern's call is all there is.
template <int N> void neverInstantiated(CUtensorMap *Map, float *Src) {
  cuTensorMapReplaceAddress(Map, Src);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}

// Names no local: the whole-TU walk answers.
CUtensorMap GlobalMap;
float *GlobalSrc;
template <int N> void onGlobals() {
  cuTensorMapReplaceAddress(&GlobalMap, GlobalSrc);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}
void onGlobalsPlain() {
  cuTensorMapReplaceAddress(&GlobalMap, GlobalSrc);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
}

// In a lambda, on the enclosing function's locals.
void inLambda() {
  CUtensorMap Map;
  float *Src = nullptr;
  auto Encode = [&] {
    cuTensorMapReplaceAddress(&Map, Src);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  };
  Encode();
}

//===----------------------------------------------------------------------===//
// Twins that use the result: silent
//===----------------------------------------------------------------------===//

template <int N> CUresult neverInstantiatedChecked(CUtensorMap *Map,
                                                   float *Src) {
  return cuTensorMapReplaceAddress(Map, Src);
}
template <int N> CUresult onGlobalsChecked() {
  return cuTensorMapReplaceAddress(&GlobalMap, GlobalSrc);
}
CUresult inLambdaChecked() {
  CUtensorMap Map;
  float *Src = nullptr;
  auto Encode = [&] { return cuTensorMapReplaceAddress(&Map, Src); };
  return Encode();
}
