// tma-tidy bench: minimal prelude that the fast.cu kernel headers expect from
// their (not analysed) driver file: CUDA headers, a bf16 alias, CEIL_DIV and
// cudaCheck. Written for this bench; contains no code from fast.cu.
#pragma once
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda/barrier>

using bf16 = __nv_bfloat16;
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
inline void tmaBenchCudaCheck(cudaError_t e) {
  if (e != cudaSuccess) std::abort();
}
#define cudaCheck(e) tmaBenchCudaCheck(e)
