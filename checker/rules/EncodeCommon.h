//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules that all three encoders share (tma-rules.md section 1.A): one
// function per rule, called by checkTiled, checkIm2col and checkIm2colWide.
// This header is the rule model's own plumbing; users of the model include
// TiledRules.h or Im2colRules.h.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ENCODECOMMON_H
#define TMA_TIDY_RULES_ENCODECOMMON_H

#include "rules/Violation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tma::rules {

/// An array operand: the elements that could be folded, and how many elements
/// the array provides from the pointer that was passed (std::nullopt when the
/// array's extent is unknown). Elements past Elems.size() are unknown.
struct KnownArray {
  std::vector<Known> Elems;
  std::optional<std::uint64_t> Provided;

  Known at(std::size_t I) const {
    return I < Elems.size() ? Elems[I] : Known();
  }
};

/// Options that switch heuristic rules off (every encoder).
struct EncodeRuleOptions {
  /// TMAP-ENC-GSTRIDE-UNITS: strides in elements, innermost stride included.
  bool StrideUnitHeuristics = true;
  /// TMAP-ENC-GADDR-TYPE: pointer element type against the data type.
  bool AddressTypeCheck = true;
};

/// The driver entry point whose operands are checked.
enum class Encoder { Tiled, Im2col, Im2colWide };

/// The driver's name of \p E, e.g. "cuTensorMapEncodeIm2col".
const char *encoderName(Encoder E);

/// The operands every encoder has, as the shared rules read them.
struct EncodeOperands {
  Known DataType;
  Known Rank;
  KnownArray GlobalDim;
  KnownArray GlobalStrides;
  KnownArray ElementStrides;
  Known Interleave;
  Known Swizzle;
  Known L2Promotion;
  Known OobFill;
  /// Im2colWide's CUtensorMapIm2ColWideMode; unused elsewhere.
  Known Mode;
  Known AddressElementBits;
};

/// The shared operands of any descriptor with the common field names.
template <typename DescriptorT>
EncodeOperands commonOperands(const DescriptorT &D) {
  EncodeOperands O;
  O.DataType = D.DataType;
  O.Rank = D.Rank;
  O.GlobalDim = D.GlobalDim;
  O.GlobalStrides = D.GlobalStrides;
  O.ElementStrides = D.ElementStrides;
  O.Interleave = D.Interleave;
  O.Swizzle = D.Swizzle;
  O.L2Promotion = D.L2Promotion;
  O.OobFill = D.OobFill;
  O.AddressElementBits = D.AddressElementBits;
  return O;
}

/// Shared state of one evaluation: the operands and the values every rule
/// needs (how many array elements the driver reads, the element size).
class EncodeContext {
public:
  EncodeContext(Encoder Kind, EncodeOperands Ops,
                const EncodeRuleOptions &Opts);

  /// The smallest and largest rank the encoder accepts.
  std::uint64_t minRank() const;
  static constexpr std::uint64_t MaxRank = 5;

  /// How many elements of an array operand the driver reads. With an
  /// unknown or invalid rank only element 0 is certainly read (nothing of
  /// globalStrides or the corner arrays).
  std::uint64_t readCount(Param P) const;

  /// The element of \p A at \p I if the driver reads it and it is known.
  Known read(const KnownArray &A, Param P, std::uint64_t I) const;

  /// True when \p V is known and equals \p Expected.
  static bool is(const Known &V, std::uint64_t Expected) {
    return V && *V == Expected;
  }

  Encoder Kind;
  EncodeOperands D;
  const EncodeRuleOptions &Opts;
  std::optional<std::uint64_t> ValidRank;
  std::optional<unsigned> GlobalBits;
  std::optional<unsigned> BoxBits;
};

using Violations = std::vector<Violation>;

//===----------------------------------------------------------------------===//
// Message helpers
//===----------------------------------------------------------------------===//

/// "globalDim[2]".
std::string indexed(Param P, std::uint64_t I);
/// "4 bytes", "16.5 bytes" for a bit count.
std::string bitsAsBytes(std::uint64_t Bits);
/// "1 byte", "2 bytes" or "4 bits" for an element size in bits.
std::string elementSize(unsigned Bits);
std::uint64_t roundUp(std::uint64_t V, std::uint64_t M);
Violation makeViolation(const char *Id, Param P, std::optional<unsigned> Index,
                        std::uint64_t Value, std::uint64_t Limit,
                        std::string Msg);
Suggestion setValue(Param P, std::optional<unsigned> Index, std::uint64_t V,
                    std::string Text, std::string Spelling = {});
/// Orders by operand, then index, then rule id: deterministic output
/// whatever the order the rules ran in.
void sortViolations(Violations &Out);

//===----------------------------------------------------------------------===//
// The shared rules, each named after its id
//===----------------------------------------------------------------------===//

// TMAP-ENC-DTYPE-ENUM
void checkDataTypeEnum(const EncodeContext &C, Violations &Out);
// TMAP-ENC-ENUM-RANGE (with Im2colWide's mode)
void checkEnumRanges(const EncodeContext &C, Violations &Out);
/// The encoder's rank rule \p RuleId: the rank against the encoder's range,
/// then every array against the elements the rank makes the driver read.
/// \p Arrays lists each array operand with the elements it provides.
void checkRankAndArrays(
    const EncodeContext &C, const char *RuleId, const std::string &RangeText,
    const std::vector<std::pair<Param, std::optional<std::uint64_t>>> &Arrays,
    Violations &Out);
// TMAP-ENC-INTERLEAVE-RANK
void checkInterleaveRank(const EncodeContext &C, Violations &Out);
// TMAP-ENC-GDIM-RANGE
void checkGlobalDimRange(const EncodeContext &C, Violations &Out);
// TMAP-ENC-GDIM-PACKED
void checkGlobalDimPacked(const EncodeContext &C, Violations &Out);
// TMAP-ENC-GSTRIDE-ALIGN, TMAP-ENC-GSTRIDE-MAX and TMAP-ENC-GSTRIDE-UNITS
void checkGlobalStrides(const EncodeContext &C, Violations &Out);
// TMAP-ENC-ESTRIDE-RANGE
void checkElementStrides(const EncodeContext &C, Violations &Out);
// TMAP-ENC-INTERLEAVE32-SWIZZLE32
void checkInterleave32Swizzle(const EncodeContext &C, Violations &Out);
// TMAP-ENC-PACKED-INTERLEAVE
void checkPackedInterleave(const EncodeContext &C, Violations &Out);
// TMAP-ENC-PACKED-SWIZZLE (the Tiled and Im2col lists, or Im2colWide's)
void checkPackedSwizzle(const EncodeContext &C, Violations &Out);
// TMAP-ENC-OOBFILL-FLOAT
void checkOobFill(const EncodeContext &C, Violations &Out);
// TMAP-ENC-GADDR-TYPE (tma-tidy's own rule)
void checkAddressType(const EncodeContext &C, Violations &Out);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ENCODECOMMON_H
