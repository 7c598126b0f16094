//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the cuTensorMapEncodeTiled rule model.
//
//===----------------------------------------------------------------------===//
//
// Every rule of tma-rules.md sections 1.A and 1.B that rules/TiledRules.h
// implements, tested on both sides of each of its boundaries. The expected
// values come from the specification (tma-rules.md, section 6 for element
// sizes), never from the model itself: the element-size table below is a copy
// of section 6.
//
// Layout: helpers; correct descriptors (must stay silent); unknown inputs
// (must stay silent); one suite per rule id; the three seed errors; ordering.
//
// Above 1,000 lines for a reason: the suites share the helpers and the
// element-size table at the top, and a reader checks the encoder's rules
// against section 1 in one place; a split by rule family would copy the
// helpers or move them into a header used by this file alone.
//
//===----------------------------------------------------------------------===//

#include "rules/TiledRules.h"
#include "rules/DataTypes.h"
#include "rules/Violation.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace tma::rules;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

using Values = std::vector<std::uint64_t>;
using Violations = std::vector<Violation>;

constexpr std::uint64_t TwoTo32 = std::uint64_t(1) << 32;
constexpr std::uint64_t TwoTo40 = std::uint64_t(1) << 40;
constexpr std::nullopt_t NoIndex = std::nullopt;

/// Bits per element in global memory of each CUtensorMapDataType
/// (tma-rules.md section 6).
constexpr unsigned SpecBits[] = {8,  16, 32, 32, 64, 64, 16, 32,
                                 64, 16, 32, 32, 32, 4,  4,  6};

/// The driver's spelling of \p P, from cuda.h.
std::string specName(Param P) {
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
  case Param::Encoder:
    return "encoder";
  }
  return "?";
}

/// "globalStrides[0]", or "swizzle" for a scalar operand.
std::string placeOf(Param P, std::optional<unsigned> Index) {
  std::string S = specName(P);
  if (Index)
    S += "[" + std::to_string(*Index) + "]";
  return S;
}

/// The ways a message may spell \p Value of \p P: the number, or for an
/// enumerator in range its name in cuda.h.
std::vector<std::string> spellings(Param P, std::uint64_t Value) {
  static const char *const DataTypes[] = {
      "UINT8",        "UINT16",       "UINT32",        "INT32",
      "UINT64",       "INT64",        "FLOAT16",       "FLOAT32",
      "FLOAT64",      "BFLOAT16",     "FLOAT32_FTZ",   "TFLOAT32",
      "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B",
  };
  static const char *const Interleaves[] = {"NONE", "16B", "32B"};
  static const char *const Swizzles[] = {
      "NONE",         "32B",           "64B",
      "128B",         "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B",
      "128B_ATOM_64B"};
  static const char *const L2Promotions[] = {"NONE", "L2_64B", "L2_128B",
                                             "L2_256B"};
  static const char *const OobFills[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};
  std::vector<std::string> S = {std::to_string(Value)};
  auto Add = [&](const char *Prefix, const auto &Names) {
    if (Value < std::size(Names))
      S.push_back(std::string(Prefix) + Names[Value]);
  };
  if (P == Param::TensorDataType)
    Add("CU_TENSOR_MAP_DATA_TYPE_", DataTypes);
  else if (P == Param::Interleave)
    Add("CU_TENSOR_MAP_INTERLEAVE_", Interleaves);
  else if (P == Param::Swizzle)
    Add("CU_TENSOR_MAP_SWIZZLE_", Swizzles);
  else if (P == Param::L2Promotion)
    Add("CU_TENSOR_MAP_L2_PROMOTION_", L2Promotions);
  else if (P == Param::OobFill)
    Add("CU_TENSOR_MAP_FLOAT_OOB_FILL_", OobFills);
  return S;
}

bool mentions(const std::string &Message, const std::string &Text) {
  return Message.find(Text) != std::string::npos;
}

/// An array operand whose elements are all known and that provides exactly
/// them.
KnownArray known(const Values &Elems) {
  KnownArray A;
  for (std::uint64_t E : Elems)
    A.Elems.push_back(E);
  A.Provided = Elems.size();
  return A;
}

/// The byte strides of a dense tensor of \p Dims (dimension 0 innermost).
Values denseStrides(std::uint64_t DataType, const Values &Dims) {
  Values Strides;
  std::uint64_t Bytes = Dims[0] * SpecBits[DataType] / 8;
  for (std::size_t I = 1; I < Dims.size(); ++I) {
    Strides.push_back(Bytes);
    Bytes *= Dims[I];
  }
  return Strides;
}

/// A fully known descriptor with element strides of 1, L2 promotion 128B, no
/// OOB fill and a void* global address.
TiledDescriptor tile(std::uint64_t DataType, const Values &Dims,
                     const Values &Strides, const Values &Box,
                     std::uint64_t Swizzle,
                     std::uint64_t Interleave = interleave::None) {
  TiledDescriptor D;
  D.DataType = DataType;
  D.Rank = Dims.size();
  D.GlobalDim = known(Dims);
  D.GlobalStrides = known(Strides);
  D.BoxDim = known(Box);
  D.ElementStrides = known(Values(Dims.size(), 1));
  D.Interleave = Interleave;
  D.Swizzle = Swizzle;
  D.L2Promotion = 2;
  D.OobFill = oobfill::None;
  return D;
}

/// tile() with dense byte strides.
TiledDescriptor denseTile(std::uint64_t DataType, const Values &Dims,
                          const Values &Box, std::uint64_t Swizzle,
                          std::uint64_t Interleave = interleave::None) {
  return tile(DataType, Dims, denseStrides(DataType, Dims), Box, Swizzle,
              Interleave);
}

/// bf16 [4096][4096], a 64 x 64 box (128 bytes wide), 128-byte swizzle, typed
/// __nv_bfloat16 pointer. Breaks no rule.
TiledDescriptor bf16Tile() {
  TiledDescriptor D =
      tile(dtype::BFloat16, {4096, 4096}, {8192}, {64, 64}, swizzle::B128);
  D.AddressElementBits = 16;
  return D;
}

/// fp16 NC/8HWC8-style rank-3 tensor with 16-byte interleave. Breaks no rule.
TiledDescriptor interleaved16B() {
  return tile(dtype::Float16, {8, 64, 64}, {16, 1024}, {8, 16, 16},
              swizzle::None, interleave::B16);
}

/// fp16 rank-3 tensor with 32-byte interleave and the 32-byte swizzle it
/// requires. Breaks no rule.
TiledDescriptor interleaved32B() {
  return tile(dtype::Float16, {16, 64, 64}, {32, 2048}, {16, 16, 16},
              swizzle::B32, interleave::B32);
}

/// A packed 16B-aligned type: [512][4096] values, box {128, 64}.
TiledDescriptor packed16BTile(std::uint64_t DataType,
                              std::uint64_t Swizzle = swizzle::B128) {
  return denseTile(DataType, {4096, 512}, {128, 64}, Swizzle);
}

/// FP4 (16U4_ALIGN8B): [1024][4096] values, box {256, 64} (128 bytes).
TiledDescriptor u4Align8BTile() {
  return denseTile(dtype::U4Align8B, {4096, 1024}, {256, 64}, swizzle::B128);
}

std::string describe(const Violations &Vs) {
  if (Vs.empty())
    return "  (no violation)\n";
  std::string S;
  for (const Violation &V : Vs) {
    S += "  " + std::string(V.RuleId) + " at " + placeOf(V.Parameter, V.Index) +
         ", value " + std::to_string(V.Value) + ", limit " +
         std::to_string(V.Limit);
    if (V.Suggested)
      S += ", suggests " + std::to_string(V.Suggested->Value);
    S += ": " + V.Message + "\n";
  }
  return S;
}

bool matches(const Violation &V, std::string_view RuleId, Param P,
             std::optional<unsigned> Index) {
  return RuleId == V.RuleId && V.Parameter == P && V.Index == Index;
}

/// The first violation of \p RuleId at \p P / \p Index, or nullptr.
const Violation *findRule(const Violations &Vs, std::string_view RuleId,
                          Param P, std::optional<unsigned> Index = NoIndex) {
  for (const Violation &V : Vs)
    if (matches(V, RuleId, P, Index))
      return &V;
  return nullptr;
}

