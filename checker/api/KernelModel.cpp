//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The kernel model's queries: the bodies' CFGs and dominators, which
// functions reach a TMA op, loop bounds, silent helpers, the dynamic pool's
// privacy and the memoised kernel sequences. Its construction is in
// KernelModelBuilder.cpp; LocalAliases and sharedRoot in LocalAliases.cpp.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModel.h"
#include "api/KernelModelBuild.h"
#include "api/BarrierPhases.h"
#include "api/KernelEvents.h"
#include "api/MapAddress.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::tma {

using namespace kmodel;

using ::tma::rules::ordering::Event;
using ::tma::rules::ordering::EventKind;
using ::tma::rules::threads::Cond;
using ::tma::rules::threads::ThreadSet;

KernelModel::~KernelModel() = default;

/// The blocks reached from \p Start, in reverse post-order of a depth-first
/// walk that visits \p Next(B, I) for I below \p Count(B) (null: no edge).
template <typename CountFn, typename NextFn>
static std::vector<const CFGBlock *>
reversePostOrder(const CFGBlock &Start, unsigned NumIds, CountFn Count,
                 NextFn Next) {
  std::vector<const CFGBlock *> Order;
  std::vector<char> Seen(NumIds, 0);
  std::vector<std::pair<const CFGBlock *, unsigned>> Stack{{&Start, 0}};
  Seen[Start.getBlockID()] = 1;
  while (!Stack.empty()) {
    auto &[B, I] = Stack.back();
    if (I < Count(*B)) {
      const CFGBlock *S = Next(*B, I++);
      if (S && !Seen[S->getBlockID()]) {
        Seen[S->getBlockID()] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Order.push_back(B);
    Stack.pop_back();
  }
  std::reverse(Order.begin(), Order.end());
  return Order;
}

namespace {
/// Dominance among the reachable blocks of a CFG, as LLVM's dominator trees
/// over Clang's CFG answer it (edges to pruned successors left out), for a
/// fraction of their cost: immediate dominators by Cooper, Harvey and
/// Kennedy's iteration over the reverse post-order, post-dominators the
/// same way over the reversed edges from the exit. The post-dominators are
/// valid only when every reachable block reaches the exit, which is then
/// the one root of the post-dominator tree (LLVM's answers otherwise: a
/// loop that never ends).
class Dominance {
public:
  /// \p Order: the reachable blocks in reverse post-order, entry first.
  Dominance(const CFG &Cfg, llvm::ArrayRef<const CFGBlock *> Order)
      : Order(Order), Index(Cfg.getNumBlockIDs(), -1),
        PostIndex(Cfg.getNumBlockIDs(), -1) {
    for (std::size_t I = 0; I < Order.size(); ++I)
      Index[Order[I]->getBlockID()] = static_cast<int>(I);
    Idom = iterate(Order, Index, /*Reverse=*/false);
    // The reversed edges, from the exit: its reverse post-order.
    std::vector<const CFGBlock *> Post;
    if (Index[Cfg.getExit().getBlockID()] >= 0) {
      Post = reversePostOrder(
          Cfg.getExit(), Cfg.getNumBlockIDs(),
          [](const CFGBlock &B) { return B.pred_size(); },
          [&](const CFGBlock &B, unsigned I) -> const CFGBlock * {
            const CFGBlock *P = (B.pred_begin() + I)->getReachableBlock();
            return P && Index[P->getBlockID()] >= 0 ? P : nullptr;
          });
    }
    PostValid = Post.size() == Order.size();
    if (!PostValid)
      return;
    for (std::size_t I = 0; I < Post.size(); ++I)
      PostIndex[Post[I]->getBlockID()] = static_cast<int>(I);
    Ipdom = iterate(Post, PostIndex, /*Reverse=*/true);
  }

  bool postValid() const { return PostValid; }
  /// The immediate dominator of the reachable block \p B (null: the entry).
  const CFGBlock *idom(const CFGBlock *B) const {
    int I = Index[B->getBlockID()];
    return I > 0 ? Order[Idom[I]] : nullptr;
  }
  /// \p A dominates \p B; any block dominates one the entry does not reach.
  bool dominates(const CFGBlock *A, const CFGBlock *B) const {
    return above(Idom, Index[A->getBlockID()], Index[B->getBlockID()]);
  }
  /// \p A post-dominates \p B (both reachable; postValid()).
  bool postDominates(const CFGBlock *A, const CFGBlock *B) const {
    return above(Ipdom, PostIndex[A->getBlockID()],
                 PostIndex[B->getBlockID()]);
  }

private:
  /// The immediate dominators, by index of \p Blocks (a reverse
  /// post-order from its first block), over the predecessors (or, with
  /// \p Reverse, the successors) that lie in it.
  static std::vector<int> iterate(llvm::ArrayRef<const CFGBlock *> Blocks,
                                  const std::vector<int> &At, bool Reverse) {
    std::vector<int> Up(Blocks.size(), -1);
    if (Blocks.empty())
      return Up;
    Up[0] = 0;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (std::size_t I = 1; I < Blocks.size(); ++I) {
        int New = -1;
        auto Meet = [&](const CFGBlock *P) {
          int J = P ? At[P->getBlockID()] : -1;
          if (J < 0 || Up[J] < 0)
            return;
          if (New < 0) {
            New = J;
            return;
          }
          int A = J, B = New;
          while (A != B) {
            while (A > B)
              A = Up[A];
            while (B > A)
              B = Up[B];
          }
          New = A;
        };
        if (Reverse)
          for (const CFGBlock::AdjacentBlock &S : Blocks[I]->succs())
            Meet(S.getReachableBlock());
        else
          for (const CFGBlock::AdjacentBlock &P : Blocks[I]->preds())
            Meet(P.getReachableBlock());
        if (New != Up[I]) {
          Up[I] = New;
          Changed = true;
        }
      }
    }
    return Up;
  }
  /// \p A is \p B or above it in the tree \p Up (indices; a dominator's
  /// is smaller than its own).
  static bool above(const std::vector<int> &Up, int A, int B) {
    if (B < 0)
      return true;
    if (A < 0)
      return false;
    while (B > A)
      B = Up[B];
    return B == A;
  }

  llvm::ArrayRef<const CFGBlock *> Order;
  std::vector<int> Index, PostIndex;
  std::vector<int> Idom, Ipdom;
  bool PostValid = false;
};
} // namespace

/// Terminators the model does not follow: an indirect goto, asm goto, try.
static bool unsupported(const CFGBlock &B) {
  const Stmt *T = B.getTerminatorStmt();
  if (isa_and_nonnull<IndirectGotoStmt, CXXTryStmt>(T))
    return true;
  const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(T);
  return Asm && Asm->isAsmGoto();
}

const KernelModel::BodyGraph *KernelModel::graphOf(const FunctionDecl *Def) {
  auto [It, Inserted] = Graphs.try_emplace(Def);
  if (!Inserted)
    return It->second.get();
  Stmt *Body = Def->getBody();
  if (!Body)
    return nullptr;
  // One CFG per body for the model and mayRun: the folder's, every
  // expression that Builder::element reads an element in evaluation order.
  auto G = std::make_shared<BodyGraph>();
  G->Graph = Folder->cfgOf(Def);
  if (!G->Graph)
    return nullptr;
  // The dominator trees only read the graph.
  CFG &Cfg = const_cast<CFG &>(*G->Graph);
  // Reverse post-order over the reachable edges.
  G->Order = reversePostOrder(
      Cfg.getEntry(), Cfg.getNumBlockIDs(),
      [](const CFGBlock &B) { return B.succ_size(); },
      // The last successor first, so that the first comes first in the
      // reverse post-order (then before else, a loop's body before its
      // exit).
      [](const CFGBlock &B, unsigned I) -> const CFGBlock * {
        return *(B.succ_begin() + (B.succ_size() - 1 - I));
      });
  for (const CFGBlock *B : G->Order)
    if (unsupported(*B))
      return nullptr;
  G->Blocks.resize(Cfg.getNumBlockIDs());
  // A chain of blocks (no branch, no join: most small helpers) needs no
  // dominator trees: each block's immediate dominator is its predecessor,
  // which it post-dominates.
  const bool Chain = llvm::all_of(G->Order, [](const CFGBlock *B) {
    return B->succ_size() <= 1 && B->pred_size() <= 1;
  });
  std::optional<Dominance> Dom;
  std::optional<CFGPostDomTree> PostDom;
  if (!Chain) {
    Dom.emplace(Cfg, G->Order);
    if (!Dom->postValid())
      PostDom.emplace(&Cfg);
  }
  const Stmt *LastStmt = nullptr;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body); CS && !CS->body_empty())
    LastStmt = CS->body_back();
  for (const CFGBlock *B : G->Order) {
    BodyGraph::Info &I = G->Blocks[B->getBlockID()];
    for (const CFGBlock::AdjacentBlock &S : B->succs())
      if (S.getReachableBlock() == &Cfg.getExit()) {
        // A return that is not the last statement, or no return at all
        // (falling off the end, or a call that does not return).
        const Stmt *Last = nullptr;
        for (auto E = B->rbegin(); E != B->rend() && !Last; ++E)
          if (auto CS = E->getAs<CFGStmt>())
            Last = CS->getStmt();
        if (const auto *R = dyn_cast_or_null<ReturnStmt>(Last))
          I.EarlyExit = R != LastStmt;
        else
          I.EarlyExit = B->hasNoReturnElement();
      }
    if (B == &Cfg.getEntry())
      continue;
    if (Chain) {
      const CFGBlock *D =
          B->pred_empty() ? nullptr : B->pred_begin()->getReachableBlock();
      if (!D)
        continue;
      I.Idom = D;
      I.Joins = true;
      continue;
    }
    const CFGBlock *D = Dom->idom(B);
    if (!D)
      continue;
    I.Idom = D;
    I.Joins = PostDom ? PostDom->dominates(B, D) : Dom->postDominates(B, D);
    if (I.Joins)
      continue;
    unsigned Index = 0;
    for (const CFGBlock::AdjacentBlock &S : D->succs()) {
      const CFGBlock *Succ = S.getReachableBlock();
      unsigned Which = Index++;
      if (!Succ || !Dom->dominates(Succ, B))
        continue;
      // The edge dominates B when it is the only way into Succ from
      // outside what Succ dominates.
      bool Only = true;
      unsigned FromD = 0;
      for (const CFGBlock::AdjacentBlock &P : Succ->preds()) {
        const CFGBlock *Pred = P.getReachableBlock();
        if (!Pred)
          continue;
        if (Pred == D)
          ++FromD;
        else if (!Dom->dominates(Succ, Pred))
          Only = false;
      }
      if (Only && FromD == 1)
        I.Edge = static_cast<int>(Which);
    }
  }
  It->second = std::move(G);
  return It->second.get();
}

