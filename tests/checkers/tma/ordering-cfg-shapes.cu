// tma-ordering over the kernel model built on Clang's CFG: control flow the
// earlier AST walk could not follow (it went silent across a switch, a
// break, continue or return inside a loop, and on a whole kernel with a
// goto) is now followed edge by edge, and a switch on a thread expression
// gives its cases their threads. Each wrong kernel has a correct twin
// that stays silent; what the CFG cannot place (an indirect goto) still
// makes the kernel unknown.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

namespace ptx = cuda::ptx;
namespace cde = cuda::device::experimental;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// --- switch on the warp role --------------------------------------------------

// The producer warps fill the tile in their case; nobody fences before the
// store (TMA-STORE-FENCE).
__global__ void switchRoleNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  switch (threadIdx.x / 128) {
  case 0:
    for (int i = threadIdx.x; i < 64 * 64; i += 128)
      tile[i] = 1.0f;
    break;
  default:
    break;
  }
  // CHECK-FIXES: {{^}}  cde::fence_proxy_async_shared_cta();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-10]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-11]]:15: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute cuda::device::experimental::fence_proxy_async_shared_cta() after its stores, before the thread barrier that hands the buffer to the issuing thread
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__global__ void switchRoleFenced(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  switch (threadIdx.x / 128) {
  case 0:
    for (int i = threadIdx.x; i < 64 * 64; i += 128)
      tile[i] = 1.0f;
    cde::fence_proxy_async_shared_cta();
    break;
  default:
    break;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// The thread sets of a switch's cases: every thread writes the tile, only
// the warps of `case 1` fence; the writers of warps 0-3 never do
// (TMA-STORE-FENCE: the fence is on the path but in other threads).
__global__ void switchFenceInOtherRole(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  switch (threadIdx.x / 128) {
  case 1:
    cde::fence_proxy_async_shared_cta();
    break;
  default:
    break;
  }
  // CHECK-FIXES: {{^}}  // Warps 0-3 hand the tile over unfenced.{{$}}
  // CHECK-FIXES-NEXT: {{^}}  cde::fence_proxy_async_shared_cta();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // Warps 0-3 hand the tile over unfenced.
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-15]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-16]]:21: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute cuda::device::experimental::fence_proxy_async_shared_cta() after its stores, before the thread barrier that hands the buffer to the issuing thread
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// The writers are the warps that fence: `case 0` writes and fences.
__global__ void switchFenceInOwnRole(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  switch (threadIdx.x / 128) {
  case 0:
    tile[threadIdx.x] = 1.0f;
    cde::fence_proxy_async_shared_cta();
    break;
  default:
    break;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// --- return inside a persistent loop ------------------------------------------

// The tile scheduler's `return` ends the loop; the next tile overwrites the
// buffer the last store may still read (TMA-STORE-WAIT, through the back
// edge).
__global__ void returnInLoopNoWait(const __grid_constant__ CUtensorMap map,
                                   int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x;; t += gridDim.x) {
    if (t >= tiles)
      return;
    tile[threadIdx.x] = static_cast<float>(t);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE+5]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: the TMA store reads 'tile' here
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  }
}

__global__ void returnInLoopWaited(const __grid_constant__ CUtensorMap map,
                                   int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x;; t += gridDim.x) {
    if (t >= tiles)
      return;
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<0>();
    __syncthreads();
    tile[threadIdx.x] = static_cast<float>(t);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  }
}

// --- break out of while (true) ------------------------------------------------

// A barrier initialised in the scheduler loop that the loop also uses: the
// next pass re-initialises a live barrier (MBAR-REINIT-INVAL); the break
// ends the loop on one path only.
__global__ void breakReinit(const float *src, float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  int t = blockIdx.x;
  while (true) {
    if (t >= tiles)
      break;
    if (threadIdx.x == 0) {
      ptx::mbarrier_init(&bar, 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: mbarrier.init of 'bar' inside a loop that uses it: the next pass re-initialises a live barrier without mbarrier.inval (MBAR-REINIT-INVAL) [tma-ordering]
      // CHECK-NOTES: :[[@LINE+5]]:7: note: used here in the same loop
      ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + t * 256, sizeof(buf), &bar);
    }
    waitParity(&bar, 0);
    out[t * 256 + threadIdx.x] = buf[threadIdx.x];
    __syncthreads();
    t += gridDim.x;
  }
}

