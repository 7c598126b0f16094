//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/OpAddressFacts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::tma {

/// The shared::cta operand of a bulk or tensor copy: the destination of
/// loads, the source of stores and reductions. A shared::cluster
/// destination of a 1-D copy from shared memory may be another CTA's.
const OpValue *smemOperand(const DeviceOp &Op) {
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    switch (B->Direction) {
    case device::BulkDirection::GlobalToShared:
      return &B->Dst;
    case device::BulkDirection::SharedToCluster:
    case device::BulkDirection::SharedToGlobal:
      return &B->Src;
    case device::BulkDirection::GlobalToL2:
      return nullptr;
    }
  }
  if (const auto *T = std::get_if<TensorCopy>(&Op))
    return T->Direction == device::TensorDirection::Prefetch ? nullptr
                                                             : &T->Smem;
  return nullptr;
}

/// The mbarrier operand of \p Op, when it has one (MBAR-LOCATION-ALIGN):
/// the completion barrier of a copy, the barrier of an mbarrier instruction.
const OpValue *barrierOperand(const DeviceOp &Op) {
  const OpValue *V = std::visit(
      [](const auto &O) -> const OpValue * {
        using T = std::decay_t<decltype(O)>;
        if constexpr (std::is_same_v<T, BulkCopy> ||
                      std::is_same_v<T, TensorCopy> ||
                      std::is_same_v<T, ExpectTx> || std::is_same_v<T, Arrive> ||
                      std::is_same_v<T, BarrierInit> || std::is_same_v<T, Wait>)
          return &O.Barrier;
        return nullptr;
      },
      Op);
  return V && V->Present ? V : nullptr;
}

/// The global-memory operand of a 1-D bulk copy: the source of loads and
/// prefetches, the destination of stores.
static const OpValue *globalOperand(const BulkCopy &B) {
  switch (B.Direction) {
  case device::BulkDirection::GlobalToShared:
  case device::BulkDirection::GlobalToL2:
    return &B.Src;
  case device::BulkDirection::SharedToGlobal:
    return &B.Dst;
  case device::BulkDirection::SharedToCluster:
    return nullptr;
  }
  return nullptr;
}

/// The state space of the variable \p VD when it is not shared memory.
static ::tma::rules::BarrierSpace spaceOf(const VarDecl &VD) {
  using ::tma::rules::BarrierSpace;
  if (VD.hasAttr<CUDASharedAttr>() || VD.getType()->isReferenceType())
    return BarrierSpace::Unknown;
  if (VD.hasLocalStorage())
    return isa<ParmVarDecl>(VD) ? BarrierSpace::Unknown : BarrierSpace::Local;
  if (!VD.hasGlobalStorage())
    return BarrierSpace::Unknown;
  // __constant__ first: clang also marks constexpr variables that device
  // code uses __constant__.
  if (VD.hasAttr<CUDAConstantAttr>())
    return BarrierSpace::Constant;
  if (VD.hasAttr<CUDADeviceAttr>())
    return BarrierSpace::Global;
  // A static local of device code (no attribute) is a global-memory
  // variable too.
  if (const auto *Fn =
          dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
      VD.isStaticLocal() && Fn &&
      (Fn->hasAttr<CUDADeviceAttr>() || Fn->hasAttr<CUDAGlobalAttr>()))
    return BarrierSpace::StaticLocal;
  return BarrierSpace::Unknown;
}

