// tma-encode-result: run-time lookups of the tensor-map driver functions that
// return a null function pointer (TMAP-ENTRY-NULL: a misspelled symbol, a
// version below the symbol's introduction) or an unversioned lookup on
// CUDA 13 (TMAP-ENTRY-UNVERSIONED). The stub cuda.h defines CUDA_VERSION
// 13000. Correct twins next to each case stay silent.
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-encode-result %t -- --load=%tma_plugin -- %cuda_stub_host
// DisabledRules turns the lookup rules off like any other (no message below).
// RUN: %check_clang_tidy -check-suffixes=OFF %s tma-encode-result %t -- --load=%tma_plugin --config="{CheckOptions: {tma-encode-result.DisabledRules: 'TMAP-ENTRY-NULL, TMAP-ENTRY-UNVERSIONED'}}" -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=OFF %s tma-encode-result %t -- --load=%tma_plugin --config="{CheckOptions: {DisabledRules: 'TMAP-ENTRY-NULL, TMAP-ENTRY-UNVERSIONED'}}" -- %cuda_stub_device

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

void *unversioned() {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Status;
  // The CUDA 12 fallback that flashinfer's tma_utils.cuh takes on CUDA 13.0
  // (its guard tests the minor version alone).
  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &Fn, cudaEnableDefault,
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: cudaGetDriverEntryPoint looks "cuTensorMapEncodeTiled" up without a version, which CUDA 13.0 deprecates and which need not return the ABI of PFN_cuTensorMapEncodeTiled_v12000; use cudaGetDriverEntryPointByVersion with cudaVersion 12000 (TMAP-ENTRY-UNVERSIONED) [tma-encode-result]
                          &Status);
  // Not a tensor-map function: not this check's business.
  cudaGetDriverEntryPoint("cuMemAlloc", &Fn, cudaEnableDefault, &Status);
  return Fn;
}

constexpr unsigned WideSince = 12080;

void *versions(int RuntimeVersion) {
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Status;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 11080,
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: cudaVersion is 11080, below 12000 (CUDA 12.0) where cuTensorMapEncodeTiled was introduced; the lookup returns a null function pointer (TMAP-ENTRY-NULL) [tma-encode-result]
                                   cudaEnableDefault, &Status);
  cuGetProcAddress("cuTensorMapEncodeIm2colWide", &Fn, 12000, 0, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: cudaVersion is 12000, below 12080 (CUDA 12.8) where cuTensorMapEncodeIm2colWide was introduced; the lookup returns a null function pointer (TMAP-ENTRY-NULL) [tma-encode-result]
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTile", &Fn, 12000,
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: "cuTensorMapEncodeTile" is not a tensor-map function of the driver (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2colWide, cuTensorMapReplaceAddress); the lookup returns a null function pointer (TMAP-ENTRY-NULL) [tma-encode-result]
                                   cudaEnableDefault, &Status);
  // Correct twins: the introduction versions, a run-time version (unknown).
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Fn, 12000,
                                   cudaEnableDefault, &Status);
  cuGetProcAddress("cuTensorMapEncodeIm2colWide", &Fn, WideSince, 0, nullptr);
  cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &Fn,
                                   RuntimeVersion, cudaEnableDefault, &Status);
  return Fn;
}