__global__ void breakInitOnce(const float *src, float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  uint32_t phase = 0;
  int t = blockIdx.x;
  while (true) {
    if (t >= tiles)
      break;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + t * 256, sizeof(buf), &bar);
    }
    waitParity(&bar, phase);
    phase ^= 1;
    out[t * 256 + threadIdx.x] = buf[threadIdx.x];
    __syncthreads();
    t += gridDim.x;
  }
}

// --- continue in a pipeline ---------------------------------------------------

// Tiles with no work are skipped with `continue`; the others read the
// buffer without waiting for the copy (TMA-LOAD-WAIT-BEFORE-READ).
__global__ void continueNoWait(const float *src, float *out, const int *work,
                               int n) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + k * 256, sizeof(buf), &bar);
    }
    if (work[k] == 0)
      continue;
    out[k * 256 + threadIdx.x] = buf[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:34: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-6]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:7: note: the bulk copy into 'buf' completes on 'bar'
    __syncthreads();
  }
}

__global__ void continueWaited(const float *src, float *out, const int *work,
                               int n) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                         src + k * 256, sizeof(buf), &bar);
    }
    waitParity(&bar, k & 1);
    if (work[k] == 0)
      continue;
    out[k * 256 + threadIdx.x] = buf[threadIdx.x];
    __syncthreads();
  }
}

// --- do { ... continue; ... } while -------------------------------------------

// `continue` in a do-while goes to its condition; the next pass overwrites
// the tile with no wait for the last store (TMA-STORE-WAIT).
__global__ void doWhileNoWait(const __grid_constant__ CUtensorMap map,
                              const int *work, int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  int t = 0;
  do {
    if (work[t] == 0)
      continue;
    tile[threadIdx.x] = static_cast<float>(t);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE+5]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: the TMA store reads 'tile' here
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  } while (++t < tiles);
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

__global__ void doWhileWaited(const __grid_constant__ CUtensorMap map,
                              const int *work, int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  int t = 0;
  do {
    if (work[t] == 0)
      continue;
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<0>();
    __syncthreads();
    tile[threadIdx.x] = static_cast<float>(t);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  } while (++t < tiles);
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// --- goto ---------------------------------------------------------------------

// A goto to the kernel's cleanup: the path that does not take it
// overwrites the tile while the store may still read it (TMA-STORE-WAIT).
__global__ void gotoNoWait(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  if (n == 0)
    goto done;
  tile[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-6]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: the TMA store reads 'tile' here
done:
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

__global__ void gotoWaited(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  if (n == 0)
    goto done;
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
done:
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// A goto loop: the retry re-enters the code that overwrites the tile while
// the last store may read it (TMA-STORE-WAIT, through the goto's back edge).
__global__ void gotoLoopNoWait(const __grid_constant__ CUtensorMap map,
                               int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  int t = blockIdx.x;
next:
  tile[threadIdx.x] = static_cast<float>(t);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE+5]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
  // CHECK-NOTES: :[[@LINE+4]]:5: note: the TMA store reads 'tile' here
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  t += gridDim.x;
  if (t < tiles)
    goto next;
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// What the CFG cannot place: an indirect goto makes the kernel unknown, so
// the same overwrite is not reported.
__global__ void indirectGotoUnknown(const __grid_constant__ CUtensorMap map,
                                    int n) {
  __shared__ alignas(128) float tile[64 * 64];
  void *target = &&done;
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  if (n == 0)
    goto *target;
  tile[threadIdx.x] = 2.0f;
done:
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}
