// The TU-wide parent map (ASTContext::getParents, hasAncestor/hasParent
// matchers, ExprMutationAnalyzer: a traversal of the whole TU) is never
// built by the module. lit sets TMA_TIDY_ASSERT_NO_PARENT_MAP=1 for every
// test: the folder then checks, at the end of each TU, that the map is still
// unbuilt (folding/Uses.h, checkNoTuParentMap). This TU holds what once built
// it: a local address used as an asm operand, a fill loop, a helper that
// returns a map, map parameters followed into a TMA operation. The selftest
// mode builds the map on purpose: the guard must then fail.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_device 2>&1 | FileCheck --check-prefix=QUIET %s
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=QUIET %s
// RUN: env TMA_TIDY_ASSERT_NO_PARENT_MAP=selftest not %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_device 2>&1 | FileCheck --check-prefix=FIRES %s
// RUN: env TMA_TIDY_ASSERT_NO_PARENT_MAP=selftest not %clang_tidy --load=%tma_plugin --checks='-*,tma-descriptor' %s -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=FIRES %s
// The source-level half of the guard: no code in checker/ calls them.
// RUN: grep -rnE '(getParents|getParentMapContext|hasAncestor|hasParent|hasAnyParent|forCallable|isMutated|findMutation)[[:space:]]*[(<]|#include.*(ExprMutationAnalyzer|ParentMapContext)' %S/../../checker | sed '/parent-map guard/d' | count 0

// QUIET-NOT: parent map
// QUIET: warning: elementStrides[1] is 9
// QUIET-NOT: parent map
// FIRES: tma-tidy built the TU-wide parent map

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE

__device__ uint32_t smem_u32(const void *P) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(P));
}

__global__ void kernel(CUtensorMap Map, int *Out) {
  __shared__ alignas(8) uint64_t Bar;
  __shared__ alignas(128) char Buf[1024];
  uint32_t B = smem_u32(&Bar);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(B), "r"(1));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(B),
               "r"(1024));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                   smem_u32(Buf)),
               "l"(&Map), "r"(0), "r"(0), "r"(B)
               : "memory");
  *Out = B;
}

CUtensorMap make(void *Src) {
  CUtensorMap Map;
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2];
  for (int I = 0; I < 2; ++I)
    Box[I] = 16;
  cuuint32_t Es[2] = {1, 9};
  CUresult R = cuTensorMapEncodeTiled(&Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                                      2, Src, Dims, Strides, Box, Es, MODES);
  (void)R;
  return Map;
}

void launch(void *Src, int *Out) {
  CUtensorMap Map = make(Src);
  kernel<<<1, 1>>>(Map, Out);
}
