// Shared-memory addresses of bulk and tensor copies: a 1-D bulk copy needs a
// 16-byte aligned address (BULK-ADDR-ALIGN16), a tensor copy's box a
// 128-byte aligned one (TMA-SMEM-ALIGN-128). The alignment is what the
// declaration guarantees plus the constant offset into the buffer; extern
// pools prove only their element type's alignment (at most 16 bytes), and
// only a misaligning offset is reported for them.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;

// fast.cu's tensor-load helper: the box address is a parameter.
__device__ static inline void load_async(bf16 *dst, void const *src_tma_map,
                                         uint64_t *bar, int x, int y) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(src_tma_map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "r"(x), "r"(y)
               : "memory");
}

// A 1-D bulk copy helper with an asm memory-operand offset.
__device__ static inline void bulk_plus16(void *dst, const void *src,
                                          uint64_t *bar) {
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0+8], [%1], 64, [%2];"
               :: "r"(d), "l"(src), "r"(b) : "memory");
}

//===----------------------------------------------------------------------===//
// BULK-ADDR-ALIGN16
//===----------------------------------------------------------------------===//

// tma-rules.md's example: one float past an aligned start.
__global__ void bulkOneFloatIn(const float *g) {
  __shared__ alignas(16) float s[100];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(s + 1, g, 64, bar);
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 4-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:32: note: 's' starts 16-byte aligned (declared); the address is 4 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:39: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
}

// A 2-D buffer: row 1 of 6 floats starts 24 bytes in.
__global__ void bulkRow(const float *g) {
  __shared__ alignas(128) float rows[4][6];
  __shared__ uint64_t bar;
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &rows[1][0], g,
                     16, &bar);
  // CHECK-NOTES: :[[@LINE-2]]:61: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-5]]:33: note: 'rows' starts 128-byte aligned (declared); the address is 24 bytes into it
  // CHECK-NOTES: :[[@LINE-4]]:61: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
}

// Bytes past a 1024-byte aligned start, and a store back from it.
__global__ void bulkBytes(float *g) {
  __shared__ alignas(1024) float s[256];
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, g,
                     reinterpret_cast<char *>(s) + 8, 64);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:34: note: 's' starts 1024-byte aligned (declared); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:22: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
}

// Dynamic shared memory of 16-byte elements: the start is 16-byte aligned,
// so 8 bytes in is not.
struct alignas(16) Vec4 {
  int x, y, z, w;
};
__global__ void bulkExtern(const float *g) {
  extern __shared__ Vec4 pool[];
  __shared__ block_barrier bar;
  char *bytes = reinterpret_cast<char *>(pool);
  cde::cp_async_bulk_global_to_shared(bytes + 8, g, 64, bar);
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-5]]:26: note: 'pool' is dynamic shared memory, taken as 16-byte aligned at its start (its type's alignment, and dynamic shared memory starts 16-byte aligned; only offsets that break that alignment are reported); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:39: note: keep the offset into it a multiple of 16 bytes
}

// The offset is a template constant.
template <int Skip> __global__ void bulkTemplate(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(s + Skip, g, 64, bar);
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:32: note: 's' starts 16-byte aligned (declared); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:39: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
  // CHECK-NOTES: :[[@LINE+2]]:26: note: in instantiation of 'bulkTemplate<2>' requested here
}
template __global__ void bulkTemplate<2>(const float *);
template __global__ void bulkTemplate<4>(const float *);

// The asm adds 8 bytes to an aligned buffer.
__global__ void bulkAsmOffset(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t bar;
  bulk_plus16(s, g, &bar);
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: cp.async.bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:32: note: 's' starts 16-byte aligned (declared); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-75]]:3: note: passed to the shared-memory address of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-4]]:15: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
}

// No alignas: a float array is only guaranteed 4-byte alignment.
__global__ void bulkNatural(const float *g) {
  __shared__ float s[64];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(s, g, 64, bar);
  // CHECK-NOTES: :[[@LINE-1]]:39: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 4-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 's' starts 4-byte aligned (its type's alignment; no alignas); the address is 0 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:39: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
}

//===----------------------------------------------------------------------===//
// TMA-SMEM-ALIGN-128
//===----------------------------------------------------------------------===//

// tma-rules.md's example: alignas(16) is not enough for a box.
__global__ void tensorAlign16(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(16) bf16 a[64 * 64];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(a, &map, 0, 0, bar);
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: cde::cp_async_bulk_tensor_2d_global_to_shared shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:31: note: 'a' starts 16-byte aligned (declared); the address is 0 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:49: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
}

