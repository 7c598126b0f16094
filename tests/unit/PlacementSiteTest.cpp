//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of tma-tensor-map-placement's sites as a
// whole: rules::checkMapPlacement and rules::checkReplaceValue on fact
// records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of the entry points: each storage with the use
// its rule reads and without it, the fact each violation names (which says
// where the check reports it), the other storages silent, the fence and
// the tensor copy of TMAP-PLACE-GLOBAL-FENCE, a replace value on both sides
// of a field's last code and in the driver's numbering, unknown values.
//
//===----------------------------------------------------------------------===//

#include "rules/PlacementSite.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

const MapStorage AllStorages[] = {
    MapStorage::GridConstantParam, MapStorage::Constant,
    MapStorage::Global,            MapStorage::KernelParamCopy,
    MapStorage::Local,             MapStorage::DeviceParamCopy,
    MapStorage::Shared};

MapPlacementFacts site(MapStorage S, bool Read, bool Write = false) {
  MapPlacementFacts F;
  F.Storage = S;
  F.ReachesRead = Read;
  F.ReachesWrite = Write;
  return F;
}

/// The single violation of \p F, or fails.
PlacementViolation only(const MapPlacementFacts &F) {
  auto V = checkMapPlacement(F);
  EXPECT_EQ(V.size(), 1u);
  return V.empty() ? PlacementViolation{{}, PlacementFact::Read} : V.front();
}

} // namespace

TEST(MapPlacement, NoUseIsSilent) {
  for (MapStorage S : AllStorages)
    EXPECT_TRUE(checkMapPlacement(site(S, false)).empty())
        << static_cast<int>(S);
}

TEST(MapPlacement, ByValueKernelParameterReadByTma) {
  PlacementViolation V = only(site(MapStorage::KernelParamCopy, true));
  EXPECT_STREQ(V.Violation.RuleId, "TMAP-PLACE-GRID-CONSTANT");
  EXPECT_EQ(V.About, PlacementFact::Read);
  EXPECT_EQ(V.Violation.Message,
            "is passed by value without 'const __grid_constant__': its "
            "address points to a local copy, which TMA cannot read");
  // The fix-it is the suggestion.
  EXPECT_TRUE(V.Violation.Suggestion.empty());
}

TEST(MapPlacement, GridConstantParameterReadIsFine) {
  EXPECT_TRUE(checkMapPlacement(site(MapStorage::GridConstantParam, true))
                  .empty());
}

TEST(MapPlacement, CopiesReadByATensorCopy) {
  for (MapStorage S :
       {MapStorage::Local, MapStorage::DeviceParamCopy, MapStorage::Shared}) {
    PlacementViolation V = only(site(S, true));
    EXPECT_STREQ(V.Violation.RuleId, "TMA-MAP-STATE-SPACE");
    EXPECT_EQ(V.About, PlacementFact::Read);
    EXPECT_FALSE(V.Violation.Suggestion.empty());
  }
  EXPECT_EQ(only(site(MapStorage::DeviceParamCopy, true)).Violation.Suggestion,
            "pass the map by pointer or reference to const");
}

TEST(MapPlacement, ConstantMapIsFine) {
  EXPECT_TRUE(
      checkMapPlacement(site(MapStorage::Constant, true, true)).empty());
}

TEST(MapPlacement, WriteOfAGridConstantParameter) {
  PlacementViolation V =
      only(site(MapStorage::GridConstantParam, false, /*Write=*/true));
  EXPECT_STREQ(V.Violation.RuleId, "TMAP-DEV-READONLY-PARAM");
  EXPECT_EQ(V.About, PlacementFact::Write);
}

TEST(MapPlacement, WriteOfACopyIsNotReadonlyParam) {
  for (MapStorage S : {MapStorage::Local, MapStorage::Shared,
                       MapStorage::Global, MapStorage::KernelParamCopy})
    EXPECT_TRUE(checkMapPlacement(site(S, false, /*Write=*/true)).empty())
        << static_cast<int>(S);
}

