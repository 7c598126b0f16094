// mbarrier operands: an expect-tx byte count above 2^20-1 (MBAR-TX-RANGE)
// and an init count outside [1, 2^20-1] (MBAR-INIT-COUNT). ptxas accepts
// both, even as immediates; the barrier then hangs or completes early.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// fast.cu's helpers.
__device__ static __forceinline__ void init_barrier(uint64_t *bar,
                                                    int thread_count,
                                                    int transaction_count) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
               :: "r"(bar_ptr), "r"(thread_count + transaction_count));
  // The operand is computed here, so the warning stays in the helper.
  // CHECK-NOTES: :[[@LINE-2]]:37: warning: mbarrier.init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE+63]]:29: note: with 'transaction_count' = 0 from this call
  // CHECK-NOTES: :[[@LINE+62]]:26: note: with 'thread_count' = 0 from this call
}

__device__ static __forceinline__ void expect_bytes(uint64_t *bar,
                                                    uint32_t bytes) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               :: "r"(bar_ptr), "r"(bytes));
}

// The same, one level deeper: the count passes through two helpers.
__device__ void expect_tile(uint64_t *bar, uint32_t rows, uint32_t cols) {
  expect_bytes(bar, rows * cols * sizeof(float) * 8);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: mbarrier.arrive.expect_tx txCount is 2097152 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE+23]]:26: note: with 'cols' = 512 from this call
  // CHECK-NOTES: :[[@LINE+22]]:21: note: with 'rows' = 128 from this call
  // CHECK-NOTES: :[[@LINE-10]]:3: note: passed to the txCount of mbarrier.arrive.expect_tx here
  // CHECK-NOTES: :[[@LINE-5]]:21: note: if the count is in bits, the byte count is 262144 bytes
}

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A count of bits instead of bytes (tma-rules.md's example).
__global__ void bitsNotBytes() {
  __shared__ uint64_t bar;
  expect_bytes(&bar, 128 * 256 * sizeof(float) * 8);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: mbarrier.arrive.expect_tx txCount is 1048576 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-23]]:3: note: passed to the txCount of mbarrier.arrive.expect_tx here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: if the count is in bits, the byte count is 131072 bytes
}

// Through two helpers: the value is computed in the inner one, so the
// warning stays at its argument and a note names the outer call.
__global__ void throughTwoHelpers() {
  __shared__ uint64_t bar;
  expect_tile(&bar, 128, 512);
}

// An immediate in the asm text, and the library forms.
__global__ void immediateAndLibrary(block_barrier *cbar) {
  __shared__ uint64_t bar;
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 2000000;"
               :: "r"((uint32_t)__cvta_generic_to_shared(&bar)));
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: mbarrier.expect_tx txCount is 2000000 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: if the count is in bits, the byte count is 250000 bytes
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 1 << 20);
  // CHECK-NOTES: :[[@LINE-1]]:71: warning: cuda::ptx::mbarrier_arrive_expect_tx txCount is 1048576 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:71: note: if the count is in bits, the byte count is 131072 bytes
  cuda::device::barrier_arrive_tx(*cbar, 1, 300 * 4096);
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cuda::device::barrier_arrive_tx txCount is 1228800 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:45: note: if the count is in bits, the byte count is 153600 bytes
  cuda::device::barrier_expect_tx(*cbar, -16);
  // CHECK-NOTES: :[[@LINE-1]]:42: warning: cuda::device::barrier_expect_tx txCount is 4294967280 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
}

// Init counts of zero and above 2^20-1.
__global__ void initCounts() {
  __shared__ uint64_t bars[3];
  init_barrier(&bars[0], 0, 0);
  cuda::ptx::mbarrier_init(&bars[1], 0);
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: cuda::ptx::mbarrier_init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  constexpr unsigned Threads = 1u << 20;
  cuda::ptx::mbarrier_init(&bars[2], Threads);
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: cuda::ptx::mbarrier_init count is 1048576 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-3]]:32: note: count = 1048576 comes from here
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// fast.cu's producer: BK*BN + BK*BM bf16 values per stage (49152 bytes).
template <int BM, int BN, int BK, int QSIZE>
__global__ void fastProducer(int num_blocks_k) {
  __shared__ uint64_t full[QSIZE], empty[QSIZE];
  if (threadIdx.x == 0) {
    for (int i = 0; i < QSIZE; ++i) {
      init_barrier(&full[i], 0, 1);
      init_barrier(&empty[i], 0, 2 * 128);
    }
  }
  int q = 0;
  for (int block_k_iter = 0; block_k_iter < num_blocks_k;
       ++block_k_iter, ++q) {
    if (q == QSIZE)
      q = 0;
    expect_bytes(&full[q], (BK * BN + BK * BM) * sizeof(bf16));
  }
}
template __global__ void fastProducer<128, 256, 64, 4>(int);

// Boundaries: 2^20-1 bytes and arrivals, and one.
__global__ void boundaries(block_barrier *cbar) {
  __shared__ uint64_t bar;
  expect_bytes(&bar, (1u << 20) - 1);
  cuda::ptx::mbarrier_init(&bar, 1);
  cuda::ptx::mbarrier_init(&bar, (1 << 20) - 1);
  cuda::device::barrier_arrive_tx(*cbar, 1, 227 * 1024);
  cuda::device::barrier_expect_tx(*cbar, 0);
  init_barrier(&bar, blockDim.x, 0);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

__global__ void runtimeCounts(uint32_t bytes, int threads) {
  __shared__ uint64_t bar;
  expect_bytes(&bar, bytes * 1024);
  init_barrier(&bar, threads - 1, 0);
  cuda::ptx::mbarrier_init(&bar, threads);
}
