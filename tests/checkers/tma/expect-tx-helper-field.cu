// MBAR-TX-EQUALS-BYTES in a producer helper that reaches its barriers
// through a field of its parameter (`sram.full[stage]` of `StorageT &sram`,
// flashinfer mamba's shape): the helper's phases are the barrier's whole
// phases when no code outside the helper's instantiations completes bytes
// on the field (its other uses are inits, waits and plain arrives). They
// are counted for each call of the helper, its byte counts folded with the
// caller's arguments. A field that other code also completes bytes on
// stays silent, and ExplainSilence names that use.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=,WHY %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.ExplainSilence: true}}" -- %cuda_stub_device

#include <cstdint>
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// Tag: a storage type of its own per kernel below.
template <int Stages, int Rows, int Tag> struct Storage {
  alignas(128) float tile[Stages][Rows * 64];
  alignas(16) float vec[128];
  alignas(16) float bias[64];
  block_barrier full[Stages];
  block_barrier empty[Stages];
};

// The ring: one tile per stage, `rows` from the caller.
template <int Stages, typename StorageT>
__device__ void loadTiles(StorageT &sram, const float *gtile, int rows,
                          int tiles) {
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % Stages;
    sram.empty[stage].wait(sram.empty[stage].arrive());
    cuda::device::memcpy_async_tx(
        &sram.tile[stage][0], gtile + t * rows * 64,
        cuda::aligned_size_t<16>(sizeof(sram.tile[0])), sram.full[stage]);
    (void)cuda::device::barrier_arrive_tx(sram.full[stage], 1,
                                          rows * 64 * sizeof(float));
    // CHECK-NOTES: :[[@LINE-2]]:11: warning: expect-tx of 2048 bytes on 'sram.full[stage]' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: this copy delivers 4096 bytes to 'sram.full[stage]'
    // CHECK-NOTES: :[[@LINE+20]]:27: note: counted for this call of 'loadTiles': no code outside it completes bytes on 'full' (its other uses are inits, waits and plain arrives)
    // CHECK-NOTES: :[[@LINE-5]]:11: note: expect 4096 bytes
    // CHECK-NOTES-WHY: :[[@LINE-6]]:11: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'sram.full[stage]': the phase is not counted: a barrier of the callers of this helper: 'full' is also used at line [[@LINE+121]], other than by an init, a wait or a plain arrive [tma-expect-tx]
  }
}

// Wrong: the caller passes 8 rows for tiles of 16; the helper is called
// through a lambda of the producer thread, as mamba's dispatch does.
__global__ void rowsFromCaller(const float *gtile, int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  using S = Storage<2, 16, 0>;
  auto &sram = *reinterpret_cast<S *>(smem);
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s) {
      init(&sram.full[s], 33);
      init(&sram.empty[s], 33);
    }
  __syncthreads();
  if (threadIdx.x / 32 == 1) {
    if (threadIdx.x % 32 == 0) {
      auto call = [&]() { loadTiles<2>(sram, gtile, 8, tiles); };
      // CHECK-NOTES-WHY: :[[@LINE-1]]:27: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line 37 of 'loadTiles' names no barrier parameter of it (such as a field of one): its phases are judged in the helper, not at this call [tma-expect-tx]
      call();
    }
  } else {
    for (int t = 0; t < tiles; ++t) {
      sram.full[t % 2].wait(sram.full[t % 2].arrive());
      (void)sram.empty[t % 2].arrive();
    }
  }
}

// Right: 16 rows, tiles of 16 rows.
__global__ void rowsFromCallerRight(const float *gtile, int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  using S = Storage<2, 16, 1>;
  auto &sram = *reinterpret_cast<S *>(smem);
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s) {
      init(&sram.full[s], 33);
      init(&sram.empty[s], 33);
    }
  __syncthreads();
  if (threadIdx.x / 32 == 1) {
    if (threadIdx.x % 32 == 0) {
      auto call = [&]() { loadTiles<2>(sram, gtile, 16, tiles); };
      // CHECK-NOTES-WHY: :[[@LINE-1]]:27: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line 37 of 'loadTiles' names no barrier parameter of it (such as a field of one): its phases are judged in the helper, not at this call [tma-expect-tx]
      call();
    }
  } else {
    for (int t = 0; t < tiles; ++t) {
      sram.full[t % 2].wait(sram.full[t % 2].arrive());
      (void)sram.empty[t % 2].arrive();
    }
  }
}

