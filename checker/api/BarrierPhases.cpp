//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/BarrierPhases.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::tma {

std::optional<BarrierIdentity> barrierIdentity(const Expr *E,
                                               const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  BarrierIdentity Id;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf) {
    Id.Object = U->getSubExpr()->IgnoreParenImpCasts();
  } else if (E->getType()->isPointerType()) {
    Id.Object = E;
    Id.ThroughPointer = true;
  } else {
    Id.Object = E;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Id.Object);
      U && U->getOpcode() == UO_Deref && !Id.ThroughPointer) {
    Id.Object = U->getSubExpr()->IgnoreParenImpCasts();
    Id.ThroughPointer = true;
  }

  // Down to the root variable; solid while no pointer is followed.
  bool Solid = !Id.ThroughPointer;
  const Expr *Cur = Id.Object;
  while (true) {
    Cur = Cur->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Cur)) {
      // An index into a pointer rather than into an array.
      if (!A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        Solid = false;
      Cur = A->getBase();
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(Cur)) {
      if (M->isArrow())
        Solid = false;
      Cur = M->getBase();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return std::nullopt;
  Id.Root = VD;
  QualType T = VD->getType();
  Id.Solid = Solid && !T->isPointerType() && !T->isReferenceType() &&
             VD->isLocalVarDeclOrParm();
  Id.Object->Profile(Id.Key, Ctx, /*Canonical=*/true);
  Id.Key.AddBoolean(Id.ThroughPointer);
  return Id;
}

bool mayAlias(const BarrierIdentity &A, const BarrierIdentity &B) {
  return !A.Solid || !B.Solid || A.Root == B.Root;
}

static bool isLoop(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
         isa<CXXForRangeStmt>(S);
}

static const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    return R->getBody();
  return nullptr;
}

PhasePlace phasePlaceOf(const ParentMap &PM, const Stmt *S, const Stmt *Body) {
  PhasePlace P;
  P.Region = Body;
  const Stmt *Prev = S;
  const Stmt *Cur = S == Body ? nullptr : PM.getParent(S);
  for (; Cur; Prev = Cur, Cur = Cur == Body ? nullptr : PM.getParent(Cur)) {
    if (isLoop(Cur)) {
      if (loopBody(Cur) != Prev)
        P.Unclear = true;
      P.Region = Prev;
      return P;
    }
    if (const auto *If = dyn_cast<IfStmt>(Cur)) {
      // The branch an instantiation keeps of an `if constexpr` always runs.
      if (If->isConstexpr() && (Prev == If->getThen() || Prev == If->getElse()))
        continue;
      if (Prev == If->getThen())
        P.Branches.push_back({If, false});
      else if (Prev == If->getElse())
        P.Branches.push_back({If, true});
      else
        P.Unclear = true;
      continue;
    }
    if (isa<SwitchStmt>(Cur) || isa<ConditionalOperator>(Cur) ||
        isa<BinaryConditionalOperator>(Cur) || isa<LambdaExpr>(Cur))
      P.Unclear = true;
    if (const auto *B = dyn_cast<BinaryOperator>(Cur); B && B->isLogicalOp())
      P.Unclear = true;
  }
  // Not below Body: the parent map does not know the statement.
  if (!Cur && Prev != Body)
    P.Unclear = true;
  return P;
}

bool isWithin(const ParentMap &PM, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *Cur = Inner; Cur; Cur = PM.getParent(Cur))
    if (Cur == Outer)
      return true;
  return false;
}

} // namespace clang::tidy::tma
