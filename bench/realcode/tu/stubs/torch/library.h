// tma-tidy bench stub: just enough of <torch/library.h> for host helpers that
// only use TORCH_CHECK, plus the headers the real one pulls in transitively
// and that learn-cuda/02e relies on (nv_bfloat16, std::tuple). Not PyTorch code.
#pragma once
#include <cstdlib>
#include <tuple>
#include <cuda_bf16.h>
#define TORCH_CHECK(cond, ...) do { if (!(cond)) std::abort(); } while (0)
