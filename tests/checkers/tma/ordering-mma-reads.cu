// The operands of wgmma.mma_async and tcgen05.mma given as shared-memory
// matrix descriptors read the buffer the descriptor was built from (through
// a helper that converts a pointer with __cvta_generic_to_shared, a
// descriptor class converted to its integer, helper parameters): they need
// the wait on the copy's barrier as a load does (TMA-LOAD-WAIT-BEFORE-READ),
// and no fence.proxy.async before the stage is handed back (the async proxy
// reads it). A consumer warp group that reads a stage the producer's copies
// write with no wait before the read is reported too (the copy and the read
// lie in different branches). Each wrong kernel has its correct twin; a
// descriptor of an unknown buffer stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(a), "r"(bytes));
}
__device__ static inline void arriveOn(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}
__device__ static inline void loadTile(void *dst, const void *map,
                                       uint64_t *bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))), "l"(map),
        "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(x),
        "r"(y)
      : "memory");
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

// A descriptor built from a pointer (the 14-bit start address, 16-byte
// units; leading and stride offsets; 128-byte swizzle).
__device__ static inline uint64_t encodeField(uint64_t x) {
  return (x & 0x3FFFF) >> 4;
}
__device__ uint64_t makeDesc(uint16_t *ptr) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint64_t desc = 0;
  desc |= encodeField(addr);
  desc |= encodeField(16) << 16;
  desc |= encodeField(1024) << 32;
  desc |= 1llu << 62;
  return desc;
}

__device__ void wgmma64(float d[4], uint16_t *sA, uint16_t *sB) {
  uint64_t descA = makeDesc(&sA[0]);
  uint64_t descB = makeDesc(&sB[0]);
  asm volatile("{\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
               "}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(descA), "l"(descB));
}

__device__ void opaque();

// Every thread issues the wgmma before waiting for the copies.
__global__ void wgmmaBeforeWait(const __grid_constant__ CUtensorMap mapA,
                                const __grid_constant__ CUtensorMap mapB,
                                float *out) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ alignas(1024) uint16_t sB[64 * 8];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA) + sizeof(sB));
    loadTile(sA, &mapA, &full, 0, 0);
    loadTile(sB, &mapB, &full, 0, 0);
  }
  float d[4] = {};
  wgmma64(d, sA, sB);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the MMA (shared-memory descriptor) reads 'sA' while the TMA load at line [[#@LINE-5]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the TMA load into 'sA' completes on 'full'
  // CHECK-NOTES: :35:3: note: issued here
  // CHECK-NOTES: :[[@LINE-4]]:3: warning: the MMA (shared-memory descriptor) reads 'sB' while the TMA load at line [[#@LINE-7]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-8]]:5: note: the TMA load into 'sB' completes on 'full'
  // CHECK-NOTES: :35:3: note: issued here
  waitBarrier(&full, 0);
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

__global__ void wgmmaAfterWait(const __grid_constant__ CUtensorMap mapA,
                               const __grid_constant__ CUtensorMap mapB,
                               float *out) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ alignas(1024) uint16_t sB[64 * 8];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA) + sizeof(sB));
    loadTile(sA, &mapA, &full, 0, 0);
    loadTile(sB, &mapB, &full, 0, 0);
  }
  float d[4] = {};
  waitBarrier(&full, 0);
  wgmma64(d, sA, sB);
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

constexpr int S = 4;

// A producer warp and a consumer warp group joined by full/empty barriers;
// the consumers never wait on full[s] before their wgmma.
__global__ void __launch_bounds__(256)
ringNoFullWait(const __grid_constant__ CUtensorMap mapA,
               const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&empty[s], ((k / S) & 1) ^ 1);
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      wgmma64(d, sA[s], sB[s]);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: the MMA (shared-memory descriptor) reads 'sA' that the TMA load at line [[#@LINE-9]] (in other threads' code) writes, with no wait on 'full' before it on this path (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-10]]:9: note: the TMA load into 'sA' completes on 'full'; wait on it before reading
      // CHECK-NOTES: :35:3: note: issued here
      // CHECK-NOTES: :[[@LINE-4]]:7: warning: the MMA (shared-memory descriptor) reads 'sB' that the TMA load at line [[#@LINE-11]] (in other threads' code) writes, with no wait on 'full' before it on this path (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-12]]:9: note: the TMA load into 'sB' completes on 'full'; wait on it before reading
      // CHECK-NOTES: :35:3: note: issued here
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// The same ring with the wait; no fence.proxy.async before the arrive on
// empty[s] is needed: the MMA reads through the async proxy.
__global__ void __launch_bounds__(256)
ringFullWait(const __grid_constant__ CUtensorMap mapA,
             const __grid_constant__ CUtensorMap mapB, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S][64 * 64];
  __shared__ alignas(1024) uint16_t sB[S][64 * 8];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      initBarrier(&full[s], 1);
      initBarrier(&empty[s], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      for (int k = 0; k < nk; ++k) {
        int s = k % S;
        waitBarrier(&empty[s], ((k / S) & 1) ^ 1);
        expectBytes(&full[s], sizeof(sA[0]) + sizeof(sB[0]));
        loadTile(sA[s], &mapA, &full[s], k * 64, 0);
        loadTile(sB[s], &mapB, &full[s], k * 64, 0);
      }
    }
  } else {
    float d[4] = {};
    for (int k = 0; k < nk; ++k) {
      int s = k % S;
      waitBarrier(&full[s], (k / S) & 1);
      wgmma64(d, sA[s], sB[s]);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
  }
}

// A descriptor class (a union of its integer and its bit fields) converted
// to uint64_t at the asm operand, passed down by const reference.
union SmemDesc {
  uint64_t desc_;
  struct {
    uint16_t start_, lead_, stride_, flags_;
  } bits_;
  __device__ operator uint64_t() const { return desc_; }
};
template <class P> __device__ SmemDesc makeSmemDesc(P ptr, const int &layout) {
  SmemDesc d;
  const auto a = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  d.bits_.start_ = a >> 4;
  d.bits_.lead_ = 1;
  d.bits_.stride_ = 64;
  d.bits_.flags_ = layout << 14;
  return d;
}
struct Mma {
  __device__ static void fma(uint64_t const &da, uint64_t const &db, float &d0,
                             float &d1, float &d2, float &d3) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "l"(da), "l"(db));
  }
  __device__ static void wgmma(uint64_t const &da, uint64_t const &db,
                               float *d) {
    fma(da, db, d[0], d[1], d[2], d[3]);
  }
};

