//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of rules/TensorMapRules and of
// MBAR-LOCATION-ALIGN (rules/SmemRules).
//
//===----------------------------------------------------------------------===//
//
// TMAP-DEV-READONLY-PARAM for every map storage, TMAP-DEV-REPLACE-ENCODING
// on both sides of each field's last code and for every driver enumerator
// (tma-rules.md section 5 and the element-size table of section 6),
// TMAP-REPLACE-ADDR-ALIGN and MBAR-LOCATION-ALIGN at their boundaries.
//
//===----------------------------------------------------------------------===//

#include "rules/SmemRules.h"
#include "rules/TensorMapRules.h"
#include "rules/EncodeCommon.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>

using namespace tma::rules;

namespace {

//===----------------------------------------------------------------------===//
// TMAP-DEV-READONLY-PARAM
//===----------------------------------------------------------------------===//

TEST(DevReadonlyParam, OnlyTheGridConstantParameter) {
  for (MapStorage S :
       {MapStorage::Constant, MapStorage::Global, MapStorage::KernelParamCopy,
        MapStorage::Local, MapStorage::DeviceParamCopy, MapStorage::Shared})
    EXPECT_FALSE(checkDevReadonlyParam(S)) << static_cast<int>(S);
  auto V = checkDevReadonlyParam(MapStorage::GridConstantParam);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMAP-DEV-READONLY-PARAM");
  EXPECT_EQ(V->Parameter, DeviceParam::TensorMap);
  EXPECT_NE(V->Message.find("__grid_constant__"), std::string::npos);
  EXPECT_NE(V->Suggestion.find("shared::cta"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-REPLACE-ENCODING
//===----------------------------------------------------------------------===//

TEST(ReplaceEncoding, UnknownIsSilent) {
  EXPECT_FALSE(checkReplaceEncoding(ReplaceField::ElemType, std::nullopt,
                                    DriverEnum::DataType));
  EXPECT_FALSE(checkReplaceEncoding(ReplaceField::Rank, std::nullopt));
}

TEST(ReplaceEncoding, NumericFieldsAreNeverReported) {
  for (ReplaceField F :
       {ReplaceField::GlobalAddress, ReplaceField::BoxDim,
        ReplaceField::GlobalDim, ReplaceField::GlobalStride,
        ReplaceField::ElementStride})
    EXPECT_FALSE(checkReplaceEncoding(F, std::uint64_t{1} << 40,
                                      DriverEnum::DataType))
        << replaceFieldName(F);
}

TEST(ReplaceEncoding, LastCodeOfEachField) {
  struct Case {
    ReplaceField F;
    std::uint64_t Last;
  } Cases[] = {{ReplaceField::Rank, 4},
               {ReplaceField::ElemType, 15},
               {ReplaceField::InterleaveLayout, 2},
               {ReplaceField::SwizzleMode, 4},
               {ReplaceField::SwizzleAtomicity, 3},
               {ReplaceField::FillMode, 1}};
  for (const Case &C : Cases) {
    EXPECT_FALSE(checkReplaceEncoding(C.F, 0)) << replaceFieldName(C.F);
    EXPECT_FALSE(checkReplaceEncoding(C.F, C.Last)) << replaceFieldName(C.F);
    auto V = checkReplaceEncoding(C.F, C.Last + 1);
    ASSERT_TRUE(V) << replaceFieldName(C.F);
    EXPECT_STREQ(V->RuleId, "TMAP-DEV-REPLACE-ENCODING");
    EXPECT_EQ(V->Parameter, DeviceParam::NewValue);
    EXPECT_EQ(V->Value, C.Last + 1);
    EXPECT_EQ(V->Limit, C.Last);
  }
}

TEST(ReplaceEncoding, RankTakesTheRankMinusOne) {
  auto V = checkReplaceEncoding(ReplaceField::Rank, 5);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "tensormap.replace .rank is given 5, which sets rank "
                        "6: the field takes the rank minus one, at most 4");
}

TEST(ReplaceEncoding, DataTypeEnumeratorsThatDiffer) {
  // CUtensorMapDataType -> .elemtype: 8 (FLOAT64) is 9, 9 (BFLOAT16) is 10,
  // 10 (FLOAT32_FTZ) is 8; every other value coincides.
  const std::uint64_t Differ[][2] = {{8, 9}, {9, 10}, {10, 8}};
  for (auto [Driver, Code] : Differ) {
    auto V =
        checkReplaceEncoding(ReplaceField::ElemType, Driver, DriverEnum::DataType);
    ASSERT_TRUE(V) << Driver;
    EXPECT_EQ(V->Value, Driver);
    EXPECT_EQ(V->Limit, Code);
    EXPECT_NE(V->Suggestion.find(std::to_string(Code)), std::string::npos);
    // The same number written as a plain PTX code is valid.
    EXPECT_FALSE(checkReplaceEncoding(ReplaceField::ElemType, Driver));
  }
  for (std::uint64_t D = 0; D <= 15; ++D)
    if (D < 8 || D > 10)
      EXPECT_FALSE(checkReplaceEncoding(ReplaceField::ElemType, D,
                                        DriverEnum::DataType))
          << D;
  auto V = checkReplaceEncoding(ReplaceField::ElemType, 9, DriverEnum::DataType);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message,
            "tensormap.replace .elemtype is given "
            "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 (9), a CUtensorMapDataType; PTX "
            "reads 9 as .f64 and spells this type 10 (.bf16)");
}

TEST(ReplaceEncoding, SwizzleEnumeratorsWithAnAtom) {
  for (std::uint64_t S = 0; S <= 3; ++S)
    EXPECT_FALSE(checkReplaceEncoding(ReplaceField::SwizzleMode, S,
                                      DriverEnum::Swizzle))
        << S;
  for (std::uint64_t S = 4; S <= 6; ++S) {
    auto V =
        checkReplaceEncoding(ReplaceField::SwizzleMode, S, DriverEnum::Swizzle);
    ASSERT_TRUE(V) << S;
    EXPECT_EQ(V->Limit, 3u);
    EXPECT_NE(V->Suggestion.find("swizzle_atomicity to " +
                                 std::to_string(S - 3)),
              std::string::npos);
  }
  // 4 written as a PTX code is the sm_103a 96-byte swizzle: valid.
  EXPECT_FALSE(checkReplaceEncoding(ReplaceField::SwizzleMode, 4));
  // The other driver enums coincide with their fields' codes.
  EXPECT_FALSE(checkReplaceEncoding(ReplaceField::InterleaveLayout, 2,
                                    DriverEnum::Interleave));
  EXPECT_FALSE(checkReplaceEncoding(ReplaceField::FillMode, 1,
                                    DriverEnum::FloatOobFill));
}

//===----------------------------------------------------------------------===//
// TMAP-REPLACE-ADDR-ALIGN
//===----------------------------------------------------------------------===//

TEST(ReplaceAddressAlign, Boundary) {
  EXPECT_TRUE(checkReplaceAddressAlign(std::nullopt).empty());
  EXPECT_TRUE(checkReplaceAddressAlign(16).empty());
  EXPECT_TRUE(checkReplaceAddressAlign(128).empty());
  auto Vs = checkReplaceAddressAlign(8);
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-REPLACE-ADDR-ALIGN");
  EXPECT_EQ(Vs[0].Parameter, Param::GlobalAddress);
  EXPECT_EQ(Vs[0].Value, 8u);
  EXPECT_EQ(Vs[0].Limit, 16u);
  EXPECT_EQ(Vs[0].Message, "globalAddress is only 8-byte aligned; the new "
                           "address must keep the encode's alignment, at "
                           "least 16 bytes");
  EXPECT_EQ(checkReplaceAddressAlign(1).size(), 1u);
}

// The map's encode asks for 32 bytes (TMAP-ENC-GADDR-ALIGN): interleave
// 32B, or a 16-byte-aligned packed type; other maps keep 16.
TEST(ReplaceAddressAlign, ThirtyTwoBytes) {
  const Known I32 = interleave::B32;
  EXPECT_TRUE(checkReplaceAddressAlign(32, I32).empty());
  EXPECT_TRUE(checkReplaceAddressAlign(64, I32).empty());
  EXPECT_TRUE(checkReplaceAddressAlign(std::nullopt, I32).empty());
  auto Vs = checkReplaceAddressAlign(16, I32);
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-REPLACE-ADDR-ALIGN");
  EXPECT_EQ(Vs[0].Parameter, Param::GlobalAddress);
  EXPECT_EQ(Vs[0].Value, 16u);
  EXPECT_EQ(Vs[0].Limit, 32u);
  EXPECT_EQ(Vs[0].Message,
            "globalAddress is only 16-byte aligned; the new address must "
            "keep the encode's alignment, 32 bytes for a map encoded with "
            "CU_TENSOR_MAP_INTERLEAVE_32B");
  ASSERT_EQ(Vs[0].AlsoUses.size(), 1u);
  EXPECT_EQ(Vs[0].AlsoUses[0].first, Param::Interleave);
  // Below 16 bytes the 32-byte requirement is still the one named.
  EXPECT_EQ(checkReplaceAddressAlign(8, I32).at(0).Limit, 32u);
  // The packed types.
  for (std::uint64_t T : {dtype::U4Align16B, dtype::U6Align16B}) {
    auto P = checkReplaceAddressAlign(16, interleave::None, T);
    ASSERT_EQ(P.size(), 1u);
    EXPECT_EQ(P[0].Limit, 32u);
    EXPECT_EQ(P[0].AlsoUses.at(0).first, Param::TensorDataType);
    EXPECT_NE(P[0].Message.find(dataTypeName(T)), std::string::npos);
    EXPECT_TRUE(checkReplaceAddressAlign(32, interleave::None, T).empty());
  }
  // 16 bytes for the other interleaves and types.
  EXPECT_TRUE(checkReplaceAddressAlign(16, interleave::None,
                                       dtype::Float16).empty());
  EXPECT_TRUE(checkReplaceAddressAlign(16, interleave::B16).empty());
  EXPECT_TRUE(
      checkReplaceAddressAlign(16, std::nullopt, dtype::U4Align8B).empty());
  EXPECT_EQ(checkReplaceAddressAlign(8, interleave::None, dtype::Float16)
                .at(0)
                .Limit,
            16u);
}

// The requirement TMAP-ENC-GADDR-ALIGN and TMAP-REPLACE-ADDR-ALIGN share.
TEST(ReplaceAddressAlign, GlobalAddressAlignment) {
  const char *Why = nullptr;
  bool ByInterleave = true;
  EXPECT_EQ(globalAddressAlignment(std::nullopt, std::nullopt, &Why,
                                   &ByInterleave),
            16u);
  EXPECT_EQ(Why, nullptr);
  EXPECT_FALSE(ByInterleave);
  EXPECT_EQ(globalAddressAlignment(interleave::B32, dtype::U4Align16B, &Why,
                                   &ByInterleave),
            32u);
  EXPECT_TRUE(ByInterleave);
  EXPECT_EQ(globalAddressAlignment(interleave::B16, dtype::U6Align16B, &Why,
                                   &ByInterleave),
            32u);
  EXPECT_FALSE(ByInterleave);
  EXPECT_STREQ(Why, dataTypeName(dtype::U6Align16B));
}

//===----------------------------------------------------------------------===//
// MBAR-LOCATION-ALIGN
//===----------------------------------------------------------------------===//

TEST(MbarLocationAlign, Boundary) {
  EXPECT_FALSE(checkMbarLocationAlign(std::nullopt));
  EXPECT_FALSE(checkMbarLocationAlign(8));
  EXPECT_FALSE(checkMbarLocationAlign(1024));
  auto V = checkMbarLocationAlign(4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-LOCATION-ALIGN");
  EXPECT_EQ(V->Parameter, DeviceParam::Mbar);
  EXPECT_EQ(V->Value, 4u);
  EXPECT_EQ(V->Limit, 8u);
  EXPECT_EQ(V->Message, "mbarrier address is guaranteed only 4-byte "
                        "alignment, not the 8 bytes that an mbarrier object "
                        "(.b64) needs");
  EXPECT_TRUE(checkMbarLocationAlign(1));
}

TEST(MbarLocationAlign, LocalMemory) {
  EXPECT_FALSE(checkMbarLocationSpace(BarrierSpace::Unknown));
  auto V = checkMbarLocationSpace(BarrierSpace::Local);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-LOCATION-ALIGN");
  EXPECT_EQ(V->Parameter, DeviceParam::Mbar);
  EXPECT_EQ(V->Message, "mbarrier address is a local variable's, in local "
                        "memory; an mbarrier object must be in shared memory");
  EXPECT_EQ(V->Suggestion, "declare the barrier __shared__");
}

// The other state spaces a variable can name: global memory (__device__,
// __managed__) and constant memory (__constant__).
TEST(MbarLocationAlign, GlobalAndConstantMemory) {
  auto G = checkMbarLocationSpace(BarrierSpace::Global);
  ASSERT_TRUE(G);
  EXPECT_STREQ(G->RuleId, "MBAR-LOCATION-ALIGN");
  EXPECT_EQ(G->Parameter, DeviceParam::Mbar);
  EXPECT_EQ(G->Value, static_cast<std::uint64_t>(BarrierSpace::Global));
  EXPECT_EQ(G->Message,
            "mbarrier address is a __device__ variable's, in global "
            "memory; an mbarrier object must be in shared memory");
  EXPECT_EQ(G->Suggestion, "declare the barrier __shared__");
  auto C = checkMbarLocationSpace(BarrierSpace::Constant);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Message,
            "mbarrier address is a __constant__ variable's, in constant "
            "memory; an mbarrier object must be in shared memory");
  EXPECT_NE(G->Value, C->Value);
  auto S = checkMbarLocationSpace(BarrierSpace::StaticLocal);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Message,
            "mbarrier address is a static local variable's, in global "
            "memory; an mbarrier object must be in shared memory");
  EXPECT_EQ(S->Suggestion, "declare the barrier __shared__");
}

} // namespace
