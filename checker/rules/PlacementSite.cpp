//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/PlacementSite.h"

namespace tma::rules {

std::vector<PlacementViolation> checkMapPlacement(const MapPlacementFacts &F) {
  std::vector<PlacementViolation> R;
  auto Add = [&](std::optional<DeviceViolation> V, PlacementFact About) {
    if (V)
      R.push_back({std::move(*V), About});
  };
  Add(checkPlaceGridConstant(F.Storage, F.ReachesRead), PlacementFact::Read);
  if (F.ReachesRead)
    Add(checkTmaMapStateSpace(F.Storage), PlacementFact::Read);
  if (F.ReachesWrite)
    Add(checkDevReadonlyParam(F.Storage), PlacementFact::Write);
  Add(checkPlaceGlobalFence(F.Storage, F.ReachesRead && F.ReadByTensorCopy,
                            F.KernelMayFence),
      PlacementFact::Fence);
  return R;
}

std::vector<DeviceViolation> checkReplaceValue(const ReplaceValueFacts &F) {
  std::vector<DeviceViolation> R;
  if (auto V = checkReplaceEncoding(F.Field, F.Value, F.AsWritten))
    R.push_back(std::move(*V));
  return R;
}

} // namespace tma::rules