::testing::AssertionResult isClean(const Violations &Vs) {
  if (Vs.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected no violation, got:\n"
                                       << describe(Vs);
}

/// At least one violation of \p RuleId at \p P / \p Index.
::testing::AssertionResult hasRule(const Violations &Vs,
                                   std::string_view RuleId, Param P,
                                   std::optional<unsigned> Index = NoIndex) {
  if (findRule(Vs, RuleId, P, Index))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << RuleId << " at " << placeOf(P, Index) << ", got:\n"
         << describe(Vs);
}

/// No violation of \p RuleId anywhere.
::testing::AssertionResult hasNoRule(const Violations &Vs,
                                     std::string_view RuleId) {
  for (const Violation &V : Vs)
    if (RuleId == V.RuleId)
      return ::testing::AssertionFailure()
             << "expected no " << RuleId << ", got:\n"
             << describe(Vs);
  return ::testing::AssertionSuccess();
}

/// No violation of \p RuleId at \p P / \p Index.
::testing::AssertionResult hasNoRuleAt(const Violations &Vs,
                                       std::string_view RuleId, Param P,
                                       std::optional<unsigned> Index) {
  if (!findRule(Vs, RuleId, P, Index))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected no " << RuleId << " at "
                                       << placeOf(P, Index) << ", got:\n"
                                       << describe(Vs);
}

/// Exactly one violation of \p RuleId at \p P / \p Index, with value \p Value
/// and (when given) limit \p Limit, whose message names the operand and the
/// value (as a number or, for an enumerator, by name). Other violations may be
/// present.
::testing::AssertionResult
isViolation(const Violations &Vs, std::string_view RuleId, Param P,
            std::optional<unsigned> Index, std::uint64_t Value,
            std::optional<std::uint64_t> Limit = std::nullopt) {
  unsigned Count = 0;
  const Violation *Found = nullptr;
  for (const Violation &V : Vs)
    if (matches(V, RuleId, P, Index)) {
      ++Count;
      Found = &V;
    }
  std::string Place = placeOf(P, Index);
  if (Count != 1)
    return ::testing::AssertionFailure()
           << "expected one " << RuleId << " at " << Place << ", found "
           << Count << " in:\n"
           << describe(Vs);
  if (Found->Value != Value)
    return ::testing::AssertionFailure()
           << RuleId << " at " << Place << ": value " << Found->Value
           << ", expected " << Value << "\n"
           << describe(Vs);
  if (Limit && Found->Limit != *Limit)
    return ::testing::AssertionFailure()
           << RuleId << " at " << Place << ": limit " << Found->Limit
           << ", expected " << *Limit << "\n"
           << describe(Vs);
  bool NamesValue = false;
  for (const std::string &Spelling : spellings(P, Value))
    NamesValue |= mentions(Found->Message, Spelling);
  if (!mentions(Found->Message, Place) || !NamesValue)
    return ::testing::AssertionFailure()
           << RuleId << ": message \"" << Found->Message
           << "\" does not name both '" << Place << "' and " << Value;
  return ::testing::AssertionSuccess();
}

/// isViolation(), and nothing else is reported.
::testing::AssertionResult
isOnlyViolation(const Violations &Vs, std::string_view RuleId, Param P,
                std::optional<unsigned> Index, std::uint64_t Value,
                std::optional<std::uint64_t> Limit = std::nullopt) {
  if (Vs.size() != 1)
    return ::testing::AssertionFailure() << "expected only " << RuleId << " at "
                                         << placeOf(P, Index) << ", got:\n"
                                         << describe(Vs);
  return isViolation(Vs, RuleId, P, Index, Value, Limit);
}

/// The stride suggestion of a TMAP-ENC-GSTRIDE-UNITS violation.
::testing::AssertionResult suggestsStride(const Violations &Vs, unsigned Index,
                                          std::uint64_t Bytes) {
  const Violation *V =
      findRule(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, Index);
  if (!V)
    return ::testing::AssertionFailure()
           << "no TMAP-ENC-GSTRIDE-UNITS at globalStrides[" << Index
           << "] in:\n"
           << describe(Vs);
  if (!V->Suggested)
    return ::testing::AssertionFailure() << "no suggestion: " << V->Message;
  const Suggestion &S = *V->Suggested;
  bool SetsStride = S.Kind == Suggestion::SetValue &&
                    S.Parameter == Param::GlobalStrides && S.Index == Index;
  if (!SetsStride || S.Value != Bytes)
    return ::testing::AssertionFailure()
           << "suggests " << placeOf(S.Parameter, S.Index) << " = " << S.Value
           << ", expected globalStrides[" << Index << "] = " << Bytes;
  return ::testing::AssertionSuccess();
}

//===----------------------------------------------------------------------===//
// Correct descriptors: must stay silent
//===----------------------------------------------------------------------===//

TEST(CorrectDescriptors, Bf16Rank2Box64x64Swizzle128B) {
  EXPECT_TRUE(isClean(checkTiled(bf16Tile())));
}

TEST(CorrectDescriptors, Fp8Box128x128Swizzle128B) {
  // FP8 is encoded as UINT8; 128 one-byte elements fill the 128-byte span.
  TiledDescriptor D =
      tile(dtype::UInt8, {8192, 8192}, {8192}, {128, 128}, swizzle::B128);
  D.AddressElementBits = 8;
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(CorrectDescriptors, Rank3Batched) {
  EXPECT_TRUE(isClean(checkTiled(denseTile(dtype::BFloat16, {4096, 1024, 8},
                                           {64, 128, 1}, swizzle::B128))));
  EXPECT_TRUE(isClean(checkTiled(
      denseTile(dtype::Float32, {256, 512, 16}, {32, 64, 1}, swizzle::B128))));
}

TEST(CorrectDescriptors, InterleavedNc8hwc8) {
  // fp16 NC/8HWC8: 8 channels of 2 bytes = one 16-byte interleave unit.
  // Rank 4: {C/8 inner, W, H, N*C/8}.
  EXPECT_TRUE(
      isClean(checkTiled(tile(dtype::Float16, {8, 28, 28, 8}, {16, 448, 12544},
                              {8, 8, 8, 1}, swizzle::None, interleave::B16))));
  // Rank 5: {C/8 inner, W, H, C/8, N}.
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::Float16, {8, 28, 28, 4, 2},
                                      {16, 448, 12544, 50176}, {8, 8, 8, 1, 1},
                                      swizzle::None, interleave::B16))));
  // NC/16HWC16 with 32-byte interleave, which requires the 32-byte swizzle
  // and 32-byte strides.
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::Float16, {16, 14, 14, 2, 2},
                                      {32, 448, 6272, 12544}, {16, 7, 7, 1, 1},
                                      swizzle::B32, interleave::B32))));
  // Any swizzle goes with the 16-byte interleave.
  TiledDescriptor D = interleaved16B();
  D.Swizzle = swizzle::B128;
  EXPECT_TRUE(isClean(checkTiled(D)));
  EXPECT_TRUE(isClean(checkTiled(interleaved32B())));
}

TEST(CorrectDescriptors, FastCuPermutedView) {
  // fast.cu / simplegemm: shape {64, M, N/64}, strides {2N, 128} for bf16
  // with M = N = 4096; the strides are not monotone on purpose.
  EXPECT_TRUE(
      isClean(checkTiled(tile(dtype::BFloat16, {64, 4096, 64}, {8192, 128},
                              {64, 128, 4}, swizzle::B128))));
}

TEST(CorrectDescriptors, ZeroStrides) {
  // Broadcast along a dimension.
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::BFloat16, {64, 128, 16}, {128, 0},
                                      {64, 64, 1}, swizzle::B128))));
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {64, 128}, {0}, {64, 64}, swizzle::B128))));
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::Float32, {64, 128, 16}, {0, 0},
                                      {32, 64, 1}, swizzle::B128))));
}

TEST(CorrectDescriptors, OverlappingRows) {
  // A sliding window: 64-element rows that start 16 elements apart.
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {64, 100}, {32}, {64, 64}, swizzle::B128))));
}

TEST(CorrectDescriptors, PackedTypes) {
  EXPECT_TRUE(isClean(checkTiled(u4Align8BTile())));
  EXPECT_TRUE(isClean(
      checkTiled(packed16BTile(dtype::U4Align16B, swizzle::B128Atom32B))));
  EXPECT_TRUE(isClean(checkTiled(packed16BTile(dtype::U6Align16B))));
  EXPECT_TRUE(
      isClean(checkTiled(packed16BTile(dtype::U6Align16B, swizzle::None))));
}

TEST(CorrectDescriptors, Rank1AndRank5) {
  EXPECT_TRUE(isClean(
      checkTiled(tile(dtype::BFloat16, {1 << 20}, {}, {256}, swizzle::None))));
  EXPECT_TRUE(isClean(checkTiled(denseTile(dtype::BFloat16, {64, 8, 8, 8, 8},
                                           {64, 2, 2, 2, 2}, swizzle::B128))));
}

TEST(CorrectDescriptors, Float64) {
  EXPECT_TRUE(isClean(checkTiled(
      denseTile(dtype::Float64, {1024, 1024}, {16, 32}, swizzle::B128))));
}

