//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//
//
// The rules of cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide
// (tma-rules.md sections 1.A, 1.C, 1.D, 6). The rules of section 1.A are the
// functions checkTiled calls too (EncodeCommon.h).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_IM2COLRULES_H
#define TMA_RULES_IM2COLRULES_H

#include "DataTypes.h"
#include "EncodeCommon.h"
#include "Violation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// A signed array operand (the im2col corner offsets, `const int *`): the
/// elements that could be folded and how many the array provides from the
/// pointer that was passed (std::nullopt when unknown).
struct KnownSignedArray {
  std::vector<KnownSigned> Elems;
  std::optional<std::uint64_t> Provided;

  KnownSigned at(std::size_t I) const {
    return I < Elems.size() ? Elems[I] : KnownSigned();
  }
};

/// What the checker knows about one cuTensorMapEncodeIm2col call. Unsigned
/// values are converted to the driver's parameter type, the corners to int.
/// Corner index 0 is W, 1 is H, 2 is D (tma-rules.md section 1: INFERRED).
struct Im2colDescriptor : EncodeOperands {
  KnownSignedArray PixelBoxLowerCorner;
  KnownSignedArray PixelBoxUpperCorner;
  Known ChannelsPerPixel;
  Known PixelsPerColumn;
};

/// What the checker knows about one cuTensorMapEncodeIm2colWide call.
struct Im2colWideDescriptor : EncodeOperands {
  KnownSigned PixelBoxLowerCornerWidth;
  KnownSigned PixelBoxUpperCornerWidth;
  Known ChannelsPerPixel;
  Known PixelsPerColumn;
};

/// Every rule that \p D provably breaks, in a stable order (by parameter,
/// then index). Unknown inputs never produce a violation.
std::vector<Violation> checkIm2col(const Im2colDescriptor &D,
                                   const EncodeRuleOptions &Opts = {});
std::vector<Violation> checkIm2colWide(const Im2colWideDescriptor &D,
                                       const EncodeRuleOptions &Opts = {});

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//

inline constexpr std::uint64_t MaxChannelsPerPixel = 256;
inline constexpr std::uint64_t PackedChannelsPerPixel = 128;
inline constexpr std::uint64_t MaxPixelsPerColumn = 1024;
/// Im2colWide's corners are one offset each, in [-2^15, 2^15 - 1].
inline constexpr std::int64_t WideCornerBound = 32768;
inline const char *const SpatialName[] = {"W", "H", "D"};

/// A signed value as Violation::Value holds it (two's complement).
inline std::uint64_t asValue(std::int64_t V) {
  return static_cast<std::uint64_t>(V);
}

/// Im2col's corner offsets lie in [-Bound, Bound - 1] for the rank
/// (tma-rules.md TMAP-I2C-CORNER-RANGE).
inline std::int64_t cornerBound(std::uint64_t Rank) {
  return Rank == 3 ? 32768 : Rank == 4 ? 128 : 16;
}

inline KnownSigned readCorner(const EncodeContext &C, const KnownSignedArray &A,
                              Param P, std::uint64_t I) {
  if (I >= C.readCount(P) || (A.Provided && I >= *A.Provided))
    return std::nullopt;
  return A.at(I);
}

inline std::string signedName(Param P, std::optional<unsigned> I) {
  return I ? indexed(P, *I) : std::string(paramName(P));
}

/// A corner offset outside [-Bound, Bound - 1], or std::nullopt.
inline std::optional<Violation>
cornerOutOfRange(const char *Id, Param P, std::optional<unsigned> I,
                 std::int64_t V, std::int64_t Bound, const std::string &Why) {
  if (V >= -Bound && V < Bound)
    return std::nullopt;
  Violation Vi =
      makeViolation(Id, P, I, asValue(V), asValue(V < 0 ? -Bound : Bound - 1),
                    signedName(P, I) + " is " + std::to_string(V) +
                        ", outside [" + std::to_string(-Bound) + ", " +
                        std::to_string(Bound - 1) + "]" + Why);
  return Vi;
}

/// The number of filter positions along one spatial dimension:
/// globalDim + upper - lower (tma-rules.md TMAP-I2C-CORNER-AREA).
inline std::int64_t positions(std::uint64_t Dim, std::int64_t Lower,
                              std::int64_t Upper) {
  return static_cast<std::int64_t>(Dim) + Upper - Lower;
}

