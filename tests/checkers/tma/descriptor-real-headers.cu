// tma-descriptor with the real CUDA toolkit headers (cuda.h, cudaTypedefs.h,
// cuda_runtime.h through clang's CUDA wrapper, cuda_bf16.h, cuda_fp16.h) and
// the real C++ standard library: the same call sites and folding forms as
// with the mock headers must behave the same.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_host

#include <array>
#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

static_assert(CUDA_VERSION >= 12000, "tensor maps need CUDA 12");

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// The driver function, called directly.
void direct(CUtensorMap *Map, float *Src) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1000 * sizeof(float)};
  cuuint32_t Box[2] = {32, 300};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-4]]:35: warning: boxDim[1] is 300, above the limit of 256 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

// cudaGetDriverEntryPointByVersion, then a reinterpret_cast to the PFN.
void byVersion(CUtensorMap *Map, __nv_bfloat16 *Src) {
  void *Raw = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Raw, 12000,
                                   cudaEnableDefault, &Query);
  auto Encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  std::array<cuuint64_t, 2> Dims{4096, 4096};
  std::array<cuuint64_t, 1> Strides{4096 * 2};
  std::array<cuuint32_t, 2> Box{128, 64};
  std::array<cuuint32_t, 2> Es{1, 1};
  Encode(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Src, Dims.data(),
         Strides.data(), Box.data(), Es.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-3]]:26: warning: inner box is boxDim[0] = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
}

// The same query filling a PFN through (void **), as the programming guide
// does it.
void byVersionVoidPointer(CUtensorMap *Map, void *Src) {
  PFN_cuTensorMapEncodeTiled_v12000 Encode = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&Encode,
                                   12000, cudaEnableDefault, &Query);
  cuuint64_t Dims[3] = {64, 64, 64};
  cuuint64_t Strides[2] = {64 * 4, 64 * 64 * 4};
  cuuint32_t Box[3] = {32, 32, 0};
  cuuint32_t Es[3] = {1, 1, 1};
  Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, Dims, Strides, Box, Es,
         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-3]]:71: warning: boxDim[2] is 0; every box extent must be at least 1 (TMAP-TILED-BOX-RANGE) [tma-descriptor]
}

// cuGetProcAddress (a macro for cuGetProcAddress_v2 in the real header), and
// dlsym.
void driverQueries(CUtensorMap *Map, void *Src) {
  void *Raw = nullptr;
  CUdriverProcAddressQueryResult Query;
  cuGetProcAddress("cuTensorMapEncodeTiled", &Raw, 12000,
                   CU_GET_PROC_ADDRESS_DEFAULT, &Query);
  auto Encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 9};
  Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-3]]:76: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]

  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  auto FromDl = reinterpret_cast<decltype(&cuTensorMapEncodeTiled)>(
      dlsym(Lib, "cuTensorMapEncodeTiled"));
  FromDl(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
         CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-3]]:76: warning: elementStrides[1] is 9, outside 1..8 (TMAP-ENC-ESTRIDE-RANGE) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: warning: interleave CU_TENSOR_MAP_INTERLEAVE_32B needs tensorRank >= 3, but tensorRank is 2 (TMAP-ENC-INTERLEAVE-RANK) [tma-descriptor]
  dlclose(Lib);
}

// A static local named like the driver, holding the PFN.
void staticLocal(CUtensorMap *Map, void *Src) {
  static PFN_cuTensorMapEncodeTiled_v12000 cuTensorMapEncodeTiled = [] {
    void *Raw = nullptr;
    cudaDriverEntryPointQueryResult Query;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Raw, 12000,
                                     cudaEnableDefault, &Query);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  }();
  std::uint64_t Dims[2] = {100, 64};
  std::uint64_t Strides[1] = {100};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-4]]:26: warning: globalStrides[0] is 100, the element count of globalDim[0]; strides are in bytes, so a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 tensor needs 400 (TMAP-ENC-GSTRIDE-UNITS) [tma-descriptor]
}

// The element type of a typed global address against the data type: a
// __nv_bfloat16 * fits BFLOAT16, a float * does not, nor a __half * FLOAT32.
void addressTypes(CUtensorMap *Map, __nv_bfloat16 *Bf16, float *F32,
                  __half *F16) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * 2};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Bf16, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, F32, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-5]]:68: warning: globalAddress points to 32-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 has 16-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, F16, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-5]]:67: warning: globalAddress points to 16-bit elements, but tensorDataType CU_TENSOR_MAP_DATA_TYPE_FLOAT32 has 32-bit elements (TMAP-ENC-GADDR-TYPE) [tma-descriptor]
}

// A templated helper and a bad instantiation.
template <int BlockM, int BlockK, typename T>
void makeMap(CUtensorMap *Map, T *Src) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(T)};
  cuuint32_t Box[2] = {BlockK, BlockM};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // CHECK-MESSAGES: :[[@LINE-4]]:35: warning: inner box is boxDim[0] = 128 * 2 bytes = 256 bytes, above the 128-byte span of CU_TENSOR_MAP_SWIZZLE_128B (TMAP-TILED-SWIZZLE-INNER) [tma-descriptor]
}
void makeMaps(CUtensorMap *Maps, __nv_bfloat16 *Src) {
  makeMap<128, 64>(&Maps[0], Src);
  makeMap<128, 128>(&Maps[1], Src);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// A valid map and a kernel that uses it.
__global__ void consume(const __grid_constant__ CUtensorMap Map, float *Out) {
  Out[threadIdx.x] = float(Map.opaque[0] != 0);
}
void goodMaps(CUtensorMap *Map, __nv_bfloat16 *Bf16, __half *F16, float *Out) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {4096 * sizeof(__nv_bfloat16)};
  cuuint32_t Box[2] = {64, 128};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Bf16, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, F16, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
  consume<<<1, 32>>>(*Map, Out);
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// Values the runtime fills in.
void runtimeValues(CUtensorMap *Map, float *Src) {
  int Rows = 0;
  cudaDeviceGetAttribute(&Rows, cudaDevAttrMaxBlockDimX, 0);
  size_t Free = 0, Total = 0;
  cudaMemGetInfo(&Free, &Total);
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {Free};
  cuuint32_t Box[2] = {64, (cuuint32_t)Rows};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// A void * global address carries no element type: no address-type check.
void untypedAddress(CUtensorMap *Map, void *Src) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t Es[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, Src, Dims,
                         Strides, Box, Es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
