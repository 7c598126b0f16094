// MBAR-TX-EQUALS-BYTES through a barrier class whose members reach the
// barrier word through an accessor, tilelang's `Barrier` shape: a pool of
// words cast to the class, `expect_transaction(n)` calling a free helper
// with `storage()`, which returns `*const_cast<uint64_t *>(&barrier_)`; the
// copy helper takes the object itself (`Barrier &`). The accessor
// designates the one word the class wraps, the object the copy names, so
// the expect-tx and the copy are on one barrier. The wrong kernel expects
// 4096 bytes for a 2048-byte copy; its twin expects 2048. An accessor that
// takes an argument is not followed (silent, the expect-tx unnamed).
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

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
__device__ __forceinline__ void barExpectTx(uint64_t &b, uint32_t bytes) {
  uint32_t a = toShared(&b);
  asm volatile("mbarrier.expect_tx.shared::cta.b64 [%1], %0;"
               :
               : "r"(bytes), "r"(a));
}
__device__ __forceinline__ void barArrive(uint64_t &b) {
  uint32_t a = toShared(&b);
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" : : "r"(a));
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
  __device__ void expect_transaction(uint32_t n) const {
    barExpectTx(storage(), n);
  }
  __device__ void expectAt(uint32_t n) const { barExpectTx(word(0), n); }
  __device__ void arrive() const { barArrive(storage()); }
};

// A bulk copy completing on the barrier object, tilelang's `tma_load` way.
template <typename BarrierType>
__device__ __forceinline__ void bulkLoad(BarrierType &bar, void *dst,
                                         const void *src, uint32_t bytes) {
  uint32_t b = toShared(reinterpret_cast<uint64_t *>(&bar));
  uint32_t d = toShared(dst);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];"
               :
               : "r"(d), "l"(src), "r"(bytes), "r"(b)
               : "memory");
}

__global__ void __launch_bounds__(128) expectsTooMuch(const float *src) {
  __shared__ alignas(128) float tile[512];
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (threadIdx.x == 0) {
    mbarrier[0].init(1);
    mbarrier[0].expect_transaction(4096);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 4096 bytes on 'mbarrier[0]' but the copies completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    bulkLoad(mbarrier[0], tile, src, 2048);
    mbarrier[0].arrive();
  }
}

__global__ void __launch_bounds__(128) expectsTheCopy(const float *src) {
  __shared__ alignas(128) float tile[512];
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (threadIdx.x == 0) {
    mbarrier[0].init(1);
    mbarrier[0].expect_transaction(2048);
    bulkLoad(mbarrier[0], tile, src, 2048);
    mbarrier[0].arrive();
  }
}

__global__ void __launch_bounds__(128) accessorWithArgument(const float *src) {
  __shared__ alignas(128) float tile[512];
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (threadIdx.x == 0) {
    mbarrier[0].init(1);
    mbarrier[0].expectAt(4096);
    bulkLoad(mbarrier[0], tile, src, 2048);
    mbarrier[0].arrive();
  }
}
