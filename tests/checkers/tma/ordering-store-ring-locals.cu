// TMA-STORE-WAIT on a ring of output buffers stepped by a local (issue 24
// items 3 and 4): an epilogue keeps two (or N) output stages at integer
// shared addresses `out + stage * kStageBytes` and steps `stage ^= 1` (or
// `stage = (stage + 1) % N`) once a pass after its store. The threads write
// the stage at `stage_addr + off` (stmatrix / st.shared in inline PTX),
// where every value of `off` lies inside one stage; one thread stores it
// and commits a group. The same stage comes back N passes later, so the
// write there needs `cp.async.bulk.wait_group.read N-1` first: a wait
// deeper than that, or none, leaves the store of N passes ago reading the
// bytes being written. Silent where the write is not proven inside the
// stage (an offset of unknown range), where the stage local is stepped
// before the write in the same pass, or where the wait is deep enough.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

extern __shared__ __align__(1024) uint8_t pool[];

constexpr uint32_t kStageBytes = 8192;

__device__ static inline void storeTile(const void *map, int x, uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%1, %2}], [%3];"
               :: "l"(map), "r"(x), "r"(0), "r"(src)
               : "memory");
}

__device__ static inline void writeRow(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %1, %1, %1};" ::"r"(addr), "r"(v)
               : "memory");
}

// Two stages, a wait that leaves two groups pending: the store of two
// passes ago (the same stage) may still read it when the threads write.
__global__ void __launch_bounds__(128)
twoStagesWaitTooDeep(const __grid_constant__ CUtensorMap out,
                     const uint32_t *in, int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t outBase = smem + 4096;
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0 && c >= 2)
      asm volatile("cp.async.bulk.wait_group.read 2;");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    uint32_t stageAddr = outBase + stage * kStageBytes;
    for (int i = 0; i < 4; ++i)
      writeRow(stageAddr + (threadIdx.x % 128) * 64 + i * 16, in[c]);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: generic store overwrites the stage of 'pool + 4096' that the TMA store at line [[#@LINE+7]] read 2 passes earlier (a ring of 2 stages) and may still read: wait_group.read 2 at line [[#@LINE-5]] lets its group stay pending (2 groups committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+6]]:7: note: the TMA store reads 'pool + 4096' here
    // CHECK-NOTES: :27:3: note: issued here
    // CHECK-NOTES: :[[@LINE-8]]:7: note: wait_group.read 1 would complete the copy's group
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, outBase + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    stage ^= 1;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// The twin: wait_group.read 1 completes the group of two passes ago.
__global__ void __launch_bounds__(128)
twoStagesWaitOne(const __grid_constant__ CUtensorMap out, const uint32_t *in,
                 int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t outBase = smem + 4096;
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0 && c >= 2)
      asm volatile("cp.async.bulk.wait_group.read 1;");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    uint32_t stageAddr = outBase + stage * kStageBytes;
    for (int i = 0; i < 4; ++i)
      writeRow(stageAddr + (threadIdx.x % 128) * 64 + i * 16, in[c]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, outBase + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    stage ^= 1;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// flashinfer's shape: the stage written with stmatrix inline, the wait for
// the ring guarded by the pass (`c >= 2`), the stage toggled as
// `stage = stage ^ 1`. Here the wait is missing.
__global__ void __launch_bounds__(256)
stmatrixRingNoWait(const __grid_constant__ CUtensorMap out, const uint32_t *in,
                   int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t outAddr = smem + 16384;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // The epilogue role: warps 4..7, each its quarter of the stage.
  if (warp >= 4 && warp <= 7) {
    const int roleWarp = warp - 4;
    unsigned stage = 0;
    for (int c = 0; c < chunks; ++c) {
      uint32_t v = in[c * 128 + threadIdx.x];
      asm volatile("bar.sync 1, 128;" ::: "memory");
      uint32_t stageAddr = outAddr + stage * 8192;
      for (int g = 0; g < 2; ++g) {
        uint32_t off = ((roleWarp * 8 + g * 4 + lane / 8) * 128 + lane % 8 * 16) * 2;
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};\n"
                     ::"r"(stageAddr + off), "r"(v)
                     : "memory");
        // CHECK-NOTES: :[[@LINE-3]]:9: warning: generic store overwrites the stage of 'pool + 16384' that the TMA store at line [[#@LINE+7]] read 2 passes earlier (a ring of 2 stages) and may still read: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
        // CHECK-NOTES: :[[@LINE+6]]:9: note: the TMA store reads 'pool + 16384' here
        // CHECK-NOTES: :27:3: note: issued here
      }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("bar.sync 1, 128;" ::: "memory");
      if (threadIdx.x == 128) {
        storeTile(&out, c * 64, outAddr + stage * 8192);
        asm volatile("cp.async.bulk.commit_group;");
      }
      stage = stage ^ 1;
  }
  if (threadIdx.x == 128)
    asm volatile("cp.async.bulk.wait_group 0;");
  }
}

// The twin: flashinfer's own wait, guarded by the pass.
__global__ void __launch_bounds__(256)
stmatrixRingGuardedWait(const __grid_constant__ CUtensorMap out,
                        const uint32_t *in, int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  const uint32_t outAddr = smem + 16384;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // The epilogue role: warps 4..7, each its quarter of the stage.
  if (warp >= 4 && warp <= 7) {
    const int roleWarp = warp - 4;
    unsigned stage = 0;
    for (int c = 0; c < chunks; ++c) {
      uint32_t v = in[c * 128 + threadIdx.x];
      if (threadIdx.x == 128 && c >= 2)
        asm volatile("cp.async.bulk.wait_group.read 1;");
      asm volatile("bar.sync 1, 128;" ::: "memory");
      uint32_t stageAddr = outAddr + stage * 8192;
      for (int g = 0; g < 2; ++g) {
        uint32_t off = ((roleWarp * 8 + g * 4 + lane / 8) * 128 + lane % 8 * 16) * 2;
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};\n"
                     ::"r"(stageAddr + off), "r"(v)
                     : "memory");
      }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("bar.sync 1, 128;" ::: "memory");
      if (threadIdx.x == 128) {
        storeTile(&out, c * 64, outAddr + stage * 8192);
        asm volatile("cp.async.bulk.commit_group;");
      }
      stage = stage ^ 1;
  }
  if (threadIdx.x == 128)
    asm volatile("cp.async.bulk.wait_group 0;");
  }
}

