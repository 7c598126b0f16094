// The guards of tilelang's generated kernels: `shuffleElect<N>()` elects one
// thread in each group of N threads (N = 0: the whole block), spelled as
// one `return` per `if constexpr` branch -- `electOneSync() && warpIndex()
// == 0`, `electOneSync()`, `electOneSync() && warpIndex() % W == 0` with a
// constexpr `W = (N + 31) / 32`. The init runs in the elected thread of the
// block (thread 0), the producer warpgroup (threads 128..255) waits on its
// empty barrier and its elected thread (128) loads: with no
// __syncthreads() after the init, thread 128 uses a barrier that only
// thread 0 initialised (MBAR-INIT-VISIBLE). Each wrong kernel has its
// synced twin; a group size the model cannot read (a run-time value) and a
// ring used only by the initialising thread stay silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void initBar(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
__device__ __forceinline__ void fenceBarrierInit() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
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
__device__ __forceinline__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
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
__device__ __forceinline__ void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The warp's index, not made warp-uniform (cutlass::canonical_warp_idx()).
__device__ __forceinline__ int warpIndex() { return threadIdx.x / 32; }
__device__ __forceinline__ bool electOneSync() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n"
               " @p mov.s32 %0, 1;\n}\n"
               : "+r"(pred));
  return pred != 0;
}
// One elected thread per group of N threads; N = 0: one in the block.
template <int N> __device__ __forceinline__ bool shuffleElect() {
  if constexpr (N == 0) {
    return electOneSync() && warpIndex() == 0;
  } else if constexpr (N == 32) {
    return electOneSync();
  } else {
    constexpr int W = (N + 31) / 32;
    static_assert(W > 0);
    return electOneSync() && (warpIndex() % W) == 0;
  }
}
// The group size as a run-time value: which warps elect, the model cannot
// tell.
__device__ __forceinline__ bool electEvery(int n) {
  return electOneSync() && (warpIndex() % n) == 0;
}

constexpr int kTile = 64 * 128;

// --- The block's elected thread initialises, the warpgroups use ----------

