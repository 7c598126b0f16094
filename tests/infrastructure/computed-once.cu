// What is computed once is computed once (issue 15, item 3). With
// TMA_TIDY_STATS=1 the module prints its counters at the end of each TU
// (folding/Stats.h). Here two kernels each read one local address in 16
// asm statements (32 statements, 2 distinct texts), and 6 encode calls go
// through one helper called from 3 functions (7 function bodies in all).
// Both passes (device code is checked in both): the 6 checks share one
// matcher per node kind (2), one folder and one device-op finder; the TU is
// walked once for the call index (and never by the fallback walk); contexts
// are collected once per function (at most the 4 with a site or a caller
// of one), at most one parent map per body, "never written" computed once
// per variable (a few) and answered from the memo after that (dozens of
// questions), each asm statement bound once and each distinct text parsed
// once.
// RUN: env TMA_TIDY_STATS=1 %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_device 2>&1 | FileCheck --check-prefix=DEVICE %s
// RUN: env TMA_TIDY_STATS=1 %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=HOST %s
// Without the variable nothing is printed.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-*' %s -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=QUIET %s
// QUIET-NOT: tma-tidy stats
// DEVICE: tma-tidy stats: matchers 2 checks 6 folders 1 finders 1 index-walks 1 full-walks 0 context-sets {{[1-4]}} parent-maps {{[1-7]}} never-written {{[1-9]}}/{{[1-9][0-9]+}} asm-bindings 32 asm-texts 2{{$}}
// DEVICE: warning: elementStrides[1] is 9
// HOST: tma-tidy stats: matchers 2 checks 6 folders 1 finders 1 index-walks 1 full-walks 0 context-sets {{[1-4]}} parent-maps {{[1-7]}} never-written {{[1-9]}}/{{[1-9][0-9]+}} asm-bindings 32 asm-texts 2{{$}}
// HOST: warning: elementStrides[1] is 9

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

#define ARRIVE(B, N)                                                           \
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(B), \
               "r"(N))
#define WAIT(B) asm volatile("mbarrier.try_wait.parity.shared::cta.b64 _, [%0], 0;" ::"r"(B))
#define EIGHT(B, N) ARRIVE(B, N); WAIT(B); ARRIVE(B, N); WAIT(B); ARRIVE(B, N); WAIT(B); ARRIVE(B, N); WAIT(B)

__global__ void first(int *Out) {
  __shared__ alignas(8) uint64_t Bar;
  uint32_t B = smem_u32(&Bar);
  EIGHT(B, 16);
  EIGHT(B, 16);
  *Out = B;
}

__global__ void second(int *Out) {
  __shared__ alignas(8) uint64_t Bar;
  uint32_t B = smem_u32(&Bar);
  EIGHT(B, 32);
  EIGHT(B, 32);
  *Out = B;
}

CUresult make(CUtensorMap *M, void *Src, cuuint32_t Bx, cuuint32_t E) {
  cuuint64_t Dims[2] = {64, 64};
  cuuint64_t Strides[1] = {256};
  cuuint32_t Box[2] = {Bx, 64};
  cuuint32_t Es[2] = {1, E};
  return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
}

void a(CUtensorMap *M, void *Src) {
  make(M, Src, 8, 1);
  make(M + 1, Src, 16, 9);
}
void b(CUtensorMap *M, void *Src) {
  make(M, Src, 32, 1);
  make(M + 1, Src, 64, 1);
}
void c(CUtensorMap *M, void *Src) {
  make(M, Src, 64, 1);
  make(M + 1, Src, 128, 1);
}
