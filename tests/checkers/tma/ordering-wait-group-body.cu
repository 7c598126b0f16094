// Bulk-group commits and waits known by their names (`tma_store_arrive`,
// `tma_store_wait<Count, Read>`, as tilelang's barrier.h and CuTe write
// them) are told by their bodies where the body holds the asm: the body
// as written (the template's) holds a commit or wait_group, so the walk of
// the instantiated body decides. A wait whose `if constexpr (Read)` branch
// lost its asm is no wait: the tile rewritten after it may still be read
// by the store (device pass). Its twin, with the asm, is silent. Where the
// body holds no asm (the host pass compiles it out), the name decides:
// both kernels are silent there.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const float *smem, int x, int y) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :
               : "l"(map), "r"(a), "r"(x), "r"(y)
               : "memory");
}
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" : :);
}

namespace tl {
template <bool kDependentFalse = false> __device__ void tma_store_arrive() {
#if defined(__CUDA_ARCH__)
  asm volatile("cp.async.bulk.commit_group;");
#endif
}
template <int Count, bool Read = true> __device__ void tma_store_wait() {
#if defined(__CUDA_ARCH__)
  if constexpr (Read) {
    asm volatile("cp.async.bulk.wait_group.read %0;" : : "n"(Count) : "memory");
  } else {
    asm volatile("cp.async.bulk.wait_group %0;" : : "n"(Count) : "memory");
  }
#endif
}
} // namespace tl

// The same helper with the read branch's asm lost.
namespace lost {
template <int Count, bool Read = true> __device__ void tma_store_wait() {
#if defined(__CUDA_ARCH__)
  if constexpr (Read) {
  } else {
    asm volatile("cp.async.bulk.wait_group %0;" : : "n"(Count) : "memory");
  }
#endif
}
} // namespace lost

__global__ void __launch_bounds__(128)
    rewrittenAfterLostWait(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  fenceProxyAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, smem_c, 0, 0);
    tl::tma_store_arrive();
    lost::tma_store_wait<0, true>();
    smem_c[0] = 2.0f;
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:15: warning: generic store overwrites 'smem_c' while the TMA store at line [[#@LINE-4]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-MESSAGES-DEVICE: :[[@LINE-5]]:5: note: the TMA store reads 'smem_c' here
  }
}

__global__ void __launch_bounds__(128)
    rewrittenAfterWait(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  fenceProxyAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, smem_c, 0, 0);
    tl::tma_store_arrive();
    tl::tma_store_wait<0, true>();
    smem_c[0] = 2.0f;
  }
}

// The other branch, kept: a wait.
__global__ void __launch_bounds__(128)
    rewrittenAfterPlainWait(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[64 * 64];
  smem_c[threadIdx.x] = 1.0f;
  fenceProxyAsync();
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, smem_c, 0, 0);
    tl::tma_store_arrive();
    lost::tma_store_wait<0, false>();
    smem_c[0] = 2.0f;
  }
}