namespace {


/// Adds what op \p Op gives a model (Builder::opEvent) to \p R.
void addReach(const DeviceOp &Op, KernelModel::Reach &R) {
  using device::OpKind;
  switch (kindOf(Op)) {
  case OpKind::Fence:
    return;
  case OpKind::BulkCopy: {
    const auto &B = std::get<BulkCopy>(Op);
    if (B.Direction == device::BulkDirection::SharedToGlobal ||
        B.Direction == device::BulkDirection::SharedToCluster)
      R.Threads = true;
    break;
  }
  case OpKind::TensorCopy: {
    const auto &T = std::get<TensorCopy>(Op);
    if (T.Direction == device::TensorDirection::Store ||
        T.Direction == device::TensorDirection::Reduce)
      R.Threads = true;
    break;
  }
  case OpKind::BarrierInit:
    R.Threads = true;
    break;
  default:
    break;
  }
  R.Tma = true;
}

bool hasTmaOp(const KernelSequence &K) {
  for (const KernelEvent &E : K.Events)
    if (E.Op && kindOf(*E.Op) != device::OpKind::Fence)
      return true;
  return false;
}

} // namespace

std::shared_ptr<KernelModel> KernelModel::forTranslationUnit(ASTContext &Ctx) {
  // Per thread, like the finder and the folder (clangd checks several files
  // at once).
  thread_local std::weak_ptr<KernelModel> Last;
  thread_local const ASTContext *LastCtx = nullptr;
  if (auto Shared = Last.lock(); Shared && LastCtx == &Ctx)
    return Shared;
  auto Model = std::make_shared<KernelModel>(
      Ctx, DeviceOpsFinder::forTranslationUnit(Ctx));
  Last = Model;
  LastCtx = &Ctx;
  return Model;
}

