//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's stage indices (issue 24 item 4): which local integer of the
// kernel selects the member of the barrier a wait is on (Event::StageVar),
// and which of the locals a read's address is computed from a loop around
// the read moves on every pass (Event::StageSteps). With both, the rules
// tell a wait on `full[s]` before a loop that steps `s` from one that
// orders every pass's read: the loop reads another stage (or the same
// stage's next fill) each pass, and the wait covers one.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::tma {
namespace kmodel {

namespace {

const DeclRefExpr *refOf(const Expr *E) {
  return E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
}

bool names(const Expr *E, const VarDecl *V) {
  const DeclRefExpr *D = refOf(E);
  return D && D->getDecl() == V;
}

/// Whether \p S is the statement or expression \p Inner or holds it.
bool holds(const ParentMap &PM, const Stmt *S, const Stmt *Inner) {
  for (const Stmt *P = Inner; P; P = PM.getParent(P))
    if (P == S)
      return true;
  return false;
}

/// Whether a `continue` in \p Body may end a pass of its loop early (one in
/// a loop nested in it continues that loop).
bool continues(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isLoop(S) || isa<LambdaExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (continues(C))
      return true;
  return false;
}

} // namespace

int Builder::stageKey(const VarDecl *V) {
  auto It = llvm::find(StageKeys, V);
  if (It == StageKeys.end())
    It = StageKeys.insert(StageKeys.end(), V);
  return static_cast<int>(It - StageKeys.begin());
}

const VarDecl *Builder::stageVarOf(const Expr *E) {
  for (unsigned I = 0; E && I < 8; ++I) {
    const DeclRefExpr *D = refOf(E);
    if (!D)
      return nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl())) {
      E = bindings() ? bindings()->lookup(P) : nullptr;
      continue;
    }
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (!V || Stack.empty() || V->getDeclContext() != Stack.front() ||
        !V->hasLocalStorage() || V->getType()->isReferenceType() ||
        !V->getType()->isIntegerType() || !onlyPlainUses(V))
      return nullptr;
    return V;
  }
  return nullptr;
}

void Builder::waitStage(const OpValue &V, Event &E) {
  if (!V.E || Stack.empty())
    return;
  auto Id = events::barrierNameOf(
      V.E, [this](const VarDecl *VD) { return substitute(VD); }, Ctx,
      [this](const CallExpr &C) { return Finder.addressHelperArgument(C); });
  if (!Id || !Id->Index || Id->Fixed)
    return;
  std::uint64_t Members =
      Id->Pool ? Model.loopBound(Id->Index) : Id->Members;
  if (Members < 2)
    return;
  if (const VarDecl *S = stageVarOf(Id->Index))
    E.StageVar = stageKey(S);
}

