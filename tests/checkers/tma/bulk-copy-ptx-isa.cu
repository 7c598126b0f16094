// TMA-PTX-ISA: inline-PTX forms newer than the PTX ISA of the toolkit the
// translation unit compiles against, on the device pass (sm_100a, which has
// every form), in a kernel and the helper it calls. The toolkit is
// CUDA_VERSION (the stub cuda.h's 13.0, or -DCUDA_VERSION=...) or, without
// cuda.h, the PTX ISA clang's driver compiles for (+ptx85 from the CUDA
// 12.6 installation of Inputs/cuda-12.6). Each form is checked just below
// its version (reported), at it and above (silent): multimem.cp.async.bulk 9.1, .ignore_oob 9.2, .layout::v1 9.3,
// .override::global_address 9.4, and the PTX 8.6 forms (.shared::cta
// destination, st.bulk) under CUDA 12.6 (PTX 8.5) and 12.7 (8.6). Silent:
// the host pass, an unknown toolkit (no cuda.h, no installation), a helper
// no kernel calls, code under #if CUDA_VERSION.
// RUN: %check_clang_tidy -check-suffixes=CUDA130,NOTES130 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=CUDA131 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=13010 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=13040 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=CUDA126,MACRO126 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=12060 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=CUDA126,DRIVER126 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DTMA_NO_CUDA_H --cuda-path=%S/../Inputs/cuda-12.6 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=CUDA127 %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=12070 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DTMA_NO_CUDA_H --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=SILENT %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>
#ifndef TMA_NO_CUDA_H
#include <cuda.h>
#endif

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

// A helper the kernel calls: reported at its asm.
__device__ void oobLoad(void *dst, const void *src, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 256, 4, 12, [%2];"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)) : "memory");
  // CHECK-MESSAGES-CUDA130: :[[@LINE-3]]:3: warning: cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-NOTES130: Headers{{/|\\}}cuda.h:{{[0-9]+}}:9: note: this translation unit's CUDA_VERSION is 13000 (CUDA 13.0)
  // CHECK-MESSAGES-NOTES130: :[[@LINE-5]]:3: note: build with CUDA 13.2 or newer, or guard the code with #if CUDA_VERSION >= 13020
  // CHECK-MESSAGES-CUDA131: :[[@LINE-6]]:3: warning: cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this translation unit uses CUDA 13.1 (PTX ISA 9.1) (TMA-PTX-ISA) [tma-bulk-copy]
  // CUDA 12.6: the newest form of the instruction, once.
  // CHECK-MESSAGES-CUDA126: :[[@LINE-8]]:3: warning: cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-MACRO126: note: this translation unit's CUDA_VERSION is 12060 (CUDA 12.6)
  // CHECK-MESSAGES-DRIVER126: :[[@LINE-10]]:3: note: clang's driver compiles this pass for PTX ISA 8.5 (-target-feature +ptx85, from the CUDA installation it found); no CUDA_VERSION says newer
  // CHECK-MESSAGES-CUDA127: :[[@LINE-11]]:3: warning: cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this translation unit uses CUDA 12.7 (PTX ISA 8.6) (TMA-PTX-ISA) [tma-bulk-copy]
}

// No kernel calls it: never emitted, so ptxas never sees it.
__device__ void uncalled(void *dst, const void *src, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 256, 4, 12, [%2];"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)) : "memory");
}

