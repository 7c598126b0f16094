// MBAR-TX-EQUALS-BYTES with im2col loads: an .im2col copy delivers
// pixelsPerColumn * channelsPerPixel elements of the map its launch passes
// (cuTensorMapEncodeIm2col). Copies whose completion the model does not know
// (.ignore_oob, .mbarrier::report, a statement the parser does not read in
// the same asm) make the phase unknown: silent.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

// 64 channels x 32 pixels of fp32: 8192 bytes per copy.
CUtensorMap nhwc(float *ptr) {
  uint64_t dims[4] = {64, 16, 16, 8};
  uint64_t strides[3] = {256, 256 * 16, 256 * 16 * 16};
  int lower[2] = {-1, -1};
  int upper[2] = {1, 1};
  uint32_t estrides[4] = {1, 1, 1, 1};
  CUtensorMap map;
  cuTensorMapEncodeIm2col(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, ptr, dims,
                          strides, lower, upper, 64, 32, estrides,
                          CU_TENSOR_MAP_INTERLEAVE_NONE,
                          CU_TENSOR_MAP_SWIZZLE_NONE,
                          CU_TENSOR_MAP_L2_PROMOTION_NONE,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

__device__ void im2colLoad(float *dst, const CUtensorMap *map, uint64_t *bar,
                           int n, int h, int w) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
               "[%6], {%7, %8};"
               :: "r"(smem(dst)), "l"(map), "r"(0), "r"(w), "r"(h), "r"(n),
                  "r"(smem(bar)), "h"((uint16_t)0), "h"((uint16_t)0)
               : "memory");
}

// The count is for 16 channels per pixel.
__global__ void undercounted(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[64 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem(&bar)), "r"(32 * 16 * 4));
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE+4]]:5: note: this copy delivers 8192 bytes to 'bar'
    // CHECK-NOTES: :27:54: note: the tensor map it reads is encoded here: 32 pixels x 64 channels of CU_TENSOR_MAP_DATA_TYPE_FLOAT32
    // CHECK-NOTES: :73:3: note: and passed to the kernel by this launch
    // CHECK-NOTES: :[[@LINE-6]]:5: note: expect 8192 bytes
    im2colLoad(tile, &map, &bar, n, 0, 0);
  }
}

// Counted right: silent.
__global__ void counted(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[64 * 32];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem(&bar)), "r"(32 * 64 * 4));
    im2colLoad(tile, &map, &bar, n, 0, 0);
  }
}

void run(float *ptr) {
  undercounted<<<1, 128>>>(nhwc(ptr), 0);
  counted<<<1, 128>>>(nhwc(ptr), 0);
}

// .ignore_oob: what completes on the barrier is not documented. Silent.
__global__ void ignoreOob(const float *src) {
  __shared__ alignas(16) float buf[64];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem(&bar)), "r"(128));
    asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                 "bytes.ignore_oob [%0], [%1], %2, %3, %4, [%5];"
                 :: "r"(smem(buf)), "l"(src), "r"(256), "r"(4), "r"(4),
                    "r"(smem(&bar))
                 : "memory");
  }
}

// An expect-tx and a copy the parser does not read share one asm statement:
// the statement's effect on the barrier is unknown. Silent.
__global__ void unreadForm(const float *src) {
  __shared__ alignas(16) float buf[64];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], 512;\n"
                 "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                 "bytes.future_qualifier [%0], [%2], 256, [%1];"
                 :: "r"(smem(buf)), "r"(smem(&bar)), "l"(src)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                 "bytes [%0], [%1], 256, [%2];"
                 :: "r"(smem(buf + 32)), "l"(src), "r"(smem(&bar))
                 : "memory");
  }
}
