// The PTX ISA 9.2-9.4 forms of tma-rules.md 11.B, and the value rules of
// instruction forms: BULK-IGNORE-OOB (cp.async.bulk.ignore_oob counts),
// MBAR-INIT-COUNT-LAYOUT (mbarrier.init.layout::v1), BULK-ST-SIZE (st.bulk),
// BULK-REDUCE-OP-TYPE (cp.reduce.async.bulk .redOp/.type) and
// BULK-MULTICAST (constant ctaMask against __cluster_dims__; launch-time
// clusters in bulk-copy-multicast.cu). Forms that
// are parsed but have nothing wrong, and forms that are not modelled,
// stay silent. The forms are PTX ISA 9.2-9.4: the runs compile against
// CUDA 13.4 (-DCUDA_VERSION=13040); bulk-copy-ptx-isa.cu has them against
// older toolkits (TMA-PTX-ISA).
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -DCUDA_VERSION=13040 --no-cuda-gpu-arch=sm_90a --cuda-gpu-arch=sm_100a
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host -DCUDA_VERSION=13040

#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
// cuda::ptx::st_bulk as CCCL declares it, which the stub headers lack.
namespace cuda::ptx {
inline namespace __4 {
template <int N> using n32_t = ::cuda::std::integral_constant<int, N>;
template <int N32>
__device__ static inline void st_bulk(void *addr, uint64_t size,
                                      n32_t<N32> initval);
} // namespace __4
} // namespace cuda::ptx

__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

//===----------------------------------------------------------------------===//
// BULK-IGNORE-OOB
//===----------------------------------------------------------------------===//

__device__ void ignoreOob(void *dst, const void *src, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], %2, %3, %4, [%5];"
               :: "r"(smem(dst)), "l"(src), "r"(256), "r"(4), "r"(16),
                  "r"(smem(bar))
               : "memory");
  // CHECK-NOTES: :[[@LINE-3]]:67: warning: cp.async.bulk ignoreBytesRight is 16 bytes, outside the valid range [0, 15] of .ignore_oob (BULK-IGNORE-OOB) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:67: note: copy from a 16-byte aligned start and ignore at most 15 bytes at each end
  // The counts in the text; the size rule still applies.
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 24, 20, 15, [%2];"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)) : "memory");
  // CHECK-NOTES: :[[@LINE-3]]:3: warning: cp.async.bulk ignoreBytesLeft is 20 bytes, outside the valid range [0, 15] of .ignore_oob (BULK-IGNORE-OOB) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: copy from a 16-byte aligned start and ignore at most 15 bytes at each end
  // CHECK-NOTES: :[[@LINE-5]]:3: warning: cp.async.bulk size is 24 bytes, not a multiple of 16 bytes (BULK-SIZE-MUL16) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: pad the transfer to 32 bytes
}

// Correct twin: counts in [0, 15], and the PTX 9.3 .relaxed form.
__device__ void ignoreOobRight(void *dst, const void *src, uint64_t *bar,
                               uint32_t left, uint32_t right) {
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], %2, %3, %4, [%5];"
               :: "r"(smem(dst)), "l"(src), "r"(256), "r"(0), "r"(15),
                  "r"(smem(bar))
               : "memory");
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], %2, %3, %4, [%5];"
               :: "r"(smem(dst)), "l"(src), "r"(256), "r"(left),
                  "r"(right), "r"(smem(bar))
               : "memory");
  asm volatile("cp.async.bulk.relaxed.gpu.shared::cta.global.mbarrier::"
               "complete_tx::bytes.b128 [%0], [%1], %2, [%3];"
               :: "r"(smem(dst)), "l"(src), "r"(512), "r"(smem(bar))
               : "memory");
}

//===----------------------------------------------------------------------===//
// MBAR-INIT-COUNT-LAYOUT
//===----------------------------------------------------------------------===//

__global__ void layouts() {
  __shared__ uint64_t bar[3];
  asm volatile("mbarrier.init.layout::v1.shared::cta.b64 [%0], %1;"
               :: "r"(smem(&bar[0])), "r"(512));
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: mbarrier.init count is 512 arrivals, outside the range [1, 511] of a .layout::v1 barrier (MBAR-INIT-COUNT-LAYOUT) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:43: note: initialise a .layout::v0 barrier (up to 2^20-1 arrivals), or count fewer arrivals
  // Correct twins: 511 on v1; 512 on v0, written or not.
  asm volatile("mbarrier.init.layout::v1.shared::cta.b64 [%0], 511;"
               :: "r"(smem(&bar[1])));
  asm volatile("mbarrier.init.layout::v0.shared::cta.b64 [%0], 512;"
               :: "r"(smem(&bar[2])));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 512;"
               :: "r"(smem(&bar[2])));
}

//===----------------------------------------------------------------------===//
// BULK-ST-SIZE
//===----------------------------------------------------------------------===//

