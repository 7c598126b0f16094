// libcu++ cp_async_bulk test shape: a __device__ int array is copied into
// shared memory with a 1-D bulk copy, incremented, and copied back.  The
// global array is now declared 128-byte aligned (cccl#3198), enough for the
// bulk copy's 16-byte rule.
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>

namespace ptx = cuda::ptx;

static constexpr int buf_len = 1024;
__device__ alignas(128) int gmem_buffer[buf_len];

__global__ void test_cp_async_bulk() {
  __shared__ alignas(16) int smem_buffer[buf_len];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, blockDim.x);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();

  uint64_t token;
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, smem_buffer, gmem_buffer,
                       sizeof(smem_buffer), &bar);
    token = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared,
                                           &bar, sizeof(smem_buffer));
  } else {
    token = ptx::mbarrier_arrive(&bar);
  }
  while (!ptx::mbarrier_try_wait(&bar, token)) {
  }

  for (int i = threadIdx.x; i < buf_len; i += blockDim.x) smem_buffer[i] += i;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();

  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, gmem_buffer, smem_buffer,
                       sizeof(smem_buffer));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
  __syncthreads();
}

int main() {
  test_cp_async_bulk<<<1, 512>>>();
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
