//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpFacts.h"
#include "api/DeviceOpsFinder.h"
#include "api/MapLink.h"

namespace clang::tidy::tma {

using ::tma::rules::Known;
using ::tma::rules::OpOperand;

const DeviceOpSite::Origin *DeviceOpSite::originOf(OpOperand O,
                                                   std::size_t Index) const {
  for (const Origin &X : Origins)
    if (X.Operand == O && X.Index == Index)
      return &X;
  return nullptr;
}

DeviceOpSite deviceOpSite(const DeviceOp &Op, const FunctionDecl *Fn,
                          const CallContext *Context, ConstantFolder &Folder) {
  DeviceOpSite S;
  ::tma::rules::DeviceOpFacts &F = S.Facts;
  // A present operand: its immediate, or its written expression folded
  // (with its origin for notes); absent: not judged.
  auto Value = [&](const OpValue &V, OpOperand O,
                   std::size_t Index = 0) -> std::optional<Known> {
    if (!V.Present)
      return std::nullopt;
    DeviceOpSite::Origin X{O, Index, &V, std::nullopt};
    Known K;
    if (V.Imm) {
      K = V.Imm;
    } else if (V.Written) {
      X.Folded = Folder.foldInt(V.Written);
      if (X.Folded)
        K = asU64(X.Folded->Value);
    }
    S.Origins.push_back(std::move(X));
    return K;
  };
  // The cluster the kernel runs in: its __cluster_dims__, or what the launch
  // of this context sets (api/LaunchCluster.h).
  auto Multicast = [&](const OpValue &Mask) {
    if (!Mask.Present)
      return;
    S.Cluster = clusterOf(Fn, Context, Folder);
    if (!S.Cluster)
      return;
    F.ClusterCtas = S.Cluster->Ctas;
    F.CtaMask = Value(Mask, OpOperand::CtaMask);
  };
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    F.Size = Value(B->Size, OpOperand::Size);
    F.IgnoreLeft = Value(B->IgnoreLeft, OpOperand::IgnoreLeft);
    F.IgnoreRight = Value(B->IgnoreRight, OpOperand::IgnoreRight);
    Multicast(B->CtaMask);
    return S;
  }
  if (const auto *E = std::get_if<ExpectTx>(&Op)) {
    F.TxCount = Value(E->Bytes, OpOperand::TxCount);
    return S;
  }
  if (const auto *I = std::get_if<BarrierInit>(&Op)) {
    F.InitCount = Value(I->Count, OpOperand::InitCount);
    F.InitLayoutV1 = I->Layout == 1;
    return S;
  }
  if (const auto *St = std::get_if<StBulk>(&Op)) {
    F.StInitValue = foldOperand(St->InitValue, Folder);
    F.StSize = Value(St->Size, OpOperand::StSize);
    return S;
  }
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return S;
  Multicast(T->CtaMask);
  F.Mode = copyModeOf(T->Mode);
  F.Dims = T->Dims;
  if (T->Direction == device::TensorDirection::Load ||
      T->Direction == device::TensorDirection::Prefetch) {
    std::vector<Known> Info;
    for (const OpValue &V : T->Im2colInfo)
      Info.push_back(foldOperand(V, Folder));
    F.Im2colInfo = std::move(Info);
    return S;
  }
  // Stores and reductions: every coordinate non-negative.
  for (std::size_t I = 0; I < T->Coords.size(); ++I)
    if (auto K = Value(T->Coords[I], OpOperand::StoreCoord, I))
      F.StoreCoords.push_back(*K);
    else
      F.StoreCoords.push_back(std::nullopt);
  if (T->Coords.empty() && T->CoordArray.Written && T->Dims)
    if (auto A = Folder.foldArray(T->CoordArray.Written, T->CoordArray.Written,
                                  T->Dims))
      for (const auto &E : A->Elems)
        F.StoreCoordArray.push_back(E ? Known(asU64(E->Value)) : Known());
  return S;
}

} // namespace clang::tidy::tma