//===----------------------------------------------------------------------===//
// Unknown inputs: must stay silent
//===----------------------------------------------------------------------===//

TEST(UnknownInputs, EverythingUnknown) {
  EXPECT_TRUE(isClean(checkTiled(TiledDescriptor())));
  TiledRuleOptions NoHeuristics;
  NoHeuristics.StrideUnitHeuristics = false;
  NoHeuristics.AddressTypeCheck = false;
  EXPECT_TRUE(isClean(checkTiled(TiledDescriptor(), NoHeuristics)));
}

TEST(UnknownInputs, ArraysOfUnknownExtentAreNotShort) {
  TiledDescriptor D =
      denseTile(dtype::BFloat16, {64, 64, 8}, {64, 64, 1}, swizzle::B128);
  for (KnownArray *A :
       {&D.GlobalDim, &D.GlobalStrides, &D.BoxDim, &D.ElementStrides}) {
    A->Elems.resize(1);
    A->Provided = std::nullopt;
  }
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(UnknownInputs, UnknownElementsAreSkipped) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim.Elems = {std::nullopt, 0};
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 1, 0));
}

TEST(UnknownInputs, UnknownDataTypeSilencesSizeRules) {
  TiledDescriptor D = bf16Tile();
  D.DataType = std::nullopt;
  // Each of these breaks a rule for bf16, and every one of those rules needs
  // the data type.
  D.BoxDim = known({6, 64});
  D.Swizzle = swizzle::B32;
  D.GlobalStrides = known({4096});
  D.OobFill = oobfill::NanRequestZeroFma;
  D.AddressElementBits = 32;
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(UnknownInputs, UnknownInterleaveSilencesInterleaveRules) {
  // 6 floats are 24 bytes, 40 floats 160 bytes: both wrong without
  // interleave, both outside the rules with it.
  TiledDescriptor D =
      denseTile(dtype::Float32, {1024, 1024}, {6, 64}, swizzle::None);
  D.Interleave = std::nullopt;
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.BoxDim = known({40, 64});
  D.Swizzle = swizzle::B128;
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(UnknownInputs, UnknownSwizzleSilencesSpanRule) {
  TiledDescriptor D = bf16Tile();
  D.Swizzle = std::nullopt;
  D.BoxDim = known({128, 64}); // 256 bytes
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(UnknownInputs, UnknownDimsSilenceStrideUnits) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = KnownArray();
  D.GlobalStrides = known({4096}); // An element count, were dims known.
  EXPECT_TRUE(isClean(checkTiled(D)));

  // The alignment rule does not need the dims.
  TiledDescriptor F =
      tile(dtype::Float16, {100, 64}, {100}, {8, 64}, swizzle::None);
  F.GlobalDim.Elems[0] = std::nullopt;
  EXPECT_TRUE(isOnlyViolation(checkTiled(F), "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 0, 100, 16));
}

TEST(UnknownInputs, UnknownRankReadsNoElementPastTheFirst) {
  TiledDescriptor D = bf16Tile();
  D.Rank = std::nullopt;
  D.GlobalDim = known({4096, 0});
  D.BoxDim = known({64, 300});
  D.ElementStrides = known({1, 9});
  D.Swizzle = 7;
  Violations Vs = checkTiled(D);
  EXPECT_TRUE(hasNoRule(Vs, "TMAP-TILED-RANK"));
  EXPECT_TRUE(hasNoRuleAt(Vs, "TMAP-ENC-GDIM-RANGE", Param::GlobalDim, 1));
  EXPECT_TRUE(hasNoRuleAt(Vs, "TMAP-TILED-BOX-RANGE", Param::BoxDim, 1));
  EXPECT_TRUE(
      hasNoRuleAt(Vs, "TMAP-ENC-ESTRIDE-RANGE", Param::ElementStrides, 1));
  // Rules that do not read the arrays still apply.
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-ENUM-RANGE", Param::Swizzle, NoIndex, 7, 6));
}

//===----------------------------------------------------------------------===//
// TMAP-TILED-RANK
//===----------------------------------------------------------------------===//

TEST(TiledRank, ZeroIsReported) {
  TiledDescriptor D = bf16Tile();
  D.Rank = 0;
  // The limit broken is the lower one, as for every other range rule.
  EXPECT_TRUE(isViolation(checkTiled(D), "TMAP-TILED-RANK", Param::TensorRank,
                          NoIndex, 0, 1));
}

TEST(TiledRank, OneIsAccepted) {
  EXPECT_TRUE(isClean(
      checkTiled(tile(dtype::Float32, {1000}, {}, {4}, swizzle::None))));
}

TEST(TiledRank, FiveIsAcceptedSixIsReported) {
  EXPECT_TRUE(isClean(checkTiled(denseTile(dtype::BFloat16, {64, 8, 8, 8, 8},
                                           {64, 2, 2, 2, 2}, swizzle::B128))));
  TiledDescriptor D = denseTile(dtype::BFloat16, {64, 8, 8, 8, 8, 2},
                                {64, 2, 2, 2, 2, 2}, swizzle::B128);
  EXPECT_TRUE(isViolation(checkTiled(D), "TMAP-TILED-RANK", Param::TensorRank,
                          NoIndex, 6, 5));
}

TEST(TiledRank, ArraysMustProvideRankElements) {
  auto Rank3 = [] {
    return denseTile(dtype::BFloat16, {64, 64, 8}, {64, 64, 1}, swizzle::B128);
  };
  ASSERT_TRUE(isClean(checkTiled(Rank3())));

  auto Shorten = [](KnownArray &A, std::uint64_t Provided) {
    A.Provided = Provided;
    A.Elems.resize(Provided);
  };
  TiledDescriptor D = Rank3();
  Shorten(D.GlobalDim, 2);
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-RANK",
                              Param::GlobalDim, NoIndex, 2, 3));

  D = Rank3();
  Shorten(D.BoxDim, 2);
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-RANK", Param::BoxDim,
                              NoIndex, 2, 3));

  D = Rank3();
  Shorten(D.ElementStrides, 2);
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-RANK",
                              Param::ElementStrides, NoIndex, 2, 3));
}

TEST(TiledRank, GlobalStridesMustProvideRankMinusOne) {
  TiledDescriptor D =
      denseTile(dtype::BFloat16, {64, 64, 8}, {64, 64, 1}, swizzle::B128);
  ASSERT_EQ(D.GlobalStrides.Provided, std::optional<std::uint64_t>(2));
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({128});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-RANK",
                              Param::GlobalStrides, NoIndex, 1, 2));
  // Rank 1 passes no stride at all.
  TiledDescriptor R1 = tile(dtype::Float32, {1000}, {}, {4}, swizzle::None);
  ASSERT_EQ(R1.GlobalStrides.Provided, std::optional<std::uint64_t>(0));
  EXPECT_TRUE(isClean(checkTiled(R1)));
}

TEST(TiledRank, LongerArraysAreFineAndOnlyRankEntriesAreRead) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = known({4096, 4096, 0});
  D.GlobalStrides = known({8192, 7});
  D.BoxDim = known({64, 64, 0});
  D.ElementStrides = known({1, 1, 0});
  EXPECT_TRUE(isClean(checkTiled(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-INTERLEAVE-RANK
//===----------------------------------------------------------------------===//

TEST(InterleaveRank, RankThreeIsAccepted) {
  EXPECT_TRUE(isClean(checkTiled(interleaved16B())));
  EXPECT_TRUE(isClean(checkTiled(interleaved32B())));
}

/// The interleave-rank violation of \p D: reported on the interleave operand
/// (Value is then the interleave enumerator, Violation.h: "the value found,
/// in the operand's own unit"), with a message that gives the rank.
::testing::AssertionResult isInterleaveRank(const TiledDescriptor &D) {
  Violations Vs = checkTiled(D);
  ::testing::AssertionResult R =
      isOnlyViolation(Vs, "TMAP-ENC-INTERLEAVE-RANK", Param::Interleave,
                      NoIndex, *D.Interleave);
  if (!R)
    return R;
  const std::string &Message = Vs[0].Message;
  if (!mentions(Message, "tensorRank") ||
      !mentions(Message, std::to_string(*D.Rank)))
    return ::testing::AssertionFailure()
           << "message \"" << Message << "\" does not give tensorRank "
           << *D.Rank;
  return ::testing::AssertionSuccess();
}

TEST(InterleaveRank, RankTwoIsReported) {
  EXPECT_TRUE(isInterleaveRank(tile(dtype::Float16, {8, 64}, {16}, {8, 16},
                                    swizzle::None, interleave::B16)));
  EXPECT_TRUE(isInterleaveRank(tile(dtype::Float16, {16, 64}, {32}, {16, 16},
                                    swizzle::B32, interleave::B32)));
}

TEST(InterleaveRank, RankOneIsReported) {
  EXPECT_TRUE(isInterleaveRank(
      tile(dtype::Float16, {16}, {}, {16}, swizzle::B32, interleave::B32)));
  EXPECT_TRUE(isInterleaveRank(
      tile(dtype::Float16, {8}, {}, {8}, swizzle::None, interleave::B16)));
}

TEST(InterleaveRank, NoInterleaveTakesAnyRank) {
  EXPECT_TRUE(isClean(
      checkTiled(tile(dtype::Float16, {8, 64}, {16}, {8, 16}, swizzle::None))));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GDIM-RANGE
//===----------------------------------------------------------------------===//

TEST(GlobalDimRange, ZeroIsReported) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = known({4096, 0});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 1, 0, 1));
  D.GlobalDim = known({0, 4096});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 0, 0, 1));
}

