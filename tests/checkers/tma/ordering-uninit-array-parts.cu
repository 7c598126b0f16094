// MBAR-UNINIT on a `__shared__` barrier array initialised in parts (issue
// 24 items 1/3), as sm100 kernels write it: one array of `2 * Stages + 1`
// barriers, `full = cvta(bars)`, `empty = full + Stages * 8`, `done = empty
// + Stages * 8`, an init loop over the stages that initialises the full and
// the empty member of each, and the done barrier alone. Each init covers a
// range of the array's elements; a use names the element its stage index
// is the first time it runs (a counter `k % Stages` passed to a lambda, a
// stage local stepped at the end of each pass). With one init dropped, the
// other inits of the array still lie there, but none covers the element a
// use reaches: it is reported, with the inits that leave it out. The same
// for a two-dimensional array (`pingpong[role][stage]`), whose dropped row
// no init covers at all. Each wrong kernel has its correct twin; a member
// reached only on a later pass, or an array whose address goes where the
// model does not follow, stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

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

// The full barriers' init was dropped from the loop: the empty ones' and
// the done one's cover elements 4 to 8, and the producer's first expect-tx
// reaches element 0.
__global__ void partsFullDropped(const __grid_constant__ CUtensorMap map,
                                 int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i)
      barInit(empty + i * 8, 1);
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
  auto consume = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'bars[0]' is never initialised: the use here reaches it the first time it runs, when 'k' is 0 (MBAR-UNINIT) [tma-ordering]
      // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'k' starts at 0 here, and no write of it can run before the use first does; it names 'bars[0]' of 'bars'
      // CHECK-MESSAGES: :[[@LINE-25]]:7: note: the mbarrier.init of 'bars[4 + s]' does not cover 'bars[0]'
      // CHECK-MESSAGES: :[[@LINE-25]]:5: note: the mbarrier.init of 'bars[8]' does not cover 'bars[0]'
  } else if (threadIdx.x == 32) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
  }
  barWait(done, 0);
}

// Its twin: both parts of each stage and the done barrier initialised.
__global__ void partsInit(const __grid_constant__ CUtensorMap map,
                          int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (threadIdx.x == 0) {
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
  auto consume = [&](int k) {
    const int stage = k % Stages;
    barWait(full + stage * 8, phase);
    if (stage == Stages - 1)
      phase ^= 1;
    commitTo(empty + stage * 8);
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (threadIdx.x == 32) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
    commitTo(done);
  }
  barWait(done, 0);
}

// The empty barriers' init was dropped; the stage is a local stepped at
// the end of each pass and handed to the lambda: the producer's first wait
// reaches element 4.
__global__ void partsEmptyDropped(const __grid_constant__ CUtensorMap map,
                                  int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i)
      barInit(full + i * 8, 1);
    barInit(done, 1);
  }
  __syncthreads();
  auto produce = [&](int stage, int phase, int k) {
    barWait(empty + stage * 8, phase ^ 1);
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < tiles; ++k) {
      produce(stage, phase, k);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'bars[4]' is never initialised: the wait here reaches it the first time it runs, when 'stage' is 0 (MBAR-UNINIT) [tma-ordering]
      // CHECK-MESSAGES: :[[@LINE-4]]:9: note: 'stage' starts at 0 here, and no write of it can run before the wait first does; it names 'bars[4]' of 'bars'
      // CHECK-MESSAGES: :[[@LINE-15]]:7: note: the mbarrier.init of 'bars[s]' does not cover 'bars[4]'
      // CHECK-MESSAGES: :[[@LINE-15]]:5: note: the mbarrier.init of 'bars[8]' does not cover 'bars[4]'
      stage = (stage + 1) % Stages;
      if (stage == 0)
        phase ^= 1;
    }
  }
  barWait(done, 0);
}

// Its twin: the stage local with every part initialised.
__global__ void partsStageInit(const __grid_constant__ CUtensorMap map,
                               int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
    barInit(done, 1);
  }
  __syncthreads();
  auto produce = [&](int stage, int phase, int k) {
    barWait(empty + stage * 8, phase ^ 1);
    loadTile(tileBase + stage * TileBytes, &map, k, full + stage * 8);
    expectBytes(full + stage * 8, TileBytes);
  };
  if (threadIdx.x == 0) {
    int stage = 0, phase = 0;
    for (int k = 0; k < tiles; ++k) {
      produce(stage, phase, k);
      stage = (stage + 1) % Stages;
      if (stage == 0)
        phase ^= 1;
    }
  }
  barWait(done, 0);
}

// The done barrier's init was dropped: a barrier named alone, which no
// init of the array covers.
__global__ void partsDoneDropped(const __grid_constant__ CUtensorMap map,
                                 int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages + 1];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  const int done = empty + Stages * 8;
  if (threadIdx.x == 0)
    for (int i = 0; i < Stages; ++i) {
      barInit(full + i * 8, 1);
      barInit(empty + i * 8, 1);
    }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < tiles; ++k) {
      barWait(empty + (k % Stages) * 8, ((k / Stages) & 1) ^ 1);
      loadTile(tileBase + (k % Stages) * TileBytes, &map, k,
               full + (k % Stages) * 8);
      expectBytes(full + (k % Stages) * 8, TileBytes);
    }
  else if (threadIdx.x == 32) {
    for (int k = 0; k < tiles; ++k) {
      barWait(full + (k % Stages) * 8, (k / Stages) & 1);
      commitTo(empty + (k % Stages) * 8);
    }
    commitTo(done);
  }
  barWait(done, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'bars[8]' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
  // CHECK-MESSAGES: :[[@LINE-20]]:7: note: the mbarrier.init of 'bars[s]' does not cover 'bars[8]'
  // CHECK-MESSAGES: :[[@LINE-20]]:7: note: the mbarrier.init of 'bars[4 + s]' does not cover 'bars[8]'
}

