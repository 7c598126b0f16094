// A file compiled by nvcc whose descriptor depends on a -D of its compile
// command (clangd-reload.test re-configures the database under a running
// tma-clangd).
#include <cuda.h>

void encode(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[1] = {1024};
  cuuint64_t Strides[1] = {4096};
#ifdef WIDE_BOX
  cuuint32_t Box[1] = {1000};
#else
  cuuint32_t Box[1] = {64};
#endif
  cuuint32_t ElemStrides[1] = {1};
  CUresult Result = cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  (void)Result;
}
