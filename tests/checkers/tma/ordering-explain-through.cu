// ExplainModel's "through here" notes: an event that a helper issues
// through another helper (a barrier class's member forwarding to a free
// function with the asm, the shape of tilelang's `Barrier` and
// ThunderKittens' `warp::` wrappers) names each call on the way from the
// kernel's body to the op, so the reader sees every helper a kernel
// reaches (bench/mutate judges a site knowable by them). The init without
// a thread barrier before the other threads' wait is the wrong kernel; its
// twin with `__syncthreads()` is silent; both carry the same notes.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'through here'

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline void rawInit(uint64_t &b, int n) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&b));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(n));
}
__device__ inline void rawWait(uint64_t &b, int p) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&b));
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(a),
               "r"(p)
               : "memory");
}

struct Bar {
  uint64_t word;
  __device__ void init(int n) { rawInit(word, n); }
  __device__ void wait(int p) { rawWait(word, p); }
};

__global__ void __launch_bounds__(128) initNoSync() {
  __shared__ Bar bar;
  if (threadIdx.x == 0)
    bar.init(1);
  bar.wait(0);
}
// CHECK-NOTES: :37:40: warning: model: kernel 'initNoSync': 2 event(s), block size 1..128 [tma-ordering]
// CHECK-NOTES: :40:5: note: model: event 0: mbarrier init on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :20:3: note: model: event 0 issued here
// CHECK-NOTES: :33:33: note: model: event 0 through here
// CHECK-NOTES: :41:3: note: model: event 1: mbarrier wait on 'bar'; all threads
// CHECK-NOTES: :24:3: note: model: event 1 issued here
// CHECK-NOTES: :34:33: note: model: event 1 through here
// (MBAR-UNINIT: a class wrapping one word is one barrier, initialised.)
// CHECK-NOTES: :41:3: warning: 'bar' is used by all threads here after its mbarrier.init at line 40 with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
// CHECK-NOTES: :40:5: note: initialised here, by the threads of this branch only
// CHECK-NOTES: :20:3: note: issued here
// CHECK-FIXES: {{^}}    bar.init(1);{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  bar.wait(0);{{$}}

__global__ void __launch_bounds__(128) initSynced() {
  __shared__ Bar bar;
  if (threadIdx.x == 0)
    bar.init(1);
  __syncthreads();
  bar.wait(0);
}
// CHECK-NOTES: :58:40: warning: model: kernel 'initSynced': 3 event(s), block size 1..128 [tma-ordering]
// CHECK-NOTES: :61:5: note: model: event 0: mbarrier init on 'bar', under a condition; 1 thread(s)
// CHECK-NOTES: :20:3: note: model: event 0 issued here
// CHECK-NOTES: :33:33: note: model: event 0 through here
// CHECK-NOTES: :62:3: note: model: event 1: thread barrier; all threads
// CHECK-NOTES: :63:3: note: model: event 2: mbarrier wait on 'bar'; all threads
// CHECK-NOTES: :24:3: note: model: event 2 issued here
// CHECK-NOTES: :34:33: note: model: event 2 through here
// CHECK-NOTES: :20:3: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('bar'): a thread barrier lies between the init and the first use by other threads (event 1, line 62)
// (MBAR-UNINIT: a class wrapping one word is one barrier, initialised.)
