// tma-descriptor.SuggestRuntimeCheck (default false): on an encode call whose
// value operands do not all fold, and that has nothing to report, a remark
// names the operands and points to tma::encode_tiled of <tma/validate.h>.
// Calls that fold completely, and calls with a warning, get no remark.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' -config="{CheckOptions: {tma-descriptor.SuggestRuntimeCheck: true}}" %s -- %cuda_stub_host 2>&1 | FileCheck %s --implicit-check-not="{{remark|warning|error}}:"
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' -config="{CheckOptions: {tma-descriptor.SuggestRuntimeCheck: true}}" %s -- %cuda_stub_device 2>&1 | FileCheck %s --implicit-check-not="{{remark|warning|error}}:"
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' -config="{CheckOptions: {tma-descriptor.SuggestRuntimeCheck: true}}" %s -- %cuda_real_host 2>&1 | FileCheck %s --implicit-check-not="{{remark|warning|error}}:"
// Off by default: only the warning.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' %s -- %cuda_stub_host 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not="{{remark|warning|error}}:"
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' --dump-config %s -- %cuda_stub_host | FileCheck %s --check-prefix=CONFIG
// CONFIG: tma-descriptor.SuggestRuntimeCheck: 'false'

#include <cuda.h>

// The shape comes from the caller at run time.
CUresult encodeRuntimeShape(CUtensorMap *Map, void *P, cuuint64_t Rows,
                            cuuint64_t Cols) {
  cuuint64_t Dims[2] = {Cols, Rows};
  cuuint64_t Strides[1] = {Cols * 2};
  cuuint32_t Box[2] = {64, 64}, Es[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, P,
                                Dims, Strides, Box, Es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK: :[[@LINE-6]]:10: remark: globalDim and globalStrides do not fold at compile time: tma::encode_tiled from <tma/validate.h>, called with the same arguments, checks them at run time [tma-descriptor]
}

// One scalar operand unknown.
CUresult encodeRuntimeSwizzle(CUtensorMap *Map, void *P, CUtensorMapSwizzle S) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64}, Es[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, P,
                                Dims, Strides, Box, Es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, S,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK: :[[@LINE-5]]:10: remark: swizzle does not fold at compile time: tma::encode_tiled from <tma/validate.h>, called with the same arguments, checks it at run time [tma-descriptor]
}

// Everything folds and is correct: nothing to say.
CUresult encodeConstant(CUtensorMap *Map, void *P) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64}, Es[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, P,
                                Dims, Strides, Box, Es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// A proven violation with other operands unknown: the warning, no remark.
CUresult encodeBrokenBox(CUtensorMap *Map, void *P, cuuint64_t Rows) {
  cuuint64_t Dims[2] = {4096, Rows};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {300, 64}, Es[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, P,
                                Dims, Strides, Box, Es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK: :[[@LINE-5]]:48: warning: boxDim[0] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // OFF: :[[@LINE-6]]:48: warning: boxDim[0] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

// A template instantiated twice: one remark at the call.
template <typename T>
CUresult encodeTyped(CUtensorMap *Map, T *P, cuuint64_t N) {
  cuuint64_t Dims[1] = {N};
  cuuint64_t Strides[1] = {0};
  cuuint32_t Box[1] = {64}, Es[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, P,
                                Dims, Strides, Box, Es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK: :[[@LINE-6]]:10: remark: globalDim does not fold at compile time: tma::encode_tiled from <tma/validate.h>, called with the same arguments, checks it at run time [tma-descriptor]
}
template CUresult encodeTyped<unsigned char>(CUtensorMap *, unsigned char *,
                                             cuuint64_t);
template CUresult encodeTyped<signed char>(CUtensorMap *, signed char *,
                                           cuuint64_t);

// A call passed to a macro is the user's: the remark, at the macro's use.
#define CHECK_CU(Call)                                                         \
  do {                                                                         \
    if ((Call) != CUDA_SUCCESS)                                                \
      return CUDA_ERROR_INVALID_VALUE;                                         \
  } while (0)
CUresult encodeChecked(CUtensorMap *Map, void *P, cuuint64_t N) {
  cuuint64_t Dims[1] = {N};
  cuuint64_t Strides[1] = {0};
  cuuint32_t Box[1] = {64}, Es[1] = {1};
  CHECK_CU(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, P,
                                  Dims, Strides, Box, Es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  // CHECK: :[[@LINE-6]]:12: remark: globalDim does not fold at compile time: tma::encode_tiled from <tma/validate.h>, called with the same arguments, checks it at run time [tma-descriptor]
  return CUDA_SUCCESS;
}

// A call in a macro body (a library's driver-entry wrapper, as in CUTLASS's
// CUTLASS_CUDA_DRIVER_WRAPPER_DECL): no remark.
#define DECLARE_WRAPPER(Name)                                                  \
  CUresult Name(CUtensorMap *Map, CUtensorMapDataType T, cuuint32_t R,       \
                void *P, const cuuint64_t *D, const cuuint64_t *S,           \
                const cuuint32_t *B, const cuuint32_t *E,                    \
                CUtensorMapInterleave I, CUtensorMapSwizzle W,               \
                CUtensorMapL2promotion L, CUtensorMapFloatOOBfill O) {       \
    return cuTensorMapEncodeTiled(Map, T, R, P, D, S, B, E, I, W, L, O);     \
  }
DECLARE_WRAPPER(wrappedEncode)

// A call in decltype never runs (DeepGEMM's lazy driver wrappers): no remark.
template <typename... Args>
auto lazyEncode(Args &&...A) -> decltype(cuTensorMapEncodeTiled(A...)) {
  return CUDA_SUCCESS;
}
CUresult useLazy(CUtensorMap *Map, void *P, cuuint64_t N) {
  cuuint64_t Dims[1] = {N};
  cuuint64_t Strides[1] = {0};
  cuuint32_t Box[1] = {64}, Es[1] = {1};
  return lazyEncode(Map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1u, P, Dims, Strides,
                    Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_NONE,
                    CU_TENSOR_MAP_L2_PROMOTION_NONE,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
