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

std::vector<SilentRule> silentLinkedRules(const LinkedCopyFacts &F) {
  std::vector<SilentRule> Out;
  const MapDescriptor &D = F.Map;
  // A broken mode silences the rest on purpose: that is a finding.
  if (checkTmaModeMatchesMap(F.Mode, D.Encoder, D.WideMode))
    return Out;
  if (!F.Dims)
    Out.push_back({"TMA-DIM-EQ-RANK", "the copy's dimension count is not "
                                      "known (no .Nd in its form)"});
  else if (!D.Rank)
    Out.push_back({"TMA-DIM-EQ-RANK", "the map's tensorRank is not folded"});
  if (!D.DataType)
    Out.push_back({"TMA-PACKED-DIRECTION, TMA-PACKED-COORD0, "
                   "TMA-SMEM-ELEMTYPE",
                   "the map's tensorDataType is not folded"});
  if (!F.Buffer) {
    std::string Rules = D.Encoder == MapEncoder::Tiled
                            ? "TMA-SMEM-ALIGN-SWIZZLE, TMA-SMEM-FOOTPRINT"
                            : "TMA-SMEM-FOOTPRINT";
    if (F.Direction == CopyDirection::Load ||
        D.Encoder == MapEncoder::Tiled)
      Out.push_back({Rules, "the box's shared-memory address is not traced "
                            "to a __shared__ variable"});
    return Out;
  }
  const BoxBufferFacts &B = *F.Buffer;
  if (D.Encoder == MapEncoder::Tiled) {
    if (!D.Swizzle)
      Out.push_back({"TMA-SMEM-ALIGN-SWIZZLE", "the map's swizzle is not "
                                               "folded"});
    else if (!B.AddressAlign)
      Out.push_back({"TMA-SMEM-ALIGN-SWIZZLE",
                     "the alignment of the box's shared-memory address is "
                     "not proven"});
  }
  if (F.Direction == CopyDirection::Load) {
    if (!tensorCopyBytes(D, F.Mode)) {
      std::string Why = "the box's byte count is not folded";
      std::size_t N = D.Rank ? static_cast<std::size_t>(*D.Rank)
                             : D.BoxDim.Elems.size();
      for (std::size_t I = 0; D.Encoder == MapEncoder::Tiled && I < N && I < 5;
           ++I)
        if (!D.BoxDim.at(I)) {
          Why += " (boxDim[" + std::to_string(I) + "] is not)";
          break;
        }
      Out.push_back({"TMA-SMEM-FOOTPRINT", Why});
    } else if (!B.BytesToEnd) {
      Out.push_back({"TMA-SMEM-FOOTPRINT",
                     "the bytes from the box's address to the end of its "
                     "buffer are not known (dynamic shared memory, or a "
                     "run-time offset)"});
    }
  }
  return Out;
}

} // namespace tma::rules
