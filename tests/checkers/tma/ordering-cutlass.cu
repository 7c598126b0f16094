// MBAR-UNINIT, MBAR-INIT-VISIBLE and MBAR-REINIT-INVAL through CUTLASS's
// barrier classes (cutlass::arch::ClusterTransactionBarrier, member and
// static forms, as CUTLASS writes them: tests/checkers/Inputs/cutlass): a
// barrier that is never initialised, one used by all threads right after a
// guarded init, one initialised again in the loop that uses it; each with
// its correct twin. CUTLASS compiles the asm out of the host pass: silent.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device -I %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host -I %S/../Inputs/cutlass

#include <cstdint>
#include <cuda/ptx>
#include <cutlass/arch/barrier.h>

using cutlass::arch::ClusterTransactionBarrier;
namespace ptx = cuda::ptx;

// MBAR-UNINIT through CUTLASS's barrier class: never initialised.
__global__ void cutlassNeverInit(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ ClusterTransactionBarrier full[1];
  if (threadIdx.x == 0) {
    full[0].arrive_and_expect_tx(sizeof(s));
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:5: warning: 'full' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                       reinterpret_cast<uint64_t *>(&full[0]));
  }
}

__global__ void cutlassInit(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ ClusterTransactionBarrier full[1];
  if (threadIdx.x == 0)
    full[0].init(1);
  __syncthreads();
  if (threadIdx.x == 0) {
    full[0].arrive_and_expect_tx(sizeof(s));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                       reinterpret_cast<uint64_t *>(&full[0]));
  }
}

// MBAR-INIT-VISIBLE through CUTLASS's static init.
__global__ void cutlassInitNoSync(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t raw;
  if (threadIdx.x == 0)
    ClusterTransactionBarrier::init(&raw, 1);
  ClusterTransactionBarrier::arrive_and_expect_tx(&raw, sizeof(s));
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:3: warning: 'raw' is used by all threads here after its mbarrier.init at line [[#@LINE-2]] {{.*}}(MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-FIXES-DEVICE: {{^}}    ClusterTransactionBarrier::init(&raw, 1);{{$}}
  // CHECK-FIXES-DEVICE-NEXT: {{^}}  __syncthreads();{{$}}
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                     &raw);
}

__global__ void cutlassInitSynced(const float *g) {
  __shared__ alignas(16) float s[64];
  __shared__ uint64_t raw;
  if (threadIdx.x == 0)
    ClusterTransactionBarrier::init(&raw, 1);
  __syncthreads();
  ClusterTransactionBarrier::arrive_and_expect_tx(&raw, sizeof(s));
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g, sizeof(s),
                     &raw);
}

// MBAR-REINIT-INVAL through CUTLASS's member init.
__global__ void cutlassReinit(const float *g, int n) {
  __shared__ alignas(16) float s[64];
  __shared__ ClusterTransactionBarrier full[1];
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0)
      full[0].init(1);
    // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:7: warning: mbarrier.init of 'full' inside a loop that uses it{{.*}}(MBAR-REINIT-INVAL) [tma-ordering]
    __syncthreads();
    if (threadIdx.x == 0) {
      full[0].arrive_and_expect_tx(sizeof(s));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g + k * 64,
                         sizeof(s), reinterpret_cast<uint64_t *>(&full[0]));
    }
    __syncthreads();
  }
}

__global__ void cutlassInitOnce(const float *g, int n) {
  __shared__ alignas(16) float s[64];
  __shared__ ClusterTransactionBarrier full[1];
  if (threadIdx.x == 0)
    full[0].init(1);
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x == 0) {
      full[0].arrive_and_expect_tx(sizeof(s));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s, g + k * 64,
                         sizeof(s), reinterpret_cast<uint64_t *>(&full[0]));
    }
    __syncthreads();
  }
}