// TMAP-I2C-CHANNELS, except the swizzle span of Im2colWide (which
// TMAP-I2CW-SWIZZLE covers): 1..256, exactly 128 for the 16-byte-aligned
// packed types, and on Im2col within the swizzle span.
inline void checkChannels(const EncodeContext &C, const Known &Cpp,
                          Violations &Out) {
  if (!Cpp)
    return;
  if (*Cpp == 0 || *Cpp > MaxChannelsPerPixel) {
    Out.push_back(
        makeViolation("TMAP-I2C-CHANNELS", Param::ChannelsPerPixel,
                      std::nullopt, *Cpp, *Cpp == 0 ? 1 : MaxChannelsPerPixel,
                      "channelsPerPixel is " + std::to_string(*Cpp) +
                          (*Cpp == 0 ? "; a pixel needs at least one channel"
                                     : ", above the limit of 256")));
    return;
  }
  if (C.D.DataType && isPacked16BType(*C.D.DataType)) {
    if (*Cpp == PackedChannelsPerPixel)
      return;
    Violation V = makeViolation("TMAP-I2C-CHANNELS", Param::ChannelsPerPixel,
                                std::nullopt, *Cpp, PackedChannelsPerPixel,
                                "channelsPerPixel is " + std::to_string(*Cpp) +
                                    ", but " + dataTypeName(*C.D.DataType) +
                                    " requires exactly 128");
    V.Suggested = setValue(Param::ChannelsPerPixel, std::nullopt,
                           PackedChannelsPerPixel, "use 128");
    V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
    Out.push_back(std::move(V));
    return;
  }
  if (C.Kind != Encoder::Im2col || !C.is(C.D.Interleave, interleave::None) ||
      !C.BoxBits || !C.D.Swizzle)
    return;
  std::optional<unsigned> Span = swizzleSpanBytes(*C.D.Swizzle);
  std::uint64_t InnerBits = *Cpp * *C.BoxBits;
  if (!Span || InnerBits <= *Span * 8ULL)
    return;
  std::uint64_t Max = *Span * 8ULL / *C.BoxBits;
  Violation V = makeViolation(
      "TMAP-I2C-CHANNELS", Param::ChannelsPerPixel, std::nullopt, *Cpp, Max,
      "inner box is channelsPerPixel = " + std::to_string(*Cpp) + " * " +
          elementSize(*C.BoxBits) + " = " + bitsAsBytes(InnerBits) +
          ", above the " + std::to_string(*Span) + "-byte span of " +
          swizzleName(*C.D.Swizzle));
  V.Suggested = setValue(Param::ChannelsPerPixel, std::nullopt, Max,
                         "use channelsPerPixel = " + std::to_string(Max) +
                             " and issue one copy per " +
                             std::to_string(*Span) + "-byte channel slice");
  V.AlsoUses.emplace_back(Param::Swizzle, std::nullopt);
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

/// pixelsPerColumn in 1..1024, reported as \p Id.
inline void checkPixels(const Known &Ppc, const char *Id,
                        const std::string &Why, Violations &Out) {
  if (!Ppc || (*Ppc >= 1 && *Ppc <= MaxPixelsPerColumn))
    return;
  Violation V =
      makeViolation(Id, Param::PixelsPerColumn, std::nullopt, *Ppc,
                    *Ppc == 0 ? 1 : MaxPixelsPerColumn,
                    "pixelsPerColumn is " + std::to_string(*Ppc) +
                        (*Ppc == 0 ? "; a column needs at least one pixel"
                                   : ", above the limit of 1024") +
                        Why);
  Out.push_back(std::move(V));
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeIm2col (section 1.C)
//===----------------------------------------------------------------------===//

// TMAP-I2C-CORNER-RANGE
inline void checkCornerRange(const EncodeContext &C, const Im2colDescriptor &D,
                             Violations &Out) {
  if (!C.ValidRank)
    return;
  std::int64_t Bound = cornerBound(*C.ValidRank);
  std::string Why = " for tensorRank " + std::to_string(*C.ValidRank);
  for (Param P : {Param::PixelBoxLowerCorner, Param::PixelBoxUpperCorner}) {
    const KnownSignedArray &A = P == Param::PixelBoxLowerCorner
                                    ? D.PixelBoxLowerCorner
                                    : D.PixelBoxUpperCorner;
    for (unsigned I = 0; I < C.readCount(P); ++I) {
      KnownSigned V = readCorner(C, A, P, I);
      if (!V)
        continue;
      if (auto Vi =
              cornerOutOfRange("TMAP-I2C-CORNER-RANGE", P, I, *V, Bound, Why)) {
        Vi->AlsoUses.emplace_back(Param::TensorRank, std::nullopt);
        Out.push_back(std::move(*Vi));
      }
    }
  }
}

// TMAP-I2C-CORNER-AREA. The order of the corner elements (W, H, D) is
// inferred, not documented: report only an extent that is empty whichever
// spatial dimension element J describes.
inline void checkCornerArea(const EncodeContext &C, const Im2colDescriptor &D,
                            Violations &Out) {
  if (!C.ValidRank)
    return;
  std::uint64_t Rank = *C.ValidRank;
  std::int64_t Bound = cornerBound(Rank);
  for (unsigned J = 0; J + 2 < Rank; ++J) {
    KnownSigned Lo =
        readCorner(C, D.PixelBoxLowerCorner, Param::PixelBoxLowerCorner, J);
    KnownSigned Up =
        readCorner(C, D.PixelBoxUpperCorner, Param::PixelBoxUpperCorner, J);
    // Out-of-range corners are reported by TMAP-I2C-CORNER-RANGE.
    if (!Lo || !Up || *Lo < -Bound || *Lo >= Bound || *Up < -Bound ||
        *Up >= Bound)
      continue;
    unsigned DimWHD = J + 1;        // element 0 is W
    unsigned DimDHW = Rank - 1 - J; // element 0 is D (the driver's "{D, H, W}")
    Known Dim = C.read(C.D.GlobalDim, Param::GlobalDim, DimWHD);
    Known Other = C.read(C.D.GlobalDim, Param::GlobalDim, DimDHW);
    // A zero extent is TMAP-ENC-GDIM-RANGE's.
    if (!Dim || !Other || *Dim == 0 || *Other == 0 ||
        positions(*Dim, *Lo, *Up) >= 1 || positions(*Other, *Lo, *Up) >= 1)
      continue;
    std::int64_t N = positions(*Dim, *Lo, *Up);
    Violation V = makeViolation(
        "TMAP-I2C-CORNER-AREA", Param::PixelBoxUpperCorner, J, asValue(*Up),
        asValue(*Lo + 1 - static_cast<std::int64_t>(*Dim)),
        std::string("the bounding box is empty along ") + SpatialName[J] +
            ": globalDim[" + std::to_string(DimWHD) + "] + " +
            indexed(Param::PixelBoxUpperCorner, J) + " - " +
            indexed(Param::PixelBoxLowerCorner, J) + " = " +
            std::to_string(*Dim) + " + " + std::to_string(*Up) + " - " +
            std::to_string(*Lo) + " = " + std::to_string(N) +
            " filter positions; it needs at least 1");
    V.AlsoUses.emplace_back(Param::PixelBoxLowerCorner, J);
    V.AlsoUses.emplace_back(Param::GlobalDim, DimWHD);
    Out.push_back(std::move(V));
  }
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeIm2colWide (section 1.D)
//===----------------------------------------------------------------------===//

// TMAP-I2CW-CORNER: both offsets in [-32768, 32767], and a non-empty box
// along W (globalDim[1]).
inline void checkWideCorners(const EncodeContext &C,
                             const Im2colWideDescriptor &D, Violations &Out) {
  bool InRange = true;
  for (Param P :
       {Param::PixelBoxLowerCornerWidth, Param::PixelBoxUpperCornerWidth}) {
    const KnownSigned &V = P == Param::PixelBoxLowerCornerWidth
                               ? D.PixelBoxLowerCornerWidth
                               : D.PixelBoxUpperCornerWidth;
    if (!V)
      continue;
    if (auto Vi = cornerOutOfRange("TMAP-I2CW-CORNER", P, std::nullopt, *V,
                                   WideCornerBound, "")) {
      InRange = false;
      Out.push_back(std::move(*Vi));
    }
  }
  const KnownSigned &Lo = D.PixelBoxLowerCornerWidth;
  const KnownSigned &Up = D.PixelBoxUpperCornerWidth;
  Known W = C.read(C.D.GlobalDim, Param::GlobalDim, 1);
  if (!InRange || !Lo || !Up || !W || *W == 0 || positions(*W, *Lo, *Up) >= 1)
    return;
  Violation V = makeViolation(
      "TMAP-I2CW-CORNER", Param::PixelBoxUpperCornerWidth, std::nullopt,
      asValue(*Up), asValue(*Lo + 1 - static_cast<std::int64_t>(*W)),
      "the bounding box is empty along W: globalDim[1] + "
      "pixelBoxUpperCornerWidth - pixelBoxLowerCornerWidth = " +
          std::to_string(*W) + " + " + std::to_string(*Up) + " - " +
          std::to_string(*Lo) + " = " +
          std::to_string(positions(*W, *Lo, *Up)) +
          " filter positions; it needs at least 1");
  V.AlsoUses.emplace_back(Param::PixelBoxLowerCornerWidth, std::nullopt);
  V.AlsoUses.emplace_back(Param::GlobalDim, 1);
  Out.push_back(std::move(V));
}

// TMAP-I2CW-SWIZZLE: 64B, 128B or 128B_ATOM_32B, and the inner box
// (channelsPerPixel elements) within its span.
inline void checkWideSwizzle(const EncodeContext &C,
                             const Im2colWideDescriptor &D, Violations &Out) {
  const Known &S = C.D.Swizzle;
  if (!S || *S > swizzle::Last)
    return;
  if (*S != swizzle::B64 && *S != swizzle::B128 && *S != swizzle::B128Atom32B) {
    Violation V = makeViolation(
        "TMAP-I2CW-SWIZZLE", Param::Swizzle, std::nullopt, *S, swizzle::B128,
        std::string("swizzle ") + swizzleName(*S) +
            " is not supported by cuTensorMapEncodeIm2colWide (allowed: "
            "CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B, "
            "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B)");
    V.Suggested =
        setValue(Param::Swizzle, std::nullopt, swizzle::B128,
                 "use CU_TENSOR_MAP_SWIZZLE_128B", swizzleName(swizzle::B128));
    Out.push_back(std::move(V));
    return;
  }
  const Known &Cpp = D.ChannelsPerPixel;
  if (!Cpp || *Cpp == 0 || *Cpp > MaxChannelsPerPixel || !C.BoxBits ||
      isPacked16BType(*C.D.DataType))
    return;
  unsigned Span = *swizzleSpanBytes(*S);
  std::uint64_t InnerBits = *Cpp * *C.BoxBits;
  if (InnerBits <= Span * 8ULL)
    return;
  std::uint64_t Max = Span * 8ULL / *C.BoxBits;
  Violation V = makeViolation(
      "TMAP-I2CW-SWIZZLE", Param::ChannelsPerPixel, std::nullopt, *Cpp, Max,
      "inner box is channelsPerPixel = " + std::to_string(*Cpp) + " * " +
          elementSize(*C.BoxBits) + " = " + bitsAsBytes(InnerBits) +
          ", above the " + std::to_string(Span) + "-byte span of " +
          swizzleName(*S));
  V.Suggested = setValue(Param::ChannelsPerPixel, std::nullopt, Max,
                         "use channelsPerPixel = " + std::to_string(Max) +
                             " and issue one copy per " + std::to_string(Span) +
                             "-byte channel slice");
  V.AlsoUses.emplace_back(Param::Swizzle, std::nullopt);
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-I2CW-INTERLEAVE
inline void checkWideInterleave(const EncodeContext &C, Violations &Out) {
  const Known &I = C.D.Interleave;
  if (!I || *I == interleave::None || *I > interleave::Last)
    return;
  Violation V = makeViolation(
      "TMAP-I2CW-INTERLEAVE", Param::Interleave, std::nullopt, *I,
      interleave::None,
      std::string("interleave ") + interleaveName(*I) +
          " is not supported by cuTensorMapEncodeIm2colWide; it needs "
          "CU_TENSOR_MAP_INTERLEAVE_NONE");
  V.Suggested = setValue(Param::Interleave, std::nullopt, interleave::None,
                         "use CU_TENSOR_MAP_INTERLEAVE_NONE",
                         interleaveName(interleave::None));
  Out.push_back(std::move(V));
}

inline std::vector<Violation> checkIm2col(const Im2colDescriptor &D,
                                          const EncodeRuleOptions &Opts) {
  EncodeContext C(Encoder::Im2col, commonOperands(D), Opts);
  Violations Out;
  checkDataTypeEnum(C, Out);
  checkEnumRanges(C, Out);
  // TMAP-I2C-RANK, including "each array provides the elements it needs".
  checkRankAndArrays(
      C, "TMAP-I2C-RANK",
      "3..5 (NWC, NHWC or NDHWC), the ranks of cuTensorMapEncodeIm2col",
      {{Param::GlobalDim, D.GlobalDim.Provided},
       {Param::GlobalStrides, D.GlobalStrides.Provided},
       {Param::PixelBoxLowerCorner, D.PixelBoxLowerCorner.Provided},
       {Param::PixelBoxUpperCorner, D.PixelBoxUpperCorner.Provided},
       {Param::ElementStrides, D.ElementStrides.Provided}},
      Out);
  checkGlobalDimRange(C, Out);
  checkGlobalDimPacked(C, Out);
  checkGlobalStrides(C, Out);
  checkGlobalStridesNull(C, Out);
  checkCornerRange(C, D, Out);
  checkCornerArea(C, D, Out);
  checkChannels(C, D.ChannelsPerPixel, Out);
  checkPixels(D.PixelsPerColumn, "TMAP-I2C-PIXELS", "", Out);
  checkElementStrides(C, Out);
  checkInterleave32Swizzle(C, Out);
  checkPackedInterleave(C, Out);
  checkPackedSwizzle(C, Out);
  checkOobFill(C, Out);
  checkAddressType(C, Out);
  checkTensorMapAlign(C, Out);
  checkGlobalAddressAlign(C, Out);
  checkTargetSupport(C, Out);
  sortViolations(Out);
  return Out;
}

inline std::vector<Violation> checkIm2colWide(const Im2colWideDescriptor &D,
                                              const EncodeRuleOptions &Opts) {
  EncodeOperands Ops = commonOperands(D);
  EncodeContext C(Encoder::Im2colWide, std::move(Ops), Opts);
  Violations Out;
  checkDataTypeEnum(C, Out);
  checkEnumRanges(C, Out);
  // TMAP-I2CW-RANK, including "each array provides the elements it needs".
  checkRankAndArrays(
      C, "TMAP-I2CW-RANK",
      "3..5 (NWC, NHWC or NDHWC), the ranks of cuTensorMapEncodeIm2colWide",
      {{Param::GlobalDim, D.GlobalDim.Provided},
       {Param::GlobalStrides, D.GlobalStrides.Provided},
       {Param::ElementStrides, D.ElementStrides.Provided}},
      Out);
  checkGlobalDimRange(C, Out);
  checkGlobalDimPacked(C, Out);
  checkGlobalStrides(C, Out);
  checkGlobalStridesNull(C, Out);
  checkWideCorners(C, D, Out);
  checkChannels(C, D.ChannelsPerPixel, Out);
  // TMAP-I2CW-MODE: pixelsPerColumn counts only in MODE_W (W128 ignores it).
  if (C.is(D.Mode, widemode::W))
    checkPixels(D.PixelsPerColumn, "TMAP-I2CW-MODE",
                " (CU_TENSOR_MAP_IM2COL_WIDE_MODE_W)", Out);
  checkWideSwizzle(C, D, Out);
  checkWideInterleave(C, Out);
  checkElementStrides(C, Out);
  // Interleave must be NONE (TMAP-I2CW-INTERLEAVE), which covers
  // TMAP-ENC-INTERLEAVE32-SWIZZLE32 and TMAP-ENC-PACKED-INTERLEAVE.
  checkPackedSwizzle(C, Out);
  checkOobFill(C, Out);
  checkAddressType(C, Out);
  checkTensorMapAlign(C, Out);
  checkGlobalAddressAlign(C, Out);
  checkTargetSupport(C, Out);
  sortViolations(Out);
  return Out;
}

} // namespace tma::rules

#endif // TMA_RULES_IM2COLRULES_H