TEST(GlobalDimRange, OneIsAccepted) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = known({4096, 1});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalDim = known({1, 4096});
  EXPECT_TRUE(isClean(checkTiled(D)));
}

TEST(GlobalDimRange, UpperBoundIsTwoTo32Inclusive) {
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = known({4096, TwoTo32});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalDim = known({4096, TwoTo32 + 1});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 1, TwoTo32 + 1, TwoTo32));
  D.GlobalDim = known({TwoTo32, 4096});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalDim = known({TwoTo32 + 1, 4096});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 0, TwoTo32 + 1, TwoTo32));
}

TEST(GlobalDimRange, NegativeIntBecomesLargeUnsigned) {
  // cuuint64_t gdim[] = {-1, ...}: the driver sees 2^64 - 1.
  TiledDescriptor D = bf16Tile();
  D.GlobalDim = known({4096, UINT64_MAX});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-RANGE",
                              Param::GlobalDim, 1, UINT64_MAX, TwoTo32));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GDIM-PACKED
//===----------------------------------------------------------------------===//

TEST(GlobalDimPacked, Align16BTypesNeedMultipleOf128) {
  for (std::uint64_t Type : {dtype::U4Align16B, dtype::U6Align16B}) {
    SCOPED_TRACE("data type " + std::to_string(Type));
    for (std::uint64_t Good : {128, 256, 3968}) {
      TiledDescriptor D = packed16BTile(Type);
      D.GlobalDim.Elems[0] = Good;
      EXPECT_TRUE(isClean(checkTiled(D))) << "globalDim[0] = " << Good;
    }
    for (std::uint64_t Bad : {64, 127, 129, 192, 4095}) {
      TiledDescriptor D = packed16BTile(Type);
      D.GlobalDim.Elems[0] = Bad;
      EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-PACKED",
                                  Param::GlobalDim, 0, Bad, 128));
    }
  }
}

TEST(GlobalDimPacked, Align8BNeedsEvenExtent) {
  for (std::uint64_t Good : {2, 4094}) {
    TiledDescriptor D = u4Align8BTile();
    D.GlobalDim.Elems[0] = Good;
    EXPECT_TRUE(isClean(checkTiled(D))) << "globalDim[0] = " << Good;
  }
  for (std::uint64_t Bad : {1, 3, 4095}) {
    TiledDescriptor D = u4Align8BTile();
    D.GlobalDim.Elems[0] = Bad;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-PACKED",
                                Param::GlobalDim, 0, Bad, 2));
  }
}

TEST(GlobalDimPacked, OnlyDimensionZeroOfPackedTypes) {
  TiledDescriptor D = packed16BTile(dtype::U4Align16B);
  D.GlobalDim.Elems[1] = 3;
  EXPECT_TRUE(isClean(checkTiled(D)));
  // Byte-sized types take any extent.
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::UInt8, {4095, 64}, {4096}, {128, 64}, swizzle::B128))));
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {4095, 64}, {8192}, {64, 64}, swizzle::B128))));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GSTRIDE-ALIGN
//===----------------------------------------------------------------------===//

TEST(GlobalStrideAlign, MultipleOf16Bytes) {
  TiledDescriptor D = bf16Tile();
  D.GlobalStrides = known({8208});
  EXPECT_TRUE(isClean(checkTiled(D)));
  for (std::uint64_t Bad : {8200, 8193, 8216}) {
    D.GlobalStrides = known({Bad});
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-ALIGN",
                                Param::GlobalStrides, 0, Bad, 16));
  }
}

TEST(GlobalStrideAlign, EveryReadIndex) {
  TiledDescriptor D = tile(dtype::BFloat16, {64, 64, 8}, {128, 8192},
                           {64, 64, 1}, swizzle::B128);
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({128, 8200});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 1, 8200, 16));
  D.GlobalStrides = known({136, 8200});
  Violations Vs = checkTiled(D);
  EXPECT_EQ(Vs.size(), 2u) << describe(Vs);
  EXPECT_TRUE(isViolation(Vs, "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 0,
                          136, 16));
  EXPECT_TRUE(isViolation(Vs, "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 1,
                          8200, 16));
}

TEST(GlobalStrideAlign, Interleave32BNeeds32) {
  TiledDescriptor D = interleaved32B();
  D.GlobalStrides = known({48, 3072});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 0, 48, 32));
  D.GlobalStrides = known({64, 3072});
  EXPECT_TRUE(isClean(checkTiled(D)));
  // 16 bytes are enough with the 16-byte interleave.
  TiledDescriptor E = tile(dtype::Float16, {16, 64, 64}, {48, 3072},
                           {16, 16, 16}, swizzle::None, interleave::B16);
  EXPECT_TRUE(isClean(checkTiled(E)));
}

TEST(GlobalStrideAlign, Packed16BTypesNeed32) {
  TiledDescriptor D = packed16BTile(dtype::U4Align16B);
  ASSERT_EQ(D.GlobalStrides.at(0), std::optional<std::uint64_t>(2048));
  D.GlobalStrides = known({2080});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({2064});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 0, 2064, 32));

  D = packed16BTile(dtype::U6Align16B);
  ASSERT_EQ(D.GlobalStrides.at(0), std::optional<std::uint64_t>(3072));
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({3088});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 0, 3088, 32));

  // 16U4_ALIGN8B needs only 16.
  D = u4Align8BTile();
  D.GlobalStrides = known({2064});
  EXPECT_TRUE(isClean(checkTiled(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GSTRIDE-MAX
//===----------------------------------------------------------------------===//

TEST(GlobalStrideMax, BelowTwoTo40) {
  TiledDescriptor D = bf16Tile();
  D.GlobalStrides = known({TwoTo40 - 16});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({TwoTo40});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-MAX",
                              Param::GlobalStrides, 0, TwoTo40, TwoTo40));
  D.GlobalStrides = known({TwoTo40 + 16});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-MAX",
                              Param::GlobalStrides, 0, TwoTo40 + 16, TwoTo40));
}

TEST(GlobalStrideMax, OuterIndex) {
  TiledDescriptor D = tile(dtype::BFloat16, {64, 64, 8}, {128, TwoTo40 - 16},
                           {64, 64, 1}, swizzle::B128);
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.GlobalStrides = known({128, TwoTo40});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GSTRIDE-MAX",
                              Param::GlobalStrides, 1, TwoTo40, TwoTo40));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GSTRIDE-UNITS
//===----------------------------------------------------------------------===//

TEST(GlobalStrideUnits, ElementCountInsteadOfBytes) {
  // fp16 [64][100] with the row stride given in elements. 100 is not a
  // multiple of 16, but only the units violation is reported.
  Violations Vs = checkTiled(
      tile(dtype::Float16, {100, 64}, {100}, {8, 64}, swizzle::None));
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS",
                              Param::GlobalStrides, 0, 100));
  EXPECT_TRUE(suggestsStride(Vs, 0, 200));
}

TEST(GlobalStrideUnits, ElementCountThatIsAMultipleOf16) {
  // Would encode, and read the wrong rows.
  TiledDescriptor D = bf16Tile();
  D.GlobalStrides = known({4096});
  Violations Vs = checkTiled(D);
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS",
                              Param::GlobalStrides, 0, 4096));
  EXPECT_TRUE(suggestsStride(Vs, 0, 8192));
}

TEST(GlobalStrideUnits, BothSidesOfTheCount) {
  TiledDescriptor D = bf16Tile();
  for (std::uint64_t NotACount : {4096 - 16, 4096 + 16}) {
    D.GlobalStrides = known({NotACount});
    EXPECT_TRUE(isClean(checkTiled(D))) << "stride " << NotACount;
  }
}

