// MBAR-INIT-VISIBLE on a `__shared__` barrier array initialised in parts
// (issue 24 item 4), as sm100 kernels write it: one array of `2 * Stages +
// 1` barriers, `full = cvta(bars)`, `empty = full + Stages * 8`, `done =
// empty + Stages * 8`, one init loop that initialises the full and the
// empty member of each stage, and the done barrier alone, in warp 0's
// leader. The MMA role (warp 1's leader) first waits on the full member
// its stage names on its first pass (`k % Stages` in a lambda called with
// the kernel's counter: element 0), which the full init loop surely makes.
// Each wrong kernel (no thread barrier; a cluster wait with no arrive)
// has its correct twin; a use whose first member the model cannot tell,
// or one past the elements the init makes, stays silent.
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
__device__ inline void loadTile(int dst, const void *map, int x, int bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, 0}], [%3];"
               ::"r"(dst), "l"(map), "r"(x), "r"(bar)
               : "memory");
}
__device__ inline void expectBytes(int bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ inline void commitTo(int bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(bar)
               : "memory");
}

constexpr int Stages = 4;
constexpr int TileBytes = 8192;

// The thread barrier after the inits was dropped: warp 1's leader waits on
// element 0, made by the full init loop, which thread 0 may not have run.
__global__ void __launch_bounds__(128)
partsNoSync(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
  }
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  auto compute = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      compute(k);
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'bars' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-27]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-28]]:7: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :30:3: note: issued here
      // CHECK-FIXES: {{^}}    commitTo(empty + stage * 8);{{$}}
      // CHECK-FIXES-NEXT: {{^}}  };{{$}}
      // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
      // CHECK-FIXES-NEXT: {{^}}  if (warp == 0 && electLeader()) {{[{]}}{{$}}
    commitTo(done);
  }
  __syncthreads();
  barWait(done, 0);
}

// Its twin: a thread barrier after the inits.
__global__ void __launch_bounds__(128)
partsSynced(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
  }
  __syncthreads();
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  auto compute = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      compute(k);
    commitTo(done);
  }
  __syncthreads();
  barWait(done, 0);
}

// The cluster arrive was dropped, its wait kept (learn-cuda 02e v5's
// mutant): the wait synchronises nothing.
__global__ void __launch_bounds__(128)
partsClusterWaitAlone(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  asm volatile("barrier.cluster.wait.acquire.aligned;");
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  auto compute = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      compute(k);
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'bars' is used by thread 32, which runs no init of it, here after its mbarrier.init at line [[#@LINE-29]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-30]]:7: note: initialised here, by the threads of this branch only
      // CHECK-NOTES: :30:3: note: issued here
      // CHECK-NOTES: :[[@LINE-26]]:3: note: this barrier.cluster.wait has no barrier.cluster.arrive before it: it synchronises nothing
    commitTo(done);
  }
  __syncthreads();
  barWait(done, 0);
}

// Its twin: the cluster arrive before the wait.
__global__ void __launch_bounds__(128)
partsClusterSynced(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  asm volatile("barrier.cluster.arrive.release.aligned;");
  asm volatile("barrier.cluster.wait.acquire.aligned;");
  int phase = 0;
  auto produce = [&](int k) {
    const int stage = k % Stages;
    barWait(empty + stage * 8, phase ^ 1);
    if (stage == Stages - 1)
      phase ^= 1;
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  auto compute = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (warp == 0 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (warp == 1 && electLeader()) {
    for (int k = 0; k < tiles; ++k)
      compute(k);
    commitTo(done);
  }
  __syncthreads();
  barWait(done, 0);
}

// Silent: the MMA role's first stage is the block's index (`blockIdx.x %
// Stages`), which the model does not follow to one element, so its wait
// may be on a barrier the init does not make.
__global__ void __launch_bounds__(128)
partsStageUnknown(const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int warp = threadIdx.x / 32;
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (warp == 0 && electLeader()) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
  }
  if (warp == 0 && electLeader()) {
    const int stage = blockIdx.x % Stages;
    loadTile(tileBase + stage * TileBytes, &map, 0, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  } else if (warp == 1 && electLeader()) {
    const int stage = blockIdx.x % Stages;
    barWait(full + stage * 8, 0);
    commitTo(done);
  }
  __syncthreads();
  barWait(done, 0);
}
