// Call-site context budgets degrade evenly: contexts are chosen breadth-first
// (shorter chains of callers first, round-robin over the callers), so when a
// function has more contexts than the 64-per-function budget, every caller
// keeps a chance. Here 200 mutually recursive instantiations call the helper
// (each through two recursive calls, thousands of chains of callers within
// the depth of four), and main calls it directly, last: depth-first, the
// recursion filled the budget and main's call (E = 10) got no context.
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cuda.h>

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

CUresult make(CUtensorMap *M, void *Src, cuuint32_t E) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, E};
  return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: elementStrides[1] is 10, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:53: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
}

constexpr int K = 200;

template <int I> CUresult ring(CUtensorMap *M, void *Src, cuuint32_t E, int N) {
  if (N) {
    ring<(I + 1) % K>(M, Src, E, N - 1);
    ring<(I + K - 1) % K>(M, Src, E, N - 1);
  }
  return make(M, Src, E);
}

// A correct twin: 200 callers with valid values stay silent.
CUresult makeOk(CUtensorMap *M, void *Src, cuuint32_t E) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, E};
  return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
}

template <int I> CUresult ringOk(CUtensorMap *M, void *Src, int N) {
  if (N) {
    ringOk<(I + 1) % K>(M, Src, N - 1);
    ringOk<(I + K - 1) % K>(M, Src, N - 1);
  }
  return makeOk(M, Src, I % 8 + 1);
}

int main() {
  static CUtensorMap M;
  static char Src[1 << 20];
  ring<K - 1>(&M, Src, 9, 3);
  ringOk<0>(&M, Src, 3);
  make(&M, Src, 10);
  makeOk(&M, Src, 8);
  return 0;
}
