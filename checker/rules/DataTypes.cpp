//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/DataTypes.h"
#include "rules/Violation.h"

namespace tma::rules {

const char *paramName(Param P) {
  switch (P) {
  case Param::TensorMap:
    return "tensorMap";
  case Param::TensorDataType:
    return "tensorDataType";
  case Param::TensorRank:
    return "tensorRank";
  case Param::GlobalAddress:
    return "globalAddress";
  case Param::GlobalDim:
    return "globalDim";
  case Param::GlobalStrides:
    return "globalStrides";
  case Param::BoxDim:
    return "boxDim";
  case Param::ElementStrides:
    return "elementStrides";
  case Param::Interleave:
    return "interleave";
  case Param::Swizzle:
    return "swizzle";
  case Param::L2Promotion:
    return "l2Promotion";
  case Param::OobFill:
    return "oobFill";
  case Param::PixelBoxLowerCorner:
    return "pixelBoxLowerCorner";
  case Param::PixelBoxUpperCorner:
    return "pixelBoxUpperCorner";
  case Param::PixelBoxLowerCornerWidth:
    return "pixelBoxLowerCornerWidth";
  case Param::PixelBoxUpperCornerWidth:
    return "pixelBoxUpperCornerWidth";
  case Param::ChannelsPerPixel:
    return "channelsPerPixel";
  case Param::PixelsPerColumn:
    return "pixelsPerColumn";
  case Param::Mode:
    return "mode";
  }
  return "?";
}

namespace {
struct DataTypeInfo {
  const char *Name;
  unsigned GlobalBits;
  unsigned BoxBits;
};
} // namespace

// tma-rules.md section 6. The packed types store 4 or 6 bits per value in
// global memory; the driver sizes a 16U6_ALIGN16B box element at one byte.
static const DataTypeInfo DataTypes[] = {
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

static const DataTypeInfo *info(std::uint64_t DataType) {
  if (DataType > dtype::Last)
    return nullptr;
  return &DataTypes[DataType];
}

const char *dataTypeName(std::uint64_t DataType) {
  const DataTypeInfo *I = info(DataType);
  return I ? I->Name : nullptr;
}

const char *interleaveName(std::uint64_t Interleave) {
  static const char *const Names[] = {"CU_TENSOR_MAP_INTERLEAVE_NONE",
                                      "CU_TENSOR_MAP_INTERLEAVE_16B",
                                      "CU_TENSOR_MAP_INTERLEAVE_32B"};
  return Interleave <= interleave::Last ? Names[Interleave] : nullptr;
}

const char *swizzleName(std::uint64_t Swizzle) {
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

std::optional<unsigned> globalElementBits(std::uint64_t DataType) {
  if (const DataTypeInfo *I = info(DataType))
    return I->GlobalBits;
  return std::nullopt;
}

std::optional<unsigned> boxElementBits(std::uint64_t DataType) {
  if (const DataTypeInfo *I = info(DataType))
    return I->BoxBits;
  return std::nullopt;
}

bool isPackedType(std::uint64_t DataType) {
  return DataType >= dtype::U4Align8B && DataType <= dtype::U6Align16B;
}

bool isPacked16BType(std::uint64_t DataType) {
  return DataType == dtype::U4Align16B || DataType == dtype::U6Align16B;
}

bool isFloatType(std::uint64_t DataType) {
  return DataType >= dtype::Float16 && DataType <= dtype::TFloat32Ftz;
}

std::optional<unsigned> swizzleSpanBytes(std::uint64_t Swizzle) {
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
