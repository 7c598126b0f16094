// tma-ordering on the pipeline shapes real code uses, through CUTLASS-like
// helpers and CuTe's TMA atoms: multistage rings with stage = k % S, a
// pipeline object that owns the barriers, warp-specialised
// producer/consumer, persistent tile loops, ping-pong consumers, epilogue
// stores with tma_store_arrive / tma_store_wait<N>. The correct forms stay
// silent; the wrong CuTe epilogues are reported with CuTe's spelling.
// The host pass compiles CuTe's atoms without their device asm (the
// stand-ins guard it with __CUDA_ARCH__ as CuTe does): the finder sees no
// copy there, and the check is silent.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device -I %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device -isystem %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host -I %S/../Inputs/cutlass

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cute/arch/copy_sm90_tma.hpp>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
template <typename = void>
__device__ static inline uint64_t mbarrier_arrive(uint64_t *addr);
} // namespace __4
} // namespace cuda::ptx
namespace ptx = cuda::ptx;

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
} // namespace cute

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}
__device__ void namedBarrierSync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(threads));
}

// --- Wrong CuTe epilogues ------------------------------------------------------

__global__ void cuteNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    cute::SM90_TMA_STORE_2D::copy(&map, smem_c, 0, 0);
    // CHECK-NOTES-DEVICE: :[[@LINE-1]]:5: warning: TMA store reads 'smem_c' written by generic stores at line [[#@LINE-4]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES-DEVICE: :[[@LINE-5]]:23: note: generic store to 'smem_c' here
    // CHECK-NOTES-DEVICE: :[[@LINE-3]]:5: note: each writing thread must execute cute::tma_store_fence() after its stores, before the thread barrier that hands the buffer to the issuing thread
    cute::tma_store_arrive();
    cute::tma_store_wait<0>();
  }
}

// Persistent epilogue, one buffer, tma_store_wait<1>: one group too shallow.
__global__ void cuteShallowWait(const __grid_constant__ CUtensorMap map,
                                int tiles) {
  __shared__ alignas(128) float smem_c[64 * 64];
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0)
      cute::tma_store_wait<1>();
    // CHECK-FIXES-DEVICE: {{^}}      cute::tma_store_wait<0>();{{$}}
    __syncthreads();
    smem_c[threadIdx.x] = static_cast<float>(t);
    // CHECK-NOTES-DEVICE: :[[@LINE-1]]:25: warning: generic store overwrites 'smem_c' while the TMA store at line [[#@LINE+6]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES-DEVICE: :[[@LINE+5]]:7: note: the TMA store reads 'smem_c' here
    // CHECK-NOTES-DEVICE: :[[@LINE-6]]:7: note: wait_group.read 0 would complete the copy's group
    cute::tma_store_fence();
    __syncthreads();
    if (threadIdx.x == 0) {
      cute::SM90_TMA_STORE_2D::copy(&map, smem_c, t, 0);
      cute::tma_store_arrive();
    }
  }
  if (threadIdx.x == 0)
    cute::tma_store_wait<0>();
}

// --- Correct shapes: silent ----------------------------------------------------

// Multistage ring, one warp group: thread 0 refills stage s after all threads
// read it (__syncthreads), stage = k % S, parity = (k / S) & 1.
__global__ void multistageRing(const __grid_constant__ CUtensorMap map,
                               float *out, int iters) {
  constexpr int S = 4;
  __shared__ alignas(128) float A[S][32 * 32];
  __shared__ uint64_t full[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s)
      ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int s = 0; s < S && s < iters; ++s) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], sizeof(A[s]));
      cute::SM90_TMA_LOAD_2D::copy(&map, &full[s], 0, A[s], 0, s * 32);
    }
  float acc = 0;
  for (int k = 0; k < iters; ++k) {
    int s = k % S;
    waitParity(&full[s], (k / S) & 1);
    acc += A[s][threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0 && k + S < iters) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &full[s], sizeof(A[s]));
      cute::SM90_TMA_LOAD_2D::copy(&map, &full[s], 0, A[s], 0, (k + S) * 32);
    }
  }
  out[threadIdx.x] = acc;
}

// A PipelineTmaAsync-like object owning pointers to the barriers of a shared
// storage struct; a producer warp and consumer warps.
template <int S> struct Pipeline {
  uint64_t *full, *empty;
  __device__ void producer_acquire(int s, uint32_t phase) {
    waitParity(&empty[s], phase);
  }
  __device__ void producer_expect(int s, uint32_t bytes) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &full[s], bytes);
  }
  __device__ void consumer_wait(int s, uint32_t phase) {
    waitParity(&full[s], phase);
  }
  __device__ void consumer_release(int s) { ptx::mbarrier_arrive(&empty[s]); }
};
struct Storage {
  alignas(128) float A[4][32 * 32];
  alignas(128) float C[2][64 * 64];
  uint64_t full[4], empty[4];
};

__global__ void pipelineObject(const __grid_constant__ CUtensorMap mapA,
                               const __grid_constant__ CUtensorMap mapC,
                               int iters, int tiles) {
  __shared__ Storage st;
  Pipeline<4> p{st.full, st.empty};
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; ++s) {
      ptx::mbarrier_init(&st.full[s], 1);
      ptx::mbarrier_init(&st.empty[s], 256);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  int warpgroup = threadIdx.x / 128;
  if (warpgroup == 2) {
    if (threadIdx.x == 256)
      for (int t = blockIdx.x; t < tiles; t += gridDim.x)
        for (int k = 0; k < iters; ++k) {
          int s = k % 4;
          if (k >= 4)
            p.producer_acquire(s, ((k / 4) - 1) & 1);
          p.producer_expect(s, sizeof(st.A[s]));
          cute::SM90_TMA_LOAD_2D::copy(&mapA, &st.full[s], 0, st.A[s], 0,
                                       k * 32);
        }
  } else {
    // Ping-pong consumers: each warp group has its own epilogue buffer.
    float acc = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      for (int k = 0; k < iters; ++k) {
        int s = k % 4;
        p.consumer_wait(s, (k / 4) & 1);
        acc += st.A[s][threadIdx.x % 128];
        p.consumer_release(s);
      }
      if (threadIdx.x % 128 == 0)
        cute::tma_store_wait<0>();
      namedBarrierSync(1 + warpgroup, 128);
      st.C[warpgroup][threadIdx.x % 128] = acc;
      cute::tma_store_fence();
      namedBarrierSync(1 + warpgroup, 128);
      if (threadIdx.x % 128 == 0) {
        cute::SM90_TMA_STORE_2D::copy(&mapC, st.C[warpgroup], t, warpgroup);
        cute::tma_store_arrive();
      }
    }
    if (threadIdx.x % 128 == 0)
      cute::tma_store_wait<0>();
  }
}
