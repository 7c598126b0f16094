//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/TensorCopySite.h"
#include "rules/SmemRules.h"

namespace tma::rules {

std::vector<LinkedCopyViolation>
checkLinkedTensorCopy(const LinkedCopyFacts &F) {
  std::vector<LinkedCopyViolation> Out;
  auto Add = [&](std::optional<DeviceViolation> V, Param About,
                 bool Buffer = false) {
    if (V)
      Out.push_back({std::move(*V), About, Buffer});
  };
  const MapDescriptor &D = F.Map;
  // A wrong mode makes the other comparisons meaningless: only the mode.
  Add(checkTmaModeMatchesMap(F.Mode, D.Encoder, D.WideMode), Param::Encoder);
  if (!Out.empty())
    return Out;
  if (F.Dims)
    Add(checkTmaDimEqRank(F.Dims, D.Rank, F.Mode), Param::TensorRank);
  // Packed sub-byte maps: the direction, and the first coordinate.
  Add(checkTmaPackedDirection(D.DataType, F.Direction), Param::TensorDataType);
  Add(checkTmaPackedCoord0(D.DataType, F.Direction, F.Coord0),
      Param::TensorDataType);
  Add(checkTmaStoreCoordAlign(D.DataType, F.Mode, F.Direction, F.Coord0),
      Param::TensorDataType);
  bool Upper = false;
  if (auto V = checkTmaStoreIm2colCorners(D, F.Mode, F.Direction, Upper))
    Add(std::move(V), Upper ? Param::PixelBoxUpperCorner
                            : Param::PixelBoxLowerCorner);
  Add(checkTmaGather4(D, F.Mode), Param::BoxDim);
  if (F.Direction == CopyDirection::Reduce)
    Add(checkTmaReduceOpType(D.DataType, F.ReduceOp), Param::TensorDataType);
  // The shared-memory box against the map's element type, swizzle and box.
  if (!F.Buffer)
    return Out;
  const BoxBufferFacts &B = *F.Buffer;
  Add(checkTmaSmemElemType(D.DataType, B.ElemBytes), Param::TensorDataType,
      true);
  if (D.Encoder == MapEncoder::Tiled)
    Add(checkTmaSmemAlignSwizzle(B.AddressAlign, D.Swizzle), Param::Swizzle,
        true);
  if (F.Direction == CopyDirection::Load)
    Add(checkTmaSmemFootprint(B.BytesToEnd, tensorCopyBytes(D, F.Mode)),
        Param::BoxDim, true);
  return Out;
}

} // namespace tma::rules