__global__ void descClassBeforeWait(const __grid_constant__ CUtensorMap mapA,
                                    float *out, uint16_t *gB) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ alignas(1024) uint16_t sB[64 * 8];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  sB[threadIdx.x] = gB[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA));
    loadTile(sA, &mapA, &full, 0, 0);
  }
  float d[4] = {};
  for (int k = 0; k < 4; ++k) {
    auto descA = makeSmemDesc(sA + k * 16, 1);
    auto descB = makeSmemDesc(sB + k * 16, 1);
    Mma::wgmma(descA, descB, d);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the MMA (shared-memory descriptor) reads 'sA' while the TMA load at line [[#@LINE-7]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-8]]:5: note: the TMA load into 'sA' completes on 'full'
    // CHECK-NOTES: :35:3: note: issued here
  }
  waitBarrier(&full, 0);
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

__global__ void descClassAfterWait(const __grid_constant__ CUtensorMap mapA,
                                   float *out, uint16_t *gB) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ alignas(1024) uint16_t sB[64 * 8];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  sB[threadIdx.x] = gB[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA));
    loadTile(sA, &mapA, &full, 0, 0);
  }
  waitBarrier(&full, 0);
  float d[4] = {};
  for (int k = 0; k < 4; ++k) {
    auto descA = makeSmemDesc(sA + k * 16, 1);
    auto descB = makeSmemDesc(sB + k * 16, 1);
    Mma::wgmma(descA, descB, d);
  }
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

// tcgen05.mma: [d] in tensor memory, a and b descriptors.
__device__ void umma(uint32_t tmem, uint64_t da, uint64_t db, uint32_t idesc) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}\n"
               ::"r"(tmem), "l"(da), "l"(db), "r"(idesc));
}

__global__ void ummaBeforeWait(const __grid_constant__ CUtensorMap mapA,
                               const __grid_constant__ CUtensorMap mapB,
                               uint32_t tmem) {
  __shared__ alignas(1024) uint16_t sA[128 * 64];
  __shared__ alignas(1024) uint16_t sB[128 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA) + sizeof(sB));
    loadTile(sA, &mapA, &full, 0, 0);
    loadTile(sB, &mapB, &full, 0, 0);
    umma(tmem, makeDesc(sA), makeDesc(sB), 0x10);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the MMA (shared-memory descriptor) reads 'sA' while the TMA load at line [[#@LINE-3]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the TMA load into 'sA' completes on 'full'
    // CHECK-NOTES: :35:3: note: issued here
    // CHECK-NOTES: :[[@LINE-4]]:5: warning: the MMA (shared-memory descriptor) reads 'sB' while the TMA load at line [[#@LINE-5]] may still write it: no wait on 'full' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: the TMA load into 'sB' completes on 'full'
    // CHECK-NOTES: :35:3: note: issued here
    waitBarrier(&full, 0);
  }
}

__global__ void ummaAfterWait(const __grid_constant__ CUtensorMap mapA,
                              const __grid_constant__ CUtensorMap mapB,
                              uint32_t tmem) {
  __shared__ alignas(1024) uint16_t sA[128 * 64];
  __shared__ alignas(1024) uint16_t sB[128 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA) + sizeof(sB));
    loadTile(sA, &mapA, &full, 0, 0);
    loadTile(sB, &mapB, &full, 0, 0);
    waitBarrier(&full, 0);
    umma(tmem, makeDesc(sA), makeDesc(sB), 0x10);
  }
}

// A descriptor the model cannot trace to a buffer: silent.
__global__ void unknownDescriptor(const __grid_constant__ CUtensorMap mapA,
                                  float *out, const uint64_t *descs) {
  __shared__ alignas(1024) uint16_t sA[64 * 64];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    initBarrier(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    expectBytes(&full, sizeof(sA));
    loadTile(sA, &mapA, &full, 0, 0);
  }
  float d[4] = {};
  Mma::fma(descs[0], descs[1], d[0], d[1], d[2], d[3]);
  waitBarrier(&full, 0);
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}
