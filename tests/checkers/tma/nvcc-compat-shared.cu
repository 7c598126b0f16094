// nvcc-isms that clang rejects, accepted by the module's compatibility
// action (docs/nvcc-compat.md): the CUDA Programming Guide's scalar
// `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` (and
// cuda::pipeline_shared_state), and `extern __shared__ SMem s;` of a struct
// type (fast.cu matmul_3, h100_gemm). Without it the declarations are errors
// and every check is silent on the kernels; with it the declarations are
// valid and the checks see ordinary expressions.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx,tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx,tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host
// -DTMA_NVCC_COMPAT=0 turns it off: clang's errors, no tma- diagnostic.
// RUN: %check_clang_tidy -expect-clang-tidy-error -check-suffixes=OFF %s tma-expect-tx,tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device -DTMA_NVCC_COMPAT=0

#include <cstdint>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <utility>

namespace cde = cuda::device::experimental;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// The Guide's 1-D bulk copy, with half the bytes expected.
__global__ void guideWrong(const int *g) {
  __shared__ alignas(16) int smem[1024];
  __shared__ barrier bar;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:22: error: initialization is not supported for __shared__ variables [clang-diagnostic-error]
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(smem, g, sizeof(smem), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem) / 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: expect-tx of 2048 bytes on 'bar' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
}

// Correct twin: silent.
__global__ void guideRight(const int *g) {
  __shared__ alignas(16) int smem[1024];
  __shared__ barrier bar;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:22: error: initialization is not supported for __shared__ variables [clang-diagnostic-error]
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(smem, g, sizeof(smem), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
}

// A misaligned destination next to a scalar barrier.
__global__ void misaligned(const int *g) {
  __shared__ alignas(16) int smem[1024];
  __shared__ barrier bar;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:22: error: initialization is not supported for __shared__ variables [clang-diagnostic-error]
  if (threadIdx.x == 0) {
    init(&bar, 1);
    cde::cp_async_bulk_global_to_shared(smem + 2, g, 64, bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
    // CHECK-MESSAGES-OFF: :[[@LINE-2]]:41: warning: cde::cp_async_bulk_global_to_shared shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
    cde::cp_async_bulk_global_to_shared(smem + 4, g, 64, bar);
    (void)cuda::device::barrier_arrive_tx(bar, 1, 128);
  }
}

// A pipeline's shared state is accepted the same way (its stages hold
// block-scope barriers).
__global__ void pipelineState() {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:71: error: initialization is not supported for __shared__ variables [clang-diagnostic-error]
  (void)state;
}

// Dynamic shared memory of a struct type: the field's offset from the
// record layout, the start 16-byte aligned (the struct's own alignment).
struct Stage {
  alignas(16) uint64_t full;
  int data[64];
};
struct StageRight {
  alignas(16) uint64_t full;
  alignas(16) int data[64];
};

__device__ void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :: "l"(bar), "r"(bytes) : "memory");
}

__global__ void externStruct(const int *g) {
  extern __shared__ Stage s;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:10: error: __shared__ variable 's' cannot be 'extern' [clang-diagnostic-error]
  if (threadIdx.x == 0) {
    expectTx(&s.full, 256);
    // CHECK-MESSAGES-OFF: :[[@LINE-1]]:15: error: reference to __host__ variable 's' in __global__ function [clang-diagnostic-error]
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                 :: "l"(s.data), "l"(g), "l"(&s.full) : "memory");
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: cp.async.bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
    // CHECK-MESSAGES-OFF: :[[@LINE-2]]:25: error: reference to __host__ variable 's' in __global__ function [clang-diagnostic-error]
    // CHECK-MESSAGES-OFF: :[[@LINE-3]]:47: error: reference to __host__ variable 's' in __global__ function [clang-diagnostic-error]
  }
}

__global__ void externStructRight(const int *g) {
  extern __shared__ StageRight r;
  // CHECK-MESSAGES-OFF: :[[@LINE-1]]:10: error: __shared__ variable 'r' cannot be 'extern' [clang-diagnostic-error]
  if (threadIdx.x == 0) {
    expectTx(&r.full, 256);
    // CHECK-MESSAGES-OFF: :[[@LINE-1]]:15: error: reference to __host__ variable 'r' in __global__ function [clang-diagnostic-error]
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                 :: "l"(r.data), "l"(g), "l"(&r.full) : "memory");
    // CHECK-MESSAGES-OFF: :[[@LINE-1]]:25: error: reference to __host__ variable 'r' in __global__ function [clang-diagnostic-error]
    // CHECK-MESSAGES-OFF: :[[@LINE-2]]:47: error: reference to __host__ variable 'r' in __global__ function [clang-diagnostic-error]
  }
}
