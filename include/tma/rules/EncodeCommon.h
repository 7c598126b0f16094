//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//
//
// The rules that all three encoders share (tma-rules.md section 1.A): one
// function per rule, called by checkTiled, checkIm2col and checkIm2colWide.
// This header is the rule model's own plumbing; users of the model include
// TiledRules.h or Im2colRules.h.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_ENCODECOMMON_H
#define TMA_RULES_ENCODECOMMON_H

#include "DataTypes.h"
#include "Target.h"
#include "Violation.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tma::rules {

/// An array operand: the elements that could be folded, and how many elements
/// the array provides from the pointer that was passed (std::nullopt when the
/// array's extent is unknown). Elements past Elems.size() are unknown.
struct KnownArray {
  std::vector<Known> Elems;
  std::optional<std::uint64_t> Provided;
  /// The pointer is a null pointer constant (then Provided is unknown and
  /// Elems empty).
  bool Null = false;

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
  /// Size in bits of the element type that globalAddress points to, when it is
  /// a typed pointer to an arithmetic element type (not void, not a byte type).
  Known AddressElementBits;
  /// The values of the tensorMap and globalAddress pointers: known at run
  /// time (<tma/validate.h>), unknown to the checker.
  Known TensorMapAddress;
  Known GlobalAddress;
  /// The largest power of two that divides each pointer, when the checker
  /// proves it without knowing the address (a cudaMalloc base or an
  /// aligned variable plus a constant byte offset); unknown otherwise.
  Known TensorMapAlign;
  Known GlobalAddressAlign;
  /// The newest GPU the descriptor can be used on (newestEncodeTarget):
  /// unknown unless the compilation proves it.
  std::optional<GpuTarget> Target;
};

/// The shared operands of a descriptor (every descriptor derives from
/// EncodeOperands).
inline const EncodeOperands &commonOperands(const EncodeOperands &D) {
  return D;
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
/// "0x7f0000000008".
std::string hex(std::uint64_t V);
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
// TMAP-ENC-GSTRIDES-NULL
void checkGlobalStridesNull(const EncodeContext &C, Violations &Out);
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
// TMAP-ENC-OUT-ALIGN64: from the address (run time) or its proven alignment
void checkTensorMapAlign(const EncodeContext &C, Violations &Out);
// TMAP-ENC-GADDR-ALIGN: likewise
void checkGlobalAddressAlign(const EncodeContext &C, Violations &Out);
// TMAP-ENC-ARCH: encoders, data types and swizzles the target lacks
void checkTargetSupport(const EncodeContext &C, Violations &Out);

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//

inline constexpr std::uint64_t MaxGlobalDim = std::uint64_t{1} << 32;
inline constexpr std::uint64_t MaxGlobalStrideExclusive = std::uint64_t{1}
                                                          << 40;
inline constexpr std::uint64_t MaxElementStride = 8;

inline const char *encoderName(Encoder E) {
  switch (E) {
  case Encoder::Tiled:
    return "cuTensorMapEncodeTiled";
  case Encoder::Im2col:
    return "cuTensorMapEncodeIm2col";
  case Encoder::Im2colWide:
    return "cuTensorMapEncodeIm2colWide";
  }
  return "?";
}

inline EncodeContext::EncodeContext(Encoder Kind, EncodeOperands Ops,
                                    const EncodeRuleOptions &Opts)
    : Kind(Kind), D(std::move(Ops)), Opts(Opts) {
  if (D.Rank && *D.Rank >= minRank() && *D.Rank <= MaxRank)
    ValidRank = D.Rank;
  if (D.DataType) {
    GlobalBits = globalElementBits(*D.DataType);
    BoxBits = boxElementBits(*D.DataType);
  }
}

inline std::uint64_t EncodeContext::minRank() const {
  return Kind == Encoder::Tiled ? 1 : 3;
}

inline std::uint64_t EncodeContext::readCount(Param P) const {
  if (P == Param::GlobalStrides)
    return ValidRank ? *ValidRank - 1 : 0;
  if (P == Param::PixelBoxLowerCorner || P == Param::PixelBoxUpperCorner)
    return ValidRank ? *ValidRank - 2 : 0;
  return ValidRank ? *ValidRank : 1;
}

inline Known EncodeContext::read(const KnownArray &A, Param P,
                                 std::uint64_t I) const {
  if (I >= readCount(P))
    return std::nullopt;
  if (A.Provided && I >= *A.Provided)
    return std::nullopt;
  return A.at(I);
}

inline std::string indexed(Param P, std::uint64_t I) {
  return std::string(paramName(P)) + "[" + std::to_string(I) + "]";
}

inline std::string bitsAsBytes(std::uint64_t Bits) {
  static const char *const Fractions[] = {"",   ".125", ".25", ".375",
                                          ".5", ".625", ".75", ".875"};
  return std::to_string(Bits / 8) + Fractions[Bits % 8] + " bytes";
}

inline std::string elementSize(unsigned Bits) {
  if (Bits % 8 == 0)
    return std::to_string(Bits / 8) + (Bits == 8 ? " byte" : " bytes");
  return std::to_string(Bits) + " bits";
}

inline std::string hex(std::uint64_t V) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  do {
    S.insert(S.begin(), Digits[V % 16]);
    V /= 16;
  } while (V);
  return "0x" + S;
}

