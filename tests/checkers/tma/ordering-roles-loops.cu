// Loops of warp-role code as the kernel model follows them (issue 24 item
// 4). A loop that always runs at least once (a `for` from 0 below a
// constant bound, a `do {} while`) has no zero-trip path: a wait inside it
// protects the reads after it. A wait on any path between a copy and a read
// silences TMA-LOAD-WAIT-BEFORE-READ (the rules never claim that a branch
// is taken), so a wait loop that may run zero times (a run-time bound, a
// `while` whose condition may be false at once) is silent too: that is a
// limit, kept here so that it shows. A multi-pass ring of three staging
// buffers, each stored by the leader and written again three passes later,
// is followed around the loop for as many passes as the wait depth needs:
// `wait_group.read 2` (S - 1) completes the store of the stage's last lap,
// `wait_group.read 3` does not. The wrong ring has its correct twin; the
// loops whose first pass surely runs are reported where it matters in
// ordering-loop-first-pass.cu.
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

constexpr int kStages = 2;
constexpr int kTile = 64 * 64;

__device__ void loadAll(const CUtensorMap *map, float (*buf)[kTile],
                        uint64_t *full) {
  for (int s = 0; s < kStages; ++s) {
    ptx::mbarrier_init(&full[s], 1);
  }
  ptx::fence_proxy_async(ptx::space_shared);
  for (int s = 0; s < kStages; ++s) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &full[s],
                                   kTile * sizeof(float));
    const int32_t coords[2] = {0, s};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf[s],
                              map, coords, &full[s]);
  }
}

// The consumers wait on every stage in a loop whose bound may be 0 (a
// run-time count): on that path the reads follow the copies unprotected.
// Silent (the limit above).
__global__ void __launch_bounds__(128)
waitLoopMayBeSkipped(const __grid_constant__ CUtensorMap map, float *out,
                     int waits) {
  __shared__ alignas(128) float buf[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  if (threadIdx.x == 0)
    loadAll(&map, buf, full);
  __syncthreads();
  for (int s = 0; s < waits; ++s)
    while (!ptx::mbarrier_try_wait_parity(&full[s], 0)) {
    }
  float acc = 0.f;
  for (int s = 0; s < kStages; ++s)
    acc += buf[s][threadIdx.x];
  out[threadIdx.x] = acc;
}

// The twin: the wait loop runs from 0 below the constant kStages, so its
// first pass surely runs and the reads after it are protected.
__global__ void __launch_bounds__(128)
waitLoopAlwaysRuns(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(128) float buf[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  if (threadIdx.x == 0)
    loadAll(&map, buf, full);
  __syncthreads();
  for (int s = 0; s < kStages; ++s)
    while (!ptx::mbarrier_try_wait_parity(&full[s], 0)) {
    }
  float acc = 0.f;
  for (int s = 0; s < kStages; ++s)
    acc += buf[s][threadIdx.x];
  out[threadIdx.x] = acc;
}

// The wait as the body of a `do {} while`: it runs before the loop's
// condition is first read. Silent.
__global__ void __launch_bounds__(128)
waitInDoWhile(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(128) float buf[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  if (threadIdx.x == 0)
    loadAll(&map, buf, full);
  __syncthreads();
  bool done;
  do {
    done = ptx::mbarrier_try_wait_parity(&full[0], 0);
  } while (!done);
  out[threadIdx.x] = buf[0][threadIdx.x];
}

// The same read after a `while` loop whose condition is read first: the
// wait in its body may run zero times. Silent (the limit above).
__global__ void __launch_bounds__(128)
waitInWhileBody(const __grid_constant__ CUtensorMap map, float *out,
                const int *flag) {
  __shared__ alignas(128) float buf[kStages][kTile];
  __shared__ alignas(8) uint64_t full[kStages];
  if (threadIdx.x == 0)
    loadAll(&map, buf, full);
  __syncthreads();
  bool done = *flag != 0;
  while (!done)
    done = ptx::mbarrier_try_wait_parity(&full[0], 0);
  out[threadIdx.x] = buf[0][threadIdx.x];
}

constexpr int kRing = 3;

// A ring of three staging buffers: the leader writes stage it % 3, stores
// and commits it; the stage comes back three passes later, when two groups
// have been committed since its store. wait_group.read 3 leaves it pending.
__global__ void ringOfThreeWaitTooShallow(const __grid_constant__ CUtensorMap out,
                                          const float *in, int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  if (threadIdx.x != 0)
    return;
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    asm volatile("cp.async.bulk.wait_group.read 3;" ::: "memory");
    for (int i = 0; i < kTile; ++i)
      stage[b][i] = in[it * kTile + i];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: generic store overwrites the stage of 'stage' that the TMA store at line [[#@LINE+5]] read 3 passes earlier (a ring of 3 stages) and may still read: wait_group.read 3 at line [[#@LINE-3]] lets its group stay pending (3 groups committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:5: note: the TMA store reads 'stage' here
    // CHECK-NOTES: :[[@LINE-5]]:5: note: wait_group.read 2 would complete the copy's group
    ptx::fence_proxy_async(ptx::space_shared);
    const int32_t coords[2] = {0, it};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out,
                              coords, stage[b]);
    asm volatile("cp.async.bulk.commit_group;");
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// The twin: wait_group.read 2 (S - 1) completes the group of three passes
// back.
__global__ void ringOfThreeWaitDeepEnough(const __grid_constant__ CUtensorMap out,
                                          const float *in, int chunks) {
  __shared__ alignas(128) float stage[kRing][kTile];
  if (threadIdx.x != 0)
    return;
  for (int it = 0; it < chunks; ++it) {
    const int b = it % kRing;
    asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory");
    for (int i = 0; i < kTile; ++i)
      stage[b][i] = in[it * kTile + i];
    ptx::fence_proxy_async(ptx::space_shared);
    const int32_t coords[2] = {0, it};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out,
                              coords, stage[b]);
    asm volatile("cp.async.bulk.commit_group;");
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
