//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/ParityExpr.h"

#include "clang/AST/Decl.h"

#include <functional>

namespace clang::tidy::tma::parity {

namespace {

const Expr *strip(const Expr *E) { return E ? E->IgnoreParenCasts() : nullptr; }

/// `E + c` (either order) with c a non-negative constant and E none:
/// sets the other operand and c.
bool plusConstant(const Expr *E, FoldFn Fold, const Expr *&Rest,
                  std::int64_t &C) {
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_Add)
    return false;
  for (auto [X, Y] : {std::make_pair(B->getLHS(), B->getRHS()),
                      std::make_pair(B->getRHS(), B->getLHS())}) {
    std::optional<std::int64_t> V = Fold(Y);
    if (V && *V >= 0 && !Fold(X)) {
      Rest = strip(X);
      C = *V;
      return true;
    }
  }
  return false;
}

/// An operator that only computes a value from its operands.
bool pureOperator(const Expr *E) {
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_Deref &&
           U->getOpcode() != UO_AddrOf;
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma;
  return isa<ConditionalOperator>(E);
}

} // namespace

std::optional<Lap> lapOf(const Expr *X, FoldFn Fold) {
  X = strip(X);
  if (!X)
    return std::nullopt;
  Lap L;
  std::int64_t C = 0;
  const Expr *Rest = nullptr;
  // `... + d`
  if (plusConstant(X, Fold, Rest, C)) {
    L.Flip ^= static_cast<unsigned>(C & 1);
    X = Rest;
  }
  // `(k + c) / T`, `k / T`
  if (const auto *D = dyn_cast<BinaryOperator>(X);
      D && D->getOpcode() == BO_Div) {
    std::optional<std::int64_t> T = Fold(D->getRHS());
    if (!T || *T <= 0)
      return std::nullopt;
    X = strip(D->getLHS());
    if (plusConstant(X, Fold, Rest, C)) {
      if (C % *T)
        return std::nullopt;
      L.Flip ^= static_cast<unsigned>((C / *T) & 1);
      X = Rest;
    }
    L.Divided = true;
    L.Period = static_cast<std::uint64_t>(*T);
  }
  if (!isa<DeclRefExpr>(X) || Fold(X))
    return std::nullopt;
  L.Count = X;
  return L;
}

bool sameValue(const Expr *A, const Expr *B, FoldFn Fold) {
  A = strip(A);
  B = strip(B);
  if (!A || !B)
    return false;
  const auto *DA = dyn_cast<DeclRefExpr>(A);
  const auto *DB = dyn_cast<DeclRefExpr>(B);
  if (DA && DB && isa<VarDecl>(DA->getDecl()) &&
      DA->getDecl()->getCanonicalDecl() == DB->getDecl()->getCanonicalDecl())
    return true;
  std::optional<std::int64_t> VA = Fold(A), VB = Fold(B);
  if (VA || VB)
    return VA && VB && *VA == *VB;
  if (DA || DB || !pureOperator(A) || A->getStmtClass() != B->getStmtClass())
    return false;
  if (const auto *UA = dyn_cast<UnaryOperator>(A))
    return UA->getOpcode() == cast<UnaryOperator>(B)->getOpcode() &&
           sameValue(UA->getSubExpr(), cast<UnaryOperator>(B)->getSubExpr(),
                     Fold);
  if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
    const auto *BB = cast<BinaryOperator>(B);
    return BA->getOpcode() == BB->getOpcode() &&
           sameValue(BA->getLHS(), BB->getLHS(), Fold) &&
           sameValue(BA->getRHS(), BB->getRHS(), Fold);
  }
  const auto *CA = cast<ConditionalOperator>(A);
  const auto *CB = cast<ConditionalOperator>(B);
  return sameValue(CA->getCond(), CB->getCond(), Fold) &&
         sameValue(CA->getTrueExpr(), CB->getTrueExpr(), Fold) &&
         sameValue(CA->getFalseExpr(), CB->getFalseExpr(), Fold);
}

bool memberOnly(const Expr *Parity, const Expr *Index, ResolveFn Resolve,
                FoldFn Fold) {
  if (!Parity || !Index)
    return false;
  bool Reads = false;
  // Depth bounds the locals followed through their initialisers.
  std::function<bool(const Expr *, unsigned)> Covered =
      [&](const Expr *E, unsigned Depth) -> bool {
    E = strip(E);
    if (!E || Depth > 8)
      return false;
    if (sameValue(E, Index, Fold))
      return Reads = true;
    if (Fold(E))
      return true;
    if (isa<DeclRefExpr>(E)) {
      const Expr *R = strip(Resolve(E));
      return R && R != E && Covered(R, Depth + 1);
    }
    if (!pureOperator(E))
      return false;
    for (const Stmt *C : E->children())
      if (!Covered(dyn_cast_or_null<Expr>(C), Depth + 1))
        return false;
    return true;
  };
  return Covered(Parity, 0) && Reads;
}

} // namespace clang::tidy::tma::parity
