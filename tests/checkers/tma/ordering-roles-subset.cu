// A consumer loop bounded by a per-warpgroup scheduler object (`while
// (sched.next(tile))`, fast.cu's pingpong kernels) or by offsets loaded
// from global memory (`cu_seqlens[b]`) runs its body in some
// subset of the consumer warpgroups' threads: which ones, and how many
// passes, the model cannot read. The body's threads are "some subset
// (possibly empty) of the threads of the branch around the loop", and a
// rule reports only where its proof holds for every such subset:
// MBAR-INIT-VISIBLE reports a use there when no thread of the branch runs
// the init (whichever threads run the loop, they did not initialise the
// barrier). A subset that may hold an initialising thread, or a warp
// barrier in the init's warp, stays silent. Each wrong kernel has its
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __syncwarp(unsigned mask = 0xffffffff);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
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
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddr(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void loadTile(void *dst, const CUtensorMap *map,
                                         uint64_t *bar, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   smemAddr(dst)),
               "l"(map), "r"(smemAddr(bar)), "r"(x), "r"(y)
               : "memory");
}

// Tiles from a list in global memory, one list per consumer warpgroup.
struct Schedule {
  int it;
  const int *space;
  __device__ bool next(int &tile) {
    if (it >= 128)
      return false;
    int now = space[it];
    if (now == -1)
      return false;
    tile = now;
    ++it;
    return true;
  }
};

constexpr int kTile = 64 * 64;

// Thread 0 initialises both barriers; the cluster arrive alone lets every
// thread run on. The consumer warpgroups (threads 128..383) wait on 'full'
// in their scheduler loop: whichever of them run it, none initialised it.
__global__ void __launch_bounds__(384)
consumersLoneArrive(const __grid_constant__ CUtensorMap map, const int *space,
                    float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full, empty;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    initBar(&empty, 256);
  }
  asm volatile("barrier.cluster.arrive;\n" : :);
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    if (threadIdx.x == 0) {
      Schedule sched{0, space};
      int t, p = 0;
      while (sched.next(t)) {
        waitBar(&empty, p ^ 1);
        expectBytes(&full, kTile * sizeof(float));
        loadTile(tile, &map, &full, 0, t);
        p ^= 1;
      }
    }
  } else {
    Schedule sched{0, space + 128 * wg};
    int t, p = 0;
    float acc = 0.f;
    while (sched.next(t)) {
      waitBar(&full, p);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by some of threads 128..383 (a condition the model cannot read picks which), none of which runs an init of it, here after its mbarrier.init at line [[#@LINE-22]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-23]]:5: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :27:3: note: issued here
      // CHECK-FIXES: {{^}}  const int wg = threadIdx.x / 128;{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (wg == 0) {{[{]}}{{$}}
      acc += tile[threadIdx.x % 128];
      fenceAsync();
      arriveBar(&empty);
      p ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The twin: the cluster barrier's wait completes the hand-off.
__global__ void __launch_bounds__(384)
consumersClusterSynced(const __grid_constant__ CUtensorMap map,
                       const int *space, float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full, empty;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    initBar(&empty, 256);
  }
  asm volatile("barrier.cluster.arrive;\n" : :);
  asm volatile("barrier.cluster.wait;\n" : :);
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    if (threadIdx.x == 0) {
      Schedule sched{0, space};
      int t, p = 0;
      while (sched.next(t)) {
        waitBar(&empty, p ^ 1);
        expectBytes(&full, kTile * sizeof(float));
        loadTile(tile, &map, &full, 0, t);
        p ^= 1;
      }
    }
  } else {
    Schedule sched{0, space + 128 * wg};
    int t, p = 0;
    float acc = 0.f;
    while (sched.next(t)) {
      waitBar(&full, p);
      acc += tile[threadIdx.x % 128];
      fenceAsync();
      arriveBar(&empty);
      p ^= 1;
    }
    out[threadIdx.x] = acc;
  }
}

// The consumers run in warpgroup 0, where thread 0 initialised: a subset
// of threads 0..127 may be thread 0 alone. Silent.
__global__ void __launch_bounds__(256)
subsetMayHoldTheInitThread(const __grid_constant__ CUtensorMap map,
                           const int *space, float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    expectBytes(&full, kTile * sizeof(float));
    loadTile(tile, &map, &full, 0, 0);
  }
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    Schedule sched{0, space};
    int t;
    float acc = 0.f;
    while (sched.next(t)) {
      waitBar(&full, 0);
      acc += tile[threadIdx.x + t];
    }
    out[threadIdx.x] = acc;
  }
}

// A __syncwarp in the init's warp may order it for the lanes of that warp
// that run the loop (lanes 1..31 of warp 0). Silent.
__global__ void __launch_bounds__(128)
subsetInInitWarp(const __grid_constant__ CUtensorMap map, const int *space,
                 float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    expectBytes(&full, kTile * sizeof(float));
    loadTile(tile, &map, &full, 0, 0);
  }
  __syncwarp();
  if (threadIdx.x > 0 && threadIdx.x < 32) {
    Schedule sched{0, space};
    int t;
    float acc = 0.f;
    while (sched.next(t)) {
      waitBar(&full, 0);
      acc += tile[threadIdx.x];
    }
    out[threadIdx.x] = acc;
  }
}

// Rows of a variable-length batch, bounded by offsets loaded from global
// memory: the consumer warps (threads 32..127) run the loop's body in a
// subset of them that the model cannot read.
__global__ void __launch_bounds__(128)
varlenRowsNoSync(const __grid_constant__ CUtensorMap map, const int *cu_seqlens,
                 float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    expectBytes(&full, kTile * sizeof(float));
    loadTile(tile, &map, &full, 0, blockIdx.x);
  }
  if (threadIdx.x >= 32) {
    float acc = 0.f;
    for (int r = cu_seqlens[blockIdx.x] + threadIdx.x / 32;
         r < cu_seqlens[blockIdx.x + 1]; r += 3) {
      waitBar(&full, 0);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by some of threads 32..127 (a condition the model cannot read picks which), none of which runs an init of it, here after its mbarrier.init at line [[#@LINE-9]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:5: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :27:3: note: issued here
      // CHECK-FIXES: {{^}}    loadTile(tile, &map, &full, 0, blockIdx.x);{{$}}
      // CHECK-FIXES-NEXT: {{^}}  }{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x >= 32) {{[{]}}{{$}}
      acc += tile[r % kTile];
    }
    out[threadIdx.x] = acc;
  }
}

// The twin: __syncthreads() after the init.
__global__ void __launch_bounds__(128)
varlenRowsSynced(const __grid_constant__ CUtensorMap map, const int *cu_seqlens,
                 float *out) {
  __shared__ alignas(128) float tile[kTile];
  __shared__ alignas(8) uint64_t full;
  if (threadIdx.x == 0) {
    initBar(&full, 1);
    expectBytes(&full, kTile * sizeof(float));
    loadTile(tile, &map, &full, 0, blockIdx.x);
  }
  __syncthreads();
  if (threadIdx.x >= 32) {
    float acc = 0.f;
    for (int r = cu_seqlens[blockIdx.x] + threadIdx.x / 32;
         r < cu_seqlens[blockIdx.x + 1]; r += 3) {
      waitBar(&full, 0);
      acc += tile[r % kTile];
    }
    out[threadIdx.x] = acc;
  }
}