KernelModel::Reach KernelModel::reachOf(
    const FunctionDecl *Def, unsigned Depth,
    llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> &Walked,
    bool &Partial) {
  if (auto It = Reaches.find({Def, Depth}); It != Reaches.end())
    return It->second;
  if (!Walked.insert({Def, Depth}).second) {
    Partial = true; // on the stack, or walked for this kernel already
    return {};
  }
  Reach R;
  bool Mine = false;
  // A body the model walks calls helpers one level down (Builder::callee:
  // none past MaxDepth); the ops of its own calls and asm count at any
  // level it reaches.
  auto Callee = [&](const FunctionDecl *FD) {
    const FunctionDecl *D = nullptr;
    if (Depth > MaxDepth || !FD || !FD->hasBody(D) || !D)
      return;
    Reach C = reachOf(D, Depth + 1, Walked, Mine);
    R.Tma |= C.Tma;
    R.Threads |= C.Threads;
  };
  // Every statement the CFG may hold: the finder's list of the body's asm
  // statements, calls and lambdas (one walk per body, shared with the
  // checks and mayIssueOps), the constructions, and the expressions of
  // default arguments, opaque values and lambda bodies, read as bodies of
  // their own.
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty() && !(R.Tma && R.Threads)) {
    const Stmt *Root = Work.back();
    Work.pop_back();
    if (!Root)
      continue;
    for (const DeviceOpsFinder::OpStmt &OS : Finder->opStmtsOf(Root)) {
      if (R.Tma && R.Threads)
        break;
      const Stmt *S = OS.S;
      if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        for (const DeviceOp &Op : Finder->opsOf(*Asm))
          addReach(Op, R);
      } else if (const auto *C = dyn_cast<CallExpr>(S)) {
        if (std::optional<DeviceOp> Op = Finder->opOf(*C))
          addReach(*Op, R);
        else
          Callee(C->getDirectCallee());
      } else if (const auto *L = dyn_cast<LambdaExpr>(S)) {
        for (const Expr *Init : L->capture_inits())
          Work.push_back(Init);
        Work.push_back(L->getBody());
      }
    }
    const DeviceOpsFinder::BodyExtras &X = Finder->extrasOf(Root);
    for (const CXXConstructExpr *C : X.Constructs)
      Callee(C->getConstructor());
    for (const Expr *E : X.Hidden)
      Work.push_back(E);
  }
  if (!Mine || (R.Tma && R.Threads))
    Reaches[{Def, Depth}] = R;
  Partial |= Mine;
  return R;
}

