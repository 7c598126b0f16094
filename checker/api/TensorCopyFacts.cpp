//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/TensorCopyFacts.h"
#include "api/DeviceOpsFinder.h"

#include "clang/AST/ASTContext.h"

namespace clang::tidy::tma {

namespace device = ::tma::device;
namespace rules = ::tma::rules;

std::string reduceOpName(device::ReduceOp Op) {
  switch (Op) {
  case device::ReduceOp::None:
    return "";
  case device::ReduceOp::Add:
    return "add";
  case device::ReduceOp::Min:
    return "min";
  case device::ReduceOp::Max:
    return "max";
  case device::ReduceOp::Inc:
    return "inc";
  case device::ReduceOp::Dec:
    return "dec";
  case device::ReduceOp::And:
    return "and";
  case device::ReduceOp::Or:
    return "or";
  case device::ReduceOp::Xor:
    return "xor";
  }
  return "";
}

rules::CopyDirection copyDirectionOf(device::TensorDirection D) {
  switch (D) {
  case device::TensorDirection::Load:
    return rules::CopyDirection::Load;
  case device::TensorDirection::Store:
    return rules::CopyDirection::Store;
  case device::TensorDirection::Reduce:
    return rules::CopyDirection::Reduce;
  case device::TensorDirection::Prefetch:
    return rules::CopyDirection::Prefetch;
  }
  return rules::CopyDirection::Load;
}

rules::Known firstCoordinate(const TensorCopy &T, ConstantFolder &Folder) {
  if (!T.Coords.empty()) {
    const OpValue &C = T.Coords.front();
    if (C.Imm)
      return C.Imm;
    if (C.Written)
      if (auto V = Folder.foldInt(C.Written))
        return asU64(V->Value);
    return std::nullopt;
  }
  if (T.CoordArray.Written)
    if (auto A = Folder.foldArray(T.CoordArray.Written, T.CoordArray.Written, 1);
        A && !A->Elems.empty() && A->Elems.front())
      return asU64(A->Elems.front()->Value);
  return std::nullopt;
}

rules::Known elementBytesOf(const SharedBuffer &B) {
  if (B.Extern)
    return std::nullopt;
  const ASTContext &Ctx = B.Var->getASTContext();
  QualType T = Ctx.getBaseElementType(B.Var->getType());
  if (T->isDependentType() || !T->isArithmeticType() || T->isBooleanType())
    return std::nullopt;
  return static_cast<std::uint64_t>(Ctx.getTypeSizeInChars(T).getQuantity());
}

LinkedCopySite linkedCopySite(const TensorCopy &T, const KnownMap &Map,
                              ConstantFolder &Folder, SharedBuffers &Buffers) {
  LinkedCopySite S;
  rules::LinkedCopyFacts &F = S.Facts;
  F.Mode = copyModeOf(T.Mode);
  F.Direction = copyDirectionOf(T.Direction);
  // 0: the form does not say.
  if (T.Dims)
    F.Dims = T.Dims;
  F.Coord0 = firstCoordinate(T, Folder);
  if (T.Direction == device::TensorDirection::Reduce)
    F.ReduceOp = reduceOpName(T.Reduce);
  F.Map = Map.Desc;
  S.Buffer = Buffers.resolve(T.Smem);
  if (S.Buffer)
    F.Buffer = rules::BoxBufferFacts{elementBytesOf(*S.Buffer),
                                     addressAlignOf(*S.Buffer),
                                     S.Buffer->BytesToEnd};
  return S;
}

} // namespace clang::tidy::tma
