// One diagnostic of each tma- check, for
// tests/infrastructure/tma-tidy-export-fixes.test. Those of tma-descriptor,
// tma-expect-tx and tma-tensor-map-placement have fix-its.
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>
static const cuuint64_t Stride1[1] = {0}; // rank 1: never read, not null
__device__ size_t __cvta_generic_to_shared(const void *);

// tma-descriptor: boxDim[0] above 256; the note's fix-it writes 256.
CUresult encodeBox(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {512};
  cuuint32_t ElemStrides[1] = {1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data,
                                Dims, Stride1, Box, ElemStrides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// tma-encode-result: the CUresult is discarded; no fix-it.
void encodeDiscarded(CUtensorMap *Map, float *Data) {
  cuuint64_t Dims[1] = {1024};
  cuuint32_t Box[1] = {128};
  cuuint32_t ElemStrides[1] = {1};
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, Data, Dims,
                         Stride1, Box, ElemStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// tma-bulk-copy: an mbarrier initialised with 0 arrivals; no fix-it.
__global__ void initZero() {
  __shared__ uint64_t Bar;
  uint32_t BarPtr = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(BarPtr),
               "r"(0));
}

// tma-expect-tx: 1024 expected, 1040 delivered; the fix-it writes 1040.
__global__ void expectOffBy16(const char *Src) {
  __shared__ alignas(16) char Buf[1040];
  __shared__ uint64_t Bar;
  uint32_t BarPtr = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(BarPtr),
                 "r"(1));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(BarPtr), "r"(1024));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
        "[%0], [%1], %2, [%3];"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(Buf))),
           "l"(Src), "r"(1040), "r"(BarPtr)
        : "memory");
  }
}

// tma-tensor-map-placement: a by-value map whose address reaches TMA; the
// fix-it adds 'const __grid_constant__'.
__global__ void mapByValue(CUtensorMap Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
}
