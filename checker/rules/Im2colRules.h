//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide
// (tma-rules.md sections 1.A, 1.C, 1.D, 6). The rules of section 1.A are the
// functions checkTiled calls too (EncodeCommon.h).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_IM2COLRULES_H
#define TMA_TIDY_RULES_IM2COLRULES_H

#include "rules/EncodeCommon.h"
#include "rules/Violation.h"

#include <cstdint>
#include <optional>
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
struct Im2colDescriptor {
  Known DataType;
  Known Rank;
  KnownArray GlobalDim;
  KnownArray GlobalStrides;
  KnownSignedArray PixelBoxLowerCorner;
  KnownSignedArray PixelBoxUpperCorner;
  Known ChannelsPerPixel;
  Known PixelsPerColumn;
  KnownArray ElementStrides;
  Known Interleave;
  Known Swizzle;
  Known L2Promotion;
  Known OobFill;
  /// Size in bits of the element type that globalAddress points to (see
  /// TiledDescriptor).
  Known AddressElementBits;
};

/// What the checker knows about one cuTensorMapEncodeIm2colWide call.
struct Im2colWideDescriptor {
  Known DataType;
  Known Rank;
  KnownArray GlobalDim;
  KnownArray GlobalStrides;
  KnownSigned PixelBoxLowerCornerWidth;
  KnownSigned PixelBoxUpperCornerWidth;
  Known ChannelsPerPixel;
  Known PixelsPerColumn;
  KnownArray ElementStrides;
  Known Interleave;
  /// CUtensorMapIm2ColWideMode.
  Known Mode;
  Known Swizzle;
  Known L2Promotion;
  Known OobFill;
  Known AddressElementBits;
};

/// Every rule that \p D provably breaks, in a stable order (by parameter,
/// then index). Unknown inputs never produce a violation.
std::vector<Violation> checkIm2col(const Im2colDescriptor &D,
                                   const EncodeRuleOptions &Opts = {});
std::vector<Violation> checkIm2colWide(const Im2colWideDescriptor &D,
                                       const EncodeRuleOptions &Opts = {});

} // namespace tma::rules

#endif // TMA_TIDY_RULES_IM2COLRULES_H
