// Options: CallSiteContexts (default true) folds parameters under each call
// of the function; CoverageReport (default false) reports per encode call how
// many of its ten value operands were folded.
// RUN: %check_clang_tidy -check-suffixes=ON %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=OFF %s tma-descriptor %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.CallSiteContexts: false}}" -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=COVERAGE %s tma-descriptor %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.CallSiteContexts: false, tma-descriptor.CoverageReport: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' --dump-config %s -- %cuda_stub_host | FileCheck --check-prefix=CONFIG %s
// CONFIG-DAG: tma-descriptor.CallSiteContexts: 'true'
// CONFIG-DAG: tma-descriptor.CoverageReport: 'false'
#include <cuda.h>

void encodeRows(CUtensorMap *Map, float *Ptr, cuuint32_t Rows) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {32, Rows};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Ptr, Dims,
  // CHECK-MESSAGES-COVERAGE: :[[@LINE-1]]:3: warning: encode call: 9 of 10 operands folded (best of 1 context) [tma-descriptor]
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES-ON: :[[@LINE-1]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void caller(CUtensorMap *Map, float *Ptr) { encodeRows(Map, Ptr, 300); }