bool Builder::addressVars(const Expr *E,
                          llvm::SmallVectorImpl<const VarDecl *> &Ints,
                          llvm::SmallVectorImpl<const VarDecl *> &Ptrs,
                          unsigned Depth) {
  if (!E)
    return true;
  if (Depth > 24 || Ints.size() + Ptrs.size() > 32)
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl())) {
      const Expr *Arg = bindings() ? bindings()->lookup(P) : nullptr;
      return addressVars(Arg, Ints, Ptrs, Depth + 1);
    }
    const auto *V = dyn_cast<VarDecl>(D->getDecl());
    // Shared buffers, helpers' own locals, globals: no index of the
    // kernel's (an index that reaches the address through them is not
    // collected, so not claimed).
    if (!V || V->getDeclContext() != Stack.front() || !V->hasLocalStorage() ||
        V->hasAttr<CUDASharedAttr>() || V->getType()->isReferenceType())
      return true;
    if (V->getType()->isIntegerType()) {
      if (!llvm::is_contained(Ints, V))
        Ints.push_back(V);
      return true;
    }
    if (!V->getType()->isPointerType())
      return true;
    // Once per pointer: its initialiser and every value assigned to it.
    auto [It, New] = PtrVarsOf.try_emplace(V);
    if (New) {
      PtrVars Found;
      Found.Ok = onlyPlainUses(V) &&
                 addressVars(V->getInit(), Found.Ints, Found.Ptrs, Depth + 1);
      bool Written = false;
      const ParentMap &PM = kernelParents();
      llvm::SmallVector<const DeclRefExpr *, 8> Refs;
      if (Found.Ok)
        refsTo(Stack.front()->getBody(), V, Refs);
      for (const DeclRefExpr *R : Refs) {
        if (!Found.Ok || !isPlainWrite(PM, R))
          continue;
        Written = true;
        const Stmt *C = nullptr;
        if (const auto *B = dyn_cast_or_null<BinaryOperator>(
                parentThroughParens(PM, R, C)))
          Found.Ok = addressVars(B->getRHS(), Found.Ints, Found.Ptrs, Depth + 1);
      }
      // Never written and computed from no local: the same address on
      // every pass wherever it is declared (`bf16 *sA = smem.A`): left out.
      if (Found.Ok && (Written || !Found.Ints.empty() || !Found.Ptrs.empty()))
        Found.Ptrs.push_back(V);
      // try_emplace's iterator may have moved with the recursion.
      It = PtrVarsOf.find(V);
      It->second = std::move(Found);
    }
    // A pointer whose own initialiser leads back to it is in progress (Ok
    // false): not followed.
    const PtrVars &Got = It->second;
    if (!Got.Ok)
      return false;
    for (const VarDecl *X : Got.Ints)
      if (!llvm::is_contained(Ints, X))
        Ints.push_back(X);
    for (const VarDecl *X : Got.Ptrs)
      if (!llvm::is_contained(Ptrs, X))
        Ptrs.push_back(X);
    return true;
  }
  for (const Stmt *C : E->children())
    if (const auto *X = dyn_cast_or_null<Expr>(C))
      if (!addressVars(X, Ints, Ptrs, Depth + 1))
        return false;
  return true;
}

bool Builder::stepsEveryPass(const Stmt *Loop, const VarDecl *V) {
  auto [It, New] = StepsOf.try_emplace({Loop, V}, false);
  if (New)
    It->second = stepsEveryPassOnce(Loop, V);
  return StepsOf.find({Loop, V})->second;
}