// A two-dimensional array, one row per role: the second row's init was
// dropped.
__device__ inline void initBar(uint64_t *bar, int count) {
  barInit(static_cast<int>(__cvta_generic_to_shared(bar)), count);
}
__device__ inline void waitBar(uint64_t *bar, int phase) {
  barWait(static_cast<int>(__cvta_generic_to_shared(bar)), phase);
}
__device__ inline void arriveBar(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   static_cast<int>(__cvta_generic_to_shared(bar)))
               : "memory");
}
__global__ void rowDropped(int tiles) {
  __shared__ uint64_t pingpong[2][Stages];
  if (threadIdx.x == 0)
    for (int i = 0; i < Stages; ++i)
      initBar(&pingpong[0][i], 1);
  __syncthreads();
  if (threadIdx.x < 128) {
    for (int k = 0; k < tiles; ++k) {
      arriveBar(&pingpong[0][k % Stages]);
      waitBar(&pingpong[1][k % Stages], (k / Stages) & 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'pingpong[1][s]' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      // CHECK-MESSAGES: :[[@LINE-7]]:7: note: the mbarrier.init of 'pingpong[0][s]' does not cover 'pingpong[1][s]'
    }
  } else {
    for (int k = 0; k < tiles; ++k) {
      waitBar(&pingpong[0][k % Stages], (k / Stages) & 1);
      arriveBar(&pingpong[1][k % Stages]);
    }
  }
}

// Its twin: both rows initialised.
__global__ void rowsInit(int tiles) {
  __shared__ uint64_t pingpong[2][Stages];
  if (threadIdx.x == 0)
    for (int i = 0; i < Stages; ++i) {
      initBar(&pingpong[0][i], 1);
      initBar(&pingpong[1][i], 1);
    }
  __syncthreads();
  if (threadIdx.x < 128) {
    for (int k = 0; k < tiles; ++k) {
      arriveBar(&pingpong[0][k % Stages]);
      waitBar(&pingpong[1][k % Stages], (k / Stages) & 1);
    }
  } else {
    for (int k = 0; k < tiles; ++k) {
      waitBar(&pingpong[0][k % Stages], (k / Stages) & 1);
      arriveBar(&pingpong[1][k % Stages]);
    }
  }
}

// Rows per role, each thread's role its warpgroup: the row the roles use
// was never initialised, only the other one. The role's index is no counter
// (no member is proven for the first run), but every member it may name
// lies in row 0, and no init covers any of them.
__global__ void roleRowDropped() {
  __shared__ uint64_t pingpong[2][2];
  if (threadIdx.x == 0)
    for (int i = 0; i < 2; ++i)
      initBar(&pingpong[1][i], 128);
  __syncthreads();
  const int role = threadIdx.x / 128;
  arriveBar(&pingpong[0][role]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pingpong[0][s]' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
  // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the mbarrier.init of 'pingpong[1][s]' does not cover 'pingpong[0][s]'
  waitBar(&pingpong[0][role], 0);
}

// Its twin: the row the roles use initialised.
__global__ void roleRowInit() {
  __shared__ uint64_t pingpong[2][2];
  if (threadIdx.x == 0)
    for (int i = 0; i < 2; ++i)
      initBar(&pingpong[0][i], 128);
  __syncthreads();
  const int role = threadIdx.x / 128;
  arriveBar(&pingpong[0][role]);
  waitBar(&pingpong[0][role], 0);
}

// Silent: the init loop stops one stage short; the use reaches the last
// stage only on a later pass of a loop whose passes are not known.
__global__ void lastStageLater(const __grid_constant__ CUtensorMap map,
                               int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  if (threadIdx.x == 0)
    for (int i = 0; i < Stages - 1; ++i)
      barInit(full + i * 8, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < tiles; ++k) {
      loadTile(tileBase + (k % Stages) * TileBytes, &map, k,
               full + (k % Stages) * 8);
      expectBytes(full + (k % Stages) * 8, TileBytes);
      barWait(full + (k % Stages) * 8, (k / Stages) & 1);
    }
}

// Silent: the array's address also goes to a function the model does not
// see into, which may initialise any of its barriers.
__device__ void setUpBarriers(int addr);
__global__ void partsHandedOn(const __grid_constant__ CUtensorMap map,
                              int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i)
      barInit(empty + i * 8, 1);
    setUpBarriers(full);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < tiles; ++k) {
      barWait(empty + (k % Stages) * 8, ((k / Stages) & 1) ^ 1);
      loadTile(tileBase + (k % Stages) * TileBytes, &map, k,
               full + (k % Stages) * 8);
      expectBytes(full + (k % Stages) * 8, TileBytes);
    }
}
