// The fix-its of tma-ordering, in the API the code around them calls: the
// missing fence.proxy.async before the thread barrier that hands the buffer
// over (or before the copy when the writing thread copies), the missing
// __syncthreads() after a guarded mbarrier.init, and a wait_group.read
// depth that is too shallow (the literal at the wait). The last RUN lines
// check the fixed file again: every finding here is gone once fixed.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %clang_tidy %t.cu --checks='-*,tma-ordering' --load=%tma_plugin -- %cuda_stub_device 2>&1 | FileCheck %s --check-prefix=REFIXED --allow-empty --implicit-check-not='warning:'
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %clang_tidy %t.cu --checks='-*,tma-ordering' --load=%tma_plugin -- %cuda_stub_host 2>&1 | FileCheck %s --check-prefix=REFIXED --allow-empty --implicit-check-not='warning:'

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
__device__ size_t __cvta_generic_to_shared(const void *);
namespace cuda::ptx {
inline namespace __4 {
template <int N> struct n32_t {};
template <typename = void>
__device__ static inline void cp_async_bulk_commit_group();
template <int N>
__device__ static inline void cp_async_bulk_wait_group_read(n32_t<N>);
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

// The alias the code uses ('ptx::') is the fence's qualifier too.
__global__ void aliasNoFence(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  __syncthreads();
  // CHECK-FIXES: {{^}}  ptx::fence_proxy_async(ptx::space_shared);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, buf,
                       sizeof(buf));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: bulk copy reads 'buf' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async in between (BULK-S2G-FENCE-BEFORE) [tma-ordering]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
  }
}

// Two stores of buffers written before one thread barrier: one fence.
__global__ void twoBuffers(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float a[64 * 64];
  __shared__ alignas(128) float b[64 * 64];
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = 2.0f;
    __syncthreads();
  // CHECK-FIXES: {{^}}    cuda::device::experimental::fence_proxy_async_shared_cta();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    cuda::device::experimental::cp_async_bulk_tensor_2d_shared_to_global(
        &map, 0, 0, a);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: TMA store reads 'a' written by generic stores at line [[#@LINE-8]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    cuda::device::experimental::cp_async_bulk_tensor_2d_shared_to_global(
        &map, 64, 0, b);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: TMA store reads 'b' written by generic stores at line [[#@LINE-10]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// Writes in a loop, the hand-off after it.
__global__ void loopWrites(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    tile[i] = 0.0f;
  asm volatile("bar.sync 0;" ::: "memory");
  // CHECK-FIXES: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  asm volatile("bar.sync 0;" ::: "memory");{{$}}
  if (threadIdx.x == 0) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
        " [%0, {%2, %3}], [%1];"
        :: "l"(&map),
           "r"(static_cast<uint32_t>(__cvta_generic_to_shared(tile))),
           "r"(0), "r"(0)
        : "memory");
    // CHECK-MESSAGES: :[[@LINE-7]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-12]] {{.*}}(TMA-STORE-FENCE) [tma-ordering]
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// Inline PTX wait depth: the digit in the asm string.
__global__ void asmShallow(float *out, int tiles) {
  __shared__ alignas(16) float buf[256];
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    // CHECK-FIXES: {{^}}      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");{{$}}
    __syncthreads();
    buf[threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE+4]] may still read it: wait_group.read 1 at line [[#@LINE-4]] {{.*}}(BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         buf, sizeof(buf));
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
}

// cuda::ptx wait depth: the n32_t<N> argument; two groups committed since
// the copy want wait_group.read 1.
__global__ void ptxShallow(float *out, float *other, int tiles) {
  __shared__ alignas(16) float buf[256];
  __shared__ alignas(16) float spare[256];
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<2>{});
    // CHECK-FIXES: {{^}}      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>{});{{$}}
    __syncthreads();
    buf[threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE+4]] may still read it: wait_group.read 2 at line [[#@LINE-4]] lets its group stay pending (2 groups committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         buf, sizeof(buf));
      ptx::cp_async_bulk_commit_group();
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, other, spare,
                         sizeof(spare));
      ptx::cp_async_bulk_commit_group();
    }
  }
}

// MBAR-INIT-VISIBLE: __syncthreads() before the kernel statement that
// holds the first use by all threads (here a wait loop).
__global__ void initNoSync(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
  for (int spin = 0; !ptx::mbarrier_try_wait_parity(&bar, 0); ++spin) {
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'bar' is used by all threads here after its mbarrier.init at line [[#@LINE-8]] {{.*}}(MBAR-INIT-VISIBLE) [tma-ordering]
  }
  // CHECK-FIXES: {{^}}                       &bar);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: for (int spin = 0; !ptx::mbarrier_try_wait_parity(&bar, 0); ++spin) {
}

// REFIXED-NOT: warning:
