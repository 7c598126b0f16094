//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Feasible contexts (tma-rules.md §11.C): whether a statement can run under
// a call-site context. A guard whose condition folds under the context
// (`if (n == 0) return;` with n bound to 0, `if (...) throw`, a failing
// assert) may leave the function before the statement on every path; the
// context is then infeasible there and reports nothing.
//
// Reachability over Clang's CFG of the body: an edge of a two-way branch is
// cut when its condition folds to the other side. One CFG per body, one
// reachable set per body and context.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"

namespace clang::tidy::tma {

struct ConstantFolder::BodyGraph {
  std::unique_ptr<CFG> Graph;
  std::unique_ptr<CFGStmtMap> Blocks;
};

/// Whether \p B stops the thread or the program where the CFG does not know
/// it: CUDA's __trap() and inline PTX `trap;` / `exit;`.
static bool stops(const CFGBlock &B) {
  for (const CFGElement &E : B) {
    auto S = E.getAs<CFGStmt>();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S->getStmt())) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == "__trap")
        return true;
    } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S->getStmt())) {
      std::string Code = Asm->getAsmString();
      StringRef Text = StringRef(Code).trim();
      if (Text.starts_with("trap;") || Text.starts_with("exit;"))
        return true;
    }
  }
  return false;
}

/// The condition of \p B's two-way branch that the folder may decide: ifs,
/// loops, `?:` and `&&`/`||`; null for any other terminator.
static const Expr *branchCondition(const CFGBlock &B) {
  const Stmt *T = B.getTerminatorStmt();
  if (!T || B.succ_size() != 2)
    return nullptr;
  if (!isa<IfStmt, WhileStmt, ForStmt, DoStmt, AbstractConditionalOperator,
           BinaryOperator>(T))
    return nullptr;
  const auto *Cond = dyn_cast_or_null<Expr>(B.getTerminatorCondition());
  if (!Cond || !Cond->getType()->isIntegralOrEnumerationType())
    return nullptr;
  return Cond;
}

const ConstantFolder::BodyGraph *
ConstantFolder::graphOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = F ? F->getBody(Def) : nullptr;
  if (!Body)
    return nullptr;
  auto &G = Graphs[Def];
  if (!G) {
    G = std::make_shared<BodyGraph>();
    CFG::BuildOptions Opts;
    G->Graph = CFG::buildCFG(Def, const_cast<Stmt *>(Body), &Ctx, Opts);
    if (G->Graph)
      G->Blocks = std::make_unique<CFGStmtMap>(*G->Graph, parentsOf(Def));
  }
  return G->Graph ? G.get() : nullptr;
}

const llvm::BitVector &ConstantFolder::reachable(const BodyGraph &G,
                                                 const CallContext *Context) {
  auto [It, New] = Reachable.try_emplace({&G, Context});
  if (!New)
    return It->second;
  const CFG &Graph = *G.Graph;
  llvm::BitVector Seen(Graph.getNumBlockIDs());
  // Folding for feasibility must not spend the budget of the caller's
  // evaluation.
  unsigned SavedSteps = Steps;
  inContext(Context, [&] {
    llvm::SmallVector<const CFGBlock *, 32> Work{&Graph.getEntry()};
    Seen.set(Graph.getEntry().getBlockID());
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (stops(*B))
        continue;
      std::optional<bool> Taken;
      if (const Expr *Cond = branchCondition(*B)) {
        Steps = 0;
        if (auto V = foldInt(Cond))
          Taken = V->Value.getBoolValue();
      }
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        // Successor 0 runs when the condition holds, 1 when it does not.
        bool Cut = Taken && (*Taken ? Index == 1 : Index == 0);
        ++Index;
        const CFGBlock *Next = Succ.getReachableBlock();
        if (Cut || !Next || Seen.test(Next->getBlockID()))
          continue;
        Seen.set(Next->getBlockID());
        Work.push_back(Next);
      }
    }
    return 0;
  });
  Steps = SavedSteps;
  return It->second = std::move(Seen);
}

bool ConstantFolder::mayRun(const Stmt *Site, const FunctionDecl *F,
                            const CallContext *Context) {
  for (unsigned Depth = 0; Site && F && Depth < 16; ++Depth) {
    if (Context && Context->Callee->getCanonicalDecl() != F->getCanonicalDecl())
      return true; // not a context of F: nothing to decide
    if (const BodyGraph *G = graphOf(F)) {
      const CFGBlock *B = G->Blocks->getBlock(Site);
      if (B && !reachable(*G, Context).test(B->getBlockID()))
        return false;
    }
    if (!Context)
      return true;
    // The call that made this context must itself run in its caller.
    Site = Context->Call;
    F = enclosingFunction(Context->Call);
    Context = Context->Parent;
  }
  return true;
}

} // namespace clang::tidy::tma
