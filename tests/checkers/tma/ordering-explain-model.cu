// ExplainModel (off by default): tma-ordering prints, per kernel, the model
// its rules saw -- a warning with the number of events and one note per
// event in order (what it names, whether it runs under a condition, which
// threads run it where the model tracks them) -- or why a kernel has none.
// A debugging aid for silent rules (issue 28 item 1), like CoverageReport;
// the file has no bug, so without the option nothing is reported.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -config="{CheckOptions: {tma-ordering.ExplainModel: true}}" -- %cuda_stub_host
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' %s -- %cuda_stub_device 2>&1 | not grep 'warning: model'
// RUN: %clang_tidy --load=%tma_plugin --checks='-*,tma-ordering' --dump-config %s -- %cuda_stub_host | FileCheck --check-prefix=CONFIG %s
// CONFIG: tma-ordering.ExplainModel: 'false'

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// A load pipeline of one stage. Its notes are checked without their thread
// sets: the model computes those only where a rule reads them, which may
// change (the header then says "threads not tracked").
__global__ void loadKernel(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  waitParity(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}
// CHECK-NOTES: :[[@LINE-15]]:17: warning: model: kernel 'loadKernel': 7 event(s), block size 1..1024{{.*}} [tma-ordering]
// CHECK-NOTES: :[[@LINE-12]]:5: note: model: event 0: mbarrier init on 'bar', under a condition
// CHECK-NOTES: :[[@LINE-12]]:3: note: model: event 1: thread barrier
// CHECK-NOTES: :[[@LINE-11]]:5: note: model: event 2: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition
// CHECK-NOTES: :[[@LINE-10]]:5: note: model: event 3: mbarrier use on 'bar' (copy or arrive.expect_tx), under a condition
// CHECK-NOTES: :[[@LINE-11]]:5: note: model: event 4: copy into shared memory on 'buf', completing on 'bar', under a condition
// CHECK-NOTES: :[[@LINE-9]]:3: note: model: event 5: mbarrier wait on 'bar'
// CHECK-NOTES: :[[@LINE-29]]:11: note: model: event 5 issued here
// CHECK-NOTES: :[[@LINE-10]]:22: note: model: event 6: generic read on 'buf'
// CHECK-NOTES: :[[@LINE-20]]:5: note: model: silent: MBAR-INIT-VISIBLE on event 0 ('bar'): a thread barrier lies between the init and the first use by other threads (event 1, line [[#@LINE-19]])
// CHECK-NOTES: :[[@LINE-16]]:5: note: model: silent: TMA-LOAD-WAIT-BEFORE-READ on event 4 ('buf'): a wait on the copy's barrier lies between the copy and the first read (event 5, line [[#@LINE-13]])
// CHECK-NOTES: :[[@LINE-17]]:5: note: model: silent: ASYNC-WAR-FENCE on event 4 ('buf'): no generic read of the buffer before the copy (or round its loop) without a fence, thread barrier, mbarrier wait or arrive or an opaque event in between (a hand-off across roles is judged apart)

// A tensor store: thread sets are tracked (a store rule reads them).
__global__ void storeKernel(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    smem_c[i] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, smem_c);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}
// CHECK-NOTES: :[[@LINE-12]]:17: warning: model: kernel 'storeKernel': 6 event(s), block size 1..1024 [tma-ordering]
// CHECK-NOTES: :[[@LINE-10]]:15: note: model: event 0: generic write on 'smem_c'; all threads
// CHECK-NOTES: :[[@LINE-10]]:3: note: model: event 1: fence.proxy.async; all threads
// CHECK-NOTES: :[[@LINE-10]]:3: note: model: event 2: thread barrier; all threads
// CHECK-NOTES: :[[@LINE-9]]:5: note: model: event 3: copy out of shared memory on 'smem_c', under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-9]]:5: note: model: event 4: bulk-group commit, under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-9]]:5: note: model: event 5: bulk-group wait 0, under a condition; 1 thread(s)
// CHECK-NOTES: :[[@LINE-12]]:5: note: model: silent: TMA-STORE-FENCE on event 3 ('smem_c'): a fence.proxy.async lies between the nearest generic write and the copy, and no writing thread is proven to skip it (event 1, line [[#@LINE-15]])
// CHECK-NOTES: :[[@LINE-13]]:5: note: model: silent: TMA-STORE-WAIT on event 3 ('smem_c'): option WaitBeforeExit is off: a copy not waited for before the kernel exits is not reported
// CHECK-NOTES: :[[@LINE-14]]:5: note: model: silent: TMA-STORE-WAIT on event 3 ('smem_c'): no write of the buffer after the copy (nor round its loop)

// No TMA or bulk copy: no model.
// A store in a loop whose condition the model cannot read, in the first
// warp: the loop body runs in some subset of the warp's threads, so the
// copy's threads are unknown, bounded by the warp's.
__device__ bool nextTile(int *tile);
__global__ void storeLoop(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    smem_c[i] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  int tile = 0;
  if (threadIdx.x < 32) {
    while (nextTile(&tile)) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, tile, 0, smem_c);
      cde::cp_async_bulk_commit_group();
    }
  }
}
// CHECK-NOTES: :[[@LINE-14]]:17: warning: model: kernel 'storeLoop': 6 event(s), block size 1..1024 [tma-ordering]
// CHECK-NOTES: :[[@LINE-12]]:15: note: model: event 0: generic write on 'smem_c'; all threads
// CHECK-NOTES: :[[@LINE-12]]:3: note: model: event 1: fence.proxy.async; all threads
// CHECK-NOTES: :[[@LINE-12]]:3: note: model: event 2: thread barrier; all threads
// CHECK-NOTES: :[[@LINE-10]]:12: note: model: event 3: opaque (the model cannot follow it: rules stay silent across it), under a condition; guarded threads (count not known)
// CHECK-NOTES: :[[@LINE-10]]:7: note: model: event 4: copy out of shared memory on 'smem_c', under a condition; threads unknown (a subset of threads 0..31)
// CHECK-NOTES: :[[@LINE-10]]:7: note: model: event 5: bulk-group commit, under a condition; threads unknown (a subset of threads 0..31)
// CHECK-NOTES: :[[@LINE-12]]:7: note: model: silent: TMA-STORE-FENCE on event 4 ('smem_c'): an opaque event lies between the nearest generic write and the copy (event 3, line [[#@LINE-13]])
// CHECK-NOTES: :[[@LINE-13]]:7: note: model: silent: TMA-STORE-WAIT on event 4 ('smem_c'): option WaitBeforeExit is off: a copy not waited for before the kernel exits is not reported
// CHECK-NOTES: :[[@LINE-14]]:7: note: model: silent: TMA-STORE-WAIT on event 4 ('smem_c'): no write of the buffer after the copy (nor round its loop)

__global__ void noCopy(float *out) { out[threadIdx.x] = 1.0f; }
// CHECK-NOTES: :[[@LINE-1]]:17: warning: model: kernel 'noCopy' has no model: it issues no TMA or bulk copy in reach, or its body is one the model cannot follow (an indirect goto, asm goto, try, too many events): every ordering rule is silent on it [tma-ordering]
