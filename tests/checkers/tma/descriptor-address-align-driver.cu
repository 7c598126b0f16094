// TMAP-ENC-GADDR-ALIGN from the driver's allocations: a CUdeviceptr that
// only cuMemAlloc, cuMemAllocPitch, cuMemAllocManaged or cuMemAllocAsync
// writes is a 256-byte aligned address ("any address ... returned by one of
// the memory allocation routines from the driver or runtime API is always
// aligned to at least 256 bytes", CUDA C++ Programming Guide), plus the
// constant bytes added to the integer before the cast to a pointer. Silent
// where nothing is proven: a run-time offset, a reassigned CUdeviceptr, an
// integer from elsewhere. The new address of cuTensorMapReplaceAddress is
// held to the same 16 bytes (TMAP-REPLACE-ADDR-ALIGN).
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_host
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

static CUresult encode2d(CUtensorMap *Map, void *Ptr,
                         CUtensorMapDataType Type) {
  cuuint64_t Dims[2] = {256, 256};
  cuuint64_t Strides[1] = {1024};
  cuuint32_t Box[2] = {32, 32};
  cuuint32_t ElemStrides[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, Type, 2, Ptr, Dims, Strides, Box,
                                ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult driverAllocations(CUtensorMap *Map, size_t N, size_t Runtime,
                           CUstream S) {
  CUdeviceptr D;
  cuMemAlloc(&D, N);
  CUresult R = encode2d(Map, (void *)(D + 4), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: globalAddress is only 4-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 4 bytes past 'D', which cuMemAlloc_v2 allocates 256-byte aligned
  CUdeviceptr P;
  size_t Pitch;
  cuMemAllocPitch(&P, &Pitch, 1024, 256, 4);
  R = encode2d(Map, reinterpret_cast<void *>(P + 8),
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 8-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'P', which cuMemAllocPitch_v2 allocates 256-byte aligned
               CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  CUdeviceptr M;
  cuMemAllocManaged(&M, N, 1);
  const CUdeviceptr Row = M + 1024 + 2;
  R = encode2d(Map, (void *)Row, CU_TENSOR_MAP_DATA_TYPE_UINT16);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 2-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: globalAddress is 1026 bytes past 'M', which cuMemAllocManaged allocates 256-byte aligned
  CUdeviceptr A;
  cuMemAllocAsync(&A, N, S);
  R = encode2d(Map, (void *)(A - 16 + 24), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 8-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'A', which cuMemAllocAsync allocates 256-byte aligned
  // Correct twins: multiples of 16 bytes.
  R = encode2d(Map, (void *)D, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, (void *)(D + 4096), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, reinterpret_cast<void *>(P + 1024),
               CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, (void *)(A + 32), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  // Silent: a run-time offset.
  R = encode2d(Map, (void *)(D + Runtime), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  return R;
}

// TMAP-REPLACE-ADDR-ALIGN: the new address keeps the encode's alignment.
CUresult replace(CUtensorMap *Map, size_t N) {
  CUdeviceptr D;
  cuMemAlloc(&D, N);
  CUresult R = cuTensorMapReplaceAddress(Map, (void *)(D + 8));
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: globalAddress is only 8-byte aligned; the new address must keep the encode's alignment, at least 16 bytes (TMAP-REPLACE-ADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'D', which cuMemAlloc_v2 allocates 256-byte aligned
  float *F;
  cudaMalloc(&F, N);
  R = cuTensorMapReplaceAddress(Map, F + 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: globalAddress is only 4-byte aligned; the new address must keep the encode's alignment, at least 16 bytes (TMAP-REPLACE-ADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 12 bytes past 'F', which cudaMalloc allocates 256-byte aligned
  // Correct twins: 16-byte multiples, a run-time offset.
  R = cuTensorMapReplaceAddress(Map, (void *)(D + 4096));
  R = cuTensorMapReplaceAddress(Map, F + 4);
  R = cuTensorMapReplaceAddress(Map, F + N);
  return R;
}

// Silent: a CUdeviceptr written by something else too, or from elsewhere.
CUresult notProven(CUtensorMap *Map, size_t N, CUdeviceptr Given) {
  CUdeviceptr D;
  cuMemAlloc(&D, N);
  D += 4;
  CUresult R = encode2d(Map, (void *)(D + 4), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, (void *)(Given + 4), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  uintptr_t Host = reinterpret_cast<uintptr_t>(Map) + 4;
  return encode2d(Map, (void *)Host, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
}
