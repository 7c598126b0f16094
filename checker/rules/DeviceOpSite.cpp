//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/DeviceOpSite.h"
#include "rules/FormRules.h"

namespace tma::rules {

std::vector<OperandViolation> checkDeviceOpOperands(const DeviceOpFacts &F) {
  std::vector<OperandViolation> R;
  auto Add = [&](std::optional<DeviceViolation> V, OpOperand O,
                 std::size_t Index = 0) {
    if (V)
      R.push_back({std::move(*V), O, Index});
    return V.has_value();
  };
  if (F.Size)
    Add(checkBulkSizeMul16(*F.Size), OpOperand::Size);
  if (F.TxCount)
    Add(checkMbarTxRange(*F.TxCount), OpOperand::TxCount);
  if (F.InitCount)
    Add(F.InitLayoutV1 ? checkMbarInitCountLayout(*F.InitCount)
                       : checkMbarInitCount(*F.InitCount),
        OpOperand::InitCount);
  if (F.IgnoreLeft)
    Add(checkBulkIgnoreOob(*F.IgnoreLeft, /*Right=*/false),
        OpOperand::IgnoreLeft);
  if (F.IgnoreRight)
    Add(checkBulkIgnoreOob(*F.IgnoreRight, /*Right=*/true),
        OpOperand::IgnoreRight);
  if (F.CtaMask)
    Add(checkBulkMulticast(*F.CtaMask, F.ClusterCtas), OpOperand::CtaMask);
  if (F.StSize)
    Add(checkBulkStSize(*F.StSize, F.StInitValue), OpOperand::StSize);
  for (std::size_t I = 0; I < F.StoreCoords.size(); ++I)
    Add(checkTmaStoreNonneg(I, F.StoreCoords[I]), OpOperand::StoreCoord, I);
  for (std::size_t I = 0; I < F.StoreCoordArray.size(); ++I)
    if (Add(checkTmaStoreNonneg(I, F.StoreCoordArray[I]),
            OpOperand::StoreCoordArray, I))
      break;
  if (F.Im2colInfo)
    Add(checkTmaIm2colInfo(F.Mode, F.Dims, *F.Im2colInfo),
        OpOperand::Im2colInfo);
  return R;
}

} // namespace tma::rules
