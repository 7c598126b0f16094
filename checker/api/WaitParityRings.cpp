//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The ring recognisers of the wait-parity proofs (WaitParity.h): a
// counter, a CUTLASS-like PipelineState, a stage and phase pair, the ring
// index a wait's barrier subscript names, one barrier waited once a pass
// with a bit flipped once a pass, and a stage and phase bit that count two
// things.
//
//===----------------------------------------------------------------------===//

#include "api/LoopParts.h"
#include "api/RingSteps.h"
#include "api/ThreadGuards.h"
#include "api/WaitParity.h"
#include "api/WaitParityWalks.h"
#include "folding/Uses.h"

#include "folding/ConstantFolder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>

namespace clang::tidy::tma {

using namespace waitparity;

namespace {

/// The field \p E names on `this` (`index_`, `this->index_`).
const FieldDecl *thisField(const Expr *E) {
  const auto *M = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!M || !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(M->getMemberDecl());
}

/// The field the const getter \p Name of \p RD returns (`int index()
/// const { return index_; }`).
const FieldDecl *getterField(const CXXRecordDecl &RD, llvm::StringRef Name) {
  for (const CXXMethodDecl *MD : RD.methods()) {
    if (!MD->getIdentifier() || MD->getName() != Name || !MD->isConst() ||
        MD->getNumParams() != 0 || MD->isStatic())
      continue;
    const FunctionDecl *Def = nullptr;
    const auto *Body = MD->hasBody(Def) && Def
                           ? dyn_cast_or_null<CompoundStmt>(Def->getBody())
                           : nullptr;
    const auto *Ret = Body && Body->size() == 1
                          ? dyn_cast<ReturnStmt>(Body->body_front())
                          : nullptr;
    return Ret ? thisField(Ret->getRetValue()) : nullptr;
  }
  return nullptr;
}

/// The field of `this` the statement \p S writes (`++f`, `f = x`,
/// `f ^= 1`), if any.
const FieldDecl *writtenField(const Stmt *S) {
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    return thisField(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return thisField(B->getLHS());
  return nullptr;
}

} // namespace

bool WaitParities::counter(const VarDecl *K) {
  auto [It, Inserted] = Counters.try_emplace(K, false);
  if (!Inserted)
    return It->second;
  if (!isLocalInt(K) || !K->getInit() || fold(K->getInit()) != 0)
    return false;
  const auto *F = cast<FunctionDecl>(K->getDeclContext());
  if (!F->getBody())
    return false;
  // Stepped by one only, and declared outside every loop: it starts at 0
  // once, not every pass of an outer loop (the ring would restart while
  // its barriers go on).
  auto Fold = [this](const Expr *E) { return fold(E); };
  llvm::SmallVector<const Stmt *, 2> Steps;
  bool Ok = acceptedWrites(
      K, F,
      [&](const Stmt *P, const Stmt *C) {
        if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
          return U->isIncrementOp();
        const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P);
        return CA && CA->getOpcode() == BO_AddAssign && CA->getLHS() == C &&
               Fold(CA->getRHS()) == 1;
      },
      Steps);
  Counters[K] = Ok;
  return Ok;
}

bool WaitParities::pipelineState(const VarDecl *St, std::uint64_t &Stages,
                                 unsigned &FirstPhase) {
  if (auto It = States.find(St); It != States.end()) {
    if (!It->second)
      return false;
    std::tie(Stages, FirstPhase) = *It->second;
    return true;
  }
  States[St] = std::nullopt;
  const CXXRecordDecl *RD =
      St && St->hasLocalStorage() && !isa<ParmVarDecl>(St) &&
              !St->getType()->isReferenceType()
          ? St->getType()->getAsCXXRecordDecl()
          : nullptr;
  const auto *F = St ? dyn_cast<FunctionDecl>(St->getDeclContext()) : nullptr;
  if (!RD || !RD->hasDefinition() || !F || !F->getBody())
    return false;
  RD = RD->getDefinition();
  const FieldDecl *Idx = getterField(*RD, "index");
  const FieldDecl *Ph = getterField(*RD, "phase");
  if (!Idx || !Ph || Idx == Ph)
    return false;
  auto Fold = [this](const Expr *E) { return fold(E); };

  // Its construction: the default constructor, the index starting at 0 and
  // the phase at a constant, nothing in its body.
  const Expr *Init = St->getInit();
  for (unsigned Steps = 0; Init && Steps < 8; ++Steps) {
    Init = Init->IgnoreParenImpCasts();
    if (const auto *W = dyn_cast<ExprWithCleanups>(Init))
      Init = W->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Init))
      Init = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Init))
      Init = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(Init))
      Init = C->getSubExpr();
    else
      break;
  }
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
  const CXXConstructorDecl *Ctor =
      Construct ? Construct->getConstructor() : nullptr;
  const FunctionDecl *CtorDef = nullptr;
  if (!Ctor || Ctor->getNumParams() != 0 || !Ctor->hasBody(CtorDef) ||
      !CtorDef)
    return false;
  const auto *CtorBody = dyn_cast_or_null<CompoundStmt>(CtorDef->getBody());
  if (!CtorBody || !CtorBody->body_empty())
    return false;
  auto Start = [&](const FieldDecl *FD) -> std::optional<std::int64_t> {
    for (const CXXCtorInitializer *I :
         cast<CXXConstructorDecl>(CtorDef)->inits()) {
      if (I->getMember() != FD)
        continue;
      const Expr *E = I->getInit()->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
        E = D->getExpr()->IgnoreParenImpCasts();
      if (const auto *L = dyn_cast<InitListExpr>(E)) {
        if (L->getNumInits() == 0)
          return 0; // `index_{}`
        if (L->getNumInits() != 1)
          return std::nullopt;
        E = L->getInit(0);
      }
      if (isa<ImplicitValueInitExpr>(E))
        return 0;
      return fold(E);
    }
    return std::nullopt;
  };
  std::optional<std::int64_t> I0 = Start(Idx), P0 = Start(Ph);
  if (I0 != 0 || !P0 || (*P0 != 0 && *P0 != 1))
    return false;

  // Its prefix ++: `++index_;` on every call and `if (index_ == S) {
  // index_ = 0; phase_ ^= 1; }`, no other write of the two (another field,
  // a count, may change too) and no other branch or loop.
  const CXXMethodDecl *Inc = nullptr;
  for (const CXXMethodDecl *MD : RD->methods())
    if (MD->getOverloadedOperator() == OO_PlusPlus && MD->getNumParams() == 0)
      Inc = MD;
  const FunctionDecl *IncDef = nullptr;
  if (!Inc || !Inc->hasBody(IncDef) || !IncDef)
    return false;
  unsigned Steps = 0, Wraps = 0, Flips = 0, Others = 0;
  std::optional<std::int64_t> Size;
  std::function<void(const Stmt *, const IfStmt *)> Visit =
      [&](const Stmt *S, const IfStmt *Wrap) {
        if (!S)
          return;
        if (const auto *If = dyn_cast<IfStmt>(S)) {
          if (If->isConstexpr()) {
            if (std::optional<const Stmt *> Taken =
                    If->getNondiscardedCase(Ctx))
              Visit(*Taken, Wrap);
            return;
          }
          // The wrap: `if (index_ == S)`, no else.
          const auto *C = dyn_cast<BinaryOperator>(
              If->getCond()->IgnoreParenImpCasts());
          bool IsWrap = !Wrap && !Size && !If->getElse() && !If->getInit() &&
                        C && C->getOpcode() == BO_EQ &&
                        thisField(C->getLHS()) == Idx && Fold(C->getRHS());
          if (!IsWrap) {
            ++Others;
            return;
          }
          Size = Fold(C->getRHS());
          Visit(If->getThen(), If);
          return;
        }
        if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
                GotoStmt, ReturnStmt>(S)) {
          ++Others;
          return;
        }
        if (const FieldDecl *W = writtenField(S); W && (W == Idx || W == Ph)) {
          const auto *U = dyn_cast<UnaryOperator>(S);
          const auto *B = dyn_cast<BinaryOperator>(S);
          if (W == Idx && !Wrap && U && U->isIncrementOp())
            ++Steps;
          else if (W == Idx && !Wrap && B &&
                   B->getOpcode() == BO_AddAssign && Fold(B->getRHS()) == 1)
            ++Steps;
          else if (W == Idx && Wrap && B && B->getOpcode() == BO_Assign &&
                   Fold(B->getRHS()) == 0)
            ++Wraps;
          else if (W == Ph && Wrap && B && B->getOpcode() == BO_XorAssign &&
                   Fold(B->getRHS()) == 1)
            ++Flips;
          else
            ++Others;
          return;
        }
        for (const Stmt *C : S->children())
          Visit(C, Wrap);
      };
  Visit(IncDef->getBody(), nullptr);
  if (Steps != 1 || Wraps != 1 || Flips != 1 || Others || !Size || *Size <= 0)
    return false;
  // The kernel only reads it (const members) and steps it (++).
  const ParentMap &PM = Folder.parentsOf(F);
  bool Ok = true;
  std::function<void(const Stmt *)> Uses = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == St) {
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      while (isa_and_nonnull<ImplicitCastExpr>(P))
        P = parentThroughParens(PM, P, C);
      if (const auto *M = dyn_cast_or_null<MemberExpr>(P)) {
        const auto *MD = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
        Ok = MD && MD->isConst();
      } else if (const auto *O = dyn_cast_or_null<CXXOperatorCallExpr>(P)) {
        Ok = O->getOperator() == OO_PlusPlus && O->getNumArgs() == 1 &&
             O->getDirectCallee() == Inc;
      } else {
        Ok = false;
      }
      return;
    }
    for (const Stmt *C : S->children())
      Uses(C);
  };
  Uses(F->getBody());
  if (!Ok)
    return false;
  Stages = static_cast<std::uint64_t>(*Size);
  FirstPhase = static_cast<unsigned>(*P0);
  States[St] = std::make_pair(Stages, FirstPhase);
  return true;
}

