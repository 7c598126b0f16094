//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the im2col rule model.
//
//===----------------------------------------------------------------------===//
//
// Every rule of tma-rules.md sections 1.C and 1.D, and the section 1.A rules
// the im2col encoders share with cuTensorMapEncodeTiled, on both sides of
// each boundary. The limits come from the specification (the driver's doc
// comments it quotes), never from the model itself.
//
//===----------------------------------------------------------------------===//

#include "rules/Im2colRules.h"
#include "rules/DataTypes.h"
#include "rules/TiledRules.h"
#include "rules/Violation.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace tma::rules;

namespace {

using Values = std::vector<std::uint64_t>;
using Signed = std::vector<std::int64_t>;
using Violations = std::vector<Violation>;

KnownArray known(const Values &Elems) {
  KnownArray A;
  for (std::uint64_t E : Elems)
    A.Elems.push_back(E);
  A.Provided = Elems.size();
  return A;
}

KnownSignedArray knownSigned(const Signed &Elems) {
  KnownSignedArray A;
  for (std::int64_t E : Elems)
    A.Elems.push_back(E);
  A.Provided = Elems.size();
  return A;
}

/// Dense byte strides of \p Dims for \p Bytes-byte elements.
Values dense(const Values &Dims, std::uint64_t Bytes) {
  Values S;
  std::uint64_t B = Dims[0] * Bytes;
  for (std::size_t I = 1; I < Dims.size(); ++I) {
    S.push_back(B);
    B *= Dims[I];
  }
  return S;
}

/// fp16 NHWC [8][32][32][64], a 3x3 filter with padding 1 (corners -1),
/// 64 channels (128 bytes) under SWIZZLE_128B, 128 pixels per column.
/// Breaks no rule.
Im2colDescriptor nhwc(Values Dims = {64, 32, 32, 8},
                      std::uint64_t DataType = dtype::Float16,
                      std::uint64_t Bytes = 2) {
  Im2colDescriptor D;
  D.DataType = DataType;
  D.Rank = Dims.size();
  D.GlobalDim = known(Dims);
  D.GlobalStrides = known(dense(Dims, Bytes));
  D.PixelBoxLowerCorner = knownSigned(Signed(Dims.size() - 2, -1));
  D.PixelBoxUpperCorner = knownSigned(Signed(Dims.size() - 2, -1));
  D.ChannelsPerPixel = 64;
  D.PixelsPerColumn = 128;
  D.ElementStrides = known(Values(Dims.size(), 1));
  D.Interleave = interleave::None;
  D.Swizzle = swizzle::B128;
  D.L2Promotion = 2;
  D.OobFill = oobfill::None;
  return D;
}

/// The Im2colWide counterpart of nhwc(): MODE_W. Breaks no rule.
Im2colWideDescriptor wide(Values Dims = {64, 32, 32, 8}) {
  Im2colWideDescriptor D;
  D.DataType = dtype::Float16;
  D.Rank = Dims.size();
  D.GlobalDim = known(Dims);
  D.GlobalStrides = known(dense(Dims, 2));
  D.PixelBoxLowerCornerWidth = -1;
  D.PixelBoxUpperCornerWidth = -1;
  D.ChannelsPerPixel = 64;
  D.PixelsPerColumn = 128;
  D.ElementStrides = known(Values(Dims.size(), 1));
  D.Interleave = interleave::None;
  D.Mode = widemode::W;
  D.Swizzle = swizzle::B128;
  D.L2Promotion = 2;
  D.OobFill = oobfill::None;
  return D;
}

std::string describe(const Violations &Vs) {
  std::string S;
  for (const Violation &V : Vs)
    S += "  " + std::string(V.RuleId) + " at " + paramName(V.Parameter) +
         (V.Index ? "[" + std::to_string(*V.Index) + "]" : "") + ": " +
         V.Message + "\n";
  return S.empty() ? "  (no violation)\n" : S;
}

::testing::AssertionResult isClean(const Violations &Vs) {
  if (Vs.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected nothing, got:\n"
                                       << describe(Vs);
}

/// Exactly one violation, of \p Id at \p P (and \p Index).
::testing::AssertionResult
isOnly(const Violations &Vs, std::string_view Id, Param P,
       std::optional<unsigned> Index = std::nullopt) {
  if (Vs.size() == 1 && Id == Vs[0].RuleId && Vs[0].Parameter == P &&
      Vs[0].Index == Index)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected only " << Id << " at " << paramName(P) << ", got:\n"
         << describe(Vs);
}

bool mentions(const Violation &V, const std::string &Text) {
  return V.Message.find(Text) != std::string::npos;
}

//===----------------------------------------------------------------------===//
// Correct descriptors and unknown inputs
//===----------------------------------------------------------------------===//

TEST(Im2colRules, CorrectDescriptorsAreSilent) {
  EXPECT_TRUE(isClean(checkIm2col(nhwc())));
  EXPECT_TRUE(isClean(checkIm2col(nhwc({64, 1024, 8}))));    // NWC
  EXPECT_TRUE(isClean(checkIm2col(nhwc({64, 8, 8, 8, 2})))); // NDHWC
  EXPECT_TRUE(isClean(checkIm2colWide(wide())));
  EXPECT_TRUE(isClean(checkIm2colWide(wide({64, 1024, 8}))));
}

TEST(Im2colRules, UnknownOperandsAreSilent) {
  EXPECT_TRUE(isClean(checkIm2col(Im2colDescriptor())));
  EXPECT_TRUE(isClean(checkIm2colWide(Im2colWideDescriptor())));
  // Without the rank, the corner range and the area are unknown.
  Im2colDescriptor D = nhwc();
  D.Rank.reset();
  D.PixelBoxLowerCorner = knownSigned({-100, -100});
  EXPECT_TRUE(isClean(checkIm2col(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-I2C-RANK
//===----------------------------------------------------------------------===//

TEST(Im2colRules, RankIsThreeToFive) {
  Im2colDescriptor D = nhwc({64, 32, 32, 8, 2, 2});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-RANK", Param::TensorRank));
  D = nhwc({64, 32, 8});
  D.Rank = 2;
  Violations Vs = checkIm2col(D);
  EXPECT_TRUE(isOnly(Vs, "TMAP-I2C-RANK", Param::TensorRank));
  EXPECT_TRUE(mentions(Vs[0], "tensorRank is 2"));
  EXPECT_EQ(Vs[0].Limit, 3u);
}

TEST(Im2colRules, CornerArraysProvideRankMinusTwo) {
  Im2colDescriptor D = nhwc();
  D.PixelBoxLowerCorner = knownSigned({-1});
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-RANK", Param::PixelBoxLowerCorner));
  D = nhwc();
  D.GlobalStrides = known({128, 4096});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-RANK", Param::GlobalStrides));
}

//===----------------------------------------------------------------------===//
// TMAP-I2C-CORNER-RANGE
//===----------------------------------------------------------------------===//

/// \p Rank-dimensional descriptor whose every lower corner is \p Lower (the
/// upper corners stay 0 and the extents large, so the area is never empty).
Im2colDescriptor withLower(unsigned Rank, std::int64_t Lower) {
  Values Dims(Rank, 64);
  Im2colDescriptor D = nhwc(Dims);
  D.PixelBoxLowerCorner = knownSigned(Signed(Rank - 2, Lower));
  D.PixelBoxUpperCorner = knownSigned(Signed(Rank - 2, 0));
  return D;
}

TEST(Im2colRules, CornerRangeRank3) {
  EXPECT_TRUE(isClean(checkIm2col(withLower(3, -32768))));
  Violations Vs = checkIm2col(withLower(3, -32769));
  EXPECT_TRUE(
      isOnly(Vs, "TMAP-I2C-CORNER-RANGE", Param::PixelBoxLowerCorner, 0));
  EXPECT_TRUE(mentions(Vs[0], "-32769, outside [-32768, 32767]"));
  Im2colDescriptor D = withLower(3, 0);
  D.PixelBoxUpperCorner = knownSigned({32767});
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelBoxUpperCorner = knownSigned({32768});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-RANGE",
                     Param::PixelBoxUpperCorner, 0));
}

TEST(Im2colRules, CornerRangeRank4) {
  EXPECT_TRUE(isClean(checkIm2col(withLower(4, -128))));
  Violations Vs = checkIm2col(withLower(4, -129));
  ASSERT_EQ(Vs.size(), 2u) << describe(Vs);
  EXPECT_TRUE(mentions(Vs[1], "outside [-128, 127] for tensorRank 4"));
  Im2colDescriptor D = withLower(4, 0);
  D.PixelBoxUpperCorner = knownSigned({127, 0});
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelBoxUpperCorner = knownSigned({0, 128});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-RANGE",
                     Param::PixelBoxUpperCorner, 1));
}

TEST(Im2colRules, CornerRangeRank5) {
  // The catalogue's example: padding 20 on a rank-5 convolution.
  EXPECT_TRUE(isClean(checkIm2col(withLower(5, -16))));
  Im2colDescriptor D = withLower(5, -1);
  D.PixelBoxLowerCorner = knownSigned({-20, -1, -1});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-RANGE",
                     Param::PixelBoxLowerCorner, 0));
  D.PixelBoxLowerCorner = knownSigned({-1, -1, -17});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-RANGE",
                     Param::PixelBoxLowerCorner, 2));
  D = withLower(5, 0);
  D.PixelBoxUpperCorner = knownSigned({15, 15, 15});
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelBoxUpperCorner = knownSigned({16, 0, 0});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-RANGE",
                     Param::PixelBoxUpperCorner, 0));
}