/// Whether \p E (an integer) folds to \p V.
static bool foldsTo(const Expr *E, std::int64_t V, const ASTContext &Ctx) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
         R.Val.getInt().getSignificantBits() <= 64 &&
         R.Val.getInt().getExtValue() == V;
}

/// Whether \p E names \p V.
static bool names(const Expr *E, const VarDecl *V) {
  const auto *D = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return D && D->getDecl() == V;
}

std::uint64_t KernelModel::loopBound(const Expr *Index) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *FD =
      V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod())
        : nullptr;
  if (!FD || !FD->getBody() || !V->isLocalVarDecl())
    return 0;
  const ParentMap &PM = Folder->parentsOf(FD);
  const Stmt *DS = PM.getParent(Ref);
  // The `for` whose init declares V: up from the reference.
  for (; DS; DS = PM.getParent(DS))
    if (const auto *F = dyn_cast<ForStmt>(DS))
      if (const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
          Init && Init->isSingleDecl() && Init->getSingleDecl() == V) {
        const auto *C = dyn_cast_or_null<BinaryOperator>(
            F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
        Expr::EvalResult R;
        if (!C || !names(C->getLHS(), V) || C->getRHS()->isValueDependent() ||
            !C->getRHS()->EvaluateAsInt(R, Ctx) ||
            R.Val.getInt().getSignificantBits() > 32)
          return 0;
        std::int64_t N = R.Val.getInt().getExtValue();
        if (C->getOpcode() == BO_LE)
          ++N;
        else if (C->getOpcode() != BO_LT && C->getOpcode() != BO_NE)
          return 0;
        return N > 0 ? static_cast<std::uint64_t>(N) : 0;
      }
  return 0;
}

/// Whether \p E has the same value on every pass of a loop around it: it
/// reads only locals never written after their initialisation, parameters,
/// constants and the thread's ids, and calls nothing else.
bool KernelModel::passInvariant(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    // threadIdx.x's accessor.
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getIdentifier() ||
        !FD->getName().starts_with("__fetch_builtin_"))
      return false;
  }
  if (isa<CXXThisExpr>(S))
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      if (VD->hasLocalStorage() && !Folder->isNeverWritten(VD))
        return false;
  for (const Stmt *C : S->children())
    if (!passInvariant(C))
      return false;
  return true;
}

namespace {
/// Whether \p Arg is an argument of \p C bound to a `const T &` parameter
/// of scalar T (an accessor object's `operator[](const uint32_t &i)`): a
/// read of it.
bool constRefArgument(const CallExpr *C, const Expr *Arg) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  unsigned Shift = isa<CXXOperatorCallExpr>(C) && MD && !MD->isStatic() ? 1 : 0;
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    if (C->getArg(I)->IgnoreParens() != Arg)
      continue;
    if (I - Shift >= FD->getNumParams())
      return false;
    const ParmVarDecl &P = *FD->getParamDecl(I - Shift);
    return P.getType()->isReferenceType() && events::valueLike(P);
  }
  return false;
}
} // namespace

