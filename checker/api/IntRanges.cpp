//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/IntRanges.h"
#include "api/ThreadGuards.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <functional>

namespace clang::tidy::tma {

std::optional<std::int64_t> foldSigned(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

namespace {
const VarDecl *varOf(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

std::optional<IntRange> bounded(std::int64_t Lo, std::int64_t Hi) {
  if (Lo > Hi || Lo < -RangeCap || Hi > RangeCap)
    return std::nullopt;
  return IntRange{Lo, Hi};
}
} // namespace

RangeGuards guardsOf(const Stmt *At, const ParentMap &PM, const ASTContext &Ctx,
                     llvm::function_ref<bool(const VarDecl *)> Fixed) {
  RangeGuards Out;
  std::function<void(const Expr *)> Conj = [&](const Expr *C) {
    const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParenImpCasts());
    if (!B)
      return;
    if (B->getOpcode() == BO_LAnd) {
      Conj(B->getLHS());
      Conj(B->getRHS());
      return;
    }
    if (!B->isComparisonOp())
      return;
    BinaryOperatorKind Op = B->getOpcode();
    const VarDecl *VD = varOf(B->getLHS());
    std::optional<std::int64_t> K = foldSigned(B->getRHS(), Ctx);
    if (!VD || !K) {
      VD = varOf(B->getRHS());
      K = foldSigned(B->getLHS(), Ctx);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (!VD || !K || !Fixed(VD) || *K <= -RangeCap || *K >= RangeCap)
      return;
    auto [It, New] = Out.try_emplace(VD, IntRange{-RangeCap, RangeCap});
    IntRange &I = It->second;
    switch (Op) {
    case BO_GE:
      I.first = std::max(I.first, *K);
      break;
    case BO_GT:
      I.first = std::max(I.first, *K + 1);
      break;
    case BO_LE:
      I.second = std::min(I.second, *K);
      break;
    case BO_LT:
      I.second = std::min(I.second, *K - 1);
      break;
    case BO_EQ:
      I.first = std::max(I.first, *K);
      I.second = std::min(I.second, *K);
      break;
    default:
      break;
    }
  };
  for (const Stmt *Prev = At, *P = PM.getParent(At); P;
       Prev = P, P = PM.getParent(P))
    if (const auto *If = dyn_cast<IfStmt>(P); If && Prev == If->getThen() &&
                                              If->getCond() &&
                                              !If->getConditionVariable())
      Conj(If->getCond());
  return Out;
}

namespace {
std::optional<IntRange> rangeAt(const Expr *E, const ASTContext &Ctx,
                                events::Substitution Subst,
                                llvm::ArrayRef<const ForStmt *> Fors,
                                const RangeGuards &G, unsigned Depth) {
  if (!E || Depth > 32 || !E->getType()->isIntegerType())
    return std::nullopt;
  E = E->IgnoreParens();
  if (std::optional<std::int64_t> V = foldSigned(E, Ctx))
    return bounded(*V, *V);
  auto Sub = [&](const Expr *X) {
    return rangeAt(X, Ctx, Subst, Fors, G, Depth + 1);
  };
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    if (C->getCastKind() != CK_IntegralCast &&
        C->getCastKind() != CK_LValueToRValue && C->getCastKind() != CK_NoOp)
      return std::nullopt;
    std::optional<IntRange> R = Sub(C->getSubExpr());
    // A narrowing or sign-changing cast keeps a small non-negative range.
    if (R && C->getCastKind() == CK_IntegralCast &&
        (R->first < 0 || R->second >= (std::int64_t(1) << 31)))
      return std::nullopt;
    return R;
  }
  if (isa<PseudoObjectExpr>(E))
    if (auto V = cudaBuiltinVar(E))
      return V->first == "threadIdx" ? bounded(0, 1023) : std::nullopt;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (!VD)
      return std::nullopt;
    std::optional<IntRange> Guard;
    if (auto It = G.find(VD); It != G.end())
      Guard = It->second;
    if (const Expr *S = Subst(VD)) {
      std::optional<IntRange> R = Sub(S);
      if (R && Guard)
        return bounded(std::max(R->first, Guard->first),
                       std::min(R->second, Guard->second));
      if (R)
        return R;
    }
    if (Guard && Guard->first > -RangeCap && Guard->second < RangeCap)
      return bounded(Guard->first, Guard->second);
    // `for (int i = lo; i < hi; ++i)` around the statement, i stepped
    // only there (by the caller's check).
    for (const ForStmt *F : Fors) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      if (!DS || !DS->isSingleDecl() || DS->getSingleDecl() != VD)
        continue;
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
      const Expr *Inc =
          F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
      const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      std::optional<std::int64_t> Lo =
          VD->getInit() ? foldSigned(VD->getInit(), Ctx) : std::nullopt;
      if (!Cond || varOf(Cond->getLHS()) != VD || !Lo || !U ||
          !U->isIncrementOp() || varOf(U->getSubExpr()) != VD)
        return std::nullopt;
      std::optional<std::int64_t> Hi = foldSigned(Cond->getRHS(), Ctx);
      if (!Hi || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
        return std::nullopt;
      return bounded(*Lo, Cond->getOpcode() == BO_LT ? *Hi - 1 : *Hi);
    }
    return std::nullopt;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<IntRange> L = Sub(B->getLHS());
  std::optional<std::int64_t> C = foldSigned(B->getRHS(), Ctx);
  auto Bits = [](std::int64_t V) {
    std::int64_t P = 1;
    while (P <= V)
      P <<= 1;
    return P - 1;
  };
  switch (B->getOpcode()) {
  case BO_Rem:
    if (L && L->first >= 0 && C && *C > 0)
      return bounded(0, std::min(L->second, *C - 1));
    return std::nullopt;
  case BO_Div:
    if (L && L->first >= 0 && C && *C > 0)
      return bounded(L->first / *C, L->second / *C);
    return std::nullopt;
  case BO_Shr:
    if (L && L->first >= 0 && C && *C >= 0 && *C < 40)
      return bounded(L->first >> *C, L->second >> *C);
    return std::nullopt;
  case BO_Shl:
    if (L && L->first >= 0 && C && *C >= 0 && *C < 24)
      return bounded(L->first << *C, L->second << *C);
    return std::nullopt;
  default:
    break;
  }
  std::optional<IntRange> R = Sub(B->getRHS());
  if (!L || !R)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_Add:
    return bounded(L->first + R->first, L->second + R->second);
  case BO_Sub:
    return bounded(L->first - R->second, L->second - R->first);
  case BO_Mul:
    if (L->first < 0 || R->first < 0)
      return std::nullopt;
    return bounded(L->first * R->first, L->second * R->second);
  case BO_And:
    if (L->first < 0 || R->first < 0)
      return std::nullopt;
    return bounded(0, std::min(L->second, R->second));
  case BO_Or:
  case BO_Xor:
    if (L->first < 0 || R->first < 0)
      return std::nullopt;
    return bounded(0, Bits(std::max(L->second, R->second)));
  default:
    return std::nullopt;
  }
}
} // namespace

std::optional<IntRange> rangeOf(const Expr *E, const ASTContext &Ctx,
                                events::Substitution Subst,
                                llvm::ArrayRef<const ForStmt *> Fors,
                                const RangeGuards &G) {
  return rangeAt(E, Ctx, Subst, Fors, G, 0);
}

} // namespace clang::tidy::tma
