// MBAR-TX-EQUALS-BYTES across a loop boundary (issue 10), with the waits
// real kernels write at the top of the loop body: a C++ loop that spins on
// one try (`while (!try_wait(bar, phase)) {}`: ThunderKittens-like and
// CUTLASS-like helpers that return the try_wait's predicate, and
// cuda::ptx::mbarrier_try_wait_parity), and cuda::barrier's
// arrive_and_wait and wait_parity (the Programming Guide's barrier). The
// wait must name the phase each iteration issues into: a parity that flips
// once per iteration from the prologue's phase 0 (the barrier initialised
// before the loop), or the barrier's current phase itself. Each prologue
// below forgets half of its bytes; where the phases are proven separate it
// is reported, each correct twin stays silent, and a stale parity, a single
// try or a spin loop that does more than spin leave the phases unknown.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
constexpr uint32_t Tile = 4096;

// ThunderKittens-like helpers: the barrier by reference, one try that
// returns the wait's predicate.
namespace tk {
struct semaphore {
  uint64_t value;
};
__device__ static inline void init_semaphore(semaphore &bar, int count) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar_ptr),
               "r"(count));
}
__device__ static inline void expect_bytes(semaphore &bar, uint32_t bytes) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   bar_ptr),
               "r"(bytes));
}
__device__ static inline void load_async(void *dst, const void *src,
                                         uint32_t bytes, semaphore &bar) {
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst_ptr),
               "l"(src), "r"(bytes), "r"(mbar_ptr)
               : "memory");
}
__device__ static inline bool try_wait(semaphore &bar, int phase) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint32_t done;
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n"
               "selp.b32 %0, 1, 0, P1;\n"
               "}\n"
               : "=r"(done)
               : "r"(bar_ptr), "r"(phase));
  return done;
}
// Returns true whatever the wait said.
__device__ static inline bool try_wait_once(semaphore &bar, int phase) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint32_t done;
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n"
               "selp.b32 %0, 1, 0, P1;\n"
               "}\n"
               : "=r"(done)
               : "r"(bar_ptr), "r"(phase));
  return true;
}
} // namespace tk

__global__ void tkPrologueShort(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int tic = 0, toc = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    tk::load_async(As[tic], a, Tile, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: this copy delivers 4096 bytes to 'bar'
    tk::load_async(Bs[tic], b, Tile, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: this copy delivers 4096 bytes to 'bar'
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: expect 8192 bytes
  }
  __syncthreads();
  for (int k = 0; k < k_tiles; ++k, tic ^= 1, toc ^= 1) {
    while (!tk::try_wait(bar, tic)) {
    }
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[toc], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[toc], b + (k + 1) * Tile, Tile, bar);
    }
    __syncthreads();
  }
}

// Counted right: silent.
__global__ void tkCounted(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int tic = 0, toc = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, 2 * Tile);
    tk::load_async(As[tic], a, Tile, bar);
    tk::load_async(Bs[tic], b, Tile, bar);
  }
  __syncthreads();
  for (int k = 0; k < k_tiles; ++k, tic ^= 1, toc ^= 1) {
    while (!tk::try_wait(bar, tic)) {
    }
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[toc], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[toc], b + (k + 1) * Tile, Tile, bar);
    }
    __syncthreads();
  }
}

// The flip comes first in the body, from 1: iteration k still waits on
// parity k & 1.
__global__ void tkFlipFirst(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int phase = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    tk::load_async(As[0], a, Tile, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: this copy delivers 4096 bytes to 'bar'
    tk::load_async(Bs[0], b, Tile, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: this copy delivers 4096 bytes to 'bar'
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: expect 8192 bytes
  }
  for (int k = 0; k < k_tiles; ++k) {
    phase ^= 1;
    while (!tk::try_wait(bar, phase)) {
    }
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[1], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[1], b + (k + 1) * Tile, Tile, bar);
    }
  }
}

// Silent from here on: each prologue's count looks short, but the wait
// does not prove that the prologue's phase completed first.

// The parity never flips: from iteration 1 on, the wait returns at once on
// the phase before.
__global__ void tkStaleParity(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    tk::load_async(As[0], a, Tile, bar);
    tk::load_async(Bs[0], b, Tile, bar);
  }
  for (int k = 0; k < k_tiles; ++k) {
    while (!tk::try_wait(bar, 0)) {
    }
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[1], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[1], b + (k + 1) * Tile, Tile, bar);
    }
  }
}

// Flipped before the wait from 0: iteration 0 waits on parity 1, the phase
// before the prologue's, and returns at once.
__global__ void tkFlipFirstFromZero(const char *a, const char *b,
                                    int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int phase = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    tk::load_async(As[0], a, Tile, bar);
    tk::load_async(Bs[0], b, Tile, bar);
  }
  for (int k = 0; k < k_tiles; ++k) {
    phase ^= 1;
    while (!tk::try_wait(bar, phase)) {
    }
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[1], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[1], b + (k + 1) * Tile, Tile, bar);
    }
  }
}

