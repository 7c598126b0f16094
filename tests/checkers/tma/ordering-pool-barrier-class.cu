// Barriers of a user barrier class carved out of the dynamic shared-memory
// pool (issue 24 item 3): `reinterpret_cast<Bar *>(smem + OFF) + s`, reached
// through accessor objects whose `operator[](const uint32_t &i)` calls a
// stored lambda (`full[s]->wait(p)`), and members that pass `&this->word`
// on to static helpers holding the PTX. A barrier is named by its byte
// offset in the pool (base folded, stride the class's size, member by
// index), so MBAR-UNINIT, MBAR-INIT-VISIBLE, TMA-LOAD-WAIT-BEFORE-READ and
// MBAR-WAIT-PARITY judge it. Each wrong kernel has its correct twin.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ inline uint32_t toShared(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// A barrier class that wraps its mbarrier word; its members hand the word's
// address to static helpers.
struct RingBarrier {
  uint64_t word;
  RingBarrier() = delete;
  __device__ static void initAt(const uint64_t *w, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(toShared(w)),
                 "r"(count));
  }
  __device__ static void waitAt(const uint64_t *w, uint32_t parity) {
    asm volatile("{\n.reg .pred q;\nL:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
                 "@!q bra L;\n}" ::"r"(toShared(w)),
                 "r"(parity)
                 : "memory");
  }
  __device__ void init(uint32_t count) const { initAt(&word, count); }
  __device__ void wait(uint32_t parity) const { waitAt(&word, parity); }
  __device__ void arrive() const {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                     toShared(&word))
                 : "memory");
  }
  __device__ void expectBytes(uint32_t bytes) const {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     toShared(&word)),
                 "r"(bytes)
                 : "memory");
  }
};

__device__ inline void loadTile(void *dst, const CUtensorMap *map, int x,
                                int y, RingBarrier *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                   toShared(dst)),
               "l"(map), "r"(x), "r"(y),
               "r"(toShared(reinterpret_cast<uint64_t *>(bar)))
               : "memory");
}
__device__ inline void fenceInit() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// An accessor object: `view[i]` is the stored lambda's `f(i)`.
template <typename F> struct StageView {
  F f;
  __device__ explicit StageView(F &&fn) : f(static_cast<F &&>(fn)) {}
  __device__ auto operator[](const uint32_t &i) const { return f(i); }
};

constexpr uint32_t kStages = 4, kTile = 8192;

#define RING_SETUP                                                             \
  extern __shared__ __align__(1024) uint8_t smem[];                           \
  auto tile = StageView([&](const uint32_t &i) {                               \
    return reinterpret_cast<float *>(smem + i * kTile);                        \
  });                                                                          \
  auto bars = reinterpret_cast<RingBarrier *>(smem + kStages * kTile);         \
  auto full = StageView([=](const uint32_t &i) { return bars + i; });          \
  auto empty = StageView([=](const uint32_t &i) { return bars + (kStages + i); })

// Correct: every barrier initialised, made visible, waited before the read,
// released to the producer; parity starts at 0 on the full barriers.
__global__ void ringOk(const __grid_constant__ CUtensorMap map, float *out,
                       int nk) {
  RING_SETUP;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < kStages; ++i) {
      full[i]->init(1);
      empty[i]->init(1);
    }
    fenceInit();
  }
  __syncthreads();
  uint32_t stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      empty[stage]->wait(phase ^ 1);
      full[stage]->expectBytes(kTile);
      loadTile(tile[stage], &map, 0, k, full[stage]);
    }
    full[stage]->wait(phase);
    out[k] = tile[stage][threadIdx.x];
    empty[stage]->arrive();
    stage = (stage + 1) % kStages;
    phase ^= stage == 0;
  }
}

// Wrong: the empty barriers are never initialised.
__global__ void ringNoEmptyInit(const __grid_constant__ CUtensorMap map,
                                float *out, int nk) {
  RING_SETUP;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < kStages; ++i)
      full[i]->init(1);
    fenceInit();
  }
  __syncthreads();
  uint32_t stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      empty[stage]->wait(phase ^ 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'smem + 32800 + 8 * s' is used here but no mbarrier.init in this kernel initialises it (MBAR-UNINIT) [tma-ordering]
      full[stage]->expectBytes(kTile);
      loadTile(tile[stage], &map, 0, k, full[stage]);
    }
    full[stage]->wait(phase);
    out[k] = tile[stage][threadIdx.x];
    empty[stage]->arrive();
    stage = (stage + 1) % kStages;
    phase ^= stage == 0;
  }
}

// Wrong: no __syncthreads() between thread 0's inits and every thread's
// wait.
__global__ void ringNoSync(const __grid_constant__ CUtensorMap map, float *out,
                           int nk) {
  RING_SETUP;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < kStages; ++i) {
      full[i]->init(1);
      empty[i]->init(1);
    }
    fenceInit();
  }
  // CHECK-FIXES: {{^}}  uint32_t phase = 0, stage = 0;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  uint32_t phase = 0, stage = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      empty[stage]->wait(phase ^ 1);
      full[stage]->expectBytes(kTile);
      loadTile(tile[stage], &map, 0, k, full[stage]);
    }
    full[stage]->wait(phase);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'smem + 32768 + 8 * s' is used by all threads here after its mbarrier.init at line {{[0-9]+}} with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    out[k] = tile[stage][threadIdx.x];
    empty[stage]->arrive();
    stage = (stage + 1) % kStages;
    phase ^= stage == 0;
  }
}

// Wrong: the tile is read with no wait on its full barrier.
__global__ void ringNoWait(const __grid_constant__ CUtensorMap map, float *out,
                           int nk) {
  RING_SETUP;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < kStages; ++i) {
      full[i]->init(1);
      empty[i]->init(1);
    }
    fenceInit();
  }
  __syncthreads();
  uint32_t stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      empty[stage]->wait(phase ^ 1);
      full[stage]->expectBytes(kTile);
      loadTile(tile[stage], &map, 0, k, full[stage]);
    }
    out[k] = tile[stage][threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: generic load reads 'smem' while the TMA load at line {{[0-9]+}} may still write it: no wait on 'smem + 32768 + 8 * s' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
    empty[stage]->arrive();
    stage = (stage + 1) % kStages;
    phase ^= stage == 0;
  }
}

// Wrong: the consumers wait on the full barrier with parity 1 on the first
// lap.
__global__ void ringWrongParity(const __grid_constant__ CUtensorMap map,
                                float *out, int nk) {
  RING_SETUP;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < kStages; ++i) {
      full[i]->init(1);
      empty[i]->init(1);
    }
    fenceInit();
  }
  __syncthreads();
  uint32_t stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (threadIdx.x == 0) {
      empty[stage]->wait(phase ^ 1);
      full[stage]->expectBytes(kTile);
      loadTile(tile[stage], &map, 0, k, full[stage]);
    }
    full[stage]->wait(phase ^ 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: wait on 'smem + 32768 + 8 * s' names parity 1 on the ring's first lap, but no phase of the barrier has completed then: parity 1 names the phase before its first, so the wait returns at once, before its copy lands; start the phase bit at 0 (MBAR-WAIT-PARITY) [tma-ordering]
    out[k] = tile[stage][threadIdx.x];
    empty[stage]->arrive();
    stage = (stage + 1) % kStages;
    phase ^= stage == 0;
  }
}
