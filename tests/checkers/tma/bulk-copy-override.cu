// TMA-OVERRIDE-ATTR (PTX 9.4), the parts a compiler can prove: the
// gAddrToOverride of .override::global_address is 16-byte aligned (a kernel
// pointer that its launch binds to a cudaMalloc allocation plus a constant
// offset), and .override_attribute comes with .override::global_address,
// in tile mode. Silent for an aligned or unknown address and for the right
// forms. (The attribute operands' own rules, coordinates zero and sizes in
// 16-byte units, are not modelled: tma-rules.md gives no operand syntax.)
// The forms are PTX ISA 9.4: the runs compile against CUDA 13.4
// (-DCUDA_VERSION=13040); against the stub's CUDA 13.0 the kernel's copy is
// also a TMA-PTX-ISA error (the uncalled helper's are never emitted).
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=13040 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host -DCUDA_VERSION=13040
// RUN: %check_clang_tidy -check-suffixes=,CUDA130 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

__global__ void reload(const __grid_constant__ CUtensorMap map, float *g,
                       int x) {
  __shared__ alignas(128) float tile[64];
  __shared__ uint64_t bar;
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.override::global_address"
               " [%0], [%1, %2, {%3}], [%4];"
               :: "r"(smem(tile)), "l"(&map), "l"(g), "r"(x), "r"(smem(&bar))
               : "memory");
  // CHECK-MESSAGES-CUDA130: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor '.override::global_address' needs PTX ISA 9.4 (CUDA 13.4); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
}

void launches(size_t n, float *external) {
  float *d;
  cudaMalloc(&d, n);
  reload<<<1, 32>>>(CUtensorMap{}, d + 2, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: cp.async.bulk.tensor gAddrToOverride is only 8-byte aligned, but .override::global_address needs a 16-byte aligned address (TMA-OVERRIDE-ATTR) [tma-bulk-copy]
  // Correct twins: an aligned offset, a pointer from elsewhere.
  reload<<<1, 32>>>(CUtensorMap{}, d + 4, 0);
  reload<<<1, 32>>>(CUtensorMap{}, external, 0);
}

__device__ void forms(void *dst, const CUtensorMap *map, void *g,
                      uint64_t *bar, int x, int y, int z) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.override_attribute"
               " [%0], [%1, {%2}, {%3}], [%4];"
               :: "r"(smem(dst)), "l"(map), "h"((uint16_t)1), "r"(x),
                  "r"(smem(bar))
               : "memory");
  // CHECK-MESSAGES: :[[@LINE-6]]:3: warning: cp.async.bulk.tensor .override_attribute is only valid together with .override::global_address (TMA-OVERRIDE-ATTR) [tma-bulk-copy]
  asm volatile("cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::"
               "complete_tx::bytes.override::global_address."
               "override_attribute [%0], [%1, %2, {%3, %4, %5}, {%6}], [%7], "
               "{%8};"
               :: "r"(smem(dst)), "l"(map), "l"(g), "r"(x), "r"(y), "r"(z),
                  "h"((uint16_t)1), "r"(smem(bar)), "h"((uint16_t)0)
               : "memory");
  // CHECK-MESSAGES: :[[@LINE-7]]:3: warning: cp.async.bulk.tensor .override_attribute needs tile mode, but the copy is .im2col (TMA-OVERRIDE-ATTR) [tma-bulk-copy]
  // Correct twin: both overrides on a tile copy.
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.override::global_address."
               "override_attribute [%0], [%1, %2, {%3}, {%4}], [%5];"
               :: "r"(smem(dst)), "l"(map), "l"(g), "h"((uint16_t)1),
                  "r"(x), "r"(smem(bar))
               : "memory");
}