// A helper that does not return the wait's predicate.
__global__ void tkNotThePredicate(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    tk::load_async(As[0], a, Tile, bar);
    tk::load_async(Bs[0], b, Tile, bar);
  }
  for (int k = 0; k < k_tiles; ++k, tic ^= 1) {
    while (!tk::try_wait_once(bar, tic)) {
    }
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[1], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[1], b + (k + 1) * Tile, Tile, bar);
    }
  }
}

// The spin loop issues the next loads itself.
__global__ void tkBusySpin(const char *a, const char *b, int k_tiles) {
  __shared__ alignas(128) char As[2][Tile], Bs[2][Tile];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, Tile);
    tk::load_async(As[0], a, Tile, bar);
    tk::load_async(Bs[0], b, Tile, bar);
  }
  for (int k = 0; k < k_tiles; ++k, tic ^= 1) {
    while (!tk::try_wait(bar, tic)) {
      tk::load_async(As[1], a, Tile, bar);
    }
    if (threadIdx.x == 0 && k + 1 < k_tiles) {
      tk::expect_bytes(bar, 2 * Tile);
      tk::load_async(As[1], a + (k + 1) * Tile, Tile, bar);
      tk::load_async(Bs[1], b + (k + 1) * Tile, Tile, bar);
    }
  }
}

// cuda::ptx, hand-written-kernel style: the parity is k & 1.
__global__ void ptxPrologueShort(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, Tile / 2);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[0], a, Tile,
                       &bar);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: this copy delivers 4096 bytes to 'bar'
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: expect 4096 bytes
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    while (!ptx::mbarrier_try_wait_parity(&bar, k & 1)) {
    }
    if (threadIdx.x == 0 && k + 1 < n) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, Tile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                         buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &bar);
    }
  }
}

// Counted right: silent.
__global__ void ptxCounted(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, Tile);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[0], a, Tile,
                       &bar);
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    while (!ptx::mbarrier_try_wait_parity(&bar, k & 1)) {
    }
    if (threadIdx.x == 0 && k + 1 < n) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, Tile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                         buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &bar);
    }
  }
}

// The parity (k / 2) & 1 flips every second iteration: silent.
__global__ void ptxSlowParity(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, Tile / 2);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[0], a, Tile,
                       &bar);
  }
  for (int k = 0; k < n; ++k) {
    while (!ptx::mbarrier_try_wait_parity(&bar, (k / 2) & 1)) {
    }
    if (threadIdx.x == 0 && k + 1 < n) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, Tile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                         buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &bar);
    }
  }
}

// One try, not looped: silent.
__global__ void ptxSingleTry(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, Tile / 2);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf[0], a, Tile,
                       &bar);
  }
  for (int k = 0; k < n; ++k) {
    bool done = ptx::mbarrier_try_wait_parity(&bar, k & 1);
    if (threadIdx.x == 0 && k + 1 < n && done) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, Tile);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                         buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &bar);
    }
  }
}

// The Programming Guide's cuda::barrier: every thread arrives and waits at
// the top of the loop body (the current phase: no parity to check).
__global__ void guideArriveAndWait(const float *g, int n) {
  __shared__ alignas(16) float s[2][256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x + 1);
    cuda::device::memcpy_async_tx(s[0], g,
                                  cuda::aligned_size_t<16>(sizeof(s[0])), bar);
    cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]) / 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 512 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: this copy delivers 1024 bytes to 'bar'
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: expect 1024 bytes
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    bar.arrive_and_wait();
    if (threadIdx.x == 0 && k + 1 < n) {
      cuda::device::memcpy_async_tx(s[(k + 1) & 1], g + (k + 1) * 256,
                                    cuda::aligned_size_t<16>(sizeof(s[0])),
                                    bar);
      cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]));
    }
  }
}

// Counted right: silent.
__global__ void guideCounted(const float *g, int n) {
  __shared__ alignas(16) float s[2][256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x + 1);
    cuda::device::memcpy_async_tx(s[0], g,
                                  cuda::aligned_size_t<16>(sizeof(s[0])), bar);
    cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]));
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    bar.arrive_and_wait();
    if (threadIdx.x == 0 && k + 1 < n) {
      cuda::device::memcpy_async_tx(s[(k + 1) & 1], g + (k + 1) * 256,
                                    cuda::aligned_size_t<16>(sizeof(s[0])),
                                    bar);
      cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]));
    }
  }
}

// wait_parity with the iteration's parity.
__global__ void guideWaitParity(const float *g, int n) {
  __shared__ alignas(16) float s[2][256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, 1);
    cuda::device::memcpy_async_tx(s[0], g,
                                  cuda::aligned_size_t<16>(sizeof(s[0])), bar);
    cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]) / 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 512 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: this copy delivers 1024 bytes to 'bar'
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: expect 1024 bytes
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    bar.wait_parity(k % 2);
    if (threadIdx.x == 0 && k + 1 < n) {
      cuda::device::memcpy_async_tx(s[(k + 1) & 1], g + (k + 1) * 256,
                                    cuda::aligned_size_t<16>(sizeof(s[0])),
                                    bar);
      cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]));
    }
  }
}

