// Seed: "Transfer is not a multiple of 16 bytes", in its CUDA form: a 1-D
// bulk copy (cp.async.bulk and its wrappers) moves whole 16-byte granules,
// so its size must be a non-zero multiple of 16 bytes (BULK-SIZE-MUL16).
// ptxas rejects only an immediate size; through a register operand or a
// library wrapper the copy is undefined behaviour at run time.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

namespace cde = cuda::device::experimental;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// An inline-PTX helper: the size is the caller's.
__device__ void bulk_g2s(void *dst, const void *src, uint32_t bytes,
                         uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];"
               :: "r"(smem_u32(dst)), "l"(src), "r"(bytes), "r"(smem_u32(bar))
               : "memory");
}

__device__ void bulk_s2g(void *dst, const void *src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
               :: "l"(dst), "r"(smem_u32(src)), "r"(bytes) : "memory");
}

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// tma-rules.md's example: three floats.
__global__ void threeFloats(float *g) {
  __shared__ alignas(16) float s[4];
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                           g, s, 3 * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: cuda::ptx::cp_async_bulk size is 12 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:34: note: pad the transfer to 16 bytes
}

// A row of 5 floats through the asm helper: reported at the caller, with
// the helper's copy in a note.
__global__ void rowOfFive(const float *g) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) float row[8];
  constexpr int Cols = 5;
  bulk_g2s(row, g, Cols * sizeof(float), &bar);
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: cp.async.bulk size is 20 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-32]]:3: note: passed to the size of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: pad the transfer to 32 bytes
}

// The size from a local: the note points at its initialiser.
__global__ void fromLocal(float *g) {
  __shared__ alignas(16) float tile[64];
  uint32_t bytes = 36 * sizeof(float) + 2;
  bulk_s2g(g, tile, bytes);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: cp.async.bulk size is 146 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: size = 146 comes from here
  // CHECK-NOTES: :[[@LINE-36]]:3: note: passed to the size of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-4]]:21: note: pad the transfer to 160 bytes
}

// A size of zero, and an immediate in the asm text.
__global__ void zeroAndImmediate(const float *g) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) float s[16];
  bulk_g2s(s, g, 0, &bar);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: cp.async.bulk size is 0 bytes; a bulk copy moves a non-zero multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-53]]:3: note: passed to the size of cp.async.bulk here
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], 40;" :: "l"(g));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cp.async.bulk.prefetch size is 40 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: pad the transfer to 48 bytes
}

// The cde wrappers; a template argument gives the element count.
template <int N>
__device__ void loadVector(float *s, const float *g, block_barrier &bar) {
  cde::cp_async_bulk_global_to_shared(s, g, N * sizeof(float), bar);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cde::cp_async_bulk_global_to_shared size is 28 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:45: note: pad the transfer to 32 bytes
  // CHECK-NOTES: :[[@LINE+6]]:3: note: in instantiation of 'loadVector<7>' requested here
}

__global__ void cdeForms(float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ block_barrier bar;
  loadVector<7>(s, g, bar);
  cde::cp_async_bulk_shared_to_global(g, s, 100);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cde::cp_async_bulk_shared_to_global size is 100 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:45: note: pad the transfer to 112 bytes
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

__global__ void wholeGranules(float *g) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier cbar;
  bulk_g2s(s, g, 256 * sizeof(float), &bar);
  bulk_s2g(g, s, 16);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           s, g, 4 * sizeof(float), &bar);
  cde::cp_async_bulk_shared_to_global(g, s, 64 * sizeof(float));
  loadVector<8>(s, g, cbar);
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], 4096;" :: "l"(g));
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// The size is a run-time value, or comes from a caller outside this file.
__global__ void runtimeSize(float *g, uint32_t n) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) float s[256];
  bulk_g2s(s, g, n * sizeof(float), &bar);
  uint32_t bytes = 20;
  if (n)
    bytes = 32;
  bulk_s2g(g, s, bytes);
}

__device__ void helperWithoutCaller(float *g, float *s, uint32_t n) {
  cde::cp_async_bulk_shared_to_global(g, s, n);
}
