// TMA-STORE-WAIT over a stage that a helper names with its own locals: a
// write-back helper with its own loop over the ring (`stage = (1 + iter) %
// 2`, a local of the helper) stores a stage, commits, waits, then refills
// the same stage with a TMA load (the shape of a state-update kernel's
// steady phase). The same stage expression in the same call of the helper,
// in the same pass of its loop, is the same stage; `wait_group.read 1`
// after one commit lets the store still read it when the load overwrites
// it. The twin waits with depth 0.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

constexpr int kTile = 64 * 32;

struct Ring {
  alignas(128) float state[2][kTile];
};

template <int Depth>
__device__ void writeBackRefill(Ring &r, block_barrier *full,
                                const CUtensorMap *map, int n) {
  for (int iter = 0; iter < n; ++iter) {
    const int stage = (1 + iter) % 2;
    cde::fence_proxy_async_shared_cta();
    cde::cp_async_bulk_tensor_2d_shared_to_global(map, 0, iter,
                                                  &r.state[stage][0]);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<Depth>();
    cde::cp_async_bulk_tensor_2d_global_to_shared(&r.state[stage][0], map, 0,
                                                  iter + 2, full[stage]);
  }
}

__global__ void refillShallow(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ Ring ring;
  __shared__ block_barrier full[2];
  if (threadIdx.x == 0) {
    init(&full[0], 1);
    init(&full[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    writeBackRefill<1>(ring, full, &map, n);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA load overwrites the stage of 'ring.state' that the TMA store at line [[#@LINE-1]] may still read: wait_group.read 1 at line [[#@LINE-1]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the TMA store reads 'ring.state' here
  // CHECK-NOTES: :[[@LINE-21]]:5: note: issued here
  // CHECK-NOTES: :[[@LINE-4]]:5: note: wait_group.read 0 would complete the copy's group
}

// The twin: the store's group completes before the refill.
__global__ void refillWaited(const __grid_constant__ CUtensorMap map, int n) {
  __shared__ Ring ring;
  __shared__ block_barrier full[2];
  if (threadIdx.x == 0) {
    init(&full[0], 1);
    init(&full[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    writeBackRefill<0>(ring, full, &map, n);
}
