// Feasible contexts only (tma-rules.md §11.C): a call-site context whose
// values make a dominating guard leave the function before the encode call
// (an early return, a throw, a failing assert, a guard in a caller) reports
// nothing there. The other contexts of the same call still report.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <assert.h>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;

// The field case: a launcher that returns early on an empty problem. The
// context with Total == 0 never encodes (a zero globalDim otherwise).
void encodeFlat(CUtensorMap *Map, float *Ptr, cuuint64_t Total) {
  if (Total == 0)
    return;
  cuuint64_t Dims[1] = {Total};
  cuuint64_t Strides[1] = {0};
  cuuint32_t Box[1] = {256};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void flatCallers(CUtensorMap *Map, float *Ptr) {
  encodeFlat(Map, Ptr, 0);       // returns first: silent
  encodeFlat(Map, Ptr, 1 << 20); // fine
}


void earlyReturn(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  if (Cols % 4 != 0) {
    return;
  }
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 128};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 2008 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void earlyReturnCallers(CUtensorMap *Map, bf16 *Ptr) {
  earlyReturn(Map, Ptr, 1001); // the guard returns: silent
  earlyReturn(Map, Ptr, 1004); // passes the guard, but 2008-byte rows
  earlyReturn(Map, Ptr, 1024); // fine
}

// A throw and a failing assert leave the function as a return does.
void throwing(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  if (Cols * sizeof(bf16) % 16 != 0)
    throw 1;
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 128};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void asserting(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  assert(Cols % 8 == 0 && "rows must be 16-byte multiples");
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 128};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void leavingCallers(CUtensorMap *Map, bf16 *Ptr) {
  throwing(Map, Ptr, 1001);  // throws first: silent
  asserting(Map, Ptr, 1001); // the assert fails first: silent
  throwing(Map, Ptr, 1024);
  asserting(Map, Ptr, 1024);
}

// A guard in a caller: the helper's call is skipped under the outer
// context with Cols == 1001, so nothing is encoded with it.
void encodeChecked(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 128};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void validating(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  if (Cols % 8 != 0 || Cols <= 0)
    return;
  encodeChecked(Map, Ptr, Cols);
}

void outerCallers(CUtensorMap *Map, bf16 *Ptr) {
  validating(Map, Ptr, 1001); // the caller's guard returns: silent
  validating(Map, Ptr, 1024);
  encodeChecked(Map, Ptr, 100); // no guard on this path: reported
}

// A guard that does not dominate the call, or that does not fold, proves
// nothing: the context still reports.
void notDominating(CUtensorMap *Map, bf16 *Ptr, int Cols, bool Verbose) {
  if (Cols % 8 != 0 && Verbose)
    return;
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 128};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 2002 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void notDominatingCallers(CUtensorMap *Map, bf16 *Ptr, bool Verbose) {
  notDominating(Map, Ptr, 1001, Verbose);
}
