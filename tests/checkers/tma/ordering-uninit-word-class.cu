// MBAR-UNINIT on a `__shared__` object of a class that only wraps one
// mbarrier word, ThunderKittens' `semaphore` (`struct semaphore { private:
// uint64_t value; };`), used through its group helpers (`init_semaphore`
// under `laneid() == 0`, `expect_bytes`, `wait`). Such a class is one
// barrier, as a class named for one is; a class of several members stays
// silent. The wrong kernel drops the init; its twin keeps it.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

struct semaphore {
private:
  uint64_t value;
};
struct twoWords {
  uint64_t value;
  uint64_t other;
};

__device__ inline int laneid() { return threadIdx.x & 31; }

template <typename Bar>
__device__ inline void init_semaphore(Bar &bar, int threads, int tx = 0) {
  if (laneid() == 0) {
    void const *const ptr = &bar;
    uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(a),
                 "r"(threads + tx));
  }
}
template <typename Bar> __device__ inline void expect_bytes(Bar &bar, int n) {
  if (laneid() == 0) {
    void const *const ptr = &bar;
    uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                     a),
                 "r"(n));
  }
}
template <typename Bar> __device__ inline void wait(Bar &bar, int phase) {
  void const *const ptr = &bar;
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n" ::"r"(a),
               "r"(phase));
}

__global__ void __launch_bounds__(128) initDropped() {
  __shared__ semaphore bar;
  if (threadIdx.x / 32 == 0)
    expect_bytes(bar, 4096);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
  __syncthreads();
  wait(bar, 0);
}

__global__ void __launch_bounds__(128) initKept() {
  __shared__ semaphore bar;
  if (threadIdx.x / 32 == 0) {
    init_semaphore(bar, 0, 1);
    expect_bytes(bar, 4096);
  }
  __syncthreads();
  wait(bar, 0);
}

// Two words: a struct of several members, not followed (silent).
__global__ void __launch_bounds__(128) twoWordsDropped() {
  __shared__ twoWords bar;
  if (threadIdx.x / 32 == 0)
    expect_bytes(bar.value, 4096);
  __syncthreads();
  wait(bar.value, 0);
}
