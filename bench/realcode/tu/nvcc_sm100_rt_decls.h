// tma-tidy bench shim: nvcc declares the sm_100 packed-float intrinsics
// (crt/sm_100_rt.h) for every target; clang's CUDA wrappers do not, so code
// that names them in a non-dependent call inside a template (DeepGEMM
// common/math.cuh) fails two-phase lookup. Declarations only (analysis).
#pragma once
#include <vector_types.h>
__device__ float2 __fmul2_rn(float2, float2);
__device__ float2 __fadd2_rn(float2, float2);
__device__ float2 __ffma2_rn(float2, float2, float2);