/// The variable whose address \p E is, when that variable is not in shared
/// memory (an automatic local, a `__device__` or `__constant__` variable;
/// not a parameter or a reference): `&x`, `x` for an array, `&x[i]`,
/// `&x.field`, or a local pointer never written after its initialisation
/// to one of those. \p Space gets its state space.
static const VarDecl *nonSharedObject(const Expr *E, ConstantFolder &Folder,
                                      ::tma::rules::BarrierSpace &Space) {
  Space = ::tma::rules::BarrierSpace::Unknown;
  for (unsigned Steps = 0; Steps < 8; ++Steps) {
    // A pointer cast keeps the address: `const_cast<uint64_t *>(&bar)`.
    E = E->IgnoreParenImpCasts();
    while (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      if (!C->getType()->isPointerType() ||
          !C->getSubExpr()->getType()->isPointerType())
        break;
      E = C->getSubExpr()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Ptr = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Ptr || isa<ParmVarDecl>(Ptr) || !Ptr->hasLocalStorage() ||
        !Ptr->getType()->isPointerType() || !Ptr->getInit() ||
        Ref->refersToEnclosingVariableOrCapture() ||
        !Folder.isNeverWritten(Ptr))
      break;
    E = Ptr->getInit();
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  else if (!E->getType()->isArrayType())
    return nullptr;
  // Elements and fields of the variable itself, not of what a pointer in
  // it points to.
  while (true) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase()->IgnoreParenImpCasts();
      if (!E->getType()->isArrayType())
        return nullptr;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (ME->isArrow() || !FD || FD->getType()->isReferenceType())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || DRE->refersToEnclosingVariableOrCapture())
    return nullptr;
  Space = spaceOf(*VD);
  return Space == ::tma::rules::BarrierSpace::Unknown ? nullptr : VD;
}

/// A shared buffer's facts.
static ::tma::rules::SmemAddressFacts smemFacts(const SharedBuffer &B) {
  ::tma::rules::SmemAddressFacts F;
  F.Align = addressAlignOf(B);
  F.Members = B.Members;
  F.BaseAlign = B.BaseAlign;
  F.Whole = !B.Extern && !B.RoundedTo;
  F.Member0 = B.Member0;
  F.MemberStride = B.MemberStride;
  // An extern pool's start or a rounded address is not the declaration's to
  // raise: only the offset helps.
  F.OffsetOnly = B.Extern || B.RoundedTo;
  return F;
}

OpAddressSite opAddressSite(const DeviceOp &Op, OpApi Api,
                            const CallContext *Context,
                            ConstantFolder &Folder, SharedBuffers &Buffers,
                            ::tma::rules::Known Swizzle) {
  using ::tma::rules::AddressedOp;
  OpAddressSite S;
  S.Facts.Op = std::holds_alternative<BulkCopy>(Op)     ? AddressedOp::Bulk
               : std::holds_alternative<TensorCopy>(Op) ? AddressedOp::Tensor
                                                        : AddressedOp::Other;
  S.Facts.Swizzle = Swizzle;
  if (const OpValue *V = smemOperand(Op); V && V->Present && V->E) {
    S.Smem = V;
    if ((S.SmemBuffer = Buffers.resolve(*V)))
      S.Facts.Smem = smemFacts(*S.SmemBuffer);
  }
  if (const OpValue *V = barrierOperand(Op); V && V->E) {
    S.Barrier = V;
    if ((S.BarrierBuffer = Buffers.resolve(*V)))
      S.Facts.Barrier = smemFacts(*S.BarrierBuffer);
    // cuda::memcpy_async falls back to a plain copy for a barrier outside
    // shared memory: only the instructions and their wrappers count.
    if (Api != OpApi::Libcudacxx) {
      // A parameter of a helper is the caller's argument.
      const CallContext *Outer = Context;
      S.BarrierArg = forwardedFrom(V->E, Outer);
      S.BarrierObject =
          nonSharedObject(S.BarrierArg, Folder, S.Facts.Space);
    }
  }
  const OpValue *G = nullptr;
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    G = globalOperand(*B);
  else if (const auto *T = std::get_if<TensorCopy>(&Op))
    G = &T->GlobalAddress;
  if (G && G->Present && G->E) {
    S.Global = G;
    // A kernel's pointer parameter, through the launch that binds it, back
    // to a device allocation plus constant offsets (folding/PointerAlign).
    if ((S.GlobalPointer = Folder.pointerAlign(G->E))) {
      S.GlobalPointer->Offset += G->Offset;
      S.Facts.GlobalAlign = S.GlobalPointer->provenAlign();
    }
  }
  return S;
}

} // namespace clang::tidy::tma
