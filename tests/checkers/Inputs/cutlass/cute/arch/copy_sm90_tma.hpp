// Stand-ins for the SM 90 TMA copy atoms of CuTe's cute/arch/copy_sm90_tma.hpp,
// written for these tests: SM90_TMA_LOAD_<N>D, SM90_TMA_LOAD_MULTICAST_<N>D
// and SM90_TMA_STORE_<N>D with CuTe's parameter lists; each static copy
// issues one cp.async.bulk.tensor in device code for SM 90+ only. This
// directory is included both as a user (-I) and as a system (-isystem)
// directory.

#ifndef TMA_TEST_CUTE_ARCH_COPY_SM90_TMA_HPP
#define TMA_TEST_CUTE_ARCH_COPY_SM90_TMA_HPP

#include <cutlass/arch/barrier.h>

namespace cute {

struct SM90_TMA_LOAD_1D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%3}], "
                 "[%2], %4;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "r"(crd0),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_MULTICAST_1D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint16_t multicast_mask,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster.L2::cache_hint "
                 "[%0], [%1, {%4}], [%2], %3, %5;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "h"(multicast_mask),
                    "r"(crd0), "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_STORE_1D {
  __host__ __device__ static void copy(void const *desc_ptr,
                                       void const *smem_ptr,
                                       int32_t const &crd0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group "
                 "[%0, {%2}], [%1];"
                 :: "l"(desc), "r"(smem), "r"(crd0)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_2D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, %4}], "
                 "[%2], %5;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "r"(crd0), "r"(crd1),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_MULTICAST_2D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint16_t multicast_mask,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster.L2::cache_hint "
                 "[%0], [%1, {%4, %5}], [%2], %3, %6;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "h"(multicast_mask),
                    "r"(crd0), "r"(crd1), "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_STORE_2D {
  __host__ __device__ static void copy(void const *desc_ptr,
                                       void const *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3}], [%1];"
                 :: "l"(desc), "r"(smem), "r"(crd0), "r"(crd1)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_3D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, %4, %5}], "
                 "[%2], %6;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "r"(crd0), "r"(crd1),
                    "r"(crd2),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_MULTICAST_3D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint16_t multicast_mask,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster.L2::cache_hint "
                 "[%0], [%1, {%4, %5, %6}], [%2], %3, %7;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "h"(multicast_mask),
                    "r"(crd0), "r"(crd1), "r"(crd2), "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_STORE_3D {
  __host__ __device__ static void copy(void const *desc_ptr,
                                       void const *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4}], [%1];"
                 :: "l"(desc), "r"(smem), "r"(crd0), "r"(crd1), "r"(crd2)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_4D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, %4, %5, "
                 "%6}], "
                 "[%2], %7;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "r"(crd0), "r"(crd1),
                    "r"(crd2), "r"(crd3),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_MULTICAST_4D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint16_t multicast_mask,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster.L2::cache_hint "
                 "[%0], [%1, {%4, %5, %6, %7}], [%2], %3, %8;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "h"(multicast_mask),
                    "r"(crd0), "r"(crd1), "r"(crd2), "r"(crd3), "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_STORE_4D {
  __host__ __device__ static void copy(void const *desc_ptr,
                                       void const *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5}], [%1];"
                 :: "l"(desc), "r"(smem), "r"(crd0), "r"(crd1), "r"(crd2),
                    "r"(crd3)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_5D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3,
                                       int32_t const &crd4) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, %4, %5, "
                 "%6, %7}], "
                 "[%2], %8;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "r"(crd0), "r"(crd1),
                    "r"(crd2), "r"(crd3), "r"(crd4),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_LOAD_MULTICAST_5D {
  __host__ __device__ static void copy(void const *desc_ptr, uint64_t *mbar_ptr,
                                       uint16_t multicast_mask,
                                       uint64_t cache_hint, void *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3,
                                       int32_t const &crd4) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t mbar = cast_smem_ptr_to_uint(mbar_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster.L2::cache_hint "
                 "[%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3, %9;"
                 :: "r"(smem), "l"(desc), "r"(mbar), "h"(multicast_mask),
                    "r"(crd0), "r"(crd1), "r"(crd2), "r"(crd3), "r"(crd4),
                    "l"(cache_hint)
                 : "memory");
#endif
  }
};

struct SM90_TMA_STORE_5D {
  __host__ __device__ static void copy(void const *desc_ptr,
                                       void const *smem_ptr,
                                       int32_t const &crd0,
                                       int32_t const &crd1,
                                       int32_t const &crd2,
                                       int32_t const &crd3,
                                       int32_t const &crd4) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint64_t desc = reinterpret_cast<uint64_t>(desc_ptr);
    uint32_t smem = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5, %6}], [%1];"
                 :: "l"(desc), "r"(smem), "r"(crd0), "r"(crd1), "r"(crd2),
                    "r"(crd3), "r"(crd4)
                 : "memory");
#endif
  }
};

} // namespace cute

#endif // TMA_TEST_CUTE_ARCH_COPY_SM90_TMA_HPP
