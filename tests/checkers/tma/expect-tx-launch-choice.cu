// The map link through a launch by a local kernel pointer initialised with a
// choice of two instantiations (fast.cu matmul_3's `auto *kernel = DB ?
// k<..., true> : k<..., false>; kernel<<<...>>>(...)`): the launch passes
// its arguments to whichever it calls, so both are linked to the encode.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

void init_map(CUtensorMap *map, float *ptr) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {4096};
  uint32_t box[2] = {32, 16};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// Wrong: the box is 16 rows of 32 floats (2048 bytes); the count is 32 rows.
template <bool Debug>
__global__ void load32(const __grid_constant__ CUtensorMap map) {
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
                                         32 * 32 * sizeof(float));
  }
}
// CHECK-MESSAGES: :34:5: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :31:5: note: this copy delivers 2048 bytes to 'bar'
// CHECK-MESSAGES: :18:35: note: the tensor map it reads is encoded here: box 32 x 16 of CU_TENSOR_MAP_DATA_TYPE_FLOAT32
// CHECK-MESSAGES: :67:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :34:5: note: expect 2048 bytes

// Right: the count is the box's 16 rows.
template <bool Debug>
__global__ void load16(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[16 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    int32_t coords[2] = {0, 0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, tile, &map,
                                    coords, &bar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar,
                                         16 * 32 * sizeof(float));
  }
}

void run(float *ptr, bool debug) {
  CUtensorMap m;
  init_map(&m, ptr);
  auto *kernel = debug ? load32<true> : load32<false>;
  kernel<<<1, 128>>>(m);
  auto *right = debug ? load16<true> : load16<false>;
  right<<<1, 128>>>(m);
}