bool WaitParities::stageAndPhase(const VarDecl *St, const VarDecl *Ph,
                                 std::uint64_t &Stages, unsigned &FirstPhase) {
  auto Key = std::make_pair(St, Ph);
  if (auto It = Rings.find(Key); It != Rings.end()) {
    if (!It->second)
      return false;
    std::tie(Stages, FirstPhase) = *It->second;
    return true;
  }
  Rings[Key] = std::nullopt;
  if (!isLocalInt(St) || !isLocalInt(Ph) || St == Ph ||
      St->getDeclContext() != Ph->getDeclContext() || !St->getInit() ||
      !Ph->getInit() || fold(St->getInit()) != 0)
    return false;
  std::optional<std::int64_t> P0 = fold(Ph->getInit());
  if (!P0 || (*P0 != 0 && *P0 != 1))
    return false;
  const auto *F = cast<FunctionDecl>(St->getDeclContext());
  if (!F->getBody())
    return false;
  const ParentMap &PM = Folder.parentsOf(F);
  RingSteps Steps([this](const Expr *E) { return fold(E); },
                  [this](const FunctionDecl *G) -> const ParentMap & {
                    return Folder.parentsOf(G);
                  });
  llvm::SmallVector<const DeclStmt *, 2> Decls;
  std::optional<RingSteps::Ring> S = Steps.stages(F, St, Ph, Decls);
  if (!S || Decls.size() != 2)
    return false;
  // Declared outside every loop: reset once, not every tile.
  for (const DeclStmt *DS : Decls)
    for (const Stmt *P = PM.getParent(DS); P; P = PM.getParent(P))
      if (isLoop(P))
        return false;
  Stages = S->Stages;
  FirstPhase = static_cast<unsigned>(*P0);
  Rings[Key] = std::make_pair(Stages, FirstPhase);
  if (S->Strides)
    Strided.insert(Key);
  return true;
}

