// Call-site contexts: values that depend on parameters are evaluated under
// each caller whose arguments fold.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// fast.cu style: box from template arguments, shape from parameters.
template <int BlockMajor, int BlockMinor>
void createTensorMap(CUtensorMap *Map, bf16 *Ptr, int Rows, int Cols) {
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, (cuuint64_t)Rows};
  cuuint64_t Strides[1] = {sizeof(bf16) * Cols};
  cuuint32_t Box[2] = {BlockMinor, BlockMajor};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: globalStrides[0] is 2002 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// One more level: the bad column count comes from the caller's caller.
void makeA(CUtensorMap *Map, bf16 *A, int K) {
  createTensorMap<128, 64>(Map, A, 4096, K);
}

void twoLevels(CUtensorMap *Map, bf16 *A, int RuntimeK) {
  makeA(Map, A, 1001);  // bad: 2002-byte rows
  makeA(Map, A, 1001);  // the same value again: one diagnostic
  makeA(Map, A, 1024);  // fine
  makeA(Map, A, RuntimeK); // unknown: silent
  createTensorMap<128, 64>(Map, A, 4096, 100); // bad: 200-byte rows
}

// Partial knowledge pays: the box comes from a template argument while the
// global shape is a run-time value.
template <int BoxInner>
void boxOnly(CUtensorMap *Map, bf16 *Ptr, cuuint64_t Rows, cuuint64_t Cols) {
  cuuint64_t Dims[2] = {Cols, Rows};
  cuuint64_t Strides[1] = {Cols * 2};
  cuuint32_t Box[2] = {BoxInner, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: inner box is boxDim[0] = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void partial(CUtensorMap *Map, bf16 *Ptr, cuuint64_t Rows, cuuint64_t Cols) {
  boxOnly<64>(Map, Ptr, Rows, Cols);
  boxOnly<128>(Map, Ptr, Rows, Cols);
}

// Arrays passed by pointer-to-const into a helper.
void encodeWith(CUtensorMap *Map, float *Ptr, const cuuint64_t *Dims,
                const cuuint64_t *Strides) {
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void arrayCallers(CUtensorMap *Map, float *Ptr) {
  cuuint64_t Dims[2] = {100, 64};
  cuuint64_t Bad[1] = {100};
  cuuint64_t Good[1] = {400};
  // An operand that only forwards a parameter is reported at the caller's
  // argument, where the bad value is.
  encodeWith(Map, Ptr, Dims, Bad);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: globalStrides[0] is 100, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 tensor needs 400 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
  encodeWith(Map, Ptr, Dims, Good);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Recursion and mutual recursion terminate, and a helper called a thousand
// times is checked within the context budget.
void recurse(CUtensorMap *Map, bf16 *Ptr, int Depth, int Cols) {
  if (Depth > 0)
    recurse(Map, Ptr, Depth - 1, Cols);
  createTensorMap<64, 64>(Map, Ptr, 64, Cols);
}
void pong(CUtensorMap *Map, bf16 *Ptr, int Cols);
void ping(CUtensorMap *Map, bf16 *Ptr, int Cols) { pong(Map, Ptr, Cols); }
void pong(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  ping(Map, Ptr, Cols);
  createTensorMap<64, 32>(Map, Ptr, 64, Cols);
}
// A recursive call binds values that depend on the recursion depth: only
// calls from outside the cycle are contexts (64 is passed; 164 is reached
// at run time but 264 and 364 never are, so nothing may be guessed).
void grow(CUtensorMap *Map, bf16 *Ptr, cuuint32_t Rows, int N) {
  if (N > 0)
    grow(Map, Ptr, Rows + 100, N - 1);
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {128};
  cuuint32_t Box[2] = {64, Rows};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void startRecursion(CUtensorMap *Map, bf16 *Ptr) {
  grow(Map, Ptr, 64, 1);
  recurse(Map, Ptr, 3, 4096);
  ping(Map, Ptr, 512);
}

void smallTile(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  createTensorMap<64, 16>(Map, Ptr, 64, Cols);
}
#define CALL10(X) X X X X X X X X X X
void thousandCallers(CUtensorMap *Map, bf16 *Ptr) {
  CALL10(CALL10(CALL10(smallTile(Map, Ptr, 64);)))
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// A parameter written before the call is not its argument any more.
void rewritten(CUtensorMap *Map, bf16 *Ptr, int Cols) {
  Cols = Cols + 1;
  cuuint64_t Dims[2] = {(cuuint64_t)Cols, 64};
  cuuint64_t Strides[1] = {(cuuint64_t)Cols * 2};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
void callRewritten(CUtensorMap *Map, bf16 *Ptr) { rewritten(Map, Ptr, 99); }

// Elements written through a non-const pointer parameter.
void writesThrough(CUtensorMap *Map, float *Ptr, cuuint64_t *Strides) {
  Strides[0] = 4096;
  cuuint64_t Dims[2] = {100, 64};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Ptr, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
void callWritesThrough(CUtensorMap *Map, float *Ptr) {
  cuuint64_t Strides[1] = {100};
  writesThrough(Map, Ptr, Strides);
}
