// The contexts index is built for the first question and rebuilt once when a
// later question needs what it left out (folding/CallContexts.cpp,
// indexCalls). The first site is in `late`, first named after `early` and
// after `callsEarly`: the first walk leaves out the bodies that end before
// `late` (callsEarly's). The second site is in `early`, first named on the
// declaration at the top, before `late`: its caller callsEarly was left
// out, so the index is built again, whole (index-walks 2), and the value
// that callsEarly passes (9) is still found. Both passes.
// RUN: env TMA_TIDY_STATS=1 %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' %s -- %cuda_stub_host 2>&1 | FileCheck %s
// RUN: env TMA_TIDY_STATS=1 %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' %s -- %cuda_stub_device 2>&1 | FileCheck %s
// CHECK-NOT: warning:
// CHECK: tma-tidy stats: matchers 1 checks 1 folders 1 finders 0 index-walks 2 full-walks 0 context-sets 2 {{.*}}
// CHECK: :[[@LINE+32]]:53: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE)
// CHECK: :[[@LINE+29]]:26: note: elementStrides[1] = 9 comes from here
// CHECK: :[[@LINE+11]]:60: note: with 'E' = 9 from this call
// CHECK-NOT: warning:

#include <cuda.h>

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

CUresult early(CUtensorMap *M, void *Src, cuuint32_t E);

void callsEarly(CUtensorMap *M, void *Src) { early(M, Src, 9); }

CUresult late(CUtensorMap *M, void *Src, cuuint32_t E) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t Es[2] = {1, E};
  return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
}

void callsLate(CUtensorMap *M, void *Src) { late(M, Src, 1); }

CUresult early(CUtensorMap *M, void *Src, cuuint32_t E) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {32, 64};
  cuuint32_t Es[2] = {1, E};
  return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
}
