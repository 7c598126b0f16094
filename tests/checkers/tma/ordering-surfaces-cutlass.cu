// The ordering rules through CUTLASS-like helpers (CuTe's SM90_TMA_*
// copies, cutlass::arch::ClusterTransactionBarrier with its wait and
// arrive, cute::tma_store_arrive / tma_store_wait): a tile read before its
// barrier's wait (TMA-LOAD-WAIT-BEFORE-READ), refilled right after a read
// (ASYNC-WAR-FENCE), an arrive before expect_transaction
// (MBAR-EXPECT-BEFORE-LAST-ARRIVE), every thread running tma_store_wait for
// the one thread's store before rewriting the tile (BULK-WAITGROUP-SCOPE),
// CuTe's 1-D SM90_BULK_COPY_S2G of a tile written with no tma_store_fence
// (BULK-S2G-FENCE-BEFORE) or rewritten after a too-shallow tma_store_wait
// (BULK-S2G-WAIT-BEFORE-REUSE).
// Each wrong kernel has its correct twin (docs/checks/ordering-surfaces.md).
// CUTLASS compiles the asm out of the host pass: silent there.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device -I %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host -I %S/../Inputs/cutlass

#include <cstdint>
#include <cuda.h>
#define TMA_TEST_CLUSTER_BARRIER_WAIT // ClusterBarrier::wait and arrive
#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/arch/barrier.h>

using cutlass::arch::ClusterTransactionBarrier;

// CuTe's epilogue helpers, as cute/arch/copy_sm90_tma.hpp writes them.
namespace cute {
__device__ inline void tma_store_fence() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ inline void tma_store_arrive() {
  asm volatile("cp.async.bulk.commit_group;");
}
template <int Count> __device__ inline void tma_store_wait() {
  asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(Count) : "memory");
}
// CuTe's 1-D bulk copy out of shared memory (no tensor map), with CuTe's
// parameter list: store_bytes from smem_ptr to gmem_ptr, committed by the
// caller's tma_store_arrive.
struct SM90_BULK_COPY_S2G {
  __host__ __device__ static void copy(void const *smem_ptr, void *gmem_ptr,
                                       int32_t store_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(gmem_ptr), "r"(smem), "r"(store_bytes)
                 : "memory");
#endif
  }
};
} // namespace cute

// --- TMA-LOAD-WAIT-BEFORE-READ -----------------------------------------------

__global__ void cuteReadBeforeWait(const __grid_constant__ CUtensorMap map,
                                   float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
  }
  out[threadIdx.x] = tile[threadIdx.x];
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:22: warning: generic load reads 'tile' while the TMA load at line [[#@LINE-4]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  full.wait(0);
}

__global__ void cuteReadAfterWait(const __grid_constant__ CUtensorMap map,
                                  float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
  }
  full.wait(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// --- ASYNC-WAR-FENCE -----------------------------------------------------------

__global__ void cuteRefill(const __grid_constant__ CUtensorMap map, float *out,
                           int n) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = tile[k % 64];
      full.arrive_and_expect_tx(sizeof(tile));
      cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full),
                                   0, tile, 0, k);
      // CHECK-MESSAGES-DEVICE: :[[@LINE-2]]:7: warning: TMA load overwrites 'tile' that generic loads read at line [[#@LINE-4]] {{.*}}(ASYNC-WAR-FENCE) [tma-ordering]
      full.wait(k & 1);
    }
  }
}

__global__ void cuteRefillFenced(const __grid_constant__ CUtensorMap map,
                                 float *out, int n) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      out[k] = tile[k % 64];
      cute::tma_store_fence(); // fence.proxy.async.shared::cta
      full.arrive_and_expect_tx(sizeof(tile));
      cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full),
                                   0, tile, 0, k);
      full.wait(k & 1);
    }
  }
}

// --- MBAR-EXPECT-BEFORE-LAST-ARRIVE --------------------------------------------