std::optional<WaitParities::Ring>
WaitParities::ringIndex(const Expr *Index, const VarDecl *Phase) {
  if (!Index)
    return std::nullopt;
  const Expr *I = localInit(Index);
  Ring R;
  if (const auto *B = dyn_cast<BinaryOperator>(I);
      B && B->getOpcode() == BO_Rem) {
    const VarDecl *K = varOf(B->getLHS());
    std::optional<std::int64_t> S = fold(B->getRHS());
    if (!K || !S || *S <= 0 || !counter(K))
      return std::nullopt;
    R.Var = K;
    R.Stages = *S;
    R.Counter = true;
    return R;
  }
  const VarDecl *St = varOf(I);
  if (!St || !Phase)
    return std::nullopt;
  if (!stageAndPhase(St, Phase, R.Stages, R.FirstPhase))
    return std::nullopt;
  R.Var = St;
  R.Phase = Phase;
  R.Strides = Strided.count(std::make_pair(St, Phase)) != 0;
  return R;
}

bool WaitParities::fixedIn(const Expr *Index, const FunctionDecl *Kernel,
                           const Stmt *Loop) {
  if (!Index || !Kernel || !Kernel->getBody())
    return false;
  if (cudaBuiltinVar(Index))
    return true;
  const Expr *E = Index->IgnoreParenCasts();
  if (cudaBuiltinVar(E) ||
      isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && !B->isCommaOp() &&
           fixedIn(B->getLHS(), Kernel, Loop) &&
           fixedIn(B->getRHS(), Kernel, Loop);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus ||
            U->getOpcode() == UO_Not || U->getOpcode() == UO_LNot) &&
           fixedIn(U->getSubExpr(), Kernel, Loop);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return fixedIn(CO->getCond(), Kernel, Loop) &&
           fixedIn(CO->getTrueExpr(), Kernel, Loop) &&
           fixedIn(CO->getFalseExpr(), Kernel, Loop);
  const auto *D = dyn_cast<DeclRefExpr>(E);
  if (!D)
    return fold(E).has_value();
  if (isa<EnumConstantDecl>(D->getDecl()))
    return true;
  const auto *VD = dyn_cast<VarDecl>(D->getDecl());
  if (!VD)
    return false;
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      VD->getDeclContext() != Kernel)
    return VD->getType().isConstQualified() && fold(E).has_value();
  // Declared in the loop, it starts again every pass, maybe from another
  // value: not followed.
  std::function<bool(const Stmt *)> Declares = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == VD)
          return true;
    for (const Stmt *Child : S->children())
      if (Declares(Child))
        return true;
    return false;
  };
  if (Declares(Loop))
    return false;
  // Every write of it is a plain step of the variable itself outside the
  // loop and outside any lambda; nothing takes its address or binds it to
  // a reference that may write it.
  const ParentMap &PM = Folder.parentsOf(Kernel);
  bool Ok = true;
  eachRef(Kernel->getBody(), VD, [&](const DeclRefExpr *R) {
    const Stmt *C = nullptr;
    const Stmt *P = parentThroughParens(PM, R, C);
    if (!Ok || readsOnly(PM, P, C))
      return;
    bool Write = false;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
      Write = U->isIncrementDecrementOp();
    else if (const auto *A = dyn_cast_or_null<BinaryOperator>(P))
      Write = A->isAssignmentOp() && A->getLHS() == C;
    if (!Write) {
      Ok = false;
      return;
    }
    for (const Stmt *Q = P; Q; Q = PM.getParent(Q))
      if (Q == Loop || isa<LambdaExpr, BlockExpr>(Q)) {
        Ok = false;
        return;
      }
  });
  return Ok;
}

