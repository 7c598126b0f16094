//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The use walks the wait-parity proofs share (WaitParityWalks.h).
//
//===----------------------------------------------------------------------===//

#include "api/WaitParityWalks.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tma::waitparity {

namespace {

/// Whether \p C is an argument of the call \p P bound to a reference to
/// const (`const uint32_t &phaseParity` of cuda::ptx): a read.
bool constRefArg(const Stmt *P, const Stmt *C) {
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                           isa<CXXMethodDecl>(FD) ? 1 : 0;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == C && I - Shift < FD->getNumParams()) {
      QualType T = FD->getParamDecl(I - Shift)->getType();
      return T->isReferenceType() && T->getPointeeType().isConstQualified();
    }
  return false;
}

} // namespace

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

/// A local integer of a function body: not static, not a parameter.
bool isLocalInt(const VarDecl *VD) {
  return VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
         VD->getType()->isIntegerType() &&
         !VD->getType()->isReferenceType() &&
         isa_and_nonnull<FunctionDecl>(VD->getDeclContext());
}

/// Whether the reference \p C, whose parent is \p P, only reads the
/// local: an rvalue, or an argument bound to a reference to const.
bool readsOnly(const ParentMap &PM, const Stmt *P, const Stmt *C) {
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P)) {
    if (IC->getCastKind() == CK_LValueToRValue)
      return true;
    if (IC->getCastKind() == CK_NoOp) {
      const Stmt *CC = nullptr;
      if (constRefArg(parentThroughParens(PM, IC, CC), CC))
        return true;
    }
  }
  return constRefArg(P, C);
}

/// `V + 1` (either order).
bool isPlusOne(const Expr *E, const VarDecl *V, const FoldFn &Fold) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
  if (!B || B->getOpcode() != BO_Add)
    return false;
  return (varOf(B->getLHS()) == V && Fold(B->getRHS()) == 1) ||
         (varOf(B->getRHS()) == V && Fold(B->getLHS()) == 1);
}

/// `V ^ 1`, `1 ^ V`, `!V`, `1 - V`.
bool isFlipOf(const Expr *E, const VarDecl *V, const FoldFn &Fold) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_LNot && varOf(U->getSubExpr()) == V;
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return false;
  if (B->getOpcode() == BO_Xor)
    return (varOf(B->getLHS()) == V && Fold(B->getRHS()) == 1) ||
           (varOf(B->getRHS()) == V && Fold(B->getLHS()) == 1);
  return B->getOpcode() == BO_Sub && Fold(B->getLHS()) == 1 &&
         varOf(B->getRHS()) == V;
}

const Expr *lowBit(const Expr *E, const FoldFn &Fold) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
  if (B && ((B->getOpcode() == BO_And && Fold(B->getRHS()) == 1) ||
            (B->getOpcode() == BO_Rem && Fold(B->getRHS()) == 2)))
    return B->getLHS();
  return nullptr;
}

} // namespace clang::tidy::tma::waitparity
