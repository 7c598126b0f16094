//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/MapAddress.h"
#include "api/KernelModel.h"

#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::tma {

/// Steps followed from one operand (locals, helpers' parameters, parts).
static constexpr unsigned MaxSteps = 48;

std::optional<MapAddress> MapAddresses::of(const Expr *E,
                                           const FunctionDecl *Kernel,
                                           Binding Bound) {
  unsigned Budget = MaxSteps;
  if (!E || !Kernel)
    return std::nullopt;
  return resolve(E, Kernel, Bound, /*Loose=*/false, Budget);
}

std::optional<std::int64_t> MapAddresses::sizeOf(QualType T) {
  if (T.isNull() || T->isDependentType() || T->isIncompleteType() ||
      T->isFunctionType() || T->isVoidType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

std::optional<std::int64_t> MapAddresses::constant(const Expr *E,
                                                   Binding Bound) {
  E = E->IgnoreParenImpCasts();
  // A helper's index parameter given a constant.
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      if (const Expr *Arg = Bound(P))
        E = Arg->IgnoreParenImpCasts();
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 48)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Adds the locals that \p S declares inside a loop (\p Loop: \p S is in
/// one) to \p Out.
static void collectLoopLocals(const Stmt *S, bool Loop,
                              llvm::DenseSet<const VarDecl *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *D = dyn_cast<DeclStmt>(S); D && Loop)
    for (const Decl *Dl : D->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Dl))
        Out.insert(VD);
  Loop |= isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    collectLoopLocals(Child, Loop, Out);
}

bool MapAddresses::steadyLocal(const VarDecl *VD, const FunctionDecl *Kernel) {
  if (!VD->isLocalVarDecl() || VD->isStaticLocal() ||
      VD->getParentFunctionOrMethod() != Kernel || !Kernel->getBody())
    return false;
  // Initialised once per kernel run: no loop around its declaration.
  auto [It, New] = LoopLocals.try_emplace(Kernel);
  if (New)
    collectLoopLocals(Kernel->getBody(), false, It->second);
  return !It->second.count(VD);
}

std::optional<MapAddress> MapAddresses::resolve(const Expr *E,
                                                const FunctionDecl *Kernel,
                                                Binding Bound, bool Loose,
                                                unsigned &Budget) {
  std::int64_t Offset = 0;
  while (E && Budget > 0) {
    --Budget;
    E = E->IgnoreParens();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD)
        return std::nullopt;
      const auto *P = dyn_cast<ParmVarDecl>(VD);
      if (const Expr *Arg = P ? Bound(P) : nullptr) {
        E = Arg;
        continue;
      }
      const bool Pointer = VD->getType()->isPointerType();
      // A pointer parameter of the kernel that keeps its value.
      if (P) {
        if (!Pointer || P->getDeclContext() != Kernel ||
            !Aliases.neverWritten(P))
          return std::nullopt;
        return MapAddress{P, Offset};
      }
      if (!Pointer && !VD->getType()->isReferenceType())
        return std::nullopt;
      const Expr *Init = Aliases.initOf(VD);
      if (!Init)
        return std::nullopt;
      if (Loose) {
        E = Init;
        continue;
      }
      unsigned Inner = Budget;
      if (std::optional<MapAddress> A =
              resolve(Init, Kernel, Bound, false, Inner)) {
        Budget = Inner;
        return MapAddress{A->Root, A->Offset + Offset};
      }
      // A run-time offset from a parameter (`workspace + blockIdx.x`): the
      // local itself, when its value holds for the whole kernel.
      Inner = Budget;
      if (Pointer && steadyLocal(VD, Kernel) &&
          resolve(Init, Kernel, Bound, true, Inner))
        return MapAddress{VD, Offset};
      return std::nullopt;
    }
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      switch (C->getCastKind()) {
      case CK_LValueToRValue:
        // The value of a pointer variable, not of a pointer stored in
        // memory.
        if (!isa<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
          return std::nullopt;
        break;
      case CK_NoOp:
      case CK_BitCast:
      case CK_ArrayToPointerDecay:
      case CK_IntegralToPointer:
      case CK_PointerToIntegral:
      case CK_IntegralCast:
      case CK_AddressSpaceConversion:
        break;
      default:
        return std::nullopt;
      }
      E = C->getSubExpr();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      // An lvalue and its address, a pointer and its pointee: one address.
      if (U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Deref)
        return std::nullopt;
      E = U->getSubExpr();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      std::optional<std::int64_t> I = constant(A->getIdx(), Bound);
      std::optional<std::int64_t> Size = sizeOf(A->getType());
      if (!Loose && (!I || !Size))
        return std::nullopt;
      if (I && Size)
        Offset += *I * *Size;
      E = A->getBase();
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!F || F->isBitField())
        return std::nullopt;
      const RecordDecl *RD = F->getParent();
      QualType BaseT = M->getBase()->getType();
      if (M->isArrow())
        BaseT = BaseT->getPointeeType();
      const RecordDecl *Of = BaseT.isNull() ? nullptr : BaseT->getAsRecordDecl();
      // A field of a base class needs the base's offset: not followed.
      if (!Of || Of->getCanonicalDecl() != RD->getCanonicalDecl() ||
          RD->isDependentType() || !RD->isCompleteDefinition() ||
          RD->isInvalidDecl())
        return std::nullopt;
      Offset += static_cast<std::int64_t>(
          Ctx.getASTRecordLayout(RD).getFieldOffset(F->getFieldIndex()) /
          Ctx.getCharWidth());
      E = M->getBase();
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E);
        B && B->isAdditiveOp() && B->getType()->isPointerType()) {
      const bool LhsPtr = B->getLHS()->getType()->isPointerType();
      if (!LhsPtr && B->getOpcode() == BO_Sub)
        return std::nullopt;
      const Expr *Ptr = LhsPtr ? B->getLHS() : B->getRHS();
      const Expr *Int = LhsPtr ? B->getRHS() : B->getLHS();
      std::optional<std::int64_t> K = constant(Int, Bound);
      std::optional<std::int64_t> Size =
          sizeOf(Ptr->getType()->getPointeeType());
      if (!Loose && (!K || !Size))
        return std::nullopt;
      if (K && Size)
        Offset += (B->getOpcode() == BO_Sub ? -*K : *K) * *Size;
      E = Ptr;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace clang::tidy::tma
