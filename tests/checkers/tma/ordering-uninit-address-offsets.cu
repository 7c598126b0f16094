// MBAR-UNINIT on a `__shared__` barrier array named by 32-bit shared
// addresses, as sm100 kernels write it: `full = cvta(bars)`, `empty = full
// + Stages * 8`, the members `full + stage * 8` handed to wait and copy
// helpers, lambdas that capture the locals by reference, and the MMA's
// `tcgen05.commit` (inline PTX the model lacks, no mbarrier.init) arriving
// on `empty + stage * 8`. Every reference is accounted for: a use with no
// init is reported. Each wrong kernel has its correct twin; an address
// handed to a function the model does not see, or inline PTX that may
// initialise, keeps it silent.
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

constexpr int Stages = 4;
constexpr int TileBytes = 8192;

// The init loop was dropped: the producer's first wait is on a barrier no
// thread initialised.
__global__ void offsetsNeverInit(const __grid_constant__ CUtensorMap map,
                                 int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
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
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
                 "cluster.b64 [%0];" ::"r"(empty + stage * 8)
                 : "memory");
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'bars' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
  } else if (threadIdx.x == 32) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
  }
}

// Its twin: every member initialised before the thread barrier.
__global__ void offsetsInit(const __grid_constant__ CUtensorMap map,
                            int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2 * Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  const int empty = full + Stages * 8;
  if (threadIdx.x == 0)
    for (int i = 0; i < 2 * Stages; ++i)
      barInit(full + i * 8, 1);
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
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
                 "cluster.b64 [%0];" ::"r"(empty + stage * 8)
                 : "memory");
  };
  if (threadIdx.x == 0) {
    for (int k = 0; k < tiles; ++k)
      produce(k);
  } else if (threadIdx.x == 32) {
    for (int k = 0; k < tiles; ++k)
      consume(k);
  }
}

// Silent: an offset address goes to a function the model does not see
// into, which may initialise the barrier.
__device__ void setUpBarriers(int addr);
__global__ void offsetHandedOn(const __grid_constant__ CUtensorMap map,
                               int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  if (threadIdx.x == 0)
    setUpBarriers(full + 0 * 8);
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < tiles; ++k) {
      loadTile(tileBase + (k % Stages) * TileBytes, &map, k,
               full + (k % Stages) * 8);
      expectBytes(full + (k % Stages) * 8, TileBytes);
      barWait(full + (k % Stages) * 8, (k / Stages) & 1);
    }
}

// Silent: inline PTX that names mbarrier.init may initialise it.
__global__ void offsetInitInAsm(const __grid_constant__ CUtensorMap map,
                                int tiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[Stages];
  const int tileBase = static_cast<int>(__cvta_generic_to_shared(pool));
  const int full = static_cast<int>(__cvta_generic_to_shared(bars));
  if (threadIdx.x == 0)
    asm volatile("{\n .reg .b32 a;\n mov.b32 a, %0;\n"
                 " mbarrier.init.shared::cta.b64 [a], 1;\n}" ::"r"(full + 8));
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 0; k < tiles; ++k) {
      loadTile(tileBase + (k % Stages) * TileBytes, &map, k,
               full + (k % Stages) * 8);
      expectBytes(full + (k % Stages) * 8, TileBytes);
      barWait(full + (k % Stages) * 8, (k / Stages) & 1);
    }
}
