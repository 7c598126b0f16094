// Input of fix-notes-interacting.test: several findings whose fixes
// interact: the box of the map (too wide for its swizzle), the expect-tx
// count of the copy that reads it (computed from the box), and the strides
// (in elements).
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void load(const __grid_constant__ CUtensorMap map, int *out) {
  __shared__ alignas(1024) uint16_t tile[128 * 64];
  __shared__ alignas(8) uint64_t bar;
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(b), "r"(4096));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];"
        ::"r"(d), "l"(reinterpret_cast<uint64_t>(&map)), "r"(0), "r"(0), "r"(b)
        : "memory");
  }
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }"
               ::"r"(b), "r"(0) : "memory");
  *out = tile[threadIdx.x];
}

CUresult run(void *a, int *out) {
  CUtensorMap map;
  cuuint64_t dims[2] = {1024, 1024};
  cuuint64_t strides[1] = {1024};
  cuuint32_t box[2] = {128, 64};
  cuuint32_t elementStrides[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, a, dims, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return r;
  load<<<1, 128>>>(map, out);
  return CUDA_SUCCESS;
}
