// The device rows of tma-rules.md section 7 for inline PTX, every
// instruction of an asm statement by its opcode, on the pass's own target:
// sm_90a (Blackwell forms), sm_90 (arch-specific forms: tensormap.replace,
// and ptxas's .multicast::cluster advisory), sm_80 (the Hopper
// instructions), sm_100a (all of them), sm_120a (the sm_100 family's forms
// it lacks). Reported in kernels and the helpers they call; silent on the
// host pass (no target), in a helper no kernel calls (never emitted, so
// ptxas never sees it), in the discarded branch of an if constexpr, and
// under #if __CUDA_ARCH__ guards.
// RUN: %check_clang_tidy -check-suffixes=SM90X %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=SM90,SM90X %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_90
// RUN: %check_clang_tidy -check-suffixes=SM80 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_80
// RUN: %check_clang_tidy -check-suffixes=SM120A %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_120a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

// Blackwell (sm_100) forms, in kernels of every pass but sm_100a's.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void maskedStore(float *Dst, uint16_t Mask) {
  __shared__ alignas(128) float Tile[256];
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Tile));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.cp_mask"
               " [%0], [%1], 1024, %2;"
               :: "l"(Dst), "r"(S), "h"(Mask) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-3]]:3: warning: cp.async.bulk .cp_mask is not supported on sm_90{{a?}}, the target of this device pass; it needs sm_100 or newer (BULK-CPMASK) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-4]]:3: note: build this kernel for sm_100, or guard the code with #if __CUDA_ARCH__ >= 1000
}

// A helper: reported at its asm, reached from the kernel below. Into
// .shared::cta, .im2col::w needs sm_100; into .shared::cluster, an arch- or
// family-specific sm_100 target.
__device__ void wideLoad(const CUtensorMap *Map, uint32_t Dst, uint32_t Bar,
                         int C0, int C1, int C2, uint16_t Halo,
                         uint16_t Off) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w."
               "mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3, %4}], [%5], {%6, %7};"
               :: "r"(Dst), "l"(Map), "r"(C0), "r"(C1), "r"(C2), "r"(Bar),
                  "h"(Halo), "h"(Off) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .im2col::w into .shared::cta is not supported on sm_90{{a?}}, the target of this device pass; it needs sm_100 or newer (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-6]]:3: note: build this kernel for sm_100, or guard the code with #if __CUDA_ARCH__ >= 1000
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w::128."
               "mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3, %4}], [%5], {%6, %7};"
               :: "r"(Dst), "l"(Map), "r"(C0), "r"(C1), "r"(C2), "r"(Bar),
                  "h"(Halo), "h"(Off) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .im2col::w::128 is not supported on sm_90{{a?}}, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-6]]:3: note: build this kernel for sm_100a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  // CHECK-MESSAGES-SM120A: :[[@LINE-7]]:3: warning: cp.async.bulk.tensor .im2col::w::128 is not supported on sm_120a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-ARCH) [tma-bulk-copy]
}

__global__ void wideKernel(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[1024];
  __shared__ uint64_t Bar;
  wideLoad(&Map, static_cast<uint32_t>(__cvta_generic_to_shared(Tile)),
           static_cast<uint32_t>(__cvta_generic_to_shared(&Bar)), 0, 0, 0, 0,
           0);
}

// The sm_100 family's forms: .cta_group, gather4 into .shared::cluster,
// scatter4. sm_120a has the .shared::cta gather4 (sm_100+) but not these.
__global__ void pairKernel(const __grid_constant__ CUtensorMap Map, int X) {
  __shared__ alignas(128) uint16_t Rows[4 * 64];
  __shared__ uint64_t Bar;
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Rows));
  uint32_t B = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::2 [%0], [%1, {%2}], [%3];"
               :: "r"(S), "l"(&Map), "r"(X), "r"(B) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-3]]:3: warning: cp.async.bulk.tensor .cta_group is not supported on sm_90{{a?}}, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-4]]:3: note: build this kernel for sm_100a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  // CHECK-MESSAGES-SM120A: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .cta_group is not supported on sm_120a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
  // CHECK-MESSAGES-SM120A: :[[@LINE-6]]:3: note: build this kernel for sm_100a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}],"
               " [%7];"
               :: "r"(S), "l"(&Map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3),
                  "r"(B) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .tile::gather4 into .shared::cluster is not supported on sm_90{{a?}}, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-GATHER4) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-6]]:3: note: build this kernel for sm_100a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  // CHECK-MESSAGES-SM120A: :[[@LINE-7]]:3: warning: cp.async.bulk.tensor .tile::gather4 into .shared::cluster is not supported on sm_120a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-GATHER4) [tma-bulk-copy]
  // CHECK-MESSAGES-SM120A: :[[@LINE-8]]:3: note: build this kernel for sm_100a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  // Correct on sm_120a: gather4 into .shared::cta needs sm_100 or newer.
  asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}],"
               " [%7];"
               :: "r"(S), "l"(&Map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3),
                  "r"(B) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .tile::gather4 into .shared::cta is not supported on sm_90{{a?}}, the target of this device pass; it needs sm_100 or newer (TMA-GATHER4) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90X: :[[@LINE-6]]:3: note: build this kernel for sm_100, or guard the code with #if __CUDA_ARCH__ >= 1000
}

