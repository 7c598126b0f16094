// The regions of a dynamic shared-memory pool carved at constant byte
// offsets are different buffers (issue 24): integer windows (`base =
// __cvta_generic_to_shared(smem)`, `bias = base + OFF`) and pointer
// carve-outs (`float *b = (float *)(smem + OFF)`). A region is named by its
// offset ('smem + 16384'); a run-time stage term (`tiles + s * TILE`) keeps
// its region's base. Reads of a region that generic stores fill are not
// reads of the tile a TMA load refills, a wait is not needed before reading
// another region than the copy's, and a store into another region than a
// TMA store's source needs no wait_group.read. Each wrong kernel has its
// correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void initAt(uint32_t a, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void waitAt(uint32_t a, int p) {
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(a),
               "r"(p)
               : "memory");
}
__device__ inline void arriveAt(uint32_t a) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a)
               : "memory");
}
__device__ inline void expectAt(uint32_t a, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}
__device__ inline void tileLoad(uint32_t dst, const CUtensorMap *m, int x,
                                int y, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(m), "r"(x), "r"(y), "r"(bar)
               : "memory");
}
__device__ inline void tileStore(const CUtensorMap *m, int x, int y,
                                 uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
               "[%0, {%1, %2}], [%3];" ::"l"(m),
               "r"(x), "r"(y), "r"(src)
               : "memory");
}
__device__ inline void commitGroup() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ inline void waitGroupRead0() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ inline void fenceAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ inline float loadAt(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(a));
  return static_cast<float>(v);
}

constexpr int S = 2, TILE = 8192, BIAS = S * TILE;

// --- ASYNC-WAR-FENCE, integer windows ---------------------------------------

// The consumers read only the bias region, which generic stores fill; the
// producer refills the tile region: no read of the tile to fence.
__global__ void __launch_bounds__(160)
    windowsReadBias(const __grid_constant__ CUtensorMap map, float *out,
                    int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t tiles = base;
  const uint32_t bias = base + BIAS;
  const uint32_t full = bias + 1024;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(full + s * 8, 1);
      initAt(empty + s * 8, 128);
    }
  if (threadIdx.x < 128)
    reinterpret_cast<float *>(smem + BIAS)[threadIdx.x] = 1.f;
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(empty + s * 8, ((i / S) & 1) ^ 1);
      expectAt(full + s * 8, TILE);
      tileLoad(tiles + s * TILE, &map, 0, i, full + s * 8);
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(full + s * 8, (i / S) & 1);
      acc += loadAt(bias + threadIdx.x * 4);
      arriveAt(empty + s * 8);
    }
    out[threadIdx.x] = acc;
  }
}

// The consumers read the tile region (`tiles + s * TILE + lane`, a run-time
// term in the region at offset 0) and hand it back with no fence.
__global__ void __launch_bounds__(160)
    windowsReadTile(const __grid_constant__ CUtensorMap map, float *out,
                    int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t tiles = base;
  const uint32_t full = base + BIAS + 1024;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(full + s * 8, 1);
      initAt(empty + s * 8, 128);
    }
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(empty + s * 8, ((i / S) & 1) ^ 1);
      expectAt(full + s * 8, TILE);
      tileLoad(tiles + s * TILE, &map, 0, i, full + s * 8);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: TMA load overwrites 'smem' that generic loads read at line [[#@LINE+7]] and hand back through the arrive on 'smem + 17424 + 8 * s' at line [[#@LINE+8]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(full + s * 8, (i / S) & 1);
      acc += loadAt(tiles + s * TILE + threadIdx.x * 4);
      arriveAt(empty + s * 8);
    }
    out[threadIdx.x] = acc;
  }
}

__global__ void __launch_bounds__(160)
    windowsReadTileFenced(const __grid_constant__ CUtensorMap map, float *out,
                          int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t tiles = base;
  const uint32_t full = base + BIAS + 1024;
  const uint32_t empty = full + S * 8;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(full + s * 8, 1);
      initAt(empty + s * 8, 128);
    }
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(empty + s * 8, ((i / S) & 1) ^ 1);
      expectAt(full + s * 8, TILE);
      tileLoad(tiles + s * TILE, &map, 0, i, full + s * 8);
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(full + s * 8, (i / S) & 1);
      acc += loadAt(tiles + s * TILE + threadIdx.x * 4);
      fenceAsync();
      arriveAt(empty + s * 8);
    }
    out[threadIdx.x] = acc;
  }
}

