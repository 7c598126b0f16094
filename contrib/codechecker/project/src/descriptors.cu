// Host code: a descriptor whose strides are in elements, not bytes, and a
// discarded encode result.
#include <cuda.h>

CUresult encodeA(CUtensorMap *map, void *a) {
  cuuint64_t dims[2] = {1024, 1024};
  cuuint64_t strides[1] = {1024};
  cuuint32_t box[2] = {64, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, dims, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void encodeB(CUtensorMap *map, void *b) {
  cuuint64_t dims[2] = {1024, 1024};
  cuuint64_t strides[1] = {2048};
  cuuint32_t box[2] = {64, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, b, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
