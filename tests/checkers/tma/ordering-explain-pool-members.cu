// ExplainModel's silence note of MBAR-UNINIT on a member of a pool family
// that a use reaches only on a later pass (ordering-uninit-pool-members.cu):
// the unrolled init of stage 1 is dropped, and the wait's stage `k % S` is
// 0 the first time it runs; it names stage 1 from the second pass on, and
// the loop's passes are not known, so the rule stays silent and says why.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'MBAR-UNINIT'

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline void initAt(uint32_t a, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void waitAt(uint32_t a, int p) {
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(a),
               "r"(p)
               : "memory");
}

constexpr int S = 2;

__global__ void __launch_bounds__(32) laterStage(int iters) {
  extern __shared__ __align__(1024) char smem[];
  const uint32_t full =
      static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + 1024;
  if (threadIdx.x == 0) {
    initAt(full, 1);
    initAt(full + 16, 1);
  }
  __syncthreads();
  for (int k = 0; k < iters; ++k)
    waitAt(full + (k % S) * 8, (k / S) & 1);
}
// CHECK-NOTES: :28:39: warning: model: kernel 'laterStage': 4 event(s), block size 1..32 [tma-ordering]
// CHECK-NOTES: :33:5: note: model: event 0: mbarrier init on 'smem + 1024', under a condition; 1 thread(s)
// CHECK-NOTES: :16:3: note: model: event 0 issued here
// CHECK-NOTES: :34:5: note: model: event 1: mbarrier init on 'smem + 1040', under a condition; 1 thread(s)
// CHECK-NOTES: :16:3: note: model: event 1 issued here
// CHECK-NOTES: :36:3: note: model: event 2: thread barrier; all threads
// CHECK-NOTES: :38:5: note: model: event 3: mbarrier wait on 'smem + 1024 + 8 * s' (parity: the ring's phase, 0 on the first lap); all threads
// CHECK-NOTES: :19:3: note: model: event 3 issued here
// CHECK-NOTES: :16:3: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('smem + 1024'): no use of this barrier after the init (the model may name it differently at its uses)
// CHECK-NOTES: :16:3: note: model: silent: MBAR-INIT-VISIBLE on event 1 ('smem + 1040'): no use of this barrier after the init (the model may name it differently at its uses)
// CHECK-NOTES: :19:3: note: model: silent: MBAR-WAIT-PARITY on event 3 ('smem + 1024 + 8 * s'): no arrive on the barrier is seen: what completes its first phase is not judged
// CHECK-NOTES: :19:3: note: model: silent: MBAR-UNINIT on event 3 ('smem + 1024 + 8 * s'): member 1 of 'smem + 1024 + 8 * s' (offset 1032) has no init, but the index is 0 the first time this use runs and names member 1, if ever, only on a later run; how many times it runs is not known
