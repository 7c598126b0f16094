// tma-bulk-copy.ExplainSilence (issue 28 item 1): a `silent:` warning per
// rule that judged nothing on a copy for want of a fact, naming the fact:
// a box in dynamic shared memory (its start may be more aligned than
// declared; the bytes to its end are set at launch), an integer address the
// checker does not trace, a map no launch links to an encode call. A copy
// whose facts are all known gets a finding (the wrong kernel) or nothing
// (its correct twin): no `silent:` line for a rule that judged.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.ExplainSilence: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.ExplainSilence: true}}" -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;

__device__ static inline void loadTo(uint32_t dst, const CUtensorMap *map,
                                     uint64_t *bar) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst), "l"(tma_ptr), "r"(mbar_ptr), "r"(0), "r"(0)
               : "memory");
}
__device__ static inline void load(bf16 *dst, const CUtensorMap *map,
                                   uint64_t *bar) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
               :: "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "r"(0), "r"(0)
               : "memory");
}

CUtensorMap encode(bf16 *ptr) {
  uint64_t dims[2] = {1024, 1024};
  uint64_t strides[1] = {2048};
  uint32_t box[2] = {64, 16};
  uint32_t estrides[2] = {1, 1};
  CUtensorMap map;
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

// Dynamic shared memory: silent, and says why.
__global__ void pool(const __grid_constant__ CUtensorMap map) {
  extern __shared__ __align__(128) bf16 smem[];
  __shared__ uint64_t bar;
  load(smem + 2048, &map, &bar);
}

// A shared-window address kept as an integer (learn-cuda's matmul_v1) is
// traced through its arithmetic: proven aligned, silent. One that a
// function the model cannot see returns is not traced.
__device__ int opaqueBase();
__global__ void integerAddress(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 tile[64 * 16];
  __shared__ uint64_t bar;
  const int base = static_cast<int>(__cvta_generic_to_shared(tile));
  loadTo(base + 0, &map, &bar);
  loadTo(opaqueBase() + 0, &map, &bar);
}

// A map that no launch of this file passes: the map rules stay silent.
__global__ void unlinked(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 tile[64 * 16];
  __shared__ uint64_t bar;
  load(tile, map, &bar);
}

// Every fact known: the wrong kernel is reported, its twin is silent, and
// neither has a `silent:` line.
__global__ void static16(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(16) bf16 tile[64 * 16];
  __shared__ uint64_t bar;
  load(tile, &map, &bar);
}
__global__ void static1024(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(1024) bf16 tile[64 * 16];
  __shared__ uint64_t bar;
  load(tile, &map, &bar);
}

void run(bf16 *a) {
  CUtensorMap m = encode(a);
  pool<<<1, 128, 8192>>>(m);
  integerAddress<<<1, 128>>>(m);
  static16<<<1, 128>>>(m);
  static1024<<<1, 128>>>(m);
}

// Every diagnostic (line numbers of the code above).
// CHECK-MESSAGES: :22:3: warning: silent: TMA-SMEM-ALIGN-128: the address is not traced to a __shared__ variable (an integer shared-window address that is not __cvta_generic_to_shared of one plus offsets) (in kernel 'integerAddress') [tma-bulk-copy]
// CHECK-MESSAGES: :22:3: warning: silent: TMA-SMEM-ALIGN-SWIZZLE, TMA-SMEM-FOOTPRINT: the box's shared-memory address is not traced to a __shared__ variable (an integer shared-window address) (in kernel 'integerAddress') [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: warning: silent: TMA-DIM-EQ-RANK, TMA-SMEM-ALIGN-SWIZZLE, TMA-SMEM-FOOTPRINT and the other rules against the map: the tensor map is not linked to a host encode call (no launch or cudaMemcpyToSymbol of this translation unit passes it) (called from 'unlinked') [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: warning: silent: TMA-SMEM-ALIGN-128: 'smem' is dynamic shared memory, whose start may be aligned to more than the 128 bytes the code declares: only an offset that breaks 128 bytes is proven (in kernel 'pool') [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: warning: silent: TMA-SMEM-ALIGN-SWIZZLE: the alignment of the box's shared-memory address is not proven: 'smem' is dynamic shared memory, whose start may be aligned to more than the 128 bytes the code declares: only an offset that breaks 128 bytes is proven (in kernel 'pool') [tma-bulk-copy]
// CHECK-MESSAGES: :32:3: warning: silent: TMA-SMEM-FOOTPRINT: the bytes from the box's address to the end of its buffer are not known (dynamic shared memory, or a run-time offset) (in kernel 'pool') [tma-bulk-copy]
// CHECK-MESSAGES: :83:8: warning: cp.async.bulk.tensor shared-memory address is guaranteed only 16-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
