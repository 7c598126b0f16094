// The threads of warp-role code as production kernels spell them, for
// MBAR-INIT-VISIBLE ("does a thread outside the initialising set use the
// barrier") and TMA-STORE-FENCE ("is the fence in the writing threads"):
// a warp index made uniform by an asm `shfl.sync.idx` wrapper, an integer
// flag from an `elect.sync` wrapper, a role branch that ends its loop pass
// with `continue`, a skip on a value loaded through `__ldg` (the same in
// every thread), and a `__syncwarp` that orders one warp only. Each wrong
// kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __syncwarp(unsigned mask = 0xffffffff);
__device__ int __ldg(const int *);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// Lane 0's value in every lane of the warp.
__device__ __forceinline__ uint32_t warpUniform(uint32_t v) {
  uint32_t r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;"
               : "=r"(r)
               : "r"(v));
  return r;
}
// 1 in one lane of the warp, 0 in the others.
__device__ __forceinline__ uint32_t electLeader() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n"
               " @p mov.s32 %0, 1;\n}\n"
               : "+r"(pred));
  return pred;
}
__device__ __forceinline__ void initBar(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
__device__ __forceinline__ void waitBar(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(smemAddr(bar)),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void arriveBar(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smemAddr(bar))
               : "memory");
}
__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const void *smem, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];" ::"l"(map),
               "r"(smemAddr(smem)), "r"(x), "r"(y)
               : "memory");
}
__device__ __forceinline__ void commitAndWait() {
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void namedSync128() {
  asm volatile("bar.sync 1, 128;" ::: "memory");
}

// --- A uniform warp index and an elected leader ------------------------------

// The elected lane of warp 0 initialises; warp 1 waits, ordered by a
// __syncwarp only, which orders warp 0 alone.
__global__ void __launch_bounds__(256) leaderInitWarpSync(int nk) {
  __shared__ uint64_t full;
  const int warp = warpUniform(threadIdx.x / 32);
  if (warp == 0) {
    uint32_t leader = electLeader();
    if (leader)
      initBar(&full, 1);
  }
  __syncwarp();
  if (warp == 1)
    waitBar(&full, 0);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'full' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-5]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :40:3: note: issued here
  // CHECK-FIXES: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (warp == 1){{$}}
}

__global__ void __launch_bounds__(256) leaderInitSynced(int nk) {
  __shared__ uint64_t full;
  const int warp = warpUniform(threadIdx.x / 32);
  if (warp == 0) {
    uint32_t leader = electLeader();
    if (leader)
      initBar(&full, 1);
  }
  __syncthreads();
  if (warp == 1)
    waitBar(&full, 0);
}

// The leader of warp 0 initialises and only warp 0 uses the barrier: the
// __syncwarp orders them. Silent.
__global__ void __launch_bounds__(256) leaderInitSameWarp(int nk) {
  __shared__ uint64_t full;
  const int warp = warpUniform(threadIdx.x / 32);
  if (warp == 0) {
    uint32_t leader = electLeader();
    if (leader)
      initBar(&full, 1);
  }
  __syncwarp();
  if (warp == 0)
    waitBar(&full, 0);
}

// --- A role branch that ends its pass with continue --------------------------

// Thread 128 (the producer warp's first lane) initialises; the producer
// warp ends each pass with `continue`, so what follows runs in warps 0-3.
__global__ void __launch_bounds__(160) continueRoleNoSync(int nk) {
  __shared__ uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 128)
    initBar(&full, 128);
  for (int k = 0; k < nk; ++k) {
    if (warp == 4) {
      if (threadIdx.x == 128)
        waitBar(&full, (k & 1) ^ 1);
      continue;
    }
    arriveBar(&full);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'full' is used by thread 0, which runs no init of it, here after its mbarrier.init at line [[#@LINE-8]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-9]]:5: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :40:3: note: issued here
    // The barrier goes before the loop, which the producer warp leaves
    // early in each pass.
    // CHECK-FIXES: {{^}}    initBar(&full, 128);{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  for (int k = 0; k < nk; ++k) {{[{]}}{{$}}
  }
}

__global__ void __launch_bounds__(160) continueRoleSynced(int nk) {
  __shared__ uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 128)
    initBar(&full, 128);
  __syncthreads();
  for (int k = 0; k < nk; ++k) {
    if (warp == 4) {
      if (threadIdx.x == 128)
        waitBar(&full, (k & 1) ^ 1);
      continue;
    }
    arriveBar(&full);
  }
}

// --- A skip on a value loaded through __ldg ---------------------------------

// `if (e < 0) continue;` with e = __ldg(...) at the same address in every
// thread: all threads skip the pass alike, warp 1 still waits.
__global__ void __launch_bounds__(128) ldgSkipNoSync(const int *__restrict__ idx,
                                                     int nk) {
  __shared__ uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  for (int k = 0; k < nk; ++k) {
    const int e = __ldg(idx + k);
    if (e < 0)
      continue;
    if (warp == 1)
      waitBar(&full, k & 1);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-7]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-8]]:5: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :40:3: note: issued here
  }
}