__global__ void forms(const void *map, float *g, const float *src) {
  __shared__ alignas(128) float tile[256];
  __shared__ uint64_t bar;
  oobLoad(tile, src, &bar);
  asm volatile("mbarrier.init.shared::cta.layout::v1.b64 [%0], 32;"
               :: "r"(smem(&bar)) : "memory");
  // CHECK-MESSAGES-CUDA130: :[[@LINE-2]]:3: warning: mbarrier.init '.layout::v1' needs PTX ISA 9.3 (CUDA 13.3); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA131: :[[@LINE-3]]:3: warning: mbarrier.init '.layout::v1' needs PTX ISA 9.3 (CUDA 13.3); this translation unit uses CUDA 13.1 (PTX ISA 9.1) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA126: :[[@LINE-4]]:3: warning: mbarrier.init '.layout::v1' needs PTX ISA 9.3 (CUDA 13.3); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA127: :[[@LINE-5]]:3: warning: mbarrier.init '.layout::v1' needs PTX ISA 9.3 (CUDA 13.3); this translation unit uses CUDA 12.7 (PTX ISA 8.6) (TMA-PTX-ISA) [tma-bulk-copy]
  asm volatile("multimem.cp.async.bulk.global.shared::cta.bulk_group"
               " [%0], [%1], 1024;"
               :: "l"(g), "r"(smem(tile)) : "memory");
  // CHECK-MESSAGES-CUDA130: :[[@LINE-3]]:3: warning: 'multimem.cp.async.bulk' needs PTX ISA 9.1 (CUDA 13.1); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA126: :[[@LINE-4]]:3: warning: 'multimem.cp.async.bulk' needs PTX ISA 9.1 (CUDA 13.1); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA127: :[[@LINE-5]]:3: warning: 'multimem.cp.async.bulk' needs PTX ISA 9.1 (CUDA 13.1); this translation unit uses CUDA 12.7 (PTX ISA 8.6) (TMA-PTX-ISA) [tma-bulk-copy]
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.override::global_address"
               " [%0], [%1, %2, {%3}], [%4];"
               :: "r"(smem(tile)), "l"(map), "l"(g), "r"(0), "r"(smem(&bar))
               : "memory");
  // CHECK-MESSAGES-CUDA130: :[[@LINE-5]]:3: warning: cp.async.bulk.tensor '.override::global_address' needs PTX ISA 9.4 (CUDA 13.4); this translation unit uses CUDA 13.0 (PTX ISA 9.0) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA131: :[[@LINE-6]]:3: warning: cp.async.bulk.tensor '.override::global_address' needs PTX ISA 9.4 (CUDA 13.4); this translation unit uses CUDA 13.1 (PTX ISA 9.1) (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA126: :[[@LINE-7]]:3: warning: cp.async.bulk.tensor '.override::global_address' needs PTX ISA 9.4 (CUDA 13.4); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // CHECK-MESSAGES-CUDA127: :[[@LINE-8]]:3: warning: cp.async.bulk.tensor '.override::global_address' needs PTX ISA 9.4 (CUDA 13.4); this translation unit uses CUDA 12.7 (PTX ISA 8.6) (TMA-PTX-ISA) [tma-bulk-copy]
  // The PTX ISA 8.6 forms: CUDA 12.6 has 8.5, CUDA 12.7 8.6.
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], 1024, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
  // CHECK-MESSAGES-CUDA126: :[[@LINE-3]]:3: warning: cp.async.bulk into '.shared::cta' needs PTX ISA 8.6 (CUDA 12.7); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  asm volatile("st.bulk.weak.shared::cta [%0], 1024, 0;"
               :: "r"(smem(tile)) : "memory");
  // CHECK-MESSAGES-CUDA126: :[[@LINE-2]]:3: warning: 'st.bulk' needs PTX ISA 8.6 (CUDA 12.7); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // A .cta_group named by an "n" operand: read with its value.
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes.cta_group::%4 [%0], [%1, {%2}], [%3];"
               :: "r"(smem(tile)), "l"(map), "r"(0), "r"(smem(&bar)), "n"(2)
               : "memory");
  // CHECK-MESSAGES-CUDA126: :[[@LINE-4]]:3: warning: cp.async.bulk.tensor '.cta_group' needs PTX ISA 8.6 (CUDA 12.7); this translation unit uses {{CUDA 12.6 \(PTX ISA 8.5\)|PTX ISA 8.5}} (TMA-PTX-ISA) [tma-bulk-copy]
  // Correct twins: forms every toolkit from CUDA 12.3 has.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], 1024, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64"
               " [%0], %1;" :: "l"(map), "l"(g) : "memory");
  // Guarded by the toolkit's version: only the form the toolkit has is
  // compiled.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 13020
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 256, 4, 12, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
#else
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], 256, [%2];"
               :: "r"(smem(tile)), "l"(src), "r"(smem(&bar)) : "memory");
#endif
}
