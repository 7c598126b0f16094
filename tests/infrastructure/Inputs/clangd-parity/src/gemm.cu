// A GEMM-like kernel file: its PTX wrappers come from include/tma_ptx.cuh.
#include "tma_ptx.cuh"
#include <cuda_runtime.h>

constexpr int Tile = 64;

void encode(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * sizeof(float)};
  cuuint32_t Box[2] = {Tile, Tile};
  cuuint32_t ElemStrides[2] = {1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  (void)R;
}

// A 12-byte bulk copy, and an expect-tx of 4096 for a tile of 16384 bytes.
__global__ void loadTile(const __grid_constant__ CUtensorMap A,
                         const float *In, float *Out) {
  __shared__ alignas(128) float TileA[Tile * Tile];
  __shared__ alignas(16) float Vec[4];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0) {
    mbarInit(&Bar, 1);
    expectTx(&Bar, 4096 + 12);
    tmaLoad2d(TileA, &A, &Bar, 0, 0);
    bulkLoad(Vec, In, 12, &Bar);
  }
  __syncthreads();
  mbarWait(&Bar, 0);
  Out[threadIdx.x] = TileA[threadIdx.x] + Vec[threadIdx.x % 3];
}

// A tile 16-byte aligned for a tensor copy, a map without __grid_constant__.
__global__ void copyTile(CUtensorMap B, float *Out) {
  __shared__ alignas(16) float Buffer[Tile * Tile];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0) {
    mbarInit(&Bar, 1);
    expectTx(&Bar, sizeof(Buffer));
    tmaLoad2d(Buffer, &B, &Bar, 0, 0);
  }
  __syncthreads();
  mbarWait(&Bar, 0);
  Out[threadIdx.x] = Buffer[threadIdx.x];
}

// Generic stores then a TMA store with no fence.proxy.async.
__global__ void storeTile(const __grid_constant__ CUtensorMap C) {
  __shared__ alignas(128) float Out[Tile * Tile];
  Out[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    tmaStore2d(&C, Out, 0, 0);
}

void run(float *A, float *In, float *Out) {
  CUtensorMap MapA, MapB, MapC;
  encode(&MapA, A);
  encode(&MapB, A);
  encode(&MapC, Out);
  loadTile<<<1, 128>>>(MapA, In, Out);
  copyTile<<<1, 128>>>(MapB, Out);
  storeTile<<<1, 128>>>(MapC);
}
