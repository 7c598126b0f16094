// ExplainModel's silence notes of TMAP-INFLIGHT-IMMUTABLE: a map in global
// memory rewritten after the copy that reads it completed (a wait in
// between) is judged and left alone, saying which wait completed the copy;
// a map never rewritten says so. Without the option nothing is reported.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'silent'

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t sAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Thread 0 loads with the map, waits for the load, then publishes the next
// map over it: the wait completed the load's read of the map.
__global__ void __launch_bounds__(32)
rewriteAfterWait(CUtensorMap *map, const CUtensorMap *next) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x != 0)
    return;
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sAddr(&bar)));
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               ::"l"(map) : "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(sAddr(&bar)), "r"(4096) : "memory");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(sAddr(tile)), "l"(reinterpret_cast<uint64_t>(map)),
                 "r"(0), "r"(0), "r"(sAddr(&bar))
               : "memory");
  asm volatile("{\n .reg .pred p;\n L_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra L_%=;\n}\n" ::"r"(sAddr(&bar)), "r"(0)
               : "memory");
  *map = *next;
}
// CHECK-NOTES: :[[@LINE-21]]:1: warning: model: kernel 'rewriteAfterWait': 7 event(s), block size 1..32 [tma-ordering]
// CHECK-NOTES: :[[@LINE-17]]:3: note: model: event 0: mbarrier init on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-17]]:3: note: model: event 1: tensor-map acquire fence, under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-16]]:3: note: model: event 2: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-15]]:3: note: model: event 3: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-16]]:3: note: model: event 4: copy into shared memory on 'tile', completing on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-12]]:3: note: model: event 5: mbarrier wait on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-9]]:8: note: model: event 6: tensor-map write, under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-24]]:3: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('bar'): every later use runs under a condition, in threads that also run the init (event 2, line [[#@LINE-21]])
// CHECK-NOTES: :[[@LINE-20]]:3: note: model: silent: TMA-LOAD-WAIT-BEFORE-READ on event 4 ('tile'): no read of the buffer in the model (reads in helpers it cannot follow are none)
// CHECK-NOTES: :[[@LINE-21]]:3: note: model: silent: ASYNC-WAR-FENCE on event 4 ('tile'): no generic read of the buffer in the model
// CHECK-NOTES: :[[@LINE-22]]:3: note: model: silent: TMAP-INFLIGHT-IMMUTABLE on event 4 ('tile'): a wait between the copy and the map's rewrite completes the copy (event 5, line [[#@LINE-17]])
