// MBAR-TX-EQUALS-BYTES: the expect-tx counts of one barrier in one phase
// must add up to the bytes of the 1-D bulk copies completing on it there.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
// libcu++'s init (a friend of cuda::barrier), which the stub lacks.
namespace cuda {
__device__ void init(block_barrier *bar, ptrdiff_t expected);
}

// Inline PTX: 1024 expected, 1040 delivered.
__global__ void ptxOffBy16(const char *src) {
  __shared__ alignas(16) char buf[1040];
  __shared__ uint64_t bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(bar_ptr), "r"(1024));
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: expect-tx of 1024 bytes on 'bar' but the copies completing on it in this phase deliver 1040 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE+2]]:5: note: this copy delivers 1040 bytes to 'bar'
    // CHECK-FIXES: {{^}}                 :: "r"(bar_ptr), "r"(1040));{{$}}
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(buf))), "l"(src),
           "r"(1040), "r"(bar_ptr)
        : "memory");
  }
}

// cuda::ptx: two copies of 512 bytes, 1000 expected.
__global__ void ptxTwoCopies(const char *src) {
  __shared__ alignas(16) char a[512];
  __shared__ alignas(16) char b[512];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 1000);
    // CHECK-NOTES: :[[@LINE-3]]:5: warning: expect-tx of 1000 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE+3]]:5: note: this copy delivers 512 bytes to 'bar'
    // CHECK-NOTES: :[[@LINE+4]]:5: note: this copy delivers 512 bytes to 'bar'
    // CHECK-FIXES: {{^}}                                         cuda::ptx::space_shared, &bar, 1024);{{$}}
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             a, src, 512, &bar);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             b, src + 512, 512, &bar);
  }
}

// cde + barrier_arrive_tx: the count is the size of the other buffer. Not a
// literal: a note gives the value instead of a fix-it.
__global__ void cdeWrongBuffer(const float *src) {
  __shared__ alignas(16) float tile[256];
  __shared__ alignas(16) float halo[32];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(tile, src, sizeof(tile), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(halo));
    // CHECK-NOTES: :[[@LINE-1]]:13: warning: expect-tx of 128 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: this copy delivers 1024 bytes to 'bar'
    // CHECK-NOTES: :[[@LINE-3]]:13: note: expect 1024 bytes
  } else {
    token = bar.arrive();
  }
  bar.wait(static_cast<block_barrier::arrival_token &&>(token));
}

// Several expect-tx add up: 512 + 256 expected, 1024 delivered.
__global__ void twoExpects(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_t<cuda::ptx::dot_sem::relaxed>{}, cuda::ptx::scope_cta,
                                  cuda::ptx::space_shared, &bar, 512);
    // CHECK-NOTES: :[[@LINE-2]]:5: warning: expect-tx of 768 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-NOTES: :[[@LINE+5]]:5: note: this copy delivers 1024 bytes to 'bar'
    // CHECK-NOTES: :[[@LINE-4]]:5: note: expect 1024 bytes
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 256);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, 1024, &bar);
  }
}

// A pipeline with a barrier array: one stage's expect-tx misses the second
// copy.
constexpr int Stages = 4;
constexpr int Tile = 2048;
__global__ void pipelineMissesCopy(const char *a, const char *b, int k) {
  __shared__ alignas(16) char sa[Stages][Tile];
  __shared__ alignas(16) char sb[Stages][Tile];
  __shared__ uint64_t full[Stages];
  for (int i = 0; i < k; ++i) {
    int stage = i % Stages;
    if (threadIdx.x == 0) {
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared,
                                           &full[stage], Tile);
      // CHECK-NOTES: :[[@LINE-4]]:7: warning: expect-tx of 2048 bytes on 'full[stage]' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      // CHECK-NOTES: :[[@LINE+3]]:7: note: this copy delivers 2048 bytes to 'full[stage]'
      // CHECK-NOTES: :[[@LINE+4]]:7: note: this copy delivers 2048 bytes to 'full[stage]'
      // CHECK-NOTES: :[[@LINE-7]]:7: note: expect 4096 bytes
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                               sa[stage], a + i * Tile, Tile, &full[stage]);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                               sb[stage], b + i * Tile, Tile, &full[stage]);
    }
  }
}
