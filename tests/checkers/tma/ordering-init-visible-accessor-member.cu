// MBAR-INIT-VISIBLE on barriers of a barrier class reached through an
// accessor member, the shape tilelang's generated kernels have: a pool of
// words cast to the class (`auto mbarrier = reinterpret_cast<Barrier
// *>(mbarrier_mem)`), whose members call free helpers with `storage()`,
// an accessor returning `*const_cast<uint64_t *>(&barrier_)`. The call
// designates what its one return designates, `this` standing for the
// object it is called on, so `mbarrier[0].init(n)` is an init of
// mbarrier_mem's word 0. The wrong kernel waits in every thread with no
// thread barrier after the init; its twin has the fence and the barrier.
// An accessor that takes an argument is not followed (silent, unnamed).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t toShared(void const *const p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barInit(uint64_t &b, uint32_t n) {
  uint32_t a = toShared(&b);
  asm volatile("mbarrier.init.shared::cta.b64 [%1], %0;" : : "r"(n), "r"(a));
}
__device__ __forceinline__ void barWait(uint64_t &b, int p) {
  uint32_t a = toShared(&b);
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}" ::"r"(a),
               "r"(p));
}
__device__ __forceinline__ void fenceInit() {
  asm volatile("fence.mbarrier_init.release.cluster;" : :);
}

struct alignas(8) Barrier {
  uint64_t barrier_;
  __device__ uint64_t &storage() const {
    return *const_cast<uint64_t *>(&barrier_);
  }
  __device__ uint64_t &word(int i) const {
    return *(const_cast<uint64_t *>(&barrier_) + i);
  }
  __device__ void init(uint32_t n) const { barInit(storage(), n); }
  __device__ void wait(uint32_t p) const { barWait(storage(), p); }
  __device__ void initAt(uint32_t n) const { barInit(word(0), n); }
  __device__ void waitAt(uint32_t p) const { barWait(word(0), p); }
};

__global__ void __launch_bounds__(128) noSyncAfterInit() {
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (((int)threadIdx.x) == 0) {
    mbarrier[0].init(1);
    mbarrier[1].init(1);
  }
  mbarrier[0].wait(0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'mbarrier_mem.barrier_' is used by all threads here after its mbarrier.init at line 55 with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :55:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :24:3: note: issued here
  // CHECK-FIXES: {{^}}    mbarrier[1].init(1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  mbarrier[0].wait(0);{{$}}
}

__global__ void __launch_bounds__(128) syncAfterInit() {
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (((int)threadIdx.x) == 0) {
    mbarrier[0].init(1);
    mbarrier[1].init(1);
  }
  fenceInit();
  __syncthreads();
  mbarrier[0].wait(0);
}

__global__ void __launch_bounds__(128) accessorWithArgument() {
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (((int)threadIdx.x) == 0)
    mbarrier[0].initAt(1);
  mbarrier[0].waitAt(0);
}
