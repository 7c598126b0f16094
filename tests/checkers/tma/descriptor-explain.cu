// ExplainDescriptors (off by default): tma-descriptor prints, at each encode
// call and for each distinct context, the folded descriptor with every
// operand's value or "unknown" and why; tma-bulk-copy prints, at each tensor
// copy, the map it reads as linked to its encode call, or that none is
// linked. A debugging aid for silent checks, like CoverageReport.
// RUN: %check_clang_tidy %s tma-descriptor,tma-bulk-copy %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.ExplainDescriptors: true, tma-bulk-copy.ExplainDescriptors: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-descriptor,tma-bulk-copy %t -- --load=%tma_plugin -config="{CheckOptions: {tma-descriptor.ExplainDescriptors: true, tma-bulk-copy.ExplainDescriptors: true}}" -- %cuda_stub_host
// Off by default: nothing (the file has no bug).
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor,tma-bulk-copy' %s -- %cuda_stub_host 2>&1 | not grep 'warning: explain'
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' --dump-config %s -- %cuda_stub_host | FileCheck --check-prefix=CONFIG %s
// CONFIG: tma-descriptor.ExplainDescriptors: 'false'

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

int rowsAtRunTime();

void encode(CUtensorMap *Map, float *Data, cuuint64_t Rows) {
  cuuint64_t Dims[2] = {1024, Rows};
  cuuint64_t Strides[1] = {4096};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims,
                         Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
// CHECK-MESSAGES: :[[@LINE-7]]:3: warning: explain: cuTensorMapEncodeTiled descriptor: tensorDataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32 (7); tensorRank = 2; globalDim = {1024, 512}; globalStrides = {4096}; boxDim = {32, 32}; elementStrides = {1, 1}; interleave = CU_TENSOR_MAP_INTERLEAVE_NONE (0); swizzle = CU_TENSOR_MAP_SWIZZLE_NONE (0); l2Promotion = 0; oobFill = 0 [tma-descriptor]
// CHECK-MESSAGES: :[[@LINE-8]]:3: warning: explain: cuTensorMapEncodeTiled descriptor: tensorDataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32 (7); tensorRank = 2; globalDim = {1024, unknown (element 1 did not fold)}; globalStrides = {4096}; boxDim = {32, 32}; elementStrides = {1, 1}; interleave = CU_TENSOR_MAP_INTERLEAVE_NONE (0); swizzle = CU_TENSOR_MAP_SWIZZLE_NONE (0); l2Promotion = 0; oobFill = 0 [tma-descriptor]

void encodeUnknown(CUtensorMap *Map, float *Data, const cuuint32_t *Box,
                   CUtensorMapSwizzle Swizzle) {
  cuuint64_t Dims[1] = {1024};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         nullptr, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
// CHECK-MESSAGES: :[[@LINE-6]]:3: warning: explain: cuTensorMapEncodeTiled descriptor: tensorDataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32 (7); tensorRank = 1; globalDim = {1024}; globalStrides = unknown (a null pointer); boxDim = unknown (parameter 'Box': no call site in this translation unit passes a known value); elementStrides = {1}; interleave = CU_TENSOR_MAP_INTERLEAVE_NONE (0); swizzle = unknown (parameter 'Swizzle': no call site in this translation unit passes a known value); l2Promotion = 0; oobFill = 0 [tma-descriptor]
// CHECK-MESSAGES: :[[@LINE-6]]:26: warning: globalStrides is a null pointer; the driver rejects it even for tensorRank 1, where no stride is read (TMAP-ENC-GSTRIDES-NULL) [tma-descriptor]

__global__ void load(const __grid_constant__ CUtensorMap Map,
                     const CUtensorMap *Unlinked) {
  __shared__ alignas(128) float Tile[32 * 32];
  __shared__ uint64_t Bar;
  int32_t Coords[2] = {0, 0};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                  cuda::ptx::space_global, Tile, &Map, Coords,
                                  &Bar);
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                  cuda::ptx::space_global, Tile, Unlinked,
                                  Coords, &Bar);
}
// CHECK-MESSAGES: :[[@LINE-7]]:3: warning: explain: cuda::ptx::cp_async_bulk_tensor reads the map encoded at line {{[0-9]+}}: {{.*}}, tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 (7), tensorRank 2, boxDim {32, 32}, elementStrides {1, 1}, interleave CU_TENSOR_MAP_INTERLEAVE_NONE (0), swizzle CU_TENSOR_MAP_SWIZZLE_NONE (0) [tma-bulk-copy]
// CHECK-MESSAGES: :[[@LINE-5]]:3: warning: explain: cuda::ptx::cp_async_bulk_tensor reads a map that is not linked to an encode call (none of this translation unit reaches it through a kernel launch or cudaMemcpyToSymbol): map rules stay silent [tma-bulk-copy]

void run(float *Data, CUtensorMap *Global) {
  CUtensorMap Map;
  encode(&Map, Data, 512);
  encode(&Map, Data, rowsAtRunTime());
  load<<<1, 32>>>(Map, Global);
}