// The .cta_group named by an "n" operand (learn-cuda 02e's tma_3d_g2s):
// read with its instantiation's value. A modifier operand that is no
// immediate ("r") leaves the modifier unread: silent.
template <int Group>
__device__ void groupLoad(uint32_t S, const CUtensorMap *Map, int X,
                          uint32_t B) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::%4 [%0], [%1, {%2}], [%3];"
               :: "r"(S), "l"(Map), "r"(X), "r"(B), "n"(Group) : "memory");
  // CHECK-MESSAGES-SM90X: :[[@LINE-3]]:3: warning: cp.async.bulk.tensor .cta_group is not supported on sm_90{{a?}}, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
  // CHECK-MESSAGES-SM120A: :[[@LINE-4]]:3: warning: cp.async.bulk.tensor .cta_group is not supported on sm_120a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
}
__device__ void groupLoadRegister(uint32_t S, const CUtensorMap *Map, int X,
                                  uint32_t B, int Group) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::%4 [%0], [%1, {%2}], [%3];"
               :: "r"(S), "l"(Map), "r"(X), "r"(B), "r"(Group) : "memory");
}
__global__ void groupKernel(const __grid_constant__ CUtensorMap Map, int X) {
  __shared__ alignas(128) uint16_t Rows[64];
  __shared__ uint64_t Bar;
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Rows));
  uint32_t B = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  groupLoad<2>(S, &Map, X, B);
  groupLoadRegister(S, &Map, X, B, 2);
}

// A CUTLASS-like copy atom (a static member the kernel calls): reported at
// its asm; the same atom's other member, which no kernel calls, is silent.
struct Sm100TmaLoadPair {
  __device__ static void copy(const CUtensorMap *Map, uint32_t S, uint32_t B,
                              int X) {
    asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier"
                 "::complete_tx::bytes.cta_group::1 [%0], [%1, {%2}], [%3];"
                 :: "r"(S), "l"(Map), "r"(X), "r"(B) : "memory");
    // CHECK-MESSAGES-SM90X: :[[@LINE-3]]:5: warning: cp.async.bulk.tensor .cta_group is not supported on sm_90{{a?}}, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
    // CHECK-MESSAGES-SM120A: :[[@LINE-4]]:5: warning: cp.async.bulk.tensor .cta_group is not supported on sm_120a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.x or 11.x (sm_100a, sm_103a, sm_110a, sm_100f, sm_110f) (TMA-CTA-GROUP) [tma-bulk-copy]
  }
  __device__ static void prefetch(const CUtensorMap *Map) {
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4"
                 " [%0, {%1, %2, %3, %4, %5}];"
                 :: "l"(Map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3)
                 : "memory");
  }
};

__global__ void atomKernel(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[256];
  __shared__ uint64_t Bar;
  Sm100TmaLoadPair::copy(&Map,
                         static_cast<uint32_t>(__cvta_generic_to_shared(Tile)),
                         static_cast<uint32_t>(__cvta_generic_to_shared(&Bar)),
                         0);
}

// Correct twins on sm_90a: a helper no kernel calls, the Hopper forms, a
// discarded if-constexpr branch, an #if-guarded Blackwell path.
__device__ void unusedScatter(const CUtensorMap *Map, uint32_t Src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4."
               "bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
               :: "l"(Map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3), "r"(Src)
               : "memory");
}

template <bool Blackwell> __device__ void pairOrSingle(uint32_t S, uint32_t B,
                                                      const CUtensorMap *Map) {
  if constexpr (Blackwell)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
                 "mbarrier::complete_tx::bytes.cta_group::1 [%0], [%1, {%2}],"
                 " [%3];" :: "r"(S), "l"(Map), "r"(0), "r"(B) : "memory");
  else
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
                 "mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 :: "r"(S), "l"(Map), "r"(0), "r"(B) : "memory");
}

