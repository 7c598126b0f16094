//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's thread guards: the thread condition under which a block's
// threads take a branch edge (if, loops, ?:, switch on a thread expression).
//
//===----------------------------------------------------------------------===//

#include "api/KernelModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::tma {
namespace kmodel {

std::optional<Cond> Builder::guardOf(const Expr *C) {
  auto Resolve = [this](const ParmVarDecl *P) -> const Expr * {
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
      if (const Expr *A = F->lookup(P))
        return A;
    return nullptr;
  };
  return Guards.condition(C, Resolve);
}

std::optional<Cond> Builder::branchGuard(const CFGBlock &D) {
  const Stmt *T = D.getTerminatorStmt();
  const auto *C = dyn_cast_or_null<Expr>(D.getTerminatorCondition());
  if (!C || D.succ_size() != 2 || isa<CXXForRangeStmt>(T) ||
      isa<BinaryConditionalOperator>(T))
    return std::nullopt;
  if (const auto *If = dyn_cast<IfStmt>(T); If && If->getConditionVariable())
    return std::nullopt;
  if (!isa<IfStmt, ForStmt, WhileStmt, DoStmt, ConditionalOperator,
           BinaryOperator>(T))
    return std::nullopt;
  return guardOf(C);
}

std::optional<std::pair<Cond, bool>> Builder::edgeGuard(const CFGBlock &D,
                                                        int Edge) {
  const auto *Switch = dyn_cast_or_null<SwitchStmt>(D.getTerminatorStmt());
  if (!Switch) {
    std::optional<Cond> C = Edge <= 1 ? branchGuard(D) : std::nullopt;
    if (!C)
      return std::nullopt;
    return std::make_pair(std::move(*C), Edge == 0);
  }
  if (Switch->getConditionVariable() || Switch->getInit())
    return std::nullopt;
  std::optional<Cond> C = guardOf(Switch->getCond());
  if (!C)
    return std::nullopt;
  if (C->K == Cond::True)
    return std::make_pair(std::move(*C), true);
  // The thread expression of `f(t) != 0`, the integer condition itself.
  if (C->K != Cond::Atom || C->Op != ::tma::rules::threads::Cmp::NE ||
      C->Value != 0)
    return std::nullopt;
  const CFGBlock *Succ = (D.succ_begin() + Edge)->getReachableBlock();
  const auto *Case =
      Succ ? dyn_cast_or_null<CaseStmt>(Succ->getLabel()) : nullptr;
  if (!Case || Case->caseStmtIsGNURange())
    return std::nullopt;
  Expr::EvalResult V;
  if (Case->getLHS()->isValueDependent() ||
      !Case->getLHS()->EvaluateAsInt(V, Ctx))
    return std::nullopt;
  return std::make_pair(Cond::atom(C->Expr, ::tma::rules::threads::Cmp::EQ,
                                   V.Val.getInt().getSExtValue()),
                        true);
}

std::optional<std::pair<Cond, bool>>
Builder::shortCircuitGuard(const CFGBlock &D, const CFGBlock &B) {
  const auto *Logic = dyn_cast_or_null<BinaryOperator>(D.getTerminatorStmt());
  if (!Logic || !Logic->isLogicalOp())
    return std::nullopt;
  // Whether \p E is the condition \p Root or one of its logical operands.
  auto Within = [](const Expr *Root, const Expr *E) {
    llvm::SmallVector<const Expr *, 8> Work{Root};
    while (!Work.empty()) {
      const Expr *X = Work.pop_back_val()->IgnoreParens();
      if (X == E)
        return true;
      if (const auto *Op = dyn_cast<BinaryOperator>(X);
          Op && Op->isLogicalOp()) {
        Work.push_back(Op->getLHS());
        Work.push_back(Op->getRHS());
      }
    }
    return false;
  };
  // The `if` block: the predecessor of B whose terminator is an IfStmt on
  // a condition that holds D's operator.
  const IfStmt *If = nullptr;
  std::optional<bool> Holds;
  for (const CFGBlock::AdjacentBlock &P : B.preds()) {
    const CFGBlock *Pred = P.getReachableBlock();
    if (!Pred)
      return std::nullopt;
    const auto *PIf = dyn_cast_or_null<IfStmt>(Pred->getTerminatorStmt());
    if (!PIf)
      continue;
    if (If || PIf->getConditionVariable() || PIf->isConsteval() ||
        !Within(PIf->getCond(), Logic) || Pred->succ_size() != 2)
      return std::nullopt;
    If = PIf;
    const CFGBlock *Then = Pred->succ_begin()->getReachableBlock();
    const CFGBlock *Else = (Pred->succ_begin() + 1)->getReachableBlock();
    if (Then == &B && Else != &B)
      Holds = true;
    else if (Else == &B && Then != &B)
      Holds = false;
    else
      return std::nullopt;
  }
  if (!If || !Holds)
    return std::nullopt;
  // Every other way into B is a short-circuit jump of that condition.
  for (const CFGBlock::AdjacentBlock &P : B.preds()) {
    const CFGBlock *Pred = P.getReachableBlock();
    if (Pred->getTerminatorStmt() == If)
      continue;
    const auto *Op = dyn_cast_or_null<BinaryOperator>(Pred->getTerminatorStmt());
    if (!Op || !Op->isLogicalOp() || !Within(If->getCond(), Op))
      return std::nullopt;
  }
  std::optional<Cond> C = guardOf(If->getCond());
  if (!C)
    return std::nullopt;
  return std::make_pair(std::move(*C), *Holds);
}

} // namespace kmodel

} // namespace clang::tidy::tma
