//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Proves the form of a wait's parity on every pass (WaitParity.h): folding,
// the loop questions (trips, repeatingLoop, stepsOnceAPass), case 5's
// periods and the entry point of(). The ring recognisers are in
// WaitParityRings.cpp, the use walks both share in WaitParityWalks.h.
//
//===----------------------------------------------------------------------===//

#include "api/WaitParity.h"
#include "api/ParityExpr.h"
#include "api/WaitParityWalks.h"
#include "folding/Uses.h"
#include "api/LoopParts.h"

#include "folding/ConstantFolder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>

namespace clang::tidy::tma {

using ::tma::rules::ordering::ParityForm;
using namespace waitparity;

std::optional<std::int64_t> WaitParities::fold(const Expr *E) {
  if (!E || E->isValueDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getSExtValue();
  if (std::optional<FoldedInt> F = Folder.foldInt(E))
    return F->Value.getSExtValue();
  return std::nullopt;
}

/// A never-written local's initialiser (`const int s = k % S;`), else E.
llvm::ArrayRef<const DeclRefExpr *> WaitParities::refsIn(const Stmt *Body,
                                                         const VarDecl *VD) {
  auto [It, New] = Refs.try_emplace(Body);
  if (New)
    forEachRef(Body, nullptr, [&](const DeclRefExpr *D) {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        It->second[V].push_back(D);
    });
  auto Found = It->second.find(VD);
  if (Found == It->second.end())
    return {};
  return Found->second;
}

const Expr *WaitParities::localInit(const Expr *E) {
  const VarDecl *VD = varOf(E);
  if (isLocalInt(VD) && VD->getInit() && Folder.isNeverWritten(VD))
    return VD->getInit()->IgnoreParenCasts();
  return E ? E->IgnoreParenCasts() : nullptr;
}

bool WaitParities::invariant(const Stmt *S) {
  // Its variables are never written (thread ids, parameters, constants)
  // and it calls nothing.
  if (!S)
    return true;
  if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      if (VD->hasLocalStorage() && !Folder.isNeverWritten(VD))
        return false;
  for (const Stmt *C : S->children())
    if (!invariant(C))
      return false;
  return true;
}

bool WaitParities::invariantGuard(const Stmt *P, const Stmt *C) {
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() == C || invariant(If->getCond());
  if (const auto *CO = dyn_cast<ConditionalOperator>(P))
    return CO->getCond() == C || invariant(CO->getCond());
  if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->isLogicalOp())
    return B->getRHS() != C || invariant(B->getLHS());
  return true;
}

bool WaitParities::everyMember(const Expr *Index, std::uint64_t Members) {
  const auto *Ref =
      Index ? dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts()) : nullptr;
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !Members || !isLocalInt(V) || !counter(V))
    return false;
  const ParentMap &PM =
      Folder.parentsOf(cast<FunctionDecl>(V->getDeclContext()));
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, Ref, C); P; P = parentThroughParens(PM, P, C)) {
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      if (F->getBody() != C || !DS || !DS->isSingleDecl() ||
          DS->getSingleDecl() != V)
        return false;
      const auto *B = dyn_cast_or_null<BinaryOperator>(
          F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
      return B && (B->getOpcode() == BO_LT || B->getOpcode() == BO_NE) &&
             varOf(B->getLHS()) == V &&
             fold(B->getRHS()) == static_cast<std::int64_t>(Members);
    }
    // A thread guard is fine; a condition that changes per pass is not.
    if (const auto *I = dyn_cast<IfStmt>(P)) {
      if (I->getCond() == C || !invariant(I->getCond()))
        return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P);
               B && B->isLogicalOp()) {
      if (B->getRHS() == C && !invariant(B->getLHS()))
        return false;
    } else if (isa<WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt, SwitchCase,
                   ConditionalOperator, BinaryConditionalOperator, LambdaExpr,
                   StmtExpr>(P)) {
      return false;
    }
  }
  return false;
}

