// tma-tidy bench wrapper: TRT-LLM deep_gemm TMA helper in flashinfer
// (PFN_cuTensorMapEncodeTiled_v12000 getter + encode_func parameter),
// instantiated for the element types its GEMMs use.
#include <cute/arch/cluster_sm90.hpp>
#include <cute/arch/copy_sm90_desc.hpp>
#include "tensorrt_llm/deep_gemm/tma_utils.cuh"

#define TMA_BENCH_INST(T)                                                   \
  template CUtensorMap deep_gemm::make_2d_tma_copy_desc<T>(                 \
      T *, uint64_t *, uint64_t, uint32_t *, CUtensorMapSwizzle,            \
      PFN_cuTensorMapEncodeTiled_v12000);
TMA_BENCH_INST(__nv_fp8_e4m3)
TMA_BENCH_INST(__nv_bfloat16)
TMA_BENCH_INST(float)
