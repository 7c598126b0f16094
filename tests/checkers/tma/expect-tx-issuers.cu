// MBAR-TX-ISSUERS (tma-rules.md 11.A): a copy issued by several threads
// delivers its bytes once per issuing thread; the expect-tx must count every
// issue. The issuing threads come from the guards (threadIdx.x == 0, one lane
// per warp, elect_one_sync, warp roles) and the block size of the kernel's
// launches; where the count is not proven the check stays silent. Each wrong
// kernel has a correct twin.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>
#include <cuda_runtime.h>

namespace ptx = cuda::ptx;
__device__ unsigned __shfl_sync(unsigned mask, unsigned var, int lane);

// A user wrapper of elect.sync (the shape of cute::elect_one_sync).
__device__ __forceinline__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  asm volatile("{\n .reg .pred P;\n elect.sync _|P, %1;\n selp.b32 %0, 1, 0, P;\n}"
               : "+r"(pred) : "r"(0xffffffffu));
  return pred;
}
__device__ __forceinline__ int lane_id() { return threadIdx.x % 32; }
__device__ __forceinline__ int warp_id() {
  return __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
}

__device__ void expectTx(uint64_t *bar, uint32_t bytes) {
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, bar, bytes);
}

// One lane per warp copies 1024 bytes; thread 0 expects one copy. Launched
// with 128 threads: 4 copies land on the barrier.
__global__ void copyPerWarp(const char *src) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
  // CHECK-NOTES: :[[@LINE-2]]:5: warning: expect-tx of 1024 bytes on 'bar' (issued by 1 thread) but 4 threads issue the copies completing on it in this phase, which deliver 4096 bytes (MBAR-TX-ISSUERS) [tma-expect-tx]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: issued by 1 thread of the block of 128 threads
  // CHECK-NOTES: :[[@LINE+6]]:5: note: this copy delivers 1024 bytes to 'bar'
  // CHECK-NOTES: :[[@LINE+5]]:5: note: issued by 4 threads of the block of 128 threads
  // CHECK-NOTES: :[[@LINE-6]]:5: note: expect 4096 bytes in all, or issue the copy from as many threads as the expect-tx counts
  __syncthreads();
  int lane = threadIdx.x % 32;
  if (lane == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       buf + threadIdx.x / 32 * 1024, src, 1024, &bar);
}

// The twin: the expect-tx counts the four copies.
__global__ void copyPerWarpCounted(const char *src) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 4096);
  __syncthreads();
  int lane = threadIdx.x % 32;
  if (lane == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       buf + threadIdx.x / 32 * 1024, src, 1024, &bar);
}

// elect.sync with no warp guard: one thread in each of 8 warps.
__global__ void electInEveryWarp(const char *src) {
  __shared__ alignas(16) char buf[8192];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    expectTx(&bar, 1024);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: expect-tx of 1024 bytes on 'bar' (issued by 1 thread) but 8 threads issue the copies completing on it in this phase, which deliver 8192 bytes (MBAR-TX-ISSUERS) [tma-expect-tx]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: issued by 1 thread of the block of 256 threads
  // CHECK-NOTES: :[[@LINE+5]]:5: note: this copy delivers 1024 bytes to 'bar'
  // CHECK-NOTES: :[[@LINE+4]]:5: note: issued by 8 threads of the block of 256 threads
  // CHECK-NOTES: :[[@LINE-5]]:5: note: expect 8192 bytes in all, or issue the copy from as many threads as the expect-tx counts
  __syncthreads();
  if (elect_one_sync())
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       buf + warp_id() * 1024, src, 1024, &bar);
}

// The twin: elect.sync in warp 0 only (the producer), one copy.
__global__ void electInOneWarp(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    expectTx(&bar, 1024);
  __syncthreads();
  if (warp_id() == 0 && elect_one_sync())
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
}

// Different guards, one thread each: the sums compare (MBAR-TX-EQUALS-BYTES),
// which the check could not do before it counted the issuers.
__global__ void oneThreadEachWrongBytes(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1000);
  // CHECK-NOTES: :[[@LINE-2]]:5: warning: expect-tx of 1000 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
  // CHECK-NOTES: :[[@LINE+5]]:5: note: this copy delivers 1024 bytes to 'bar'
  // CHECK-FIXES: {{^}}                                   ptx::space_shared, &bar, 1024);{{$}}
  __syncthreads();
  // The first lane of warp 1: thread 32.
  if (warp_id() == 1 && lane_id() == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
}

// A block size that is only bounded (no launch in this file): one lane per
// warp is 1 to 4 threads, not proven. Silent.
__global__ void __launch_bounds__(128) unlaunchedPerWarp(const char *src) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
  __syncthreads();
  if (threadIdx.x % 32 == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       buf + threadIdx.x / 32 * 1024, src, 1024, &bar);
}

// A guard the model cannot read (a value loaded from memory): silent.
__global__ void unknownGuard(const char *src, const int *role) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
  __syncthreads();
  if (role[threadIdx.x] == 1)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
}

// Some threads leave first: who reaches the copy is not known. Silent.
__global__ void earlyExitUnderGuard(const char *src, int n) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
  __syncthreads();
  for (int i = 0; i < n; ++i)
    if (threadIdx.x > 0)
      return;
  if (threadIdx.x % 32 == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
}

// `if (warp != 0) return;` at the top: the rest runs in warp 0, and one lane
// of it copies: one issuer, counted right. Silent.
__global__ void producerWarpOnly(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (warp_id() != 0)
    return;
  if (lane_id() == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 1024,
                       &bar);
  }
}

// The copy's guard has a part that is the same in every thread: whether the
// copies run in this phase at all is not known. Silent.
__global__ void uniformPartInGuard(const char *src, int k) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0)
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, 1024);
  __syncthreads();
  if (k == 0 && threadIdx.x % 32 == 0)
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                       buf + threadIdx.x / 32 * 1024, src, 1024, &bar);
}

void launch(const char *src, const int *role, int n) {
  copyPerWarp<<<1, 128>>>(src);
  copyPerWarpCounted<<<1, 128>>>(src);
  electInEveryWarp<<<1, dim3(256)>>>(src);
  electInOneWarp<<<1, 256>>>(src);
  oneThreadEachWrongBytes<<<1, 128>>>(src);
  unknownGuard<<<1, 128>>>(src, role);
  earlyExitUnderGuard<<<1, 128>>>(src, n);
  producerWarpOnly<<<1, 128>>>(src);
  uniformPartInGuard<<<1, 128>>>(src, n);
}
