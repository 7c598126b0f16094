// tma-tidy bench wrapper: the TMA helper header of h100_gemm, instantiated with
// the tile sizes its Hopper launcher uses (launcher.cu itself does not parse
// with clang: scalar __shared__ cuda::barrier).
#include "kernels/hopper/hopper_tma_utils.h"

template void create_tensor_map<64u, 64u>(CUtensorMap *, bf16 *, uint, uint);
template void create_tensor_map<128u, 64u>(CUtensorMap *, bf16 *, uint, uint);
template void create_tensor_map<256u, 64u>(CUtensorMap *, bf16 *, uint, uint);
template CUtensorMap *create_and_allocate_tensor_map<128u, 64u>(bf16 *, uint, uint);
