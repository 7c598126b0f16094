//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/ParityExpr: a wait's parity operand
// read as a counter's lap (lapOf) or as a function of the barrier's member
// alone (memberOnly).
//
//===----------------------------------------------------------------------===//

#include "api/ParityExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

// Each call `wait(member, parity)` is one case, in order.
const char *const Code = R"cpp(
void wait(int member, int parity);
constexpr int S = 4;
void cases(int k, int s, int qidx, int t, int n) {
  wait(k % S, (k / S) & 1);            // 0: lap of S
  wait(k % S, (k / S + 1) & 1);        // 1: flipped
  wait(k % S, ((k + S) / S) % 2);      // 2: flipped
  wait(k % S, ((k + 2 * S) / S) % 2);  // 3: not flipped
  wait(k % S, (k + 1) % 2);            // 4: lap of 1, flipped
  wait(k % S, ((k + 1) / S) & 1);      // 5: an offset that is no lap
  wait(qidx, (qidx / 2) & 1);          // 6: the member's own
  wait(qidx, qidx & 1);                // 7: the member's own
  wait(k % S, ((k % S) >> 1) & 1);     // 8: the member's own
  wait(qidx, (qidx + t) & 1);          // 9: another variable
  const int m = k % S;
  wait(m, (k % S) & 1);                // 10: through the local
  wait(k % S, m & 1);                  // 11: through the local
  wait(qidx, (t = qidx) & 1);          // 12: a write
  wait(k % S, (k / S - 1) & 1);        // 13: a subtraction: not read
}
)cpp";

struct Cases {
  std::unique_ptr<ASTUnit> AST;
  std::vector<const CallExpr *> Calls;
  Cases() {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"});
    auto Found = match(
        callExpr(callee(functionDecl(hasName("wait")))).bind("c"),
        AST->getASTContext());
    for (const BoundNodes &N : Found)
      Calls.push_back(N.getNodeAs<CallExpr>("c"));
    std::sort(Calls.begin(), Calls.end(),
              [&](const CallExpr *A, const CallExpr *B) {
                return AST->getSourceManager().isBeforeInTranslationUnit(
                    A->getBeginLoc(), B->getBeginLoc());
              });
  }
  std::optional<std::int64_t> fold(const Expr *E) const {
    Expr::EvalResult R;
    if (E && !E->isValueDependent() && E->getType()->isIntegerType() &&
        E->EvaluateAsInt(R, AST->getASTContext()))
      return R.Val.getInt().getSExtValue();
    return std::nullopt;
  }
  static const Expr *resolve(const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (V && V->getType().isConstQualified() && V->getInit())
      return V->getInit()->IgnoreParenCasts();
    return E->IgnoreParenCasts();
  }
  std::optional<parity::Lap> lap(unsigned I) const {
    const auto *B = dyn_cast<BinaryOperator>(
        Calls[I]->getArg(1)->IgnoreParenCasts());
    if (!B)
      return std::nullopt;
    return parity::lapOf(B->getLHS(),
                         [this](const Expr *E) { return fold(E); });
  }
  bool member(unsigned I) const {
    auto F = [this](const Expr *E) { return fold(E); };
    return parity::memberOnly(Calls[I]->getArg(1),
                              resolve(Calls[I]->getArg(0)), resolve, F);
  }
};

TEST(ParityExpr, LapOf) {
  Cases C;
  ASSERT_EQ(C.Calls.size(), 14u);
  struct Want {
    unsigned Call;
    std::uint64_t Period;
    bool Divided;
    unsigned Flip;
  };
  for (Want W : {Want{0, 4, true, 0}, Want{1, 4, true, 1},
                 Want{2, 4, true, 1}, Want{3, 4, true, 0},
                 Want{4, 1, false, 1}}) {
    std::optional<parity::Lap> L = C.lap(W.Call);
    ASSERT_TRUE(L) << W.Call;
    EXPECT_EQ(L->Period, W.Period) << W.Call;
    EXPECT_EQ(L->Divided, W.Divided) << W.Call;
    EXPECT_EQ(L->Flip, W.Flip) << W.Call;
    const auto *K = dyn_cast<DeclRefExpr>(L->Count);
    ASSERT_TRUE(K) << W.Call;
    EXPECT_EQ(K->getDecl()->getName(), "k");
  }
  EXPECT_FALSE(C.lap(5));
  EXPECT_FALSE(C.lap(13));
}

TEST(ParityExpr, MemberOnly) {
  Cases C;
  ASSERT_EQ(C.Calls.size(), 14u);
  for (unsigned I : {6u, 7u, 8u, 10u, 11u})
    EXPECT_TRUE(C.member(I)) << I;
  for (unsigned I : {0u, 1u, 4u, 9u, 12u})
    EXPECT_FALSE(C.member(I)) << I;
}

} // namespace
