//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The enumerations of cuda.h (CUDA 13.0) that the rules reason about, and the
// element-size table of tma-rules.md section 6.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_DATATYPES_H
#define TMA_TIDY_RULES_DATATYPES_H

#include <cstdint>
#include <optional>

namespace tma::rules {

/// CUtensorMapDataType values.
namespace dtype {
constexpr std::uint64_t UInt8 = 0, UInt16 = 1, UInt32 = 2, Int32 = 3,
                        UInt64 = 4, Int64 = 5, Float16 = 6, Float32 = 7,
                        Float64 = 8, BFloat16 = 9, Float32Ftz = 10,
                        TFloat32 = 11, TFloat32Ftz = 12, U4Align8B = 13,
                        U4Align16B = 14, U6Align16B = 15;
constexpr std::uint64_t Last = U6Align16B;
} // namespace dtype

/// CUtensorMapInterleave values.
namespace interleave {
constexpr std::uint64_t None = 0, B16 = 1, B32 = 2, Last = B32;
} // namespace interleave

/// CUtensorMapSwizzle values.
namespace swizzle {
constexpr std::uint64_t None = 0, B32 = 1, B64 = 2, B128 = 3, B128Atom32B = 4,
                        B128Atom32BFlip8B = 5, B128Atom64B = 6,
                        Last = B128Atom64B;
} // namespace swizzle

/// CUtensorMapL2promotion values.
namespace l2promo {
constexpr std::uint64_t Last = 3;
} // namespace l2promo

/// CUtensorMapFloatOOBfill values.
namespace oobfill {
constexpr std::uint64_t None = 0, NanRequestZeroFma = 1, Last = 1;
} // namespace oobfill

/// CUtensorMapIm2ColWideMode values.
namespace widemode {
constexpr std::uint64_t W = 0, W128 = 1, Last = W128;
} // namespace widemode

/// The enumerator name of a data type, e.g. "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
/// nullptr when out of range.
const char *dataTypeName(std::uint64_t DataType);
const char *interleaveName(std::uint64_t Interleave);
const char *swizzleName(std::uint64_t Swizzle);

/// Bits per element in global memory: 8..64, or 4/6 for the packed types.
/// std::nullopt when \p DataType is not a valid enumerator.
std::optional<unsigned> globalElementBits(std::uint64_t DataType);

/// Bits per element that the driver's elementSizeInBytes() uses for the
/// box-size rules. Equal to globalElementBits except for 16U6_ALIGN16B,
/// which the driver sizes at one byte (CCCL's __cutensormap_size_bytes).
std::optional<unsigned> boxElementBits(std::uint64_t DataType);

/// True for 16U4_ALIGN8B, 16U4_ALIGN16B and 16U6_ALIGN16B.
bool isPackedType(std::uint64_t DataType);
/// True for 16U4_ALIGN16B and 16U6_ALIGN16B.
bool isPacked16BType(std::uint64_t DataType);
/// True for the floating-point, non-packed types that allow NaN OOB fill.
bool isFloatType(std::uint64_t DataType);

/// Bytes of the swizzle span (32, 64 or 128); std::nullopt for NONE or an
/// invalid value.
std::optional<unsigned> swizzleSpanBytes(std::uint64_t Swizzle);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_DATATYPES_H
