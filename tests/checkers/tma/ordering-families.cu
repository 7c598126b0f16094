// Stage families and warp roles for MBAR-INIT-VISIBLE and MBAR-UNINIT: a
// ring of S barriers initialised in `for (s = 0; s < S; ++s)` is initialised
// member by member, so a wait on `full[k % S]` is a use of a barrier that
// loop made; a producer or consumer role (a warp branch) that uses it needs
// the thread barrier as much as "all threads" do. Each wrong kernel has a
// correct twin; the last kernels show what stays silent (an init loop that
// does not cover every member, a conditional init, a role that is the
// initialising thread itself).
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

__device__ void arriveOn(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(bar)))
               : "memory");
}

__device__ void initBarrier(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                   static_cast<uint32_t>(__cvta_generic_to_shared(bar))),
               "r"(count));
}

constexpr int S = 2;

// --- An init loop over the ring, used by every thread -------------------------

// A 2-stage ring whose barriers thread 0 initialises in a loop; every thread
// waits on full[k % S] with no __syncthreads() after the init.
__global__ void __launch_bounds__(256) ringInitNoSync(const char *src,
                                                      float *out, int nk) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], 1024);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                         src + k * 1024, 1024, &full[s]);
    }
    waitParity(&full[s], (k / S) & 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'full' is used by all threads here after its mbarrier.init at line [[#@LINE-12]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-13]]:7: note: initialised here, by the threads of this branch only
    out[k * 256 + threadIdx.x] = tile[s][threadIdx.x];
    __syncthreads();
  }
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < nk; ++k) {{[{]}}{{$}}
}

__global__ void __launch_bounds__(256) ringInitSynced(const char *src,
                                                      float *out, int nk) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], 1024);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                         src + k * 1024, 1024, &full[s]);
    }
    waitParity(&full[s], (k / S) & 1);
    out[k * 256 + threadIdx.x] = tile[s][threadIdx.x];
    __syncthreads();
  }
}

// --- Producer and consumer roles ----------------------------------------------

// Thread 0 initialises full[] and empty[] through a helper in one loop; warp 0
// produces, the other warps consume. The consumers' wait on full[s] is the
// first use by threads that ran no init (thread 32 is one).
template <int Stages>
__global__ void __launch_bounds__(384) rolesNoSync(const char *src,
                                                   float *out, int nk) {
  __shared__ alignas(128) char tile[Stages][1024];
  __shared__ uint64_t full[Stages], empty[Stages];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  if (warp == 0) {
    if (lane == 0) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % Stages;
        waitParity(&empty[s], ((k / Stages) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 1024, 1024, &full[s]);
      }
    }
  } else {
    for (int k = 0; k < nk; ++k) {
      const int s = k % Stages;
      waitParity(&full[s], (k / Stages) & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-20]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-21]]:7: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :[[@LINE-97]]:3: note: issued here
      out[k * 256 + threadIdx.x - 32] = tile[s][threadIdx.x - 32];
      ptx::fence_proxy_async(ptx::space_shared);
      arriveOn(&empty[s]);
    }
  }
  // CHECK-FIXES: {{^}}      initBarrier(&empty[s], 256);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  // CHECK-FIXES-NEXT: {{^}}    ptx::fence_proxy_async(ptx::space_shared);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (warp == 0) {{[{]}}{{$}}
}
template __global__ void rolesNoSync<2>(const char *, float *, int);

template <int Stages>
__global__ void __launch_bounds__(384) rolesSynced(const char *src,
                                                   float *out, int nk) {
  __shared__ alignas(128) char tile[Stages][1024];
  __shared__ uint64_t full[Stages], empty[Stages];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (int k = 0; k < nk; ++k) {
        const int s = k % Stages;
        waitParity(&empty[s], ((k / Stages) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                       ptx::space_shared, &full[s], 1024);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                           src + k * 1024, 1024, &full[s]);
      }
    }
  } else {
    for (int k = 0; k < nk; ++k) {
      const int s = k % Stages;
      waitParity(&full[s], (k / Stages) & 1);
      out[k * 256 + threadIdx.x - 32] = tile[s][threadIdx.x - 32];
      ptx::fence_proxy_async(ptx::space_shared);
      arriveOn(&empty[s]);
    }
  }
}
template __global__ void rolesSynced<2>(const char *, float *, int);

// --- MBAR-UNINIT on a ring -----------------------------------------------------

// The ring's barriers are never initialised (the init loop was left out).
__global__ void __launch_bounds__(256) ringNeverInit(const char *src,
                                                     float *out, int nk) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], 1024);
      // CHECK-NOTES: :[[@LINE-2]]:7: warning: 'full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                         src + k * 1024, 1024, &full[s]);
    }
    while (!ptx::mbarrier_try_wait_parity(&full[s], (k / S) & 1)) {
    }
    out[k * 256 + threadIdx.x] = tile[s][threadIdx.x];
    __syncthreads();
  }
}

// --- Silent ------------------------------------------------------------------

// The loop initialises member 0 only: whether every full[k % S] is that
// member is not proven (no init of the whole family), but the first pass
// waits on member 0, which thread 0 initialises with no thread barrier
// before the wait: MBAR-INIT-VISIBLE on the member (the member the second
// pass reaches is MBAR-UNINIT's, which judges first runs only).
__global__ void __launch_bounds__(256) partialInitLoop(const char *src,
                                                       float *out, int nk) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S - 1; ++s)
      ptx::mbarrier_init(&full[s], 1);
  }
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    if (threadIdx.x == 0)
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[s],
                         src + k * 1024, 1024, &full[s]);
    waitParity(&full[s], (k / S) & 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'full' is used by all threads here after its mbarrier.init at line [[#@LINE-8]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: initialised here, by the threads of this branch only
    out[k * 256 + threadIdx.x] = tile[s][threadIdx.x];
    __syncthreads();
  }
  // CHECK-FIXES: {{^}}      ptx::mbarrier_init(&full[s], 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

// An init under a condition inside the loop: not every member.
__global__ void __launch_bounds__(256) conditionalInitLoop(const char *src,
                                                           float *out, int nk,
                                                           int skip) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      if (s != skip)
        ptx::mbarrier_init(&full[s], 1);
  }
  for (int k = 0; k < nk; ++k) {
    const int s = k % S;
    waitParity(&full[s], (k / S) & 1);
    out[k * 256 + threadIdx.x] = tile[s][threadIdx.x];
    __syncthreads();
  }
}

// The producer is the initialising thread; the consumers wait only after a
// __syncthreads(): nothing outside thread 0 uses a barrier before it.
__global__ void __launch_bounds__(384) producerIsInitialiser(const char *src,
                                                             float *out,
                                                             int nk) {
  __shared__ alignas(128) char tile[S][1024];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      ptx::mbarrier_init(&full[s], 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &full[0], 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile[0], src,
                       1024, &full[0]);
  }
  __syncthreads();
  waitParity(&full[0], 0);
  out[threadIdx.x] = tile[0][threadIdx.x];
}
