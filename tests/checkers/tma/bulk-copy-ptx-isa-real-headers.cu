// TMA-PTX-ISA against the real CUDA 13.0 headers: CUDA_VERSION 13000 in
// cuda.h (PTX ISA 9.0) wins over the PTX ISA clang 22 compiles for (+ptx88,
// its newest, only a lower bound for CUDA 13.0). The PTX ISA 9.2 and 9.3
// forms in inline PTX are reported, with a note at cuda.h's definition.
// Silent: the PTX ISA 8.6 forms CUDA 13.0 has, in asm and through cuda::ptx
// (CCCL declares a wrapper only when its __cccl_ptx_isa has the form, 870
// for CUDA 13.0: no wrapper of a newer form exists to call), and the host
// pass.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_real_host
#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;

static_assert(CUDA_VERSION == 13000, "the expectations are CUDA 13.0's");

__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

__global__ void forms(const float *src) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t bar;
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 256, 4, 12, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
  // CHECK-MESSAGES-DEVICE: :[[@LINE-3]]:3: warning: cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-DEVICE: include{{/|\\}}cuda.h:{{[0-9]+}}:9: note: this translation unit's CUDA_VERSION is 13000 (CUDA 13.0)
  // CHECK-MESSAGES-DEVICE: :[[@LINE-5]]:3: note: build with CUDA 13.2 or newer, or guard the code with #if CUDA_VERSION >= 13020
  asm volatile("mbarrier.init.shared::cta.layout::v1.b64 [%0], 32;"
               :: "r"(smem(&bar)) : "memory");
  // CHECK-MESSAGES-DEVICE: :[[@LINE-2]]:3: warning: mbarrier.init '.layout::v1' needs PTX ISA 9.3 (CUDA 13.3); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // Correct twins: PTX ISA 8.6 forms, in asm and through CCCL.
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], 1024, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
  uint64_t state = 0;
  asm volatile("{ .reg .pred p; "
               "mbarrier.try_wait.relaxed.cta.shared::cta.b64 p, [%0], %1; }"
               :: "r"(smem(&bar)), "l"(state) : "memory");
  ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, src, 1024,
                     &bar);
#if __CUDA_ARCH__ >= 1000
  ptx::st_bulk(tile, 1024, ptx::n32_t<0>{});
#endif
}