const Stmt *WaitParities::passFlip(const VarDecl *Ph,
                                   const FunctionDecl *Kernel, const Stmt *Loop,
                                   unsigned &First) {
  if (!Ph || !Kernel || !Kernel->getBody() || !Loop || !isLocalInt(Ph) ||
      Ph->getDeclContext() != Kernel || !Ph->getInit())
    return nullptr;
  std::optional<std::int64_t> P0 = fold(Ph->getInit());
  if (!P0 || (*P0 != 0 && *P0 != 1))
    return nullptr;
  auto Fold = [this](const Expr *E) { return fold(E); };
  const Stmt *Flip = soleWrite(Ph, Kernel, [&](const Stmt *P, const Stmt *C) {
    if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P))
      return CA->getLHS() == C && CA->getOpcode() == BO_XorAssign &&
             Fold(CA->getRHS()) == 1;
    const auto *A = dyn_cast_or_null<BinaryOperator>(P);
    return A && A->getOpcode() == BO_Assign && A->getLHS() == C &&
           isFlipOf(A->getRHS(), Ph, Fold);
  });
  if (!Flip || !onceAPass(Flip, Kernel, Loop, /*Every=*/true))
    return nullptr;
  First = static_cast<unsigned>(*P0);
  return Flip;
}

const Stmt *WaitParities::soleWrite(
    const VarDecl *V, const FunctionDecl *Kernel,
    llvm::function_ref<bool(const Stmt *, const Stmt *)> IsWrite) {
  llvm::SmallVector<const Stmt *, 2> Writes;
  if (!acceptedWrites(V, Kernel, IsWrite, Writes) || Writes.size() != 1)
    return nullptr;
  return Writes.front();
}

