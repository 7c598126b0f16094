// TMA-DIM-EQ-RANK and TMA-MODE-MATCHES-MAP: a tensor copy against the map
// that its kernel's launch passes, followed back to the host encode call
// (locals, helpers, device copies made with cudaMemcpy, launch helpers).
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__device__ size_t __cvta_generic_to_shared(const void *);

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

__global__ void tile2d(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 1 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  // CHECK-MESSAGES: :22:64: note: the tensor map is encoded here
  // CHECK-MESSAGES: :258:21: note: with 'rank' = 1 from this call
  // CHECK-MESSAGES: :46:43: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: use .1d with 1 coordinate
  // CHECK-MESSAGES: :[[@LINE-6]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  // CHECK-MESSAGES: :22:64: note: the tensor map is encoded here
  // CHECK-MESSAGES: :51:23: note: with 'rank' = 3 from this call
  // CHECK-MESSAGES: :46:43: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: use .3d with 3 coordinates
}

// A launch helper taking the map by const reference.
void launchTile(const CUtensorMap &map) { tile2d<<<1, 32>>>(map); }

void twoLaunches(float *ptr) {
  CUtensorMap rank2, rank3;
  encode(&rank2, ptr, 2);
  encode(&rank3, ptr, 3);
  // Rank 2 is right; rank 3 is reported once, at the copy.
  tile2d<<<1, 32>>>(rank2);
  launchTile(rank2);
  launchTile(rank3);
}

// Two encodes under a condition: which one reaches the launch is unknown.
void eitherMap(float *ptr, bool wide) {
  CUtensorMap map;
  if (wide)
    encode(&map, ptr, 3);
  else
    encode(&map, ptr, 2);
  tile2d<<<1, 32>>>(map);
}

// A map in global memory (cudaMemcpy of a host map), read by inline PTX in a
// device helper.
__device__ void load3d(float *dst, const CUtensorMap *map, uint64_t *bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];"
      :: "r"((uint32_t)__cvta_generic_to_shared(dst)),
         "l"(reinterpret_cast<uint64_t>(map)), "r"(0), "r"(0), "r"(0),
         "r"((uint32_t)__cvta_generic_to_shared(bar))
      : "memory");
  // CHECK-MESSAGES: :[[@LINE-7]]:3: warning: cp.async.bulk.tensor: the copy is .3d, but the tensor map it reads has tensorRank 2 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  // CHECK-MESSAGES: :22:64: note: the tensor map is encoded here
  // CHECK-MESSAGES: :95:22: note: with 'rank' = 2 from this call
  // CHECK-MESSAGES: :102:34: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: use .2d with 2 coordinates
}

__global__ void fromGlobal(const CUtensorMap *map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  load3d(tile, map, &bar);
}

// Error-checking macros put the calls in do { } while (0): still straight.
#define CHECK(call) do { if ((call) != cudaSuccess) __builtin_trap(); } while (0)
CUtensorMap *deviceMap(float *ptr) {
  CUtensorMap host;
  encode(&host, ptr, 2);
  CUtensorMap *dev;
  CHECK(cudaMalloc((void **)&dev, sizeof(CUtensorMap)));
  CHECK(cudaMemcpy(dev, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice));
  return dev;
}

void runFromGlobal(float *ptr) { fromGlobal<<<1, 32>>>(deviceMap(ptr)); }

// An im2col map read by a tile-mode copy.
__global__ void tileOfIm2col(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];"
      :: "r"((uint32_t)__cvta_generic_to_shared(tile)), "l"(&map), "r"(0),
         "r"(0), "r"(0), "r"((uint32_t)__cvta_generic_to_shared(&bar))
      : "memory");
  // CHECK-MESSAGES: :[[@LINE-6]]:3: warning: cp.async.bulk.tensor: the copy uses .tile, but the tensor map it reads was encoded by cuTensorMapEncodeIm2col (TMA-MODE-MATCHES-MAP) [tma-bulk-copy]
  // CHECK-MESSAGES: :127:3: note: the tensor map is encoded here
  // CHECK-MESSAGES: :133:3: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: encode the map with cuTensorMapEncodeTiled
}

void runIm2col(float *ptr) {
  uint64_t dims[3] = {64, 32, 8};
  uint64_t strides[2] = {256, 256 * 32};
  int lower[1] = {0};
  int upper[1] = {0};
  uint32_t estrides[3] = {1, 1, 1};
  CUtensorMap map;
  cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, ptr, dims,
                          strides, lower, upper, 64, 32, estrides,
                          CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  tileOfIm2col<<<1, 32>>>(map);
}

// A __constant__ map set with cudaMemcpyToSymbol; a kernel launched with
// cudaLaunchKernelEx.
__constant__ CUtensorMap c_map;

__global__ void fromConstant(int unused) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &c_map, 0, 0, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  // CHECK-MESSAGES: :22:64: note: the tensor map is encoded here
  // CHECK-MESSAGES: :164:22: note: with 'rank' = 3 from this call
  // CHECK-MESSAGES: :165:3: note: and copied to the device here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: use .3d with 3 coordinates
}

