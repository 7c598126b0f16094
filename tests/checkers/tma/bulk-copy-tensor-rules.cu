// Tensor-copy rules of tma-rules.md sections 3 and 11.B, through inline PTX,
// cuda::ptx and cde: TMA-STORE-NONNEG (store and reduction coordinates),
// TMA-REDUCE-MODE (no .tile::scatter4 reduction), TMA-IM2COL-INFO (im2col
// operands), and against the map the launch passes: TMA-STORE-COORD-ALIGN,
// TMA-GATHER4, TMA-REDUCE-OP-TYPE, TMA-SMEM-ELEMTYPE and
// TMA-MODE-MATCHES-MAP for im2col copies of a tiled map (sm_100a pass).
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
typedef unsigned short bf16;

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

void tiled(CUtensorMap *map, CUtensorMapDataType type, void *ptr,
           uint32_t rows) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {4096};
  uint32_t box[2] = {64, rows};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, type, 2, ptr, dims, strides, box, estrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Stores and reductions: coordinates
//===----------------------------------------------------------------------===//

__global__ void stores(const __grid_constant__ CUtensorMap map, int k) {
  __shared__ alignas(128) bf16 tile[64 * 32];
  // TMA-STORE-NONNEG, at the coordinate.
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, -8, 0, tile);
  int32_t below[2] = {0, -1};
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, below,
                            tile);
  // TMA-STORE-COORD-ALIGN: 4 bf16 elements are 8 bytes.
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 4, 0, tile);
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%1, %2}], [%3];"
               :: "l"(&map), "r"(-64), "r"(0), "r"(smem(tile)) : "memory");
  // Correct twins: non-negative, 16-byte aligned starts; run-time values.
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 8, 0, tile);
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 64 * k, k, tile);
  int32_t at[2] = {128, 3};
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, at,
                            tile);
  // Loads may start out of bounds (and anywhere).
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, -3, -1, bar);
}

void runStores(bf16 *ptr) {
  CUtensorMap map;
  tiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, 32);
  stores<<<1, 32>>>(map, 2);
}

//===----------------------------------------------------------------------===//
// Reductions: operator and mode
//===----------------------------------------------------------------------===//

__global__ void reductions(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 32];
  int32_t at[2] = {0, 0};
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                   ptx::op_max, &map, at, tile);
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add."
               "tile::scatter4.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
               :: "l"(&map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3),
                  "r"(smem(tile))
               : "memory");
  // Correct twin: an fp32 add.
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                   ptx::op_add, &map, at, tile);
}

void runReductions(float *ptr) {
  CUtensorMap map;
  tiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, ptr, 32);
  reductions<<<1, 32>>>(map);
}

//===----------------------------------------------------------------------===//
// gather4 and the shared buffer's element type
//===----------------------------------------------------------------------===//

__global__ void gathers(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 rows[4 * 64];
  __shared__ uint64_t bar;
  int32_t at[5] = {0, 1, 5, 9, 13};
  ptx::cp_async_bulk_tensor_tile_gather4(ptx::space_shared, ptx::space_global,
                                         rows, &map, at, &bar);
}

void runGathers(bf16 *ptr) {
  CUtensorMap rowMap, boxMap;
  tiled(&rowMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, 1);
  tiled(&boxMap, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, 8);
  // One row per coordinate: right.
  gathers<<<1, 32>>>(rowMap);
  gathers<<<1, 32>>>(boxMap);
}

__global__ void elementTypes(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float asFloat[64 * 32];
  __shared__ alignas(128) bf16 asBf16[64 * 32];
  __shared__ alignas(128) unsigned char asBytes[2 * 64 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(asFloat, &map, 0, 0, bar);
  // Correct twins: the map's element size, and bytes.
  cde::cp_async_bulk_tensor_2d_global_to_shared(asBf16, &map, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(asBytes, &map, 0, 0, bar);
}

void runElementTypes(bf16 *ptr) {
  CUtensorMap map;
  tiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, ptr, 32);
  elementTypes<<<1, 32>>>(map);
}

//===----------------------------------------------------------------------===//
// im2col
//===----------------------------------------------------------------------===//

__device__ void im2colLoads(float *dst, const CUtensorMap *map,
                            uint64_t *bar, int n, int h, int w, int c) {
  // One offset where a .4d copy takes two.
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
               "[%6], {%7};"
               :: "r"(smem(dst)), "l"(map), "r"(c), "r"(w), "r"(h), "r"(n),
                  "r"(smem(bar)), "h"((uint16_t)0)
               : "memory");
  // A .4d offset above 2^8-1.
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
               "[%6], {%7, %8};"
               :: "r"(smem(dst)), "l"(map), "r"(c), "r"(w), "r"(h), "r"(n),
                  "r"(smem(bar)), "h"((uint16_t)1), "h"((uint16_t)300)
               : "memory");
  // Correct twin.
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
               "[%6], {%7, %8};"
               :: "r"(smem(dst)), "l"(map), "r"(c), "r"(w), "r"(h), "r"(n),
                  "r"(smem(bar)), "h"((uint16_t)1), "h"((uint16_t)255)
               : "memory");
}