TEST(GlobalStrideUnits, CountOfAllLowerDimensions) {
  // fp32 [8][32][64]: strides are {256, 8192} bytes.
  auto Fp32 = [](const Values &Strides) {
    return checkTiled(
        tile(dtype::Float32, {64, 32, 8}, Strides, {32, 32, 8}, swizzle::B128));
  };
  EXPECT_TRUE(isClean(Fp32({256, 8192})));

  Violations Vs = Fp32({256, 2048}); // 2048 = 64 * 32 elements
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS",
                              Param::GlobalStrides, 1, 2048));
  EXPECT_TRUE(suggestsStride(Vs, 1, 8192));

  Vs = Fp32({64, 2048});
  EXPECT_EQ(Vs.size(), 2u) << describe(Vs);
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, 64));
  EXPECT_TRUE(suggestsStride(Vs, 0, 256));
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 1, 2048));
  EXPECT_TRUE(suggestsStride(Vs, 1, 8192));

  // Not the count of the lower dimensions: 2048 + 16.
  EXPECT_TRUE(isClean(Fp32({256, 2064})));
}

TEST(GlobalStrideUnits, OneByteElementsAreAlreadyBytes) {
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::UInt8, {4096, 64}, {4096}, {128, 64}, swizzle::B128))));
  // A bad byte stride is an alignment problem, not a units problem.
  EXPECT_TRUE(isOnlyViolation(
      checkTiled(tile(dtype::UInt8, {100, 64}, {100}, {16, 64}, swizzle::None)),
      "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 0, 100, 16));
}

TEST(GlobalStrideUnits, PackedTypesNeverCountElements) {
  // K/2 bytes for 4096 4-bit values is right.
  TiledDescriptor D = u4Align8BTile();
  ASSERT_EQ(D.GlobalStrides.at(0), std::optional<std::uint64_t>(2048));
  EXPECT_TRUE(isClean(checkTiled(D)));
  // A stride equal to the value count is not reported for packed types.
  D.GlobalStrides = known({4096});
  EXPECT_TRUE(isClean(checkTiled(D)));
  for (std::uint64_t Type : {dtype::U4Align16B, dtype::U6Align16B}) {
    TiledDescriptor P = packed16BTile(Type);
    P.GlobalStrides = known({4096});
    EXPECT_TRUE(isClean(checkTiled(P))) << "data type " << Type;
  }
}

TEST(GlobalStrideUnits, InnermostStrideIncluded) {
  // fp32 [64][64] with globalStrides = {sizeof(float), ...}.
  Violations Vs =
      checkTiled(tile(dtype::Float32, {64, 64}, {4}, {32, 64}, swizzle::B128));
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, 4));

  // No value change fixes a one-element array.
  const Violation *V =
      findRule(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0);
  ASSERT_NE(V, nullptr);
  EXPECT_FALSE(V->Suggested && V->Suggested->Kind == Suggestion::SetValue)
      << V->Suggested->Text;

  // rank entries passed instead of rank - 1: {4, 256, 16384}.
  TiledDescriptor D = tile(dtype::Float32, {64, 64, 8}, {4, 256, 16384},
                           {32, 64, 8}, swizzle::B128);
  Vs = checkTiled(D);
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, 4));
  EXPECT_TRUE(
      hasNoRuleAt(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 1));
  // The array holds one stride too many: skipping the first one fixes it.
  V = findRule(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0);
  ASSERT_NE(V, nullptr);
  ASSERT_TRUE(V->Suggested.has_value());
  EXPECT_EQ(V->Suggested->Kind, Suggestion::SkipFirstElement);
  EXPECT_EQ(V->Suggested->Parameter, Param::GlobalStrides);

  Vs = checkTiled(tile(dtype::Float64, {64, 64}, {8}, {16, 64}, swizzle::B128));
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, 8));
  Vs = checkTiled(tile(dtype::UInt8, {64, 64}, {1}, {64, 64}, swizzle::B128));
  EXPECT_TRUE(
      isViolation(Vs, "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, 1));

  // 16 bytes is not the element size: overlapping rows, not reported.
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::Float32, {64, 64}, {16}, {32, 64}, swizzle::B128))));
}

TEST(GlobalStrideUnits, ElementSizeOnlyMattersAtIndexZero) {
  Violations Vs = checkTiled(
      tile(dtype::Float32, {64, 64, 8}, {256, 4}, {32, 64, 8}, swizzle::B128));
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 1, 4, 16));
}

TEST(GlobalStrideUnits, NonMonotoneStridesAreNeverReported) {
  // fast.cu's {2N, 128} with a small M: 128 happens to equal 64 * M.
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::BFloat16, {64, 2, 64}, {8192, 128},
                                      {64, 2, 4}, swizzle::B128))));
  // A transposed view whose second stride equals 64 * 64.
  EXPECT_TRUE(
      isClean(checkTiled(tile(dtype::BFloat16, {64, 64, 8}, {8192, 4096},
                              {64, 64, 8}, swizzle::B128))));
}

TEST(GlobalStrideUnits, ZeroStridesAreNeverReported) {
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {64, 64, 8}, {0, 0}, {64, 64, 8}, swizzle::B128))));
  // 2^32 * 2^32 elements wraps to 0 in 64 bits: still not a count.
  EXPECT_TRUE(
      isClean(checkTiled(tile(dtype::BFloat16, {TwoTo32, TwoTo32, 4},
                              {2 * TwoTo32, 0}, {64, 64, 4}, swizzle::B128))));
  // (2^32 - 1)^2 * 2^31 elements wrap to 2^31 in 64 bits, which is the
  // (non-monotone) stride of dimension 3.
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {TwoTo32 - 1, TwoTo32 - 1, TwoTo32 / 2, 1},
           {2 * TwoTo32, 4 * TwoTo32, TwoTo32 / 2}, {64, 64, 1, 1},
           swizzle::B128))));
}

TEST(GlobalStrideUnits, OverlappingStridesAreNeverReported) {
  EXPECT_TRUE(isClean(checkTiled(
      tile(dtype::BFloat16, {64, 100}, {32}, {64, 64}, swizzle::B128))));
  EXPECT_TRUE(isClean(checkTiled(tile(dtype::Float32, {64, 64, 8}, {16, 32},
                                      {32, 64, 8}, swizzle::B128))));
}

TEST(GlobalStrideUnits, SwitchedOffByOption) {
  TiledRuleOptions Opts;
  Opts.StrideUnitHeuristics = false;
  // The alignment rule then reports what the units rule would have.
  EXPECT_TRUE(isOnlyViolation(
      checkTiled(tile(dtype::Float16, {100, 64}, {100}, {8, 64}, swizzle::None),
                 Opts),
      "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 0, 100, 16));
  TiledDescriptor D = bf16Tile();
  D.GlobalStrides = known({4096});
  EXPECT_TRUE(isClean(checkTiled(D, Opts)));
  EXPECT_TRUE(isOnlyViolation(
      checkTiled(tile(dtype::Float32, {64, 64}, {4}, {32, 64}, swizzle::B128),
                 Opts),
      "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 0, 4, 16));
}

//===----------------------------------------------------------------------===//
// TMAP-TILED-BOX-RANGE
//===----------------------------------------------------------------------===//

TEST(BoxRange, OneTo256) {
  TiledDescriptor D = bf16Tile();
  for (std::uint64_t Good : {1, 256}) {
    D.BoxDim = known({64, Good});
    EXPECT_TRUE(isClean(checkTiled(D))) << "boxDim[1] = " << Good;
  }
  D.BoxDim = known({64, 0});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE",
                              Param::BoxDim, 1, 0, 1));
  D.BoxDim = known({64, 257});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE",
                              Param::BoxDim, 1, 257, 256));
  D.BoxDim = known({64, 512});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE",
                              Param::BoxDim, 1, 512, 256));
}

TEST(BoxRange, DimensionZero) {
  TiledDescriptor D =
      tile(dtype::UInt8, {8192, 64}, {8192}, {256, 64}, swizzle::None);
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.BoxDim = known({272, 64}); // 17 x 16 bytes
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE",
                              Param::BoxDim, 0, 272, 256));
  D.BoxDim = known({0, 64});
  EXPECT_TRUE(
      isViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE", Param::BoxDim, 0, 0));
}

TEST(BoxRange, LastDimensionOfRank5) {
  TiledDescriptor D = denseTile(dtype::BFloat16, {64, 8, 8, 8, 300},
                                {64, 2, 2, 2, 256}, swizzle::B128);
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.BoxDim.Elems[4] = 257;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-RANGE",
                              Param::BoxDim, 4, 257, 256));
}

//===----------------------------------------------------------------------===//
// TMAP-TILED-BOX-INNER-16B
//===----------------------------------------------------------------------===//

struct InnerBoxCase {
  std::uint64_t DataType;
  Values Good;
  Values Bad;
};