bool Builder::stepsEveryPassOnce(const Stmt *Loop, const VarDecl *V) {
  const ParentMap &PM = kernelParents();
  auto PositiveConst = [&](const Expr *X) {
    std::optional<std::uint64_t> C = foldInt(X, Ctx);
    return C && *C > 0;
  };
  // `v + c` or `c + v`, c > 0.
  auto PlusConst = [&](const Expr *X) {
    const auto *B = dyn_cast<BinaryOperator>(X->IgnoreParenImpCasts());
    return B && B->getOpcode() == BO_Add &&
           ((names(B->getLHS(), V) && PositiveConst(B->getRHS())) ||
            (names(B->getRHS(), V) && PositiveConst(B->getLHS())));
  };
  // A wrap at a size of at least two stages.
  auto Stages = [&](const Expr *X) {
    std::optional<std::uint64_t> C = foldInt(X, Ctx);
    return C && *C >= 2;
  };
  // Under `if (v == S)` or `if (v >= S)` inside the loop.
  auto UnderWrapTest = [&](const Stmt *W) {
    for (const Stmt *P = PM.getParent(W); P && P != Loop; P = PM.getParent(P))
      if (const auto *If = dyn_cast<IfStmt>(P)) {
        const auto *B = dyn_cast_or_null<BinaryOperator>(
            If->getCond() ? If->getCond()->IgnoreParenImpCasts() : nullptr);
        return B && (B->getOpcode() == BO_EQ || B->getOpcode() == BO_GE) &&
               names(B->getLHS(), V) && Stages(B->getRHS()) &&
               holds(PM, If->getThen(), W);
      }
    return false;
  };
  // A step that runs on every pass: in a `for`'s increment (through
  // commas), or a statement of the body's own block.
  auto EveryPass = [&](const Stmt *W) {
    const Stmt *Child = W;
    const Stmt *P = PM.getParent(W);
    while (P && (isa<ParenExpr>(P) ||
                 (isa<BinaryOperator>(P) &&
                  cast<BinaryOperator>(P)->getOpcode() == BO_Comma))) {
      Child = P;
      P = PM.getParent(P);
    }
    if (const auto *F = dyn_cast_or_null<ForStmt>(P))
      return F == Loop && F->getInc() == Child;
    const Stmt *Body = loopBody(Loop);
    if (continues(Body))
      return false;
    for (; P && isa<CompoundStmt>(P); Child = P, P = PM.getParent(P))
      if (P == Body)
        return true;
    return false;
  };
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(Loop, V, Refs);
  bool Stepped = false;
  for (const DeclRefExpr *R : Refs) {
    if (!isPlainWrite(PM, R))
      continue;
    const Stmt *C = nullptr;
    const Stmt *W = parentThroughParens(PM, R, C);
    for (const Stmt *P = W; P && P != Loop; P = PM.getParent(P))
      if (isa<LambdaExpr>(P))
        return false;
    bool Step = false, Wrap = false;
    if (const auto *U = dyn_cast<UnaryOperator>(W)) {
      Step = U->isIncrementOp();
    } else if (const auto *B = dyn_cast<BinaryOperator>(W)) {
      const Expr *Rhs = B->getRHS()->IgnoreParenImpCasts();
      switch (B->getOpcode()) {
      case BO_AddAssign:
        Step = PositiveConst(Rhs);
        break;
      case BO_Assign:
        if (const auto *M = dyn_cast<BinaryOperator>(Rhs);
            M && M->getOpcode() == BO_Rem && Stages(M->getRHS()))
          Step = PlusConst(M->getLHS());
        else
          Step = PlusConst(Rhs);
        Wrap = !Step && foldInt(Rhs, Ctx) == 0;
        break;
      case BO_RemAssign:
        Wrap = Stages(Rhs);
        break;
      default:
        break;
      }
    }
    if (Wrap && UnderWrapTest(W))
      continue;
    if (!Step)
      return false;
    Stepped |= EveryPass(W);
  }
  return Stepped;
}

void Builder::readSteps(const Expr *Addr, Event &E) {
  // A helper's loops are loops of the flow that the kernel's statements do
  // not show: the loop's place could not be counted.
  if (!Addr || Stack.empty() || !BodyStmt || LoopyHelpers > 0)
    return;
  llvm::SmallVector<const VarDecl *, 8> Ints, Ptrs;
  if (!addressVars(Addr, Ints, Ptrs, 0) || Ints.empty())
    return;
  const ParentMap &PM = kernelParents();
  // The loops around the read, innermost first; none when it lies in a
  // loop's header or a lambda.
  llvm::SmallVector<const Stmt *, 8> Loops;
  const Stmt *Child = BodyStmt;
  for (const Stmt *P = PM.getParent(BodyStmt); P;
       Child = P, P = PM.getParent(P)) {
    if (isa<LambdaExpr, StmtExpr>(P))
      return;
    if (!isLoop(P))
      continue;
    if (loopBody(P) != Child)
      return;
    Loops.push_back(P);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](const VarDecl *V, const Stmt *Loop) {
    SourceLocation L = SM.getExpansionLoc(V->getLocation());
    return SM.isPointWithin(L, SM.getExpansionLoc(Loop->getBeginLoc()),
                            SM.getExpansionLoc(Loop->getEndLoc()));
  };
  for (const VarDecl *V : Ints) {
    if (!onlyPlainUses(V))
      continue;
    for (unsigned D = 0; D < Loops.size(); ++D) {
      if (Inside(V, Loops[D]) || !stepsEveryPass(Loops[D], V))
        continue;
      // The address is computed in the pass: every pointer on the way is
      // declared in the loop (one set before it names one stage).
      if (llvm::all_of(Ptrs,
                       [&](const VarDecl *P) { return Inside(P, Loops[D]); }))
        E.StageSteps.emplace_back(stageKey(V), D);
      break;
    }
  }
}

} // namespace kmodel

} // namespace clang::tidy::tma
