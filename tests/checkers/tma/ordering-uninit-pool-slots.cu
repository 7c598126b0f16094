// MBAR-UNINIT on the barriers of a dynamic shared-memory pool named by
// their byte offsets (issue 24): integer windows (`bars = base + OFF`,
// `bars + s * 8`) and pointer carve-outs (`uint64_t *full = (uint64_t
// *)(smem + OFF)`). A barrier at a fixed offset is its own; an init loop
// covers the members of its family up to its bound. Silent when a call the
// model does not follow may initialise a barrier of the pool. Each wrong
// kernel has its correct twin.
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

constexpr int S = 2, TILE = 8192, BARS = S * TILE;

// An init helper that lost its instruction: no barrier of the ring is
// initialised.
__device__ inline void initLost(uint32_t a, int n) {}

__global__ void ringInitLost(const __grid_constant__ CUtensorMap map,
                             float *out, int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t bars = base + BARS;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      initLost(bars + s * 8, 1);
  __syncthreads();
  for (int i = 0; i < iters; ++i) {
    int s = i % S;
    if (threadIdx.x == 0) {
      expectAt(bars + s * 8, TILE);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'smem + 16384 + 8 * s' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      tileLoad(base + s * TILE, &map, 0, i, bars + s * 8);
    }
    waitAt(bars + s * 8, (i / S) & 1);
    out[threadIdx.x] += loadAt(base + s * TILE + threadIdx.x * 4);
    __syncthreads();
  }
}

__global__ void ringInit(const __grid_constant__ CUtensorMap map, float *out,
                         int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t base = u32(smem);
  const uint32_t bars = base + BARS;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      initAt(bars + s * 8, 1);
  __syncthreads();
  for (int i = 0; i < iters; ++i) {
    int s = i % S;
    if (threadIdx.x == 0) {
      expectAt(bars + s * 8, TILE);
      tileLoad(base + s * TILE, &map, 0, i, bars + s * 8);
    }
    waitAt(bars + s * 8, (i / S) & 1);
    out[threadIdx.x] += loadAt(base + s * TILE + threadIdx.x * 4);
    __syncthreads();
  }
}

// Barriers at fixed offsets, one init dropped: the epilogue's barrier
// (`smem + BARS + 16`) is used but never initialised.
__global__ void fixedOneMissing(const __grid_constant__ CUtensorMap map,
                                float *out) {
  extern __shared__ __align__(1024) char smem[];
  uint64_t *full = reinterpret_cast<uint64_t *>(smem + BARS);
  uint64_t *done = reinterpret_cast<uint64_t *>(smem + BARS + 16);
  if (threadIdx.x == 0) {
    initAt(u32(full), 1);
    initAt(u32(full + 1), 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(u32(full), TILE);
    tileLoad(u32(smem), &map, 0, 0, u32(full));
  }
  waitAt(u32(full), 0);
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x];
  arriveAt(u32(done));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'smem + 16400' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
}

__global__ void fixedAllInit(const __grid_constant__ CUtensorMap map,
                             float *out) {
  extern __shared__ __align__(1024) char smem[];
  uint64_t *full = reinterpret_cast<uint64_t *>(smem + BARS);
  uint64_t *done = reinterpret_cast<uint64_t *>(smem + BARS + 16);
  if (threadIdx.x == 0) {
    initAt(u32(full), 1);
    initAt(u32(full + 1), 1);
    initAt(u32(done), 128);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(u32(full), TILE);
    tileLoad(u32(smem), &map, 0, 0, u32(full));
  }
  waitAt(u32(full), 0);
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x];
  arriveAt(u32(done));
}

// The init loop makes S barriers; the one after them is used uninitialised.
__global__ void pastInitLoop(const __grid_constant__ CUtensorMap map,
                             float *out) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t bars = u32(smem) + BARS;
  if (threadIdx.x == 0)
    for (int s = 0; s < S; ++s)
      initAt(bars + s * 8, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(bars + 8, TILE);
    tileLoad(u32(smem), &map, 0, 0, bars + 8);
  }
  waitAt(bars + 8, 0);
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x];
  arriveAt(bars + S * 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'smem + 16400' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
}

__global__ void withinInitLoop(const __grid_constant__ CUtensorMap map,
                               float *out) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t bars = u32(smem) + BARS;
  if (threadIdx.x == 0)
    for (int s = 0; s < S + 1; ++s)
      initAt(bars + s * 8, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(bars + 8, TILE);
    tileLoad(u32(smem), &map, 0, 0, bars + 8);
  }
  waitAt(bars + 8, 0);
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x];
  arriveAt(bars + S * 8);
}

// A helper the model does not see into may initialise the pool's barriers.
__device__ void setUpBarriers(uint32_t bars);

__global__ void opaqueInit(const __grid_constant__ CUtensorMap map,
                           float *out) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t bars = u32(smem) + BARS;
  if (threadIdx.x == 0)
    setUpBarriers(bars);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectAt(bars, TILE);
    tileLoad(u32(smem), &map, 0, 0, bars);
  }
  waitAt(bars, 0);
  out[threadIdx.x] = reinterpret_cast<float *>(smem)[threadIdx.x];
}
