// The ordering rules through inline PTX where no other test spells them in
// asm: 1-D bulk copies out of shared memory (BULK-S2G-FENCE-BEFORE,
// BULK-S2G-WAIT-BEFORE-REUSE), tensor stores with a too-shallow
// wait_group.read (TMA-STORE-WAIT), mbarrier.arrive before
// mbarrier.expect_tx (MBAR-EXPECT-BEFORE-LAST-ARRIVE), mbarrier.init in the
// main loop (MBAR-REINIT-INVAL), a barrier never initialised (MBAR-UNINIT);
// and through cuda::ptx a tensor store (TMA-STORE-FENCE, TMA-STORE-WAIT).
// Each wrong kernel has its correct twin (docs/checks/ordering-surfaces.md).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace ptx = cuda::ptx;
// The bulk-group wrappers, which the stub headers lack.
namespace cuda::ptx {
inline namespace __4 {
template <int N> struct n32_t {};
template <typename = void>
__device__ static inline void cp_async_bulk_commit_group();
template <int N>
__device__ static inline void cp_async_bulk_wait_group_read(n32_t<N>);
} // namespace __4
} // namespace cuda::ptx

__device__ static inline uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ static inline void bulkStore(float *dst, const float *src,
                                        uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
               ::"l"(dst), "r"(smem(src)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ static inline void tensorStore(const CUtensorMap *map,
                                          const float *src, int x) {
  asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group"
               " [%0, {%2}], [%1];"
               ::"l"(map), "r"(smem(src)), "r"(x) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ static inline void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
template <int N> __device__ static inline void waitRead() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
__device__ static inline void initBar(uint64_t *bar, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)),
               "r"(n));
}
__device__ static inline void arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(bar))
               : "memory");
}
__device__ static inline void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
               ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ static inline void arriveExpectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ static inline void bulkLoad(float *dst, const float *src,
                                       uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], %2, [%3];"
               ::"r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(bar))
               : "memory");
}
__device__ static inline void waitBar(uint64_t *bar, int phase) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(smem(bar)), "r"(phase));
}

// --- BULK-S2G-FENCE-BEFORE --------------------------------------------------

__global__ void asmBulkNoFence(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    bulkStore(out, buf, sizeof(buf));
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: bulk copy reads 'buf' written by generic stores at line [[#@LINE-4]] with no fence.proxy.async in between (BULK-S2G-FENCE-BEFORE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-5]]:20: note: generic store to 'buf' here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
  // CHECK-NOTES: :35:3: note: issued here
  // CHECK-FIXES: {{^}}  buf[threadIdx.x] = 1.0f;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

__global__ void asmBulkFenced(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0)
    bulkStore(out, buf, sizeof(buf));
}

// --- BULK-S2G-WAIT-BEFORE-REUSE ----------------------------------------------

// Two groups since the copy of buf: wait_group.read 1 leaves one pending,
// but the first is done; the wait after the second copy is one too shallow.
__global__ void asmBulkShallow(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    bulkStore(out, buf, sizeof(buf));
    waitRead<1>();
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE-5]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the bulk copy reads 'buf' here
  // CHECK-NOTES: :35:3: note: issued here
  // CHECK-NOTES: :[[@LINE-7]]:5: note: wait_group.read 0 would complete the copy's group
}

__global__ void asmBulkDeep(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    bulkStore(out, buf, sizeof(buf));
    waitRead<0>();
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
}

// --- TMA-STORE-WAIT ----------------------------------------------------------

__global__ void asmTensorShallow(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    tensorStore(&map, tile, 0);
    waitRead<1>();
  }
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-5]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the TMA store reads 'tile' here
  // CHECK-NOTES: :41:3: note: issued here
  // CHECK-NOTES: :[[@LINE-7]]:5: note: wait_group.read 0 would complete the copy's group
}

__global__ void asmTensorDeep(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  fenceAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    tensorStore(&map, tile, 0);
    waitRead<0>();
  }
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
}

