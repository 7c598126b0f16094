// BULK-WAITGROUP-SCOPE (a bulk-group wait by threads that issued nothing)
// and the ordering half of TMAP-PLACE-GLOBAL-FENCE (the tensormap acquire
// fence must precede the copy that reads the map). Each wrong kernel has a
// correct twin.
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

// --- BULK-WAITGROUP-SCOPE -------------------------------------------------------

// Every thread waits, but only thread 0 committed a group: the others go on
// and overwrite the tile while the store may still read it.
__global__ void waitInAllThreads(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  cde::cp_async_bulk_wait_group_read<0>();
  tile[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-5]] may still read it: the wait at line [[#@LINE-2]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the TMA store reads 'tile' here, issued by the threads of this branch only
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 64, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__global__ void waitThenSync(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
  }
  cde::cp_async_bulk_wait_group_read<0>();
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 64, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// --- TMAP-PLACE-GLOBAL-FENCE (ordering) ----------------------------------------

// A map in global memory: acquired, but only after the load that reads it.
__global__ void acquireTooLate(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    const int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              map, coords, &bar);
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: TMA load reads the tensor map 'map' before its acquire fence at line [[#@LINE+2]]: the fence must precede the copy (TMAP-PLACE-GLOBAL-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+1]]:5: note: fence.proxy.tensormap::generic.acquire here
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
  }
  waitParity(&bar, 0);
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void acquireFirst(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    const int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              map, coords, &bar);
  }
  waitParity(&bar, 0);
  out[threadIdx.x] = tile[threadIdx.x];
}
