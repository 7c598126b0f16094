// Buffers that are fields of a SharedStorage struct laid over dynamic shared
// memory, in the shapes of DeepGEMM, CUTLASS and hand-written GEMMs: field
// offsets from the record layout (nested structs, arrays of stages, alignas
// on fields and on the struct), the pool's start taken as aligned to its
// declaration's __align__ or to the type it is cast to, an address rounded
// up at run time, and run-time stage indices. Only offsets that break that
// alignment are reported (TMA-SMEM-ALIGN-128, TMA-SMEM-ALIGN-SWIZZLE,
// BULK-ADDR-ALIGN16); each wrong kernel has a correct twin that is silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

namespace ptx = cuda::ptx;
using bf16 = unsigned short;

constexpr int kStages = 4;
constexpr int kTile = 128 * 64; // elements: 16 KiB of bf16 per stage

// DeepGEMM: `extern __shared__ __align__(1024) uint8_t smem_buffer[]`, the
// tiles first (multiples of 1024 bytes), the barriers after them.
struct DeepStorage {
  bf16 a[kStages][kTile];
  bf16 b[kStages][kTile];
  uint64_t full[kStages];
};
// The barriers moved in front of the tiles: a starts 32 bytes in.
struct DeepStorageBarriersFirst {
  uint64_t full[kStages];
  bf16 a[kStages][kTile];
};

__global__ void deepGemm(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ __align__(1024) uint8_t smem_buffer_ok[];
  auto &ss = *reinterpret_cast<DeepStorage *>(smem_buffer_ok);
  int stage = k % kStages;
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            ss.a[stage], &map, coords, &ss.full[stage]);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            &ss.b[stage][0], &map, coords, &ss.full[stage]);
}

__global__ void deepGemmBarriersFirst(const __grid_constant__ CUtensorMap map,
                                      int k) {
  extern __shared__ __align__(1024) uint8_t smem_buffer[];
  auto &ss = *reinterpret_cast<DeepStorageBarriersFirst *>(smem_buffer);
  int stage = k % kStages;
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            ss.a[stage], &map, coords, &ss.full[stage]);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 32-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-7]]:45: note: 'smem_buffer' is dynamic shared memory, taken as 1024-byte aligned at its start (its declaration's __align__; only offsets that break that alignment are reported); the address is 32 bytes into it plus a multiple of 16384
}

// CUTLASS: `extern __shared__ char shared_memory[]` cast to a SharedStorage
// whose fields carry the alignment (cute::array_aligned<T, N, 128>); the
// pool is taken as aligned to the struct it is cast to.
template <class T, int N, int Align> struct alignas(Align) ArrayAligned {
  T storage[N];
  __device__ T *data() { return storage; }
};
struct CutlassStorage {
  struct Mainloop {
    ArrayAligned<bf16, kStages * kTile, 128> smem_a;
    ArrayAligned<bf16, kStages * kTile, 128> smem_b;
  } mainloop;
  struct Epilogue {
    ArrayAligned<float, 32 * 32, 128> smem_c;
  } epilogue;
  uint64_t barriers[2 * kStages];
};
// A 64-byte aligned epilogue staging buffer after a 64-byte header.
struct CutlassStorageEpilogue64 {
  struct Epilogue {
    uint64_t header[8];
    alignas(64) float smem_c[32 * 32];
  } epilogue;
  ArrayAligned<bf16, kTile, 128> smem_a;
};

__global__ void cutlassMainloop(const __grid_constant__ CUtensorMap map,
                                int k) {
  extern __shared__ char shared_memory_ok[];
  CutlassStorage &storage = *reinterpret_cast<CutlassStorage *>(shared_memory_ok);
  int stage = k % kStages;
  int32_t coords[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            storage.mainloop.smem_a.data() + stage * kTile,
                            &map, coords, &storage.barriers[stage]);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            storage.mainloop.smem_b.storage + stage * kTile,
                            &map, coords, &storage.barriers[stage]);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                            coords, storage.epilogue.smem_c.data());
  // Half a 128-byte row into the tile: 64 bytes past its alignment.
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            storage.mainloop.smem_a.data() + 32, &map, coords,
                            &storage.barriers[0]);
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
}

