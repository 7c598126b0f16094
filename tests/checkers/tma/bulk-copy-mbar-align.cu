// MBAR-LOCATION-ALIGN: an mbarrier object is a .b64 in shared memory, 8-byte
// aligned. The alignment is what the declaration guarantees plus the
// constant offset into the buffer (as for BULK-ADDR-ALIGN16); extern pools
// are reported only for an offset that breaks their start's alignment. The
// barrier operands of mbarrier.init, arrive, expect-tx and try_wait and the
// completion barrier of bulk and tensor copies are checked, through inline
// PTX, cuda::ptx and a helper; so is a barrier in a local variable (local
// memory). Each wrong kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace ptx = cuda::ptx;

// A helper that initialises the barrier it is given (inline PTX).
__device__ static inline void initBarrier(uint64_t *bar, uint32_t count) {
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b),
               "r"(count) : "memory");
}

// Barriers carved out of a byte buffer at a 4-byte offset.
__global__ void carvedAtFour(const float *g) {
  __shared__ alignas(128) char pool[1024];
  uint64_t *bar = reinterpret_cast<uint64_t *>(pool + 4);
  initBarrier(bar, 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, pool + 128, g, 64,
                     bar);
  // Reported at the address the barrier pointer was made from: the
  // copy's barrier first, then the helper's init (by position).
  // CHECK-MESSAGES: :[[@LINE-6]]:48: warning: cuda::ptx::cp_async_bulk mbarrier address is guaranteed only 4-byte alignment, not the 8 bytes that an mbarrier object (.b64) needs (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-8]]:32: note: 'pool' starts 128-byte aligned (declared); the address is 4 bytes into it
  // CHECK-MESSAGES: :[[@LINE-8]]:48: note: declare the buffer alignas(8) and keep the offset into it a multiple of 8 bytes
  // CHECK-MESSAGES: :[[@LINE-8]]:15: warning: mbarrier.init mbarrier address is guaranteed only 4-byte alignment, not the 8 bytes that an mbarrier object (.b64) needs (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-11]]:32: note: 'pool' starts 128-byte aligned (declared); the address is 4 bytes into it
  // CHECK-MESSAGES: :[[@LINE-18]]:3: note: passed to the shared-memory address of mbarrier.init here
  // CHECK-MESSAGES: :[[@LINE-11]]:15: note: declare the buffer alignas(8) and keep the offset into it a multiple of 8 bytes
}

// A barrier behind the tile in dynamic shared memory, 4 bytes off.
__global__ void dynamicAfterTile(const float *g) {
  extern __shared__ __align__(128) unsigned char smem[];
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 4096 + 12);
  ptx::mbarrier_init(bar, 1);
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, 4096);
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t ok = 0;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 "
               "p, [%1], %2; selp.b32 %0, 1, 0, p; }"
               : "=r"(ok) : "r"(b), "r"(0) : "memory");
  // CHECK-MESSAGES: :[[@LINE-9]]:48: warning: cuda::ptx::mbarrier_arrive_expect_tx mbarrier address is guaranteed only 4-byte alignment, not the 8 bytes that an mbarrier object (.b64) needs (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-11]]:50: note: 'smem' is dynamic shared memory, taken as 128-byte aligned at its start (its declaration's __align__; only offsets that break that alignment are reported); the address is 4108 bytes into it
  // CHECK-MESSAGES: :[[@LINE-11]]:48: note: keep the offset into it a multiple of 8 bytes
  // CHECK-MESSAGES: :[[@LINE-12]]:48: warning: cuda::ptx::mbarrier_init mbarrier address is guaranteed only 4-byte alignment, not the 8 bytes that an mbarrier object (.b64) needs (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-14]]:50: note: 'smem' is dynamic shared memory, taken as 128-byte aligned at its start (its declaration's __align__; only offsets that break that alignment are reported); the address is 4108 bytes into it
  // CHECK-MESSAGES: :[[@LINE-14]]:48: note: keep the offset into it a multiple of 8 bytes
  // CHECK-MESSAGES: :[[@LINE-15]]:48: warning: mbarrier.try_wait mbarrier address is guaranteed only 4-byte alignment, not the 8 bytes that an mbarrier object (.b64) needs (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-17]]:50: note: 'smem' is dynamic shared memory, taken as 128-byte aligned at its start (its declaration's __align__; only offsets that break that alignment are reported); the address is 4108 bytes into it
  // CHECK-MESSAGES: :[[@LINE-17]]:48: note: keep the offset into it a multiple of 8 bytes
}

// Correct twins: a uint64_t barrier, barriers at multiples of 8 in a pool,
// an array of barriers.
__global__ void alignedBarriers(const float *g) {
  __shared__ alignas(128) char pool[1024];
  __shared__ uint64_t full[4];
  __shared__ uint64_t one;
  extern __shared__ __align__(16) unsigned char smem[];
  uint64_t *carved = reinterpret_cast<uint64_t *>(pool + 8);
  initBarrier(carved, 1);
  initBarrier(&full[3], 1);
  initBarrier(&one, 1);
  ptx::mbarrier_init(reinterpret_cast<uint64_t *>(smem + 4096 + 16), 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, pool + 128, g, 64,
                     &full[1]);
}

