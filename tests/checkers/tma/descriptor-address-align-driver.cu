// TMAP-ENC-GADDR-ALIGN from the driver's allocations: a CUdeviceptr that
// only cuMemAlloc, cuMemAllocPitch, cuMemAllocManaged or cuMemAllocAsync
// writes is a 256-byte aligned address ("any address ... returned by one of
// the memory allocation routines from the driver or runtime API is always
// aligned to at least 256 bytes", CUDA C++ Programming Guide), plus the
// constant bytes added to the integer before the cast to a pointer. Silent
// where nothing is proven: a run-time offset, a reassigned CUdeviceptr, an
// integer from elsewhere. The new address of cuTensorMapReplaceAddress is
// held to the same 16 bytes, or 32 where the map it modifies was encoded
// with INTERLEAVE_32B (TMAP-REPLACE-ADDR-ALIGN). The pool allocations of
// the stream-ordered allocator (cuMemAllocFromPoolAsync,
// cudaMallocFromPoolAsync, cudaMallocAsync with a pool) are known aligned
// the same way.
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

// TMAP-REPLACE-ADDR-ALIGN, 32 bytes: the map was encoded with
// INTERLEAVE_32B, whose globalAddress must be 32-byte aligned
// (TMAP-ENC-GADDR-ALIGN); the replaced map is linked to its encode call,
// in the same function and through a helper's parameter.
static CUresult encodeInterleaved(CUtensorMap *Map, void *Ptr) {
  cuuint64_t Dims[3] = {16, 64, 64};
  cuuint64_t Strides[2] = {32, 2048};
  cuuint32_t Box[3] = {16, 8, 8};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, Ptr,
                                Dims, Strides, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_32B,
                                CU_TENSOR_MAP_SWIZZLE_32B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

static CUresult rebase(CUtensorMap *Map, CUdeviceptr Base) {
  return cuTensorMapReplaceAddress(Map, (void *)(Base + 48));
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: globalAddress is only 16-byte aligned; the new address must keep the encode's alignment, 32 bytes for a map encoded with CU_TENSOR_MAP_INTERLEAVE_32B (TMAP-REPLACE-ADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: globalAddress is 48 bytes past 'D', which cuMemAlloc_v2 allocates 256-byte aligned
  // CHECK-MESSAGES: :[[@LINE+13]]:20: note: with 'Base' from this call
  // CHECK-MESSAGES: :[[@LINE-11]]:33: note: the map is encoded here with interleave = CU_TENSOR_MAP_INTERLEAVE_32B
}

CUresult replaceInterleaved(size_t N) {
  CUdeviceptr D;
  cuMemAlloc(&D, N);
  CUtensorMap Map;
  CUresult R = encodeInterleaved(&Map, (void *)D);
  R = cuTensorMapReplaceAddress(&Map, (void *)(D + 16));
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: globalAddress is only 16-byte aligned; the new address must keep the encode's alignment, 32 bytes for a map encoded with CU_TENSOR_MAP_INTERLEAVE_32B (TMAP-REPLACE-ADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: globalAddress is 16 bytes past 'D', which cuMemAlloc_v2 allocates 256-byte aligned
  // CHECK-MESSAGES: :[[@LINE-22]]:33: note: the map is encoded here with interleave = CU_TENSOR_MAP_INTERLEAVE_32B
  R = rebase(&Map, D);
  // Correct twins: 32-byte multiples; 16 bytes for a map without
  // interleave.
  R = cuTensorMapReplaceAddress(&Map, (void *)(D + 64));
  CUtensorMap Plain;
  R = encode2d(&Plain, (void *)D, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  R = cuTensorMapReplaceAddress(&Plain, (void *)(D + 16));
  return R;
}

// The stream-ordered allocator's pools: cuMemAllocFromPoolAsync,
// cudaMallocFromPoolAsync and the pool overload of cudaMallocAsync are
// allocation routines of the driver and runtime API, 256-byte aligned like
// the others.
CUresult poolAllocations(CUtensorMap *Map, size_t N, CUmemoryPool Pool,
                         cudaMemPool_t RuntimePool, CUstream S) {
  CUdeviceptr D;
  cuMemAllocFromPoolAsync(&D, N, Pool, S);
  CUresult R = encode2d(Map, (void *)(D + 8), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: globalAddress is only 8-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'D', which cuMemAllocFromPoolAsync allocates 256-byte aligned
  float *F;
  cudaMallocFromPoolAsync(&F, N, RuntimePool, S);
  R = encode2d(Map, F + 2, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 8-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'F', which cudaMallocFromPoolAsync allocates 256-byte aligned
  void *V;
  cudaMallocAsync(&V, N, RuntimePool, S);
  R = encode2d(Map, (char *)V + 4, CU_TENSOR_MAP_DATA_TYPE_UINT8);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 4-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 4 bytes past 'V', which cudaMallocAsync allocates 256-byte aligned
  float *W;
  cudaMallocAsync(&W, N, RuntimePool, S);
  R = encode2d(Map, W + 1, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalAddress is only 4-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 4 bytes past 'W', which cudaMallocAsync allocates 256-byte aligned
  // Correct twins: multiples of 16 bytes.
  R = encode2d(Map, (void *)(D + 256), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, F + 4, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  R = encode2d(Map, (char *)V + 48, CU_TENSOR_MAP_DATA_TYPE_UINT8);
  R = encode2d(Map, W + 64, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  return R;
}
