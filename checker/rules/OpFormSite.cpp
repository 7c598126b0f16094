//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/OpFormSite.h"

namespace tma::rules {

std::vector<FormViolation> checkOpForm(const OpFormFacts &F) {
  std::vector<FormViolation> R;
  auto Add = [&](std::optional<DeviceViolation> V, FormFact Fact) {
    if (V)
      R.push_back({std::move(*V), Fact});
  };
  if (F.Reduce)
    Add(checkBulkReduceOpType(F.Reduce->Dst, F.Reduce->Op, F.Reduce->Type,
                              F.Reduce->NoFtz),
        FormFact::ReduceOpType);
  if (F.ReduceMode)
    Add(checkTmaReduceMode(*F.ReduceMode), FormFact::ReduceMode);
  if (F.CoordCount)
    Add(checkTmaCoordCount(F.CoordCount->Dims, F.CoordCount->Count,
                           F.CoordCount->Shape),
        FormFact::CoordCount);
  return R;
}

} // namespace tma::rules