__global__ void byLaunchEx(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, n, bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
  // CHECK-MESSAGES: :22:64: note: the tensor map is encoded here
  // CHECK-MESSAGES: :170:21: note: with 'rank' = 3 from this call
  // CHECK-MESSAGES: :172:3: note: and passed to the kernel by this launch
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: use .3d with 3 coordinates
}

void setConstant(float *ptr) {
  CUtensorMap host;
  encode(&host, ptr, 3);
  cudaMemcpyToSymbol(c_map, &host, sizeof(host));
}

void launchEx(float *ptr) {
  CUtensorMap map;
  encode(&map, ptr, 3);
  cudaLaunchConfig_t config = {};
  cudaLaunchKernelEx(&config, byLaunchEx, map, 4);
}

// TMA-SMEM-ALIGN-SWIZZLE and TMA-SMEM-FOOTPRINT: the shared-memory box
// against the map's swizzle and box size.
template <CUtensorMapSwizzle Swizzle, uint32_t Rows>
CUtensorMap swizzled(float *ptr) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {4096};
  uint32_t box[2] = {32, Rows};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         Swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

__global__ void boxes(const __grid_constant__ CUtensorMap map) {
  // 128-byte aligned, 32 x 32 floats: too little alignment for 128B
  // swizzle, and room for 32 rows only.
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, 0, bar);
}
// CHECK-MESSAGES: :196:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: box of 8192 bytes does not fit in the 4096 bytes from the shared-memory address to the end of its buffer (TMA-SMEM-FOOTPRINT) [tma-bulk-copy]
// CHECK-MESSAGES: :194:33: note: the shared-memory buffer 'tile' is declared here
// CHECK-MESSAGES: :185:35: note: the tensor map is encoded here
// CHECK-MESSAGES: :215:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :196:3: note: enlarge the buffer by 4096 bytes
// CHECK-MESSAGES: :196:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: shared-memory address is guaranteed only 128-byte alignment, not the 1024 bytes after which CU_TENSOR_MAP_SWIZZLE_128B repeats (TMA-SMEM-ALIGN-SWIZZLE) [tma-bulk-copy]
// CHECK-MESSAGES: :194:33: note: the shared-memory buffer 'tile' is declared here
// CHECK-MESSAGES: :186:26: note: the tensor map is encoded here
// CHECK-MESSAGES: :213:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :196:3: note: declare the buffer alignas(1024) and keep the offset into it a multiple of 1024 bytes

void runBoxes(float *ptr) {
  // Fits and needs only 128-byte alignment: silent.
  boxes<<<1, 32>>>(swizzled<CU_TENSOR_MAP_SWIZZLE_NONE, 32>(ptr));
  // The box fits, but 128B swizzle wants 1024-byte alignment.
  boxes<<<1, 32>>>(swizzled<CU_TENSOR_MAP_SWIZZLE_128B, 32>(ptr));
  // 64 rows of 128 bytes do not fit in 4096 bytes.
  boxes<<<1, 32>>>(swizzled<CU_TENSOR_MAP_SWIZZLE_NONE, 64>(ptr));
}

// TMA-PACKED-COORD0 and TMA-PACKED-DIRECTION: a 16U4_ALIGN16B map.
void encodePacked(CUtensorMap *map, void *ptr) {
  uint64_t dims[2] = {1024, 64};
  uint64_t strides[1] = {512};
  uint32_t box[2] = {128, 8};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 2, ptr,
                         dims, strides, box, estrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

__global__ void packed(const __grid_constant__ CUtensorMap map, int k) {
  __shared__ alignas(128) char tile[8 * 128];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 128 * k, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 64, 0, bar);
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
}
// CHECK-MESSAGES: :236:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the first coordinate is 64, not a multiple of 128 as a CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B map requires (TMA-PACKED-COORD0) [tma-bulk-copy]
// CHECK-MESSAGES: :224:31: note: the tensor map is encoded here
// CHECK-MESSAGES: :251:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :236:3: note: start the box at a multiple of 128 elements
// CHECK-MESSAGES: :237:3: warning: cde::cp_async_bulk_tensor_2d_shared_to_global: a tensor store of a CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B map; that packed type is load-only (TMA-PACKED-DIRECTION) [tma-bulk-copy]
// CHECK-MESSAGES: :224:31: note: the tensor map is encoded here
// CHECK-MESSAGES: :251:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :237:3: note: store through a map of CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B or an unpacked type

void runPacked(void *ptr) {
  CUtensorMap map;
  encodePacked(&map, ptr);
  packed<<<1, 32>>>(map, 2);
}

// cuTensorMapReplaceAddress keeps the encoded shape: the rank-1 encode
// still describes the map.
void replaced(float *ptr, float *other) {
  CUtensorMap map;
  encode(&map, ptr, 1);
  cuTensorMapReplaceAddress(&map, other);
  launchTile(map);
}
