// ExplainModel's silence notes of MBAR-UNINIT on barriers in a struct laid
// over the dynamic shared-memory pool (ordering-uninit-pool.cu): a helper
// the kernel calls names the pool too; the struct goes whole to a helper;
// the pool is used without the struct. Each kernel's barrier is never
// initialised in its body, and the rule says why it stays silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'MBAR-UNINIT'

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   a),
               "r"(bytes)
               : "memory");
}

struct Storage {
  alignas(128) float A[256];
  alignas(8) uint64_t full[2];
};

__device__ void initSomehow(uint64_t *bar);
__device__ void initThroughPool() {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  if (threadIdx.x == 0)
    initSomehow(&s.full[0]);
}

__global__ void __launch_bounds__(32) initElsewhere() {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  initThroughPool();
  __syncthreads();
  expectBytes(&s.full[0], 1024);
}

__device__ void setUp(Storage &st);
__global__ void __launch_bounds__(32) passedWhole() {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  setUp(s);
  __syncthreads();
  expectBytes(&s.full[0], 1024);
}

__global__ void __launch_bounds__(32) poolOtherwise() {
  extern __shared__ __align__(128) uint8_t smem[];
  Storage &s = *reinterpret_cast<Storage *>(smem);
  uint64_t *raw = reinterpret_cast<uint64_t *>(smem + 1024);
  __syncthreads();
  expectBytes(&s.full[0], 1024);
}
// CHECK-NOTES: :37:39: warning: model: kernel 'initElsewhere': 3 event(s), block size 1..32; threads not tracked (no copy out of shared memory, no rule reads them) [tma-ordering]
// CHECK-NOTES: :40:3: note: model: event 0: opaque (the model cannot follow it: rules stay silent across it), under a condition
// CHECK-NOTES: :34:5: note: model: event 0 issued here
// CHECK-NOTES: :41:3: note: model: event 1: thread barrier
// CHECK-NOTES: :42:3: note: model: event 2: mbarrier use on 'smem.full' (copy or arrive.expect_tx)
// CHECK-NOTES: :18:3: note: model: event 2 issued here
// CHECK-NOTES: :18:3: note: model: silent: MBAR-UNINIT on event 2 ('smem.full'): the barrier lies in the dynamic shared-memory pool, and 'initThroughPool', which the kernel may run, names an extern __shared__ variable (the same pool): code there may initialise it
// CHECK-NOTES: :46:39: warning: model: kernel 'passedWhole': 3 event(s), block size 1..32; threads not tracked (no copy out of shared memory, no rule reads them) [tma-ordering]
// CHECK-NOTES: :49:3: note: model: event 0: opaque (the model cannot follow it: rules stay silent across it)
// CHECK-NOTES: :50:3: note: model: event 1: thread barrier
// CHECK-NOTES: :51:3: note: model: event 2: mbarrier use on 'smem.full' (copy or arrive.expect_tx)
// CHECK-NOTES: :18:3: note: model: event 2 issued here
// CHECK-NOTES: :18:3: note: model: silent: MBAR-UNINIT on event 2 ('smem.full'): the barrier lies in a struct laid over the dynamic shared-memory pool, and the struct laid over the pool is used other than through its members: such a use may initialise it
// CHECK-NOTES: :54:39: warning: model: kernel 'poolOtherwise': 2 event(s), block size 1..32; threads not tracked (no copy out of shared memory, no rule reads them) [tma-ordering]
// CHECK-NOTES: :58:3: note: model: event 0: thread barrier
// CHECK-NOTES: :59:3: note: model: event 1: mbarrier use on 'smem.full' (copy or arrive.expect_tx)
// CHECK-NOTES: :18:3: note: model: event 1 issued here
// CHECK-NOTES: :18:3: note: model: silent: MBAR-UNINIT on event 1 ('smem.full'): the barrier lies in a struct laid over the dynamic shared-memory pool, and the pool is used other than through a struct laid over it: such a use may initialise it
