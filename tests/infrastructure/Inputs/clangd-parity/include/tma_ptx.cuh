// PTX wrappers, the normal layout: a header the kernels include.
#pragma once
#include <cstdint>
#include <cuda.h>

__device__ static inline uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ static inline void mbarInit(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}

__device__ static inline void expectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddr(bar)),
               "r"(bytes)
               : "memory");
}

__device__ static inline void bulkLoad(void *dst, const void *src,
                                       uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(smemAddr(dst)),
               "l"(src), "r"(bytes), "r"(smemAddr(bar))
               : "memory");
}

__device__ static inline void tmaLoad2d(void *dst, const CUtensorMap *map,
                                        uint64_t *bar, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   smemAddr(dst)),
               "l"(map), "r"(smemAddr(bar)), "r"(x), "r"(y)
               : "memory");
}

__device__ static inline void tmaStore2d(const CUtensorMap *map, void *src,
                                         int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];" ::"l"(map),
               "r"(smemAddr(src)), "r"(x), "r"(y)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
}

__device__ static inline void mbarWait(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n.reg .pred p;\nWAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra WAIT;\n}" ::"r"(smemAddr(bar)),
               "r"(phase)
               : "memory");
}