bool KernelModel::everyMember(const Expr *Index, std::uint64_t Members) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || Members == 0 || Members > (1u << 20) ||
      !V->getType()->isIntegerType() || !V->hasLocalStorage())
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  const ParentMap &PM = Folder->parentsOf(FD);
  // Up from the index to the loop that declares it: nothing on the way may
  // run on some passes only.
  const ForStmt *Loop = nullptr;
  const Stmt *Prev = Ref;
  for (const Stmt *P = PM.getParent(Ref); P && !Loop;
       Prev = P, P = PM.getParent(P)) {
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      if (Prev != F->getBody() || !DS || !DS->isSingleDecl() ||
          DS->getSingleDecl() != V)
        return false;
      Loop = F;
    } else if (const auto *I = dyn_cast<IfStmt>(P);
               I && Prev != I->getCond() && !I->getInit() &&
               !I->getConditionVariable() && passInvariant(I->getCond())) {
      // A guard that every pass takes alike (`if (warp == 0 && lane)` in
      // CUTLASS's init loop): the threads it selects run every pass.
      continue;
    } else if (isa<IfStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
                   SwitchCase, ConditionalOperator, BinaryConditionalOperator,
                   LambdaExpr, CXXTryStmt, StmtExpr>(P)) {
      return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P);
               B && B->isLogicalOp() && Prev == B->getRHS()) {
      return false;
    }
  }
  if (!Loop || !foldsTo(V->getInit(), 0, Ctx))
    return false;
  // s < Members, s != Members, s <= Members - 1 (the bound may be CuTe's
  // `C<S>` converted to int: the folder's).
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      Loop->getCond() ? Loop->getCond()->IgnoreParenImpCasts() : nullptr);
  auto N = static_cast<std::int64_t>(Members);
  auto foldsTo = [&](const Expr *E, std::int64_t V, const ASTContext &Ctx) {
    if (::clang::tidy::tma::foldsTo(E, V, Ctx))
      return true;
    std::optional<FoldedInt> F =
        E && !E->isValueDependent() ? Folder->foldInt(E) : std::nullopt;
    return F && F->Value.getSignificantBits() <= 64 &&
           F->Value.getExtValue() == V;
  };
  if (!C || !names(C->getLHS(), V) ||
      !((C->getOpcode() == BO_LT || C->getOpcode() == BO_NE)
            ? foldsTo(C->getRHS(), N, Ctx)
            : C->getOpcode() == BO_LE && foldsTo(C->getRHS(), N - 1, Ctx)))
    return false;
  // ++s, s++, s += 1.
  const Expr *Inc = Loop->getInc() ? Loop->getInc()->IgnoreParenImpCasts()
                                   : nullptr;
  bool Steps = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    Steps = U->isIncrementOp() && names(U->getSubExpr(), V);
  else if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Steps = A->getOpcode() == BO_AddAssign && names(A->getLHS(), V) &&
            foldsTo(A->getRHS(), 1, Ctx);
  if (!Steps)
    return false;
  // The body only reads s and leaves no pass early.
  llvm::SmallVector<const Stmt *, 32> Work{Loop->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
            CXXThrowExpr>(S))
      return false;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V) {
      const Stmt *P = PM.getParentIgnoreParens(D);
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      // `f(s)` binding s to a `const uint32_t &` (through a cast to const).
      const Expr *Arg = D;
      if (Cast && Cast->getCastKind() == CK_NoOp) {
        Arg = Cast;
        P = PM.getParentIgnoreParens(Cast);
      }
      if ((!Cast || Cast->getCastKind() != CK_LValueToRValue) &&
          !constRefArgument(dyn_cast_or_null<CallExpr>(P), Arg))
        return false;
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return true;
}

std::optional<unsigned>
KernelModel::descriptorParam(const FunctionDecl *Def) {
  auto [It, Inserted] = DescParams.try_emplace(Def);
  if (!Inserted)
    return It->second;
  QualType Ret = Def->getReturnType();
  if (!Def->getBody() || Ret->isIncompleteType() ||
      Ret->isDependentType() ||
      !(Ret->isIntegerType() || Ret->isRecordType()) ||
      Ctx.getTypeSize(Ret) != 64)
    return std::nullopt;
  std::optional<unsigned> Found;
  bool Ambiguous = false;
  llvm::SmallVector<const Stmt *, 32> Work{Def->getBody()};
  while (!Work.empty() && !Ambiguous) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (const Expr *Arg = Finder->addressHelperArgument(*C)) {
        const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
        const auto *P =
            Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
        if (!P || P->getDeclContext() != Def ||
            !P->getType()->isPointerType() ||
            (Found && *Found != P->getFunctionScopeIndex()))
          Ambiguous = true;
        else
          Found = P->getFunctionScopeIndex();
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  if (Ambiguous)
    Found.reset();
  return DescParams[Def] = Found;
}

/// The return expression of \p Def when its body is declarations and then
/// one return; null otherwise.
static const Expr *onlyReturn(const FunctionDecl &Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def.getBody());
  if (!Body || Body->body_empty())
    return nullptr;
  for (const Stmt *S : Body->body())
    if (S != Body->body_back() && !isa<DeclStmt>(S))
      return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  return Ret ? Ret->getRetValue() : nullptr;
}

