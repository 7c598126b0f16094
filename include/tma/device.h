//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Header-only C++17; depends on <cuda.h> and the standard
// library only. Documentation: docs/runtime.md.
//
//===----------------------------------------------------------------------===//
//
// Device-side helpers from the rule model:
//
// - tma::tile_bytes<DataType, Box...>: the bytes one `.tile` tensor copy of
//   that box delivers, the count its mbarrier's expect-tx must add up to
//   (MBAR-TX-EQUALS-BYTES), computed at compile time by the same formula as
//   the checker's (tma/rules/CopyBytes.h);
// - tma::debug_check_tensor_smem / debug_check_bulk_smem: in debug builds
//   (NDEBUG not defined), trap with the rule id when a copy's shared-memory
//   address breaks TMA-SMEM-ALIGN-128, TMA-SMEM-ALIGN-SWIZZLE or
//   BULK-ADDR-ALIGN16. Nothing in release builds.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_DEVICE_H
#define TMA_DEVICE_H

#include "rules/CopyBytes.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace tma {

namespace detail {
template <std::size_t N>
constexpr std::uint64_t tileBytes(CUtensorMapDataType DataType,
                                  const std::uint64_t (&Box)[N],
                                  const std::uint64_t (&ElementStrides)[N]) {
  return rules::tileBoxBytes(rules::copyElementBytes(DataType), N, Box,
                             ElementStrides);
}
} // namespace detail

/// The bytes one non-interleaved `.tile` copy of a \p Box box of
/// \p DataType delivers (element strides 1): the expect-tx count of the
/// copy. For example tile_bytes<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 64, 64> is
/// 8192. A compile-time error for a box the driver rejects and for the
/// packed types (whose count tma-rules.md leaves unconfirmed).
template <CUtensorMapDataType DataType, cuuint32_t... Box>
inline constexpr std::uint32_t tile_bytes = [] {
  static_assert(sizeof...(Box) >= 1 && sizeof...(Box) <= 5,
                "a tile box has 1 to 5 dimensions");
  constexpr std::uint64_t Dims[] = {Box...};
  constexpr std::uint64_t Ones[] = {((void)Box, std::uint64_t{1})...};
  constexpr std::uint64_t Bytes = detail::tileBytes(DataType, Dims, Ones);
  static_assert(Bytes != 0, "each box dimension is 1..256, and the data type "
                            "is not packed (TMAP-TILED-BOX-RANGE)");
  return static_cast<std::uint32_t>(Bytes);
}();

/// tile_bytes with element strides: each dimension i >= 1 delivers
/// ceil(boxDim[i] / elementStrides[i]) elements.
template <std::size_t N>
constexpr std::uint32_t
tile_bytes_strided(CUtensorMapDataType DataType, const cuuint32_t (&Box)[N],
                   const cuuint32_t (&ElementStrides)[N]) {
  std::uint64_t B[N] = {}, S[N] = {};
  for (std::size_t I = 0; I < N; ++I) {
    B[I] = Box[I];
    S[I] = ElementStrides[I];
  }
  return static_cast<std::uint32_t>(detail::tileBytes(DataType, B, S));
}

#if defined(__CUDACC__)

/// In debug builds, traps unless \p Smem, the shared-memory box of a tensor
/// copy, is 128-byte aligned (TMA-SMEM-ALIGN-128) and, for a map that
/// swizzles, aligned to the swizzle repeat (TMA-SMEM-ALIGN-SWIZZLE).
__device__ inline void debug_check_tensor_smem(
    const void *Smem, CUtensorMapSwizzle Swizzle = CU_TENSOR_MAP_SWIZZLE_NONE) {
#ifndef NDEBUG
  // The generic address: the shared window starts far above any alignment
  // checked here.
  auto Address = reinterpret_cast<std::uintptr_t>(Smem);
  std::uint64_t Repeat = rules::swizzleRepeat(Swizzle);
  if (Address % rules::TmaSmemAlign) {
    printf("tma: shared-memory box %p of a tensor copy is not %u-byte "
           "aligned (TMA-SMEM-ALIGN-128)\n",
           Smem, static_cast<unsigned>(rules::TmaSmemAlign));
    __trap();
  }
  if (Repeat && Address % Repeat) {
    printf("tma: shared-memory box %p is not aligned to the %u-byte repeat "
           "of its swizzle (TMA-SMEM-ALIGN-SWIZZLE)\n",
           Smem, static_cast<unsigned>(Repeat));
    __trap();
  }
#else
  (void)Smem;
  (void)Swizzle;
#endif
}

/// In debug builds, traps unless \p Smem, a shared-memory address of a 1-D
/// bulk copy, is 16-byte aligned (BULK-ADDR-ALIGN16).
__device__ inline void debug_check_bulk_smem(const void *Smem) {
#ifndef NDEBUG
  if (reinterpret_cast<std::uintptr_t>(Smem) % rules::BulkAddrAlign) {
    printf("tma: shared-memory address %p of a bulk copy is not %u-byte "
           "aligned (BULK-ADDR-ALIGN16)\n",
           Smem, static_cast<unsigned>(rules::BulkAddrAlign));
    __trap();
  }
#else
  (void)Smem;
#endif
}

#endif // __CUDACC__

} // namespace tma

#endif // TMA_DEVICE_H
