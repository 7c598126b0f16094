// MBAR-INIT-VISIBLE where the consumer role is the `else if` of the
// producer's `if (warp == 0 && leader())`: the `else` is reached from both
// blocks of the short-circuit condition, so no one edge leads there, and
// its threads are the condition's complement (every thread but warp 0's
// leader), narrowed by the role's own guard to warp 1's leader. The
// barriers are a `__shared__` array named by 32-bit shared addresses: the
// init loop `full + i * 8` over every member, the uses `full + stage * 8`
// in lambdas. Each wrong kernel has its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

// 1 in the warp's leader lane, 0 in the others.
__device__ inline uint32_t electLeader() {
  uint32_t flag = 0;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, %1;\n @p mov.s32 %0, 1;\n}"
               : "+r"(flag)
               : "r"(0xffffffffu));
  return flag;
}
__device__ inline void barInit(int addr, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr),
               "r"(count));
}
__device__ inline void barWait(int addr, int phase) {
  asm volatile("{\n.reg .pred P1;\nWAIT_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE_%=;\nbra.uni WAIT_%=;\nDONE_%=:\n}\n"
               ::"r"(addr), "r"(phase));
}
__device__ inline void barArrive(int addr) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(addr)
               : "memory");
}
__device__ inline void loadTile(int dst, const void *map, int x, int bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, 0}], [%3];"
               ::"r"(dst), "l"(map), "r"(x), "r"(bar)
               : "memory");
}

constexpr int Stages = 4;
constexpr int TileBytes = 8192;

// The thread barrier after the init was dropped: warp 1's leader waits on
// a full barrier that thread 0 may not have initialised yet.
__global__ void __launch_bounds__(128)
elseRoleNoSync(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < 2 * Stages; ++i)
      barInit(full + i * 8, 1);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    const int bar = full + stage * 8;
    loadTile(tileBase + stage * TileBytes, &map, k, bar);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar), "r"(TileBytes)
                 : "memory");
  };
  auto consume = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    barArrive(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'bars' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-28]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-29]]:7: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :27:3: note: issued here
      // CHECK-FIXES: {{^}}    barArrive(empty + stage * 8);{{$}}
      // CHECK-FIXES-NEXT: {{^}}  };{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (warp == 0 && electLeader()) {{[{]}}{{$}}
  }
  __syncthreads();
}

// Its twin: the thread barrier after the init.
__global__ void __launch_bounds__(128)
elseRoleSynced(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < 2 * Stages; ++i)
      barInit(full + i * 8, 1);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    const int bar = full + stage * 8;
    loadTile(tileBase + stage * TileBytes, &map, k, bar);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar), "r"(TileBytes)
                 : "memory");
  };
  auto consume = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    barArrive(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
  }
  __syncthreads();
}

// The `else` of `if (warp != 0 || lane != 0)` holds thread 0 alone, the
// thread that ran the init: silent with no thread barrier.
__global__ void __launch_bounds__(128)
elseHoldsNoUser(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[Stages];
  const int lane = threadIdx.x % 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  if (threadIdx.x == 0)
    for (int i = 0; i < Stages; ++i)
      barInit(full + i * 8, 1);
  if (threadIdx.x / 32 != 0 || lane != 0) {
    // Nothing for the other threads.
  } else {
    for (int k = 0; k < tiles; ++k) {
      const int stage = k % Stages;
      loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
      barWait(full + stage * 8, (k / Stages) & 1);
    }
  }
}