__global__ void __launch_bounds__(256, 1)
wsNoSync(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t bars[2];
  float acc = 0.f;
  if (shuffleElect<0>()) {
    initBar(&bars[0], 128);
    initBar(&bars[1], 128);
  }
  fenceBarrierInit();
  if (128 <= threadIdx.x) {
    for (int k = 0; k < 8; ++k) {
      waitBar(&bars[1], (k & 1) ^ 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'bars' is used by thread 128, which runs no init of it, here after its mbarrier.init at line [[#@LINE-6]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :25:3: note: issued here
      // CHECK-FIXES: {{^}}wsNoSync(const __grid_constant__ CUtensorMap map, float *out) {{[{]}}{{$}}
      // CHECK-FIXES: {{^}}  fenceBarrierInit();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (128 <= threadIdx.x) {{[{]}}{{$}}
      if (shuffleElect<128>()) {
        expectBytes(&bars[0], kTile * 2);
        loadTile(pool, &map, &bars[0], 0, k * 64);
      }
      arriveBar(&bars[0]);
    }
  } else {
    for (int k = 0; k < 8; ++k) {
      waitBar(&bars[0], k & 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'bars' is used by thread 1, which runs no init of it, here after its mbarrier.init at line [[#@LINE-23]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-24]]:5: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :25:3: note: issued here
      // CHECK-NOTES: :[[@LINE-20]]:7: note: this lies on some path from the init to the use, not on every one: a path skips it (a loop that may run no pass, another branch)
      // CHECK-NOTES: :32:3: note: issued here
      for (int i = 0; i < 64; ++i)
        acc += reinterpret_cast<const float *>(pool)[threadIdx.x * 64 + i];
      fenceAsync();
      arriveBar(&bars[1]);
    }
    out[threadIdx.x] = acc;
  }
}

// The twin: tilelang's `fence_barrier_init(); __syncthreads();`.
__global__ void __launch_bounds__(256, 1)
wsSynced(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t bars[2];
  float acc = 0.f;
  if (shuffleElect<0>()) {
    initBar(&bars[0], 128);
    initBar(&bars[1], 128);
  }
  fenceBarrierInit();
  __syncthreads();
  if (128 <= threadIdx.x) {
    for (int k = 0; k < 8; ++k) {
      waitBar(&bars[1], (k & 1) ^ 1);
      if (shuffleElect<128>()) {
        expectBytes(&bars[0], kTile * 2);
        loadTile(pool, &map, &bars[0], 0, k * 64);
      }
      arriveBar(&bars[0]);
    }
  } else {
    for (int k = 0; k < 8; ++k) {
      waitBar(&bars[0], k & 1);
      for (int i = 0; i < 64; ++i)
        acc += reinterpret_cast<const float *>(pool)[threadIdx.x * 64 + i];
      fenceAsync();
      arriveBar(&bars[1]);
    }
    out[threadIdx.x] = acc;
  }
}

// --- The producer warpgroup's elected thread initialises -------------------

// Thread 128 (warp 4, the first of its group of 128) initialises before
// the role split; the consumer warpgroup waits on the full barrier.
__global__ void __launch_bounds__(256, 1)
producerInitNoSync(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t full;
  if (threadIdx.x >= 128 && shuffleElect<128>())
    initBar(&full, 1);
  fenceBarrierInit();
  if (threadIdx.x >= 128) {
    if (shuffleElect<128>()) {
      expectBytes(&full, kTile * 2);
      loadTile(pool, &map, &full, 0, 0);
    }
  } else {
    waitBar(&full, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'full' is used by thread 0, which runs no init of it, here after its mbarrier.init at line [[#@LINE-9]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-10]]:5: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :25:3: note: issued here
    // CHECK-FIXES: {{^}}producerInitNoSync(const __grid_constant__ CUtensorMap map, float *out) {{[{]}}{{$}}
    // CHECK-FIXES: {{^}}  fenceBarrierInit();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x >= 128) {{[{]}}{{$}}
    out[threadIdx.x] = reinterpret_cast<const float *>(pool)[threadIdx.x];
  }
}

// The twin.
__global__ void __launch_bounds__(256, 1)
producerInitSynced(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t full;
  if (threadIdx.x >= 128 && shuffleElect<128>())
    initBar(&full, 1);
  fenceBarrierInit();
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (shuffleElect<128>()) {
      expectBytes(&full, kTile * 2);
      loadTile(pool, &map, &full, 0, 0);
    }
  } else {
    waitBar(&full, 0);
    out[threadIdx.x] = reinterpret_cast<const float *>(pool)[threadIdx.x];
  }
}

// --- Silent ------------------------------------------------------------------

// The group size is a kernel parameter: whether thread 32 initialises (n =
// 1: every warp's elected lane does), the model cannot tell.
__global__ void __launch_bounds__(256, 1)
runtimeGroup(const __grid_constant__ CUtensorMap map, float *out, int n) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t full;
  if (electEvery(n))
    initBar(&full, 1);
  fenceBarrierInit();
  if (threadIdx.x == 32) {
    expectBytes(&full, kTile * 2);
    loadTile(pool, &map, &full, 0, 0);
    waitBar(&full, 0);
    out[0] = reinterpret_cast<const float *>(pool)[0];
  }
}

// Only the block's elected thread uses the barrier it initialised.
__global__ void __launch_bounds__(256, 1)
electedOnly(const __grid_constant__ CUtensorMap map, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ __align__(16) uint64_t full;
  if (shuffleElect<0>()) {
    initBar(&full, 1);
    fenceBarrierInit();
    expectBytes(&full, kTile * 2);
    loadTile(pool, &map, &full, 0, 0);
    waitBar(&full, 0);
    out[0] = reinterpret_cast<const float *>(pool)[0];
  }
}
