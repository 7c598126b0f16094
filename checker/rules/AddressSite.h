//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// A device op's address operands as a whole, in one call-site context: the
// proven alignment of its shared-memory address (and of the stages of a
// stage family), of its mbarrier and the state space the mbarrier operand
// names, and the proven alignment of its global address go in; every
// violation comes out, naming the operand it is about (BULK-ADDR-ALIGN16,
// TMA-SMEM-ALIGN-128, MBAR-LOCATION-ALIGN and its state space,
// TMA-OVERRIDE-ATTR). api/ traces the addresses; a new rule of an
// address is one function in rules/ plus its line in checkOpAddresses.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ADDRESSSITE_H
#define TMA_TIDY_RULES_ADDRESSSITE_H

#include "rules/DeviceRules.h"
#include "rules/SmemRules.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tma::rules {

/// Which rules judge an op's shared-memory and global addresses.
enum class AddressedOp {
  Bulk,   ///< a 1-D bulk copy: BULK-ADDR-ALIGN16 on both
  Tensor, ///< a tensor copy: TMA-SMEM-ALIGN-128, TMA-OVERRIDE-ATTR (gAddrToOverride)
  Other,  ///< an mbarrier instruction: its barrier only
};

/// A shared-memory address resolved to a `__shared__` buffer.
struct SmemAddressFacts {
  /// The largest power of two the address is proven a multiple of;
  /// unknown when not proven.
  Known Align;
  /// A stage family of \c Members stages (stage m at Member0 + m *
  /// MemberStride bytes into a buffer whose start is BaseAlign-aligned,
  /// Whole: the start is what the declaration guarantees), judged stage by
  /// stage when Align breaks no rule; 0: not a family.
  std::uint64_t Members = 0;
  Known BaseAlign;
  bool Whole = false;
  std::int64_t Member0 = 0;
  std::uint64_t MemberStride = 0;
  /// The start is an extern pool's or an address rounded at run time: only
  /// the offset into it is the code's to change.
  bool OffsetOnly = false;
};

/// The address operands of one op in one context. An operand that is
/// absent, or that api/ could not trace, is std::nullopt.
struct OpAddressFacts {
  AddressedOp Op = AddressedOp::Other;
  std::optional<SmemAddressFacts> Smem;
  /// A tensor copy's linked map's swizzle, when known: the alignment its box
  /// needs in the end.
  Known Swizzle;
  std::optional<SmemAddressFacts> Barrier;
  /// The state space the barrier operand names when it is proven not to be
  /// shared memory (Unknown otherwise, and for library calls that fall back
  /// to a plain copy).
  BarrierSpace Space = BarrierSpace::Unknown;
  /// The proven alignment of the global address (a 1-D bulk copy's global
  /// operand, a tensor copy's gAddrToOverride).
  std::optional<Known> GlobalAlign;
};

/// The operand of an op a violation is about.
enum class AddressOperand { Smem, Barrier, BarrierSpace, Global };

struct AddressViolation {
  DeviceViolation Violation;
  AddressOperand Operand;
  /// The stage of a family that breaks the rule, and its offset into the
  /// buffer; none when the address itself does.
  std::optional<MemberViolation> Member;
};

/// Every rule of an op's addresses, in this order: the shared-memory
/// address (its suggestion the alignment the box needs with the map's
/// swizzle, or only the offset for an extern pool or a rounded address),
/// the barrier's alignment, the barrier's state space, the global address.
std::vector<AddressViolation> checkOpAddresses(const OpAddressFacts &F);

/// The rule of \p Op's shared-memory address (for the reasons it is
/// silent); null for an op that has none.
const char *smemAlignRuleId(AddressedOp Op);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ADDRESSSITE_H
