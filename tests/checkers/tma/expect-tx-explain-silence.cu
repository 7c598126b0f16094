// tma-expect-tx.ExplainSilence (issue 28 item 1): a `silent:` warning at an
// expect-tx whose phase MBAR-TX-EQUALS-BYTES could not compare, naming the
// missing fact: a box not folded (the encode call's boxDim from a run-time
// value), a map no launch links to an encode call, a count or a size that
// does not fold, a phase the model does not count. A phase whose facts are
// all known gets a finding (the wrong kernel) or nothing (its correct
// twin): no `silent:` line there.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.ExplainSilence: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin --config="{CheckOptions: {tma-expect-tx.ExplainSilence: true}}" -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
typedef unsigned short bf16;

CUtensorMap encode(bf16 *ptr, uint32_t rows) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {2048};
  uint32_t box[2] = {64, rows};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

// One tile on one barrier, counted 64 x 64 bf16 = 8192 bytes.
__global__ void tile(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 0, 0, bar);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(bar, 1, 8192);
  }
}

// The map's box comes from a run-time row count.
__global__ void runtimeBox(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 0, 0, bar);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(bar, 1, 8192);
  }
}

// A map in global memory that no launch of this file passes.
__global__ void unlinked(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s, map, 0, 0, bar);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(bar, 1, 8192);
  }
}

// A count from a kernel parameter no launch folds.
__global__ void runtimeCount(const __grid_constant__ CUtensorMap map,
                             int bytes) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 0, 0, bar);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(bar, 1, bytes);
  }
}

// Copies in both branches of one if: a phase the model does not count.
__global__ void eitherBranch(const __grid_constant__ CUtensorMap map, int k) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    if (k > 0)
      cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 0, 0, bar);
    else
      cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 64, 0, bar);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(bar, 1, 8192);
  }
}

// A barrier at an integer shared-window address: in no phase.
__global__ void integerBarrier(unsigned base) {
  if (threadIdx.x == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(base + 8), "r"(8192) : "memory");
}

// The wrong kernel: the count forgets half the tile; its twin above
// (`tile`) is proven equal and silent.
__global__ void halfTile(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 s[64 * 64];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s, &map, 0, 0, bar);
    auto half = cuda::device::barrier_arrive_tx(bar, 1, 4096);
    // CHECK-FIXES: auto half = cuda::device::barrier_arrive_tx(bar, 1, 8192);
  }
}

void run(bf16 *a, uint32_t rows, int bytes) {
  CUtensorMap m = encode(a, 64);
  CUtensorMap r = encode(a, rows);
  tile<<<1, 128>>>(m);
  runtimeBox<<<1, 128>>>(r);
  runtimeCount<<<1, 128>>>(m, bytes);
  eitherBranch<<<1, 128>>>(m, bytes);
  halfTile<<<1, 128>>>(m);
}

// The only expect-tx of the phase names its barrier through the cluster
// window (`.shared::cluster`): not counted, and the reason names it.
__device__ size_t __cvta_generic_to_shared(const void *);
__global__ void clusterWindowExpect(const bf16 *g) {
  __shared__ alignas(128) bf16 s[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(s));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [%0], [%1], %2, [%3];"
                 :: "r"(d), "l"(g), "r"(2048), "r"(b) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cluster.b64 "
                 "_, [%0], %1;" :: "r"(b), "r"(2048) : "memory");
  }
}



// Every diagnostic (line numbers of the code above).
// CHECK-MESSAGES: :52:9: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the box of the copy at line 50 is not folded (boxDim[1] of the encode call at line 26) [tma-expect-tx]
// CHECK-MESSAGES: :63:9: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the tensor map of the copy at line 61 is not linked to a host encode call [tma-expect-tx]
// CHECK-MESSAGES: :75:9: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the count of the expect-tx at line 75 is not folded (it reads the kernel parameter 'bytes') [tma-expect-tx]
// CHECK-MESSAGES: :89:9: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the phase is not counted: ops in both branches of one if [tma-expect-tx]
// CHECK-MESSAGES: :96:5: warning: silent: MBAR-TX-EQUALS-BYTES: the expect-tx's barrier is not identified (an address the model cannot name, such as an integer shared-window address): it is in no phase [tma-expect-tx]
// CHECK-MESSAGES: :107:17: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 8192 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :134:5: warning: silent: MBAR-TX-EQUALS-BYTES: expect-tx on 'bar': the phase is not counted: the expect-tx at line 134 names a cluster-window barrier address: its bytes are not counted [tma-expect-tx]
