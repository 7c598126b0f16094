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
// cut when its condition folds to the other side. One CFG per body. A
// question about one statement folds only the conditions of blocks that can
// reach its block, nearest first, and stops at the block: most of a
// kernel's guards (the other role's branch, the code after the site) are
// never folded. What a search proves (blocks reached, blocks that cannot
// be, each condition's fold) is kept per body and context. A body asked
// about more than a few blocks gets one search of its whole graph instead:
// a distance map and a search per block would be quadratic in a kernel of
// many unrolled steps.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"

namespace clang::tidy::tma {

struct ConstantFolder::BodyGraph {
  /// cfgOf's.
  const CFG *Graph = nullptr;
  std::unique_ptr<CFGStmtMap> Blocks;
  /// What is known under one context, by block id.
  struct Under {
    /// Blocks reached from the entry over edges that are not cut.
    llvm::BitVector Reached;
    /// Blocks that no such path reaches.
    llvm::BitVector Unreached;
    /// The fold of each block's branch condition: NotFolded, Unknown, or
    /// the side it takes (0 or 1).
    std::vector<signed char> Taken;
    /// Targeted searches so far; past MaxSearches, one search from the
    /// entry over every uncut edge decides every block (Complete).
    unsigned Searches = 0;
    bool Complete = false;
  };
  /// A few questions are answered by searches towards their blocks (most
  /// guards are never folded); a body asked about many blocks (a kernel of
  /// N unrolled steps) gets one search of the whole graph instead of N
  /// distance maps and searches of N blocks each.
  static constexpr unsigned MaxSearches = 4;
  static constexpr signed char NotFolded = -2, Unknown = -1;
  mutable llvm::DenseMap<const CallContext *, Under> Contexts;
  /// Per target block, each block's distance to it over the CFG's edges
  /// (~0u: cannot reach it), built on first use.
  mutable llvm::DenseMap<unsigned, std::vector<unsigned>> Towards;
  /// The distance of each block to \p Target over the CFG's edges (both
  /// kinds: a superset of the paths that no fold cuts), ~0u for a block
  /// that cannot reach it.
  const std::vector<unsigned> &towards(unsigned Target) const;
  /// Whether each block stops the thread (stops()): -1 not yet asked.
  mutable std::vector<signed char> Stops;
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

/// Whether \p FD may not return where the CFG builder would end a block
/// (FunctionDecl::isNoReturn, isAnalyzerNoReturn, __builtin_assume(0)) or
/// where reachable() stops (__trap). One walk of the attributes, read from
/// \p Ctx: each hasAttr (Decl::getAttrs) of a declaration D contexts deep
/// costs D steps to find the TU's context.
static bool mayNotReturn(const FunctionDecl &FD, ASTContext &Ctx) {
  if (FD.getIdentifier() && FD.getName() == "__trap")
    return true;
  if (const auto *FT = FD.getType()->getAs<FunctionType>();
      !FT || FT->getNoReturnAttr())
    return true;
  if (!FD.hasAttrs())
    return false;
  return llvm::any_of(Ctx.getDeclAttrs(&FD), [](const Attr *A) {
    return isa<NoReturnAttr, CXX11NoReturnAttr, C11NoReturnAttr,
               InferredNoReturnAttr, AnalyzerNoReturnAttr, BuiltinAttr,
               BuiltinAliasAttr, ArmBuiltinAliasAttr>(A);
  });
}

/// Whether the call \p Call may not return (its callee, or the function
/// type it calls through).
static bool mayNotReturn(const CallExpr &Call, ASTContext &Ctx) {
  if (const FunctionDecl *FD = Call.getDirectCallee())
    return mayNotReturn(*FD, Ctx);
  QualType T = Call.getCallee()->getType();
  if (const auto *P = T->getAs<PointerType>())
    T = P->getPointeeType();
  else if (const auto *R = T->getAs<ReferenceType>())
    T = R->getPointeeType();
  const auto *FT = T->getAs<FunctionType>();
  return !FT || FT->getNoReturnAttr();
}

/// Whether every statement of \p Body runs when the function does: no
/// branch, loop, jump, label, throw, try or coroutine statement, no return
/// before the last statement, no call that may not return (CFG builder) and
/// no trap or exit asm (reachable()). The CFG of such a body is one chain
/// of blocks from the entry, so every site's block is reachable under every
/// context: mayRun needs no graph there. Anything else this scan does not
/// know (attributed statements, blocks, statement expressions) answers no.
/// Lambda bodies are not the body's statements (their captures are).
static bool bodyRunsStraight(const Stmt *Body, ASTContext &Ctx) {
  const auto *Top = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Top)
    return false;
  const Stmt *Last = Top->body_empty() ? nullptr : Top->body_back();
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (isa<AbstractConditionalOperator, ChooseExpr, CXXThrowExpr,
              CoroutineSuspendExpr, DependentCoawaitExpr, BlockExpr,
              StmtExpr>(E))
        return false;
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp())
        return false;
      if (const auto *Call = dyn_cast<CallExpr>(E);
          Call && mayNotReturn(*Call, Ctx))
        return false;
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
          Construct && mayNotReturn(*Construct->getConstructor(), Ctx))
        return false;
      if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
        Work.append(Lambda->capture_init_begin(), Lambda->capture_init_end());
        continue;
      }
      // Expressions that children() does not reach.
      if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(E))
        Work.push_back(Opaque->getSourceExpr());
      else if (const auto *Arg = dyn_cast<CXXDefaultArgExpr>(E))
        Work.push_back(Arg->getExpr());
      else if (const auto *Init = dyn_cast<CXXDefaultInitExpr>(E))
        Work.push_back(Init->getExpr());
    } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      std::string Code = Asm->getAsmString();
      StringRef Text = StringRef(Code).trim();
      if (Asm->isAsmGoto() || Text.starts_with("trap;") ||
          Text.starts_with("exit;"))
        return false;
    } else if (isa<ReturnStmt>(S)) {
      if (S != Last)
        return false;
    } else if (!isa<CompoundStmt, DeclStmt, NullStmt>(S)) {
      return false;
    }
    Work.append(S->child_begin(), S->child_end());
  }
  return true;
}