TEST(BoxInner16B, MultipleOf16BytesForEveryType) {
  const InnerBoxCase Cases[] = {
      {dtype::UInt8, {16, 32, 256}, {8, 15, 17, 255}},
      {dtype::UInt16, {8, 16, 256}, {4, 7, 12}},
      {dtype::Float16, {8, 16, 256}, {4, 7, 12}},
      {dtype::BFloat16, {8, 16, 256}, {1, 60, 252}},
      {dtype::UInt32, {4, 8, 12}, {1, 2, 6, 10}},
      {dtype::Int32, {4, 8, 12}, {2, 6}},
      {dtype::Float32, {4, 8, 12}, {2, 6, 10}},
      {dtype::Float32Ftz, {4, 256}, {6}},
      {dtype::TFloat32, {4, 256}, {6}},
      {dtype::TFloat32Ftz, {4, 256}, {6}},
      {dtype::UInt64, {2, 4}, {1, 3}},
      {dtype::Int64, {2, 4}, {1, 3}},
      {dtype::Float64, {2, 4, 256}, {1, 3, 255}},
      // Half a byte per element: a multiple of 32 elements.
      {dtype::U4Align8B, {32, 64, 256}, {1, 16, 31, 33, 48}},
  };
  for (const InnerBoxCase &C : Cases) {
    SCOPED_TRACE("data type " + std::to_string(C.DataType));
    for (std::uint64_t Good : C.Good) {
      TiledDescriptor D =
          denseTile(C.DataType, {8192, 64}, {Good, 64}, swizzle::None);
      EXPECT_TRUE(isClean(checkTiled(D))) << "boxDim[0] = " << Good;
    }
    for (std::uint64_t Bad : C.Bad) {
      TiledDescriptor D =
          denseTile(C.DataType, {8192, 64}, {Bad, 64}, swizzle::None);
      Violations Vs = checkTiled(D);
      EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-TILED-BOX-INNER-16B", Param::BoxDim,
                                  0, Bad));
      // A suggested box width, if any, must satisfy the rule.
      const Violation *V =
          findRule(Vs, "TMAP-TILED-BOX-INNER-16B", Param::BoxDim, 0);
      if (V && V->Suggested) {
        EXPECT_EQ(V->Suggested->Value * SpecBits[C.DataType] % 128, 0u)
            << V->Suggested->Text;
      }
    }
  }
}

TEST(BoxInner16B, NotAppliedToPacked16BTypes) {
  // 100 x 4 bits and 136 x 8 bits are not multiples of 128 bits; the packed
  // types have their own box rule.
  TiledDescriptor D = packed16BTile(dtype::U4Align16B, swizzle::None);
  D.BoxDim = known({100, 64});
  Violations Vs = checkTiled(D);
  EXPECT_TRUE(hasNoRule(Vs, "TMAP-TILED-BOX-INNER-16B"));
  EXPECT_TRUE(hasRule(Vs, "TMAP-TILED-BOX-PACKED", Param::BoxDim, 0));

  D = packed16BTile(dtype::U6Align16B, swizzle::None);
  D.BoxDim = known({136, 64});
  Vs = checkTiled(D);
  EXPECT_TRUE(hasNoRule(Vs, "TMAP-TILED-BOX-INNER-16B"));
  EXPECT_TRUE(hasRule(Vs, "TMAP-TILED-BOX-PACKED", Param::BoxDim, 0));
}

TEST(BoxInner16B, NotAppliedWithInterleave) {
  TiledDescriptor D = interleaved16B();
  D.BoxDim = known({4, 16, 16}); // 8 bytes
  EXPECT_TRUE(hasNoRule(checkTiled(D), "TMAP-TILED-BOX-INNER-16B"));
  D = tile(dtype::Float32, {8, 64, 64}, {32, 2048}, {6, 16, 16}, swizzle::None,
           interleave::B16);
  EXPECT_TRUE(hasNoRule(checkTiled(D), "TMAP-TILED-BOX-INNER-16B"));
}

//===----------------------------------------------------------------------===//
// TMAP-TILED-BOX-PACKED
//===----------------------------------------------------------------------===//

TEST(BoxPacked, Packed16BTypesNeedExactly128) {
  for (std::uint64_t Type : {dtype::U4Align16B, dtype::U6Align16B}) {
    SCOPED_TRACE("data type " + std::to_string(Type));
    TiledDescriptor D = packed16BTile(Type, swizzle::None);
    EXPECT_TRUE(isClean(checkTiled(D)));
    for (std::uint64_t Bad : {64, 127, 129, 256}) {
      D.BoxDim = known({Bad, 64});
      EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-PACKED",
                                  Param::BoxDim, 0, Bad, 128));
    }
  }
}

TEST(BoxPacked, NotAppliedTo16U4Align8B) {
  TiledDescriptor D = u4Align8BTile();
  D.BoxDim = known({64, 64});
  EXPECT_TRUE(isClean(checkTiled(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-TILED-SWIZZLE-INNER
//===----------------------------------------------------------------------===//

TEST(SwizzleInner, Bf16AtEverySpan) {
  struct {
    std::uint64_t Swizzle;
    std::uint64_t MaxBox; // span / 2 bytes
  } const Cases[] = {
      {swizzle::B32, 16},
      {swizzle::B64, 32},
      {swizzle::B128, 64},
      {swizzle::B128Atom32B, 64},
      {swizzle::B128Atom32BFlip8B, 64},
      {swizzle::B128Atom64B, 64},
  };
  for (const auto &C : Cases) {
    SCOPED_TRACE("swizzle " + std::to_string(C.Swizzle));
    TiledDescriptor D = bf16Tile();
    D.Swizzle = C.Swizzle;
    for (std::uint64_t Good : {std::uint64_t(8), C.MaxBox}) {
      D.BoxDim = known({Good, 64});
      EXPECT_TRUE(isClean(checkTiled(D))) << "boxDim[0] = " << Good;
    }
    D.BoxDim = known({C.MaxBox + 8, 64});
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-SWIZZLE-INNER",
                                Param::BoxDim, 0, C.MaxBox + 8));
  }
}

TEST(SwizzleInner, OtherElementSizes) {
  struct {
    std::uint64_t DataType;
    std::uint64_t Swizzle;
    std::uint64_t MaxBox;
    std::uint64_t TooWide;
  } const Cases[] = {
      {dtype::UInt8, swizzle::B128, 128, 144},
      {dtype::Float32, swizzle::B128, 32, 36},
      {dtype::Float32, swizzle::B64, 16, 20},
      {dtype::Float64, swizzle::B128, 16, 18},
      {dtype::Float64, swizzle::B32, 4, 6},
      // 64 and 96 half-byte elements: 32 and 48 bytes.
      {dtype::U4Align8B, swizzle::B32, 64, 96},
  };
  for (const auto &C : Cases) {
    SCOPED_TRACE("data type " + std::to_string(C.DataType) + ", swizzle " +
                 std::to_string(C.Swizzle));
    EXPECT_TRUE(isClean(checkTiled(
        denseTile(C.DataType, {8192, 64}, {C.MaxBox, 64}, C.Swizzle))));
    EXPECT_TRUE(isOnlyViolation(
        checkTiled(
            denseTile(C.DataType, {8192, 64}, {C.TooWide, 64}, C.Swizzle)),
        "TMAP-TILED-SWIZZLE-INNER", Param::BoxDim, 0, C.TooWide));
  }
}

TEST(SwizzleInner, PackedTypesUseTheDriverElementSize) {
  // 128 x 4 bits = 64 bytes; 16U6_ALIGN16B is sized at one byte per value
  // (128 bytes). Both fit the 128-byte span.
  EXPECT_TRUE(isClean(checkTiled(packed16BTile(dtype::U4Align16B))));
  EXPECT_TRUE(isClean(checkTiled(packed16BTile(dtype::U6Align16B))));
  EXPECT_TRUE(isClean(
      checkTiled(packed16BTile(dtype::U6Align16B, swizzle::B128Atom64B))));
}

TEST(SwizzleInner, NotAppliedWithoutSwizzleOrWithInterleave) {
  TiledDescriptor D = bf16Tile();
  D.Swizzle = swizzle::None;
  D.BoxDim = known({256, 64}); // 512 bytes
  EXPECT_TRUE(isClean(checkTiled(D)));

  D = interleaved16B();
  D.Swizzle = swizzle::B32;
  D.BoxDim = known({64, 16, 16}); // 128 bytes
  EXPECT_TRUE(hasNoRule(checkTiled(D), "TMAP-TILED-SWIZZLE-INNER"));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-ESTRIDE-RANGE
//===----------------------------------------------------------------------===//

TEST(ElementStrideRange, OneTo8) {
  TiledDescriptor D = bf16Tile();
  for (std::uint64_t Good : {1, 8}) {
    D.ElementStrides = known({1, Good});
    EXPECT_TRUE(isClean(checkTiled(D))) << "elementStrides[1] = " << Good;
  }
  D.ElementStrides = known({1, 0});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                              Param::ElementStrides, 1, 0, 1));
  D.ElementStrides = known({1, 9});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                              Param::ElementStrides, 1, 9, 8));
}

