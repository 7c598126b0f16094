// MBAR-UNINIT on `__shared__ cuda::barrier` arrays used the way production
// rings use them, with the real CCCL headers: `empty[q].wait(empty[q].arrive())`
// and `full[q].arrive()` are known uses of the barrier (as the cde copy and
// barrier_arrive_tx on it are), so a ring whose init loop was deleted is
// reported; its twin initialises every stage.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cuda.h>
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

constexpr int Stages = 4;

__global__ void ringNeverInit(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[Stages][64 * 64];
  __shared__ block_barrier full[Stages], empty[Stages];
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    int q = k % Stages;
    if (threadIdx.x == 0) {
      empty[q].wait(empty[q].arrive());
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'empty' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      cde::cp_async_bulk_tensor_2d_global_to_shared(&tile[q][0], &map, k, 0,
                                                    full[q]);
      // CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      (void)cuda::device::barrier_arrive_tx(full[q], 1, sizeof(tile[0]));
    } else {
      full[q].wait(full[q].arrive());
      (void)empty[q].arrive();
    }
  }
}

// The twin: one thread initialises every stage before the block syncs.
__global__ void ringInit(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ alignas(128) float tile[Stages][64 * 64];
  __shared__ block_barrier full[Stages], empty[Stages];
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s) {
      init(&full[s], blockDim.x);
      init(&empty[s], blockDim.x);
    }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    int q = k % Stages;
    if (threadIdx.x == 0) {
      empty[q].wait(empty[q].arrive());
      cde::cp_async_bulk_tensor_2d_global_to_shared(&tile[q][0], &map, k, 0,
                                                    full[q]);
      (void)cuda::device::barrier_arrive_tx(full[q], 1, sizeof(tile[0]));
    } else {
      full[q].wait(full[q].arrive());
      (void)empty[q].arrive();
    }
  }
}
