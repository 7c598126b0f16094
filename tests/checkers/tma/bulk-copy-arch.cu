// The device rows of tma-rules.md section 7 without a rule of their own:
// .cp_mask (BULK-CPMASK) and .im2col::w / .im2col::w::128 (TMA-ARCH) need
// compute capability 10.0 (gather4/scatter4 and .cta_group: TMA-GATHER4 and
// TMA-CTA-GROUP, bulk-copy-tensor-rules.cu). Reported on the
// device pass of a target below it, in kernels and the helpers they call;
// silent on the host pass (no target), on sm_100a, and in a helper that no
// kernel calls (never emitted, so ptxas never sees it).
// RUN: %check_clang_tidy -check-suffixes=SM90A %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__global__ void maskedStore(float *Dst, uint16_t Mask) {
  __shared__ alignas(128) float Tile[256];
  uint32_t S = static_cast<uint32_t>(__cvta_generic_to_shared(Tile));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.cp_mask"
               " [%0], [%1], 1024, %2;"
               :: "l"(Dst), "r"(S), "h"(Mask) : "memory");
  // CHECK-MESSAGES-SM90A: :[[@LINE-3]]:3: warning: cp.async.bulk .cp_mask is not supported on sm_90a, the target of this device pass; it needs sm_100 or newer (BULK-CPMASK) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90A: :[[@LINE-4]]:3: note: build this kernel for sm_100, or guard the code with #if __CUDA_ARCH__ >= 1000
}

// A helper: reported at its asm, reached from the kernel below.
__device__ void wideLoad(const CUtensorMap *Map, uint32_t Dst, uint32_t Bar,
                         int C0, int C1, int C2, uint16_t Halo,
                         uint16_t Off) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w."
               "mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3, %4}], [%5], {%6, %7};"
               :: "r"(Dst), "l"(Map), "r"(C0), "r"(C1), "r"(C2), "r"(Bar),
                  "h"(Halo), "h"(Off) : "memory");
  // CHECK-MESSAGES-SM90A: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor .im2col::w is not supported on sm_90a, the target of this device pass; it needs an arch- or family-specific target of compute capability 10.0 or newer (sm_100a, sm_100f, sm_110a, ...) (TMA-ARCH) [tma-bulk-copy]
  // CHECK-MESSAGES-SM90A: :[[@LINE-6]]:3: note: build this kernel for sm_100a, or guard the code with #if __CUDA_ARCH__ >= 1000
}

__global__ void wideKernel(const __grid_constant__ CUtensorMap Map) {
  __shared__ alignas(128) float Tile[1024];
  __shared__ uint64_t Bar;
  wideLoad(&Map, static_cast<uint32_t>(__cvta_generic_to_shared(Tile)),
           static_cast<uint32_t>(__cvta_generic_to_shared(&Bar)), 0, 0, 0, 0,
           0);
}

// Correct twins on sm_90a: a helper no kernel calls, and the Hopper forms.
__device__ void unusedScatter(const CUtensorMap *Map, uint32_t Src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4."
               "bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
               :: "l"(Map), "r"(0), "r"(0), "r"(1), "r"(2), "r"(3), "r"(Src)
               : "memory");
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
}
