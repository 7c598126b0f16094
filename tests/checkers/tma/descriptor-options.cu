// The options of tma-descriptor. StrideUnitHeuristics: false turns off the
// two TMAP-ENC-GSTRIDE-UNITS patterns, so a stride in elements or an
// included innermost stride is reported by TMAP-ENC-GSTRIDE-ALIGN when it is
// misaligned and not at all otherwise. AddressTypeCheck: false turns off
// TMAP-ENC-GADDR-TYPE. Every other rule is unaffected.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -config="{CheckOptions: {tma-descriptor.StrideUnitHeuristics: false, tma-descriptor.AddressTypeCheck: false}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin --fix-notes -config="{CheckOptions: {tma-descriptor.StrideUnitHeuristics: false, tma-descriptor.AddressTypeCheck: false}}" -- %cuda_stub_host
// Each option alone (host pass only; CHECK-MESSAGES-UNITS and -ADDR):
// RUN: %check_clang_tidy -check-suffixes=UNITS %s tma-descriptor %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.StrideUnitHeuristics: false}}" -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=ADDR %s tma-descriptor %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.AddressTypeCheck: false}}" -- %cuda_stub_host
// The options are stored with their values:
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' -config="{CheckOptions: {tma-descriptor.StrideUnitHeuristics: false}}" --dump-config %s -- %cuda_stub_host | FileCheck --check-prefix=CONFIG %s
// CONFIG-DAG: tma-descriptor.StrideUnitHeuristics: 'false'
// CONFIG-DAG: tma-descriptor.AddressTypeCheck: 'true'

#include <cstdint>
#include <cuda.h>

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A stride in elements that is misaligned as bytes: 100 fp16 values.
CUresult encodeElementsMisaligned(CUtensorMap *Map, uint16_t *A) {
  const cuuint64_t K = 100;
  cuuint64_t Shape[2] = {K, 4096};
  cuuint64_t Strides[1] = {K};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 100 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 100 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 112 bytes
  // CHECK-MESSAGES-UNITS: :[[@LINE-8]]:40: warning: globalStrides[0] is 100 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES-ADDR: :[[@LINE-9]]:40: warning: globalStrides[0] is 100, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT16 tensor needs 200 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
}

// The innermost stride included: 4 bytes is misaligned.
CUresult encodeInnermostIncluded(CUtensorMap *Map, float *B) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[2] = {4, 4096 * 4};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, B,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:40: warning: globalStrides[0] is 4 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-10]]:28: note: globalStrides[0] = 4 comes from here
  // CHECK-NOTES: :[[@LINE-11]]:28: note: pad the row to 16 bytes
  // CHECK-FIXES: cuuint64_t Strides[2] = {16, 4096 * 4};
  // CHECK-MESSAGES-UNITS: :[[@LINE-9]]:40: warning: globalStrides[0] is 4 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES-ADDR: :[[@LINE-10]]:40: warning: globalStrides[0] is 4 bytes, the size of one CU_TENSOR_MAP_DATA_TYPE_FLOAT32 element: globalStrides starts with the stride of dimension 1, the innermost stride is implicit (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
}

// A float buffer described as FLOAT16 data, whose box is also too large.
CUresult encodeFloatAsHalf(CUtensorMap *Map, float *Activations) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 512};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                                Activations, Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES: :[[@LINE-5]]:62: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-NOTES: :[[@LINE-9]]:28: note: boxDim[1] = 512 comes from here
  // CHECK-NOTES: :[[@LINE-10]]:28: note: split the box: at most 256 per dimension
  // CHECK-FIXES: cuuint32_t Box[2] = {64, 256};
  // CHECK-MESSAGES-UNITS: :[[@LINE-9]]:33: warning: globalAddress points to 32-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT16 has 16-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
  // CHECK-MESSAGES-UNITS: :[[@LINE-10]]:62: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
  // CHECK-MESSAGES-ADDR: :[[@LINE-11]]:62: warning: boxDim[1] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// A stride in elements that is aligned as bytes: 4096 fp16 values. Only the
// heuristics report it (the ADDR run).
CUresult encodeElementsAligned(CUtensorMap *Map, uint16_t *A) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, A,
                                Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES-ADDR: :[[@LINE-5]]:40: warning: globalStrides[0] is 4096, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT16 tensor needs 8192 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
}

// A bf16 buffer described as FLOAT32 data: only the address type check
// reports it (the UNITS run).
CUresult encodeHalfAsFloat(CUtensorMap *Map, uint16_t *Weights) {
  cuuint64_t Shape[2] = {4096, 4096};
  cuuint64_t Strides[1] = {16384};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                Weights, Shape, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES-UNITS: :[[@LINE-5]]:33: warning: globalAddress points to 16-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 has 32-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
}
