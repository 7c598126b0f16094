//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of a tensor copy site against its map, as a
// whole: rules::checkLinkedTensorCopy on fact records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of the entry point: each rule silent on the
// right side and reported on the wrong one, naming the fact (the encode
// operand, the buffer) the check points its notes at; the mode alone when
// it is wrong; the order the check reports in.
//
//===----------------------------------------------------------------------===//

#include "rules/TensorCopySite.h"
#include "rules/DataTypes.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

/// A 64 x 64 bf16 tiled map with 128B swizzle, and a tile load of it into
/// a 1024-byte aligned bf16 buffer with room for the box: every rule holds.
LinkedCopyFacts tileLoad() {
  LinkedCopyFacts F;
  F.Mode = CopyMode::Tile;
  F.Direction = CopyDirection::Load;
  F.Dims = 2;
  F.Coord0 = 0;
  MapDescriptor &D = F.Map;
  D.Encoder = MapEncoder::Tiled;
  D.DataType = dtype::BFloat16;
  D.Rank = 2;
  D.BoxDim.Elems = {64, 64};
  D.ElementStrides.Elems = {1, 1};
  D.Interleave = interleave::None;
  D.Swizzle = swizzle::B128;
  F.Buffer = BoxBufferFacts{2, 1024, 64 * 64 * 2};
  return F;
}

/// The rule ids of \p Vs, in order.
std::vector<std::string> ids(const std::vector<LinkedCopyViolation> &Vs) {
  std::vector<std::string> Out;
  for (const LinkedCopyViolation &V : Vs)
    Out.push_back(V.Violation.RuleId);
  return Out;
}

/// The one violation of \p F; fails the test unless there is exactly one.
LinkedCopyViolation only(const LinkedCopyFacts &F) {
  std::vector<LinkedCopyViolation> Vs = checkLinkedTensorCopy(F);
  EXPECT_EQ(Vs.size(), 1u);
  return Vs.empty() ? LinkedCopyViolation{{"none", DeviceParam::Size, 0, 0,
                                           "", ""},
                                          Param::Encoder}
                    : Vs.front();
}

TEST(LinkedTensorCopy, CorrectSiteIsSilent) {
  EXPECT_TRUE(checkLinkedTensorCopy(tileLoad()).empty());
  // Unknown facts: silent too.
  LinkedCopyFacts F;
  F.Map.Encoder = MapEncoder::Tiled;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, ModeAloneWhenItIsWrong) {
  LinkedCopyFacts F = tileLoad();
  F.Mode = CopyMode::Im2col;
  F.Dims = 3; // also unlike the rank: not reported under a wrong mode
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-MODE-MATCHES-MAP");
  EXPECT_EQ(V.MapOperand, Param::Encoder);
  EXPECT_FALSE(V.AboutBuffer);
}

TEST(LinkedTensorCopy, DimAgainstRank) {
  LinkedCopyFacts F = tileLoad();
  F.Dims = 3;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-DIM-EQ-RANK");
  EXPECT_EQ(V.MapOperand, Param::TensorRank);
  // A form that does not say its N: silent.
  F.Dims.reset();
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, PackedDirectionNamesTheDataType) {
  LinkedCopyFacts F = tileLoad();
  F.Map.DataType = dtype::U4Align16B;
  F.Buffer.reset();
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Direction = CopyDirection::Store;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-PACKED-DIRECTION");
  EXPECT_EQ(V.MapOperand, Param::TensorDataType);
}

TEST(LinkedTensorCopy, PackedCoord0At128) {
  LinkedCopyFacts F = tileLoad();
  F.Map.DataType = dtype::U4Align16B;
  F.Buffer.reset();
  F.Coord0 = 128;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Coord0 = 64;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-PACKED-COORD0");
  EXPECT_EQ(V.MapOperand, Param::TensorDataType);
}

TEST(LinkedTensorCopy, StoreCoordAlignAt16Bytes) {
  LinkedCopyFacts F = tileLoad();
  F.Direction = CopyDirection::Store;
  F.Coord0 = 8; // 16 bytes of bf16
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Coord0 = 4; // 8 bytes
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-STORE-COORD-ALIGN");
  EXPECT_EQ(V.MapOperand, Param::TensorDataType);
  // A load: not this rule's (confirmed for stores only).
  F.Direction = CopyDirection::Load;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, Im2colStoreCornersNameTheirCorner) {
  LinkedCopyFacts F;
  F.Mode = CopyMode::Im2colNoOffs;
  F.Direction = CopyDirection::Store;
  F.Map.Encoder = MapEncoder::Im2col;
  F.Map.LowerCorner.Elems = {0};
  F.Map.UpperCorner.Elems = {0};
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Map.LowerCorner.Elems = {std::uint64_t(0xffffffff)}; // -1
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-STORE-NONNEG");
  EXPECT_EQ(V.MapOperand, Param::PixelBoxLowerCorner);
  F.Map.LowerCorner.Elems = {0};
  F.Map.UpperCorner.Elems = {1};
  V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-STORE-NONNEG");
  EXPECT_EQ(V.MapOperand, Param::PixelBoxUpperCorner);
}

