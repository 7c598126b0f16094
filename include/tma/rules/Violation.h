//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_VIOLATION_H
#define TMA_RULES_VIOLATION_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// An integer that is either known or unknown. Rules whose inputs are not all
/// known produce nothing.
using Known = std::optional<std::uint64_t>;
/// A signed integer that is either known or unknown (the im2col corner
/// offsets, which the driver takes as int).
using KnownSigned = std::optional<std::int64_t>;

/// The operands of a tensor-map encode call, in the driver's spelling.
enum class Param {
  TensorMap,
  TensorDataType,
  TensorRank,
  GlobalAddress,
  GlobalDim,
  GlobalStrides,
  BoxDim,
  ElementStrides,
  Interleave,
  Swizzle,
  L2Promotion,
  OobFill,
  // cuTensorMapEncodeIm2col and cuTensorMapEncodeIm2colWide only. The values
  // above are the argument positions of cuTensorMapEncodeTiled; these are not
  // argument positions.
  PixelBoxLowerCorner,
  PixelBoxUpperCorner,
  PixelBoxLowerCornerWidth,
  PixelBoxUpperCornerWidth,
  ChannelsPerPixel,
  PixelsPerColumn,
  Mode,
  /// The encode function itself (a rule about the entry point, not one of
  /// its operands).
  Encoder,
};

/// The driver's name of \p P, e.g. "globalStrides".
inline const char *paramName(Param P) {
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

/// A value change that would satisfy the rule. It goes on a note, never on
/// the warning itself: it may not keep the author's intent.
struct Suggestion {
  enum KindType {
    /// Replace the operand (or array element) by Value.
    SetValue,
    /// Pass the array from its second element on (the innermost stride was
    /// included in globalStrides).
    SkipFirstElement,
  };
  KindType Kind;
  Param Parameter;
  std::optional<unsigned> Index;
  std::uint64_t Value;
  /// Source spelling of Value when it is an enumerator, e.g.
  /// "CU_TENSOR_MAP_SWIZZLE_128B"; empty for plain numbers.
  std::string Spelling;
  /// What to do, e.g. "pad globalStrides[0] to 208 bytes".
  std::string Text;
};

/// One broken rule.
struct Violation {
  /// The rule id from tma-rules.md, e.g. "TMAP-ENC-GSTRIDE-ALIGN".
  const char *RuleId;
  /// The operand that holds the bad value.
  Param Parameter;
  /// The array element, for array operands.
  std::optional<unsigned> Index;
  /// The value found, in the operand's own unit.
  std::uint64_t Value;
  /// The limit it breaks (meaning depends on the rule; see Message).
  std::uint64_t Limit;
  /// The complete message without the rule id, e.g.
  /// "globalStrides[0] is 200 bytes, not a multiple of 16".
  std::string Message;
  std::optional<Suggestion> Suggested;
  /// Operands, other than Parameter, whose values the rule used; the checks
  /// point notes at them.
  std::vector<std::pair<Param, std::optional<unsigned>>> AlsoUses;
};

/// The checker's diagnostic text of \p V: the message, then the rule id,
/// e.g. "globalStrides[0] is 200 bytes, ... (TMAP-ENC-GSTRIDE-ALIGN)".
inline std::string withRuleId(const Violation &V) {
  return V.Message + " (" + V.RuleId + ")";
}

} // namespace tma::rules

#endif // TMA_RULES_VIOLATION_H