__global__ void cutlassArriveThenExpect(const __grid_constant__ CUtensorMap map,
                                        float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
    full.arrive();
    full.expect_transaction(sizeof(tile));
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:5: warning: expect-tx on 'full' after an arrive on it at line [[#@LINE-2]]: the arrive may complete the phase before these bytes are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE) [tma-ordering]
  }
  full.wait(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void cutlassExpectThenArrive(const __grid_constant__ CUtensorMap map,
                                        float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    full.expect_transaction(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(&map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
    full.arrive();
  }
  full.wait(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// --- BULK-WAITGROUP-SCOPE ------------------------------------------------------

__global__ void cuteAllThreadsWait(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  cute::tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_TMA_STORE_2D::copy(&map, smem_c, 0, 0);
    cute::tma_store_arrive();
  }
  cute::tma_store_wait<0>();
  smem_c[threadIdx.x] = 2.0f;
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:23: warning: generic store overwrites 'smem_c' while the TMA store at line [[#@LINE-5]] may still read it: the wait at line [[#@LINE-2]] waits only in the thread that issued the copy, and no thread barrier after it makes the others wait (BULK-WAITGROUP-SCOPE) [tma-ordering]
}

__global__ void cuteWaitThenSync(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  cute::tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_TMA_STORE_2D::copy(&map, smem_c, 0, 0);
    cute::tma_store_arrive();
    cute::tma_store_wait<0>();
  }
  __syncthreads();
  smem_c[threadIdx.x] = 2.0f;
}

// --- TMAP-INFLIGHT-IMMUTABLE / TMAP-PLACE-GLOBAL-FENCE -------------------------

__device__ inline void replaceMap(CUtensorMap *map, const CUtensorMap *staged) {
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
               "generic.release.gpu.sync.aligned [%0], [%1], 128;"
               :: "l"(map), "r"(cute::cast_smem_ptr_to_uint(staged))
               : "memory");
}
__device__ inline void acquireMap(const CUtensorMap *map) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :: "l"(map) : "memory");
}

// The map in global memory is rewritten on the next pass while the CuTe
// load of this pass may still read it.
__global__ void cuteMapRewrittenInFlight(CUtensorMap *map, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    replaceMap(map, &staged);
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:5: warning: tensor map 'map' is rewritten while the TMA load at line [[#@LINE+3]] may still read it: no mbarrier wait in between completes it (TMAP-INFLIGHT-IMMUTABLE) [tma-ordering]
    acquireMap(map);
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, g, 0);
  }
}

__global__ void cuteMapRewrittenAfterWait(CUtensorMap *map, int groups) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(128) CUtensorMap staged;
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  for (int g = 0; g < groups; ++g) {
    replaceMap(map, &staged);
    acquireMap(map);
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, g, 0);
    full.wait(g & 1);
  }
}

// The acquire fence comes after the CuTe load that reads the map.
__global__ void cuteAcquireTooLate(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
    // CHECK-MESSAGES-DEVICE: :[[@LINE-2]]:5: warning: TMA load reads the tensor map 'map' before its acquire fence at line [[#@LINE+1]]: the fence must precede the copy (TMAP-PLACE-GLOBAL-FENCE) [tma-ordering]
    acquireMap(map);
  }
  full.wait(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void cuteAcquireFirst(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ ClusterTransactionBarrier full;
  if (threadIdx.x == 0)
    full.init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    acquireMap(map);
    full.arrive_and_expect_tx(sizeof(tile));
    cute::SM90_TMA_LOAD_2D::copy(map, reinterpret_cast<uint64_t *>(&full), 0,
                                 tile, 0, 0);
  }
  full.wait(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// --- BULK-S2G-FENCE-BEFORE / BULK-S2G-WAIT-BEFORE-REUSE ------------------------

// CuTe's 1-D bulk store of a staging buffer the threads just wrote, with no
// tma_store_fence before the hand-off.
__global__ void cuteBulkNoFence(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_BULK_COPY_S2G::copy(buf, out, sizeof(buf));
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:5: warning: bulk copy reads 'buf' written by generic stores at line [[#@LINE-4]] with no fence.proxy.async in between (BULK-S2G-FENCE-BEFORE) [tma-ordering]
    // The fence is spelled in the API of the copy's own asm (the stand-in
    // above is user code, its body followed like any helper's).
    // CHECK-FIXES-DEVICE: {{^}}  buf[threadIdx.x] = 1.0f;{{$}}
    // CHECK-FIXES-DEVICE-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-DEVICE-NEXT: {{^}}  __syncthreads();{{$}}
    cute::tma_store_arrive();
    cute::tma_store_wait<0>();
  }
}

__global__ void cuteBulkFenced(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  cute::tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_BULK_COPY_S2G::copy(buf, out, sizeof(buf));
    cute::tma_store_arrive();
    cute::tma_store_wait<0>();
  }
}

// The issuing thread waits with tma_store_wait<1> right after committing
// the copy's group: it may still be reading buf when the block rewrites it.
__global__ void cuteBulkShallow(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  cute::tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_BULK_COPY_S2G::copy(buf, out, sizeof(buf));
    cute::tma_store_arrive();
    cute::tma_store_wait<1>();
    // CHECK-FIXES-DEVICE: {{^}}    cute::tma_store_wait<0>();{{$}}
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:20: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE-7]] may still read it: wait_group.read 1 at line [[#@LINE-5]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
}

__global__ void cuteBulkDeep(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  cute::tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_BULK_COPY_S2G::copy(buf, out, sizeof(buf));
    cute::tma_store_arrive();
    cute::tma_store_wait<0>();
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
}
