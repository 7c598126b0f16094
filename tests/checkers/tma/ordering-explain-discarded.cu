// ExplainModel's "model: discarded" warnings: an `if constexpr` branch that
// every resolution of its statement in the TU drops (each instantiation of
// the template around it, or the non-template code itself) is named with
// its range; bench/mutate calls a mutant inside it equivalent (nothing the
// TU compiles changes). The shape is DeepGEMM's tensor-core pacing: a
// barrier initialised and waited on only when a template argument asks for
// it. A branch kept by one instantiation and dropped by another is
// compiled: not named; nor is a template that nothing instantiates, nor a
// plain `if`. Not printed without the option.
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_device 2>&1 | FileCheck %s --implicit-check-not="model: discarded"
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" %s -- %cuda_stub_host 2>&1 | FileCheck %s --implicit-check-not="model: discarded"
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'model: discarded'

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

struct Bar {
  uint64_t word;
  __device__ void init(int n) {
    uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&word));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
  }
  __device__ void wait(int p) {
    uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&word));
    asm volatile("{\n.reg .pred q;\nW:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
                 "@!q bra W;\n}" ::"r"(a),
                 "r"(p)
                 : "memory");
  }
};

// Instantiated at 100 only: both pacing branches are dropped, the else of
// the last statement too. The first two have no other branch: the
// statement compiles to nothing (deleting it whole is no change either).
template <int kUtil> __global__ void paced(int *out) {
  __shared__ Bar pace;
  if constexpr (kUtil < 100)
    pace.init(1);
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    if constexpr (kUtil < 100) {
      pace.wait(k & 1);
    }
  }
  if constexpr (kUtil == 100)
    out[threadIdx.x] = 1;
  else
    out[threadIdx.x] = kUtil;
}
template __global__ void paced<100>(int *);
// CHECK: :41:5: warning: model: discarded: the `if constexpr` branch at 41:5-41:17 is dropped in each of the 1 resolution(s) of its statement in this TU: none of its code is compiled here; the statement from 40:3 has no other branch: it compiles to nothing [tma-ordering]
// CHECK: :44:32: warning: model: discarded: the `if constexpr` branch at 44:32-46:6 is dropped in each of the 1 resolution(s) of its statement in this TU: none of its code is compiled here; the statement from 44:5 has no other branch: it compiles to nothing [tma-ordering]
// CHECK: :51:5: warning: model: discarded: the `if constexpr` branch at 51:5-51:29 is dropped in each of the 1 resolution(s) of its statement in this TU: none of its code is compiled here [tma-ordering]

// The twin: instantiated at 50 and at 100, each branch is kept by one of
// them: none is named.
template <int kUtil> __global__ void pacedTwice(int *out) {
  __shared__ Bar pace;
  if constexpr (kUtil < 100)
    pace.init(1);
  __syncthreads();
  if constexpr (kUtil < 100)
    pace.wait(0);
  out[threadIdx.x] = kUtil;
}
template __global__ void pacedTwice<50>(int *);
template __global__ void pacedTwice<100>(int *);

// Nothing instantiates it: not this warning's to say.
template <int kUtil> __global__ void pacedNever(int *out) {
  if constexpr (kUtil < 100)
    out[0] = 0;
}

// Non-template code: the dropped branch is still dropped.
constexpr bool kPaced = false;
__global__ void pacedPlain(int *out) {
  if constexpr (kPaced)
    out[0] = 1;
  if (out[1])
    out[2] = 3;
}
// CHECK: :82:5: warning: model: discarded: the `if constexpr` branch at 82:5-82:15 is dropped in each of the 1 resolution(s) of its statement in this TU: none of its code is compiled here; the statement from 81:3 has no other branch: it compiles to nothing [tma-ordering]
