// Generic reads of shared memory written in inline PTX (`ld.shared`,
// `ldmatrix`, with or without `.shared`) at an address computed from a
// tracked buffer are reads of that buffer for TMA-LOAD-WAIT-BEFORE-READ and
// ASYNC-WAR-FENCE, as C++ loads are. A barrier address passed down through
// two helpers names the kernel's barrier. Each wrong kernel has a correct
// twin; `__shfl_sync` is no thread barrier.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ int __shfl_sync(unsigned mask, int var, int src, int width = 32);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(a), "r"(bytes));
}
__device__ static inline void loadTile(void *dst, const void *map,
                                       uint64_t *bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))), "l"(map),
        "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(x),
        "r"(y)
      : "memory");
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}
// Two helpers between the kernel and the barrier's address.
__device__ static inline void issue(void *dst, const void *map, uint64_t *bar) {
  expectBytes(bar, 64 * 64 * 2);
  loadTile(dst, map, bar, 0, 0);
}
__device__ static inline void produce(void *dst, const void *map,
                                      uint64_t *full) {
  issue(dst, map, full);
}

// ldmatrix reads the tile before the load's barrier is waited for.
__global__ void ldmatrixBeforeWait(const __grid_constant__ CUtensorMap map,
                                   int *out) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    produce(sA, &map, &full);
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(sA)) +
                  (threadIdx.x % 32) * 16;
  int r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: generic load reads 'sA' while the TMA load at line [[#@LINE-6]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: the TMA load into 'sA' completes on 'full'
  // CHECK-NOTES: :28:3: note: issued here
  waitBarrier(&full, 0);
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

__global__ void ldmatrixAfterWait(const __grid_constant__ CUtensorMap map,
                                  int *out) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    produce(sA, &map, &full);
  waitBarrier(&full, 0);
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(sA)) +
                  (threadIdx.x % 32) * 16;
  int r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

// ld.shared of the tile, then the producer thread refills it with nothing
// in between (ASYNC-WAR-FENCE); ldmatrix with a generic address.
__global__ void ldSharedThenRefill(const __grid_constant__ CUtensorMap map,
                                   int *out, int n) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      waitBarrier(&full, k & 1);
      uint32_t v;
      asm volatile("ld.shared.b32 %0, [%1];"
                   : "=r"(v)
                   : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(sA))));
      out[k] = v;
      produce(sA, &map, &full);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: TMA load overwrites 'sA' that generic loads read at line [[#@LINE-5]] with no fence.proxy.async, thread barrier or mbarrier hand-off in between (ASYNC-WAR-FENCE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-6]]:7: note: generic load of 'sA' here
    }
  }
}

__global__ void ldSharedFencedRefill(const __grid_constant__ CUtensorMap map,
                                     int *out, int n) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 0; k < n; ++k) {
      waitBarrier(&full, k & 1);
      int r0, r1;
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];"
                   : "=r"(r0), "=r"(r1) : "l"(sA));
      out[k] = r0 + r1;
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      produce(sA, &map, &full);
    }
  }
}

// MBAR-INIT-VISIBLE: a shuffle does not make thread 0's init visible.
__global__ void shuffleIsNoBarrier(const __grid_constant__ CUtensorMap map,
                                   int *out) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  int lane0 = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
  if (threadIdx.x == 0)
    produce(sA, &map, &full);
  waitBarrier(&full, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'full' is used by all threads here after its mbarrier.init at line [[#@LINE-5]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :19:3: note: issued here
  // CHECK-FIXES: {{^}}  int lane0 = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x == 0){{$}}
  // CHECK-FIXES-NEXT: {{^}}    produce(sA, &map, &full);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  waitBarrier(&full, 0);{{$}}
  out[lane0] = sA[0];
}

__global__ void shuffleAfterSync(const __grid_constant__ CUtensorMap map,
                                 int *out) {
  __shared__ alignas(128) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  int lane0 = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
  if (threadIdx.x == 0)
    produce(sA, &map, &full);
  waitBarrier(&full, 0);
  out[lane0] = sA[0];
}
