// ExplainModel's silence notes (issue 28 item 1): after the events of a
// kernel, one note per rule and event that the rule looked at and did not
// report, saying why in the words of the code that decided (rules/
// OrderingRules, MBAR-UNINIT in the check), at the event, with the event
// that silenced it where one did. No kernel here has a bug: without the
// option nothing is reported.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'silent'

#include <cstdint>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}
__device__ float *stagingBuffer();

// Thread 0 initialises the barrier and only thread 0 uses it: no other
// thread needs to see the init.
__global__ void ownUse(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
    waitParity(&bar, 0);
    out[0] = buf[0];
  }
}
// CHECK-NOTES: :[[@LINE-13]]:17: warning: model: kernel 'ownUse': 6 event(s), block size 1..1024 [tma-ordering]
// CHECK-NOTES: :[[@LINE-10]]:5: note: model: event 0: mbarrier init on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-10]]:5: note: model: event 1: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-9]]:5: note: model: event 2: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-10]]:5: note: model: event 3: copy into shared memory on 'buf', completing on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-9]]:5: note: model: event 4: mbarrier wait on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-26]]:11: note: model: event 4 issued here
// CHECK-NOTES: :[[@LINE-10]]:14: note: model: event 5: generic read on 'buf', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-17]]:5: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('bar'): every later use runs under a condition, in threads that also run the init (event 1, line [[#@LINE-16]])
// CHECK-NOTES: :[[@LINE-15]]:5: note: model: silent: TMA-LOAD-WAIT-BEFORE-READ on event 3 ('buf'): a wait on the copy's barrier lies between the copy and the first read (event 4, line [[#@LINE-13]])
// CHECK-NOTES: :[[@LINE-16]]:5: note: model: silent: ASYNC-WAR-FENCE on event 3 ('buf'): no generic read of the buffer before the copy (or round its loop) without a fence, thread barrier, mbarrier wait or arrive or an opaque event in between (a hand-off across roles is judged apart)

// Warp roles: the producer thread copies, the consumer warps wait and read
// in the other branch; no path leads from the copy to their reads.
__global__ void roles(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x >= 256) {
    if (threadIdx.x == 256) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                     ptx::space_shared, &bar, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                         sizeof(buf), &bar);
    }
  } else {
    waitParity(&bar, 0);
    out[threadIdx.x] = buf[threadIdx.x];
  }
}
// CHECK-NOTES: :[[@LINE-18]]:17: warning: model: kernel 'roles': 7 event(s), block size 1..1024 [tma-ordering]
// CHECK-NOTES: :[[@LINE-15]]:5: note: model: event 0: mbarrier init on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-15]]:3: note: model: event 1: thread barrier; all threads
// CHECK-NOTES: :[[@LINE-13]]:7: note: model: event 2: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-12]]:7: note: model: event 3: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-13]]:7: note: model: event 4: copy into shared memory on 'buf', completing on 'bar', under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-10]]:5: note: model: event 5: mbarrier wait on 'bar', under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-59]]:11: note: model: event 5 issued here
// CHECK-NOTES: :[[@LINE-11]]:24: note: model: event 6: generic read on 'buf', under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-23]]:5: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('bar'): a thread barrier lies between the init and the first use by other threads (event 1, line [[#@LINE-22]])
// CHECK-NOTES: :[[@LINE-18]]:7: note: model: silent: TMA-LOAD-WAIT-BEFORE-READ on event 4 ('buf'): the reads of the buffer lie on no path from the copy (another role's branch: judged by the check across roles)
// CHECK-NOTES: :[[@LINE-19]]:7: note: model: silent: ASYNC-WAR-FENCE on event 4 ('buf'): no generic read of the buffer before the copy (or round its loop) without a fence, thread barrier, mbarrier wait or arrive or an opaque event in between (a hand-off across roles is judged apart)
// CHECK-NOTES: :[[@LINE-20]]:7: note: model: silent: ASYNC-REUSE-BEFORE-RELEASE on event 4 ('buf'): the copy lies in no loop: it fills its buffer once, and a refill is what needs the release

// The copy's source comes from a call the model does not follow; the final
// wait_group is left to WaitBeforeExit, off by default.
__global__ void unknownSource(float *dst) {
  float *staged = stagingBuffer();
  if (threadIdx.x == 0)
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, dst, staged, 1024);
}
// CHECK-NOTES: :[[@LINE-5]]:17: warning: model: kernel 'unknownSource': 2 event(s), block size 1..1024 [tma-ordering]
// CHECK-NOTES: :[[@LINE-5]]:19: note: model: event 0: opaque (the model cannot follow it: rules stay silent across it); all threads
// CHECK-NOTES: :[[@LINE-4]]:5: note: model: event 1: copy out of shared memory on an object the model cannot name, under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-5]]:5: note: model: silent: BULK-S2G-FENCE-BEFORE on event 1: buffer unknown: the model cannot name the copy's source (it is 'staged', bound to what 'stagingBuffer' returns)
// CHECK-NOTES: :[[@LINE-6]]:5: note: model: silent: BULK-S2G-WAIT-BEFORE-REUSE on event 1: option WaitBeforeExit is off: a copy not waited for before the kernel exits is not reported
// CHECK-NOTES: :[[@LINE-7]]:5: note: model: silent: BULK-S2G-WAIT-BEFORE-REUSE on event 1: buffer unknown: the model cannot name the copy's source (it is 'staged', bound to what 'stagingBuffer' returns)