// The inputs piggyback on stage 0 (mamba's first phase). Wrong: the count
// leaves out the bias.
template <typename StorageT>
__device__ void loadInputs(StorageT &sram, const float *gvec,
                           const float *gbias) {
  constexpr int stage = 0;
  cuda::device::memcpy_async_tx(&sram.vec[0], gvec,
                                cuda::aligned_size_t<16>(sizeof(sram.vec)),
                                sram.full[stage]);
  cuda::device::memcpy_async_tx(&sram.bias[0], gbias,
                                cuda::aligned_size_t<16>(sizeof(sram.bias)),
                                sram.full[stage]);
  (void)cuda::device::barrier_arrive_tx(sram.full[stage], 1,
                                        sizeof(sram.vec));
  // CHECK-NOTES: :[[@LINE-2]]:9: warning: expect-tx of 512 bytes on 'sram.full[stage]' but the copies completing on it in this phase deliver 768 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: this copy delivers 512 bytes to 'sram.full[stage]'
  // CHECK-NOTES: :[[@LINE-7]]:3: note: this copy delivers 256 bytes to 'sram.full[stage]'
  // CHECK-NOTES: :[[@LINE+23]]:5: note: counted for this call of 'loadInputs': no code outside it completes bytes on 'full' (its other uses are inits, waits and plain arrives)
  // CHECK-NOTES: :[[@LINE-6]]:9: note: expect 768 bytes
}

template <typename StorageT>
__device__ void loadInputsRight(StorageT &sram, const float *gvec,
                                const float *gbias) {
  constexpr int stage = 0;
  cuda::device::memcpy_async_tx(&sram.vec[0], gvec,
                                cuda::aligned_size_t<16>(sizeof(sram.vec)),
                                sram.full[stage]);
  cuda::device::memcpy_async_tx(&sram.bias[0], gbias,
                                cuda::aligned_size_t<16>(sizeof(sram.bias)),
                                sram.full[stage]);
  (void)cuda::device::barrier_arrive_tx(sram.full[stage], 1,
                                        sizeof(sram.vec) + sizeof(sram.bias));
}

__global__ void inputsUncounted(const float *gvec, const float *gbias) {
  extern __shared__ __align__(128) uint8_t smem[];
  auto &sram = *reinterpret_cast<Storage<1, 16, 2> *>(smem);
  if (threadIdx.x == 0) {
    init(&sram.full[0], 1);
    loadInputs(sram, gvec, gbias);
    // CHECK-NOTES-WHY: :[[@LINE-1]]:5: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line 110 of 'loadInputs' names no barrier parameter of it (such as a field of one): its phases are judged in the helper, not at this call [tma-expect-tx]
    sram.full[0].wait(sram.full[0].arrive());
  }
}

__global__ void inputsCounted(const float *gvec, const float *gbias) {
  extern __shared__ __align__(128) uint8_t smem[];
  auto &sram = *reinterpret_cast<Storage<1, 16, 3> *>(smem);
  if (threadIdx.x == 0) {
    init(&sram.full[0], 1);
    loadInputsRight(sram, gvec, gbias);
    // CHECK-NOTES-WHY: :[[@LINE-1]]:5: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line 129 of 'loadInputsRight' names no barrier parameter of it (such as a field of one): its phases are judged in the helper, not at this call [tma-expect-tx]
    sram.full[0].wait(sram.full[0].arrive());
  }
}

// Silent: the kernel completes bytes on the same field itself (an
// expect-tx of its own on stage 0): the helper's phase need not be the
// barrier's whole phase.
__global__ void fieldUsedOutside(const float *gtile, int tiles) {
  extern __shared__ __align__(128) uint8_t smem[];
  auto &sram = *reinterpret_cast<Storage<3, 16, 4> *>(smem);
  if (threadIdx.x == 0) {
    for (int s = 0; s < 3; ++s)
      init(&sram.full[s], 2);
    (void)cuda::device::barrier_arrive_tx(sram.full[0], 1, 2048);
    loadTiles<3>(sram, gtile, 8, tiles);
    // CHECK-NOTES-WHY: :[[@LINE-1]]:5: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line 37 of 'loadTiles' names no barrier parameter of it (such as a field of one): its phases are judged in the helper, not at this call [tma-expect-tx]
  }
}