__global__ void im2colKernel(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 32];
  __shared__ uint64_t bar;
  im2colLoads(tile, &map, &bar, 0, 0, 0, 0);
}
// The im2col copies of a tiled map: reported once per copy.

void runIm2col(float *ptr) {
  uint64_t dims[4] = {64, 16, 16, 8};
  uint64_t strides[3] = {256, 256 * 16, 256 * 16 * 16};
  int lower[2] = {0, 0};
  int upper[2] = {0, 0};
  uint32_t estrides[4] = {1, 1, 1, 1};
  CUtensorMap map;
  // An im2col map: the modes match.
  cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, ptr, dims,
                          strides, lower, upper, 64, 32, estrides,
                          CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  im2colKernel<<<1, 32>>>(map);
}

void runIm2colOfTiled(float *ptr) {
  CUtensorMap map;
  tiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, ptr, 32);
  im2colKernel<<<1, 32>>>(map);
}

// Every diagnostic of the file, in order (both passes report the same).
// CHECK-MESSAGES: :46:55: warning: cde::cp_async_bulk_tensor_2d_shared_to_global coordinate 0 is -8; a tensor store or reduction starts its box at non-negative coordinates (TMA-STORE-NONNEG) [tma-bulk-copy]
// CHECK-MESSAGES: :46:55: note: clamp the box start to 0 (loads may start out of bounds, stores may not)
// CHECK-MESSAGES: :48:3: warning: cuda::ptx::cp_async_bulk_tensor coordinate 1 is -1; a tensor store or reduction starts its box at non-negative coordinates (TMA-STORE-NONNEG) [tma-bulk-copy]
// CHECK-MESSAGES: :51:3: warning: cde::cp_async_bulk_tensor_2d_shared_to_global: the innermost coordinate is 4, 8 bytes of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, not a multiple of 16 bytes (TMA-STORE-COORD-ALIGN) [tma-bulk-copy]
// CHECK-MESSAGES: :32:31: note: the tensor map is encoded here
// CHECK-MESSAGES: :68:15: note: with 'type' = 9 from this call
// CHECK-MESSAGES: :69:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :51:3: note: start the stored box at a multiple of 8 elements
// CHECK-MESSAGES: :54:34: warning: cp.async.bulk.tensor coordinate 0 is -64; a tensor store or reduction starts its box at non-negative coordinates (TMA-STORE-NONNEG) [tma-bulk-copy]
// CHECK-MESSAGES: :54:34: note: clamp the box start to 0 (loads may start out of bounds, stores may not)
// CHECK-MESSAGES: :79:3: warning: cuda::ptx::cp_reduce_async_bulk_tensor: a tensor .max reduction of a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 map; PTX defines no such reduction (TMA-REDUCE-OP-TYPE) [tma-bulk-copy]
// CHECK-MESSAGES: :32:31: note: the tensor map is encoded here
// CHECK-MESSAGES: :93:15: note: with 'type' = 7 from this call
// CHECK-MESSAGES: :94:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :79:3: note: reduce in an epilogue or through a map of a supported type
// CHECK-MESSAGES: :81:3: warning: cp.reduce.async.bulk.tensor a tensor reduction cannot use .tile::scatter4 (TMA-REDUCE-MODE) [tma-bulk-copy]
// CHECK-MESSAGES: :81:3: warning: cp.reduce.async.bulk.tensor: .tile::scatter4 moves single rows: boxDim[1] must be 1, but the tensor map it reads has boxDim[1] = 32 (TMA-GATHER4) [tma-bulk-copy]
// CHECK-MESSAGES: :32:60: note: the tensor map is encoded here
// CHECK-MESSAGES: :94:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :81:3: note: encode the map with boxDim[1] = 1
// CHECK-MESSAGES: :105:3: warning: cuda::ptx::cp_async_bulk_tensor_tile_gather4: .tile::gather4 moves single rows: boxDim[1] must be 1, but the tensor map it reads has boxDim[1] = 8 (TMA-GATHER4) [tma-bulk-copy]
// CHECK-MESSAGES: :32:60: note: the tensor map is encoded here
// CHECK-MESSAGES: :115:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :105:3: note: encode the map with boxDim[1] = 1
// CHECK-MESSAGES: :123:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the shared-memory buffer has 4-byte elements, but the tensor map's CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 elements are 2 bytes (TMA-SMEM-ELEMTYPE) [tma-bulk-copy]
// CHECK-MESSAGES: :119:33: note: the shared-memory buffer 'asFloat' is declared here
// CHECK-MESSAGES: :32:31: note: the tensor map is encoded here
// CHECK-MESSAGES: :131:15: note: with 'type' = 9 from this call
// CHECK-MESSAGES: :132:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :123:3: note: declare the buffer with the map's element type (or as bytes)
// CHECK-MESSAGES: :142:3: warning: cp.async.bulk.tensor im2colInfo has 1 element, but .4d .im2col takes exactly 2 (one offset per spatial dimension but the outermost) (TMA-IM2COL-INFO) [tma-bulk-copy]
// CHECK-MESSAGES: :142:3: warning: cp.async.bulk.tensor: the copy uses .im2col, but the tensor map it reads was encoded by cuTensorMapEncodeTiled (TMA-MODE-MATCHES-MAP) [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: note: the tensor map is encoded here
// CHECK-MESSAGES: :191:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :142:3: note: encode the map with cuTensorMapEncodeIm2col
// CHECK-MESSAGES: :149:3: warning: cp.async.bulk.tensor im2colInfo offset 1 is 300, outside the range [0, 255] of .4d .im2col (TMA-IM2COL-INFO) [tma-bulk-copy]
// CHECK-MESSAGES: :149:3: warning: cp.async.bulk.tensor: the copy uses .im2col, but the tensor map it reads was encoded by cuTensorMapEncodeTiled (TMA-MODE-MATCHES-MAP) [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: note: the tensor map is encoded here
// CHECK-MESSAGES: :191:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :149:3: note: encode the map with cuTensorMapEncodeIm2col
// CHECK-MESSAGES: :156:3: warning: cp.async.bulk.tensor: the copy uses .im2col, but the tensor map it reads was encoded by cuTensorMapEncodeTiled (TMA-MODE-MATCHES-MAP) [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: note: the tensor map is encoded here
// CHECK-MESSAGES: :191:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :156:3: note: encode the map with cuTensorMapEncodeIm2col

