// A tcgen05.mma whose shared-memory descriptors are built from 32-bit
// shared addresses (`__cvta_generic_to_shared` kept in an integer, a tile at
// `base + bytes`) reads the tiles those addresses name: through a lambda or
// helper that puts one integer parameter in the start-address field
// (`field(addr) | (field(lbo) << 16) | ...`, `field(x)` being `(x &
// 0x3FFFF) >> 4`) or inline (`layout | (addr >> 4)`). Issued before the
// wait on the copies' barrier, it is TMA-LOAD-WAIT-BEFORE-READ; each wrong
// kernel has its twin that waits. A helper where two parameters may be the
// address names no buffer and stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ static inline void initAt(uint32_t bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ static inline void expectAt(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(bar), "r"(bytes) : "memory");
}
__device__ static inline void loadAt(uint32_t dst, const void *map,
                                     uint32_t bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(dst), "l"(map), "r"(bar), "r"(x), "r"(y)
      : "memory");
}
__device__ static inline void waitAt(uint32_t bar, int phase) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(bar), "r"(phase));
}
__device__ static inline void commitTo(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
               ::"r"(bar) : "memory");
}
__device__ static inline void mmaF16(uint32_t tmem, uint64_t da, uint64_t db,
                                     uint32_t idesc, int acc) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}\n"
               ::"r"(tmem), "l"(da), "l"(db), "r"(idesc), "r"(acc));
}
// The 14-bit start-address field of a shared address, in 16-byte units.
__device__ constexpr uint64_t addrField(uint64_t x) { return (x & 0x3FFFF) >> 4; }

constexpr int kTileBytes = 128 * 64 * 2;

// The descriptor of a K-major tile at a shared address: LBO from the rows.
#define TILE_DESC                                                              \
  [](uint32_t addr, int rows) -> uint64_t {                                    \
    const int lbo = rows * 16;                                                 \
    return addrField(addr) | (addrField(lbo) << 16) | (1ull << 46);            \
  }

// Per k: one thread loads A and B into the pool and issues the MMA on them,
// which commits to the same barrier; everyone waits for the MMA at the end.
// The MMA does not wait for the loads' bytes.
__global__ void lambdaDescNoWait(const __grid_constant__ CUtensorMap mapA,
                                 const __grid_constant__ CUtensorMap mapB,
                                 uint32_t tmem, int kTiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2];
  const uint32_t aBase = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t bBase = aBase + kTileBytes;
  const uint32_t loaded = static_cast<uint32_t>(__cvta_generic_to_shared(bars));
  const uint32_t done = loaded + 8;
  if (threadIdx.x == 0) {
    initAt(loaded, 1);
    initAt(done, 1);
  }
  __syncthreads();
  int phase = 0;
  for (int k = 0; k < kTiles; ++k) {
    if (threadIdx.x == 0) {
      loadAt(aBase, &mapA, loaded, k * 64, 0);
      loadAt(bBase, &mapB, loaded, k * 64, 0);
      expectAt(loaded, 2 * kTileBytes);
      auto desc = TILE_DESC;
      mmaF16(tmem, desc(aBase, 128), desc(bBase, 128), 0x10, k);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: the MMA (shared-memory descriptor) reads 'pool + 16384' while the TMA load at line [[#@LINE-4]] may still write it: no wait on 'bars' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-5]]:7: note: the TMA load into 'pool + 16384' completes on 'bars'
      // CHECK-NOTES: :28:3: note: issued here
      // CHECK-NOTES: :[[@LINE-4]]:7: warning: the MMA (shared-memory descriptor) reads 'pool' while the TMA load at line [[#@LINE-8]] may still write it: no wait on 'bars' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-9]]:7: note: the TMA load into 'pool' completes on 'bars'
      // CHECK-NOTES: :28:3: note: issued here
      commitTo(done);
      waitAt(done, phase);
      waitAt(loaded, phase);
    }
    __syncthreads();
    phase ^= 1;
  }
}

__global__ void lambdaDescAfterWait(const __grid_constant__ CUtensorMap mapA,
                                    const __grid_constant__ CUtensorMap mapB,
                                    uint32_t tmem, int kTiles) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t bars[2];
  const uint32_t aBase = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t bBase = aBase + kTileBytes;
  const uint32_t loaded = static_cast<uint32_t>(__cvta_generic_to_shared(bars));
  const uint32_t done = loaded + 8;
  if (threadIdx.x == 0) {
    initAt(loaded, 1);
    initAt(done, 1);
  }
  __syncthreads();
  int phase = 0;
  for (int k = 0; k < kTiles; ++k) {
    if (threadIdx.x == 0) {
      loadAt(aBase, &mapA, loaded, k * 64, 0);
      loadAt(bBase, &mapB, loaded, k * 64, 0);
      expectAt(loaded, 2 * kTileBytes);
      waitAt(loaded, phase);
      auto desc = TILE_DESC;
      mmaF16(tmem, desc(aBase, 128), desc(bBase, 128), 0x10, k);
      commitTo(done);
      waitAt(done, phase);
    }
    __syncthreads();
    phase ^= 1;
  }
}

// The start-address field put in inline, the layout bits a constant.
__global__ void inlineDescNoWait(const __grid_constant__ CUtensorMap mapA,
                                 uint32_t tmem) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t loaded;
  const uint32_t aBase = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&loaded));
  constexpr uint64_t kLayout = (addrField(1024) << 32) | (1ull << 46);
  if (threadIdx.x == 0) {
    initAt(bar, 1);
    loadAt(aBase, &mapA, bar, 0, 0);
    expectAt(bar, kTileBytes);
    const uint64_t da = kLayout | (aBase >> 4);
    mmaF16(tmem, da, da, 0x10, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the MMA (shared-memory descriptor) reads 'pool' while the TMA load at line [[#@LINE-4]] may still write it: no wait on 'loaded' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: the TMA load into 'pool' completes on 'loaded'
    // CHECK-NOTES: :28:3: note: issued here
    waitAt(bar, 0);
  }
}

__global__ void inlineDescAfterWait(const __grid_constant__ CUtensorMap mapA,
                                    uint32_t tmem) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t loaded;
  const uint32_t aBase = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&loaded));
  constexpr uint64_t kLayout = (addrField(1024) << 32) | (1ull << 46);
  if (threadIdx.x == 0) {
    initAt(bar, 1);
    loadAt(aBase, &mapA, bar, 0, 0);
    expectAt(bar, kTileBytes);
    waitAt(bar, 0);
    const uint64_t da = kLayout | (aBase >> 4);
    mmaF16(tmem, da, da, 0x10, 0);
  }
}

// Either parameter may be the start address (both lie in unshifted terms):
// the descriptor names no buffer, and the read before the wait is not seen.
__device__ uint64_t eitherDesc(uint32_t a, uint32_t b) {
  return addrField(a) | addrField(b) | (1ull << 46);
}

__global__ void ambiguousDescNoWait(const __grid_constant__ CUtensorMap mapA,
                                    uint32_t tmem) {
  extern __shared__ __align__(1024) char pool[];
  __shared__ uint64_t loaded;
  const uint32_t aBase = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&loaded));
  if (threadIdx.x == 0) {
    initAt(bar, 1);
    loadAt(aBase, &mapA, bar, 0, 0);
    expectAt(bar, kTileBytes);
    mmaF16(tmem, eitherDesc(aBase, 64), eitherDesc(aBase, 64), 0x10, 0);
    waitAt(bar, 0);
  }
}