std::optional<unsigned>
KernelModel::descriptorAddressParam(const FunctionDecl *Def) {
  auto [It, Inserted] = AddrParams.try_emplace(Def);
  if (!Inserted)
    return It->second; // memoised, or a recursion (none yet)
  QualType Ret = Def->getReturnType();
  const Expr *Value = onlyReturn(*Def);
  if (!Value || Ret->isDependentType() || !Ret->isIntegerType() ||
      Ctx.getTypeSize(Ret) != 64)
    return std::nullopt;
  std::optional<unsigned> Found;
  bool Ambiguous = false;
  llvm::SmallVector<const Expr *, 8> Work{Value};
  while (!Work.empty() && !Ambiguous) {
    const Expr *E = Work.pop_back_val()->IgnoreParenCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      switch (B->getOpcode()) {
      case BO_Or:
      case BO_Add:
        Work.push_back(B->getLHS());
        Work.push_back(B->getRHS());
        break;
      case BO_Shr:
      case BO_And:
        if (B->getRHS()->isIntegerConstantExpr(Ctx))
          Work.push_back(B->getLHS());
        break;
      default:
        break; // `<<`: a value moved into another field
      }
      continue;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      const FunctionDecl *Callee = nullptr;
      if (FD && !isa<CXXMethodDecl>(FD) && FD->hasBody(Callee) && Callee)
        if (std::optional<unsigned> I = descriptorAddressParam(Callee);
            I && *I < C->getNumArgs())
          Work.push_back(C->getArg(*I));
      continue;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
      if (!P || P->getDeclContext() != Def || !P->getType()->isIntegerType())
        continue;
      if (Found && *Found != P->getFunctionScopeIndex())
        Ambiguous = true;
      else
        Found = P->getFunctionScopeIndex();
    }
  }
  if (Ambiguous)
    Found.reset();
  return AddrParams[Def] = Found;
}

bool KernelModel::showsNothing(const FunctionDecl *Def, unsigned Depth) {
  Chain Scan;
  bool Partial = false;
  return silent(Def, Depth, Scan, Partial);
}

bool KernelModel::silentCallee(const FunctionDecl *FD, unsigned Depth,
                               Chain &Scan, bool &Partial) {
  // Builder::callee's order: named events, builtins, body-less functions,
  // the inlining depth and recursion, then the body.
  if (FD->getIdentifier() &&
      (isCommitName(FD->getName()) || isWaitGroupName(FD->getName())) &&
      !events::groupBodyDecides(*FD))
    return false;
  if (events::ordersNothing(*FD))
    return true;
  if (unsigned ID = FD->getBuiltinID())
    return events::builtinRole(Ctx.BuiltinInfo.getName(ID)) ==
           events::IntrinsicRole::None;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return events::bodylessRole(*FD) == events::IntrinsicRole::None;
  if (Depth > MaxSilentDepth)
    return false;
  if (llvm::is_contained(Scan, Def)) {
    Partial = true; // a recursion: opaque where the model meets it
    return false;
  }
  return silent(Def, Depth + 1, Scan, Partial);
}

static bool capturesNoMemory(const CXXRecordDecl &RD, unsigned Depth);

/// Whether a value of type \p T holds no pointer or reference: numbers,
/// enums, and records and arrays of them (CuTe's shapes, strides and
/// layouts: tuples of integers and Int<N>), lambdas capturing such.
static bool holdsNoPointer(QualType T, unsigned Depth) {
  if (Depth > 8)
    return false;
  T = T.getCanonicalType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  if (const auto *A = dyn_cast<ConstantArrayType>(T.getTypePtr()))
    return holdsNoPointer(A->getElementType(), Depth + 1);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isUnion())
    return false;
  RD = RD->getDefinition();
  if (RD->isLambda())
    return capturesNoMemory(*RD, Depth + 1);
  for (const CXXBaseSpecifier &B : RD->bases())
    if (B.isVirtual() || !holdsNoPointer(B.getType(), Depth + 1))
      return false;
  for (const FieldDecl *F : RD->fields())
    if (!holdsNoPointer(F->getType(), Depth + 1))
      return false;
  return true;
}

