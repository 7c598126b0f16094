//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/OpFormFacts.h"
#include "api/MapLink.h"
#include "api/TensorCopyFacts.h"

namespace clang::tidy::tma {

::tma::rules::OpFormFacts opFormFacts(const DeviceOp &Op) {
  ::tma::rules::OpFormFacts F;
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (B->Reduce != device::ReduceOp::None && !B->ReduceType.empty())
      F.Reduce = {B->Direction == device::BulkDirection::SharedToGlobal
                      ? ::tma::rules::BulkReduceDst::Global
                      : ::tma::rules::BulkReduceDst::SharedCluster,
                  reduceOpName(B->Reduce), B->ReduceType, B->NoFtz};
    return F;
  }
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return F;
  if (T->Direction == device::TensorDirection::Reduce)
    F.ReduceMode = copyModeOf(T->Mode);
  if (T->Api == OpApi::InlinePtx && !T->Coords.empty())
    F.CoordCount = {T->Dims, static_cast<uint64_t>(T->Coords.size()),
                    T->Mode == device::TensorMode::TileGather4 ||
                            T->Mode == device::TensorMode::TileScatter4
                        ? ::tma::rules::CoordShape::Gather4
                        : ::tma::rules::CoordShape::PerDimension};
  return F;
}

} // namespace clang::tidy::tma