inline std::uint64_t roundUp(std::uint64_t V, std::uint64_t M) {
  return (V + M - 1) / M * M;
}

inline Violation makeViolation(const char *Id, Param P,
                               std::optional<unsigned> Index,
                               std::uint64_t Value, std::uint64_t Limit,
                               std::string Msg) {
  return Violation{Id,           P, Index, Value, Limit, std::move(Msg),
                   std::nullopt, {}};
}

inline Suggestion setValue(Param P, std::optional<unsigned> Index,
                           std::uint64_t V, std::string Text,
                           std::string Spelling) {
  return Suggestion{Suggestion::SetValue, P, Index, V, std::move(Spelling),
                    std::move(Text)};
}

inline void sortViolations(Violations &Out) {
  std::sort(Out.begin(), Out.end(), [](const Violation &L, const Violation &R) {
    return std::make_tuple(L.Parameter, L.Index.value_or(0),
                           std::string(L.RuleId)) <
           std::make_tuple(R.Parameter, R.Index.value_or(0),
                           std::string(R.RuleId));
  });
}

inline void checkRankAndArrays(
    const EncodeContext &C, const char *RuleId, const std::string &RangeText,
    const std::vector<std::pair<Param, std::optional<std::uint64_t>>> &Arrays,
    Violations &Out) {
  const Known &R = C.D.Rank;
  if (R && (*R < C.minRank() || *R > EncodeContext::MaxRank)) {
    Out.push_back(makeViolation(
        RuleId, Param::TensorRank, std::nullopt, *R,
        *R < C.minRank() ? C.minRank() : EncodeContext::MaxRank,
        "tensorRank is " + std::to_string(*R) + ", outside " + RangeText));
    return;
  }
  if (!C.ValidRank)
    return;
  for (const auto &[P, Provided] : Arrays) {
    std::uint64_t Needed = C.readCount(P);
    if (!Provided || *Provided >= Needed)
      continue;
    Violation V = makeViolation(
        RuleId, P, std::nullopt, *Provided, Needed,
        std::string(paramName(P)) + " provides " + std::to_string(*Provided) +
            (*Provided == 1 ? " element" : " elements") + " but tensorRank " +
            std::to_string(*C.ValidRank) + " reads " + std::to_string(Needed) +
            "; the driver reads past the end of the array");
    V.AlsoUses.emplace_back(Param::TensorRank, std::nullopt);
    Out.push_back(std::move(V));
  }
}

// TMAP-ENC-DTYPE-ENUM
inline void checkDataTypeEnum(const EncodeContext &C, Violations &Out) {
  if (!C.D.DataType || *C.D.DataType <= dtype::Last)
    return;
  Out.push_back(
      makeViolation("TMAP-ENC-DTYPE-ENUM", Param::TensorDataType, std::nullopt,
                    *C.D.DataType, dtype::Last,
                    "tensorDataType is " + std::to_string(*C.D.DataType) +
                        ", not a CUtensorMapDataType enumerator (0.." +
                        std::to_string(dtype::Last) + ")"));
}

