// TMA-SMEM-ALIGN-SWIZZLE (and the other rules that compare a tensor copy's
// shared-memory buffer with its linked map) when the copy sits in a
// helper, fast.cu or ThunderKittens style (`load_async(dst, map, bar)`
// computing the shared address itself): the warning stays at the helper's
// copy (reported once, in the first context that fails), and a note names
// the call in the kernel that passes the buffer, so that the user sees
// which use of which buffer is misaligned. Correct twins (a 1024-byte
// aligned buffer through the same helpers) are silent.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;

// fast.cu's load_async: the helper converts the box address itself.
__device__ static inline void load_async(bf16 *dst, const CUtensorMap *map,
                                         uint64_t *bar, int x, int y) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "r"(x), "r"(y)
               : "memory");
}

// A wrapper over it (ThunderKittens' two load_async overloads): the note
// names the kernel's call, not the wrapper's.
__device__ void load_tile(bf16 *dst, const CUtensorMap *map, uint64_t *bar) {
  load_async(dst, map, bar, 0, 0);
}

CUtensorMap swizzled128(bf16 *ptr) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {2048};
  uint32_t box[2] = {64, 64};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

// 128-byte aligned: the 128B swizzle pattern repeats every 1024 bytes.
__global__ void wrapped(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 sB[64 * 64];
  __shared__ uint64_t bar;
  load_tile(sB, &map, &bar);
}

// Correct twins: silent.
__global__ void directOk(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 sA[64 * 64];
  __shared__ uint64_t bar;
  load_async(sA, &map, &bar, 0, 0);
}
__global__ void wrappedOk(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 sB[64 * 64];
  __shared__ uint64_t bar;
  load_tile(sB, &map, &bar);
}

void run(bf16 *a) {
  CUtensorMap map = swizzled128(a);
  wrapped<<<1, 128>>>(map);
  directOk<<<1, 128>>>(map);
  wrappedOk<<<1, 128>>>(map);
}

// Every diagnostic and note (line numbers of the code above).
// CHECK-NOTES: :25:3: warning: cp.async.bulk.tensor: shared-memory address is guaranteed only 128-byte alignment, not the 1024 bytes after which CU_TENSOR_MAP_SWIZZLE_128B repeats (TMA-SMEM-ALIGN-SWIZZLE) [tma-bulk-copy]
// CHECK-NOTES: :53:32: note: the shared-memory buffer 'sB' is declared here
// CHECK-NOTES: :55:3: note: 'sB' is used by cp.async.bulk.tensor through this call of 'load_tile'
// CHECK-NOTES: :45:26: note: the tensor map is encoded here
// CHECK-NOTES: :72:3: note: and passed to the kernel by this launch
// CHECK-NOTES: :25:3: note: declare the buffer alignas(1024) and keep the offset into it a multiple of 1024 bytes
