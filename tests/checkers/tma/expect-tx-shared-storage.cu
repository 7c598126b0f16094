// MBAR-TX-EQUALS-BYTES with the barriers and tiles as fields of a
// SharedStorage struct laid over dynamic shared memory (DeepGEMM, CUTLASS,
// hand-written rings): `&ss.full[stage]` is one barrier whatever path
// reaches it, so the expect-tx and the copies that complete on it add up per
// phase. Each wrong kernel has a correct twin that stays silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

namespace ptx = cuda::ptx;
using bf16 = unsigned short;

constexpr int kStages = 4;
constexpr int kTileBytes = 128 * 64 * 2;

struct SharedStorage {
  alignas(1024) bf16 a[kStages][kTileBytes / 2];
  alignas(1024) bf16 b[kStages][kTileBytes / 2];
  uint64_t full[kStages];
  uint64_t empty[kStages];
};

// A and B land on full[stage]; the expect-tx counts A only.
__global__ void countsOneTile(const bf16 *ga, const bf16 *gb, int k) {
  extern __shared__ __align__(1024) uint8_t smem[];
  auto &ss = *reinterpret_cast<SharedStorage *>(smem);
  for (int iter = 0; iter < k; ++iter) {
    int stage = iter % kStages;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &ss.full[stage],
                                     kTileBytes);
      // CHECK-MESSAGES: :[[@LINE-3]]:7: warning: expect-tx of 16384 bytes on 'ss.full[stage]' but the copies completing on it in this phase deliver 32768 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ss.a[stage],
                         ga, kTileBytes, &ss.full[stage]);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ss.b[stage],
                         gb, kTileBytes, &ss.full[stage]);
    }
  }
}

__global__ void countsBothTiles(const bf16 *ga, const bf16 *gb, int k) {
  extern __shared__ __align__(1024) uint8_t smem[];
  auto &ss = *reinterpret_cast<SharedStorage *>(smem);
  for (int iter = 0; iter < k; ++iter) {
    int stage = iter % kStages;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &ss.full[stage],
                                     sizeof(ss.a[0]) + sizeof(ss.b[0]));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ss.a[stage],
                         ga, kTileBytes, &ss.full[stage]);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ss.b[stage],
                         gb, kTileBytes, &ss.full[stage]);
    }
  }
}

// A pointer to the storage (CUTLASS's `SharedStorage *storage`) and the
// empty barrier, on which no copy completes, next to the full one.
__global__ void pointerToStorage(const bf16 *ga, int k) {
  extern __shared__ char shared_memory[];
  SharedStorage *storage = reinterpret_cast<SharedStorage *>(shared_memory);
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &storage->full[1],
                                   kTileBytes / 2);
    // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: expect-tx of 8192 bytes on 'storage->full[1]' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       storage->a[1], ga, kTileBytes, &storage->full[1]);
  }
}

__global__ void pointerToStorageRight(const bf16 *ga, int k) {
  extern __shared__ char shared_memory[];
  SharedStorage *storage = reinterpret_cast<SharedStorage *>(shared_memory);
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &storage->full[1],
                                   kTileBytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       storage->a[1], ga, kTileBytes, &storage->full[1]);
  }
}