// TMAP-ENC-ENUM-RANGE
inline void checkEnumRanges(const EncodeContext &C, Violations &Out) {
  auto Check = [&](const Known &V, Param P, const char *Enum,
                   std::uint64_t Last) -> Violation * {
    if (!V || *V <= Last)
      return nullptr;
    Out.push_back(makeViolation(
        "TMAP-ENC-ENUM-RANGE", P, std::nullopt, *V, Last,
        std::string(paramName(P)) + " is " + std::to_string(*V) + ", not a " +
            Enum + " enumerator (0.." + std::to_string(Last) + ")"));
    return &Out.back();
  };
  Check(C.D.Interleave, Param::Interleave, "CUtensorMapInterleave",
        interleave::Last);
  if (Violation *V = Check(C.D.Swizzle, Param::Swizzle, "CUtensorMapSwizzle",
                           swizzle::Last)) {
    // A swizzle width in bytes instead of the enumerator is a classic bug.
    std::optional<std::uint64_t> Meant;
    if (V->Value == 32)
      Meant = swizzle::B32;
    else if (V->Value == 64)
      Meant = swizzle::B64;
    else if (V->Value == 128)
      Meant = swizzle::B128;
    if (Meant) {
      V->Message += "; swizzle is an enumerator, not a byte count";
      V->Suggested = setValue(Param::Swizzle, std::nullopt, *Meant,
                              std::string("use ") + swizzleName(*Meant),
                              swizzleName(*Meant));
    }
  }
  Check(C.D.L2Promotion, Param::L2Promotion, "CUtensorMapL2promotion",
        l2promo::Last);
  Check(C.D.OobFill, Param::OobFill, "CUtensorMapFloatOOBfill", oobfill::Last);
  if (C.Kind == Encoder::Im2colWide)
    Check(C.D.Mode, Param::Mode, "CUtensorMapIm2ColWideMode", widemode::Last);
}

