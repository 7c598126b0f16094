// tma-tidy bench wrapper: TRT-LLM fp8 block-scale GEMM TMA helper in
// flashinfer (same PFN getter + encode_func parameter pattern).
#include "tensorrt_llm/kernels/cutlass_kernels/fp8_blockscale_gemm/fp8_blockscale_tma_utils.cuh"

#define TMA_BENCH_INST(T)                                                   \
  template CUtensorMap tensorrt_llm::kernels::fp8_blockscale_gemm::         \
      make_2d_tma_copy_desc<T>(T *, uint64_t *, uint64_t, uint32_t *,       \
                               CUtensorMapSwizzle,                          \
                               PFN_cuTensorMapEncodeTiled_v12000);
TMA_BENCH_INST(__nv_fp8_e4m3)
TMA_BENCH_INST(float)