std::optional<WaitParities::FirstValue>
WaitParities::firstValue(const Expr *Index, const FunctionDecl *Kernel,
                         const Stmt *At,
                         llvm::function_ref<const Expr *(const Expr *)> Through) {
  if (!Index || !Kernel || !At || !Kernel->getBody())
    return std::nullopt;
  auto Arg = [&](const Expr *X) {
    X = Through && X ? Through(X) : X;
    return X ? X->IgnoreParenCasts() : nullptr;
  };
  const Expr *I = Arg(localInit(Index));
  std::optional<std::int64_t> Mod;
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(I);
      B && B->getOpcode() == BO_Rem) {
    Mod = fold(B->getRHS());
    if (!Mod || *Mod <= 0)
      return std::nullopt;
    I = Arg(B->getLHS());
  }
  const VarDecl *V = varOf(I);
  if (!V || !isLocalInt(V) || V->getDeclContext() != Kernel || !V->getInit() ||
      V->getType()->isReferenceType())
    return std::nullopt;
  std::optional<std::int64_t> Start = fold(V->getInit());
  if (!Start || *Start < 0)
    return std::nullopt;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  if (!PM.getParent(At))
    return std::nullopt;
  auto [It, New] = IndexWrites.try_emplace(V);
  if (New) {
    llvm::SmallVector<const Stmt *, 4> Writes;
    bool Known = true;
    eachRef(Kernel->getBody(), V, [&](const DeclRefExpr *D) {
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      if (!Known || readsOnly(PM, P, C))
        return;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
          U && U->isIncrementDecrementOp())
        Writes.push_back(U);
      else if (const auto *A = dyn_cast_or_null<BinaryOperator>(P);
               A && A->isAssignmentOp() && A->getLHS() == C)
        Writes.push_back(A);
      else
        Known = false;
    });
    if (Known)
      It->second = std::move(Writes);
  }
  if (!It->second)
    return std::nullopt;
  for (const Stmt *W : *It->second)
    if (!afterFirstRun(At, W, PM))
      return std::nullopt;
  FirstValue R;
  R.Var = V;
  R.Start = *Start;
  R.Value = Mod ? *Start % *Mod : *Start;
  return R;
}

bool WaitParities::afterFirstRun(const Stmt *At, const Stmt *W,
                                 const ParentMap &PM) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The loops and lambdas around W, innermost first; a write in the
  // increment of a `for` runs after its body.
  llvm::SmallVector<const Stmt *, 8> Around;
  const Stmt *IncOf = nullptr;
  for (const Stmt *C = W, *P = PM.getParent(W); P; C = P, P = PM.getParent(P)) {
    if (isa<LambdaExpr, BlockExpr>(P))
      return false;
    if (const auto *F = dyn_cast<ForStmt>(P); F && F->getInc() == C)
      IncOf = F;
    if (isLoop(P))
      Around.push_back(P);
  }
  auto Holds = [&](const Stmt *L) { return llvm::is_contained(Around, L); };
  auto After = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getEndLoc()),
                                        SM.getExpansionLoc(B->getBeginLoc()));
  };
  bool Shared = false;
  for (const Stmt *P = PM.getParent(At); P && !Shared; P = PM.getParent(P))
    Shared = Holds(P);
  // No loop holds both: W must come after At in the text. Conditions and
  // loops around At do not matter then: once W runs, At cannot run again.
  if (!Shared)
    return After(At, W);
  // The innermost loop around both, and what lies between it and At.
  const Stmt *Common = nullptr;
  bool AtInInc = false;
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, At, C); P;
       P = parentThroughParens(PM, P, C)) {
    if (isLoop(P)) {
      if (Holds(P)) {
        Common = P;
        AtInInc = loopBody(P) != C;
        break;
      }
      return false; // a loop around At alone may skip its first pass
    }
    if (isa<LambdaExpr, BlockExpr, SwitchStmt, SwitchCase,
            BinaryConditionalOperator>(P) ||
        !invariantGuard(P, C))
      return false;
    C = P;
  }
  if (!Common || AtInInc || (IncOf != Common && !After(At, W)))
    return false;
  // A `continue` before At may skip it on the first pass.
  bool Skips = false;
  SourceLocation AtBegin = SM.getExpansionLoc(At->getBeginLoc());
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || Skips)
      return;
    if (isa<ContinueStmt>(S) &&
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getBeginLoc()),
                                     AtBegin))
      Skips = true;
    for (const Stmt *Ch : S->children())
      Find(Ch);
  };
  Find(loopBody(Common));
  return !Skips;
}

