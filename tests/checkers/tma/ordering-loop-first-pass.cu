// Loops whose first pass surely runs have no zero-trip path in the kernel
// model (issue 24 item 4): a `for` whose counter starts below a constant
// bound (`for (int j = 0; j < 4; ++j)`), or a thread-strided loop whose
// first value is below the bound in every thread of the block
// (`for (int i = threadIdx.x; i < 256; i += 128)` in a block of 128). A
// refill of a ping-pong buffer that the readers of this pass still read is
// then not excused by the next pass's wait, reached only by skipping the
// reading loop. A loop that some threads may skip (a bound below the block
// size, a bound known only at run time) keeps its zero-trip path. Each
// wrong kernel has its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace ptx = cuda::ptx;

constexpr int kBufs = 2;
constexpr int kTileElems = 64 * 64;

__device__ void refill(const CUtensorMap *map, float *dst, uint64_t *bar,
                       int y) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar,
                                 kTileElems * sizeof(float));
  const int32_t coords[2] = {0, y};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, map,
                            coords, bar);
}

// Every thread reads its elements of buffer b; thread 0 then refills b at
// once, with no fence (and no hand-off) after the reads.
__global__ void __launch_bounds__(128)
stridedReadsThenRefill(const __grid_constant__ CUtensorMap map, float *out,
                       int stages) {
  __shared__ alignas(128) float buf[kBufs][kTileElems];
  __shared__ alignas(8) uint64_t bar[kBufs];
  if (threadIdx.x == 0) {
    for (int b = 0; b < kBufs; ++b)
      ptx::mbarrier_init(&bar[b], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int b = 0; b < kBufs; ++b)
      refill(&map, buf[b], &bar[b], b);
  float acc = 0.f;
  for (int s = 0; s < stages; ++s) {
    const int b = s % kBufs;
    while (!ptx::mbarrier_try_wait_parity(&bar[b], (s / kBufs) & 1)) {
    }
    for (int i = threadIdx.x; i < 256; i += 128)
      acc += buf[b][i];
    if (threadIdx.x == 0)
      refill(&map, buf[b], &bar[b], s + kBufs);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: TMA load overwrites 'buf' that generic loads read at line [[#@LINE-3]] with no fence.proxy.async, thread barrier or mbarrier hand-off in between (ASYNC-WAR-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-4]]:14: note: generic load of 'buf' here
  }
  out[threadIdx.x] = acc;
}

// The twin: the readers fence and hand the buffer over first.
__global__ void __launch_bounds__(128)
stridedReadsFencedRefill(const __grid_constant__ CUtensorMap map, float *out,
                         int stages) {
  __shared__ alignas(128) float buf[kBufs][kTileElems];
  __shared__ alignas(8) uint64_t bar[kBufs];
  if (threadIdx.x == 0) {
    for (int b = 0; b < kBufs; ++b)
      ptx::mbarrier_init(&bar[b], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int b = 0; b < kBufs; ++b)
      refill(&map, buf[b], &bar[b], b);
  float acc = 0.f;
  for (int s = 0; s < stages; ++s) {
    const int b = s % kBufs;
    while (!ptx::mbarrier_try_wait_parity(&bar[b], (s / kBufs) & 1)) {
    }
    for (int i = threadIdx.x; i < 256; i += 128)
      acc += buf[b][i];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0)
      refill(&map, buf[b], &bar[b], s + kBufs);
  }
  out[threadIdx.x] = acc;
}

// A counted loop of four passes runs its first pass too.
__global__ void __launch_bounds__(128)
countedReadsThenRefill(const __grid_constant__ CUtensorMap map, float *out,
                       int stages) {
  __shared__ alignas(128) float buf[kBufs][kTileElems];
  __shared__ alignas(8) uint64_t bar[kBufs];
  if (threadIdx.x == 0) {
    for (int b = 0; b < kBufs; ++b)
      ptx::mbarrier_init(&bar[b], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int b = 0; b < kBufs; ++b)
      refill(&map, buf[b], &bar[b], b);
  float acc = 0.f;
  for (int s = 0; s < stages; ++s) {
    const int b = s % kBufs;
    while (!ptx::mbarrier_try_wait_parity(&bar[b], (s / kBufs) & 1)) {
    }
    for (int j = 0; j < 4; ++j)
      acc += buf[b][threadIdx.x * 4 + j];
    if (threadIdx.x == 0)
      refill(&map, buf[b], &bar[b], s + kBufs);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: TMA load overwrites 'buf' that generic loads read at line [[#@LINE-3]] with no fence.proxy.async, thread barrier or mbarrier hand-off in between (ASYNC-WAR-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-4]]:14: note: generic load of 'buf' here
  }
  out[threadIdx.x] = acc;
}

// Threads 64..127 skip the reading loop (64 < the block's 128 threads), and
// a run-time bound may be 0: both keep the path that skips the reads, on
// which the next pass's wait lies. Silent.
__global__ void __launch_bounds__(128)
someThreadsSkipTheReads(const __grid_constant__ CUtensorMap map, float *out,
                        int stages, int n) {
  __shared__ alignas(128) float buf[kBufs][kTileElems];
  __shared__ alignas(8) uint64_t bar[kBufs];
  if (threadIdx.x == 0) {
    for (int b = 0; b < kBufs; ++b)
      ptx::mbarrier_init(&bar[b], 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int b = 0; b < kBufs; ++b)
      refill(&map, buf[b], &bar[b], b);
  float acc = 0.f;
  for (int s = 0; s < stages; ++s) {
    const int b = s % kBufs;
    while (!ptx::mbarrier_try_wait_parity(&bar[b], (s / kBufs) & 1)) {
    }
    for (int i = threadIdx.x; i < 64; i += 128)
      acc += buf[b][i];
    for (int j = 0; j < n; ++j)
      acc += buf[b][4096 - 1 - j];
    if (threadIdx.x == 0)
      refill(&map, buf[b], &bar[b], s + kBufs);
  }
  out[threadIdx.x] = acc;
}
