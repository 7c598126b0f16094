// MBAR-TX-EQUALS-BYTES with a producer helper in the shape of DeepGEMM's
// tma::copy: an `if constexpr`, an `if` on a parameter that folds in the
// call (one CTA: no multicast), and a counted loop of atoms. The copy in the
// loop counts once per iteration; the multicast branch the call never takes
// is no op of the call. A condition or trip count known only at run time
// keeps the phase silent, and the reason names the copy.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffix=WHY %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.ExplainSilence: true}}" -- %cuda_stub_device

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t rankInCluster() {
  uint32_t R;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(R));
  return R;
}

struct Load2D {
  static __device__ void copy(const void *map, uint64_t *bar, void *dst,
                              int x, int y) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(dst)),
                 "l"(map), "r"((uint32_t)__cvta_generic_to_shared(bar)),
                 "r"(x), "r"(y)
                 : "memory");
  }
};

struct Load2DMulticast {
  static __device__ void copy(const void *map, uint64_t *bar, uint16_t mask,
                              void *dst, int x, int y) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5}], "
                 "[%2], %3;" ::"r"((uint32_t)__cvta_generic_to_shared(dst)),
                 "l"(map), "r"((uint32_t)__cvta_generic_to_shared(bar)),
                 "h"(mask), "r"(x), "r"(y)
                 : "memory");
  }
};

template <uint32_t Inner, uint32_t Swizzle> constexpr uint32_t atomOf() {
  return Swizzle == 0 ? Inner : Swizzle / sizeof(bf16);
}

// Inner elements in atoms of the swizzle's width, one copy each.
template <uint32_t Inner, uint32_t Outer, uint32_t Swizzle, bool k3D = false>
__device__ void copyTile(const void *map, uint64_t *bar, bf16 *dst,
                         uint32_t inner, uint32_t outer,
                         const uint32_t &multicast = 1) {
  constexpr uint32_t Atom = atomOf<Inner, Swizzle>();
  if constexpr (!k3D) {
    if (multicast == 1) {
#pragma unroll
      for (uint32_t i = 0; i < Inner / Atom; ++i)
        Load2D::copy(map, bar, dst + i * Outer * Atom, inner + i * Atom,
                     outer);
    } else {
      if (rankInCluster() == 0)
        for (uint32_t i = 0; i < Inner / Atom; ++i)
          Load2DMulticast::copy(map, bar, (1 << multicast) - 1,
                                dst + i * Outer * Atom, inner + i * Atom,
                                outer);
    }
  }
}

__device__ inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   (uint32_t)__cvta_generic_to_shared(bar)),
               "r"(bytes)
               : "memory");
}

// A and B tiles of 128 x 128 bf16 in 64-element atoms (128-byte swizzle):
// two copies of 16384 bytes each per tile. ExpectBytes: what the kernel
// expects per stage.
template <uint32_t ExpectBytes, uint32_t kMulticast, bool kOnA>
__global__ void gemm(const __grid_constant__ CUtensorMap mapA,
                     const __grid_constant__ CUtensorMap mapB, int blocks_k,
                     bool valid) {
  __shared__ alignas(1024) bf16 sA[128 * 128];
  __shared__ alignas(1024) bf16 sB[128 * 128];
  __shared__ uint64_t full;
  const uint32_t multicastA = (kOnA && valid) ? kMulticast : 1;
  const uint32_t multicastB = (!kOnA && valid) ? kMulticast : 1;
  if (threadIdx.x == 0)
    for (int k = 0; k < blocks_k; ++k) {
      copyTile<128, 128, 128>(&mapA, &full, sA, k * 128, 0, multicastA);
      copyTile<128, 128, 128>(&mapB, &full, sB, k * 128, 0, multicastB);
      expectBytes(&full, ExpectBytes);
    }
}

// The multicast a run-time argument: which branch runs is not known.
__global__ void gemmRuntimeMulticast(const __grid_constant__ CUtensorMap mapA,
                                     int blocks_k, uint32_t multicast) {
  __shared__ alignas(1024) bf16 sA[128 * 128];
  __shared__ uint64_t full;
  if (threadIdx.x == 0)
    for (int k = 0; k < blocks_k; ++k) {
      copyTile<128, 128, 128>(&mapA, &full, sA, k * 128, 0, multicast);
      expectBytes(&full, 16384);
    }
}

// A helper loop of a run-time trip count.
__device__ void copyAtoms(const void *map, uint64_t *bar, bf16 *dst, int n) {
  for (int i = 0; i < n; ++i)
    Load2D::copy(map, bar, dst + i * 128 * 64, i * 64, 0);
}

