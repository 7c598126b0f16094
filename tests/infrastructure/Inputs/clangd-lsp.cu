// Opened by clangd-lsp.test through lsp_client.py: lit does not run it.
#include <stddef.h>
#include <cuda.h>

// With -nostdinc++, <new> exists only as clang's CUDA wrapper in the resource
// directory (Debian's driver finds stddef.h even with a wrong one).
#if !__has_include(<new>)
#error "no <new>: wrong resource directory"
#endif

// misc-const-correctness is enabled but slow for clangd: dropped.
size_t neverWritten() {
  size_t N = 1;
  return N;
}

void encode(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {100, 64};
  cuuint64_t Strides[1] = {200};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)128,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