TEST(LinkedTensorCopy, Gather4NamesTheBox) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer.reset();
  F.Mode = CopyMode::Gather4;
  F.Map.BoxDim.Elems = {64, 1};
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Map.BoxDim.Elems = {64, 2};
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-GATHER4");
  EXPECT_EQ(V.MapOperand, Param::BoxDim);
}

TEST(LinkedTensorCopy, ReduceOpTypeOnlyForReductions) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer.reset();
  F.Direction = CopyDirection::Reduce;
  F.ReduceOp = "add";
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.ReduceOp = "and";
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-REDUCE-OP-TYPE");
  EXPECT_EQ(V.MapOperand, Param::TensorDataType);
  // The operator of a store is not read.
  F.Direction = CopyDirection::Store;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, BufferElementType) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer->ElemBytes = 1; // a byte buffer
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  F.Buffer->ElemBytes = 4;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-SMEM-ELEMTYPE");
  EXPECT_EQ(V.MapOperand, Param::TensorDataType);
  EXPECT_TRUE(V.AboutBuffer);
}

TEST(LinkedTensorCopy, BufferAlignAtTheSwizzleRepeat) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer->AddressAlign = 512;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-SMEM-ALIGN-SWIZZLE");
  EXPECT_EQ(V.MapOperand, Param::Swizzle);
  EXPECT_TRUE(V.AboutBuffer);
  // Below 128 bytes it is TMA-SMEM-ALIGN-128's, reported by the check on
  // the address itself.
  F.Buffer->AddressAlign = 64;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
  // An im2col map: the rule is the tiled encoder's.
  F = tileLoad();
  F.Buffer->AddressAlign = 512;
  F.Mode = CopyMode::Im2col;
  F.Dims = 3;
  F.Map.Encoder = MapEncoder::Im2col;
  F.Map.Rank = 3;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, BoxFootprintOfLoads) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer->BytesToEnd = 64 * 64 * 2 - 2;
  LinkedCopyViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-SMEM-FOOTPRINT");
  EXPECT_EQ(V.MapOperand, Param::BoxDim);
  EXPECT_TRUE(V.AboutBuffer);
  // A store reads the box: not this rule's.
  F.Direction = CopyDirection::Store;
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, NoBufferNoBufferRules) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer->ElemBytes = 4;
  F.Buffer->AddressAlign = 512;
  F.Buffer->BytesToEnd = 16;
  EXPECT_EQ(checkLinkedTensorCopy(F).size(), 3u);
  F.Buffer.reset();
  EXPECT_TRUE(checkLinkedTensorCopy(F).empty());
}

TEST(LinkedTensorCopy, EveryViolationInReportOrder) {
  LinkedCopyFacts F = tileLoad();
  F.Dims = 3;
  F.Direction = CopyDirection::Reduce;
  F.ReduceOp = "and";
  F.Coord0 = 4;
  F.Buffer->ElemBytes = 4;
  F.Buffer->AddressAlign = 512;
  EXPECT_EQ(ids(checkLinkedTensorCopy(F)),
            (std::vector<std::string>{
                "TMA-DIM-EQ-RANK", "TMA-STORE-COORD-ALIGN",
                "TMA-REDUCE-OP-TYPE", "TMA-SMEM-ELEMTYPE",
                "TMA-SMEM-ALIGN-SWIZZLE"}));
}

} // namespace

//===----------------------------------------------------------------------===//
// silentLinkedRules: the rules a fact record leaves silent, and the fact
//===----------------------------------------------------------------------===//

namespace {
/// "RULES: why" of each silent rule of \p F.
std::vector<std::string> silent(const LinkedCopyFacts &F) {
  std::vector<std::string> Out;
  for (const SilentRule &R : silentLinkedRules(F))
    Out.push_back(R.Rules + ": " + R.Why);
  return Out;
}
} // namespace

TEST(SilentLinkedRules, EveryFactKnownLeavesNoneSilent) {
  EXPECT_TRUE(silent(tileLoad()).empty());
}

TEST(SilentLinkedRules, UnknownFactsNameTheirRules) {
  LinkedCopyFacts F = tileLoad();
  F.Map.Rank.reset();
  F.Map.BoxDim.Elems[1].reset();
  F.Buffer->AddressAlign.reset();
  EXPECT_EQ(silent(F),
            (std::vector<std::string>{
                "TMA-DIM-EQ-RANK: the map's tensorRank is not folded",
                "TMA-SMEM-ALIGN-SWIZZLE: the alignment of the box's "
                "shared-memory address is not proven",
                "TMA-SMEM-FOOTPRINT: the box's byte count is not folded "
                "(boxDim[1] is not)"}));
}

TEST(SilentLinkedRules, NoBufferSilencesTheBufferRules) {
  LinkedCopyFacts F = tileLoad();
  F.Buffer.reset();
  EXPECT_EQ(silent(F), (std::vector<std::string>{
                           "TMA-SMEM-ALIGN-SWIZZLE, TMA-SMEM-FOOTPRINT: the "
                           "box's shared-memory address is not traced to a "
                           "__shared__ variable"}));
}

TEST(SilentLinkedRules, AWrongModeIsAFindingNotASilence) {
  LinkedCopyFacts F = tileLoad();
  F.Mode = CopyMode::Im2col;
  F.Buffer.reset();
  EXPECT_FALSE(checkLinkedTensorCopy(F).empty());
  EXPECT_TRUE(silent(F).empty());
}