TEST(MapPlacement, GlobalMapReadByATensorCopyWithoutFence) {
  MapPlacementFacts F = site(MapStorage::Global, true);
  F.ReadByTensorCopy = true;
  F.KernelMayFence = false;
  PlacementViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMAP-PLACE-GLOBAL-FENCE");
  EXPECT_EQ(V.About, PlacementFact::Fence);
  EXPECT_EQ(V.Violation.Message.rfind("executes no "
                                      "fence.proxy.tensormap::generic.acquire",
                                      0),
            0u);
  EXPECT_NE(V.Violation.Suggestion.find("fence_proxy_tensormap_generic"),
            std::string::npos);
}

TEST(MapPlacement, GlobalMapFencedOrNotReadThroughTheProxy) {
  MapPlacementFacts F = site(MapStorage::Global, true);
  F.ReadByTensorCopy = true;
  F.KernelMayFence = true;
  EXPECT_TRUE(checkMapPlacement(F).empty());
  // A prefetch.tensormap or tensormap.* reaches it: no tensor copy.
  F.ReadByTensorCopy = false;
  F.KernelMayFence = false;
  EXPECT_TRUE(checkMapPlacement(F).empty());
  // Not reached at all.
  F.ReachesRead = false;
  F.ReadByTensorCopy = true;
  EXPECT_TRUE(checkMapPlacement(F).empty());
}

TEST(MapPlacement, FenceAsksOnlyAMapInGlobalMemory) {
  for (MapStorage S : AllStorages) {
    if (S == MapStorage::Global)
      continue;
    MapPlacementFacts F = site(S, true);
    F.ReadByTensorCopy = true;
    F.KernelMayFence = false;
    for (const PlacementViolation &V : checkMapPlacement(F))
      EXPECT_STRNE(V.Violation.RuleId, "TMAP-PLACE-GLOBAL-FENCE");
  }
}

TEST(ReplaceValue, UnknownValueIsSilent) {
  ReplaceValueFacts F;
  F.Field = ReplaceField::ElemType;
  EXPECT_TRUE(checkReplaceValue(F).empty());
}

TEST(ReplaceValue, RankBoundary) {
  ReplaceValueFacts F;
  F.Field = ReplaceField::Rank;
  F.Value = 4;
  EXPECT_TRUE(checkReplaceValue(F).empty());
  F.Value = 5;
  auto V = checkReplaceValue(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_STREQ(V[0].RuleId, "TMAP-DEV-REPLACE-ENCODING");
  EXPECT_EQ(V[0].Parameter, DeviceParam::NewValue);
}

TEST(ReplaceValue, DriverNumbering) {
  // 9 is .f64 to tensormap.replace's .elemtype, and
  // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 to the driver.
  ReplaceValueFacts F;
  F.Field = ReplaceField::ElemType;
  F.Value = 9;
  EXPECT_TRUE(checkReplaceValue(F).empty());
  F.AsWritten = DriverEnum::DataType;
  auto V = checkReplaceValue(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_STREQ(V[0].RuleId, "TMAP-DEV-REPLACE-ENCODING");
  EXPECT_EQ(V[0].Limit, 10u);
  // CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (4): an atom the mode cannot say.
  F.Field = ReplaceField::SwizzleMode;
  F.Value = 4;
  F.AsWritten = DriverEnum::None;
  EXPECT_TRUE(checkReplaceValue(F).empty());
  F.AsWritten = DriverEnum::Swizzle;
  EXPECT_EQ(checkReplaceValue(F).size(), 1u);
}

TEST(ReplaceValue, FieldsWithoutACodeSetAreSilent) {
  ReplaceValueFacts F;
  F.Field = ReplaceField::GlobalAddress;
  F.Value = 12345;
  F.AsWritten = DriverEnum::DataType;
  EXPECT_TRUE(checkReplaceValue(F).empty());
}
