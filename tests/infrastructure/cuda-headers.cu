// The mock headers of checkers/Inputs/Headers declare what the real CUDA 13.0
// headers declare, under the same names: this file uses each of their
// declarations and must compile silently against both, in both passes.
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_stub_device
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_stub_host
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_device
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_host

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) == 128, "");
static_assert(CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B == 15, "");
static_assert(CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B == 6, "");
static_assert(CU_TENSOR_MAP_L2_PROMOTION_L2_256B == 3, "");
static_assert(CU_TENSOR_MAP_INTERLEAVE_32B == 2, "");
static_assert(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA == 1, "");

__constant__ CUtensorMap ConstantMap;

__global__ void kernel(const __grid_constant__ CUtensorMap Map, int *Out) {
  __shared__ alignas(128) int Tile[64];
  std::array<int, 2> Pair{1, 2};
  Tile[threadIdx.x] = Pair[1] + int(Pair.size()) + int(blockDim.x);
  __syncthreads();
  Out[blockIdx.x] = Tile[0] + int(gridDim.x);
}

CUresult encode(CUtensorMap *Map, void *Global) {
  std::array<cuuint64_t, 2> Dims{64, 64};
  std::uint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64}, ElementStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Global, Dims.data(), Strides,
      Box, ElementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void entryPoints() {
  PFN_cuTensorMapEncodeTiled_v12000 Tiled = nullptr;
  PFN_cuTensorMapEncodeIm2col_v12000 Im2col = cuTensorMapEncodeIm2col;
  PFN_cuTensorMapEncodeIm2colWide_v12080 Wide = cuTensorMapEncodeIm2colWide;
  PFN_cuTensorMapReplaceAddress_v12000 Replace = cuTensorMapReplaceAddress;
  PFN_cuGetProcAddress_v12000 GetProc = cuGetProcAddress;
  decltype(&cuTensorMapEncodeTiled) Direct = cuTensorMapEncodeTiled;
  (void)Im2col, (void)Wide, (void)Replace, (void)GetProc, (void)Direct;

  cudaDriverEntryPointQueryResult RuntimeStatus;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&Tiled,
                                   12000, cudaEnableDefault, &RuntimeStatus);
  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", (void **)&Tiled,
                          cudaEnableDefault, &RuntimeStatus);
  CUdriverProcAddressQueryResult DriverStatus;
  cuGetProcAddress("cuTensorMapEncodeTiled", (void **)&Tiled, 12000,
                   CU_GET_PROC_ADDRESS_DEFAULT, &DriverStatus);
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  Tiled = (PFN_cuTensorMapEncodeTiled_v12000)dlsym(Lib, "cuTensorMapEncodeTiled");
  dlclose(Lib);
}

void launch() {
  CUtensorMap Map;
  int *Out = nullptr;
  cudaMalloc(&Out, 64 * sizeof(int));
  encode(&Map, Out);
  cudaMemcpyToSymbol(ConstantMap, &Map, sizeof(Map));
  kernel<<<dim3(2), dim3(64), 0, cudaStream_t()>>>(Map, Out);
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(2);
  Config.blockDim = dim3(64);
  cudaLaunchKernelEx(&Config, kernel, Map, Out);
  cudaDeviceSynchronize();
  cudaFree(Out);
}

// The checks did see the whole file.
float last() { return 1 / 2; }
// CHECK-MESSAGES: :[[@LINE-1]]:23: warning: result of integer division used in a floating point context; possible loss of precision [bugprone-integer-division]
