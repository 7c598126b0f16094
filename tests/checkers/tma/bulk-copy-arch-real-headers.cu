// tma-rules.md section 7 through CCCL (the real headers): a cuda::ptx
// wrapper that its header compiles, on this pass's target, to a call of an
// extern named `__cuda_ptx_<name>_is_not_supported_before_<SM>__` fails to
// link (TMA-ARCH). The multicast overloads and tensormap.replace need
// sm_90a (no plain sm_90); the Hopper instructions sm_90. Silent on sm_90a
// and sm_100a, on the host pass, for the overloads the target has, and in a
// helper no kernel calls.
// RUN: %check_clang_tidy -check-suffixes=SM90 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_90
// RUN: %check_clang_tidy -check-suffixes=SM80 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_80
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host
#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(2, 1, 1)
multicastLoad(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  int32_t At[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, Tile, &Map,
                            At, &Bar, (uint16_t)0x3);
  // CHECK-MESSAGES-SM90: :[[@LINE-2]]:3: warning: cuda::ptx::cp_async_bulk_tensor is not supported on sm_90, the target of this device pass: its header compiles it to a call of '__cuda_ptx_cp_async_bulk_tensor_is_not_supported_before_SM_90a_SM_100a_SM_101a__', which no library defines, and the link fails (the header has it for sm_90a, sm_100a, sm_101a) (TMA-ARCH) [tma-bulk-copy]
  // Correct twin on sm_90: the overload without a ctaMask.
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, Tile, &Map,
                            At, &Bar);
}

__global__ void replaceAddress(CUtensorMap *Map, float *Base) {
  ptx::tensormap_replace_global_address(ptx::space_global, Map, Base);
  // CHECK-MESSAGES-SM90: :[[@LINE-1]]:3: warning: cuda::ptx::tensormap_replace_global_address is not supported on sm_90, the target of this device pass: its header compiles it to a call of '__cuda_ptx_tensormap_replace_global_address_is_not_supported_before_SM_90a_SM_100a_SM_101a__', which no library defines, and the link fails (the header has it for sm_90a, sm_100a, sm_101a) (TMA-ARCH) [tma-bulk-copy]
}
#endif

// Below sm_90: the Hopper barrier and fence wrappers.
__global__ void waits() {
  __shared__ uint64_t Bar;
  bool Done = ptx::mbarrier_try_wait_parity(&Bar, 0u);
  // CHECK-MESSAGES-SM80: :[[@LINE-1]]:15: warning: cuda::ptx::mbarrier_try_wait_parity is not supported on sm_80, the target of this device pass: its header compiles it to a call of '__cuda_ptx_mbarrier_try_wait_parity_is_not_supported_before_SM_90__', which no library defines, and the link fails (the header has it for sm_90) (TMA-ARCH) [tma-bulk-copy]
  (void)Done;
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, &Bar, 1024u);
  // CHECK-MESSAGES-SM80: :[[@LINE-2]]:3: warning: cuda::ptx::mbarrier_arrive_expect_tx is not supported on sm_80, the target of this device pass: its header compiles it to a call of '__cuda_ptx_mbarrier_arrive_expect_tx_is_not_supported_before_SM_90__', which no library defines, and the link fails (the header has it for sm_90) (TMA-ARCH) [tma-bulk-copy]
  ptx::fence_proxy_async(ptx::space_shared);
  // CHECK-MESSAGES-SM80: :[[@LINE-1]]:3: warning: cuda::ptx::fence_proxy_async is not supported on sm_80, the target of this device pass: its header compiles it to a call of '__cuda_ptx_fence_proxy_async_is_not_supported_before_SM_90__', which no library defines, and the link fails (the header has it for sm_90) (TMA-ARCH) [tma-bulk-copy]
}

// Never called from a kernel: never compiled for the target. Silent.
__device__ inline void unusedReplace(CUtensorMap *Map, float *Base) {
  ptx::tensormap_replace_global_address(ptx::space_global, Map, Base);
  bool Done = ptx::mbarrier_try_wait_parity(nullptr, 0u);
  (void)Done;
}
