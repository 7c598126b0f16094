//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the element-size table (tma-rules.md §6)
// and of the enumerator helpers of rules/DataTypes.h.
//
//===----------------------------------------------------------------------===//

#include "rules/DataTypes.h"
#include "rules/Violation.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <optional>
#include <string>

using namespace tma::rules;

namespace {

/// One row of the element-size table of tma-rules.md §6.
struct TypeRow {
  std::uint64_t DataType;
  const char *Name;
  unsigned GlobalBits;
  unsigned BoxBits;
  bool Packed;
  bool Packed16B;
  bool Float;
};

constexpr TypeRow TypeTable[] = {
    {dtype::UInt8, "CU_TENSOR_MAP_DATA_TYPE_UINT8", 8, 8, false, false, false},
    {dtype::UInt16, "CU_TENSOR_MAP_DATA_TYPE_UINT16", 16, 16, false, false,
     false},
    {dtype::UInt32, "CU_TENSOR_MAP_DATA_TYPE_UINT32", 32, 32, false, false,
     false},
    {dtype::Int32, "CU_TENSOR_MAP_DATA_TYPE_INT32", 32, 32, false, false,
     false},
    {dtype::UInt64, "CU_TENSOR_MAP_DATA_TYPE_UINT64", 64, 64, false, false,
     false},
    {dtype::Int64, "CU_TENSOR_MAP_DATA_TYPE_INT64", 64, 64, false, false,
     false},
    {dtype::Float16, "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", 16, 16, false, false,
     true},
    {dtype::Float32, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", 32, 32, false, false,
     true},
    {dtype::Float64, "CU_TENSOR_MAP_DATA_TYPE_FLOAT64", 64, 64, false, false,
     true},
    {dtype::BFloat16, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 16, 16, false, false,
     true},
    {dtype::Float32Ftz, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ", 32, 32, false,
     false, true},
    {dtype::TFloat32, "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32", 32, 32, false, false,
     true},
    {dtype::TFloat32Ftz, "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ", 32, 32, false,
     false, true},
    // 16 values in 8 bytes, no gaps.
    {dtype::U4Align8B, "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B", 4, 4, true,
     false, false},
    // CCCL's __cutensormap_size_bytes sizes both 16U4 types at half a byte.
    {dtype::U4Align16B, "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", 4, 4, true,
     true, false},
    // ... and 16U6_ALIGN16B at one byte.
    {dtype::U6Align16B, "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B", 6, 8, true,
     true, false},
};

std::string traceOf(const TypeRow &Row) {
  return "data type " + std::to_string(Row.DataType) + " (" + Row.Name + ")";
}

TEST(DataTypes, EnumeratorValuesMatchCudaH) {
  EXPECT_EQ(dtype::UInt8, 0u);
  EXPECT_EQ(dtype::BFloat16, 9u);
  EXPECT_EQ(dtype::U4Align8B, 13u);
  EXPECT_EQ(dtype::U6Align16B, 15u);
  EXPECT_EQ(dtype::Last, 15u);
  EXPECT_EQ(interleave::B32, 2u);
  EXPECT_EQ(swizzle::B128, 3u);
  EXPECT_EQ(swizzle::B128Atom64B, 6u);
  EXPECT_EQ(l2promo::Last, 3u);
  EXPECT_EQ(oobfill::NanRequestZeroFma, 1u);
}

TEST(DataTypes, ElementSizeTable) {
  for (const TypeRow &Row : TypeTable) {
    SCOPED_TRACE(traceOf(Row));
    std::optional<unsigned> Global = globalElementBits(Row.DataType);
    ASSERT_TRUE(Global.has_value());
    EXPECT_EQ(*Global, Row.GlobalBits);
    std::optional<unsigned> Box = boxElementBits(Row.DataType);
    ASSERT_TRUE(Box.has_value());
    EXPECT_EQ(*Box, Row.BoxBits);
  }
}

TEST(DataTypes, ElementSizeOfInvalidTypeIsUnknown) {
  EXPECT_FALSE(globalElementBits(16).has_value());
  EXPECT_FALSE(boxElementBits(16).has_value());
  EXPECT_FALSE(globalElementBits(UINT64_MAX).has_value());
  EXPECT_FALSE(boxElementBits(UINT64_MAX).has_value());
}

TEST(DataTypes, Classification) {
  for (const TypeRow &Row : TypeTable) {
    SCOPED_TRACE(traceOf(Row));
    EXPECT_EQ(isPackedType(Row.DataType), Row.Packed);
    EXPECT_EQ(isPacked16BType(Row.DataType), Row.Packed16B);
    EXPECT_EQ(isFloatType(Row.DataType), Row.Float);
  }
  EXPECT_FALSE(isPackedType(16));
  EXPECT_FALSE(isPacked16BType(16));
  EXPECT_FALSE(isFloatType(16));
}

TEST(DataTypes, DataTypeNames) {
  for (const TypeRow &Row : TypeTable) {
    SCOPED_TRACE(traceOf(Row));
    const char *Name = dataTypeName(Row.DataType);
    ASSERT_NE(Name, nullptr);
    EXPECT_STREQ(Name, Row.Name);
  }
  EXPECT_EQ(dataTypeName(16), nullptr);
  EXPECT_EQ(dataTypeName(UINT64_MAX), nullptr);
}

TEST(DataTypes, InterleaveNames) {
  EXPECT_STREQ(interleaveName(interleave::None),
               "CU_TENSOR_MAP_INTERLEAVE_NONE");
  EXPECT_STREQ(interleaveName(interleave::B16), "CU_TENSOR_MAP_INTERLEAVE_16B");
  EXPECT_STREQ(interleaveName(interleave::B32), "CU_TENSOR_MAP_INTERLEAVE_32B");
  EXPECT_EQ(interleaveName(3), nullptr);
}

TEST(DataTypes, SwizzleNames) {
  EXPECT_STREQ(swizzleName(swizzle::None), "CU_TENSOR_MAP_SWIZZLE_NONE");
  EXPECT_STREQ(swizzleName(swizzle::B32), "CU_TENSOR_MAP_SWIZZLE_32B");
  EXPECT_STREQ(swizzleName(swizzle::B64), "CU_TENSOR_MAP_SWIZZLE_64B");
  EXPECT_STREQ(swizzleName(swizzle::B128), "CU_TENSOR_MAP_SWIZZLE_128B");
  EXPECT_STREQ(swizzleName(swizzle::B128Atom32B),
               "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
  EXPECT_STREQ(swizzleName(swizzle::B128Atom32BFlip8B),
               "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B");
  EXPECT_STREQ(swizzleName(swizzle::B128Atom64B),
               "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B");
  EXPECT_EQ(swizzleName(7), nullptr);
  // The classic bug: the span in bytes instead of the enumerator.
  EXPECT_EQ(swizzleName(128), nullptr);
}

TEST(DataTypes, SwizzleSpan) {
  EXPECT_FALSE(swizzleSpanBytes(swizzle::None).has_value());
  EXPECT_EQ(swizzleSpanBytes(swizzle::B32), std::optional<unsigned>(32));
  EXPECT_EQ(swizzleSpanBytes(swizzle::B64), std::optional<unsigned>(64));
  for (std::uint64_t S : {swizzle::B128, swizzle::B128Atom32B,
                          swizzle::B128Atom32BFlip8B, swizzle::B128Atom64B}) {
    SCOPED_TRACE("swizzle " + std::to_string(S));
    EXPECT_EQ(swizzleSpanBytes(S), std::optional<unsigned>(128));
  }
  EXPECT_FALSE(swizzleSpanBytes(7).has_value());
  EXPECT_FALSE(swizzleSpanBytes(128).has_value());
}

TEST(DataTypes, ParamNamesAreTheDriverSpelling) {
  EXPECT_STREQ(paramName(Param::TensorMap), "tensorMap");
  EXPECT_STREQ(paramName(Param::TensorDataType), "tensorDataType");
  EXPECT_STREQ(paramName(Param::TensorRank), "tensorRank");
  EXPECT_STREQ(paramName(Param::GlobalAddress), "globalAddress");
  EXPECT_STREQ(paramName(Param::GlobalDim), "globalDim");
  EXPECT_STREQ(paramName(Param::GlobalStrides), "globalStrides");
  EXPECT_STREQ(paramName(Param::BoxDim), "boxDim");
  EXPECT_STREQ(paramName(Param::ElementStrides), "elementStrides");
  EXPECT_STREQ(paramName(Param::Interleave), "interleave");
  EXPECT_STREQ(paramName(Param::Swizzle), "swizzle");
  EXPECT_STREQ(paramName(Param::L2Promotion), "l2Promotion");
  EXPECT_STREQ(paramName(Param::OobFill), "oobFill");
}

} // namespace
