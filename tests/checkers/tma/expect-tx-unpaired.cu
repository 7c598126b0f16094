// MBAR-TX-EQUALS-BYTES, kernel-wide: an expect-tx on a barrier that no copy
// of the kernel completes on (the phase never completes), and copies on a
// barrier that no expect-tx counts. Only for __shared__ barriers of the
// kernel whose every use is a recognised op.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace cuda {
__device__ void init(block_barrier *bar, ptrdiff_t expected);
}

// The copy went to the wrong barrier: 'data' expects, 'other' receives.
__global__ void wrongBarrier(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t data, other;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &data, 1024);
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: expect-tx on 'data' but no copy in this kernel completes on it: its phase never completes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, 1024, &other);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: copies complete on 'other' but no expect-tx in this kernel counts their bytes: its phases complete before the data lands, or never (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  }
}

// cde copy with a plain arrive: nothing counts the bytes.
__global__ void plainArrive(const float *src) {
  __shared__ alignas(16) float tile[256];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    cuda::init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(tile, src, sizeof(tile), bar);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: copies complete on 'bar' but no expect-tx in this kernel counts their bytes: its phases complete before the data lands, or never (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    token = bar.arrive();
  } else {
    token = bar.arrive();
  }
  bar.wait(static_cast<block_barrier::arrival_token &&>(token));
}

// The barrier goes to a function the model does not follow: silent.
__device__ void somewhere(uint64_t *bar);
__global__ void passedOn(const char *src) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 1024);
    somewhere(&bar);
  }
}

// A zero count expects nothing: silent.
__global__ void zeroCount() {
  __shared__ uint64_t bar;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &bar, 0);
}

// A barrier that is not the kernel's own (a parameter): silent.
__global__ void notOwn(uint64_t *bar) {
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, bar, 64);
}