/// Whether the lambda \p RD captures nothing that may reach memory: no
/// capture, or only variables whose values hold no pointer (numbers, CuTe
/// layouts, such lambdas), by value or by reference (CuTe's algebra passes
/// `[](auto const&... a)` and `[&]` lambdas around). Such a body names no
/// variable of the function around it that a caller's argument would have
/// to bind.
static bool capturesNoMemory(const CXXRecordDecl &RD, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const LambdaCapture &C : RD.captures()) {
    if (!C.capturesVariable())
      return false; // `this`, a VLA's size
    const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
    if (!V || V->hasAttr<CUDASharedAttr>() ||
        !holdsNoPointer(V->getType().getNonReferenceType(), Depth + 1))
      return false;
  }
  return true;
}

bool KernelModel::silent(const FunctionDecl *Def, unsigned Depth, Chain &Scan,
                         bool &Partial) {
  if (auto It = Silent.find({Def, Depth}); It != Silent.end())
    return It->second;
  // A lambda's body names the variables of the function around it, which
  // its call's arguments do not bind, unless it captures none that may
  // reach memory.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda() &&
      !capturesNoMemory(*MD->getParent()))
    return Silent[{Def, Depth}] = false;
  Scan.push_back(Def);
  bool Mine = false, Quiet = true;
  // What Builder::element may meet: the finder's list of the body's asm
  // statements, calls and lambdas, its constructions, and the expressions
  // of default arguments and opaque values, read as bodies of their own
  // (a superset of the CFG's elements, as for reachOf).
  std::vector<const Stmt *> Work{Def->getBody()};
  while (Quiet && !Work.empty()) {
    const Stmt *Root = Work.back();
    Work.pop_back();
    if (!Root)
      continue;
    const DeviceOpsFinder::BodyExtras &X = Finder->extrasOf(Root);
    // A generic access to a buffer needs a `__shared__` variable named in
    // the body (or a bound parameter, which the caller rules out).
    if (X.NamesShared || X.Irregular) {
      Quiet = false;
      break;
    }
    for (const DeviceOpsFinder::OpStmt &OS : Finder->opStmtsOf(Root)) {
      if (const auto *Asm = dyn_cast<GCCAsmStmt>(OS.S)) {
        const auto *Text =
            dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
        Quiet = !Asm->isAsmGoto() && Text && Finder->opsOf(*Asm).empty() &&
                events::asmLines(Text->getString()).empty();
      } else if (const auto *C = dyn_cast<CallExpr>(OS.S)) {
        // Builder::call: ops, calls through pointers, the library calls
        // it reads by name, then the callee.
        const FunctionDecl *FD = C->getDirectCallee();
        const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
        Quiet = FD && !Finder->opOf(*C) &&
                !(FD->getIdentifier() && isMapWriteName(FD->getName())) &&
                !(MD && (events::barrierMember(*MD).Arrives ||
                         events::barrierMember(*MD).Waits)) &&
                !events::libcudacxxInitBarrier(*FD, *C) &&
                silentCallee(FD, Depth, Scan, Mine);
      } else {
        // A lambda: its body runs where it is called (judged there); its
        // captures' initialisers run here.
        const auto *L = cast<LambdaExpr>(OS.S);
        Quiet = capturesNoMemory(*L->getLambdaClass());
        if (Quiet)
          for (const Expr *Init : L->capture_inits())
            Work.push_back(Init);
      }
      if (!Quiet)
        break;
    }
    for (const CXXConstructExpr *C : X.Constructs) {
      if (!Quiet)
        break;
      const CXXConstructorDecl *Ctor = C->getConstructor();
      if (Ctor && !Ctor->isTrivial())
        Quiet = silentCallee(Ctor, Depth, Scan, Mine);
    }
    for (const Expr *E : X.Hidden)
      Work.push_back(E);
  }
  Scan.pop_back();
  if (!Mine)
    Silent[{Def, Depth}] = Quiet;
  Partial |= Mine;
  return Quiet;
}

namespace {
/// Whether \p Fn is the call operator of a lambda written in \p Kernel's
/// body (or in a lambda there): its references to the pool are the
/// kernel's own, walked where the lambda is called.
bool lambdaOf(const FunctionDecl *Fn, const FunctionDecl *Kernel) {
  for (unsigned Depth = 0; Fn && Depth < 8; ++Depth) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
    if (!MD || !MD->getParent()->isLambda())
      return false;
    Fn = dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext());
    if (Fn == Kernel)
      return true;
  }
  return false;
}
} // namespace

