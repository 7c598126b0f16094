// BULK-S2G-WAIT-BEFORE-REUSE on the stages of a ring (issue 24 item 1): a
// copy that reads one stage (`ring + s * kStage`, `tile[s]`) is overwritten
// by a write of the same stage, later in the same pass or, with a ring
// index `k % S`, S passes later; the wait_group.read before the write must
// complete the copy's group, counting the commits of every pass in
// between. Each wrong kernel has a correct twin; a stage the model cannot
// follow is silent.
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
constexpr int kStage = 4096;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}
__device__ void loadStage(char *dst, const char *src, uint64_t *bar) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, kStage);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, dst, src, kStage,
                     bar);
}
__device__ void storeStage(char *dst, const char *src) {
  ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, src, kStage);
  asm volatile("cp.async.bulk.commit_group;");
}

// Same pass: the stage just stored is refilled after a wait that leaves
// the store's group pending.
__global__ void refillSameStage(const char *src, char *dst, int n) {
  __shared__ alignas(128) char ring[kStages * kStage];
  __shared__ uint64_t full[kStages];
  if (threadIdx.x != 0)
    return;
  for (int s = 0; s < kStages; ++s)
    ptx::mbarrier_init(&full[s], 1);
  uint32_t phase[kStages] = {0, 0};
  for (int it = 0; it < n; ++it) {
    const int s = it % kStages;
    char *stage = ring + s * kStage;
    if (it < kStages)
      loadStage(stage, src + it * kStage, &full[s]);
    waitParity(&full[s], phase[s]);
    phase[s] ^= 1;
    storeStage(dst + it * kStage, stage);
    if (it + kStages < n) {
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      // CHECK-FIXES: {{^}}      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");{{$}}
      loadStage(stage, src + (it + kStages) * kStage, &full[s]);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: bulk load overwrites the stage of 'ring' that the bulk copy at line [[#@LINE-5]] may still read: wait_group.read 1 at line [[#@LINE-3]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    }
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void refillSameStageWaited(const char *src, char *dst, int n) {
  __shared__ alignas(128) char ring[kStages * kStage];
  __shared__ uint64_t full[kStages];
  if (threadIdx.x != 0)
    return;
  for (int s = 0; s < kStages; ++s)
    ptx::mbarrier_init(&full[s], 1);
  uint32_t phase[kStages] = {0, 0};
  for (int it = 0; it < n; ++it) {
    const int s = it % kStages;
    char *stage = ring + s * kStage;
    if (it < kStages)
      loadStage(stage, src + it * kStage, &full[s]);
    waitParity(&full[s], phase[s]);
    phase[s] ^= 1;
    storeStage(dst + it * kStage, stage);
    if (it + kStages < n) {
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      loadStage(stage, src + (it + kStages) * kStage, &full[s]);
    }
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// One lap later: each pass loads stage it % 2 and stores it; the load of a
// stage comes back two passes after its store, when two groups have been
// committed: wait_group.read 2 leaves the store pending, 1 does not.
__global__ void ringReuseTooShallow(const char *src, char *dst, int n) {
  __shared__ alignas(128) char ring[kStages * kStage];
  __shared__ uint64_t full[kStages];
  if (threadIdx.x != 0)
    return;
  for (int s = 0; s < kStages; ++s)
    ptx::mbarrier_init(&full[s], 1);
  uint32_t phase = 0;
  for (int it = 0; it < n; ++it) {
    char *stage = &ring[(it % kStages) * kStage];
    asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory");
    loadStage(stage, src + it * kStage, &full[it % kStages]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: bulk load overwrites the stage of 'ring' that the bulk copy at line [[#@LINE+4]] read 2 passes earlier (a ring of 2 stages) and may still read: wait_group.read 2 at line [[#@LINE-2]] lets its group stay pending (2 groups committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    waitParity(&full[it % kStages], phase);
    if (it % kStages == kStages - 1)
      phase ^= 1;
    storeStage(dst + it * kStage, stage);
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void ringReuseWaited(const char *src, char *dst, int n) {
  __shared__ alignas(128) char ring[kStages * kStage];
  __shared__ uint64_t full[kStages];
  if (threadIdx.x != 0)
    return;
  for (int s = 0; s < kStages; ++s)
    ptx::mbarrier_init(&full[s], 1);
  uint32_t phase = 0;
  for (int it = 0; it < n; ++it) {
    char *stage = &ring[(it % kStages) * kStage];
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    loadStage(stage, src + it * kStage, &full[it % kStages]);
    waitParity(&full[it % kStages], phase);
    if (it % kStages == kStages - 1)
      phase ^= 1;
    storeStage(dst + it * kStage, stage);
  }
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// An epilogue ring of array stages: generic stores into tile[s], a store
// of all of tile[s], the stage written again two passes later.
__global__ void epilogueRingTooShallow(float *out, int tiles) {
  __shared__ alignas(128) float tile[kStages][256];
  for (int t = 0; t < tiles; ++t) {
    const int s = t % kStages;
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory");
    __syncthreads();
    tile[s][threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: generic store overwrites the stage of 'tile' that the bulk copy at line [[#@LINE+4]] read 2 passes earlier (a ring of 2 stages) and may still read: wait_group.read 2 at line [[#@LINE-3]] lets its group stay pending (2 groups committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         tile[s], sizeof(tile[s]));
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void epilogueRingWaited(float *out, int tiles) {
  __shared__ alignas(128) float tile[kStages][256];
  for (int t = 0; t < tiles; ++t) {
    const int s = t % kStages;
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    __syncthreads();
    tile[s][threadIdx.x] = static_cast<float>(t);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         tile[s], sizeof(tile[s]));
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// Silent: two passes never come back to a stage.
__global__ void ringTooShort(float *out) {
  __shared__ alignas(128) float tile[kStages][256];
  for (int t = 0; t < kStages; ++t) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory");
    __syncthreads();
    tile[t % kStages][threadIdx.x] = 1.0f;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         tile[t % kStages], sizeof(tile[0]));
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// A stage index kept in a local stepped `s = (s + 1) % kStages` once a pass
// after the copy (issue 24 item 4): the same stage two passes later.
__global__ void ringStateWaitTooDeep(float *out, int tiles) {
  __shared__ alignas(128) float tile[kStages][256];
  int s = 0;
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 2;" ::: "memory");
    __syncthreads();
    tile[s][threadIdx.x] = 1.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: generic store overwrites the stage of 'tile' that the bulk copy at line [[#@LINE+4]] read 2 passes earlier (a ring of 2 stages) and may still read: wait_group.read 2 at line [[#@LINE-3]] lets its group stay pending (2 groups committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         tile[s], sizeof(tile[0]));
      asm volatile("cp.async.bulk.commit_group;");
    }
    s = (s + 1) % kStages;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// The twin: wait_group.read 1 completes the group of two passes ago.
__global__ void ringStateWaitOne(float *out, int tiles) {
  __shared__ alignas(128) float tile[kStages][256];
  int s = 0;
  for (int t = 0; t < tiles; ++t) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    __syncthreads();
    tile[s][threadIdx.x] = 1.0f;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * 256,
                         tile[s], sizeof(tile[0]));
      asm volatile("cp.async.bulk.commit_group;");
    }
    s = (s + 1) % kStages;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
