// The map link through a launch helper that takes the kernel as a function
// pointer (learn-cuda's launch_kernel), a local function pointer holding the
// kernel, and a producer lambda that reads the kernel's map parameter.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);

void init_map(CUtensorMap *map, float *ptr, uint32_t rows) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {4096};
  uint32_t box[2] = {32, rows};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <typename T, typename... Args>
void launch_kernel(T *kernel, int blocks, Args... args) {
  kernel<<<blocks, 128>>>(args...);
}

template <int Rows>
__global__ void producer(const __grid_constant__ CUtensorMap map, int k) {
  __shared__ alignas(128) float tile[2][Rows * 32];
  __shared__ uint64_t bars[2];
  auto load = [&](int stage) {
    if (threadIdx.x == 0) {
      int32_t coords[2] = {0, stage};
      cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                      cuda::ptx::space_global, tile[stage],
                                      &map, coords, &bars[stage]);
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared,
                                           &bars[stage], 4096);
    }
  };
  for (int i = 0; i < k; ++i)
    load(i % 2);
}
// CHECK-MESSAGES: :40:7: warning: expect-tx of 4096 bytes on 'bars[stage]' but the copies completing on it in this phase deliver 2048 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :37:7: note: this copy delivers 2048 bytes to 'bars[stage]'
// CHECK-MESSAGES: :19:35: note: the tensor map it reads is encoded here: box 32 x 16 of CU_TENSOR_MAP_DATA_TYPE_FLOAT32
// CHECK-MESSAGES: :27:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :40:7: note: expect 2048 bytes

void run(float *ptr) {
  CUtensorMap m32, m16;
  init_map(&m32, ptr, 32);
  init_map(&m16, ptr, 16);
  // 32 rows of 32 floats: 4096 bytes, as expected.
  auto *kernel = producer<32>;
  launch_kernel(kernel, 1, m32, 8);
  // producer<16> with 16 rows: 2048 bytes, but the count stays 4096.
  launch_kernel(producer<16>, 1, m16, 8);
}