__global__ void gemmRuntimeAtoms(const __grid_constant__ CUtensorMap mapA,
                                 int atoms) {
  __shared__ alignas(1024) bf16 sA[128 * 128];
  __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    copyAtoms(&mapA, &full, sA, atoms);
    expectBytes(&full, 16384);
  }
}

CUtensorMap encode(bf16 *ptr) {
  CUtensorMap map;
  uint64_t dims[2] = {4096, 4096};
  uint64_t strides[1] = {4096 * sizeof(bf16)};
  uint32_t box[2] = {64, 128};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void launch(bf16 *a, bf16 *b, bool valid) {
  CUtensorMap mapA = encode(a), mapB = encode(b);
  // One atom per tile counted: 32768 of 65536 bytes.
  gemm<32768, 1, true><<<132, 384>>>(mapA, mapB, 64, valid);
  // Right.
  gemm<65536, 1, true><<<132, 384>>>(mapA, mapB, 64, valid);
  // Two CTAs: whether A is multicast depends on `valid` (silent).
  gemm<32768, 2, true><<<132, 384>>>(mapA, mapB, 64, valid);
  gemmRuntimeMulticast<<<132, 384>>>(mapA, 64, valid ? 2 : 1);
  gemmRuntimeAtoms<<<132, 384>>>(mapA, valid ? 2 : 1);
}


// A folded if whose branch returns: what follows it does not run in the
// call (one copy of 16384 bytes: right, and silent), so the ifs of such a
// helper are not followed.
template <uint32_t N>
__device__ void copyOnceOrTwice(const void *map, uint64_t *bar, bf16 *dst) {
  if (N == 1) {
    Load2D::copy(map, bar, dst, 0, 0);
    return;
  }
  Load2D::copy(map, bar, dst, 0, 0);
  Load2D::copy(map, bar, dst + 128 * 64, 64, 0);
}

__global__ void gemmEarlyReturn(const __grid_constant__ CUtensorMap mapA) {
  __shared__ alignas(1024) bf16 sA[128 * 128];
  __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    copyOnceOrTwice<1>(&mapA, &full, sA);
    expectBytes(&full, 16384);
  }
}

void launchEarlyReturn(bf16 *a) {
  CUtensorMap mapA = encode(a);
  gemmEarlyReturn<<<132, 384>>>(mapA);
}

// gemm<32768, 1, true>: each copyTile runs its single-CTA branch, two atoms
// of 16384 bytes; the multicast branch is never taken (multicastA folds to 1
// whatever `valid` is). gemm<65536, 1, true> is silent.
// CHECK-MESSAGES: :98:7: warning: expect-tx of 32768 bytes on 'full' but the copies completing on it in this phase deliver 65536 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :96:7: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :137:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :147:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :62:7: note: in each of the 2 iterations of this loop of 'copyTile'
// CHECK-MESSAGES: :97:7: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :62:7: note: in each of the 2 iterations of this loop of 'copyTile'
// CHECK-MESSAGES: :98:7: note: expect 65536 bytes
// CHECK-MESSAGES-NOT: :110:7: warning: expect-tx
// CHECK-MESSAGES-NOT: :126:5: warning: expect-tx
// CHECK-MESSAGES-NOT: :175:5: warning: expect-tx
// The same, with why the run-time shapes stay silent (gemm<32768, 2,
// true>'s A copy may be multicast, gemmRuntimeMulticast, gemmRuntimeAtoms,
// gemmEarlyReturn;
// and the helper
// expectBytes on its own, whose barrier is its callers').
// CHECK-MESSAGES-WHY: :76:3: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the phase is not counted: a barrier of the callers of this helper (its parameter 'bar'); judged in the phases of its callers, with this helper's ops (first call: line 98 of {{.*}}) [tma-expect-tx]
// CHECK-MESSAGES-WHY: :98:7: warning: expect-tx of 32768 bytes on 'full' but the copies completing on it in this phase deliver 65536 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES-WHY: :98:7: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'full': the phase is not counted: the tensor copy at line 28 (in 'copy', called at line 96) does not run straight through its helper (a branch, a loop or another call lies between): its bytes are not counted [tma-expect-tx]
// CHECK-MESSAGES-WHY: :110:7: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'full': the phase is not counted: the tensor copy at line 28 (in 'copy', called at line 109) does not run straight through its helper (a branch, a loop or another call lies between): its bytes are not counted [tma-expect-tx]
// CHECK-MESSAGES-WHY: :126:5: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'full': the phase is not counted: the tensor copy at line 28 (in 'copy', called at line 125) does not run straight through its helper (a branch, a loop or another call lies between): its bytes are not counted [tma-expect-tx]
// CHECK-MESSAGES-WHY: :175:5: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'full': the phase is not counted: the tensor copy at line 28 (in 'copy', called at line 174) does not run straight through its helper (a branch, a loop or another call lies between): its bytes are not counted [tma-expect-tx]
