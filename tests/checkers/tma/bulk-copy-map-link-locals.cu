// TMA-DIM-EQ-RANK through the host-to-device map link when the kernel names
// its map through a local: a pointer to a field of its Params
// (`const CUtensorMap *a = &p.tma_a`), a pointer to the Params itself
// (`&w->tma_a`), a reference (`const CUtensorMap &b = w->tma_b`), a pointer
// assigned after its (null) initialisation. A pointer whose assignments
// designate two different maps is not followed. The correct twin encodes
// rank-2 maps and reads them the same ways.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

void encode(CUtensorMap *map, float *ptr, uint32_t rank) {
  uint64_t dims[3] = {1024, 1024, 8};
  uint64_t strides[2] = {4096, 4096 * 1024};
  uint32_t box[3] = {32, 32, 1};
  uint32_t estrides[3] = {1, 1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

struct Params {
  CUtensorMap tma_a;
  CUtensorMap tma_b;
  int k_tiles;
};

__global__ void viaLocals(const __grid_constant__ Params p, int pick) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  const CUtensorMap *a = &p.tma_a;
  const Params *w = &p;
  const CUtensorMap &b = w->tma_b;
  const CUtensorMap *later = nullptr;
  later = &w->tma_a;
  const CUtensorMap *either = &p.tma_a;
  if (pick)
    either = &p.tma_b;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, a, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &w->tma_a, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &b, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, later, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, either, 0, 0, bar);
}

void runLocals(float *ptr) {
  Params params;
  encode(&params.tma_a, ptr, 3); // wrong: the kernel reads it as 2d
  encode(&params.tma_b, ptr, 3); // wrong too
  viaLocals<<<1, 32>>>(params, 1);
}

// The correct twin: rank-2 maps, read the same ways.
__global__ void viaLocalsTwin(const __grid_constant__ Params p, int pick) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  const CUtensorMap *a = &p.tma_a;
  const Params *w = &p;
  const CUtensorMap &b = w->tma_b;
  const CUtensorMap *later = nullptr;
  later = &w->tma_a;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &w->tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &b, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, later, 0, 0, bar);
}

void runLocalsTwin(float *ptr) {
  Params params;
  encode(&params.tma_a, ptr, 2);
  encode(&params.tma_b, ptr, 2);
  viaLocalsTwin<<<1, 32>>>(params, 0);
}
