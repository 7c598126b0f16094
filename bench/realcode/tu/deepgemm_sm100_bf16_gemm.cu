// tma-tidy bench wrapper: one instantiation of DeepGEMM's SM100 BF16 GEMM
// kernel, which DeepGEMM's JIT normally instantiates at run time, so that its
// device TMA / mbarrier / store code is in the AST with concrete sizes.
//
// The arguments are those the JIT host would generate for a plain BF16 GEMM
// (K-major A and B, BF16 output, no accumulation) on a 148-SM B200, read from
// DeepGEMM csrc/jit_kernels (snapshot in real-code.md):
//   impls/sm100_bf16_gemm.hpp generate_impl: the argument order;
//   heuristics/sm100.hpp: block_k = 128 / sizeof(bf16) = 64, a 128x128
//     non-swapped layout without a cluster (one of get_layout_candidates),
//     swizzles from get_swizzle_mode (64 * 2 B and 128 * 2 B: 128),
//     stages (232448 - 33580) / 32768 = 6 (get_pipeline_config),
//     128 non-epilogue + 128 epilogue threads (get_launch_config);
//   heuristics/runtime.hpp: K alignment 128 (kLegacyMKAlignment...);
//   jit/device_runtime.hpp: tensor-core utilisation 100 (the default).
#include <deep_gemm/impls/sm100_bf16_gemm.cuh>

namespace deep_gemm {
static constexpr auto kK = cute::UMMA::Major::K;
template __global__ void sm100_bf16_gemm_impl<
    kK, kK,                 // major A, B
    0, 0, 0,                // SHAPE_M/N/K (0 = runtime)
    128, 128, 64,           // BLOCK_M, BLOCK_N, BLOCK_K
    1,                      // kNumGroups
    128, 128, 128,          // swizzle A, B, CD
    6,                      // stages
    128, 128,               // non-epilogue, epilogue threads
    1, false,               // multicast, on A
    148,                    // SMs
    128,                    // K alignment
    false, false,           // swap AB, ensure zero padding
    GemmType::Normal, false, cutlass::bfloat16_t,
    100>(int *, uint32_t, uint32_t, uint32_t, const cute::TmaDescriptor,
         const cute::TmaDescriptor, const cute::TmaDescriptor);
}  // namespace deep_gemm
