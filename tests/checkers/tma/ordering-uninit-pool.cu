// MBAR-UNINIT on barriers in a struct laid over the dynamic shared-memory
// pool (`extern __shared__ char smem[]; S &s = *reinterpret_cast<S
// *>(smem);`, as fast.cu and CUTLASS's tutorials write it): the struct is
// the kernel's own when no code the kernel may call names an `extern
// __shared__` variable, so its members are the kernel's barriers, judged
// per member (`smem.full` apart from `smem.empty` and the tiles). Wrong
// kernels and their correct twins; a helper that names the pool too, a
// pool used other than through the struct, and a struct passed whole to a
// helper stay silent (ordering-explain-pool.cu says why).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ void arriveOn(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a)
               : "memory");
}
__device__ void load(float *dst, const void *src, uint32_t n, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(static_cast<uint32_t>(
                                                     __cvta_generic_to_shared(
                                                         dst))),
               "l"(src), "r"(n),
               "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar)))
               : "memory");
}
__device__ void waitOn(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(static_cast<uint32_t>(
                                          __cvta_generic_to_shared(bar))),
               "r"(phase)
               : "memory");
}

constexpr int S = 4;
struct Storage {
  alignas(128) float A[S][256];
  alignas(8) uint64_t full[S], empty[S];
};

// The full barriers are never initialised (only the empty ones are).
__global__ void poolFullUninit(const float *src, float *out) {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  uint64_t *full = s.full, *empty = s.empty;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i)
      initBarrier(&empty[i], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[1], 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'smem.full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(s.A[1], src, 1024, &full[1]);
  }
  waitOn(&full[1], 0);
  out[threadIdx.x] = s.A[1][threadIdx.x];
  arriveOn(&empty[1]);
}

__global__ void poolInit(const float *src, float *out) {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  uint64_t *full = s.full, *empty = s.empty;
  if (threadIdx.x == 0)
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 1);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[1], 1024);
    load(s.A[1], src, 1024, &full[1]);
  }
  waitOn(&full[1], 0);
  out[threadIdx.x] = s.A[1][threadIdx.x];
  arriveOn(&empty[1]);
}

// The struct through a pointer, the barrier member named in the ops
// themselves (`&st->full[1]`), in a kernel template.
template <int N>
__global__ void poolPointerUninit(const float *src, float *out) {
  extern __shared__ __align__(128) char pool[];
  auto *st = reinterpret_cast<Storage *>(pool);
  if (threadIdx.x == 0)
    initBarrier(&st->empty[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&st->full[0], N);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'pool.full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    load(st->A[0], src, N, &st->full[0]);
  }
  waitOn(&st->full[0], 0);
  out[threadIdx.x] = st->A[0][threadIdx.x];
}

template <int N>
__global__ void poolPointerInit(const float *src, float *out) {
  extern __shared__ __align__(128) char pool[];
  auto *st = reinterpret_cast<Storage *>(pool);
  if (threadIdx.x == 0)
    initBarrier(&st->full[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&st->full[0], N);
    load(st->A[0], src, N, &st->full[0]);
  }
  waitOn(&st->full[0], 0);
  out[threadIdx.x] = st->A[0][threadIdx.x];
}

// A helper the kernel calls names the pool itself: it may initialise the
// barriers through its own view of it.
__device__ void initThroughPool() {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  if (threadIdx.x == 0)
    initBarrier(&s.full[1], 1);
}
__device__ void prepare() { initThroughPool(); }

__global__ void poolInitElsewhere(const float *src, float *out) {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  uint64_t *full = s.full;
  prepare();
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full[1], 1024);
    load(s.A[1], src, 1024, &full[1]);
  }
  waitOn(&full[1], 0);
  out[threadIdx.x] = s.A[1][threadIdx.x];
}

// The struct goes whole to a helper the model does not judge: it may
// initialise the barriers.
__device__ void setUp(Storage &st, int n);
__global__ void poolPassedWhole(const float *src, float *out) {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  setUp(s, 4);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&s.full[1], 1024);
    load(s.A[1], src, 1024, &s.full[1]);
  }
  waitOn(&s.full[1], 0);
  out[threadIdx.x] = s.A[1][threadIdx.x];
}

void launch(const float *src, float *out) {
  poolFullUninit<<<1, 128, sizeof(Storage)>>>(src, out);
  poolInit<<<1, 128, sizeof(Storage)>>>(src, out);
  poolPointerUninit<1024><<<1, 128, sizeof(Storage)>>>(src, out);
  poolPointerInit<1024><<<1, 128, sizeof(Storage)>>>(src, out);
  poolInitElsewhere<<<1, 128, sizeof(Storage)>>>(src, out);
  poolPassedWhole<<<1, 128, sizeof(Storage)>>>(src, out);
}