std::optional<std::uint64_t> WaitParities::trips(const Stmt *Loop) {
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return fold(D->getCond()) == 0 ? std::optional<std::uint64_t>(1)
                                   : std::nullopt;
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return fold(W->getCond()) == 0 ? std::optional<std::uint64_t>(0)
                                   : std::nullopt;
  const auto *F = dyn_cast<ForStmt>(Loop);
  if (!F || !F->getCond())
    return std::nullopt;
  if (fold(F->getCond()) == 0)
    return 0;
  // for (int i = a; i < b; ++i), i stepped by one only.
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  const auto *B = dyn_cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  const auto *U = dyn_cast_or_null<UnaryOperator>(
      F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr);
  if (!V || !V->getInit() || !B || B->getOpcode() != BO_LT ||
      varOf(B->getLHS()) != V || !U || !U->isIncrementOp() ||
      varOf(U->getSubExpr()) != V)
    return std::nullopt;
  std::optional<std::int64_t> Lo = fold(V->getInit()), Hi = fold(B->getRHS());
  if (!Lo || !Hi)
    return std::nullopt;
  return *Hi > *Lo ? std::uint64_t(*Hi - *Lo) : 0;
}

const Stmt *WaitParities::repeatingLoop(const FunctionDecl *Kernel,
                                        const Stmt *At,
                                        std::uint64_t Period) {
  if (!Kernel || !At || !Kernel->getBody())
    return nullptr;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, At, C); P; P = parentThroughParens(PM, P, C)) {
    if (!invariantGuard(P, C) || isa<SwitchStmt, SwitchCase>(P)) {
      return nullptr;
    } else if (isLoop(P)) {
      const Stmt *Body = loopBody(P);
      if (Body != C)
        continue; // the wait spins in the loop's condition
      // A loop with nothing but the wait in it spins on the wait (a
      // counted `for` does not).
      const auto *Cmp = dyn_cast<CompoundStmt>(Body);
      const auto *For = dyn_cast<ForStmt>(P);
      if ((!For || !For->getInc()) && (!Cmp || Cmp->size() <= 1))
        continue;
      // `do { } while (0)` and a counted loop of at most \p Period passes
      // do not come back to the same barrier.
      if (std::optional<std::uint64_t> N = trips(P); N && *N <= Period)
        continue;
      return P;
    }
    C = P;
  }
  return nullptr;
}

bool WaitParities::stepsOnceAPass(const VarDecl *V, const FunctionDecl *Kernel,
                                  const Stmt *Loop, bool Every) {
  if (!V || !Kernel || !Loop || V->getDeclContext() != Kernel ||
      !Kernel->getBody())
    return false;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  auto Fold = [this](const Expr *E) { return fold(E); };
  // The statement that steps V, from a reference to it; null for a read or
  // a reset; Bad for any other write.
  bool Bad = false;
  llvm::SmallVector<const Stmt *, 2> Steps;
  eachRef(Kernel->getBody(), V, [&](const DeclRefExpr *D) {
    const Stmt *C = nullptr;
    const Stmt *P = parentThroughParens(PM, D, C);
    if (V->getType()->isIntegerType()) {
      if (readsOnly(PM, P, C))
        return;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
          U && U->isIncrementOp()) {
        Steps.push_back(U);
        return;
      }
      if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P);
          CA && CA->getLHS() == C && CA->getOpcode() == BO_AddAssign &&
          Fold(CA->getRHS()) == 1) {
        Steps.push_back(CA);
        return;
      }
      if (const auto *A = dyn_cast_or_null<BinaryOperator>(P);
          A && A->getOpcode() == BO_Assign && A->getLHS() == C) {
        const Expr *R = A->getRHS()->IgnoreParenCasts();
        if (Fold(R) == 0)
          return; // the wrap's reset
        if (const auto *M = dyn_cast<BinaryOperator>(R);
            M && M->getOpcode() == BO_Rem && isPlusOne(M->getLHS(), V, Fold)) {
          Steps.push_back(A);
          return;
        }
      }
      Bad = true;
      return;
    }
    // A state: its const members read it, its `++` steps it.
    while (isa_and_nonnull<ImplicitCastExpr>(P))
      P = parentThroughParens(PM, P, C);
    if (const auto *M = dyn_cast_or_null<MemberExpr>(P)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
      if (MD && MD->isConst())
        return;
    } else if (const auto *O = dyn_cast_or_null<CXXOperatorCallExpr>(P);
               O && O->getOperator() == OO_PlusPlus) {
      Steps.push_back(O);
      return;
    }
    Bad = true;
  });
  if (Bad || Steps.size() != 1)
    return false;
  return onceAPass(Steps.front(), Kernel, Loop, Every);
}

