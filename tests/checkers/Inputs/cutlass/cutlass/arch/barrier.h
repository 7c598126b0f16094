// Stand-ins for the SM 90 barriers of CUTLASS's cutlass/arch/barrier.h,
// written for these tests: the class, member and parameter names user code
// calls, and, like CUTLASS, each static form issues one inline-PTX
// instruction in device code for SM 90+ only. This directory is included
// both as a user (-I) and as a system (-isystem) directory.

#ifndef TMA_TEST_CUTLASS_ARCH_BARRIER_H
#define TMA_TEST_CUTLASS_ARCH_BARRIER_H

#include <cuda_runtime.h>
#include <stdint.h>

__device__ size_t __cvta_generic_to_shared(const void *);

namespace cute {
__host__ __device__ inline uint32_t cast_smem_ptr_to_uint(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
} // namespace cute

namespace cutlass {
namespace arch {

struct ClusterBarrier {
  using ValueType = uint64_t;

protected:
  ValueType barrier_;

public:
  __device__ void init(uint32_t arrive_count) const {
    ClusterBarrier::init(&this->barrier_, arrive_count);
  }

  __host__ __device__ static void init(ValueType const *smem_ptr,
                                       uint32_t arrive_count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("mbarrier.init.shared::cta.b64 [%1], %0;"
                 :: "r"(arrive_count), "r"(smem_addr));
#endif
  }

#ifdef TMA_TEST_CLUSTER_BARRIER_WAIT // only where a test asks for them
  __device__ void wait(uint32_t phase) const {
    ClusterBarrier::wait(&this->barrier_, phase);
  }
  __host__ __device__ static void wait(ValueType const *smem_ptr,
                                       uint32_t phase) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t.reg .pred P1; \n\tLAB_WAIT: \n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; \n\t"
                 "@P1 bra DONE; \n\tbra LAB_WAIT; \n\tDONE: \n\t}"
                 :: "r"(smem_addr), "r"(phase));
#endif
  }

  __device__ void arrive() const { ClusterBarrier::arrive(&this->barrier_); }
  __host__ __device__ static void arrive(ValueType const *smem_ptr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
                 :: "r"(smem_addr));
#endif
  }
#endif // TMA_TEST_CLUSTER_BARRIER_WAIT
};

struct ClusterTransactionBarrier : public ClusterBarrier {
  __device__ void arrive_and_expect_tx(uint32_t transaction_bytes) const {
    ClusterTransactionBarrier::arrive_and_expect_tx(&this->barrier_,
                                                    transaction_bytes);
  }
  __device__ void arrive_and_expect_tx(uint32_t transaction_bytes,
                                       uint32_t cta_id,
                                       uint32_t pred = 1u) const {
    ClusterTransactionBarrier::arrive_and_expect_tx(
        &this->barrier_, transaction_bytes, cta_id, pred);
  }
  __device__ void expect_transaction(uint32_t transaction_bytes) const {
    ClusterTransactionBarrier::expect_transaction(&this->barrier_,
                                                  transaction_bytes);
  }

  __host__ __device__ static void
  arrive_and_expect_tx(ValueType const *smem_ptr, uint32_t transaction_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;"
                 :: "r"(transaction_bytes), "r"(smem_addr));
#endif
  }
  __host__ __device__ static void
  arrive_and_expect_tx(ValueType const *smem_ptr, uint32_t transaction_bytes,
                       uint32_t cta_id, uint32_t pred) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 ra;\n\t"
                 "setp.eq.u32 p, %2, 1;\n\t"
                 "@p mapa.shared::cluster.u32 ra, %0, %1;\n\t"
                 "@p mbarrier.arrive.expect_tx.shared::cluster.b64 _, [ra], "
                 "%3;\n\t}"
                 :: "r"(smem_addr), "r"(cta_id), "r"(pred),
                    "r"(transaction_bytes));
#endif
  }
  __host__ __device__ static void
  expect_transaction(ValueType const *smem_ptr, uint32_t transaction_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t smem_addr = cute::cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("mbarrier.expect_tx.shared::cta.b64 [%1], %0;"
                 :: "r"(transaction_bytes), "r"(smem_addr));
#endif
  }
};

} // namespace arch
} // namespace cutlass

#endif // TMA_TEST_CUTLASS_ARCH_BARRIER_H