TEST(ElementStrideRange, DimensionZeroWithInterleave) {
  TiledDescriptor D = interleaved16B();
  D.ElementStrides = known({8, 1, 1});
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.ElementStrides = known({0, 1, 1});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                              Param::ElementStrides, 0, 0));
  D.ElementStrides = known({9, 1, 1});
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                              Param::ElementStrides, 0, 9, 8));
}

TEST(ElementStrideRange, DimensionZeroWithoutInterleave) {
  // The driver ignores the value but still range-checks every entry.
  TiledDescriptor D = bf16Tile();
  D.ElementStrides = known({0, 1});
  EXPECT_TRUE(isViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                          Param::ElementStrides, 0, 0));
  D.ElementStrides = known({9, 1});
  EXPECT_TRUE(isViolation(checkTiled(D), "TMAP-ENC-ESTRIDE-RANGE",
                          Param::ElementStrides, 0, 9, 8));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-INTERLEAVE32-SWIZZLE32
//===----------------------------------------------------------------------===//

TEST(Interleave32Swizzle32, Interleave32BNeedsSwizzle32B) {
  EXPECT_TRUE(isClean(checkTiled(interleaved32B())));
  for (std::uint64_t Bad :
       {swizzle::None, swizzle::B64, swizzle::B128, swizzle::B128Atom64B}) {
    TiledDescriptor D = interleaved32B();
    D.Swizzle = Bad;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D),
                                "TMAP-ENC-INTERLEAVE32-SWIZZLE32",
                                Param::Swizzle, NoIndex, Bad));
  }
}

TEST(Interleave32Swizzle32, OtherInterleavesTakeAnySwizzle) {
  for (std::uint64_t S = swizzle::None; S <= swizzle::Last; ++S) {
    TiledDescriptor D = interleaved16B();
    D.Swizzle = S;
    EXPECT_TRUE(isClean(checkTiled(D))) << "swizzle " << S;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-PACKED-INTERLEAVE
//===----------------------------------------------------------------------===//

TEST(PackedInterleave, U6NeedsInterleaveNone) {
  auto U6Rank3 = [](std::uint64_t Interleave, std::uint64_t Swizzle) {
    return denseTile(dtype::U6Align16B, {4096, 64, 8}, {128, 64, 1}, Swizzle,
                     Interleave);
  };
  EXPECT_TRUE(isClean(checkTiled(U6Rank3(interleave::None, swizzle::None))));
  EXPECT_TRUE(
      isOnlyViolation(checkTiled(U6Rank3(interleave::B16, swizzle::None)),
                      "TMAP-ENC-PACKED-INTERLEAVE", Param::Interleave, NoIndex,
                      interleave::B16));
  // The 32-byte interleave brings the (packed-forbidden) 32-byte swizzle.
  EXPECT_TRUE(isViolation(checkTiled(U6Rank3(interleave::B32, swizzle::B32)),
                          "TMAP-ENC-PACKED-INTERLEAVE", Param::Interleave,
                          NoIndex, interleave::B32));
}

TEST(PackedInterleave, U4Align16BMayInterleave) {
  TiledDescriptor D = denseTile(dtype::U4Align16B, {4096, 64, 8}, {128, 64, 1},
                                swizzle::None, interleave::B16);
  EXPECT_TRUE(isClean(checkTiled(D)));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-PACKED-SWIZZLE
//===----------------------------------------------------------------------===//

TEST(PackedSwizzle, U6) {
  for (std::uint64_t Good : {swizzle::None, swizzle::B128, swizzle::B128Atom32B,
                             swizzle::B128Atom64B})
    EXPECT_TRUE(isClean(checkTiled(packed16BTile(dtype::U6Align16B, Good))))
        << "swizzle " << Good;
  EXPECT_TRUE(isOnlyViolation(
      checkTiled(packed16BTile(dtype::U6Align16B, swizzle::B128Atom32BFlip8B)),
      "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle, NoIndex,
      swizzle::B128Atom32BFlip8B));
  // 128 bytes also overflow these spans.
  for (std::uint64_t Bad : {swizzle::B32, swizzle::B64})
    EXPECT_TRUE(isViolation(checkTiled(packed16BTile(dtype::U6Align16B, Bad)),
                            "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle, NoIndex,
                            Bad));
}

TEST(PackedSwizzle, U4Align16B) {
  for (std::uint64_t Good :
       {swizzle::None, swizzle::B128, swizzle::B128Atom32B})
    EXPECT_TRUE(isClean(checkTiled(packed16BTile(dtype::U4Align16B, Good))))
        << "swizzle " << Good;
  // 64 bytes fit the 64-byte span: only the packed-swizzle rule fires.
  for (std::uint64_t Bad :
       {swizzle::B64, swizzle::B128Atom32BFlip8B, swizzle::B128Atom64B})
    EXPECT_TRUE(isOnlyViolation(
        checkTiled(packed16BTile(dtype::U4Align16B, Bad)),
        "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle, NoIndex, Bad));
  EXPECT_TRUE(isViolation(
      checkTiled(packed16BTile(dtype::U4Align16B, swizzle::B32)),
      "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle, NoIndex, swizzle::B32));
}

TEST(PackedSwizzle, U4Align8BTakesAnySwizzle) {
  for (std::uint64_t S = swizzle::None; S <= swizzle::Last; ++S) {
    TiledDescriptor D = u4Align8BTile();
    D.BoxDim = known({64, 64}); // 32 bytes fit every span
    D.Swizzle = S;
    EXPECT_TRUE(isClean(checkTiled(D))) << "swizzle " << S;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-OOBFILL-FLOAT
//===----------------------------------------------------------------------===//

TEST(OobFillFloat, NanFillOnlyForFloatTypes) {
  const std::uint64_t FloatTypes[] = {
      dtype::Float16,    dtype::Float32,  dtype::Float64,    dtype::BFloat16,
      dtype::Float32Ftz, dtype::TFloat32, dtype::TFloat32Ftz};
  for (std::uint64_t Type = 0; Type <= dtype::Last; ++Type) {
    SCOPED_TRACE("data type " + std::to_string(Type));
    bool IsFloat = false;
    for (std::uint64_t F : FloatTypes)
      IsFloat |= F == Type;
    TiledDescriptor D;
    D.DataType = Type;
    D.OobFill = oobfill::NanRequestZeroFma;
    if (IsFloat) {
      EXPECT_TRUE(isClean(checkTiled(D)));
    } else {
      EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-OOBFILL-FLOAT",
                                  Param::OobFill, NoIndex,
                                  oobfill::NanRequestZeroFma));
    }
    D.OobFill = oobfill::None;
    EXPECT_TRUE(isClean(checkTiled(D)));
  }
}

TEST(OobFillFloat, FullDescriptors) {
  TiledDescriptor D = bf16Tile();
  D.OobFill = oobfill::NanRequestZeroFma;
  EXPECT_TRUE(isClean(checkTiled(D)));
  // FP8 is UINT8: no NaN fill.
  D = tile(dtype::UInt8, {8192, 8192}, {8192}, {128, 128}, swizzle::B128);
  D.OobFill = oobfill::NanRequestZeroFma;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-OOBFILL-FLOAT",
                              Param::OobFill, NoIndex, 1));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-DTYPE-ENUM
//===----------------------------------------------------------------------===//

TEST(DataTypeEnum, ZeroTo15) {
  for (std::uint64_t Good : {std::uint64_t(0), dtype::Last}) {
    TiledDescriptor D;
    D.DataType = Good;
    EXPECT_TRUE(isClean(checkTiled(D))) << "data type " << Good;
  }
  // 0xFFFFFFFF: (CUtensorMapDataType)-1 as a 32-bit enum.
  for (std::uint64_t Bad :
       {std::uint64_t(16), std::uint64_t(0xFFFFFFFF), UINT64_MAX}) {
    TiledDescriptor D;
    D.DataType = Bad;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-DTYPE-ENUM",
                                Param::TensorDataType, NoIndex, Bad, 15));
  }
}

TEST(DataTypeEnum, InvalidTypeHasNoElementSize) {
  // Rules that need the element size stay silent.
  TiledDescriptor D = bf16Tile();
  D.DataType = 16;
  D.BoxDim = known({6, 64});
  D.AddressElementBits = 32;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-DTYPE-ENUM",
                              Param::TensorDataType, NoIndex, 16, 15));
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-ENUM-RANGE
//===----------------------------------------------------------------------===//

TEST(EnumRange, EachEnumAtItsLastValue) {
  struct {
    Param P;
    Known TiledDescriptor::*Field;
    std::uint64_t Last;
  } const Cases[] = {
      {Param::Interleave, &TiledDescriptor::Interleave, interleave::Last},
      {Param::Swizzle, &TiledDescriptor::Swizzle, swizzle::Last},
      {Param::L2Promotion, &TiledDescriptor::L2Promotion, l2promo::Last},
      {Param::OobFill, &TiledDescriptor::OobFill, oobfill::Last},
  };
  ASSERT_EQ(interleave::Last, 2u);
  ASSERT_EQ(swizzle::Last, 6u);
  ASSERT_EQ(l2promo::Last, 3u);
  ASSERT_EQ(oobfill::Last, 1u);
  for (const auto &C : Cases) {
    SCOPED_TRACE(specName(C.P));
    TiledDescriptor D;
    D.*C.Field = C.Last;
    EXPECT_TRUE(isClean(checkTiled(D)));
    D.*C.Field = C.Last + 1;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ENUM-RANGE", C.P,
                                NoIndex, C.Last + 1, C.Last));
    D.*C.Field = 0xFFFFFFFF;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ENUM-RANGE", C.P,
                                NoIndex, 0xFFFFFFFF, C.Last));
  }
}

