// tma-tidy bench wrapper: one instantiation of DeepGEMM's SM90 BF16 GEMM kernel
// (normally produced at run time by its JIT), so that the device TMA /
// expect_tx code is in the AST with concrete tile sizes. The parameter values
// are a plausible H100 configuration chosen for this bench.
#include <deep_gemm/impls/sm90_bf16_gemm.cuh>

namespace deep_gemm {
static constexpr auto kK = cute::UMMA::Major::K;
template __global__ void sm90_bf16_gemm_impl<
    kK, kK,                 // major A, B
    0, 0, 0,                // SHAPE_M/N/K (0 = runtime)
    1,                      // kNumGroups
    128, 128, 64,           // BLOCK_M, BLOCK_N, BLOCK_K
    128, 128, 128,          // swizzle A, B, D
    5,                      // stages
    128, 256,               // TMA threads, math threads
    1, true,                // multicast
    132,                    // SMs
    GemmType::Normal, false,
    cutlass::bfloat16_t>(int *, uint32_t, uint32_t, uint32_t,
                         const cute::TmaDescriptor, const cute::TmaDescriptor,
                         const cute::TmaDescriptor);
}  // namespace deep_gemm