// wait_parity on a stale parity: silent.
__global__ void guideStaleParity(const float *g, int n) {
  __shared__ alignas(16) float s[2][256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, 1);
    cuda::device::memcpy_async_tx(s[0], g,
                                  cuda::aligned_size_t<16>(sizeof(s[0])), bar);
    cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]) / 2);
  }
  for (int k = 0; k < n; ++k) {
    bar.wait_parity(false);
    if (threadIdx.x == 0 && k + 1 < n) {
      cuda::device::memcpy_async_tx(s[(k + 1) & 1], g + (k + 1) * 256,
                                    cuda::aligned_size_t<16>(sizeof(s[0])),
                                    bar);
      cuda::device::barrier_arrive_tx(bar, 1, sizeof(s[0]));
    }
  }
}

// CUTLASS-like: a barrier class written by hand (ClusterBarrier's try_wait
// returns the predicate through selp), the phase flipped after the wait.
__device__ inline uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void bulk_load(void *dst, const void *src, uint32_t bytes,
                                 uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smem(dst)),
               "l"(src), "r"(bytes), "r"(smem(bar))
               : "memory");
}
struct ClusterBarrierLike {
  uint64_t bar;
  __device__ void init(uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&bar)),
                 "r"(count));
  }
  __device__ void arrive_and_expect_tx(uint32_t bytes) {
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
            smem(&bar)),
        "r"(bytes));
  }
  __device__ bool try_wait(uint32_t phase) {
    uint32_t ready;
    asm volatile("{\n\t.reg .pred P1;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, P1;\n\t}"
                 : "=r"(ready)
                 : "r"(smem(&bar)), "r"(phase));
    return static_cast<bool>(ready);
  }
};

__global__ void cutlassPrologueShort(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ ClusterBarrierLike full;
  uint32_t phase = 0;
  if (threadIdx.x == 0) {
    full.init(1);
    full.arrive_and_expect_tx(Tile / 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'full.bar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    bulk_load(buf[0], a, Tile, &full.bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: this copy delivers 4096 bytes to 'full.bar'
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: expect 4096 bytes
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    while (!full.try_wait(phase)) {
    }
    phase ^= 1;
    if (threadIdx.x == 0 && k + 1 < n) {
      full.arrive_and_expect_tx(Tile);
      bulk_load(buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &full.bar);
    }
  }
}

// Counted right: silent.
__global__ void cutlassCounted(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ ClusterBarrierLike full;
  uint32_t phase = 0;
  if (threadIdx.x == 0) {
    full.init(1);
    full.arrive_and_expect_tx(Tile);
    bulk_load(buf[0], a, Tile, &full.bar);
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    while (!full.try_wait(phase)) {
    }
    phase ^= 1;
    if (threadIdx.x == 0 && k + 1 < n) {
      full.arrive_and_expect_tx(Tile);
      bulk_load(buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &full.bar);
    }
  }
}

// The phase is flipped twice per iteration: silent.
__global__ void cutlassDoubleFlip(const char *a, int n) {
  __shared__ alignas(128) char buf[2][Tile];
  __shared__ ClusterBarrierLike full;
  uint32_t phase = 0;
  if (threadIdx.x == 0) {
    full.init(1);
    full.arrive_and_expect_tx(Tile / 2);
    bulk_load(buf[0], a, Tile, &full.bar);
  }
  for (int k = 0; k < n; ++k) {
    while (!full.try_wait(phase)) {
    }
    phase ^= 1;
    if (threadIdx.x == 0 && k + 1 < n) {
      full.arrive_and_expect_tx(Tile);
      bulk_load(buf[(k + 1) & 1], a + (k + 1) * Tile, Tile, &full.bar);
    }
    phase ^= 1;
  }
}

void run(const char *a, const char *b, const float *g, int n) {
  cutlassPrologueShort<<<1, 128>>>(a, n);
  cutlassCounted<<<1, 128>>>(a, n);
  cutlassDoubleFlip<<<1, 128>>>(a, n);
  tkPrologueShort<<<1, 128>>>(a, b, n);
  tkCounted<<<1, 128>>>(a, b, n);
  tkFlipFirst<<<1, 128>>>(a, b, n);
  tkStaleParity<<<1, 128>>>(a, b, n);
  tkFlipFirstFromZero<<<1, 128>>>(a, b, n);
  tkNotThePredicate<<<1, 128>>>(a, b, n);
  tkBusySpin<<<1, 128>>>(a, b, n);
  ptxPrologueShort<<<1, 128>>>(a, n);
  ptxCounted<<<1, 128>>>(a, n);
  ptxSlowParity<<<1, 128>>>(a, n);
  ptxSingleTry<<<1, 128>>>(a, n);
  guideArriveAndWait<<<1, 128>>>(g, n);
  guideCounted<<<1, 128>>>(g, n);
  guideWaitParity<<<1, 128>>>(g, n);
  guideStaleParity<<<1, 128>>>(g, n);
}
