// MBAR-INIT-VISIBLE, MBAR-REINIT-INVAL and MBAR-UNINIT over the kernel
// model: a barrier initialised by one thread is used by the others only
// after a thread barrier; it is not initialised again in the loop that uses
// it; and it is initialised at all. Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx

namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// --- MBAR-INIT-VISIBLE ---------------------------------------------------------

// cuda::ptx: thread 0 initialises, every thread waits, no __syncthreads().
__global__ void initNoSync(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-8]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-9]]:5: note: initialised here, by the threads of this branch only
    // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
}

__global__ void initSynced(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
}

// Inline PTX init and a wait in a __device__ helper: the warning is at the
// helper's call.
__global__ void asmInitNoSync(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr),
                 "r"(1));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  waitParity(&bar, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-5]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: initialised here, by the threads of this branch only
  // CHECK-FIXES: {{^}}  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));{{$}}
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitParity(&bar, 0);{{$}}
}

__global__ void asmInitBarSync(const char *src) {
  __shared__ uint64_t bar;
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr),
                 "r"(1));
  asm volatile("bar.sync 0;" ::: "memory");
  waitParity(&bar, 0);
}

// Silent: the same thread uses it (guarded again), or threads left early.
__global__ void sameThread(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0)
    return;
  if (threadIdx.x == 0)
    ptx::mbarrier_init(&bar, 1);
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, &bar, 1024);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                     &bar);
  waitParity(&bar, 0);
}

// --- MBAR-REINIT-INVAL ---------------------------------------------------------

__global__ void reinitInLoop(const char *src, int iters) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_init(&bar, 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: mbarrier.init of 'bar' inside a loop that uses it: the next pass re-initialises a live barrier without mbarrier.inval (MBAR-REINIT-INVAL) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+5]]:7: note: used here in the same loop
      ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, 1024);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + k * 1024, 1024, &bar);
    }
    waitParity(&bar, 0);
    __syncthreads();
  }
}

// The twin: initialised once, the parity tracks the phase; and a ring of
// barriers initialised in a loop (a different barrier each pass).
__global__ void initOnce(const char *src, int iters) {
  __shared__ alignas(16) char buf[4][1024];
  __shared__ uint64_t full[4];
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; ++s)
      ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  for (int k = 0; k < iters; ++k) {
    int s = k % 4;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], 1024);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[s],
                         src + k * 1024, 1024, &full[s]);
    }
    waitParity(&full[s], (k / 4) & 1);
    __syncthreads();
  }
}

// --- MBAR-UNINIT ---------------------------------------------------------------

// An arrive.expect_tx written where mbarrier.init was meant.
__global__ void expectWhereInitMeant(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1);
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
}

// Silent: the barrier goes to a function the model does not see into.
__device__ void setUp(uint64_t *bar);
__global__ void initElsewhere(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    setUp(&bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
}

// Helpers that only issue recognised ops on the barrier they are given are
// known uses: no helper initialises 'bar'.
__device__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, bytes);
}
__device__ void initBarrier(uint64_t *bar) {
  ptx::mbarrier_init(bar, 1);
  ptx::fence_proxy_async(ptx::space_shared);
}
__global__ void helpersNoInit(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  waitParity(&bar, 0);
}

// The twin: a helper initialises it.
__global__ void helpersInit(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBarrier(&bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  waitParity(&bar, 0);
}

// Silent: a helper hands the barrier on to a function the model does not
// see into, which may initialise it.
__device__ void setUpVia(uint64_t *bar) { setUp(bar); }
__global__ void helperHandsOn(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    setUpVia(&bar);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  waitParity(&bar, 0);
}