bool WaitParities::onceAPass(const Stmt *Step, const FunctionDecl *Kernel,
                             const Stmt *Loop, bool Every) {
  if (!Step || !Kernel || !Loop || !Kernel->getBody())
    return false;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, Step, C); P;
       P = parentThroughParens(PM, P, C)) {
    if (P == Loop)
      return true;
    if (isLoop(P) || isa<LambdaExpr, BlockExpr, SwitchStmt, SwitchCase>(P))
      return false;
    if (!Every)
      continue;
    if (!invariantGuard(P, C) || isa<BinaryConditionalOperator>(P))
      return false;
  }
  return false;
}

const VarDecl *WaitParities::stageOfPhase(const VarDecl *Ph,
                                          std::uint64_t &Stages) {
  const auto *F = Ph && isLocalInt(Ph)
                      ? dyn_cast<FunctionDecl>(Ph->getDeclContext())
                      : nullptr;
  if (!F || !F->getBody())
    return nullptr;
  const ParentMap &PM = Folder.parentsOf(F);
  // The ifs whose then-branch flips Ph: their conditions name the stage.
  llvm::SmallVector<const VarDecl *, 4> Candidates;
  eachRef(F->getBody(), Ph, [&](const DeclRefExpr *D) {
    const Stmt *C = nullptr;
    for (const Stmt *P = parentThroughParens(PM, D, C); P;
         P = parentThroughParens(PM, P, C)) {
      const auto *I = dyn_cast<IfStmt>(P);
      if (!I)
        continue;
      if (I->getThen() == C)
        forEachRef(I->getCond(), nullptr, [&](const DeclRefExpr *R) {
          const auto *VD = dyn_cast<VarDecl>(R->getDecl());
          if (VD && VD != Ph && isLocalInt(VD) &&
              !llvm::is_contained(Candidates, VD))
            Candidates.push_back(VD);
        });
      break;
    }
  });
  unsigned First = 0;
  for (const VarDecl *St : Candidates)
    if (stageAndPhase(St, Ph, Stages, First))
      return St;
  return nullptr;
}

WaitParity WaitParities::period(std::uint64_t Stages, std::uint64_t Period,
                                unsigned Bit, const VarDecl *Step,
                                const FunctionDecl *Kernel, const Stmt *At) {
  WaitParity Out;
  using ::tma::rules::ordering::repeatedParityMember;
  if (!Stages || !Period || Stages == Period || Stages > 4096 ||
      Period > 4096)
    return Out;
  Out.Followed = true;
  std::optional<unsigned> M =
      repeatedParityMember(unsigned(Stages), unsigned(Period));
  // The wait must come back: to member m at step m + S (a ring); to the
  // one barrier on two passes in a row within the first Period + 1.
  std::uint64_t Needed = Stages == 1 ? Period : (M ? *M + Stages : Stages);
  const Stmt *Loop = repeatingLoop(Kernel, At, Needed);
  if (!Loop || !stepsOnceAPass(Step, Kernel, Loop, /*Every=*/Stages > 1))
    return Out;
  Out.Form = ParityForm::Period;
  Out.Stages = Stages;
  Out.Period = Period;
  Out.Bit = Bit;
  return Out;
}