// TMAP-ENC-INTERLEAVE-RANK
inline void checkInterleaveRank(const EncodeContext &C, Violations &Out) {
  const Known &I = C.D.Interleave;
  if (!I || *I == interleave::None || *I > interleave::Last || !C.ValidRank ||
      *C.ValidRank >= 3)
    return;
  Violation V = makeViolation("TMAP-ENC-INTERLEAVE-RANK", Param::Interleave,
                              std::nullopt, *I, interleave::None,
                              std::string("interleave ") + interleaveName(*I) +
                                  " needs tensorRank >= 3, but tensorRank is " +
                                  std::to_string(*C.ValidRank));
  V.AlsoUses.emplace_back(Param::TensorRank, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-GDIM-RANGE
inline void checkGlobalDimRange(const EncodeContext &C, Violations &Out) {
  for (unsigned I = 0; I < EncodeContext::MaxRank; ++I) {
    Known V = C.read(C.D.GlobalDim, Param::GlobalDim, I);
    if (!V || (*V >= 1 && *V <= MaxGlobalDim))
      continue;
    std::string Msg = indexed(Param::GlobalDim, I) + " is " +
                      std::to_string(*V) +
                      (*V == 0 ? "; every extent must be at least 1"
                               : ", above the limit of 4294967296 (2^32)");
    Out.push_back(makeViolation("TMAP-ENC-GDIM-RANGE", Param::GlobalDim, I, *V,
                                *V == 0 ? 1 : MaxGlobalDim, std::move(Msg)));
  }
}

// TMAP-ENC-GDIM-PACKED
inline void checkGlobalDimPacked(const EncodeContext &C, Violations &Out) {
  if (!C.D.DataType || !isPackedType(*C.D.DataType))
    return;
  Known V = C.read(C.D.GlobalDim, Param::GlobalDim, 0);
  if (!V || *V == 0)
    return;
  std::uint64_t DT = *C.D.DataType;
  std::uint64_t Multiple = isPacked16BType(DT) ? 128 : 2;
  if (*V % Multiple == 0)
    return;
  std::string Msg = "globalDim[0] is " + std::to_string(*V) + " " +
                    std::to_string(*C.GlobalBits) + "-bit values";
  if (Multiple == 2)
    Msg += " (" + bitsAsBytes(*V * *C.GlobalBits) +
           "), not a whole number of bytes: " + dataTypeName(DT) +
           " needs a multiple of 2";
  else
    Msg += std::string(", not a multiple of 128 as ") + dataTypeName(DT) +
           " requires";
  Violation Vi = makeViolation("TMAP-ENC-GDIM-PACKED", Param::GlobalDim, 0, *V,
                               Multiple, std::move(Msg));
  Vi.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(Vi));
}

/// TMAP-ENC-GSTRIDE-UNITS, heuristic 1: globalStrides[I] equals the element
/// count of the dimensions below it, so it was written in elements.
inline std::optional<Violation>
strideInElements(const EncodeContext &C, unsigned I, std::uint64_t Stride) {
  if (!C.GlobalBits || *C.GlobalBits <= 8 || *C.GlobalBits % 8)
    return std::nullopt;
  // Element-count strides grow with the index; a smaller stride below this
  // one is a permuted view, not a units mistake.
  for (unsigned J = 0; J < I; ++J) {
    Known Lower = C.read(C.D.GlobalStrides, Param::GlobalStrides, J);
    if (!Lower || *Lower > Stride)
      return std::nullopt;
  }
  std::uint64_t Count = 1;
  for (unsigned J = 0; J <= I; ++J) {
    Known Dim = C.read(C.D.GlobalDim, Param::GlobalDim, J);
    if (!Dim || *Dim == 0 || Count > UINT64_MAX / *Dim)
      return std::nullopt;
    Count *= *Dim;
  }
  std::uint64_t Bytes = *C.GlobalBits / 8;
  if (Stride != Count || Count > UINT64_MAX / Bytes)
    return std::nullopt;
  std::string Dims =
      I == 0 ? "globalDim[0]"
             : "globalDim[0] * ... * globalDim[" + std::to_string(I) + "]";
  Violation V = makeViolation(
      "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, I, Stride, Count * Bytes,
      indexed(Param::GlobalStrides, I) + " is " + std::to_string(Stride) +
          ", the element count of " + Dims + "; strides are in bytes, so a " +
          dataTypeName(*C.D.DataType) + " tensor needs " +
          std::to_string(Count * Bytes));
  V.Suggested = setValue(
      Param::GlobalStrides, I, Count * Bytes,
      "multiply by the element size: " + std::to_string(Count * Bytes) +
          " bytes (" + std::to_string(Count) + " elements * " +
          elementSize(*C.GlobalBits) + ")");
  V.AlsoUses.emplace_back(Param::GlobalDim, 0);
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  return V;
}

/// TMAP-ENC-GSTRIDE-UNITS, heuristic 2: globalStrides[0] is the size of one
/// element, so the innermost (implicit) stride was passed too.
inline std::optional<Violation> innermostStrideIncluded(const EncodeContext &C,
                                                        std::uint64_t Stride) {
  if (!C.GlobalBits || *C.GlobalBits % 8 || Stride != *C.GlobalBits / 8)
    return std::nullopt;
  Known Dim0 = C.read(C.D.GlobalDim, Param::GlobalDim, 0);
  if (Dim0 && *Dim0 <= 1)
    return std::nullopt;
  Violation V = makeViolation(
      "TMAP-ENC-GSTRIDE-UNITS", Param::GlobalStrides, 0, Stride,
      *C.GlobalBits / 8,
      "globalStrides[0] is " + std::to_string(Stride) +
          " bytes, the size of one " + dataTypeName(*C.D.DataType) +
          " element: globalStrides starts with the stride of dimension 1, "
          "the innermost stride is implicit");
  // Skipping the first element keeps enough strides only if the array has
  // one more than the driver reads.
  const KnownArray &S = C.D.GlobalStrides;
  if (S.Provided && *S.Provided > C.readCount(Param::GlobalStrides))
    V.Suggested = Suggestion{Suggestion::SkipFirstElement,
                             Param::GlobalStrides,
                             std::nullopt,
                             1,
                             {},
                             "drop the innermost stride: pass the array from "
                             "its second element"};
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  return V;
}

// TMAP-ENC-GSTRIDE-ALIGN, TMAP-ENC-GSTRIDE-MAX and TMAP-ENC-GSTRIDE-UNITS
inline void checkGlobalStrides(const EncodeContext &C, Violations &Out) {
  // 32-byte strides for INTERLEAVE_32B and the 16-byte-aligned packed types;
  // 16 bytes whatever the other operands are.
  std::uint64_t Align = 16;
  const char *Why = nullptr;
  if (C.is(C.D.Interleave, interleave::B32)) {
    Align = 32;
    Why = interleaveName(interleave::B32);
  } else if (C.D.DataType && isPacked16BType(*C.D.DataType)) {
    Align = 32;
    Why = dataTypeName(*C.D.DataType);
  }

  for (unsigned I = 0; I + 1 < EncodeContext::MaxRank; ++I) {
    Known S = C.read(C.D.GlobalStrides, Param::GlobalStrides, I);
    if (!S)
      continue;
    if (C.Opts.StrideUnitHeuristics) {
      std::optional<Violation> Units = strideInElements(C, I, *S);
      if (!Units && I == 0)
        Units = innermostStrideIncluded(C, *S);
      if (Units) {
        // The unit mistake explains the misalignment too: report it alone.
        Out.push_back(std::move(*Units));
        continue;
      }
    }
    if (*S >= MaxGlobalStrideExclusive) {
      Out.push_back(makeViolation("TMAP-ENC-GSTRIDE-MAX", Param::GlobalStrides,
                                  I, *S, MaxGlobalStrideExclusive,
                                  indexed(Param::GlobalStrides, I) + " is " +
                                      std::to_string(*S) +
                                      " bytes, not below the limit of 2^40"));
      continue;
    }
    if (*S % Align == 0)
      continue;
    Violation V = makeViolation(
        "TMAP-ENC-GSTRIDE-ALIGN", Param::GlobalStrides, I, *S, Align,
        indexed(Param::GlobalStrides, I) + " is " + std::to_string(*S) +
            " bytes, not a multiple of " + std::to_string(Align) +
            (Why ? std::string(" as ") + Why + " requires" : std::string()));
    std::uint64_t Padded = roundUp(*S, Align);
    V.Suggested =
        setValue(Param::GlobalStrides, I, Padded,
                 "pad the row to " + std::to_string(Padded) + " bytes");
    if (Why)
      V.AlsoUses.emplace_back(Align == 32 &&
                                      C.is(C.D.Interleave, interleave::B32)
                                  ? Param::Interleave
                                  : Param::TensorDataType,
                              std::nullopt);
    Out.push_back(std::move(V));
  }
}

// TMAP-ENC-GSTRIDES-NULL: recorded on a real driver (bench/driver), a null
// globalStrides is rejected even with tensorRank 1, where no stride is read.
inline void checkGlobalStridesNull(const EncodeContext &C, Violations &Out) {
  if (!C.D.GlobalStrides.Null || !C.ValidRank)
    return;
  std::uint64_t Needed = *C.ValidRank - 1;
  Violation V = makeViolation(
      "TMAP-ENC-GSTRIDES-NULL", Param::GlobalStrides, std::nullopt, 0, Needed,
      Needed == 0 ? std::string("globalStrides is a null pointer; the driver "
                                "rejects it even for tensorRank 1, where no "
                                "stride is read")
                  : "globalStrides is a null pointer, but tensorRank " +
                        std::to_string(*C.ValidRank) + " reads " +
                        std::to_string(Needed) +
                        (Needed == 1 ? " stride" : " strides"));
  V.AlsoUses.emplace_back(Param::TensorRank, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-ESTRIDE-RANGE
inline void checkElementStrides(const EncodeContext &C, Violations &Out) {
  for (unsigned I = 0; I < EncodeContext::MaxRank; ++I) {
    Known V = C.read(C.D.ElementStrides, Param::ElementStrides, I);
    if (!V || (*V >= 1 && *V <= MaxElementStride))
      continue;
    Violation Vi =
        makeViolation("TMAP-ENC-ESTRIDE-RANGE", Param::ElementStrides, I, *V,
                      *V == 0 ? 1 : MaxElementStride,
                      indexed(Param::ElementStrides, I) + " is " +
                          std::to_string(*V) + ", outside 1..8");
    if (*V == 0)
      Vi.Suggested = setValue(Param::ElementStrides, I, 1, "use 1");
    Out.push_back(std::move(Vi));
  }
}

// TMAP-ENC-INTERLEAVE32-SWIZZLE32
inline void checkInterleave32Swizzle(const EncodeContext &C, Violations &Out) {
  if (!C.is(C.D.Interleave, interleave::B32) || !C.D.Swizzle ||
      *C.D.Swizzle == swizzle::B32 || *C.D.Swizzle > swizzle::Last)
    return;
  Violation V =
      makeViolation("TMAP-ENC-INTERLEAVE32-SWIZZLE32", Param::Swizzle,
                    std::nullopt, *C.D.Swizzle, swizzle::B32,
                    std::string("interleave CU_TENSOR_MAP_INTERLEAVE_32B "
                                "requires swizzle CU_TENSOR_MAP_SWIZZLE_32B, "
                                "not ") +
                        swizzleName(*C.D.Swizzle));
  V.Suggested =
      setValue(Param::Swizzle, std::nullopt, swizzle::B32,
               "use CU_TENSOR_MAP_SWIZZLE_32B", swizzleName(swizzle::B32));
  V.AlsoUses.emplace_back(Param::Interleave, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-PACKED-INTERLEAVE
inline void checkPackedInterleave(const EncodeContext &C, Violations &Out) {
  if (!C.is(C.D.DataType, dtype::U6Align16B) || !C.D.Interleave ||
      *C.D.Interleave == interleave::None || *C.D.Interleave > interleave::Last)
    return;
  Violation V =
      makeViolation("TMAP-ENC-PACKED-INTERLEAVE", Param::Interleave,
                    std::nullopt, *C.D.Interleave, interleave::None,
                    std::string("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B "
                                "requires interleave "
                                "CU_TENSOR_MAP_INTERLEAVE_NONE, not ") +
                        interleaveName(*C.D.Interleave));
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-PACKED-SWIZZLE
inline void checkPackedSwizzle(const EncodeContext &C, Violations &Out) {
  if (!C.D.DataType || !isPacked16BType(*C.D.DataType) || !C.D.Swizzle ||
      *C.D.Swizzle > swizzle::Last)
    return;
  std::uint64_t S = *C.D.Swizzle;
  bool Is6Bit = *C.D.DataType == dtype::U6Align16B;
  std::string Allowed;
  if (C.Kind == Encoder::Im2colWide) {
    // Im2colWide allows 64B, 128B and 128B_ATOM_32B (TMAP-I2CW-SWIZZLE
    // reports the others); the packed types drop 64B.
    if (S != swizzle::B64)
      return;
    Allowed = "128B, 128B_ATOM_32B";
  } else {
    if (S == swizzle::None || S == swizzle::B128 || S == swizzle::B128Atom32B ||
        (Is6Bit && S == swizzle::B128Atom64B))
      return;
    Allowed = Is6Bit ? "NONE, 128B, 128B_ATOM_32B, 128B_ATOM_64B"
                     : "NONE, 128B, 128B_ATOM_32B";
  }
  Violation V = makeViolation(
      "TMAP-ENC-PACKED-SWIZZLE", Param::Swizzle, std::nullopt, S, swizzle::B128,
      std::string("swizzle ") + swizzleName(S) + " is not supported for " +
          dataTypeName(*C.D.DataType) +
          (C.Kind == Encoder::Im2colWide
               ? std::string(" with cuTensorMapEncodeIm2colWide")
               : std::string()) +
          " (allowed: " + Allowed + ")");
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-OOBFILL-FLOAT
inline void checkOobFill(const EncodeContext &C, Violations &Out) {
  if (!C.is(C.D.OobFill, oobfill::NanRequestZeroFma) || !C.D.DataType ||
      *C.D.DataType > dtype::Last || isFloatType(*C.D.DataType))
    return;
  Violation V =
      makeViolation("TMAP-ENC-OOBFILL-FLOAT", Param::OobFill, std::nullopt,
                    *C.D.OobFill, oobfill::None,
                    std::string("oobFill "
                                "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_"
                                "ZERO_FMA needs a floating-point, non-packed "
                                "data type, not ") +
                        dataTypeName(*C.D.DataType));
  V.Suggested = setValue(Param::OobFill, std::nullopt, oobfill::None,
                         "use CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
                         "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE");
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

// TMAP-ENC-GADDR-TYPE (tma-tidy's own rule): a typed globalAddress whose
// element size differs from the data type's, e.g. FLOAT16 with a float*.
inline void checkAddressType(const EncodeContext &C, Violations &Out) {
  const Known &Bits = C.D.AddressElementBits;
  if (!C.Opts.AddressTypeCheck || !Bits || *Bits <= 8 || !C.GlobalBits ||
      isPackedType(*C.D.DataType) || *Bits == *C.GlobalBits)
    return;
  Violation V = makeViolation(
      "TMAP-ENC-GADDR-TYPE", Param::GlobalAddress, std::nullopt, *Bits,
      *C.GlobalBits,
      "globalAddress points to " + std::to_string(*Bits) +
          "-bit elements, but tensorDataType " + dataTypeName(*C.D.DataType) +
          " has " + std::to_string(*C.GlobalBits) + "-bit elements");
  V.AlsoUses.emplace_back(Param::TensorDataType, std::nullopt);
  Out.push_back(std::move(V));
}

/// The alignment \p Proven proves below \p Needed, or std::nullopt:
/// \p Proven is the largest power of two that divides the pointer.
inline std::optional<std::uint64_t> provenBelow(const Known &Proven,
                                                std::uint64_t Needed) {
  if (!Proven || *Proven == 0 || *Proven >= Needed)
    return std::nullopt;
  return Proven;
}

// TMAP-ENC-OUT-ALIGN64
inline void checkTensorMapAlign(const EncodeContext &C, Violations &Out) {
  const Known &A = C.D.TensorMapAddress;
  if (A && *A != 0) {
    if (*A % 64 == 0)
      return;
    Out.push_back(makeViolation(
        "TMAP-ENC-OUT-ALIGN64", Param::TensorMap, std::nullopt, *A % 64, 64,
        "tensorMap is at " + hex(*A) + ", " + std::to_string(*A % 64) +
            " bytes past a 64-byte boundary; the map must be "
            "64-byte aligned"));
    return;
  }
  if (A)
    return;
  if (auto Low = provenBelow(C.D.TensorMapAlign, 64))
    Out.push_back(makeViolation(
        "TMAP-ENC-OUT-ALIGN64", Param::TensorMap, std::nullopt, *Low, 64,
        "tensorMap is only " + std::to_string(*Low) +
            "-byte aligned; the map must be 64-byte aligned"));
}

/// The alignment TMAP-ENC-GADDR-ALIGN requires of globalAddress: 32 bytes
/// when \p Interleave is INTERLEAVE_32B or \p DataType one of the
/// 16-byte-aligned packed types, 16 otherwise (also when they are unknown:
/// 16 bytes is what every map needs). \p Why gets the enumerator that asks
/// for 32 bytes, and \p ByInterleave whether it is the interleave.
inline std::uint64_t globalAddressAlignment(const Known &Interleave,
                                            const Known &DataType,
                                            const char **Why = nullptr,
                                            bool *ByInterleave = nullptr) {
  const char *Name = nullptr;
  bool Interleaved = Interleave && *Interleave == interleave::B32;
  if (Interleaved)
    Name = interleaveName(interleave::B32);
  else if (DataType && isPacked16BType(*DataType))
    Name = dataTypeName(*DataType);
  if (Why)
    *Why = Name;
  if (ByInterleave)
    *ByInterleave = Interleaved;
  return Name ? 32 : 16;
}

// TMAP-ENC-GADDR-ALIGN. A null address is accepted (tma-rules.md: the
// Programming Guide encodes template maps with nullptr).
inline void checkGlobalAddressAlign(const EncodeContext &C, Violations &Out) {
  const Known &A = C.D.GlobalAddress;
  if (A && *A == 0)
    return;
  if (!A && !C.D.GlobalAddressAlign)
    return;
  const char *Why = nullptr;
  bool ByInterleave = false;
  std::uint64_t Align =
      globalAddressAlignment(C.D.Interleave, C.D.DataType, &Why, &ByInterleave);
  std::string Needs =
      Why ? std::string("; ") + Why + " requires 32-byte alignment"
          : std::string("; it must be 16-byte aligned");
  std::optional<Violation> Found;
  if (A) {
    if (*A % Align == 0)
      return;
    Found = makeViolation("TMAP-ENC-GADDR-ALIGN", Param::GlobalAddress,
                          std::nullopt, *A % Align, Align,
                          "globalAddress is " + hex(*A) + ", " +
                              std::to_string(*A % Align) + " bytes past a " +
                              std::to_string(Align) + "-byte boundary" + Needs);
  } else if (auto Low = provenBelow(C.D.GlobalAddressAlign, Align)) {
    Found = makeViolation("TMAP-ENC-GADDR-ALIGN", Param::GlobalAddress,
                          std::nullopt, *Low, Align,
                          "globalAddress is only " + std::to_string(*Low) +
                              "-byte aligned" + Needs);
  } else {
    return;
  }
  Violation &V = *Found;
  if (Why)
    V.AlsoUses.emplace_back(ByInterleave ? Param::Interleave
                                         : Param::TensorDataType,
                            std::nullopt);
  Out.push_back(std::move(V));
}

/// Compute capability that Im2colWide, the packed data types and the
/// 128B_ATOM swizzles need (tma-rules.md section 7).
inline constexpr unsigned Blackwell = 100;

// TMAP-ENC-ARCH. The driver rejects these on a GPU below compute capability
// 10.0 (tma-rules.md section 7: the Im2colWide documentation; CCCL's
// "not supported with compute capability 9" for U4x16 and the atom
// swizzles). Im2colWide itself is reported alone: its operands never run.
inline void checkTargetSupport(const EncodeContext &C, Violations &Out) {
  const std::optional<GpuTarget> &T = C.D.Target;
  if (!T || T->Cc >= Blackwell)
    return;
  auto Report = [&](Param P, std::uint64_t Value, const std::string &What) {
    Violation V = makeViolation(
        "TMAP-ENC-ARCH", P, std::nullopt, Value, Blackwell,
        What + " is not supported on " + T->name() +
            ": it needs a GPU of compute capability " +
            GpuTarget::ccText(Blackwell) + " or higher, and " + T->name() +
            " code runs only on " + GpuTarget::ccText(T->Cc));
    Out.push_back(std::move(V));
  };
  if (C.Kind == Encoder::Im2colWide) {
    Report(Param::Encoder, 0, encoderName(C.Kind));
    return;
  }
  if (C.D.DataType && isPackedType(*C.D.DataType))
    Report(Param::TensorDataType, *C.D.DataType,
           dataTypeName(*C.D.DataType));
  if (C.D.Swizzle && *C.D.Swizzle >= swizzle::B128Atom32B &&
      *C.D.Swizzle <= swizzle::Last)
    Report(Param::Swizzle, *C.D.Swizzle, swizzleName(*C.D.Swizzle));
}

} // namespace tma::rules

#endif // TMA_RULES_ENCODECOMMON_H