// --- MBAR-EXPECT-BEFORE-LAST-ARRIVE -----------------------------------------

__global__ void asmArriveThenExpect(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBar(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    bulkLoad(buf, src, sizeof(buf), &bar);
    arrive(&bar);
    expectTx(&bar, sizeof(buf));
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: expect-tx on 'bar' after an arrive on it at line [[#@LINE-2]]: the arrive may complete the phase before these bytes are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: arrives here; expect the bytes before it, or use mbarrier.arrive.expect_tx
    // CHECK-NOTES: :57:3: note: issued here
  }
  waitBar(&bar, 0);
}

__global__ void asmExpectThenArrive(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBar(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectTx(&bar, sizeof(buf));
    bulkLoad(buf, src, sizeof(buf), &bar);
    arrive(&bar);
  }
  waitBar(&bar, 0);
}

// --- MBAR-REINIT-INVAL / MBAR-UNINIT ----------------------------------------

__global__ void asmReinit(const float *src, int iters) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x == 0)
      initBar(&bar, 1);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: mbarrier.init of 'bar' inside a loop that uses it: the next pass re-initialises a live barrier without mbarrier.inval (MBAR-REINIT-INVAL) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: used here in the same loop
    // CHECK-NOTES: :65:3: note: issued here
    __syncthreads();
    if (threadIdx.x == 0) {
      arriveExpectTx(&bar, sizeof(buf));
      bulkLoad(buf, src + k * 256, sizeof(buf), &bar);
    }
    waitBar(&bar, 0);
    __syncthreads();
  }
}

__global__ void asmInitOnce(const float *src, int iters) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    initBar(&bar, 1);
  __syncthreads();
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x == 0) {
      arriveExpectTx(&bar, sizeof(buf));
      bulkLoad(buf, src + k * 256, sizeof(buf), &bar);
    }
    waitBar(&bar, k & 1);
    __syncthreads();
  }
}

// The barrier's every use is in the kernel's own asm: an arrive.expect_tx
// where mbarrier.init was meant.
__global__ void asmNeverInit(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(smem(&bar)), "r"(1024) : "memory");
  // CHECK-NOTES: :[[@LINE-2]]:5: warning: 'bar' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];"
                 ::"r"(smem(buf)), "l"(src), "r"(1024), "r"(smem(&bar))
                 : "memory");
}

__global__ void asmInitialised(const float *src) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&bar)),
                 "r"(1));
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(smem(&bar)), "r"(1024) : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];"
                 ::"r"(smem(buf)), "l"(src), "r"(1024), "r"(smem(&bar))
                 : "memory");
}

// --- cuda::ptx tensor stores: TMA-STORE-FENCE, TMA-STORE-WAIT ----------------

__global__ void ptxTensorNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                              coords, tile);
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:21: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-4]]:5: note: each writing thread must execute cuda::ptx::fence_proxy_async(cuda::ptx::space_shared) after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-FIXES: {{^}}  ptx::fence_proxy_async(ptx::space_shared);{{$}}
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
}

__global__ void ptxTensorFenced(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                              coords, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
}

__global__ void ptxTensorShallow(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                              coords, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>{});
  }
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE-7]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-8]]:5: note: the TMA store reads 'tile' here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: wait_group.read 0 would complete the copy's group
}

__global__ void ptxTensorDeep(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[256];
  tile[threadIdx.x] = 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                              coords, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
  __syncthreads();
  tile[threadIdx.x] = 2.0f;
}

// --- cuda::ptx 1-D bulk store: BULK-S2G-WAIT-BEFORE-REUSE --------------------

__global__ void ptxBulkShallow(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buf,
                       sizeof(buf));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>{});
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE-7]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-8]]:5: note: the bulk copy reads 'buf' here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: wait_group.read 0 would complete the copy's group
}

__global__ void ptxBulkDeep(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buf,
                       sizeof(buf));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
}
