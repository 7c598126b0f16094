//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One tensor copy site against the map its launch passes, as a whole: the
// facts api/ folds for the site (the copy's mode, direction and operands,
// the map's folded encode operands, the shared-memory buffer of the box) go
// in, every violation of the site comes out, each naming the fact it is
// about, as the encode side's Violation names its Param. A new rule of the
// site is one function in rules/ plus its line in checkLinkedTensorCopy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_TENSORCOPYSITE_H
#define TMA_TIDY_RULES_TENSORCOPYSITE_H

#include "rules/TensorCopyRules.h"

#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// What is known of the shared-memory buffer a tensor copy's box lies in.
struct BoxBufferFacts {
  /// The size of the buffer's element type, unknown for extern pools and
  /// class types.
  Known ElemBytes;
  /// The proven alignment of the box address.
  Known AddressAlign;
  /// The bytes from the box address to the end of the buffer.
  Known BytesToEnd;
};

/// One tensor copy whose map is linked to its host encode call, folded in
/// one call-site context.
struct LinkedCopyFacts {
  CopyMode Mode = CopyMode::Tile;
  CopyDirection Direction = CopyDirection::Load;
  /// The N of `.Nd`; unknown when the form does not say.
  Known Dims;
  /// The innermost (first) coordinate.
  Known Coord0;
  /// The reduction operator in PTX's spelling ("add", ...) of a reduction;
  /// empty otherwise.
  std::string ReduceOp;
  /// The map the copy reads, folded in its encode call's context.
  MapDescriptor Map;
  /// The buffer of the box, when its address resolves to one.
  std::optional<BoxBufferFacts> Buffer;
};

/// A violation of a linked tensor copy and the facts it is about: the
/// operand of the encode call whose value breaks it (Param::Encoder for the
/// encode function itself), and whether the buffer takes part.
struct LinkedCopyViolation {
  DeviceViolation Violation;
  Param MapOperand;
  bool AboutBuffer = false;
};

/// Every rule of tma-rules.md sections 3 and 4 that compares a tensor copy
/// with its map, in the order the checks report them: TMA-MODE-MATCHES-MAP
/// (alone when broken: the other comparisons mean nothing then),
/// TMA-DIM-EQ-RANK, TMA-PACKED-DIRECTION, TMA-PACKED-COORD0,
/// TMA-STORE-COORD-ALIGN, TMA-STORE-NONNEG (map corners), TMA-GATHER4,
/// TMA-REDUCE-OP-TYPE, and with a buffer TMA-SMEM-ELEMTYPE,
/// TMA-SMEM-ALIGN-SWIZZLE (tiled maps) and TMA-SMEM-FOOTPRINT (loads).
std::vector<LinkedCopyViolation>
checkLinkedTensorCopy(const LinkedCopyFacts &F);

/// Rules of checkLinkedTensorCopy that judged nothing for want of a fact,
/// and the fact: what a user needs to trust the silence (issue 28 item 1).
struct SilentRule {
  /// One rule id, or several joined by ", " that miss the same fact.
  std::string Rules;
  std::string Why;
};

/// The rules of checkLinkedTensorCopy that \p F leaves silent because a
/// fact they compare is unknown, each with the unknown fact; a rule whose
/// facts are all known is judged by checkLinkedTensorCopy and is absent.
std::vector<SilentRule> silentLinkedRules(const LinkedCopyFacts &F);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_TENSORCOPYSITE_H
