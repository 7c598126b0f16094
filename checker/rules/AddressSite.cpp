//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/AddressSite.h"
#include "rules/FormRules.h"

#include <string>

namespace tma::rules {

namespace {

using AlignRule = std::optional<DeviceViolation> (*)(Known);

std::optional<DeviceViolation> bulkSmemAlign(Known A) {
  return checkBulkAddrAlign16(A);
}

std::optional<DeviceViolation> bulkGlobalAlign(Known A) {
  return checkBulkAddrAlign16(A, DeviceParam::GlobalAddress);
}

/// \p Rule on an address, else on the first stage of its family that
/// breaks it; the suggestion asks only for the offset where the start is
/// not the code's (\p Needed bytes, the rule's limit when 0).
std::optional<AddressViolation> alignOf(const SmemAddressFacts &F,
                                        AlignRule Rule, AddressOperand O) {
  std::optional<AddressViolation> R;
  if (auto V = Rule(F.Align))
    R = AddressViolation{std::move(*V), O, std::nullopt};
  else if (F.Members)
    if (auto M = firstMemberViolation(F.BaseAlign, F.Whole, F.Members,
                                      F.Member0, F.MemberStride, Rule))
      R = AddressViolation{M->Violation, O, std::move(*M)};
  return R;
}

void offsetOnly(AddressViolation &V, std::uint64_t Needed) {
  V.Violation.Suggestion = "keep the offset into it a multiple of " +
                           std::to_string(Needed) + " bytes";
}

} // namespace

const char *smemAlignRuleId(AddressedOp Op) {
  switch (Op) {
  case AddressedOp::Bulk:
    return "BULK-ADDR-ALIGN16";
  case AddressedOp::Tensor:
    return "TMA-SMEM-ALIGN-128";
  case AddressedOp::Other:
    break;
  }
  return nullptr;
}

std::vector<AddressViolation> checkOpAddresses(const OpAddressFacts &F) {
  std::vector<AddressViolation> R;
  if (F.Smem && F.Op != AddressedOp::Other) {
    bool Tensor = F.Op == AddressedOp::Tensor;
    if (auto V = alignOf(*F.Smem, Tensor ? checkTmaSmemAlign128 : bulkSmemAlign,
                         AddressOperand::Smem)) {
      // A tensor copy's box needs its map's swizzle repeat in the end: the
      // suggestion says so at once.
      std::uint64_t Needed = V->Violation.Limit;
      if (Tensor) {
        Needed = tmaSmemAlignNeeded(F.Swizzle);
        V->Violation.Suggestion = tmaSmemAlignSuggestion(F.Swizzle);
      }
      if (F.Smem->OffsetOnly)
        offsetOnly(*V, Needed);
      R.push_back(std::move(*V));
    }
  }
  if (F.Barrier)
    if (auto V = alignOf(*F.Barrier, checkMbarLocationAlign,
                         AddressOperand::Barrier)) {
      if (F.Barrier->OffsetOnly)
        offsetOnly(*V, V->Violation.Limit);
      R.push_back(std::move(*V));
    }
  if (auto V = checkMbarLocationSpace(F.Space))
    R.push_back({std::move(*V), AddressOperand::BarrierSpace, std::nullopt});
  if (F.GlobalAlign && F.Op != AddressedOp::Other)
    if (auto V = (F.Op == AddressedOp::Bulk ? bulkGlobalAlign
                                            : checkTmaOverrideAddrAlign)(
            *F.GlobalAlign))
      R.push_back({std::move(*V), AddressOperand::Global, std::nullopt});
  return R;
}

} // namespace tma::rules
