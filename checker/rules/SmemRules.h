//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The shared-memory rules of bulk and tensor copies (tma-rules.md sections 3
// and 4): the alignment of the shared-memory address and the room left in
// its buffer. Alignments are powers of two in bytes.
//
// What a rule reads is the alignment that the code guarantees for the
// address: addressAlign() derives it from the buffer's guaranteed start
// alignment and the constant offset into it. A rule reports an address
// whose guaranteed alignment is below what it needs; callers pass unknown
// where nothing is guaranteed (see addressAlign for extern pools).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_SMEMRULES_H
#define TMA_TIDY_RULES_SMEMRULES_H

#include "rules/DeviceRules.h"
#include "rules/Violation.h"
#include "tma/rules/CopyBytes.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tma::rules {

/// The largest power of two that divides \p Offset; 0 for offset 0 (every
/// power of two divides it).
std::uint64_t lowestPowerOfTwo(std::int64_t Offset);

/// The alignment guaranteed for an address \p Offset bytes into a buffer
/// whose start is guaranteed \p BaseAlign-aligned: the largest power of two
/// that divides both. When Offset's lowest set bit is below BaseAlign the
/// address is exactly that aligned (proven). Otherwise the address is at
/// least BaseAlign-aligned, and this is the answer only when
/// \p BaseIsWholeGuarantee: the buffer's start is what its declaration
/// guarantees and no more can be relied on (a static `__shared__` variable).
/// For an `extern __shared__` pool the launch may place the start higher, so
/// only the proven case is an answer and the rest is unknown.
Known addressAlign(Known BaseAlign, std::optional<std::int64_t> Offset,
                   bool BaseIsWholeGuarantee);

/// A stage family's member that breaks an alignment rule.
struct MemberViolation {
  std::uint64_t Member = 0;
  /// Its byte offset into the buffer.
  std::int64_t Offset = 0;
  DeviceViolation Violation;
};

/// The first member of a stage family (issue 24: stage m lies
/// \p Member0 + m * \p Stride bytes into a buffer whose start is
/// \p BaseAlign-aligned, \p Whole as for addressAlign) whose address breaks
/// \p Rule: a value rule on a family reports when some in-bounds member
/// breaks it, not only when every member does.
std::optional<MemberViolation>
firstMemberViolation(Known BaseAlign, bool Whole, std::uint64_t Members,
                     std::int64_t Member0, std::uint64_t Stride,
                     std::optional<DeviceViolation> (*Rule)(Known));

/// swizzleRepeat() (tma/rules/CopyBytes.h), std::nullopt for NONE and
/// invalid values.
std::optional<std::uint64_t> swizzleRepeatBytes(std::uint64_t Swizzle);

/// BULK-ADDR-ALIGN16: the shared-memory and the global address of a 1-D
/// bulk copy are 16-byte aligned. \p AddressAlign from addressAlign() (or,
/// for \p Operand GlobalAddress, the proven alignment of a device
/// allocation plus a constant offset).
std::optional<DeviceViolation>
checkBulkAddrAlign16(Known AddressAlign,
                     DeviceParam Operand = DeviceParam::SmemAddress);

/// The alignment of an mbarrier object, in bytes.
constexpr std::uint64_t MbarAlign = 8;

/// MBAR-LOCATION-ALIGN: the mbarrier object that an mbarrier instruction or
/// a copy's completion signal names is 8-byte aligned in shared memory.
/// \p AddressAlign from addressAlign().
std::optional<DeviceViolation> checkMbarLocationAlign(Known AddressAlign);

/// The state space that a barrier operand is proven to name, when it is
/// not shared memory: the address of an automatic local variable (no
/// `__shared__`) is local memory, of a `__device__` (or `__managed__`)
/// variable or of a static local of device code global memory, of a
/// `__constant__` variable constant memory. Unknown: anything else, shared
/// memory included.
enum class BarrierSpace { Unknown, Local, Global, StaticLocal, Constant };

/// MBAR-LOCATION-ALIGN, the state space: an mbarrier object is in shared
/// memory; \p Space is where the barrier operand is proven to point.
std::optional<DeviceViolation> checkMbarLocationSpace(BarrierSpace Space);

/// TMA-SMEM-ALIGN-128: the shared-memory box of a tensor copy is 128-byte
/// aligned. \p AddressAlign from addressAlign().
std::optional<DeviceViolation> checkTmaSmemAlign128(Known AddressAlign);

/// TMA-SMEM-ALIGN-128's suggestion for a copy whose map has the swizzle
/// \p Swizzle (when known): it states the alignment the box needs in the end
/// (tmaSmemAlignNeeded), not 128 first.
std::string tmaSmemAlignSuggestion(Known Swizzle);

/// The alignment the shared-memory box of a tensor copy needs in the end:
/// 128 bytes, or the repeat of the map's swizzle \p Swizzle when larger
/// (TMA-SMEM-ALIGN-SWIZZLE: 1024 for CU_TENSOR_MAP_SWIZZLE_128B).
std::uint64_t tmaSmemAlignNeeded(Known Swizzle);

/// TMA-SMEM-ALIGN-SWIZZLE: the shared-memory box of a tensor copy whose map
/// swizzles (\p Swizzle, a CUtensorMapSwizzle value) is aligned to the
/// swizzle repeat. Silent for SWIZZLE_NONE and when the address is not even
/// 128-byte aligned (TMA-SMEM-ALIGN-128 reports that).
std::optional<DeviceViolation> checkTmaSmemAlignSwizzle(Known AddressAlign,
                                                        Known Swizzle);

/// TMA-SMEM-FOOTPRINT: the box a tensor copy writes (\p BoxBytes) fits in the
/// \p AvailableBytes from the shared-memory address to the end of its buffer.
std::optional<DeviceViolation> checkTmaSmemFootprint(Known AvailableBytes,
                                                     Known BoxBytes);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_SMEMRULES_H