// TMA-STORE-NONNEG, the map side: an im2col store keeps its box inside the
// tensor (lower corners >= 0, upper corners <= 0).
__global__ void im2colStore(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 32];
  asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs."
               "bulk_group [%0, {%1, %2, %3, %4}], [%5];"
               :: "l"(&map), "r"(0), "r"(0), "r"(0), "r"(0), "r"(smem(tile))
               : "memory");
}
// CHECK-MESSAGES: :[[#@LINE-5]]:3: warning: cp.async.bulk.tensor: an im2col store keeps its box inside the tensor, but the tensor map it writes has pixelBoxLowerCorner[0] = -1 (TMA-STORE-NONNEG) [tma-bulk-copy]
// CHECK-MESSAGES: :262:36: note: the tensor map is encoded here
// CHECK-MESSAGES: :271:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :[[#@LINE-8]]:3: note: store through a map whose pixelBoxLowerCorner is at least 0

CUtensorMap nhwc(float *ptr, int lo, int hi) {
  uint64_t dims[4] = {64, 16, 16, 8};
  uint64_t strides[3] = {256, 256 * 16, 256 * 16 * 16};
  int lower[2] = {lo, lo};
  int upper[2] = {hi, hi};
  uint32_t estrides[4] = {1, 1, 1, 1};
  CUtensorMap map;
  cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, ptr, dims,
                          strides, lower, upper, 64, 32, estrides,
                          CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void runIm2colStore(float *ptr) {
  im2colStore<<<1, 32>>>(nhwc(ptr, -1, 1));
  // Inside the tensor: right.
  im2colStore<<<1, 32>>>(nhwc(ptr, 0, 0));
}
