//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the tensor-copy rules that read a map.
//
//===----------------------------------------------------------------------===//
//
// The byte count of tma-rules.md MBAR-TX-EQUALS-BYTES (tile, gather4, im2col;
// unknown where the catalogue marks it UNCONFIRMED), TMA-DIM-EQ-RANK and
// TMA-MODE-MATCHES-MAP.
//
//===----------------------------------------------------------------------===//

#include "rules/TensorCopyRules.h"
#include "rules/DataTypes.h"

#include "gtest/gtest.h"

using namespace tma::rules;

namespace {

MapDescriptor tiled(std::uint64_t DataType, std::vector<Known> Box,
                    std::vector<Known> Strides) {
  MapDescriptor D;
  D.Encoder = MapEncoder::Tiled;
  D.DataType = DataType;
  D.Rank = Box.size();
  D.BoxDim.Elems = std::move(Box);
  D.ElementStrides.Elems = std::move(Strides);
  D.Interleave = interleave::None;
  D.Swizzle = swizzle::B128;
  return D;
}

TEST(TensorCopyBytes, TileIsTheWholeBox) {
  // 64 bf16 columns x 128 rows.
  EXPECT_EQ(tensorCopyBytes(tiled(dtype::BFloat16, {64, 128}, {1, 1}),
                            CopyMode::Tile),
            Known(16384));
  // fp8 (1 byte), rank 3.
  EXPECT_EQ(tensorCopyBytes(tiled(dtype::UInt8, {128, 64, 2}, {1, 1, 1}),
                            CopyMode::Tile),
            Known(16384));
  // float64, rank 1.
  EXPECT_EQ(tensorCopyBytes(tiled(dtype::Float64, {32}, {1}), CopyMode::Tile),
            Known(256));
}

TEST(TensorCopyBytes, ElementStridesRoundUpExceptTheInnermost) {
  // elementStrides[0] is ignored without interleave.
  EXPECT_EQ(
      tensorCopyBytes(tiled(dtype::Float32, {32, 64}, {4, 2}), CopyMode::Tile),
      Known(32 * 4 * 32));
  // ceil(5 / 2) = 3 rows.
  EXPECT_EQ(
      tensorCopyBytes(tiled(dtype::Float32, {32, 5}, {1, 2}), CopyMode::Tile),
      Known(32 * 4 * 3));
}

TEST(TensorCopyBytes, Gather4MovesFourRows) {
  EXPECT_EQ(tensorCopyBytes(tiled(dtype::Float16, {64, 1}, {1, 1}),
                            CopyMode::Gather4),
            Known(4 * 64 * 2));
}

TEST(TensorCopyBytes, Im2colIsPixelsTimesChannels) {
  MapDescriptor D;
  D.Encoder = MapEncoder::Im2col;
  D.DataType = dtype::Float16;
  D.Rank = 4;
  D.ChannelsPerPixel = 64;
  D.PixelsPerColumn = 128;
  EXPECT_EQ(tensorCopyBytes(D, CopyMode::Im2col), Known(64 * 128 * 2));
  // The im2col::w counts are UNCONFIRMED.
  D.Encoder = MapEncoder::Im2colWide;
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Im2colW));
}

TEST(TensorCopyBytes, UnknownOrUnconfirmedIsUnknown) {
  MapDescriptor D = tiled(dtype::Float32, {32, 32}, {1, 1});
  D.BoxDim.Elems[1] = std::nullopt;
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Tile));
  D = tiled(dtype::Float32, {32, 32}, {1, 1});
  D.ElementStrides.Elems.clear();
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Tile));
  D = tiled(dtype::Float32, {32, 32}, {1, 1});
  D.Interleave = interleave::B32;
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Tile));
  // Packed types: the transaction count is not documented.
  EXPECT_FALSE(tensorCopyBytes(tiled(dtype::U4Align16B, {128, 8}, {1, 1}),
                               CopyMode::Tile));
  // A box the driver rejects has no count.
  EXPECT_FALSE(tensorCopyBytes(tiled(dtype::Float32, {32, 257}, {1, 1}),
                               CopyMode::Tile));
  D = tiled(dtype::Float32, {32, 32}, {1, 1});
  D.Rank = std::nullopt;
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Tile));
  // A tile copy of an im2col map.
  D = tiled(dtype::Float32, {32, 32}, {1, 1});
  D.Encoder = MapEncoder::Im2col;
  EXPECT_FALSE(tensorCopyBytes(D, CopyMode::Tile));
}

TEST(TmaDimEqRank, EqualIsSilent) {
  for (std::uint64_t N = 1; N <= 5; ++N)
    EXPECT_FALSE(checkTmaDimEqRank(N, N, CopyMode::Tile)) << N;
  EXPECT_FALSE(checkTmaDimEqRank(2, 2, CopyMode::Gather4));
  EXPECT_FALSE(checkTmaDimEqRank(std::nullopt, 3, CopyMode::Tile));
  EXPECT_FALSE(checkTmaDimEqRank(3, std::nullopt, CopyMode::Tile));
}