// Three stages stepped `stage = (stage + 1) % 3`: a wait_group.read 2
// leaves the group of three passes ago pending only when deeper.
__global__ void __launch_bounds__(128)
threeStagesWaitTooDeep(const __grid_constant__ CUtensorMap out,
                       const uint32_t *in, int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 3;");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    writeRow(smem + stage * kStageBytes + threadIdx.x % 128 * 16, in[c]);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: generic store overwrites the stage of 'pool' that the TMA store at line [[#@LINE+7]] read 3 passes earlier (a ring of 3 stages) and may still read: wait_group.read 3 at line [[#@LINE-3]] lets its group stay pending (3 groups committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+6]]:7: note: the TMA store reads 'pool' here
    // CHECK-NOTES: :27:3: note: issued here
    // CHECK-NOTES: :[[@LINE-6]]:7: note: wait_group.read 2 would complete the copy's group
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, smem + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    stage = (stage + 1) % 3;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// The twin: wait_group.read 2 completes it.
__global__ void __launch_bounds__(128)
threeStagesWaitTwo(const __grid_constant__ CUtensorMap out, const uint32_t *in,
                   int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.wait_group.read 2;");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    writeRow(smem + stage * kStageBytes + threadIdx.x % 128 * 16, in[c]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, smem + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    stage = (stage + 1) % 3;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// Silent, unproven: an offset of unknown range may reach the other stage.
__global__ void __launch_bounds__(128)
offsetUnknown(const __grid_constant__ CUtensorMap out, const uint32_t *in,
              int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    writeRow(smem + stage * kStageBytes + in[threadIdx.x], in[c]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, smem + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    stage ^= 1;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// Silent, unproven: the stage is stepped between the write and the store
// in a pass (not a ring local the model follows).
__global__ void __launch_bounds__(128)
steppedBeforeStore(const __grid_constant__ CUtensorMap out,
                   const uint32_t *in, int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    writeRow(smem + stage * kStageBytes + threadIdx.x % 128 * 16, in[c]);
    stage ^= 1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, smem + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}

// Silent, unproven: a `continue` may skip the step after the store, so the
// stage does not come back two passes later.
__global__ void __launch_bounds__(128)
jumpSkipsStep(const __grid_constant__ CUtensorMap out, const uint32_t *in,
              int chunks) {
  const uint32_t smem = static_cast<uint32_t>(__cvta_generic_to_shared(pool));
  unsigned stage = 0;
  for (int c = 0; c < chunks; ++c) {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    writeRow(smem + stage * kStageBytes + threadIdx.x % 128 * 16, in[c]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (threadIdx.x == 0) {
      storeTile(&out, c * 64, smem + stage * kStageBytes);
      asm volatile("cp.async.bulk.commit_group;");
    }
    if (in[c] == 0)
      continue;
    stage ^= 1;
  }
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;");
}
