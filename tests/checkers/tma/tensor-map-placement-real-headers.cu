// tma-tensor-map-placement and tma-encode-result with the real CUDA toolkit
// headers and CCCL (<cuda/barrier>, <cuda/ptx>): the cde and cuda::ptx
// wrappers are recognised through CCCL's inline ABI namespaces, the driver
// entry points through the real cuda.h and cudaTypedefs.h. The device run
// checks every note as well.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-encode-result,tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-encode-result,tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_real_host

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <utility>

using Barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    if ((call) != CUDA_SUCCESS)                                                \
      return false;                                                            \
  } while (0)

//===----------------------------------------------------------------------===//
// Host: encode results
//===----------------------------------------------------------------------===//

bool encode(CUtensorMap *Map, float *Src) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * sizeof(float)};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-NOTES-DEVICE: :[[@LINE-5]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; a rejected descriptor is only reported through it (TMAP-ENC-RESULT-CHECKED) [tma-encode-result]
  // CHECK-MESSAGES-HOST: :[[@LINE-6]]:3: warning: the CUresult of cuTensorMapEncodeTiled is discarded; a rejected descriptor is only reported through it (TMAP-ENC-RESULT-CHECKED) [tma-encode-result]
  CU_CHECK(cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE,
                                  CU_TENSOR_MAP_SWIZZLE_128B,
                                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));

  void *Raw = nullptr;
  cudaDriverEntryPointQueryResult Query;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapReplaceAddress", &Raw,
                                       12000, cudaEnableDefault,
                                       &Query) != cudaSuccess)
    return false;
  auto Replace = reinterpret_cast<PFN_cuTensorMapReplaceAddress_v12000>(Raw);
  (void)Replace(Map, Src);
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:9: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  // CHECK-MESSAGES-HOST: :[[@LINE-2]]:9: warning: the CUresult of cuTensorMapReplaceAddress is discarded; {{.*}} [tma-encode-result]
  return Replace(Map, Src) == CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Device: map parameters
//===----------------------------------------------------------------------===//

// The cde wrapper, as in the CUDA programming guide's TMA example, but with
// the map passed without __grid_constant__.
__global__ void cdeKernel(CUtensorMap Map, float *Out) {
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:39: warning: CUtensorMap parameter 'Map' is passed by value without 'const __grid_constant__': its address points to a local copy, which TMA cannot read (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-NOTES-DEVICE: :[[@LINE+10]]:5: note: the address of 'Map' reaches a TMA operation here
  // CHECK-MESSAGES-HOST: :[[@LINE-3]]:39: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES-DEVICE: __global__ void cdeKernel(const __grid_constant__ CUtensorMap Map, float *Out) {
  // CHECK-FIXES-HOST: __global__ void cdeKernel(const __grid_constant__ CUtensorMap Map, float *Out) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ alignas(Barrier) unsigned char BarStorage[sizeof(Barrier)];
  Barrier &Bar = *reinterpret_cast<Barrier *>(BarStorage);
  if (threadIdx.x == 0) {
    init(&Bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
    cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, &Map, 0, 0, Bar);
  }
  Barrier::arrival_token Token = Bar.arrive();
  Bar.wait(std::move(Token));
  Out[threadIdx.x] = Tile[threadIdx.x];
}

// cuda::ptx, reached through a __device__ helper that takes a reference;
// only in the device pass.
__device__ void loadTile(float *Tile, const CUtensorMap &Map, uint64_t *Bar) {
#if __CUDA_ARCH__ >= 900
  const int32_t Coords[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, Tile, &Map,
                            Coords, Bar);
#endif
}

__global__ void ptxKernel(const CUtensorMap Map) {
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:45: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-NOTES-DEVICE: :[[@LINE+6]]:3: note: the address of 'Map' is passed on here and reaches a TMA operation
  // CHECK-NOTES-DEVICE: :[[@LINE-8]]:3: note: the TMA operation
  // CHECK-FIXES-DEVICE: __global__ void ptxKernel(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-HOST: __global__ void ptxKernel(const CUtensorMap Map) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  loadTile(Tile, Map, &Bar);
}

// The programming guide's forms, a map in global memory behind the acquire
// fence: silent.
__global__ void correct(const __grid_constant__ CUtensorMap Map,
                        const CUtensorMap *Global) {
  __shared__ alignas(128) float Tile[64 * 64];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0)
    cuda::ptx::fence_proxy_tensormap_generic(
        cuda::ptx::sem_acquire, cuda::ptx::scope_sys, Global,
        cuda::ptx::n32_t<128>());
  __syncthreads();
  loadTile(Tile, Map, &Bar);
  loadTile(Tile, *Global, &Bar);
}

// fast.cu's matmul kernels 2-5: maps copied with cudaMemcpy to global memory
// and read with no acquire fence (TMAP-PLACE-GLOBAL-FENCE). CCCL's barrier
// calls (deep, with calls through pointers) do not hide the missing fence.
__global__ void globalNoFence(const CUtensorMap *MapA, Barrier *Full) {
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:50: warning: tensor map 'MapA' is read from global memory by a TMA operation, but 'globalNoFence' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  // CHECK-NOTES-DEVICE: :[[@LINE+6]]:3: note: the address of 'MapA' reaches a TMA operation here
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:17: note: in one thread of each block, before the first use: cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then __syncthreads(); or pass the map as 'const __grid_constant__ CUtensorMap'
  // CHECK-MESSAGES-HOST: :[[@LINE-4]]:50: warning: tensor map 'MapA' is read from global memory by a TMA operation, but 'globalNoFence' executes no fence.proxy.tensormap::generic.acquire before it: TMA may use a stale copy of the map (TMAP-PLACE-GLOBAL-FENCE) [tma-tensor-map-placement]
  __shared__ alignas(128) float Tile[64 * 64];
  __syncthreads();
  Full->wait(Full->arrive());
  cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, MapA, 0, 0, *Full);
}
