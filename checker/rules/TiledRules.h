//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of cuTensorMapEncodeTiled (tma-rules.md sections 1.A, 1.B, 6).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_TILEDRULES_H
#define TMA_TIDY_RULES_TILEDRULES_H

#include "rules/EncodeCommon.h"
#include "rules/Violation.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tma::rules {

/// What the checker knows about one cuTensorMapEncodeTiled call. Every value
/// is already converted to the type of the driver's parameter (a negative
/// cuuint32_t is a large unsigned value, as the driver sees it).
struct TiledDescriptor {
  Known DataType;
  Known Rank;
  KnownArray GlobalDim;
  KnownArray GlobalStrides;
  KnownArray BoxDim;
  KnownArray ElementStrides;
  Known Interleave;
  Known Swizzle;
  Known L2Promotion;
  Known OobFill;
  /// Size in bits of the element type that globalAddress points to, when it is
  /// a typed pointer to an arithmetic element type (not void, not a byte type).
  Known AddressElementBits;
};

/// Options that switch heuristic rules off.
using TiledRuleOptions = EncodeRuleOptions;

/// Every rule that \p D provably breaks, in a stable order (by parameter,
/// then index). Unknown inputs never produce a violation.
std::vector<Violation> checkTiled(const TiledDescriptor &D,
                                  const TiledRuleOptions &Opts = {});

} // namespace tma::rules

#endif // TMA_TIDY_RULES_TILEDRULES_H
