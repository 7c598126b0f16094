// MBAR-TX-EQUALS-BYTES on the elements of a barrier array named by constant
// indices (`bar[0]`, `bar[1]`, `st.full[1]`): a double-buffered kernel
// written out by hand. Two elements whose indices fold to different values
// are different barriers, so each forms its own phase; an index that does
// not fold, or the whole array next to an element, may still name the same
// barrier and keeps the phase uncounted. Each wrong kernel has a correct
// twin.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ inline uint32_t u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ inline void init(uint64_t *bar, int n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(u32(bar)),
               "r"(n));
}
__device__ inline void expect(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   u32(bar)),
               "r"(bytes)
               : "memory");
}
__device__ inline void wait(uint64_t *bar, int parity) {
  asm volatile("{\n.reg .pred q;\nW:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 q, [%0], %1;\n"
               "@!q bra W;\n}" ::"r"(u32(bar)),
               "r"(parity)
               : "memory");
}
__device__ inline void load(void *dst, const void *src, uint32_t bytes,
                            uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(u32(dst)),
               "l"(src), "r"(bytes), "r"(u32(bar))
               : "memory");
}

constexpr int Second = 1;

// The second buffer's count is that of half a tile.
__global__ void twoBarriersWrongCount(const char *src, char *dst) {
  __shared__ alignas(128) char tile[2][4096];
  __shared__ alignas(8) uint64_t bar[2];
  if (threadIdx.x == 0) {
    init(&bar[0], 1);
    init(&bar[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expect(&bar[0], 4096);
    load(tile[0], src, 4096, &bar[0]);
    expect(&bar[Second], 2048);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 2048 bytes on 'bar[Second]' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: this copy delivers 4096 bytes to 'bar[Second]'
    load(tile[1], src + 4096, 4096, &bar[1]);
  }
  wait(&bar[0], 0);
  wait(&bar[1], 0);
  dst[threadIdx.x] = tile[0][threadIdx.x] + tile[1][threadIdx.x];
}

__global__ void twoBarriersRightCount(const char *src, char *dst) {
  __shared__ alignas(128) char tile[2][4096];
  __shared__ alignas(8) uint64_t bar[2];
  if (threadIdx.x == 0) {
    init(&bar[0], 1);
    init(&bar[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expect(&bar[0], 4096);
    load(tile[0], src, 4096, &bar[0]);
    expect(&bar[Second], 4096);
    load(tile[1], src + 4096, 4096, &bar[1]);
  }
  wait(&bar[0], 0);
  wait(&bar[1], 0);
  dst[threadIdx.x] = tile[0][threadIdx.x] + tile[1][threadIdx.x];
}

// The same in a struct of barriers, one field an array.
struct Barriers {
  uint64_t full[2];
  uint64_t done;
};

__global__ void structElementsWrongCount(const char *src, char *dst) {
  __shared__ alignas(128) char tile[2][4096];
  __shared__ Barriers st;
  if (threadIdx.x == 0) {
    init(&st.full[0], 1);
    init(&st.full[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expect(&st.full[1], 4096 + 4096);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: expect-tx of 8192 bytes on 'st.full[1]' but the copies completing on it in this phase deliver 4096 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: this copy delivers 4096 bytes to 'st.full[1]'
    expect(&st.full[0], 4096);
    load(tile[0], src, 4096, &st.full[0]);
    load(tile[1], src + 4096, 4096, &st.full[1]);
  }
  wait(&st.full[0], 0);
  wait(&st.full[1], 0);
  dst[threadIdx.x] = tile[0][threadIdx.x] + tile[1][threadIdx.x];
}

__global__ void structElementsRightCount(const char *src, char *dst) {
  __shared__ alignas(128) char tile[2][4096];
  __shared__ Barriers st;
  if (threadIdx.x == 0) {
    init(&st.full[0], 1);
    init(&st.full[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expect(&st.full[1], 4096);
    expect(&st.full[0], 4096);
    load(tile[0], src, 4096, &st.full[0]);
    load(tile[1], src + 4096, 4096, &st.full[1]);
  }
  wait(&st.full[0], 0);
  wait(&st.full[1], 0);
  dst[threadIdx.x] = tile[0][threadIdx.x] + tile[1][threadIdx.x];
}

// Silent: `bar` (the array's first element, as a pointer) next to `bar[1]`,
// and an index that does not fold, may name the counted barrier.
__global__ void arrayAndElementUnsure(const char *src, char *dst, int k) {
  __shared__ alignas(128) char tile[2][4096];
  __shared__ alignas(8) uint64_t bar[2];
  if (threadIdx.x == 0) {
    init(&bar[0], 1);
    init(&bar[1], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    expect(bar, 2048);
    load(tile[0], src, 4096, &bar[0]);
    expect(&bar[1], 2048);
    load(tile[1], src + 4096, 4096, &bar[k]);
  }
  wait(&bar[0], 0);
  wait(&bar[1], 0);
  dst[threadIdx.x] = tile[0][threadIdx.x] + tile[1][threadIdx.x];
}