// --- ASYNC-WAR-FENCE, pointer carve-outs ------------------------------------

// `T *p = (T *)(smem + OFF)`: the bias and the barriers after the tiles.
__global__ void __launch_bounds__(160)
    carveReadBias(const __grid_constant__ CUtensorMap map, float *out,
                  int iters) {
  extern __shared__ __align__(1024) char smem[];
  char *tiles = smem;
  float *bias = reinterpret_cast<float *>(smem + BIAS);
  uint64_t *full = reinterpret_cast<uint64_t *>(smem + BIAS + 1024);
  uint64_t *empty = full + S;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s) {
      initAt(u32(&full[s]), 1);
      initAt(u32(&empty[s]), 128);
    }
  if (threadIdx.x < 128)
    bias[threadIdx.x] = 1.f;
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(u32(&empty[s]), ((i / S) & 1) ^ 1);
      expectAt(u32(&full[s]), TILE);
      tileLoad(u32(tiles + s * TILE), &map, 0, i, u32(&full[s]));
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      int s = i % S;
      waitAt(u32(&full[s]), (i / S) & 1);
      acc += bias[threadIdx.x];
      arriveAt(u32(&empty[s]));
    }
    out[threadIdx.x] = acc;
  }
}

// The tile is the region after the bias (`smem + 1024`, one stage): its
// readers hand it back with no fence.
__global__ void __launch_bounds__(160)
    carveReadTile(const __grid_constant__ CUtensorMap map, float *out,
                  int iters) {
  extern __shared__ __align__(1024) char smem[];
  float *bias = reinterpret_cast<float *>(smem);
  float *tile = reinterpret_cast<float *>(smem + 1024);
  uint64_t *full = reinterpret_cast<uint64_t *>(smem + 1024 + TILE);
  uint64_t *empty = full + 1;
  if (threadIdx.x == 0) {
    initAt(u32(full), 1);
    initAt(u32(empty), 128);
  }
  if (threadIdx.x < 128)
    bias[threadIdx.x] = 1.f;
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      waitAt(u32(empty), (i & 1) ^ 1);
      expectAt(u32(full), TILE);
      tileLoad(u32(tile), &map, 0, i, u32(full));
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: TMA load overwrites 'smem + 1024' that generic loads read at line [[#@LINE+6]] and hand back through the arrive on 'smem + 9224' at line [[#@LINE+7]] with no fence.proxy.async before it: the copy may overtake the reads (ASYNC-WAR-FENCE) [tma-ordering]
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      waitAt(u32(full), i & 1);
      acc += bias[threadIdx.x] * tile[threadIdx.x];
      arriveAt(u32(empty));
    }
    out[threadIdx.x] = acc;
  }
}

__global__ void __launch_bounds__(160)
    carveReadTileFenced(const __grid_constant__ CUtensorMap map, float *out,
                        int iters) {
  extern __shared__ __align__(1024) char smem[];
  float *bias = reinterpret_cast<float *>(smem);
  float *tile = reinterpret_cast<float *>(smem + 1024);
  uint64_t *full = reinterpret_cast<uint64_t *>(smem + 1024 + TILE);
  uint64_t *empty = full + 1;
  if (threadIdx.x == 0) {
    initAt(u32(full), 1);
    initAt(u32(empty), 128);
  }
  if (threadIdx.x < 128)
    bias[threadIdx.x] = 1.f;
  __syncthreads();
  if (threadIdx.x == 128) {
    for (int i = 0; i < iters; ++i) {
      waitAt(u32(empty), (i & 1) ^ 1);
      expectAt(u32(full), TILE);
      tileLoad(u32(tile), &map, 0, i, u32(full));
    }
  } else if (threadIdx.x < 128) {
    float acc = 0;
    for (int i = 0; i < iters; ++i) {
      waitAt(u32(full), i & 1);
      acc += bias[threadIdx.x] * tile[threadIdx.x];
      fenceAsync();
      arriveAt(u32(empty));
    }
    out[threadIdx.x] = acc;
  }
}

// --- TMA-LOAD-WAIT-BEFORE-READ ----------------------------------------------

