// tma-ordering findings without a fix-it: the edit is not certain (another
// thread copies and a thread barrier is missing too, the hand-off is a
// macro, the copy is no statement of a { } block, the wait depth is no
// literal at the wait, the init and the use share one statement). The
// runner checks that the fixed copy equals the input. The OFF runs turn
// two rule ids off with DisabledRules (per check, then globally): the
// other rules of the check still report.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=OFF %s tma-ordering %t -- --load=%tma_plugin --config="{CheckOptions: {tma-ordering.DisabledRules: 'TMA-STORE-FENCE, MBAR-INIT-VISIBLE'}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=OFF %s tma-ordering %t -- --load=%tma_plugin --config="{CheckOptions: {DisabledRules: 'TMA-STORE-FENCE, MBAR-INIT-VISIBLE'}}" -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

// Every thread writes, thread 0 copies, nothing in between: a fence alone
// would not hand the buffer over.
__global__ void noHandOff(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-3]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// The hand-off is a macro.
#define HAND_OFF() __syncthreads()
__global__ void macroHandOff(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 1.0f;
  HAND_OFF();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-4]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// The writing thread copies, but the copy is the body of an if without
// braces: no statement can go before it.
__global__ void unbracedCopy(const __grid_constant__ CUtensorMap map,
                             int ready) {
  __shared__ alignas(128) float tile[64 * 64];
  if (threadIdx.x == 0) {
    tile[0] = 1.0f;
    for (int r = 0; r < ready; ++r)
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, r, 0, tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-3]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// The depth is a named constant, or an "n" operand: not rewritten.
__global__ void namedDepth(const __grid_constant__ CUtensorMap map,
                           int tiles) {
  constexpr int kPending = 1;
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<kPending>();
    __syncthreads();
    tile[threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' {{.*}}wait_group.read 1 at line [[#@LINE-3]] {{.*}}(TMA-STORE-WAIT) [tma-ordering]
    // CHECK-MESSAGES-OFF: :[[@LINE-2]]:23: warning: generic store overwrites 'tile' {{.*}}wait_group.read 1 at line [[#@LINE-4]] {{.*}}(TMA-STORE-WAIT) [tma-ordering]
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  }
}

__global__ void operandDepth(float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(1) : "memory");
    __syncthreads();
    buf[threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic store overwrites 'buf' {{.*}}wait_group.read 1 at line [[#@LINE-3]] {{.*}}(BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    // CHECK-MESSAGES-OFF: :[[@LINE-2]]:22: warning: generic store overwrites 'buf' {{.*}}wait_group.read 1 at line [[#@LINE-4]] {{.*}}(BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         buf, sizeof(buf));
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
}

// The init and the first use share one statement of the kernel's block.
__global__ void initInBlock(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  {
    if (threadIdx.x == 0) {
      ptx::mbarrier_init(&bar, 1);
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, 1024);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                         1024, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-7]] {{.*}}(MBAR-INIT-VISIBLE) [tma-ordering]
    }
  }
}