bool WaitParities::acceptedWrites(
    const VarDecl *V, const FunctionDecl *Kernel,
    llvm::function_ref<bool(const Stmt *, const Stmt *)> IsWrite,
    llvm::SmallVectorImpl<const Stmt *> &Writes) {
  const ParentMap &PM = Folder.parentsOf(Kernel);
  bool Ok = true;
  const DeclStmt *Declared = nullptr;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == V)
          Declared = DS;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V) {
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      if (readsOnly(PM, P, C))
        return;
      if (IsWrite(P, C))
        Writes.push_back(P);
      else
        Ok = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Kernel->getBody());
  return Ok && Declared && declaredOnce(Declared, PM);
}

bool WaitParities::declaredOnce(const DeclStmt *Declared, const ParentMap &PM) {
  const Stmt *C = Declared;
  for (const Stmt *P = PM.getParent(Declared); P; C = P, P = PM.getParent(P))
    if (isLoop(P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      if (!For || For->getInit() != C)
        return false;
    }
  return true;
}

std::optional<unsigned> WaitParities::passSlot(const Stmt *S, const Stmt *Loop,
                                               const FunctionDecl *Kernel) {
  const auto *Body =
      Loop ? dyn_cast_or_null<CompoundStmt>(loopBody(Loop)) : nullptr;
  if (!S || !Body || S == Body || !Kernel)
    return std::nullopt;
  // No pass ends early but by leaving the loop: no `continue` of this
  // loop, no `goto` anywhere in it.
  std::function<bool(const Stmt *, bool)> Leaves = [&](const Stmt *X,
                                                       bool Nested) {
    if (!X || isa<LambdaExpr, BlockExpr>(X))
      return false;
    if (isa<GotoStmt, IndirectGotoStmt>(X) || (!Nested && isa<ContinueStmt>(X)))
      return true;
    for (const Stmt *Child : X->children())
      if (Leaves(Child, Nested || isLoop(X)))
        return true;
    return false;
  };
  for (const Stmt *Child : Body->body())
    if (Leaves(Child, false))
      return std::nullopt;
  return indexIn(Body, S, Folder.parentsOf(Kernel));
}

std::optional<unsigned> WaitParities::passPhase(const VarDecl *Ph,
                                                const Expr *Index, bool Fixed,
                                                const FunctionDecl *Kernel,
                                                const Stmt *At) {
  if (!Kernel || !At || (!Index && !Fixed))
    return std::nullopt;
  const Stmt *Loop = repeatingLoop(Kernel, At, 1);
  if (!Loop || (Index && !fixedIn(Index, Kernel, Loop)))
    return std::nullopt;
  unsigned First = 0;
  const Stmt *Flip = passFlip(Ph, Kernel, Loop, First);
  // Which of the wait and the flip comes first in the pass.
  std::optional<unsigned> WaitAt = passSlot(At, Loop, Kernel);
  std::optional<unsigned> FlipAt = passSlot(Flip, Loop, Kernel);
  if (!Flip || !WaitAt || !FlipAt || *WaitAt == *FlipAt)
    return std::nullopt;
  return First ^ (*FlipAt < *WaitAt ? 1u : 0u);
}

WaitParity WaitParities::stepAndFlip(const VarDecl *St, const VarDecl *Ph,
                                     std::uint64_t Members,
                                     const FunctionDecl *Kernel,
                                     const Stmt *At) {
  WaitParity Out;
  if (!St || !Kernel || !Kernel->getBody() || !isLocalInt(St) || St == Ph ||
      St->getDeclContext() != Kernel || !St->getInit() ||
      fold(St->getInit()) != 0)
    return Out;
  const Stmt *Loop = repeatingLoop(Kernel, At, 1);
  unsigned First = 0;
  const Stmt *Flip = Loop ? passFlip(Ph, Kernel, Loop, First) : nullptr;
  if (!Flip)
    return Out;
  // The stage: written by one `St = (St + 1) % S` only, declared outside
  // every loop.
  auto Fold = [this](const Expr *E) { return fold(E); };
  auto IsStep = [&](const Stmt *P, const Stmt *C) {
    const auto *A = dyn_cast_or_null<BinaryOperator>(P);
    const auto *M =
        A && A->getOpcode() == BO_Assign && A->getLHS() == C
            ? dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenCasts())
            : nullptr;
    return M && M->getOpcode() == BO_Rem && isPlusOne(M->getLHS(), St, Fold);
  };
  const auto *Step =
      cast_or_null<BinaryOperator>(soleWrite(St, Kernel, IsStep));
  if (!Step || !onceAPass(Step, Kernel, Loop, /*Every=*/true))
    return Out;
  const auto *M = cast<BinaryOperator>(Step->getRHS()->IgnoreParenCasts());
  std::optional<std::int64_t> S = fold(M->getRHS());
  if (!S || *S < 2 || (Members && std::uint64_t(*S) != Members))
    return Out;
  std::optional<unsigned> WaitAt = passSlot(At, Loop, Kernel);
  std::optional<unsigned> StepAt = passSlot(Step, Loop, Kernel);
  std::optional<unsigned> FlipAt = passSlot(Flip, Loop, Kernel);
  if (!WaitAt || !StepAt || !FlipAt || *WaitAt == *StepAt || *WaitAt == *FlipAt)
    return Out;
  // At the wait of pass k the member is (k + a) % S and the parity
  // First ^ ((k + b) & 1), a and b 1 where the step or the flip comes
  // before the wait: counted from the step j = k + a, the parity is
  // First ^ ((j + b - a) & 1), one of period 1.
  unsigned A = *StepAt < *WaitAt ? 1 : 0, B = *FlipAt < *WaitAt ? 1 : 0;
  Out = period(std::uint64_t(*S), 1, First ^ (A ^ B), St, Kernel, At);
  Out.Step = Step;
  Out.Flip = Flip;
  return Out;
}

} // namespace clang::tidy::tma