bool KernelModel::poolPrivate(const FunctionDecl *Kernel, std::string *Why) {
  auto [It, Inserted] = PoolNamers.try_emplace(Kernel);
  if (Inserted) {
    // One walk over the functions the kernel may call (linear in them):
    // the finder's lists of each body, as reachOf reads them.
    std::string &Namer = It->second;
    llvm::DenseSet<const FunctionDecl *> Seen{Kernel};
    std::vector<std::pair<const Stmt *, const FunctionDecl *>> Work{
        {Kernel->getBody(), Kernel}};
    auto Callee = [&](const FunctionDecl *FD) {
      const FunctionDecl *D = nullptr;
      if (FD && FD->hasBody(D) && D && Seen.insert(D).second)
        Work.push_back({D->getBody(), D});
    };
    while (Namer.empty() && !Work.empty()) {
      auto [Root, Fn] = Work.back();
      Work.pop_back();
      if (!Root)
        continue;
      const DeviceOpsFinder::BodyExtras &X = Finder->extrasOf(Root);
      if (X.NamesPool && Fn != Kernel && !lambdaOf(Fn, Kernel)) {
        Namer = (Fn ? "'" + Fn->getNameAsString() + "'"
                    : std::string("a default argument")) +
                ", which the kernel may run, names an extern __shared__ "
                "variable (the same pool)";
        break;
      }
      for (const DeviceOpsFinder::OpStmt &OS : Finder->opStmtsOf(Root)) {
        if (const auto *C = dyn_cast<CallExpr>(OS.S)) {
          // A generic lambda's pattern: its instantiations are called.
          if (C->isInstantiationDependent())
            continue;
          // A function passed by address (`explode(&Op::fma, ...)`) may
          // be called through the parameter that receives it.
          for (const Expr *A : C->arguments()) {
            const Expr *X = A->IgnoreParenImpCasts();
            if (const auto *U = dyn_cast<UnaryOperator>(X);
                U && U->getOpcode() == UO_AddrOf)
              X = U->getSubExpr()->IgnoreParenImpCasts();
            if (const auto *D = dyn_cast<DeclRefExpr>(X))
              Callee(dyn_cast<FunctionDecl>(D->getDecl()));
          }
          const FunctionDecl *FD = C->getDirectCallee();
          const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
          // Through a parameter, the pointer is one of those arguments.
          const auto *Through = dyn_cast<DeclRefExpr>(
              C->getCallee()->IgnoreParenImpCasts());
          if (!FD && Through && isa<ParmVarDecl>(Through->getDecl()))
            continue;
          if (!FD || (MD && MD->isVirtual())) {
            Namer = "a call through a pointer may reach code that names "
                    "the pool";
            break;
          }
          Callee(FD);
        } else if (const auto *L = dyn_cast<LambdaExpr>(OS.S)) {
          for (const Expr *Init : L->capture_inits())
            Work.push_back({Init, Fn});
          Work.push_back({L->getBody(), Fn});
        }
      }
      for (const CXXConstructExpr *C : X.Constructs)
        Callee(C->getConstructor());
      for (const Expr *E : X.Hidden)
        Work.push_back({E, nullptr});
    }
  }
  if (Why)
    *Why = It->second;
  return It->second.empty();
}

const KernelSequence *KernelModel::sequenceOf(const FunctionDecl *Kernel) {
  auto [It, Inserted] = Memo.try_emplace(Kernel);
  if (!Inserted)
    return It->second.get();
  if (!Kernel->hasBody() || Kernel->isDependentContext())
    return nullptr;
  // No op that the sequence needs within the model's reach: it would be
  // built and dropped (hasTmaOp). Without a copy reading shared memory no
  // rule reads the events' thread sets, and the guards are not read.
  llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> Walked;
  bool Partial = false;
  Reach R = reachOf(Kernel, 1, Walked, Partial);
  if (!R.Tma)
    return nullptr;
  auto K = std::make_unique<KernelSequence>();
  if (!buildSequence(Ctx, *this, *Finder, *K, QuietHelpers, Aliases, Guards,
                     Slices, R.Threads, Kernel) ||
      !hasTmaOp(*K))
    return nullptr;
  for (std::size_t I = 0; I < K->Seq.size(); ++I) {
    const auto &E = K->Seq[I];
    if (E.Kind == ::tma::rules::ordering::EventKind::BarrierWait &&
        E.Parity == ::tma::rules::ordering::ParityForm::Ring) {
      K->UnseenArrives = Unseen.of(Kernel);
      break;
    }
  }
  for (std::size_t I = 0; I < K->Seq.size() && !K->UnseenArrives; ++I)
    K->UnseenArrives = K->Seq[I].Kind ==
                           ::tma::rules::ordering::EventKind::Opaque &&
                       !K->Events[I].NoInit;
  It->second = std::move(K);
  return It->second.get();
}

} // namespace clang::tidy::tma
