// Feasible contexts only (tma-rules.md §11.C), device side: a helper's call
// context under which a guard leaves before the op (an early return, a
// __trap(), a guard in the calling kernel) reports nothing there.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __trap();

// A hand-written copy helper that skips empty and ragged tails.
__device__ void copyTail(void *dst, const void *src, uint32_t bytes,
                         uint64_t *bar) {
  if (bytes == 0 || bytes % 16 != 0)
    return;
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(d), "l"(src), "r"(bytes), "r"(b) : "memory");
}

// No guard: the ragged context reports.
__device__ void copyUnguarded(void *dst, const void *src, uint32_t bytes,
                              uint64_t *bar) {
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(d), "l"(src), "r"(bytes), "r"(b) : "memory");
}

// __trap() stops the thread as a return does.
__device__ void copyOrTrap(void *dst, const void *src, uint32_t bytes,
                           uint64_t *bar) {
  if (bytes % 16 != 0)
    __trap();
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(d), "l"(src), "r"(bytes), "r"(b) : "memory");
}

__global__ void tails(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  copyTail(buf, src, 1024, &bar);
  copyTail(buf, src, 1000, &bar); // the helper returns first: silent
  copyTail(buf, src, 0, &bar);    // silent
  copyOrTrap(buf, src, 1000, &bar); // traps first: silent
  copyOrTrap(buf, src, 1024, &bar);
  copyUnguarded(buf, src, 1000, &bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: cp.async.bulk size is 1000 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
}

// A guard in the kernel: the helper's call never runs with 1000 bytes.
template <uint32_t Bytes>
__global__ void guardedKernel(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  if (Bytes % 16 != 0)
    return;
  copyUnguarded(buf, src, Bytes, &bar);
}

template __global__ void guardedKernel<1000>(const char *);
template __global__ void guardedKernel<512>(const char *);
