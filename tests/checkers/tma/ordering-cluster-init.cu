// MBAR-INIT-VISIBLE with a split cluster barrier: thread 0 initialises the
// barriers, and a consumer role (threads the init does not run in) arrives
// on them after `barrier.cluster.arrive; barrier.cluster.wait;`. A wait
// that no arrive precedes synchronises nothing: the consumers may arrive on
// a barrier that is not initialised yet. The twin arrives first; a kernel
// whose only later users are the initialising thread stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void arriveOn(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

constexpr int S = 4;

// The arrive half of the cluster barrier is missing.
__global__ void __launch_bounds__(256) clusterWaitOnly(float *out, int nk) {
  __shared__ uint64_t empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      initBarrier(&empty[s], 128);
  }
  asm volatile("barrier.cluster.wait;\n" : :);
  if (threadIdx.x >= 128) {
    for (int s = 0; s < S; ++s)
      arriveOn(&empty[s]);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'empty' is used by thread 128, which runs no init of it, here after its mbarrier.init at line [[#@LINE-6]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:7: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :17:3: note: issued here
    // CHECK-NOTES: :[[@LINE-7]]:3: note: this barrier.cluster.wait has no barrier.cluster.arrive before it: it synchronises nothing
  } else if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k)
      waitBarrier(&empty[k % S], (k / S) & 1);
  }
  out[threadIdx.x] = 0.f;
}

__global__ void __launch_bounds__(256) clusterArriveWait(float *out, int nk) {
  __shared__ uint64_t empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      initBarrier(&empty[s], 128);
  }
  asm volatile("barrier.cluster.arrive;\n" : :);
  asm volatile("barrier.cluster.wait;\n" : :);
  if (threadIdx.x >= 128) {
    for (int s = 0; s < S; ++s)
      arriveOn(&empty[s]);
  } else if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k)
      waitBarrier(&empty[k % S], (k / S) & 1);
  }
  out[threadIdx.x] = 0.f;
}

// --- Silent ------------------------------------------------------------------

// Only the initialising thread uses the barriers after the lone wait.
__global__ void __launch_bounds__(256) clusterWaitInitThreadOnly(float *out,
                                                                 int nk) {
  __shared__ uint64_t empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      initBarrier(&empty[s], 1);
  }
  asm volatile("barrier.cluster.wait;\n" : :);
  if (threadIdx.x == 0) {
    for (int k = 0; k < nk; ++k) {
      arriveOn(&empty[k % S]);
      waitBarrier(&empty[k % S], (k / S) & 1);
    }
  }
  out[threadIdx.x] = 0.f;
}
