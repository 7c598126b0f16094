//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//
//
// The rules of cuTensorMapEncodeTiled (tma-rules.md sections 1.A, 1.B, 6).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_TILEDRULES_H
#define TMA_RULES_TILEDRULES_H

#include "DataTypes.h"
#include "EncodeCommon.h"
#include "Violation.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// What the checker knows about one cuTensorMapEncodeTiled call. Every value
/// is already converted to the type of the driver's parameter (a negative
/// cuuint32_t is a large unsigned value, as the driver sees it).
struct TiledDescriptor : EncodeOperands {
  KnownArray BoxDim;
};

/// Options that switch heuristic rules off.
using TiledRuleOptions = EncodeRuleOptions;

/// Every rule that \p D provably breaks, in a stable order (by parameter,
/// then index). Unknown inputs never produce a violation.
std::vector<Violation> checkTiled(const TiledDescriptor &D,
                                  const TiledRuleOptions &Opts = {});

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//

inline constexpr std::uint64_t MaxBoxDim = 256;
inline constexpr unsigned InnerBoxGranuleBits = 16 * 8;

/// The shared context and the box, which only Tiled has.
struct TiledContext : EncodeContext {
  TiledContext(const TiledDescriptor &T, const TiledRuleOptions &Opts)
      : EncodeContext(Encoder::Tiled, commonOperands(T), Opts), Box(T.BoxDim) {}
  const KnownArray &Box;
};

// TMAP-TILED-BOX-RANGE
inline void checkBoxRange(const TiledContext &C, Violations &Out) {
  for (unsigned I = 0; I < EncodeContext::MaxRank; ++I) {
    Known V = C.read(C.Box, Param::BoxDim, I);
    if (!V || (*V >= 1 && *V <= MaxBoxDim))
      continue;
    std::string Msg = indexed(Param::BoxDim, I) + " is " + std::to_string(*V) +
                      (*V == 0 ? "; every box extent must be at least 1"
                               : ", above the limit of 256");
    Violation Vi = makeViolation("TMAP-TILED-BOX-RANGE", Param::BoxDim, I, *V,
                                 *V == 0 ? 1 : MaxBoxDim, std::move(Msg));
    if (*V != 0) {
      // The inner dimension is also capped by the swizzle span.
      std::uint64_t Max = MaxBoxDim;
      std::optional<unsigned> Span =
          C.D.Swizzle ? swizzleSpanBytes(*C.D.Swizzle) : std::nullopt;
      if (I == 0 && Span && C.BoxBits && C.is(C.D.Interleave, interleave::None))
        Max = std::min<std::uint64_t>(Max, *Span * 8ULL / *C.BoxBits);
      Vi.Suggested =
          setValue(Param::BoxDim, I, Max,
                   Max == MaxBoxDim
                       ? std::string("split the box: at most 256 per dimension")
                       : "split the box: at most " + std::to_string(Max) +
                             " elements fit the swizzle span");
    }
    Out.push_back(std::move(Vi));
  }
}

// TMAP-TILED-BOX-PACKED
inline void checkBoxPacked(const TiledContext &C, Violations &Out) {
  if (!C.D.DataType || !isPacked16BType(*C.D.DataType))
    return;
  Known V = C.read(C.Box, Param::BoxDim, 0);
  if (!V || *V == 128 || *V == 0 || *V > MaxBoxDim)
    return;
  Violation Vi =
      makeViolation("TMAP-TILED-BOX-PACKED", Param::BoxDim, 0, *V, 128,
                    "boxDim[0] is " + std::to_string(*V) + ", but " +
                        dataTypeName(*C.D.DataType) + " requires exactly 128");
  Vi.Suggested = setValue(Param::BoxDim, 0, 128, "use 128");
  Vi.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(Vi));
}