WaitParity WaitParities::of(const Expr *Parity, const Expr *Index, bool Fixed,
                            std::uint64_t Members,
                            const FunctionDecl *Kernel, const Stmt *At) {
  WaitParity Out;
  if (!Parity)
    return Out;
  // Peel flips of the parity: `p ^ 1`, `!p`, `1 - p`.
  unsigned Flip = 0;
  const Expr *E = Parity->IgnoreParenCasts();
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_LNot) {
      Flip ^= 1;
      E = U->getSubExpr()->IgnoreParenCasts();
      continue;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (B && B->getOpcode() == BO_Xor) {
      if (std::optional<std::int64_t> C = fold(B->getRHS());
          C && (*C == 0 || *C == 1)) {
        Flip ^= *C;
        E = B->getLHS()->IgnoreParenCasts();
        continue;
      }
      if (std::optional<std::int64_t> C = fold(B->getLHS());
          C && (*C == 0 || *C == 1)) {
        Flip ^= *C;
        E = B->getRHS()->IgnoreParenCasts();
        continue;
      }
    }
    if (B && B->getOpcode() == BO_Sub && fold(B->getLHS()) == 1) {
      Flip ^= 1;
      E = B->getRHS()->IgnoreParenCasts();
      continue;
    }
    break;
  }

  // A constant parity: the same parity each time the wait comes back to
  // the same barrier.
  if (std::optional<std::int64_t> C = fold(E); C && (*C == 0 || *C == 1)) {
    Out.Folds = true;
    if (!Index && !Fixed)
      return Out;
    std::uint64_t Period = 1;
    // A constant parity on a ring member: only a ring index proves the
    // wait comes back to it.
    if (Index) {
      const Expr *I = localInit(Index);
      const auto *B = dyn_cast<BinaryOperator>(I);
      const VarDecl *K = B && B->getOpcode() == BO_Rem ? varOf(B->getLHS())
                                                        : nullptr;
      std::optional<std::int64_t> S = B ? fold(B->getRHS()) : std::nullopt;
      if (!K || !S || !counter(K) || (Members && std::uint64_t(*S) != Members))
        return Out;
      Period = *S;
    }
    if (!repeats(Kernel, At, Period))
      return Out;
    Out.Form = ParityForm::Constant;
    Out.Bit = static_cast<unsigned>(*C) ^ Flip;
    return Out;
  }

  // A parity of the member alone (`s & 1`, `(qidx / 2) & 1` with the
  // member `qidx`, `(k % S) & 1` with `k % S`): every wait on a member
  // names one parity. The member takes at most N values (the ring's S, the
  // array's extent), so a wait on every pass of a loop of more than N
  // passes comes back to some member: case 1.
  auto Fold = [this](const Expr *X) { return fold(X); };
  if (Index &&
      parity::memberOnly(E, localInit(Index),
                         [this](const Expr *X) { return localInit(X); },
                         Fold)) {
    Out.Followed = true;
    std::uint64_t N = Members;
    if (std::optional<Ring> R = ringIndex(Index, nullptr))
      N = N ? std::min(N, R->Stages) : R->Stages;
    if (N < 2 || !repeats(Kernel, At, N))
      return Out;
    Out.Form = ParityForm::StageBit;
    return Out;
  }

  if (const Expr *Bit = lowBit(E, Fold)) {
    const Expr *X = localInit(Bit);
    // `(k / S) & 1` with the member `k % S`: the counter's lap (also `(k /
    // S + 1) & 1`, `((k + S) / S) % 2`: flipped).
    // `k & 1` of a counter: its lap of one step.
    std::optional<parity::Lap> L = parity::lapOf(X, Fold);
    const VarDecl *K = L ? varOf(L->Count) : nullptr;
    const bool D = L && L->Divided;
    std::optional<std::int64_t> T =
        L ? std::optional<std::int64_t>(L->Period) : std::nullopt;
    if (K && !D && (!counter(K) || X != Bit->IgnoreParenCasts()))
      K = nullptr;
    if (K && T && *T > 0) {
      Flip ^= L->Flip;
      std::optional<Ring> R = ringIndex(Index, nullptr);
      // One barrier waited each pass: the counter's steps bound the flips.
      if (!Index && Fixed) {
        if (!counter(K) || *T < 2)
          return Out;
        return period(1, std::uint64_t(*T), Flip, K, Kernel, At);
      }
      if (!R || !R->Counter || R->Var != K)
        return Out;
      if (Members && R->Stages != Members) {
        Out.RingStages = R->Stages;
        return Out;
      }
      if (R->Stages != std::uint64_t(*T))
        return period(R->Stages, std::uint64_t(*T), Flip, K, Kernel,
                      At);
      if (!D)
        return Out;
      Out.Form = ParityForm::Ring;
      Out.Bit = Flip;
      return Out;
    }
    return Out;
  }

  // CUTLASS's PipelineState: member `st.index()` (or a local holding it),
  // parity `st.phase()`.
  auto StateOf = [](const Expr *X, llvm::StringRef Name) -> const VarDecl * {
    const auto *C =
        X ? dyn_cast<CXXMemberCallExpr>(X->IgnoreParenImpCasts()) : nullptr;
    const CXXMethodDecl *MD = C ? C->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || MD->getName() != Name ||
        C->getNumArgs() != 0)
      return nullptr;
    return varOf(C->getImplicitObjectArgument());
  };
  if (const VarDecl *St = StateOf(E, "phase")) {
    std::uint64_t Stages = 0;
    unsigned First = 0;
    // One barrier waited each pass with the phase of a ring of S > 1.
    if (!Index && Fixed) {
      if (!pipelineState(St, Stages, First) || Stages < 2)
        return Out;
      return period(1, Stages, First ^ Flip, St, Kernel, At);
    }
    if (!Index || StateOf(localInit(Index), "index") != St ||
        !pipelineState(St, Stages, First))
      return Out;
    if (Members && Stages != Members) {
      Out.RingStages = Stages;
      return Out;
    }
    Out.Form = ParityForm::Ring;
    Out.Bit = First ^ Flip;
    return Out;
  }

  // A phase bit flipped when its stage wraps.
  if (const VarDecl *Ph = varOf(E)) {
    // One barrier a pass: a bit flipped once a pass, a barrier that the
    // pass does not change (a ring of one stage).
    if (std::optional<unsigned> B = passPhase(Ph, Index, Fixed, Kernel, At)) {
      Out.Form = ParityForm::Ring;
      Out.Bit = *B ^ Flip;
      Out.Stages = 1;
      return Out;
    }
    // One barrier waited each pass with the phase of a ring of S > 1.
    if (!Index && Fixed) {
      std::uint64_t Stages = 0;
      const VarDecl *St = stageOfPhase(Ph, Stages);
      unsigned First = 0;
      if (!St || Stages < 2 || !stageAndPhase(St, Ph, Stages, First))
        return Out;
      return period(1, Stages, First ^ Flip, St, Kernel, At);
    }
    std::optional<Ring> R = ringIndex(Index, Ph);
    if (!R && Index)
      // A stage and a phase bit stepped as two counts (stepAndFlip).
      if (const VarDecl *St = varOf(localInit(Index)))
        return stepAndFlip(St, Ph, Members, Kernel, At);
    if (!R || R->Counter)
      return Out;
    if (Members && R->Stages != Members) {
      Out.RingStages = R->Stages;
      return Out;
    }
    Out.Form = ParityForm::Ring;
    Out.Bit = R->FirstPhase ^ Flip;
    Out.LaterLaps = R->Strides;
    return Out;
  }
  return Out;
}

} // namespace clang::tidy::tma
