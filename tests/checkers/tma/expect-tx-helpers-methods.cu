// MBAR-TX-EQUALS-BYTES through the shapes production kernels are written in:
// address helpers around __cvta_generic_to_shared (hand-written inline-PTX
// GEMMs), helpers that call them, static and non-static methods of a
// hand-written transaction barrier (`this` followed to the caller's object),
// and arrival tokens, which are values rather than aliases of the barrier
// (the CUDA Programming Guide's `bar.wait(std::move(token))`). Each
// positive case has a correct twin that stays silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace cuda {
__device__ void init(block_barrier *bar, ptrdiff_t expected);
}
// <utility>'s std::move, which the stub headers lack.
namespace std {
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T>
__host__ __device__ constexpr typename remove_reference<T>::type &&
move(T &&t) noexcept {
  return static_cast<typename remove_reference<T>::type &&>(t);
}
} // namespace std

// The one-line address helper of hand-written GEMMs.
__device__ static __forceinline__ uint32_t smem_u32(const void *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

//===----------------------------------------------------------------------===//
// Address helpers in the kernel
//===----------------------------------------------------------------------===//

__global__ void cvtaHelper(const char *src) {
  __shared__ alignas(16) char buf[1040];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(&bar)), "r"(1024));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: expect-tx of 1024 bytes on 'bar' but the copies completing on it in this phase deliver 1040 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-FIXES: {{^}}                 :: "r"(smem_u32(&bar)), "r"(1040));{{$}}
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(smem_u32(buf)), "l"(src), "r"(1040), "r"(smem_u32(&bar))
        : "memory");
  }
}

__global__ void cvtaHelperCorrect(const char *src) {
  __shared__ alignas(16) char buf[1040];
  __shared__ uint64_t bar;
  uint32_t bar_addr = smem_u32(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(bar_addr), "r"(1040));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(smem_u32(buf)), "l"(src), "r"(1040), "r"(bar_addr)
        : "memory");
  }
}

//===----------------------------------------------------------------------===//
// Helpers that call the address helper still run straight through
//===----------------------------------------------------------------------===//

__device__ static __forceinline__ void expect_bytes(uint64_t *bar,
                                                    uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "r"(smem_u32(bar)), "r"(bytes));
}

__device__ static __forceinline__ void load_bulk(void *dst, const void *src,
                                                 uint32_t bytes,
                                                 uint64_t *bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(smem_u32(dst)), "l"(src), "r"(bytes), "r"(smem_u32(bar))
      : "memory");
}

template <uint32_t Tail>
__global__ void helperHelpers(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    expect_bytes(&bar, 2048);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 2032 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    load_bulk(buf, src, 1024, &bar);
    load_bulk(buf + 1024, src + 1024, Tail, &bar);
  }
}
template __global__ void helperHelpers<1008>(const char *);
template __global__ void helperHelpers<1024>(const char *);

//===----------------------------------------------------------------------===//
// Arrival tokens are values (CUDA Programming Guide, one-dimensional TMA)
//===----------------------------------------------------------------------===//

template <int Divisor>
__global__ void guideToken(const int *src) {
  __shared__ alignas(16) int smem_data[1024];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    cuda::init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(smem_data, src, sizeof(smem_data), bar);
    auto token =
        cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem_data) / Divisor);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    bar.wait(std::move(token));
  }
}
template __global__ void guideToken<2>(const int *);
template __global__ void guideToken<1>(const int *);

// mbarrier.arrive's state operand: a value, like the token.
__global__ void ptxState(const char *src) {
  __shared__ alignas(16) char buf[512];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    uint64_t state = cuda::ptx::mbarrier_arrive_expect_tx(
        cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared,
        &bar, 512);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, 512, &bar);
    uint64_t copy = std::move(state);
    (void)copy;
  }
}

//===----------------------------------------------------------------------===//
// A hand-written transaction barrier: methods on its own field
//===----------------------------------------------------------------------===//

struct TxBarrier {
  uint64_t barrier_;
  __device__ void init(uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
                 :: "r"(smem_u32(&barrier_)), "r"(count));
  }
  __device__ void arrive_and_expect_tx(uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(&barrier_)), "r"(bytes));
  }
  // CUTLASS's static form: the barrier is a parameter.
  static __device__ void arrive_and_expect_tx(uint64_t *bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(bar)), "r"(bytes));
  }
};

// A stage of a producer/consumer pipeline: the full barrier counts the
// bytes, the empty barrier only arrivals.
struct Stage {
  TxBarrier full;
  TxBarrier empty;
};

template <uint32_t Tail>
__global__ void methods(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ Stage stage;
  if (threadIdx.x == 0) {
    stage.full.init(1);
    stage.empty.init(1);
    stage.full.arrive_and_expect_tx(2048);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'stage.full.barrier_' but the copies completing on it in this phase deliver 2032 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    load_bulk(buf, src, 1024, &stage.full.barrier_);
    load_bulk(buf + 1024, src + 1024, Tail, &stage.full.barrier_);
  }
}
template __global__ void methods<1008>(const char *);
template __global__ void methods<1024>(const char *);

// Through a pointer to the barrier object.
__global__ void methodsThroughPointer(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ TxBarrier full;
  TxBarrier *p = &full;
  if (threadIdx.x == 0) {
    p->arrive_and_expect_tx(1000);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 1000 bytes on 'p->barrier_' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    load_bulk(buf, src, 1024, &p->barrier_);
  }
}

template <uint32_t Bytes>
__global__ void staticMethods(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    TxBarrier::arrive_and_expect_tx(&bar, Bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 2000 bytes on 'bar' but the copies completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    load_bulk(buf, src, 2048, &bar);
  }
}
template __global__ void staticMethods<2000>(const char *);
template __global__ void staticMethods<2048>(const char *);

// A method that also hands its barrier elsewhere: the phase is not known.
__device__ void publish(uint64_t *);
struct LeakyBarrier {
  uint64_t barrier_;
  __device__ void arrive_and_expect_tx(uint32_t bytes) {
    publish(&barrier_);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(&barrier_)), "r"(bytes));
  }
};

__global__ void leaky(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ LeakyBarrier full;
  if (threadIdx.x == 0) {
    full.arrive_and_expect_tx(1000); // silent: unknown
    load_bulk(buf, src, 1024, &full.barrier_);
  }
}