const CFG *ConstantFolder::cfgOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = F ? F->getBody(Def) : nullptr;
  if (!Body)
    return nullptr;
  auto [It, New] = Cfgs.try_emplace(Def);
  if (New) {
    CFG::BuildOptions Opts;
    // Every expression that the kernel model's Builder::element reads is
    // an element, in evaluation order (a call's arguments are elements
    // before it); the others (references, literals, subscripts: most of a
    // body, and all of a wgmma's 128 operands but their casts) are left
    // out of the blocks, which does not change them: mayRun's blocks and
    // their terminators are those of the default options.
    for (Stmt::StmtClass C :
         {Stmt::BinaryOperatorClass, Stmt::CompoundAssignOperatorClass,
          Stmt::UnaryOperatorClass, Stmt::ImplicitCastExprClass,
          Stmt::GCCAsmStmtClass, Stmt::MSAsmStmtClass, Stmt::CallExprClass,
          Stmt::CXXOperatorCallExprClass, Stmt::CXXMemberCallExprClass,
          Stmt::CUDAKernelCallExprClass, Stmt::UserDefinedLiteralClass,
          Stmt::CXXConstructExprClass, Stmt::CXXTemporaryObjectExprClass})
      Opts.setAlwaysAdd(C);
    It->second = CFG::buildCFG(Def, const_cast<Stmt *>(Body), &Ctx, Opts);
  }
  return It->second.get();
}

/// Null also for a body that runs straight (bodyRunsStraight): every site's
/// block would be reachable under every context, so mayRun has nothing to
/// decide there and builds no CFG (nor the parent map of CFGStmtMap).
const ConstantFolder::BodyGraph *
ConstantFolder::graphOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = F ? F->getBody(Def) : nullptr;
  if (!Body)
    return nullptr;
  auto &G = Graphs[Def];
  if (!G) {
    G = std::make_shared<BodyGraph>();
    if (bodyRunsStraight(Body, Ctx))
      return nullptr;
    G->Graph = cfgOf(Def);
    if (G->Graph)
      G->Blocks = std::make_unique<CFGStmtMap>(*G->Graph, parentsOf(Def));
  }
  return G->Graph ? G.get() : nullptr;
}

const std::vector<unsigned> &
ConstantFolder::BodyGraph::towards(unsigned Target) const {
  auto [It, New] = Towards.try_emplace(Target);
  if (!New)
    return It->second;
  const CFG &Graph = *this->Graph;
  std::vector<unsigned> Dist(Graph.getNumBlockIDs(), ~0u);
  llvm::SmallVector<const CFGBlock *, 32> Queue;
  for (const CFGBlock *B : Graph)
    if (B->getBlockID() == Target) {
      Queue.push_back(B);
      break;
    }
  if (!Queue.empty())
    Dist[Target] = 0;
  for (size_t I = 0; I < Queue.size(); ++I) {
    const CFGBlock *B = Queue[I];
    for (const CFGBlock::AdjacentBlock &P : B->preds())
      for (const CFGBlock *Pred :
           {P.getReachableBlock(), P.getPossiblyUnreachableBlock()})
        if (Pred && Dist[Pred->getBlockID()] == ~0u) {
          Dist[Pred->getBlockID()] = Dist[B->getBlockID()] + 1;
          Queue.push_back(Pred);
        }
  }
  return It->second = std::move(Dist);
}

signed char ConstantFolder::takenAt(std::vector<signed char> &Folds,
                                    const CFGBlock &B) {
  signed char &Taken = Folds[B.getBlockID()];
  if (Taken == BodyGraph::NotFolded) {
    Taken = BodyGraph::Unknown;
    if (const Expr *Cond = branchCondition(B)) {
      Steps = 0;
      if (auto V = foldInt(Cond))
        Taken = V->Value.getBoolValue() ? 1 : 0;
    }
  }
  return Taken;
}

