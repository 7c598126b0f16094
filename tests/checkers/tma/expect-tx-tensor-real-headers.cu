// Tensor-copy bytes and the map link with the real toolkit headers and CCCL:
// cuda.h's encoder, CCCL's cuda::ptx tensor copy and expect-tx, and
// cudaLaunchKernelEx from cuda_runtime.h.
// RUN: %check_clang_tidy %s tma-expect-tx,tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-expect-tx,tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>


void encode(CUtensorMap *map, float *ptr, cuuint32_t rows) {
  cuuint64_t dims[2] = {1024, 1024};
  cuuint64_t strides[1] = {4096};
  cuuint32_t box[2] = {32, rows};
  cuuint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

__global__ void load(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, tile, &map,
                                    coords, &bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar,
                                         sizeof(tile));
  }
}
// CHECK-MESSAGES: :33:5: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :30:5: note: this copy delivers 2048 bytes to 'bar'
// CHECK-MESSAGES: :19:35: note: the tensor map it reads is encoded here: box 32 x 16 of CU_TENSOR_MAP_DATA_TYPE_FLOAT32
// CHECK-MESSAGES: :52:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :33:5: note: expect 2048 bytes

void run(float *ptr) {
  CUtensorMap full, half;
  encode(&full, ptr, 32);
  encode(&half, ptr, 16);
  // 32 rows fill the tile: right. 16 rows deliver half of sizeof(tile).
  cudaLaunchConfig_t config = {};
  cudaLaunchKernelEx(&config, load, full);
  cudaLaunchKernelEx(&config, load, half);
}
