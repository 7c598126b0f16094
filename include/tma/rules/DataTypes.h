//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//
//
// The enumerations of cuda.h (CUDA 13.0) that the rules reason about, and the
// element-size table of tma-rules.md section 6. constexpr, so that
// <tma/device.h> computes expect-tx byte counts at compile time from it.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_DATATYPES_H
#define TMA_RULES_DATATYPES_H

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

namespace detail {
struct DataTypeInfo {
  const char *Name;
  unsigned GlobalBits;
  unsigned BoxBits;
};

// tma-rules.md section 6. The packed types store 4 or 6 bits per value in
// global memory; the driver sizes a 16U6_ALIGN16B box element at one byte.
inline constexpr DataTypeInfo DataTypes[] = {
    {"CU_TENSOR_MAP_DATA_TYPE_UINT8", 8, 8},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT16", 16, 16},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT32", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_INT32", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_UINT64", 64, 64},
    {"CU_TENSOR_MAP_DATA_TYPE_INT64", 64, 64},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT16", 16, 16},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT32", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT64", 64, 64},
    {"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 16, 16},
    {"CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_TFLOAT32", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ", 32, 32},
    {"CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B", 4, 4},
    {"CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", 4, 4},
    {"CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B", 6, 8},
};

constexpr const DataTypeInfo *info(std::uint64_t DataType) {
  return DataType > dtype::Last ? nullptr : &DataTypes[DataType];
}
} // namespace detail

/// The enumerator name of a data type, e.g. "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
/// nullptr when out of range.
constexpr const char *dataTypeName(std::uint64_t DataType) {
  const detail::DataTypeInfo *I = detail::info(DataType);
  return I ? I->Name : nullptr;
}

inline const char *interleaveName(std::uint64_t Interleave) {
  static const char *const Names[] = {"CU_TENSOR_MAP_INTERLEAVE_NONE",
                                      "CU_TENSOR_MAP_INTERLEAVE_16B",
                                      "CU_TENSOR_MAP_INTERLEAVE_32B"};
  return Interleave <= interleave::Last ? Names[Interleave] : nullptr;
}

inline const char *swizzleName(std::uint64_t Swizzle) {
  static const char *const Names[] = {
      "CU_TENSOR_MAP_SWIZZLE_NONE",
      "CU_TENSOR_MAP_SWIZZLE_32B",
      "CU_TENSOR_MAP_SWIZZLE_64B",
      "CU_TENSOR_MAP_SWIZZLE_128B",
      "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
      "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
      "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"};
  return Swizzle <= swizzle::Last ? Names[Swizzle] : nullptr;
}

/// Bits per element in global memory: 8..64, or 4/6 for the packed types.
/// std::nullopt when \p DataType is not a valid enumerator.
constexpr std::optional<unsigned> globalElementBits(std::uint64_t DataType) {
  if (const detail::DataTypeInfo *I = detail::info(DataType))
    return I->GlobalBits;
  return std::nullopt;
}

/// Bits per element that the driver's elementSizeInBytes() uses for the
/// box-size rules. Equal to globalElementBits except for 16U6_ALIGN16B,
/// which the driver sizes at one byte (CCCL's __cutensormap_size_bytes).
constexpr std::optional<unsigned> boxElementBits(std::uint64_t DataType) {
  if (const detail::DataTypeInfo *I = detail::info(DataType))
    return I->BoxBits;
  return std::nullopt;
}

/// True for 16U4_ALIGN8B, 16U4_ALIGN16B and 16U6_ALIGN16B.
constexpr bool isPackedType(std::uint64_t DataType) {
  return DataType >= dtype::U4Align8B && DataType <= dtype::U6Align16B;
}

/// True for 16U4_ALIGN16B and 16U6_ALIGN16B.
constexpr bool isPacked16BType(std::uint64_t DataType) {
  return DataType == dtype::U4Align16B || DataType == dtype::U6Align16B;
}

/// True for the floating-point, non-packed types that allow NaN OOB fill.
constexpr bool isFloatType(std::uint64_t DataType) {
  return DataType >= dtype::Float16 && DataType <= dtype::TFloat32Ftz;
}

/// Bytes of the swizzle span (32, 64 or 128); std::nullopt for NONE or an
/// invalid value.
constexpr std::optional<unsigned> swizzleSpanBytes(std::uint64_t Swizzle) {
  switch (Swizzle) {
  case swizzle::B32:
    return 32;
  case swizzle::B64:
    return 64;
  case swizzle::B128:
  case swizzle::B128Atom32B:
  case swizzle::B128Atom32BFlip8B:
  case swizzle::B128Atom64B:
    return 128;
  default:
    return std::nullopt;
  }
}

} // namespace tma::rules

#endif // TMA_RULES_DATATYPES_H