__global__ void __launch_bounds__(128) ldgSkipSynced(const int *__restrict__ idx,
                                                     int nk) {
  __shared__ uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  __syncthreads();
  for (int k = 0; k < nk; ++k) {
    const int e = __ldg(idx + k);
    if (e < 0)
      continue;
    if (warp == 1)
      waitBar(&full, k & 1);
  }
}

// A skip on a value each thread loads from its own address: the threads
// that reach the wait are not known. Silent.
__global__ void __launch_bounds__(128) ownSkipNoSync(const int *__restrict__ idx,
                                                     int nk) {
  __shared__ uint64_t full;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  for (int k = 0; k < nk; ++k) {
    if (__ldg(idx + k * 128 + threadIdx.x) < 0)
      continue;
    if (warp == 1)
      waitBar(&full, k & 1);
  }
}

// --- TMA-STORE-FENCE in a consumer role that ends its pass with continue ----

// Warps 0-3 write the tile; only thread 0 fences, then thread 0 stores.
__global__ void __launch_bounds__(160)
continueRoleFenceOneThread(const __grid_constant__ CUtensorMap map, int nk) {
  __shared__ alignas(128) float tile[128];
  const int warp = threadIdx.x / 32;
  for (int k = 0; k < nk; ++k) {
    if (warp == 4)
      continue;
    tile[threadIdx.x] = 1.0f;
    if (threadIdx.x == 0)
      fenceAsync();
    namedSync128();
    // CHECK-FIXES: {{^}}      fenceAsync();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
    // CHECK-FIXES-NEXT: {{^}}    namedSync128();{{$}}
    if (threadIdx.x == 0) {
      storeTile(&map, tile, 0, k);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-9]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:23: note: generic store to 'tile' here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
      // CHECK-NOTES: :56:3: note: issued here
      commitAndWait();
    }
  }
}

__global__ void __launch_bounds__(160)
continueRoleFenceAll(const __grid_constant__ CUtensorMap map, int nk) {
  __shared__ alignas(128) float tile[128];
  const int warp = threadIdx.x / 32;
  for (int k = 0; k < nk; ++k) {
    if (warp == 4)
      continue;
    tile[threadIdx.x] = 1.0f;
    fenceAsync();
    namedSync128();
    if (threadIdx.x == 0) {
      storeTile(&map, tile, 0, k);
      commitAndWait();
    }
  }
}

// --- A split cluster barrier with its wait half missing ----------------------

// `barrier.cluster.arrive` alone lets the threads run on: warp 1 may arrive
// on the barrier before thread 0 has initialised it.
__global__ void __launch_bounds__(128) clusterArriveOnly(int nk) {
  __shared__ uint64_t empty;
  if (threadIdx.x == 0)
    initBar(&empty, 32);
  asm volatile("barrier.cluster.arrive;\n" : :);
  if (threadIdx.x / 32 == 1)
    arriveBar(&empty);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'empty' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-4]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: initialised here, by the threads of this branch only
  // CHECK-NOTES: :40:3: note: issued here
  // CHECK-FIXES: {{^}}  asm volatile("barrier.cluster.arrive;\n" : :);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

__global__ void __launch_bounds__(128) clusterArriveAndWait(int nk) {
  __shared__ uint64_t empty;
  if (threadIdx.x == 0)
    initBar(&empty, 32);
  asm volatile("barrier.cluster.arrive;\n" : :);
  asm volatile("barrier.cluster.wait;\n" : :);
  if (threadIdx.x / 32 == 1)
    arriveBar(&empty);
}

// --- An unknown condition in code one thread runs -----------------------------

struct Scheduler {
  int next_;
  __device__ bool next(int &tile) {
    tile = next_++;
    return tile < 4;
  }
};

// Thread 128 produces while its scheduler hands out tiles: what the loop
// and the `if` guard runs in thread 128 or in none, and thread 128 runs no
// init of the barrier thread 0 made.
__global__ void __launch_bounds__(256) producerNoSync(int nk) {
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  if (threadIdx.x == 128) {
    Scheduler sched{0};
    int tile;
    bool more = true;
    while (more) {
      more = false;
      if (sched.next(tile)) {
        more = true;
        arriveBar(&full);
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'full' is used by thread 128, which runs no init of it, here after its mbarrier.init at line [[#@LINE-10]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
        // CHECK-NOTES: :[[@LINE-11]]:5: note: initialised here, by the threads of this branch only
        // CHECK-NOTES: :40:3: note: issued here
        // CHECK-FIXES: {{^}}    initBar(&full, 1);{{$}}
        // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
        // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x == 128) {{[{]}}{{$}}
      }
    }
  }
}

__global__ void __launch_bounds__(256) producerSynced(int nk) {
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  __syncthreads();
  if (threadIdx.x == 128) {
    Scheduler sched{0};
    int tile;
    bool more = true;
    while (more) {
      more = false;
      if (sched.next(tile)) {
        more = true;
        arriveBar(&full);
      }
    }
  }
}

// The producer is the initialising thread itself. Silent.
__global__ void __launch_bounds__(256) producerIsInitThread(int nk) {
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBar(&full, 1);
  if (threadIdx.x == 0) {
    Scheduler sched{0};
    int tile;
    while (sched.next(tile))
      arriveBar(&full);
  }
}
