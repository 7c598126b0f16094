// TMA-SMEM-ALIGN-128 on a tensor copy whose linked map swizzles 128B
// (issue 26 item 2): the suggestion states the final requirement at once,
// alignas(1024) (the 128B swizzle's repeat), not alignas(128), after which
// TMA-SMEM-ALIGN-SWIZZLE would still fail. With a 32B-swizzled map, whose
// repeat is 256 bytes, the suggestion says 256; without swizzle, 128.
// Correct twins (buffers at the repeat) are silent.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;

__device__ static inline void load(bf16 *dst, const CUtensorMap *map,
                                   uint64_t *bar) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "r"(0), "r"(0)
               : "memory");
}

CUtensorMap encode(bf16 *ptr, CUtensorMapSwizzle swizzle) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {2048};
  uint32_t box[2] = {16, 16};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

// 16-byte aligned under a 128B-swizzled map: the box needs 1024.
__global__ void swizzle128(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(16) bf16 sA[16 * 16];
  __shared__ uint64_t bar;
  load(sA, &map, &bar);
}

// 16-byte aligned under a 32B-swizzled map: the box needs 256.
__global__ void swizzle32(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(16) bf16 sB[16 * 16];
  __shared__ uint64_t bar;
  load(sB, &map, &bar);
}

// 16-byte aligned, no swizzle: the box needs 128.
__global__ void noSwizzle(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(16) bf16 sC[16 * 16];
  __shared__ uint64_t bar;
  load(sC, &map, &bar);
}

// Correct twins: each buffer at its map's repeat.
__global__ void swizzle128Ok(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 sD[16 * 16];
  __shared__ uint64_t bar;
  load(sD, &map, &bar);
}
__global__ void swizzle32Ok(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(256) bf16 sE[16 * 16];
  __shared__ uint64_t bar;
  load(sE, &map, &bar);
}
__global__ void noSwizzleOk(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 sF[16 * 16];
  __shared__ uint64_t bar;
  load(sF, &map, &bar);
}

void run(bf16 *a) {
  CUtensorMap m128 = encode(a, CU_TENSOR_MAP_SWIZZLE_128B);
  CUtensorMap m32 = encode(a, CU_TENSOR_MAP_SWIZZLE_32B);
  CUtensorMap none = encode(a, CU_TENSOR_MAP_SWIZZLE_NONE);
  swizzle128<<<1, 128>>>(m128);
  swizzle32<<<1, 128>>>(m32);
  noSwizzle<<<1, 128>>>(none);
  swizzle128Ok<<<1, 128>>>(m128);
  swizzle32Ok<<<1, 128>>>(m32);
  noSwizzleOk<<<1, 128>>>(none);
}

// Every diagnostic and note (line numbers of the code above).
// CHECK-NOTES: :45:8: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
// CHECK-NOTES: :43:31: note: 'sA' starts 16-byte aligned (declared); the address is 0 bytes into it
// CHECK-NOTES: :22:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
// CHECK-NOTES: :45:8: note: declare the buffer alignas(1024) and keep the offset into it a multiple of 1024 bytes, after which CU_TENSOR_MAP_SWIZZLE_128B repeats
// CHECK-NOTES: :52:8: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
// CHECK-NOTES: :50:31: note: 'sB' starts 16-byte aligned (declared); the address is 0 bytes into it
// CHECK-NOTES: :22:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
// CHECK-NOTES: :52:8: note: declare the buffer alignas(256) and keep the offset into it a multiple of 256 bytes, after which CU_TENSOR_MAP_SWIZZLE_32B repeats
// CHECK-NOTES: :59:8: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
// CHECK-NOTES: :57:31: note: 'sC' starts 16-byte aligned (declared); the address is 0 bytes into it
// CHECK-NOTES: :22:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
// CHECK-NOTES: :59:8: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