TEST(TmaDimEqRank, DifferentIsReported) {
  auto V = checkTmaDimEqRank(2, 3, CopyMode::Tile);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-DIM-EQ-RANK");
  EXPECT_EQ(V->Value, 2u);
  EXPECT_EQ(V->Limit, 3u);
  EXPECT_EQ(V->Message,
            "the copy is .2d, but the tensor map it reads has tensorRank 3");
  EXPECT_EQ(V->Suggestion, "use .3d with 3 coordinates");
  // gather4 needs a rank-2 map.
  EXPECT_TRUE(checkTmaDimEqRank(2, 3, CopyMode::Gather4));
  EXPECT_TRUE(checkTmaDimEqRank(2, 3, CopyMode::Scatter4));
}

TEST(TmaModeMatchesMap, EachModeWithItsEncoder) {
  EXPECT_FALSE(checkTmaModeMatchesMap(CopyMode::Tile, MapEncoder::Tiled, {}));
  EXPECT_FALSE(
      checkTmaModeMatchesMap(CopyMode::Gather4, MapEncoder::Tiled, {}));
  EXPECT_FALSE(
      checkTmaModeMatchesMap(CopyMode::Im2col, MapEncoder::Im2col, {}));
  EXPECT_FALSE(
      checkTmaModeMatchesMap(CopyMode::Im2colNoOffs, MapEncoder::Im2col, {}));
  EXPECT_FALSE(checkTmaModeMatchesMap(CopyMode::Im2colW, MapEncoder::Im2colWide,
                                      widemode::W));
  EXPECT_FALSE(checkTmaModeMatchesMap(CopyMode::Im2colW128,
                                      MapEncoder::Im2colWide, widemode::W128));
  // An unknown wide mode is silent.
  EXPECT_FALSE(checkTmaModeMatchesMap(CopyMode::Im2colW, MapEncoder::Im2colWide,
                                      std::nullopt));
}

TEST(TmaModeMatchesMap, MismatchesAreReported) {
  auto V = checkTmaModeMatchesMap(CopyMode::Tile, MapEncoder::Im2col, {});
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-MODE-MATCHES-MAP");
  EXPECT_EQ(V->Message, "the copy uses .tile, but the tensor map it reads "
                        "was encoded by cuTensorMapEncodeIm2col");
  EXPECT_TRUE(checkTmaModeMatchesMap(CopyMode::Im2col, MapEncoder::Tiled, {}));
  EXPECT_TRUE(
      checkTmaModeMatchesMap(CopyMode::Im2colW, MapEncoder::Im2col, {}));
  auto W = checkTmaModeMatchesMap(CopyMode::Im2colW128, MapEncoder::Im2colWide,
                                  widemode::W);
  ASSERT_TRUE(W);
  EXPECT_NE(W->Message.find("CU_TENSOR_MAP_IM2COL_WIDE_MODE_W"),
            std::string::npos);
}

} // namespace

namespace {

TEST(TmaPackedDirection, ReductionsAndU4Stores) {
  EXPECT_FALSE(checkTmaPackedDirection(dtype::Float16, CopyDirection::Reduce));
  EXPECT_FALSE(checkTmaPackedDirection(std::nullopt, CopyDirection::Reduce));
  EXPECT_FALSE(checkTmaPackedDirection(dtype::U4Align16B, CopyDirection::Load));
  EXPECT_FALSE(checkTmaPackedDirection(dtype::U4Align8B, CopyDirection::Store));
  EXPECT_FALSE(
      checkTmaPackedDirection(dtype::U6Align16B, CopyDirection::Store));
  for (std::uint64_t T :
       {dtype::U4Align8B, dtype::U4Align16B, dtype::U6Align16B}) {
    auto V = checkTmaPackedDirection(T, CopyDirection::Reduce);
    ASSERT_TRUE(V) << T;
    EXPECT_STREQ(V->RuleId, "TMA-PACKED-DIRECTION");
  }
  EXPECT_TRUE(checkTmaPackedDirection(dtype::U4Align16B, CopyDirection::Store));
}

TEST(TmaPackedCoord0, MultiplesOf128) {
  EXPECT_FALSE(checkTmaPackedCoord0(dtype::U4Align16B, CopyDirection::Load, 0));
  EXPECT_FALSE(
      checkTmaPackedCoord0(dtype::U4Align16B, CopyDirection::Load, 256));
  EXPECT_FALSE(checkTmaPackedCoord0(dtype::U4Align16B, CopyDirection::Load,
                                    std::uint64_t(0xffffff80))); // -128
  EXPECT_FALSE(checkTmaPackedCoord0(dtype::U4Align8B, CopyDirection::Load, 64));
  EXPECT_FALSE(checkTmaPackedCoord0(dtype::Float16, CopyDirection::Load, 3));
  EXPECT_FALSE(checkTmaPackedCoord0(dtype::U4Align16B, CopyDirection::Load,
                                    std::nullopt));
  auto V = checkTmaPackedCoord0(dtype::U4Align16B, CopyDirection::Load, 64);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-PACKED-COORD0");
  EXPECT_EQ(V->Limit, 128u);
  EXPECT_TRUE(checkTmaPackedCoord0(dtype::U6Align16B, CopyDirection::Load, 64));
  // 16U6 stores (.b6p2x16): multiples of 64.
  EXPECT_FALSE(
      checkTmaPackedCoord0(dtype::U6Align16B, CopyDirection::Store, 64));
  EXPECT_TRUE(
      checkTmaPackedCoord0(dtype::U6Align16B, CopyDirection::Store, 32));
}

} // namespace
