// tma-tidy bench wrapper for the fast.cu pingpong experiment header.
#include "fastcu_prelude.h"
#include "examples/matmul/pingpong_experimental.cuh"