__global__ void hopperKernel(const __grid_constant__ CUtensorMap Map,
                             float *Dst) {
  __shared__ alignas(128) float Tile[256];
  __shared__ uint64_t Bar;
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Tile));
  uint32_t B = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(S), "l"(&Map), "r"(0), "r"(0), "r"(B) : "memory");
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;"
               :: "l"(Dst), "r"(S) : "memory");
  pairOrSingle<false>(S, B, &Map);
#if __CUDA_ARCH__ >= 1000
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.cp_mask"
               " [%0], [%1], 1024, %2;"
               :: "l"(Dst), "r"(S), "h"((uint16_t)0xffff) : "memory");
#endif
}
#endif

// Arch-specific Hopper forms: tensormap.replace needs an 'a' (or 'f')
// target; .multicast::cluster draws ptxas's advisory on plain sm_90.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__global__ void replaceAddress(CUtensorMap *Map, float *Base) {
  __shared__ alignas(128) float Tile[256];
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0)
    asm volatile("tensormap.replace.tile.global_address.global.b1024.b64"
                 " [%0], %1;" :: "l"(Map), "l"(Base) : "memory");
  // CHECK-MESSAGES-SM90: :[[@LINE-2]]:5: warning: tensormap.replace.tile.global_address.global.b1024.b64 is not supported on sm_90, the target of this device pass; it needs an arch-specific target (sm_90a, sm_100a, sm_103a, sm_110a, sm_120a) or a family target (sm_100f, sm_110f, sm_120f); no plain target has it (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90: :[[@LINE-3]]:5: note: build this kernel for sm_90a, or guard the code with #if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Tile));
  uint32_t B = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes.multicast::cluster"
               " [%0], [%1, {%2, %3}], [%4], %5;"
               :: "r"(S), "l"(Map), "r"(0), "r"(0), "r"(B), "h"((uint16_t)1)
               : "memory");
  // CHECK-MESSAGES-SM90: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .multicast::cluster on sm_90, the target of this device pass: ptxas advises using it on sm_90a, sm_100a, sm_100f, sm_103a, sm_103f, sm_110a or sm_110f instead (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90: :[[@LINE-6]]:3: note: build this kernel for sm_90a
}
#endif

// Below sm_90: the Hopper instructions, in a block of several; the sm_80
// mbarrier forms stay silent.
__global__ void ampere(uint64_t *Bars) {
  __shared__ uint64_t Bar;
  uint32_t B = static_cast<uint32_t>(__cvta_generic_to_shared(&Bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(B));
  asm volatile("{\n\t.reg .pred p;\n\t"
               "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;\n\t"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
               "@!p bra WAIT;\n\t}" :: "r"(B) : "memory");
  // CHECK-MESSAGES-SM80: :[[@LINE-5]]:3: warning: mbarrier.arrive.expect_tx.shared::cta.b64 is not supported on sm_80, the target of this device pass; it needs sm_90 or newer (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM80: :[[@LINE-6]]:3: note: build this kernel for sm_90a, or guard the code with #if __CUDA_ARCH__ >= 900
  // CHECK-MESSAGES-SM80: :[[@LINE-7]]:3: warning: mbarrier.try_wait.parity.shared::cta.b64 is not supported on sm_80, the target of this device pass; it needs sm_90 or newer (TMA-ARCH) [tma-bulk-copy]
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  // CHECK-MESSAGES-SM80: :[[@LINE-1]]:3: warning: fence.proxy.async.shared::cta is not supported on sm_80, the target of this device pass; it needs sm_90 or newer (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM80: :[[@LINE-2]]:3: note: build this kernel for sm_90a, or guard the code with #if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  // CHECK-MESSAGES-SM80: :[[@LINE-1]]:3: warning: cp.async.bulk.commit_group is not supported on sm_80, the target of this device pass; it needs sm_90 or newer (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM80: :[[@LINE-2]]:3: note: build this kernel for sm_90a, or guard the code with #if __CUDA_ARCH__ >= 900
  // Correct twins on sm_80: mbarrier.test_wait and arrive, and the Ampere
  // cp.async.
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b64 st;\n\t"
               "mbarrier.arrive.shared::cta.b64 st, [%0];\n\t"
               "mbarrier.test_wait.shared::cta.b64 p, [%0], st;\n\t}"
               :: "r"(B) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
               :: "r"(B), "l"(Bars) : "memory");
}
