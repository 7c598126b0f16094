// The real toolkit with CCCL: %cuda_real_* finds <cuda/barrier> and
// <cuda/ptx> (in include/cccl) and clang 22 parses them in both passes.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s bugprone-integer-division %t -- -- %cuda_real_device
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_host

#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <utility>

using Barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__global__ void kernel(const __grid_constant__ CUtensorMap Map, float *Out) {
  __shared__ alignas(128) float Tile[64 * 64];
  // clang rejects `__shared__ Barrier Bar;` (its constructor is not empty),
  // so tests keep a block-scope barrier in raw shared storage.
  __shared__ alignas(Barrier) unsigned char BarStorage[sizeof(Barrier)];
  Barrier &Bar = *reinterpret_cast<Barrier *>(BarStorage);
  if (threadIdx.x == 0) {
    init(&Bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  Barrier::arrival_token Token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(Tile, &Map, 0, 0, Bar);
    Token = cuda::device::barrier_arrive_tx(Bar, 1, sizeof(Tile));
  } else {
    Token = Bar.arrive();
  }
  Bar.wait(std::move(Token));
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
#if __CUDA_ARCH__ >= 900
  Out[0] = Tile[threadIdx.x] + 1 / 2;
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:32: warning: result of integer division used in a floating point context; possible loss of precision [bugprone-integer-division]
#endif
}

// The checks did see the whole file.
float last() { return 1 / 2; }
// CHECK-MESSAGES: :[[@LINE-1]]:23: warning: result of integer division used in a floating point context; possible loss of precision [bugprone-integer-division]
