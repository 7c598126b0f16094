// Shared-memory alignment (BULK-ADDR-ALIGN16, TMA-SMEM-ALIGN-128) and the
// barrier's state space (MBAR-LOCATION-ALIGN) with the real CUDA toolkit
// headers and CCCL: int4 and __align__ from the toolkit, the cuda::ptx and
// cde wrappers from CCCL.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void bulk(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t bar;
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s + 2, g, 64, &bar);
  // CHECK-NOTES: :[[@LINE-1]]:60: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:32: note: 's' starts 16-byte aligned (declared); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:60: note: declare the buffer alignas(16) and keep the offset into it a multiple of 16 bytes
  // The toolkit's int4 is 16-byte aligned: 8 bytes in is not.
  extern __shared__ int4 pool[];
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global,
                     reinterpret_cast<char *>(pool) + 8, g, 64, &bar);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:26: note: 'pool' is dynamic shared memory, taken as 16-byte aligned at its start (its type's alignment, and dynamic shared memory starts 16-byte aligned; only offsets that break that alignment are reported); the address is 8 bytes into it
  // CHECK-NOTES: :[[@LINE-3]]:22: note: keep the offset into it a multiple of 16 bytes
  // Silent: aligned offsets.
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s + 4, g, 64, &bar);
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, pool + 1, g, 64,
                     &bar);
}

template <int Stage>
__global__ void tensor(const __grid_constant__ CUtensorMap map,
                       block_barrier *bar) {
  __shared__ alignas(128) float tile[4][40];
  cde::cp_async_bulk_tensor_2d_global_to_shared(&tile[Stage][0], &map, 0, 0,
                                                *bar);
  // CHECK-NOTES: :[[@LINE-2]]:49: warning: cde::cp_async_bulk_tensor_2d_global_to_shared shared-memory address is guaranteed only 32-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:33: note: 'tile' starts 128-byte aligned (declared); the address is 160 bytes into it
  // CHECK-NOTES: :[[@LINE-4]]:49: note: declare the buffer alignas(128) and keep the offset into it a multiple of 128 bytes
  // CHECK-NOTES: :[[@LINE+4]]:26: note: in instantiation of 'tensor<1>' requested here
}
template __global__ void tensor<0>(const __grid_constant__ CUtensorMap,
                                   block_barrier *);
template __global__ void tensor<1>(const __grid_constant__ CUtensorMap,
                                   block_barrier *);

// Silent: an __align__(1024) extern pool proves nothing beyond its type.
__global__ void externPool(const __grid_constant__ CUtensorMap map,
                           block_barrier *bar) {
  extern __shared__ __align__(1024) uint8_t smem[];
  cde::cp_async_bulk_tensor_2d_global_to_shared(smem + 2048, &map, 0, 0, *bar);
}

// MBAR-LOCATION-ALIGN: a __device__ barrier is in global memory, a
// __constant__ one in constant memory; a __shared__ one is right.
__device__ uint64_t deviceBar;
__constant__ uint64_t constantBar;
__global__ void barrierSpaces(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t sharedBar;
  ptx::mbarrier_init(&deviceBar, 1);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: cuda::ptx::mbarrier_init mbarrier address is a __device__ variable's, in global memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-7]]:21: note: 'deviceBar' is declared here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: declare the barrier __shared__
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, 64,
                     const_cast<uint64_t *>(&constantBar));
  // CHECK-NOTES: :[[@LINE-1]]:45: warning: cuda::ptx::cp_async_bulk mbarrier address is a __constant__ variable's, in constant memory; an mbarrier object must be in shared memory (MBAR-LOCATION-ALIGN) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-11]]:23: note: 'constantBar' is declared here
  // CHECK-NOTES: :[[@LINE-3]]:45: note: declare the barrier __shared__
  ptx::mbarrier_init(&sharedBar, 1);
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, s, g, 64,
                     &sharedBar);
}