__global__ void stBulk() {
  __shared__ alignas(16) uint64_t zeros[1024];
  asm volatile("st.bulk.weak.shared::cta [%0], %1, 0;"
               :: "r"(smem(zeros)), "l"(uint64_t{12}) : "memory");
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: st.bulk size is 12 bytes, not a multiple of 8 bytes (BULK-ST-SIZE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: fill 16 bytes
  asm volatile("st.bulk.weak.shared::cta [%0], %1, 1;"
               :: "r"(smem(zeros)), "l"(uint64_t{64}) : "memory");
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: st.bulk initval is 1; st.bulk only fills with 0 (BULK-ST-SIZE) [tma-bulk-copy]
  asm volatile("st.bulk [%0], 16777224, 0;" :: "l"(zeros) : "memory");
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: st.bulk size is 16777224 bytes, above the st.bulk maximum of 16777216 bytes (16 MiB) (BULK-ST-SIZE) [tma-bulk-copy]
  cuda::ptx::st_bulk(zeros, 20, cuda::ptx::n32_t<0>{});
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: cuda::ptx::st_bulk size is 20 bytes, not a multiple of 8 bytes (BULK-ST-SIZE) [tma-bulk-copy]
  // CHECK-NOTES: :[[@LINE-2]]:29: note: fill 24 bytes
  // Correct twins.
  asm volatile("st.bulk.weak.shared::cta [%0], %1, 0;"
               :: "r"(smem(zeros)), "l"(sizeof(zeros)) : "memory");
  cuda::ptx::st_bulk(zeros, 4096, cuda::ptx::n32_t<0>{});
}

//===----------------------------------------------------------------------===//
// BULK-REDUCE-OP-TYPE
//===----------------------------------------------------------------------===//

__device__ void reductions(float *g, const void *s, void *remote,
                           uint64_t *bar) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32"
               " [%0], [%1], 256;" :: "l"(g), "r"(smem(s)) : "memory");
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: cp.reduce.async.bulk .min.f32 is not a reduction PTX defines for a .global destination (BULK-REDUCE-OP-TYPE) [tma-bulk-copy]
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.bf16"
               " [%0], [%1], 256;" :: "l"(g), "r"(smem(s)) : "memory");
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: cp.reduce.async.bulk .add.bf16 requires the .noftz qualifier (BULK-REDUCE-OP-TYPE) [tma-bulk-copy]
  asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::"
               "complete_tx::bytes.add.f32 [%0], [%1], 256, [%2];"
               :: "r"(smem(remote)), "r"(smem(s)), "r"(smem(bar))
               : "memory");
  // CHECK-NOTES: :[[@LINE-4]]:3: warning: cp.reduce.async.bulk .add.f32 is not a reduction PTX defines for a .shared::cluster destination (BULK-REDUCE-OP-TYPE) [tma-bulk-copy]
  // Correct twins.
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32"
               " [%0], [%1], 256;" :: "l"(g), "r"(smem(s)) : "memory");
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz"
               ".bf16 [%0], [%1], 256;" :: "l"(g), "r"(smem(s)) : "memory");
  asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::"
               "complete_tx::bytes.add.u32 [%0], [%1], 256, [%2];"
               :: "r"(smem(remote)), "r"(smem(s)), "r"(smem(bar))
               : "memory");
}

//===----------------------------------------------------------------------===//
// BULK-MULTICAST
//===----------------------------------------------------------------------===//

__device__ void multicastCopy(void *dst, const void *src, uint64_t *bar,
                              uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)), "h"(mask)
               : "memory");
}

// A pair cluster: CTA ranks 0 and 1.
__global__ void __cluster_dims__(2, 1, 1) pair(const float *src) {
  __shared__ alignas(16) float buf[64];
  __shared__ uint64_t bar;
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
               :: "r"(smem(buf)), "l"(src), "r"(smem(&bar)),
                  "h"((uint16_t)0x5)
               : "memory");
  // CHECK-NOTES: :[[@LINE-2]]:23: warning: cp.async.bulk ctaMask 0x5 selects CTA rank 2, but the cluster has 2 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pair'
  // CHECK-NOTES: :[[@LINE-4]]:23: note: keep the mask within the cluster's 2 low bits
  // Correct twin: both CTAs of the pair.
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
               :: "r"(smem(buf)), "l"(src), "r"(smem(&bar)),
                  "h"((uint16_t)0x3)
               : "memory");
  // Through a helper: reported at the call, on both passes.
  multicastCopy(buf, src, &bar, 0x5);
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: cp.async.bulk ctaMask 0x5 selects CTA rank 2, but the cluster has 2 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pair'
  // CHECK-NOTES: :{{[0-9]+}}:3: note: passed to the ctaMask of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-4]]:33: note: keep the mask within the cluster's 2 low bits
}

// No __cluster_dims__: the cluster is set at launch, unknown here.
__global__ void anyCluster(const float *src) {
  __shared__ alignas(16) float buf[64];
  __shared__ uint64_t bar;
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
               :: "r"(smem(buf)), "l"(src), "r"(smem(&bar)),
                  "h"((uint16_t)0xffff)
               : "memory");
}

//===----------------------------------------------------------------------===//
// Forms that are parsed and right, or not modelled: silent
//===----------------------------------------------------------------------===//

__device__ void silentForms(void *dst, const CUtensorMap *map, void *g,
                            uint64_t *bar, int x) {
  // PTX 9.4 address override (parsed).
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.cta_group::1.mbarrier::report::disabled."
               "override::global_address [%0], [%1, %2, {%3}], [%4];"
               :: "r"(smem(dst)), "l"(map), "l"(g), "r"(x), "r"(smem(bar))
               : "memory");
  // PTX 9.4 attribute override (not modelled).
  asm volatile("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
               "complete_tx::bytes.override::global_address."
               "override_attribute [%0], [%1, %2, {%3}, {%4}], [%5];"
               :: "r"(smem(dst)), "l"(map), "l"(g), "h"((uint16_t)1),
                  "r"(x), "r"(smem(bar))
               : "memory");
  // A malformed .ignore_oob (no counts): not a copy the model reads.
  asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
               ".ignore_oob [%0], [%1], 20, [%2];"
               :: "r"(smem(dst)), "l"(g), "r"(smem(bar)) : "memory");
}
