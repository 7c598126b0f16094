// The ordering rules through cde (cuda::device::experimental) and
// cuda::device with the real CCCL headers: a cde bulk load read before its
// cuda::barrier is waited for (TMA-LOAD-WAIT-BEFORE-READ), refilled while
// it was just read (ASYNC-WAR-FENCE); a cde bulk store with no fence before
// it (BULK-S2G-FENCE-BEFORE) and a wait_group_read one too shallow before
// the buffer is rewritten (BULK-S2G-WAIT-BEFORE-REUSE); an arrive on a
// cuda::barrier before cuda::device::barrier_expect_tx
// (MBAR-EXPECT-BEFORE-LAST-ARRIVE). Each wrong kernel has its correct twin
// (docs/checks/ordering-surfaces.md).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <utility>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

// --- TMA-LOAD-WAIT-BEFORE-READ -----------------------------------------------

__global__ void cdeReadBeforeWait(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(s, g, sizeof(s), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(s));
  } else {
    token = bar.arrive();
  }
  out[threadIdx.x] = s[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic load reads 's' while the bulk copy at line [[#@LINE-6]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  bar.wait(std::move(token));
}

__global__ void cdeReadAfterWait(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(s, g, sizeof(s), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(s));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  out[threadIdx.x] = s[threadIdx.x];
}

// --- ASYNC-WAR-FENCE -----------------------------------------------------------

__global__ void cdeRefill(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = s[k % 256];
      cde::cp_async_bulk_global_to_shared(s, g + k * 256, sizeof(s), bar);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: bulk copy overwrites 's' that generic loads read at line [[#@LINE-2]] {{.*}}(ASYNC-WAR-FENCE) [tma-ordering]
      bar.wait(cuda::device::barrier_arrive_tx(bar, 1, sizeof(s)));
    }
  }
}

__global__ void cdeRefillFenced(const float *g, float *out, int n) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = s[k % 256];
      cde::fence_proxy_async_shared_cta();
      cde::cp_async_bulk_global_to_shared(s, g + k * 256, sizeof(s), bar);
      bar.wait(cuda::device::barrier_arrive_tx(bar, 1, sizeof(s)));
    }
  }
}

// --- BULK-S2G-FENCE-BEFORE -----------------------------------------------------

__global__ void cdeBulkNoFence(float *out) {
  __shared__ alignas(16) float s[256];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out, s, sizeof(s));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: bulk copy reads 's' written by generic stores at line [[#@LINE-4]] with no fence.proxy.async in between (BULK-S2G-FENCE-BEFORE) [tma-ordering]
    // CHECK-FIXES: {{^}}  s[threadIdx.x] = 1.0f;{{$}}
    // CHECK-FIXES-NEXT: {{^}}  cde::fence_proxy_async_shared_cta();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__global__ void cdeBulkFenced(float *out) {
  __shared__ alignas(16) float s[256];
  s[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out, s, sizeof(s));
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// --- BULK-S2G-WAIT-BEFORE-REUSE ------------------------------------------------

__global__ void cdeBulkShallow(float *out) {
  __shared__ alignas(16) float s[256];
  s[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out, s, sizeof(s));
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<1>();
  }
  __syncthreads();
  s[threadIdx.x] = 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: generic store overwrites 's' while the bulk copy at line [[#@LINE-6]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
  // CHECK-FIXES: {{^}}    cde::cp_async_bulk_wait_group_read<0>();{{$}}
}

__global__ void cdeBulkDeep(float *out) {
  __shared__ alignas(16) float s[256];
  s[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out, s, sizeof(s));
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
  __syncthreads();
  s[threadIdx.x] = 2.0f;
}

// --- MBAR-EXPECT-BEFORE-LAST-ARRIVE (cuda::device) -----------------------------

__global__ void deviceArriveThenExpect(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar);
    block_barrier::arrival_token token = bar.arrive();
    cuda::device::barrier_expect_tx(bar, sizeof(s));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx on 'bar' after an arrive on it at line [[#@LINE-2]]: the arrive may complete the phase before these bytes are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE) [tma-ordering]
    bar.wait(std::move(token));
    out[0] = s[0];
  }
}

__global__ void deviceExpectThenArrive(const float *g, float *out) {
  __shared__ alignas(16) float s[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::device::barrier_expect_tx(bar, sizeof(s));
    cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(sizeof(s)), bar);
    block_barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));
    out[0] = s[0];
  }
}

// --- TMAP-PLACE-GLOBAL-FENCE (a cde tensor load) ---------------------------------

__device__ inline void acquireMap(const CUtensorMap *map) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :: "l"(map) : "memory");
}

__global__ void cdeAcquireTooLate(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(tile, map, 0, 0, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TMA load reads the tensor map 'map' before its acquire fence at line [[#@LINE+1]]: the fence must precede the copy (TMAP-PLACE-GLOBAL-FENCE) [tma-ordering]
    acquireMap(map);
    bar.wait(cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile)));
    out[0] = tile[0];
  }
}

__global__ void cdeAcquireFirst(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    acquireMap(map);
    cde::cp_async_bulk_tensor_2d_global_to_shared(tile, map, 0, 0, bar);
    bar.wait(cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile)));
    out[0] = tile[0];
  }
}
