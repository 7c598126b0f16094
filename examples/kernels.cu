// Device code that issues TMA copies, with the mistakes tma-tidy finds:
// a tensor map passed without __grid_constant__, a buffer too little aligned
// for a tensor copy, a 1-D bulk copy of 12 bytes, and an expect-tx that
// counts one of two tensor copies. Host code encodes the maps and launches
// the kernels, so the checks see the boxes.
// Run: examples/run-example.sh
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult Status = (call);                                                  \
    if (Status != CUDA_SUCCESS)                                                \
      std::printf("%s failed: %d\n", #call, int(Status));                     \
  } while (0)

constexpr int Tile = 32;

// A [1024][1024] float matrix, read in Tile x Tile boxes.
void encodeTiles(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[2] = {1024, 1024};
  cuuint64_t Strides[1] = {1024 * sizeof(float)};
  cuuint32_t Box[2] = {Tile, Tile};
  cuuint32_t ElemStrides[2] = {1, 1};
  CU_CHECK(cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Data, Dims, Strides, Box,
      ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

// Two tiles per phase; the expect-tx counts one of them.
__global__ void addTiles(const __grid_constant__ CUtensorMap A,
                         const __grid_constant__ CUtensorMap B, float *Out) {
  __shared__ alignas(128) float TileA[Tile * Tile];
  __shared__ alignas(128) float TileB[Tile * Tile];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&Bar, 1);
    int32_t Coords[2] = {int32_t(blockIdx.x) * Tile, int32_t(blockIdx.y) * Tile};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, TileA, &A, Coords,
                                    &Bar);
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, TileB, &B, Coords,
                                    &Bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &Bar, 4096);
  }
  __syncthreads();
  while (!cuda::ptx::mbarrier_try_wait_parity(&Bar, 0)) {
  }
  Out[threadIdx.x] = TileA[threadIdx.x] + TileB[threadIdx.x];
}

// The map by value without __grid_constant__ (TMA gets a local copy), and a
// tile with only 16-byte alignment.
__global__ void copyTile(CUtensorMap Map, float *Out) {
  __shared__ alignas(16) float Buffer[Tile * Tile];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&Bar, 1);
    int32_t Coords[2] = {0, 0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, Buffer, &Map,
                                    Coords, &Bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &Bar,
                                         sizeof(Buffer));
  }
  __syncthreads();
  while (!cuda::ptx::mbarrier_try_wait_parity(&Bar, 0)) {
  }
  Out[threadIdx.x] = Buffer[threadIdx.x];
}

// A 1-D bulk copy of three floats: 12 bytes, not a multiple of 16.
__global__ void copyVector(const float *In, float *Out) {
  __shared__ alignas(16) float Vector[4];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&Bar, 1);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             Vector, In, 3 * sizeof(float), &Bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &Bar,
                                         3 * sizeof(float));
  }
  __syncthreads();
  while (!cuda::ptx::mbarrier_try_wait_parity(&Bar, 0)) {
  }
  Out[threadIdx.x] = Vector[threadIdx.x % 3];
}

void run(float *A, float *B, float *Out) {
  CUtensorMap MapA, MapB;
  encodeTiles(&MapA, A);
  encodeTiles(&MapB, B);
  addTiles<<<dim3(32, 32), Tile>>>(MapA, MapB, Out);
  copyTile<<<1, Tile>>>(MapA, Out);
  copyVector<<<1, 3>>>(A, Out);
}