// The bias region is read before the wait: the copy writes the tile only.
__global__ void readOtherRegionBeforeWait(const __grid_constant__ CUtensorMap map,
                                          float *out) {
  extern __shared__ __align__(1024) char smem[];
  float *tile = reinterpret_cast<float *>(smem);
  float *bias = reinterpret_cast<float *>(smem + TILE);
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + TILE + 1024);
  if (threadIdx.x == 0)
    initAt(u32(bar), 1);
  bias[threadIdx.x] = 2.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(u32(bar), TILE);
    tileLoad(u32(tile), &map, 0, 0, u32(bar));
  }
  float b = bias[threadIdx.x];
  waitAt(u32(bar), 0);
  out[threadIdx.x] = b * tile[threadIdx.x];
}

// The tile is the region at TILE bytes; it is read before the wait.
__global__ void readTileBeforeWait(const __grid_constant__ CUtensorMap map,
                                   float *out) {
  extern __shared__ __align__(1024) char smem[];
  float *bias = reinterpret_cast<float *>(smem);
  float *tile = reinterpret_cast<float *>(smem + TILE);
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 2 * TILE);
  if (threadIdx.x == 0)
    initAt(u32(bar), 1);
  bias[threadIdx.x] = 2.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(u32(bar), TILE);
    tileLoad(u32(tile), &map, 0, 0, u32(bar));
  }
  float t = tile[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: generic load reads 'smem + 8192' while the TMA load at line [[#@LINE-3]] may still write it: no wait on 'smem + 16384' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitAt(u32(bar), 0);
  out[threadIdx.x] = t * bias[threadIdx.x];
}

__global__ void readTileAfterWait(const __grid_constant__ CUtensorMap map,
                                  float *out) {
  extern __shared__ __align__(1024) char smem[];
  float *bias = reinterpret_cast<float *>(smem);
  float *tile = reinterpret_cast<float *>(smem + TILE);
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem + 2 * TILE);
  if (threadIdx.x == 0)
    initAt(u32(bar), 1);
  bias[threadIdx.x] = 2.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(u32(bar), TILE);
    tileLoad(u32(tile), &map, 0, 0, u32(bar));
  }
  waitAt(u32(bar), 0);
  float t = tile[threadIdx.x];
  out[threadIdx.x] = t * bias[threadIdx.x];
}

// --- TMA-STORE-WAIT ----------------------------------------------------------

// A persistent epilogue: the TMA store reads the output region (`base +
// TILE`); each tile's generic stores go to the staging region (`smem`).
__global__ void storeLoopOtherRegion(const __grid_constant__ CUtensorMap map,
                                     int tiles) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  float *staging = reinterpret_cast<float *>(smem);
  float *outTile = reinterpret_cast<float *>(smem + TILE);
  outTile[threadIdx.x] = 1.f;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    staging[threadIdx.x] = static_cast<float>(t);
    fenceAsync();
    __syncthreads();
    if (threadIdx.x == 0) {
      tileStore(&map, t, 0, u32(outTile));
      commitGroup();
    }
  }
  if (threadIdx.x == 0)
    waitGroupRead0();
}

// Each tile rewrites the output region while the last store may read it.
__global__ void storeLoopSameRegion(const __grid_constant__ CUtensorMap map,
                                    int tiles) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  float *staging = reinterpret_cast<float *>(smem);
  float *outTile = reinterpret_cast<float *>(smem + TILE);
  staging[threadIdx.x] = 1.f;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    outTile[threadIdx.x] = static_cast<float>(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: generic store overwrites 'smem + 8192' while the TMA store at line [[#@LINE+4]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    fenceAsync();
    __syncthreads();
    if (threadIdx.x == 0) {
      tileStore(&map, t, 0, u32(outTile));
      commitGroup();
    }
  }
  if (threadIdx.x == 0)
    waitGroupRead0();
}

__global__ void storeLoopSameRegionWaited(
    const __grid_constant__ CUtensorMap map, int tiles) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  float *staging = reinterpret_cast<float *>(smem);
  float *outTile = reinterpret_cast<float *>(smem + TILE);
  staging[threadIdx.x] = 1.f;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0)
      waitGroupRead0();
    __syncthreads();
    outTile[threadIdx.x] = static_cast<float>(t);
    fenceAsync();
    __syncthreads();
    if (threadIdx.x == 0) {
      tileStore(&map, t, 0, u32(outTile));
      commitGroup();
    }
  }
  if (threadIdx.x == 0)
    waitGroupRead0();
}
