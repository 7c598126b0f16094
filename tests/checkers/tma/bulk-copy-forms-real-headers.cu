// The instruction-form rules with the real CUDA toolkit headers and CCCL:
// cuda::ptx::st_bulk (BULK-ST-SIZE), cde and cuda::ptx tensor stores
// (TMA-STORE-NONNEG), cuda::ptx tensor reductions against the linked map
// (TMA-REDUCE-OP-TYPE) and the gather4 wrapper against a rank-2 map, whose
// five coordinates are no .5d (TMA-DIM-EQ-RANK stays silent).
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;

__global__ void fills() {
  __shared__ alignas(16) uint64_t zeros[512];
  ptx::st_bulk(zeros, 4 * sizeof(uint64_t) + 4, ptx::n32_t<0>{});
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: cuda::ptx::st_bulk size is 36 bytes, not a multiple of 8 bytes (BULK-ST-SIZE) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: fill 40 bytes
  ptx::st_bulk(zeros, sizeof(zeros), ptx::n32_t<0>{});
}

__global__ void storeAndReduce(const __grid_constant__ CUtensorMap map,
                               int row) {
  __shared__ alignas(128) float tile[32 * 32];
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, row - 1, tile);
  int32_t at[2] = {-32, 0};
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, at,
                            tile);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: cuda::ptx::cp_async_bulk_tensor coordinate 0 is -32; a tensor store or reduction starts its box at non-negative coordinates (TMA-STORE-NONNEG) [tma-bulk-copy]
  int32_t origin[2] = {0, 0};
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                   ptx::op_min, &map, origin, tile);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: cuda::ptx::cp_reduce_async_bulk_tensor: a tensor .min reduction of a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 map; PTX defines no such reduction (TMA-REDUCE-OP-TYPE) [tma-bulk-copy]
  // CHECK-MESSAGES: :54:32: note: the tensor map is encoded here
  // CHECK-MESSAGES: :59:3: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: reduce in an epilogue or through a map of a supported type
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                   ptx::op_add, &map, origin, tile);
  __shared__ uint64_t bar;
  int32_t rows[5] = {0, 1, 2, 3, 4};
  ptx::cp_async_bulk_tensor_tile_gather4(ptx::space_shared, ptx::space_global,
                                         tile, &map, rows, &bar);
}

void run(float *ptr) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {4096};
  uint32_t box[2] = {32, 1};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  storeAndReduce<<<1, 32>>>(map, 1);
}
