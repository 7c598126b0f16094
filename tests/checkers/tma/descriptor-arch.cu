// TMAP-ENC-ARCH: Im2colWide, the packed data types and the 128B_ATOM swizzles
// need a GPU of compute capability 10.0. Reported only for a map that a
// launch of this file passes to a kernel this file compiles (its tensor copy
// is linked back to the encode call), on the device pass of the newest
// architecture the file is built for, when that target is arch-specific
// (sm_90a runs on 9.0 only). Silent for maps no launch of this file hands
// to one of its kernels (a dispatch file built for Hopper may encode maps
// for Blackwell kernels built elsewhere), on the host pass (no target of its
// own), on plain sm_90 (its PTX can run on newer GPUs), on sm_100a and
// sm_120a, and when the file is also built for sm_100a.
// RUN: %check_clang_tidy -check-suffixes=SM90A %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_90
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_120a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=SM90A %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_host
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
struct __half { unsigned short X; };
__device__ size_t __cvta_generic_to_shared(const void *);

// A host-only dispatch: the maps go to kernels of other translation units
// (built for Blackwell). No launch here passes them to a kernel of this file:
// silent on every target.

CUresult packed(CUtensorMap *Map, void *X) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {2048};
  cuuint32_t Box[2] = {128, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 2, X, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult atomSwizzle(CUtensorMap *Map, __half *X) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, X, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Through a function pointer: not reported either.
CUresult wide(PFN_cuTensorMapEncodeIm2colWide_v12080 Encode, CUtensorMap *Map,
              __half *X) {
  cuuint64_t Dims[4] = {64, 1024, 32, 8};
  cuuint64_t Strides[3] = {128, 128 * 1024, 128 * 1024 * 32};
  cuuint32_t ElemStrides[4] = {1, 1, 1, 1};
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, X, Dims, Strides, 0,
                -1, 64, 32, ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Correct twins on every target: the Hopper forms of the same maps.
CUresult hopper(CUtensorMap *Map, __half *X, CUtensorMapDataType RuntimeType) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {64, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, X, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS)
    return R;
  // A data type known only at run time: silent.
  return cuTensorMapEncodeTiled(
      Map, RuntimeType, 2, X, Dims, Strides, Box, ElemStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The linked kernel: this file's launch passes the map to a kernel this file
// compiles, whose tensor copy reads it. On sm_90a that kernel runs only on a
// 9.0 GPU, where the driver rejects the map: reported at the encode call.
__global__ void tileLoad(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(1024) char Tile[128 * 64];
  __shared__ alignas(8) unsigned long long Bar;
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];"
      :: "r"((unsigned)__cvta_generic_to_shared(Tile)),
         "l"(reinterpret_cast<unsigned long long>(&Map)), "r"(0), "r"(0),
         "r"((unsigned)__cvta_generic_to_shared(&Bar))
      : "memory");
}

void encodeFor(CUtensorMap *Map, void *X, CUtensorMapDataType Type,
               CUtensorMapSwizzle Swizzle, cuuint32_t BoxX) {
  cuuint64_t Dims[2] = {4096, 4096};
  cuuint64_t Strides[1] = {8192};
  cuuint32_t Box[2] = {BoxX, 64};
  cuuint32_t ElemStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(Map, Type, 2, X, Dims, Strides, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

void launchOwn(void *X) {
  CUtensorMap Packed, Atom;
  // The operands come from this caller: reported where it writes them.
  encodeFor(&Packed, X, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
  // CHECK-MESSAGES-SM90A: :[[@LINE-1]]:25: warning: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B is not supported on sm_90a: it needs a GPU of compute capability 10.0 or higher, and sm_90a code runs only on 9.0 (TMAP-ENC-ARCH) [tma-descriptor]
            CU_TENSOR_MAP_SWIZZLE_NONE, 128);
  encodeFor(&Atom, X, CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
            CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, 64);
  // CHECK-MESSAGES-SM90A: :[[@LINE-1]]:13: warning: CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B is not supported on sm_90a: it needs a GPU of compute capability 10.0 or higher, and sm_90a code runs only on 9.0 (TMAP-ENC-ARCH) [tma-descriptor]
  tileLoad<<<1, 128>>>(Packed);
  tileLoad<<<1, 128>>>(Atom);
}

// The same helper from a dispatch path whose map goes to a kernel compiled
// elsewhere (declared here, defined in another file): silent, though the
// helper's other contexts are reported above.
__global__ void foreignKernel(const __grid_constant__ CUtensorMap Map);

void launchForeign(void *X) {
  CUtensorMap Packed;
  encodeFor(&Packed, X, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
            CU_TENSOR_MAP_SWIZZLE_NONE, 128);
  foreignKernel<<<1, 128>>>(Packed);
}
