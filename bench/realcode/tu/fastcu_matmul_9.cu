// tma-tidy bench wrapper: one fast.cu kernel header per TU (each defines
// its own create_tensor_map, so they cannot share a TU).
#include "fastcu_prelude.h"
#include "examples/matmul/matmul_9.cuh"