TEST(Im2colRules, CornerPastTheArrayIsUnknown) {
  Im2colDescriptor D = withLower(4, 0);
  D.PixelBoxLowerCorner.Elems = {0}; // element 1 not folded
  EXPECT_TRUE(isClean(checkIm2col(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-I2C-CORNER-AREA
//===----------------------------------------------------------------------===//

TEST(Im2colRules, CornerAreaNeedsOnePosition) {
  // W = H = 8: globalDim + upper - lower = 8 - 7 - 0 = 1 position.
  Im2colDescriptor D = nhwc({64, 8, 8, 2});
  D.PixelBoxLowerCorner = knownSigned({0, 0});
  D.PixelBoxUpperCorner = knownSigned({-7, 0});
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelBoxUpperCorner = knownSigned({-8, 0});
  Violations Vs = checkIm2col(D);
  EXPECT_TRUE(
      isOnly(Vs, "TMAP-I2C-CORNER-AREA", Param::PixelBoxUpperCorner, 0));
  EXPECT_TRUE(mentions(Vs[0], "8 + -8 - 0 = 0 filter positions"));
  // The lower corner counts the other way.
  D.PixelBoxUpperCorner = knownSigned({0, 0});
  D.PixelBoxLowerCorner = knownSigned({0, 8});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-I2C-CORNER-AREA",
                     Param::PixelBoxUpperCorner, 1));
  D.PixelBoxLowerCorner = knownSigned({0, 7});
  EXPECT_TRUE(isClean(checkIm2col(D)));
}

TEST(Im2colRules, CornerAreaSilentWhenTheOrderMatters) {
  // W = 8, H = 64: element 0 empties W in W,H,D order but not H in the
  // driver's "{D, H, W}" wording; the order is not documented.
  Im2colDescriptor D = nhwc({64, 8, 64, 64});
  D.PixelBoxLowerCorner = knownSigned({0, 0});
  D.PixelBoxUpperCorner = knownSigned({-8, 0});
  EXPECT_TRUE(isClean(checkIm2col(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-I2C-CHANNELS and TMAP-I2C-PIXELS
//===----------------------------------------------------------------------===//

TEST(Im2colRules, ChannelsOneTo256) {
  Im2colDescriptor D = nhwc({256, 32, 32, 8}, dtype::UInt8, 1);
  D.Swizzle = swizzle::None;
  D.ChannelsPerPixel = 256;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.ChannelsPerPixel = 1;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.ChannelsPerPixel = 257;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
  D.ChannelsPerPixel = 300; // the example
  EXPECT_TRUE(mentions(checkIm2col(D)[0], "300, above the limit of 256"));
  D.ChannelsPerPixel = 0;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
}

TEST(Im2colRules, ChannelsWithinTheSwizzleSpan) {
  // fp16 under SWIZZLE_128B: 64 channels are 128 bytes, 65 are 130.
  Im2colDescriptor D = nhwc();
  D.ChannelsPerPixel = 65;
  Violations Vs = checkIm2col(D);
  EXPECT_TRUE(isOnly(Vs, "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
  EXPECT_EQ(Vs[0].Limit, 64u);
  // The field report: 128 fp16 channels under SWIZZLE_128B.
  D.ChannelsPerPixel = 128;
  Vs = checkIm2col(D);
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_TRUE(mentions(Vs[0], "128 * 2 bytes = 256 bytes, above the 128-byte "
                              "span of CU_TENSOR_MAP_SWIZZLE_128B"));
  ASSERT_TRUE(Vs[0].Suggested);
  EXPECT_EQ(Vs[0].Suggested->Value, 64u);
  // SWIZZLE_32B: 16 fp16 channels fit, 17 do not.
  D.Swizzle = swizzle::B32;
  D.ChannelsPerPixel = 16;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.ChannelsPerPixel = 17;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
  // No span without a swizzle, nor with an interleaved layout.
  D.Swizzle = swizzle::None;
  D.ChannelsPerPixel = 256;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.Swizzle = swizzle::B32;
  D.Interleave = interleave::B16;
  EXPECT_TRUE(isClean(checkIm2col(D)));
}

TEST(Im2colRules, PackedChannelsAre128) {
  Im2colDescriptor D = nhwc({128, 32, 32, 8}, dtype::U4Align16B, 1);
  D.GlobalStrides = known({64, 2048, 65536});
  D.ChannelsPerPixel = 128;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.ChannelsPerPixel = 64;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
}

TEST(Im2colRules, PixelsOneTo1024) {
  Im2colDescriptor D = nhwc();
  D.PixelsPerColumn = 1024;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelsPerColumn = 1;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.PixelsPerColumn = 1025;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-PIXELS", Param::PixelsPerColumn));
  D.PixelsPerColumn = 0;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-I2C-PIXELS", Param::PixelsPerColumn));
}

//===----------------------------------------------------------------------===//
// Section 1.A through cuTensorMapEncodeIm2col
//===----------------------------------------------------------------------===//

TEST(Im2colRules, SharedRulesApply) {
  Im2colDescriptor D = nhwc();
  D.GlobalStrides = known({136, 4352, 139264});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-GSTRIDE-ALIGN",
                     Param::GlobalStrides, 0));
  D = nhwc();
  D.GlobalDim = known({64, 32, 0, 8});
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-ENC-GDIM-RANGE", Param::GlobalDim, 2));
  D = nhwc();
  D.ElementStrides = known({1, 9, 1, 1});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-ESTRIDE-RANGE",
                     Param::ElementStrides, 1));
  D = nhwc();
  D.Swizzle = 128;
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-ENUM-RANGE", Param::Swizzle));
  D = nhwc();
  D.DataType = 16;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-ENC-DTYPE-ENUM", Param::TensorDataType));
  D = nhwc();
  D.OobFill = oobfill::NanRequestZeroFma;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.DataType = dtype::UInt16;
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-OOBFILL-FLOAT", Param::OobFill));
  D = nhwc();
  D.Interleave = interleave::B32;
  D.GlobalStrides = known({128, 4096, 131072});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-INTERLEAVE32-SWIZZLE32",
                     Param::Swizzle));
  // Element-count strides (the units heuristic).
  D = nhwc();
  D.GlobalStrides = known({64, 4096, 131072});
  EXPECT_TRUE(isOnly(checkIm2col(D), "TMAP-ENC-GSTRIDE-UNITS",
                     Param::GlobalStrides, 0));
}

TEST(Im2colRules, PackedSwizzleLists) {
  Im2colDescriptor D = nhwc({128, 32, 32, 8}, dtype::U6Align16B, 1);
  D.GlobalStrides = known({96, 3072, 98304});
  D.ChannelsPerPixel = 128;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.Swizzle = swizzle::None;
  EXPECT_TRUE(isClean(checkIm2col(D)));
  D.Swizzle = swizzle::B64;
  EXPECT_TRUE(
      isOnly(checkIm2col(D), "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle));
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeIm2colWide
//===----------------------------------------------------------------------===//

TEST(Im2colWideRules, RankIsThreeToFive) {
  Im2colWideDescriptor D = wide({64, 8});
  Violations Vs = checkIm2colWide(D);
  EXPECT_TRUE(isOnly(Vs, "TMAP-I2CW-RANK", Param::TensorRank));
  EXPECT_TRUE(isClean(checkIm2colWide(wide({64, 8, 8, 8, 2}))));
  EXPECT_TRUE(isOnly(checkIm2colWide(wide({64, 8, 8, 8, 2, 2})),
                     "TMAP-I2CW-RANK", Param::TensorRank));
  D = wide();
  D.ElementStrides = known({1, 1, 1});
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-RANK", Param::ElementStrides));
}

TEST(Im2colWideRules, CornerRange) {
  Im2colWideDescriptor D = wide({64, 70000, 4});
  D.PixelBoxLowerCornerWidth = -32768;
  D.PixelBoxUpperCornerWidth = 32767;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.PixelBoxLowerCornerWidth = -32769;
  EXPECT_TRUE(isOnly(checkIm2colWide(D), "TMAP-I2CW-CORNER",
                     Param::PixelBoxLowerCornerWidth));
  D.PixelBoxLowerCornerWidth = 0;
  D.PixelBoxUpperCornerWidth = 32768;
  EXPECT_TRUE(isOnly(checkIm2colWide(D), "TMAP-I2CW-CORNER",
                     Param::PixelBoxUpperCornerWidth));
}

TEST(Im2colWideRules, CornerArea) {
  Im2colWideDescriptor D = wide({64, 8, 4});
  D.PixelBoxLowerCornerWidth = 0;
  D.PixelBoxUpperCornerWidth = -7;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.PixelBoxUpperCornerWidth = -8;
  Violations Vs = checkIm2colWide(D);
  EXPECT_TRUE(isOnly(Vs, "TMAP-I2CW-CORNER", Param::PixelBoxUpperCornerWidth));
  EXPECT_TRUE(mentions(Vs[0], "= 0 filter positions"));
}

TEST(Im2colWideRules, SwizzleModes) {
  Im2colWideDescriptor D = wide();
  for (std::uint64_t S : {swizzle::B64, swizzle::B128, swizzle::B128Atom32B}) {
    D.Swizzle = S;
    D.ChannelsPerPixel = S == swizzle::B64 ? 32 : 64;
    EXPECT_TRUE(isClean(checkIm2colWide(D))) << S;
  }
  D.ChannelsPerPixel = 16;
  for (std::uint64_t S : {swizzle::None, swizzle::B32,
                          swizzle::B128Atom32BFlip8B, swizzle::B128Atom64B}) {
    D.Swizzle = S;
    EXPECT_TRUE(isOnly(checkIm2colWide(D), "TMAP-I2CW-SWIZZLE", Param::Swizzle))
        << S;
  }
}

TEST(Im2colWideRules, ChannelsWithinTheSwizzleSpan) {
  Im2colWideDescriptor D = wide();
  D.Swizzle = swizzle::B64;
  D.ChannelsPerPixel = 33;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-SWIZZLE", Param::ChannelsPerPixel));
  D.Swizzle = swizzle::B128;
  D.ChannelsPerPixel = 64;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.ChannelsPerPixel = 65;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-SWIZZLE", Param::ChannelsPerPixel));
  D.ChannelsPerPixel = 257;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel));
}

TEST(Im2colWideRules, InterleaveIsNone) {
  Im2colWideDescriptor D = wide();
  D.Interleave = interleave::B16;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-INTERLEAVE", Param::Interleave));
  D.Interleave = interleave::B32;
  D.GlobalStrides = known({128, 4096, 131072});
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-INTERLEAVE", Param::Interleave));
}

TEST(Im2colWideRules, ModeAndPixels) {
  Im2colWideDescriptor D = wide();
  D.Mode = 2;
  EXPECT_TRUE(isOnly(checkIm2colWide(D), "TMAP-ENC-ENUM-RANGE", Param::Mode));
  D.Mode = widemode::W;
  D.PixelsPerColumn = 1024;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.PixelsPerColumn = 1025;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-MODE", Param::PixelsPerColumn));
  D.PixelsPerColumn = 0;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-I2CW-MODE", Param::PixelsPerColumn));
  // W128 ignores pixelsPerColumn; an unknown mode may be W128.
  D.Mode = widemode::W128;
  D.PixelsPerColumn = 5000;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.Mode.reset();
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
}

TEST(Im2colWideRules, PackedSwizzleDrops64B) {
  Im2colWideDescriptor D = wide({128, 32, 8});
  D.DataType = dtype::U6Align16B;
  D.GlobalStrides = known({96, 3072});
  D.ChannelsPerPixel = 128;
  EXPECT_TRUE(isClean(checkIm2colWide(D)));
  D.Swizzle = swizzle::B64;
  EXPECT_TRUE(
      isOnly(checkIm2colWide(D), "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GSTRIDES-NULL (all three encoders)
//===----------------------------------------------------------------------===//

KnownArray nullArray() {
  KnownArray A;
  A.Null = true;
  return A;
}

TEST(GlobalStridesNull, RankOneStillNeedsAPointer) {
  // The driver record: rank 1, 64 fp16 elements, globalStrides == NULL.
  TiledDescriptor T;
  T.DataType = dtype::Float16;
  T.Rank = 1;
  T.GlobalDim = known({64});
  T.GlobalStrides = nullArray();
  T.BoxDim = known({64});
  T.ElementStrides = known({1});
  T.Interleave = interleave::None;
  T.Swizzle = swizzle::None;
  T.L2Promotion = 0;
  T.OobFill = oobfill::None;
  Violations Vs = checkTiled(T);
  EXPECT_TRUE(isOnly(Vs, "TMAP-ENC-GSTRIDES-NULL", Param::GlobalStrides));
  EXPECT_TRUE(mentions(Vs[0], "even for tensorRank 1"));
  // A one-element array (never read) is fine.
  T.GlobalStrides = known({128});
  EXPECT_TRUE(isClean(checkTiled(T)));
  // Unknown rank: silent.
  T.GlobalStrides = nullArray();
  T.Rank.reset();
  EXPECT_TRUE(isClean(checkTiled(T)));
}

TEST(GlobalStridesNull, Im2colEncoders) {
  Im2colDescriptor D = nhwc();
  D.GlobalStrides = nullArray();
  Violations Vs = checkIm2col(D);
  EXPECT_TRUE(isOnly(Vs, "TMAP-ENC-GSTRIDES-NULL", Param::GlobalStrides));
  EXPECT_TRUE(mentions(Vs[0], "tensorRank 4 reads 3 strides"));
  Im2colWideDescriptor W = wide();
  W.GlobalStrides = nullArray();
  EXPECT_TRUE(isOnly(checkIm2colWide(W), "TMAP-ENC-GSTRIDES-NULL",
                     Param::GlobalStrides));
}

} // namespace