// A 64-byte slot in a 1024-byte aligned buffer (emmy PR #176).
__global__ void tensorSlot(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 a[4 * 64 * 64];
  __shared__ uint64_t bar;
  load_async(&a[32], &map, &bar, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:33: note: 'a' starts 1024-byte aligned (declared); the address is 64 bytes into it
  // CHECK-NOTES: :[[@LINE-121]]:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
}

// A stage index from the call site, through a helper.
__device__ void loadStage(bf16 *base, int stage, const CUtensorMap *map,
                          uint64_t *bar) {
  load_async(base + stage * 96, map, bar, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE+5]]:32: note: 'a' starts 128-byte aligned (declared); the address is 192 bytes into it
  // CHECK-NOTES: :[[@LINE-131]]:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
}
__global__ void tensorStage(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 a[4 * 96];
  __shared__ uint64_t bar;
  loadStage(a, 1, &map, &bar);
}

// A helper returns the stage's address; the stage size is 40 elements.
template <int StageElems>
__device__ bf16 *stagePtr(bf16 *base, int stage) {
  return base + stage * StageElems;
}
__global__ void tensorHelperReturn(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 a[4 * 64];
  __shared__ uint64_t bar;
  load_async(stagePtr<40>(a, 1), &map, &bar, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:32: note: 'a' starts 128-byte aligned (declared); the address is 80 bytes into it
  // CHECK-NOTES: :[[@LINE-151]]:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
  load_async(stagePtr<64>(a, 1), &map, &bar, 0, 0);
}

// A field of a shared struct: the box 16 bytes after a barrier.
struct Smem {
  uint64_t bar[2];
  bf16 tile[64 * 64];
};
__global__ void tensorField(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) Smem s;
  load_async(s.tile, &map, &s.bar[0], 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:32: note: 's' starts 128-byte aligned (declared); the address is 16 bytes into it
  // CHECK-NOTES: :[[@LINE-166]]:3: note: passed to the shared-memory address of cp.async.bulk.tensor here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
}

// A TMA store from an unaligned slot.
__global__ void tensorStore(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 a[2 * 64 * 64];
  cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, a + 32);
  // CHECK-NOTES: :[[@LINE-1]]:61: warning: cde::cp_async_bulk_tensor_2d_shared_to_global shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:32: note: 'a' starts 128-byte aligned (declared); the address is 64 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:61: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
}

//===----------------------------------------------------------------------===//
// Correct code: silent
//===----------------------------------------------------------------------===//

__global__ void goodBulk(const float *g) {
  __shared__ alignas(16) float s[100];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(s + 4, g, 64, bar);
  cde::cp_async_bulk_global_to_shared(&s[8], g, 64, bar);
}

// A 16-byte element type needs no alignas.
__global__ void goodBulkNatural(const float *g) {
  __shared__ Vec4 s[16];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_global_to_shared(s + 1, g, 64, bar);
}

__global__ void goodTensor(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 a[4][64 * 64];
  __shared__ uint64_t bar;
  for (int stage = 0; stage < 4; ++stage)
    load_async(a[stage], &map, &bar, 0, 0);
  load_async(&a[1][0], &map, &bar, 0, 0);
  load_async(&a[0][64], &map, &bar, 0, 0);
}

__device__ void goodStage(bf16 *base, int stage, const CUtensorMap *map,
                          uint64_t *bar) {
  load_async(base + stage * 64 * 64, map, bar, 0, 0);
}
__global__ void goodStages(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) bf16 a[4 * 64 * 64];
  __shared__ uint64_t bar;
  goodStage(a, 1, &map, &bar);
  goodStage(a, 3, &map, &bar);
}

// An extern pool with __align__ and an aligned offset: the start may be
// only 16-byte aligned, but nothing proves it: silent.
__global__ void goodExtern(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ uint64_t bar;
  load_async(reinterpret_cast<bf16 *>(smem + 1024), &map, &bar, 0, 0);
  load_async(reinterpret_cast<bf16 *>(smem), &map, &bar, 0, 0);
}

// The CUTLASS/fast.cu style: the struct lives in an extern pool.
struct Storage {
  alignas(1024) bf16 A[64 * 64];
  alignas(1024) bf16 B[64 * 64];
  uint64_t bar;
};
__global__ void goodExternStruct(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  load_async(s.A, &map, &s.bar, 0, 0);
  load_async(&s.B[0], &map, &s.bar, 0, 0);
}

// Unknown offsets say nothing.
__global__ void goodUnknown(const __grid_constant__ CUtensorMap map,
                            const float *g, int k) {
  __shared__ alignas(128) bf16 a[4 * 64 * 64];
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t bar;
  load_async(a + k, &map, &bar, 0, 0);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s + threadIdx.x,
                     g, 16, &bar);
}
