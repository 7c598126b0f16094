// TMAP-INFLIGHT-IMMUTABLE over the kernel model: a tensor map in global
// memory (a CUtensorMap * kernel parameter) is not rewritten (generic
// stores, tensormap.replace, tensormap.cp_fenceproxy) while a tensor copy
// that reads it may be in flight: a load needs its mbarrier wait first, a
// store a commit and a wait_group.read that completes its group. Inline
// PTX, cuda::ptx and cde; each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
__device__ size_t __cvta_generic_to_shared(const void *);
namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
template <int N> struct n32_t {};
template <typename = void>
__device__ static inline void
tensormap_replace_global_address(space_global_t, void *tm_addr,
                                 uint64_t new_val);
template <typename = void>
__device__ static inline void
tensormap_replace_global_address(space_shared_t, void *tm_addr,
                                 uint64_t new_val);
template <int N, typename Scope>
__device__ static inline void tensormap_cp_fenceproxy(sem_release_t, Scope,
                                                      void *dst,
                                                      const void *src,
                                                      n32_t<N> size);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

__device__ void initBarrier(uint64_t *bar) {
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
}

// cuda::ptx: the load's map gets a new address before the load completed.
__global__ void ptxReplaceInFlight(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t bar;
  initBarrier(&bar);
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              map, coords, &bar);
    ptx::tensormap_replace_global_address(ptx::space_global, map, next);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor map 'map' is rewritten while the TMA load at line [[#@LINE-3]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the TMA load reads the tensor map here
  }
  waitParity(&bar, 0);
}

__global__ void ptxReplaceAfterWait(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ uint64_t bar;
  initBarrier(&bar);
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              map, coords, &bar);
  }
  waitParity(&bar, 0);
  if (threadIdx.x == 0)
    ptx::tensormap_replace_global_address(ptx::space_global, map, next);
}

// Inline PTX: a persistent loop copies a new map over the one the last
// load may still read (tensormap.cp_fenceproxy), with no wait in the loop.
__global__ void asmCopyMapInLoop(CUtensorMap *map, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ uint64_t bar;
  initBarrier(&bar);
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
                 "generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 :: "l"(map),
                    "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&staged)))
                 : "memory");
    // CHECK-NOTES: :[[@LINE-5]]:5: warning: tensor map 'map' is rewritten while the TMA load at line [[#@LINE+8]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+7]]:5: note: the TMA load reads the tensor map here
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
    uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
    uint32_t mbar = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(mbar), "r"(16384) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                 :: "r"(dst), "l"(map), "r"(mbar), "r"(g), "r"(0)
                 : "memory");
  }
}

// The twin: the issuing thread waits for each load before the next copy.
__global__ void asmCopyMapAfterWait(CUtensorMap *map, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ uint64_t bar;
  initBarrier(&bar);
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
                 "generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 :: "l"(map),
                    "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&staged)))
                 : "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
                 :: "l"(map) : "memory");
    uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
    uint32_t mbar = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(mbar), "r"(16384) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                 :: "r"(dst), "l"(map), "r"(mbar), "r"(g), "r"(0)
                 : "memory");
    waitParity(&bar, g & 1);
  }
}

// cde: a TMA store, then a generic store into the map with the store's
// group one wait too shallow (the literal is corrected).
__global__ void cdeStoreThenPatch(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<1>();
    // CHECK-FIXES: {{^}}    cde::cp_async_bulk_wait_group_read<0>();{{$}}
    reinterpret_cast<uint64_t *>(map)[2] = next;
    // CHECK-NOTES: :[[@LINE-1]]:42: warning: tensor map 'map' is rewritten while the TMA store at line [[#@LINE-5]] may still read it: wait_group.read 1 at line [[#@LINE-3]] lets its group stay pending (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: the TMA store reads the tensor map here
    // CHECK-NOTES: :[[@LINE-5]]:5: note: wait_group.read 0 would complete the copy's group
  }
}

__global__ void cdeStoreWaitedThenPatch(CUtensorMap *map, uint64_t next) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
    reinterpret_cast<uint64_t *>(map)[2] = next;
  }
}

// Silent: the rewrite is of a map in shared memory, or of another map, or
// in the other branch; the copy reads a __grid_constant__ map (a copy the
// kernel cannot rewrite); an unknown call lies in between.
__device__ void unknownHelper();
__global__ void notProven(CUtensorMap *map, CUtensorMap *other,
                          const __grid_constant__ CUtensorMap param,
                          uint64_t next, int mode) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ uint64_t bar;
  initBarrier(&bar);
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(tile));
    if (mode) {
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                                map, coords, &bar);
      ptx::tensormap_replace_global_address(ptx::space_shared, &staged, next);
      ptx::tensormap_replace_global_address(ptx::space_global, other, next);
    } else {
      ptx::tensormap_replace_global_address(ptx::space_global, map, next);
    }
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile,
                              &param, coords, &bar);
    unknownHelper();
    ptx::tensormap_replace_global_address(ptx::space_global, map, next);
  }
  waitParity(&bar, 0);
}
