// TMAP-ENC-GADDR-ALIGN and TMAP-ENC-OUT-ALIGN64 from proven alignment: a
// device allocation (cudaMalloc and friends: 256-byte aligned) or an aligned
// variable, plus a constant byte offset. Silent where nothing is proven: an
// unknown offset, a re-pointed pointer, a byte buffer of alignment 1, a
// pointer from elsewhere.
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_real_host
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstddef>

struct bf16 {
  unsigned short Bits;
};

static CUresult encode2d(CUtensorMap *Map, CUtensorMapDataType Type, void *Ptr,
                         CUtensorMapInterleave Interleave) {
  cuuint64_t Dims[3] = {256, 256, 4};
  cuuint64_t Strides[2] = {1024, 1024 * 256};
  cuuint32_t Box[3] = {32, 32, 1};
  cuuint32_t ElemStrides[3] = {1, 1, 1};
  return cuTensorMapEncodeTiled(
      Map, Type, 3, Ptr, Dims, Strides, Box, ElemStrides, Interleave,
      Interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? CU_TENSOR_MAP_SWIZZLE_32B
                                                 : CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult offsets(CUtensorMap *Map, size_t N, size_t Runtime) {
  float *D = nullptr;
  cudaMalloc(&D, N);
  CUresult R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + 1,
  // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: globalAddress is only 4-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 4 bytes past 'D', which cudaMalloc allocates 256-byte aligned
                        CU_TENSOR_MAP_INTERLEAVE_NONE);
  // 32-byte interleave needs 32 bytes: 16 are not enough.
  R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + 4,
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: globalAddress is only 16-byte aligned; CU_TENSOR_MAP_INTERLEAVE_32B requires 32-byte alignment (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: globalAddress is 16 bytes past 'D', which cudaMalloc allocates 256-byte aligned
               CU_TENSOR_MAP_INTERLEAVE_32B);
  // Correct twins: a multiple of 16 (32) bytes, an unknown offset.
  R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + 4,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + 8,
               CU_TENSOR_MAP_INTERLEAVE_32B);
  R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + Runtime,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  return R;
}

CUresult casts(CUtensorMap *Map, cudaStream_t S) {
  bf16 *D;
  cudaMallocAsync((void **)&D, 1 << 20, S);
  bf16 *Tile = D + 3;
  CUresult R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, Tile,
  // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: globalAddress is only 2-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: globalAddress is 6 bytes past 'D', which cudaMallocAsync allocates 256-byte aligned
                        CU_TENSOR_MAP_INTERLEAVE_NONE);
  char *Bytes = reinterpret_cast<char *>(D) + 64;
  return encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, Bytes + 16,
                  CU_TENSOR_MAP_INTERLEAVE_NONE);
}

// A helper's parameter: reported at the caller that passed the offset.
static CUresult viaHelper(CUtensorMap *Map, float *Base) {
  return encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Base,
                  CU_TENSOR_MAP_INTERLEAVE_NONE);
}

CUresult helperCalls(CUtensorMap *Map) {
  float *D;
  cudaMalloc(&D, 4096);
  CUresult R = viaHelper(Map, D + 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: globalAddress is only 8-byte aligned; it must be 16-byte aligned (TMAP-ENC-GADDR-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: globalAddress is 8 bytes past 'D', which cudaMalloc allocates 256-byte aligned
  // CHECK-MESSAGES: :[[@LINE-10]]:57: note: with 'Ptr' from this call
  return R == CUDA_SUCCESS ? viaHelper(Map, D + 64) : R;
}

// Nothing proven: re-pointed, assigned from elsewhere, a null base.
CUresult unproven(CUtensorMap *Map, float *External, bool Flag) {
  float *D;
  cudaMalloc(&D, 4096);
  if (Flag)
    D = External;
  CUresult R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, D + 1,
                        CU_TENSOR_MAP_INTERLEAVE_NONE);
  R = encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, External + 1,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  return encode2d(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, nullptr,
                  CU_TENSOR_MAP_INTERLEAVE_NONE);
}

struct alignas(64) Holder {
  char Tag[16];
  char Map[128];
};

CUresult mapPlacement(float *Device) {
  alignas(64) char Buf[256];
  CUresult R = encode2d(reinterpret_cast<CUtensorMap *>(Buf + 32),
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: tensorMap is only 32-byte aligned; the map must be 64-byte aligned (TMAP-ENC-OUT-ALIGN64) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: tensorMap is 32 bytes into 'Buf', which is 64-byte aligned (declared)
                        CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
                        CU_TENSOR_MAP_INTERLEAVE_NONE);
  Holder H;
  R = encode2d((CUtensorMap *)H.Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensorMap is only 16-byte aligned; the map must be 64-byte aligned (TMAP-ENC-OUT-ALIGN64) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: tensorMap is 16 bytes into 'H', which is 64-byte aligned (its type's alignment)
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  // Correct twins: the map type's own alignment, an aligned offset, and a
  // byte buffer whose alignment (1) proves nothing.
  CUtensorMap M;
  CUtensorMap Maps[2];
  char Raw[128];
  R = encode2d(&M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  R = encode2d(&Maps[1], CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  R = encode2d(reinterpret_cast<CUtensorMap *>(Buf + 64),
               CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
               CU_TENSOR_MAP_INTERLEAVE_NONE);
  return encode2d(reinterpret_cast<CUtensorMap *>(Raw),
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT32, Device,
                  CU_TENSOR_MAP_INTERLEAVE_NONE);
}
