// MBAR-TX-EQUALS-BYTES through methods that reach their barrier through a
// pointer field, the shape of hand-written pipelines: a barrier handle
// holding `uint64_t *bar`, a producer/consumer pipeline holding `TxBarrier
// *full` whose methods call the barrier's own methods (`full->expect(n)`)
// and pass `&full->barrier_` to copy helpers, and a method calling another
// method of its own object. The barrier is the pointee of the caller's
// field (`pipe.full->barrier_`); a write of the pipeline object between the
// ops may redirect it, and another operand naming the same barrier directly
// may alias it: both silent. Each wrong kernel has a correct twin (the
// other instantiation).
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static __forceinline__ uint32_t smem_u32(const void *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

__device__ static __forceinline__ void load_bulk(void *dst, const void *src,
                                                 uint32_t bytes,
                                                 uint64_t *bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :: "r"(smem_u32(dst)), "l"(src), "r"(bytes), "r"(smem_u32(bar))
      : "memory");
}

// A barrier handle: the barrier lives elsewhere in shared memory.
struct BarrierRef {
  uint64_t *bar;
  __device__ void expect(uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(bar)), "r"(bytes));
  }
  __device__ void load(void *dst, const void *src, uint32_t bytes) {
    load_bulk(dst, src, bytes, bar);
  }
};

template <uint32_t Tail>
__global__ void handle(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t full;
  BarrierRef b{&full};
  if (threadIdx.x == 0) {
    b.expect(2048);
    b.load(buf, src, 1024);
    b.load(buf + 1024, src + 1024, Tail);
  }
}
template __global__ void handle<1008>(const char *);
template __global__ void handle<1024>(const char *);

// A hand-written transaction barrier and a pipeline over it.
struct TxBarrier {
  uint64_t barrier_;
  __device__ void arrive_and_expect_tx(uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem_u32(&barrier_)), "r"(bytes));
  }
};

struct Pipeline {
  TxBarrier *full;
  __device__ void produce(uint32_t bytes) { full->arrive_and_expect_tx(bytes); }
  __device__ void load(void *dst, const void *src, uint32_t bytes) {
    load_bulk(dst, src, bytes, &full->barrier_);
  }
  // Another method of the same object.
  __device__ void produceTile(uint32_t bytes) { produce(bytes); }
};

template <uint32_t Tail>
__global__ void pipeline(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ TxBarrier fullBar;
  Pipeline pipe{&fullBar};
  if (threadIdx.x == 0) {
    pipe.produce(2048);
    pipe.load(buf, src, 1024);
    pipe.load(buf + 1024, src + 1024, Tail);
  }
}
template __global__ void pipeline<1008>(const char *);
template __global__ void pipeline<1024>(const char *);

template <uint32_t Tail>
__global__ void pipelineOwnMethod(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ TxBarrier fullBar;
  Pipeline pipe{&fullBar};
  if (threadIdx.x == 0) {
    pipe.produceTile(2048);
    pipe.load(buf, src, 1024);
    pipe.load(buf + 1024, src + 1024, Tail);
  }
}
template __global__ void pipelineOwnMethod<1008>(const char *);
template __global__ void pipelineOwnMethod<1024>(const char *);

// Silent: the pipeline's pointer is redirected between its ops (each count
// is wrong for one barrier, so a careless model would report).
__global__ void redirected(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ TxBarrier fullBar, otherBar;
  Pipeline pipe{&fullBar};
  if (threadIdx.x == 0) {
    pipe.produce(2048);
    pipe.load(buf, src, 1024);
    pipe.full = &otherBar;
    pipe.load(buf + 1024, src + 1024, 1024);
  }
}

// Silent: the same barrier named through the pipeline and directly (the
// model does not prove which pointer designates which barrier).
__global__ void namedTwice(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ TxBarrier fullBar;
  Pipeline pipe{&fullBar};
  if (threadIdx.x == 0) {
    pipe.produce(2048);
    load_bulk(buf, src, 1024, &fullBar.barrier_);
  }
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :50:5: warning: expect-tx of 2048 bytes on 'b.bar' but the copies completing on it in this phase deliver 2032 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :51:5: note: this copy delivers 1024 bytes to 'b.bar'
// CHECK-MESSAGES: :52:5: note: this copy delivers 1008 bytes to 'b.bar'
// CHECK-MESSAGES: :50:5: note: expect 2032 bytes
// CHECK-MESSAGES: :83:5: warning: expect-tx of 2048 bytes on 'pipe.full->barrier_' but the copies completing on it in this phase deliver 2032 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :84:5: note: this copy delivers 1024 bytes to 'pipe.full->barrier_'
// CHECK-MESSAGES: :85:5: note: this copy delivers 1008 bytes to 'pipe.full->barrier_'
// CHECK-MESSAGES: :83:5: note: expect 2032 bytes
// CHECK-MESSAGES: :97:5: warning: expect-tx of 2048 bytes on 'pipe.full->barrier_' but the copies completing on it in this phase deliver 2032 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :98:5: note: this copy delivers 1024 bytes to 'pipe.full->barrier_'
// CHECK-MESSAGES: :99:5: note: this copy delivers 1008 bytes to 'pipe.full->barrier_'
// CHECK-MESSAGES: :97:5: note: expect 2032 bytes