TEST(EnumRange, SwizzleGivenInBytes) {
  // (CUtensorMapSwizzle)128: the span, not the enumerator.
  TiledDescriptor D = bf16Tile();
  D.Swizzle = 128;
  Violations Vs = checkTiled(D);
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-ENUM-RANGE", Param::Swizzle,
                              NoIndex, 128, 6));
  for (std::uint64_t Bytes : {32, 64}) {
    D.Swizzle = Bytes;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-ENUM-RANGE",
                                Param::Swizzle, NoIndex, Bytes, 6));
  }
}

//===----------------------------------------------------------------------===//
// TMAP-ENC-GADDR-TYPE
//===----------------------------------------------------------------------===//

TEST(AddressType, PointeeSizeMustMatchTheDataType) {
  TiledDescriptor D = bf16Tile();
  ASSERT_EQ(D.AddressElementBits, Known(16));
  EXPECT_TRUE(isClean(checkTiled(D)));
  // float * passed for bf16 data.
  D.AddressElementBits = 32;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GADDR-TYPE",
                              Param::GlobalAddress, NoIndex, 32, 16));
  D.AddressElementBits = 64;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GADDR-TYPE",
                              Param::GlobalAddress, NoIndex, 64, 16));

  D = denseTile(dtype::Float32, {1024, 1024}, {32, 32}, swizzle::B128);
  D.AddressElementBits = 32;
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.AddressElementBits = 16;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GADDR-TYPE",
                              Param::GlobalAddress, NoIndex, 16, 32));

  // int * for one-byte data.
  D = tile(dtype::UInt8, {8192, 8192}, {8192}, {128, 128}, swizzle::B128);
  D.AddressElementBits = 32;
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GADDR-TYPE",
                              Param::GlobalAddress, NoIndex, 32, 8));
}

TEST(AddressType, BytePointersNeverFire) {
  for (TiledDescriptor D :
       {bf16Tile(),
        denseTile(dtype::Float64, {1024, 1024}, {16, 32}, swizzle::B128),
        u4Align8BTile()}) {
    D.AddressElementBits = 8;
    EXPECT_TRUE(isClean(checkTiled(D)));
  }
}

TEST(AddressType, PackedTypesNeverFire) {
  TiledDescriptor D = u4Align8BTile();
  D.AddressElementBits = 16;
  EXPECT_TRUE(isClean(checkTiled(D)));
  for (std::uint64_t Type : {dtype::U4Align16B, dtype::U6Align16B}) {
    D = packed16BTile(Type);
    D.AddressElementBits = 32;
    EXPECT_TRUE(isClean(checkTiled(D))) << "data type " << Type;
  }
}

TEST(AddressType, UnknownOrSwitchedOff) {
  TiledDescriptor D = bf16Tile();
  D.AddressElementBits = std::nullopt;
  EXPECT_TRUE(isClean(checkTiled(D)));
  D.AddressElementBits = 32;
  TiledRuleOptions Opts;
  Opts.AddressTypeCheck = false;
  EXPECT_TRUE(isClean(checkTiled(D, Opts)));
}

//===----------------------------------------------------------------------===//
// Seed errors: messages that other tools print for these mistakes
//===----------------------------------------------------------------------===//

TEST(Seeds, SeedGmemStridesMultipleOf16) {
  // JAX: "GMEM strides except the last one must be a multiple of 16 bytes".
  // fp16 row-major [M][100]: globalStrides[0] = 100 * 2 = 200 bytes.
  Violations Vs = checkTiled(
      tile(dtype::Float16, {100, 4096}, {200}, {8, 64}, swizzle::None));
  EXPECT_TRUE(isOnlyViolation(Vs, "TMAP-ENC-GSTRIDE-ALIGN",
                              Param::GlobalStrides, 0, 200, 16));
  const Violation *V =
      findRule(Vs, "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, 0);
  ASSERT_NE(V, nullptr);
  EXPECT_NE(V->Message.find("globalStrides[0]"), std::string::npos);
  EXPECT_NE(V->Message.find("200"), std::string::npos);
  // Padding the row to 104 elements fixes it.
  if (V->Suggested) {
    EXPECT_EQ(V->Suggested->Parameter, Param::GlobalStrides);
    EXPECT_EQ(V->Suggested->Index, std::optional<unsigned>(0));
    EXPECT_EQ(V->Suggested->Value, 208u);
  }
}

TEST(Seeds, SeedCanOnlyTransferIntegerBytes) {
  // JAX: "Can only transfer integer bytes": 4-bit elements that do not make
  // whole bytes.
  TiledDescriptor D = u4Align8BTile();
  D.GlobalDim.Elems[0] = 4095; // 2047.5 bytes per row
  EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-ENC-GDIM-PACKED",
                              Param::GlobalDim, 0, 4095, 2));
  for (std::uint64_t Box0 : {1, 33, 255}) { // 0.5, 16.5, 127.5 bytes
    D = u4Align8BTile();
    D.BoxDim.Elems[0] = Box0;
    EXPECT_TRUE(isOnlyViolation(checkTiled(D), "TMAP-TILED-BOX-INNER-16B",
                                Param::BoxDim, 0, Box0));
  }
}

TEST(Seeds, SeedTransferNotMultipleOfGranule) {
  // JAX: "Transfer is not a multiple of ... bytes": a bf16 box 60 wide is
  // 120 bytes.
  TiledDescriptor D = bf16Tile();
  D.BoxDim = known({60, 64});
  Violations Vs = checkTiled(D);
  EXPECT_TRUE(
      isOnlyViolation(Vs, "TMAP-TILED-BOX-INNER-16B", Param::BoxDim, 0, 60));
  const Violation *V =
      findRule(Vs, "TMAP-TILED-BOX-INNER-16B", Param::BoxDim, 0);
  ASSERT_NE(V, nullptr);
  EXPECT_NE(V->Message.find("boxDim[0]"), std::string::npos);
  // fp32 box {6, 64}: 24 bytes (tma-rules.md's example).
  EXPECT_TRUE(isOnlyViolation(checkTiled(denseTile(dtype::Float32, {1024, 1024},
                                                   {6, 64}, swizzle::None)),
                              "TMAP-TILED-BOX-INNER-16B", Param::BoxDim, 0, 6));
}

//===----------------------------------------------------------------------===//
// Order of the result
//===----------------------------------------------------------------------===//

TEST(Order, ByParameterThenIndex) {
  TiledDescriptor D = tile(dtype::BFloat16, {64, 0, 8}, {136, 8200},
                           {64, 300, 1}, swizzle::B128);
  D.ElementStrides = known({1, 9, 0});
  D.L2Promotion = 4;
  Violations Vs = checkTiled(D);
  ASSERT_EQ(Vs.size(), 7u) << describe(Vs);
  for (std::size_t I = 1; I < Vs.size(); ++I) {
    const Violation &A = Vs[I - 1];
    const Violation &B = Vs[I];
    bool InOrder = A.Parameter < B.Parameter ||
                   (A.Parameter == B.Parameter &&
                    A.Index.value_or(0) <= B.Index.value_or(0));
    EXPECT_TRUE(InOrder) << "out of order at " << I << ":\n" << describe(Vs);
  }
  // Stable: the same input gives the same list.
  Violations Again = checkTiled(D);
  ASSERT_EQ(Again.size(), Vs.size());
  for (std::size_t I = 0; I < Vs.size(); ++I) {
    EXPECT_STREQ(Again[I].RuleId, Vs[I].RuleId);
    EXPECT_EQ(Again[I].Message, Vs[I].Message);
  }
}

} // namespace