// A barrier in a local variable is in local memory, not shared memory:
// directly, as an array element, and through a helper.
__global__ void localBarrier(const float *g) {
  __shared__ alignas(128) float tile[256];
  uint64_t bar;
  ptx::mbarrier_init(&bar, 1);
  uint64_t stages[2];
  initBarrier(&stages[1], 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, g, 64,
                     &bar);
  // CHECK-MESSAGES: :[[@LINE-5]]:22: warning: cuda::ptx::mbarrier_init mbarrier address is a local variable's, in local memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-7]]:12: note: 'bar' is declared here
  // CHECK-MESSAGES: :[[@LINE-7]]:22: note: declare the barrier __shared__
  // CHECK-MESSAGES: :[[@LINE-6]]:15: warning: mbarrier.init mbarrier address is a local variable's, in local memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-8]]:12: note: 'stages' is declared here
  // CHECK-MESSAGES: :[[@LINE-76]]:3: note: passed to the mbarrier operand of mbarrier.init here
  // CHECK-MESSAGES: :[[@LINE-9]]:15: note: declare the barrier __shared__
  // CHECK-MESSAGES: :[[@LINE-8]]:22: warning: cuda::ptx::cp_async_bulk mbarrier address is a local variable's, in local memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-14]]:12: note: 'bar' is declared here
  // CHECK-MESSAGES: :[[@LINE-10]]:22: note: declare the barrier __shared__
}

// Correct twins: shared barriers, a pointer into shared memory held in a
// local, and an element of what a local pointer points to.
__global__ void sharedThroughLocals(const float *g) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t bars[2];
  uint64_t *p = bars;
  ptx::mbarrier_init(p, 1);
  initBarrier(&p[1], 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, g, 64, p);
}

// A barrier that is a __device__ variable lives in global memory, a
// __constant__ one in constant memory: directly, as an array element or a
// field, and through the helper (reported at each caller's argument).
__device__ uint64_t globalBar;
__device__ uint64_t globalBars[4];
struct BarrierPair {
  uint64_t full;
  uint64_t empty;
};
__device__ BarrierPair globalPair;
__constant__ uint64_t constantBar;

__global__ void globalBarrier(const float *g) {
  __shared__ alignas(128) float tile[256];
  ptx::mbarrier_init(&globalBar, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::mbarrier_init mbarrier address is a __device__ variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-13]]:21: note: 'globalBar' is declared here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: declare the barrier __shared__
  initBarrier(&globalBars[2], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: mbarrier.init mbarrier address is a __device__ variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-16]]:21: note: 'globalBars' is declared here
  // CHECK-MESSAGES: :{{[0-9]+}}:3: note: passed to the mbarrier operand of mbarrier.init here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: declare the barrier __shared__
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, g, 64,
                     &globalPair.full);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::cp_async_bulk mbarrier address is a __device__ variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-17]]:24: note: 'globalPair' is declared here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: declare the barrier __shared__
  initBarrier(const_cast<uint64_t *>(&constantBar), 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: mbarrier.init mbarrier address is a __constant__ variable's, in constant memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-20]]:23: note: 'constantBar' is declared here
  // CHECK-MESSAGES: :{{[0-9]+}}:3: note: passed to the mbarrier operand of mbarrier.init here
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: declare the barrier __shared__
}

// Correct twins: __shared__ variables at namespace scope, an extern
// __shared__ pool, and a __device__ pointer's pointee (its state space is
// not the variable's).
__shared__ uint64_t fileSharedBar;
__shared__ BarrierPair fileSharedPair;
__device__ uint64_t *barPointer;

__global__ void sharedGlobals(const float *g) {
  __shared__ alignas(128) float tile[256];
  extern __shared__ __align__(16) uint64_t dynamicBars[];
  ptx::mbarrier_init(&fileSharedBar, 1);
  initBarrier(&fileSharedPair.empty, 1);
  initBarrier(&dynamicBars[1], 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, g, 64,
                     &fileSharedPair.full);
  ptx::mbarrier_init(barPointer, 1);
  ptx::mbarrier_init(&barPointer[1], 1);
}

// A static local of device code lives in global memory too; a static
// __shared__ one is shared memory (correct twin).
__device__ void staticBarriers() {
  static uint64_t once;
  ptx::mbarrier_init(&once, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::mbarrier_init mbarrier address is a static local variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: 'once' is declared here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: declare the barrier __shared__
  static __shared__ uint64_t shared;
  ptx::mbarrier_init(&shared, 1);
}

// A local pointer that keeps a non-shared barrier's address (never
// written after its initialisation) is that address; a reassigned one is
// not proven (silent).
__global__ void barrierThroughPointer(bool flip) {
  uint64_t *g = &globalBars[1];
  ptx::mbarrier_init(g, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::mbarrier_init mbarrier address is a __device__ variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-MESSAGES: :{{[0-9]+}}:21: note: 'globalBars' is declared here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: declare the barrier __shared__
  __shared__ uint64_t shared;
  uint64_t *moved = &globalBar;
  if (flip)
    moved = &shared;
  ptx::mbarrier_init(moved, 1);
}