__global__ void cutlassEpilogue64(const __grid_constant__ CUtensorMap map) {
  extern __shared__ char shared_memory[];
  auto &storage =
      *reinterpret_cast<CutlassStorageEpilogue64 *>(shared_memory);
  int32_t coords[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                            coords, storage.epilogue.smem_c);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-7]]:26: note: 'shared_memory' is dynamic shared memory, taken as 128-byte aligned at its start (the alignment of the type it is cast to; only offsets that break that alignment are reported); the address is 64 bytes into it
}

// A pool with no alignment of its own: only the 16 bytes dynamic shared
// memory starts at are known, so 8 bytes in breaks a bulk copy and a tensor
// tile at 1024 bytes in is not known to be misaligned.
__global__ void plainPool(const float *g, const __grid_constant__ CUtensorMap map) {
  extern __shared__ char smem[];
  uint64_t *bar = reinterpret_cast<uint64_t *>(smem);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem + 8, g, 64,
                     bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem + 16, g, 64,
                     bar);
  int32_t coords[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            smem + 1024, &map, coords, bar);
}

// A hand-written ring: stages of a nested struct, the stage's barrier in it.
struct Stage {
  alignas(128) bf16 a[64 * 64];
  alignas(128) bf16 b[64 * 64];
  uint64_t full;
};
struct RingStorage {
  Stage stages[kStages];
};
// Without alignas a stage is 16392 bytes: stage 1's tile is 8 bytes past a
// multiple of 16 (a constant stage proves it; a run-time one proves nothing).
struct PackedStage {
  bf16 a[64 * 64];
  bf16 b[64 * 64];
  uint64_t full;
};
struct PackedRing {
  PackedStage stages[kStages];
};

__global__ void ring(const bf16 *g, int k) {
  extern __shared__ __align__(128) uint8_t ring_smem[];
  RingStorage &rs = *reinterpret_cast<RingStorage *>(ring_smem);
  Stage &s = rs.stages[k % kStages];
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, s.b, g,
                     sizeof(s.b), &s.full);
}

__global__ void packedRing(const bf16 *g, int k) {
  extern __shared__ __align__(128) uint8_t packed_smem[];
  PackedRing &rs = *reinterpret_cast<PackedRing *>(packed_smem);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                     rs.stages[k % kStages].a, g, 8192,
                     &rs.stages[k % kStages].full);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, rs.stages[1].a,
                     g, 8192, &rs.stages[1].full);
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
}

// An address rounded up at run time: the rounded address is 1024-byte
// aligned whatever the pool's start, and offsets from it count.
__global__ void roundedUp(const __grid_constant__ CUtensorMap map) {
  extern __shared__ uint8_t raw[];
  auto *base = reinterpret_cast<bf16 *>(
      (reinterpret_cast<uintptr_t>(raw) + 1023) & ~uintptr_t(1023));
  uint64_t *bar = reinterpret_cast<uint64_t *>(raw);
  int32_t coords[2] = {0, 0};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, base,
                            &map, coords, bar);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            base + kTile, &map, coords, bar);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, base + 32,
                            &map, coords, bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:68: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 64-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
  // CHECK-MESSAGES: :[[@LINE-12]]:29: note: 'raw' is used through an address rounded to a multiple of 1024 bytes at run time; the address is 64 bytes past it
  // ThunderKittens rounds with a division: ((addr + off) / 1024) * 1024.
  auto *tk = reinterpret_cast<bf16 *>(
      ((reinterpret_cast<uint64_t>(&raw[0]) + 4096) / 1024) * 1024);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tk, &map,
                            coords, bar);
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tk + 8,
                            &map, coords, bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:68: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
}
