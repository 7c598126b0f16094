//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/device.h> compile the same formulas.
//
//===----------------------------------------------------------------------===//
//
// The bytes a tensor copy delivers to shared memory (and to its mbarrier's
// transaction count, MBAR-TX-EQUALS-BYTES), and the shared-memory alignments
// of TMA-SMEM-ALIGN-128, TMA-SMEM-ALIGN-SWIZZLE and BULK-ADDR-ALIGN16.
// constexpr on plain integers, so that device code can use them at compile
// time; 0 stands for "not known" where a count cannot be 0.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_COPYBYTES_H
#define TMA_RULES_COPYBYTES_H

#include "DataTypes.h"

#include <cstdint>

// The arithmetic below also runs in device code (<tma/device.h>).
#if defined(__CUDACC__)
#define TMA_RULES_HD __host__ __device__
#else
#define TMA_RULES_HD
#endif

namespace tma::rules {

/// The alignment of every bulk-copy address (BULK-ADDR-ALIGN16).
constexpr std::uint64_t BulkAddrAlign = 16;
/// The alignment of a tensor copy's shared-memory box (TMA-SMEM-ALIGN-128).
constexpr std::uint64_t TmaSmemAlign = 128;

/// Bytes of one element of a tensor copy of \p DataType; 0 for the packed
/// types, whose transaction count tma-rules.md marks UNCONFIRMED, and for
/// invalid values.
constexpr std::uint64_t copyElementBytes(std::uint64_t DataType) {
  if (DataType > dtype::Last || isPackedType(DataType))
    return 0;
  unsigned Bits = detail::DataTypes[DataType].GlobalBits;
  return Bits % 8 ? 0 : Bits / 8;
}

/// Bytes of the box one non-interleaved `.tile` copy delivers:
/// boxDim[0] * E * prod over i >= 1 of ceil(boxDim[i] / elementStrides[i])
/// (elementStrides[0] is ignored without interleave). \p Box and \p Strides
/// hold \p Rank elements. 0 when an operand is out of the driver's range.
TMA_RULES_HD constexpr std::uint64_t
tileBoxBytes(std::uint64_t ElemBytes, std::uint64_t Rank,
             const std::uint64_t *Box, const std::uint64_t *Strides) {
  if (ElemBytes == 0 || Rank < 1 || Rank > 5 || Box[0] < 1 || Box[0] > 256)
    return 0;
  std::uint64_t Bytes = Box[0] * ElemBytes;
  for (std::uint64_t I = 1; I < Rank; ++I) {
    if (Box[I] < 1 || Box[I] > 256 || Strides[I] < 1 || Strides[I] > 8)
      return 0;
    Bytes *= (Box[I] + Strides[I] - 1) / Strides[I];
  }
  return Bytes;
}

/// Bytes of one `.tile::gather4` / `.tile::scatter4` copy: four rows of
/// boxDim[0] elements. 0 when boxDim[0] is out of range.
TMA_RULES_HD constexpr std::uint64_t gather4Bytes(std::uint64_t ElemBytes,
                                                  std::uint64_t Box0) {
  return ElemBytes == 0 || Box0 < 1 || Box0 > 256 ? 0 : 4 * Box0 * ElemBytes;
}

/// The alignment a swizzle mode needs for the canonical pattern: 256, 512 or
/// 1024 bytes for CU_TENSOR_MAP_SWIZZLE_32B/64B/128B(_ATOM_*); 0 for NONE and
/// invalid values.
TMA_RULES_HD constexpr std::uint64_t swizzleRepeat(std::uint64_t Swizzle) {
  switch (Swizzle) {
  case swizzle::B32:
    return 256;
  case swizzle::B64:
    return 512;
  case swizzle::B128:
  case swizzle::B128Atom32B:
  case swizzle::B128Atom32BFlip8B:
  case swizzle::B128Atom64B:
    return 1024;
  default:
    return 0;
  }
}

} // namespace tma::rules

#endif // TMA_RULES_COPYBYTES_H