// TMAP-TILED-BOX-INNER-16B and TMAP-TILED-SWIZZLE-INNER
inline void checkInnerBox(const TiledContext &C, Violations &Out) {
  if (!C.is(C.D.Interleave, interleave::None) || !C.BoxBits ||
      isPacked16BType(*C.D.DataType))
    return;
  Known Box = C.read(C.Box, Param::BoxDim, 0);
  if (!Box || *Box == 0 || *Box > MaxBoxDim)
    return;
  unsigned Bits = *C.BoxBits;
  std::uint64_t InnerBits = *Box * Bits;
  std::string Inner = "inner box is boxDim[0] = " + std::to_string(*Box) +
                      " * " + elementSize(Bits) + " = " +
                      bitsAsBytes(InnerBits);
  // The swizzle span caps the inner box; a suggestion must respect it.
  std::optional<unsigned> Span =
      C.D.Swizzle ? swizzleSpanBytes(*C.D.Swizzle) : std::nullopt;
  bool AboveSpan = Span && InnerBits > *Span * 8ULL;

  if (InnerBits % InnerBoxGranuleBits) {
    // Smallest number of elements that makes a 16-byte granule.
    std::uint64_t Step = InnerBoxGranuleBits;
    while (Step % Bits)
      Step += InnerBoxGranuleBits;
    Step /= Bits;
    std::string Msg = Inner + (InnerBits % 8 ? ", not a whole number of bytes"
                                             : ", not a multiple of 16 bytes");
    Violation V = makeViolation("TMAP-TILED-BOX-INNER-16B", Param::BoxDim, 0,
                                *Box, Step, std::move(Msg));
    std::uint64_t Limit = Span ? *Span * 8ULL / Bits : MaxBoxDim;
    std::uint64_t Up = roundUp(*Box, Step);
    std::uint64_t Down = *Box / Step * Step;
    // Above the span, the span rule's suggestion fixes both.
    if (!AboveSpan && (Up <= Limit || Down >= Step)) {
      std::uint64_t To = Up <= Limit ? Up : Down;
      V.Suggested = setValue(
          Param::BoxDim, 0, To,
          std::string(To > *Box ? "round boxDim[0] up to "
                                : "round boxDim[0] down to ") +
              std::to_string(To) + " (" + bitsAsBytes(To * Bits) + ")");
    }
    V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
    Out.push_back(std::move(V));
  }

  if (!AboveSpan)
    return;
  Violation V = makeViolation("TMAP-TILED-SWIZZLE-INNER", Param::BoxDim, 0,
                              *Box, *Span * 8ULL / Bits,
                              Inner + ", above the " + std::to_string(*Span) +
                                  "-byte span of " + swizzleName(*C.D.Swizzle));
  V.Suggested = setValue(
      Param::BoxDim, 0, *Span * 8ULL / Bits,
      "use boxDim[0] = " + std::to_string(*Span * 8ULL / Bits) +
          " and issue one copy per " + std::to_string(*Span) + "-byte column");
  V.AlsoUses.emplace_back(Param::Swizzle, std::nullopt);
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

inline std::vector<Violation> checkTiled(const TiledDescriptor &D,
                                         const TiledRuleOptions &Opts) {
  TiledContext C(D, Opts);
  Violations Out;
  checkDataTypeEnum(C, Out);
  checkEnumRanges(C, Out);
  // TMAP-TILED-RANK, including "each array provides rank elements".
  checkRankAndArrays(C, "TMAP-TILED-RANK", "the supported range 1..5",
                     {{Param::GlobalDim, D.GlobalDim.Provided},
                      {Param::GlobalStrides, D.GlobalStrides.Provided},
                      {Param::BoxDim, D.BoxDim.Provided},
                      {Param::ElementStrides, D.ElementStrides.Provided}},
                     Out);
  checkInterleaveRank(C, Out);
  checkGlobalDimRange(C, Out);
  checkGlobalDimPacked(C, Out);
  checkGlobalStrides(C, Out);
  checkGlobalStridesNull(C, Out);
  checkBoxRange(C, Out);
  checkBoxPacked(C, Out);
  checkInnerBox(C, Out);
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

} // namespace tma::rules

#endif // TMA_RULES_TILEDRULES_H
