//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of a device op's form as a whole:
// rules::checkOpForm on fact records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of the entry point, each naming the fact the
// check reports; absent facts and unknown counts are silent; the order of
// the violations.
//
//===----------------------------------------------------------------------===//

#include "rules/OpFormSite.h"

#include "gtest/gtest.h"

#include <string>

using namespace tma::rules;

namespace {

/// The single violation of \p F, or fails.
FormViolation only(const OpFormFacts &F) {
  auto V = checkOpForm(F);
  EXPECT_EQ(V.size(), 1u);
  return V.empty() ? FormViolation{{}, FormFact::CoordCount} : V.front();
}

OpFormFacts reduce(BulkReduceDst Dst, const char *Op, const char *Type,
                   bool NoFtz) {
  OpFormFacts F;
  F.Reduce = OpFormFacts::BulkReduce{Dst, Op, Type, NoFtz};
  return F;
}

OpFormFacts coords(Known Dims, Known Count, CoordShape Shape) {
  OpFormFacts F;
  F.CoordCount = OpFormFacts::Coords{Dims, Count, Shape};
  return F;
}

} // namespace

TEST(OpFormSite, NothingPresentIsSilent) {
  EXPECT_TRUE(checkOpForm(OpFormFacts()).empty());
}

TEST(OpFormSite, ReduceTypeByDestination) {
  // f32 adds exist into global memory only.
  EXPECT_TRUE(
      checkOpForm(reduce(BulkReduceDst::Global, "add", "f32", false)).empty());
  FormViolation V =
      only(reduce(BulkReduceDst::SharedCluster, "add", "f32", false));
  EXPECT_EQ(V.Fact, FormFact::ReduceOpType);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-REDUCE-OP-TYPE");
}

TEST(OpFormSite, ReduceTypeHalfAddNeedsNoFtz) {
  EXPECT_TRUE(
      checkOpForm(reduce(BulkReduceDst::Global, "add", "f16", true)).empty());
  EXPECT_EQ(only(reduce(BulkReduceDst::Global, "add", "f16", false)).Fact,
            FormFact::ReduceOpType);
}

TEST(OpFormSite, ReduceModeScatter4Only) {
  OpFormFacts F;
  F.ReduceMode = CopyMode::Tile;
  EXPECT_TRUE(checkOpForm(F).empty());
  F.ReduceMode = CopyMode::Gather4;
  EXPECT_TRUE(checkOpForm(F).empty());
  F.ReduceMode = CopyMode::Scatter4;
  FormViolation V = only(F);
  EXPECT_EQ(V.Fact, FormFact::ReduceMode);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-REDUCE-MODE");
}

TEST(OpFormSite, CoordCountPerDimension) {
  EXPECT_TRUE(checkOpForm(coords(3, 3, CoordShape::PerDimension)).empty());
  for (std::uint64_t C : {2u, 4u}) {
    FormViolation V = only(coords(3, C, CoordShape::PerDimension));
    EXPECT_EQ(V.Fact, FormFact::CoordCount);
    EXPECT_STREQ(V.Violation.RuleId, "TMA-COORD-COUNT");
    EXPECT_EQ(V.Violation.Value, C);
    EXPECT_EQ(V.Violation.Limit, 3u);
  }
}

TEST(OpFormSite, CoordCountGather4TakesFive) {
  EXPECT_TRUE(checkOpForm(coords(2, 5, CoordShape::Gather4)).empty());
  EXPECT_EQ(only(coords(2, 4, CoordShape::Gather4)).Violation.Limit, 5u);
  EXPECT_EQ(only(coords(2, 6, CoordShape::Gather4)).Fact,
            FormFact::CoordCount);
}

TEST(OpFormSite, UnknownCountsAreSilent) {
  EXPECT_TRUE(checkOpForm(coords(Known(), 3, CoordShape::PerDimension)).empty());
  EXPECT_TRUE(checkOpForm(coords(2, Known(), CoordShape::PerDimension)).empty());
}

TEST(OpFormSite, EveryViolationInOrder) {
  OpFormFacts F = reduce(BulkReduceDst::SharedCluster, "add", "f32", false);
  F.ReduceMode = CopyMode::Scatter4;
  F.CoordCount = OpFormFacts::Coords{2, 3, CoordShape::PerDimension};
  auto V = checkOpForm(F);
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(V[0].Fact, FormFact::ReduceOpType);
  EXPECT_EQ(V[1].Fact, FormFact::ReduceMode);
  EXPECT_EQ(V[2].Fact, FormFact::CoordCount);
}