void ConstantFolder::reachAll(const BodyGraph &G,
                              const CallContext *Context) {
  BodyGraph::Under &U = G.Contexts[Context];
  const CFG &Graph = *G.Graph;
  const unsigned N = Graph.getNumBlockIDs();
  // What the targeted searches do, towards every block at once: a block is
  // reached over an edge that no fold cuts from a reached block that does
  // not stop the thread.
  llvm::BitVector Seen(N);
  llvm::SmallVector<const CFGBlock *, 32> Work{&Graph.getEntry()};
  Seen.set(Graph.getEntry().getBlockID());
  unsigned SavedSteps = Steps;
  inContext(Context, [&] {
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      const unsigned Id = B->getBlockID();
      if (G.Stops[Id] < 0)
        G.Stops[Id] = stops(*B);
      if (G.Stops[Id])
        continue;
      const signed char Taken = takenAt(U.Taken, *B);
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        bool Cut = Taken >= 0 && (Taken ? Index == 1 : Index == 0);
        ++Index;
        const CFGBlock *To = Succ.getReachableBlock();
        if (Cut || !To || Seen.test(To->getBlockID()))
          continue;
        Seen.set(To->getBlockID());
        Work.push_back(To);
      }
    }
    return 0;
  });
  Steps = SavedSteps;
  BodyGraph::Under &Done = G.Contexts[Context];
  Done.Reached |= Seen;
  Done.Unreached = Seen;
  Done.Unreached.flip();
  Done.Complete = true;
}

bool ConstantFolder::reachable(const BodyGraph &G, const CallContext *Context,
                               unsigned Target) {
  const CFG &Graph = *G.Graph;
  const unsigned N = Graph.getNumBlockIDs();
  BodyGraph::Under &U = G.Contexts[Context];
  if (U.Taken.empty()) {
    U.Reached.resize(N);
    U.Unreached.resize(N);
    U.Taken.assign(N, BodyGraph::NotFolded);
    U.Reached.set(Graph.getEntry().getBlockID());
  }
  if (U.Reached.test(Target))
    return true;
  if (U.Unreached.test(Target) || U.Complete)
    return false;
  if (G.Stops.empty())
    G.Stops.assign(N, -1);
  if (++U.Searches > BodyGraph::MaxSearches) {
    reachAll(G, Context);
    return G.Contexts[Context].Reached.test(Target);
  }
  const std::vector<unsigned> &Dist = G.towards(Target);
  // Every path from the entry to Target runs through blocks that can reach
  // it: the search stays among those, and takes the nearest first.
  llvm::BitVector Seen(N);
  llvm::SmallVector<const CFGBlock *, 32> Work{&Graph.getEntry()};
  Seen.set(Graph.getEntry().getBlockID());
  bool Found = false;
  // Folding for feasibility must not spend the budget of the caller's
  // evaluation.
  unsigned SavedSteps = Steps;
  inContext(Context, [&] {
    llvm::SmallVector<const CFGBlock *, 2> Next;
    while (!Work.empty() && !Found) {
      const CFGBlock *B = Work.pop_back_val();
      const unsigned Id = B->getBlockID();
      if (Id == Target) {
        Found = true;
        break;
      }
      if (G.Stops[Id] < 0)
        G.Stops[Id] = stops(*B);
      if (G.Stops[Id])
        continue;
      const signed char Taken = takenAt(U.Taken, *B);
      Next.clear();
      unsigned Index = 0;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        // Successor 0 runs when the condition holds, 1 when it does not.
        bool Cut = Taken >= 0 && (Taken ? Index == 1 : Index == 0);
        ++Index;
        const CFGBlock *To = Succ.getReachableBlock();
        if (Cut || !To || Seen.test(To->getBlockID()) ||
            Dist[To->getBlockID()] == ~0u)
          continue;
        Seen.set(To->getBlockID());
        Next.push_back(To);
      }
      // The nearest successor last: it is taken first.
      llvm::sort(Next, [&](const CFGBlock *A, const CFGBlock *C) {
        return Dist[A->getBlockID()] > Dist[C->getBlockID()];
      });
      Work.append(Next.begin(), Next.end());
    }
    return 0;
  });
  Steps = SavedSteps;
  if (Found) {
    // Every block seen was entered over an edge that is not cut.
    U.Reached |= Seen;
    return true;
  }
  // A block that can reach Target and that some uncut path reaches lies
  // on an uncut path of blocks that can all reach Target: the search saw
  // it. Those it did not see are unreached.
  for (unsigned I = 0; I < N; ++I)
    if (Dist[I] != ~0u && !Seen.test(I))
      U.Unreached.set(I);
  return false;
}

bool ConstantFolder::mayRun(const Stmt *Site, const FunctionDecl *F,
                            const CallContext *Context) {
  for (unsigned Depth = 0; Site && F && Depth < 16; ++Depth) {
    if (Context && Context->Callee->getCanonicalDecl() != F->getCanonicalDecl())
      return true; // not a context of F: nothing to decide
    if (const BodyGraph *G = graphOf(F)) {
      const CFGBlock *B = G->Blocks->getBlock(Site);
      if (B && !reachable(*G, Context, B->getBlockID()))
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
