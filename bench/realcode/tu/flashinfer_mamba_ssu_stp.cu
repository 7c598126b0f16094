// tma-tidy bench wrapper: flashinfer's mamba selective-state-update kernels
// (SM 90 producer/consumer: cuda::device::memcpy_async_tx and cde tensor
// loads on cuda::barrier, barrier_arrive_tx), one instantiation. The
// constants stand in for the JIT's selective_state_update_config.inc
// (csrc/selective_state_update_customize_config.jinja).
#define FLASHINFER_MAMBA_ENABLE_SM90 1
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

using state_t = half;
using input_t = half;
using weight_t = half;
using matrixA_t = float;
using stateIndex_t = int32_t;
using cuSeqlensIndex_t = int32_t;
using numAcceptedIndex_t = int32_t;
using state_scale_t = float;
constexpr int DIM = 64;
constexpr int DSTATE = 128;
constexpr int NTOKENS_MTP = 1;
constexpr int PHILOX_ROUNDS = 0;

#include <flashinfer/mamba/selective_state_update.cuh>

namespace flashinfer::mamba {
template void invokeSelectiveStateUpdate<input_t, weight_t, matrixA_t, state_t,
                                         stateIndex_t, state_scale_t>(
    SelectiveStateUpdateParams &, SSUAlgorithm, cudaStream_t);
} // namespace flashinfer::mamba
