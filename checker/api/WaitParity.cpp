//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Proves the form of a wait's parity on every pass (WaitParity.h). Above
// 1,000 lines for a reason: the three ring recognisers (a counter, a
// PipelineState, a stage and phase pair) and the loop questions they ask
// (trips, repeatingLoop, stepsOnceAPass) share the file-local use walks
// above them. The seam is between the recognisers and the loop questions:
// split there when the next ring form is added.
//
//===----------------------------------------------------------------------===//

#include "api/WaitParity.h"
#include "folding/Uses.h"
#include "api/LoopParts.h"

#include "folding/ConstantFolder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>

namespace clang::tidy::tma {

using ::tma::rules::ordering::ParityForm;

namespace {

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

bool isLoop(const Stmt *S) {
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// A local integer of a function body: not static, not a parameter.
bool isLocalInt(const VarDecl *VD) {
  return VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
         VD->getType()->isIntegerType() &&
         !VD->getType()->isReferenceType() &&
         isa_and_nonnull<FunctionDecl>(VD->getDeclContext());
}

/// Whether \p C is an argument of the call \p P bound to a reference to
/// const (`const uint32_t &phaseParity` of cuda::ptx): a read.
bool constRefArg(const Stmt *P, const Stmt *C) {
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                           isa<CXXMethodDecl>(FD) ? 1 : 0;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I)
    if (Call->getArg(I) == C && I - Shift < FD->getNumParams()) {
      QualType T = FD->getParamDecl(I - Shift)->getType();
      return T->isReferenceType() && T->getPointeeType().isConstQualified();
    }
  return false;
}

/// Whether the reference \p C, whose parent is \p P, only reads the
/// local: an rvalue, or an argument bound to a reference to const.
bool readsOnly(const ParentMap &PM, const Stmt *P, const Stmt *C) {
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P)) {
    if (IC->getCastKind() == CK_LValueToRValue)
      return true;
    if (IC->getCastKind() == CK_NoOp) {
      const Stmt *CC = nullptr;
      if (constRefArg(parentThroughParens(PM, IC, CC), CC))
        return true;
    }
  }
  return constRefArg(P, C);
}

/// Calls \p Fn on every reference to \p VD (every variable: null) in \p S.
template <typename Fn>
void forEachRef(const Stmt *S, const VarDecl *VD, Fn &&F) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (!VD || D->getDecl() == VD)
      F(D);
  for (const Stmt *C : S->children())
    forEachRef(C, VD, F);
}

} // namespace

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
const Expr *WaitParities::localInit(const Expr *E) {
  const VarDecl *VD = varOf(E);
  if (isLocalInt(VD) && VD->getInit() && Folder.isNeverWritten(VD))
    return VD->getInit()->IgnoreParenCasts();
  return E ? E->IgnoreParenCasts() : nullptr;
}

namespace {

/// `V + 1` (either order).
bool isPlusOne(const Expr *E, const VarDecl *V,
               const std::function<std::optional<std::int64_t>(const Expr *)>
                   &Fold) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
  if (!B || B->getOpcode() != BO_Add)
    return false;
  return (varOf(B->getLHS()) == V && Fold(B->getRHS()) == 1) ||
         (varOf(B->getRHS()) == V && Fold(B->getLHS()) == 1);
}

/// `V ^ 1`, `1 ^ V`, `!V`, `1 - V`.
bool isFlipOf(const Expr *E, const VarDecl *V,
              const std::function<std::optional<std::int64_t>(const Expr *)>
                  &Fold) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_LNot && varOf(U->getSubExpr()) == V;
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return false;
  if (B->getOpcode() == BO_Xor)
    return (varOf(B->getLHS()) == V && Fold(B->getRHS()) == 1) ||
           (varOf(B->getRHS()) == V && Fold(B->getLHS()) == 1);
  return B->getOpcode() == BO_Sub && Fold(B->getLHS()) == 1 &&
         varOf(B->getRHS()) == V;
}

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
  const ParentMap &PM = Folder.parentsOf(F);
  auto Fold = [this](const Expr *E) { return fold(E); };
  bool Ok = true;
  const DeclStmt *Declared = nullptr;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == K)
          Declared = DS;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == K) {
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      if (readsOnly(PM, P, C))
        return;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
          U && U->isIncrementOp())
        return;
      if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P);
          CA && CA->getOpcode() == BO_AddAssign && CA->getLHS() == C &&
          Fold(CA->getRHS()) == 1)
        return;
      Ok = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(F->getBody());
  if (!Ok || !Declared)
    return false;
  // Declared outside every loop: it starts at 0 once, not every pass of an
  // outer loop (the ring would restart while its barriers go on).
  const Stmt *C = Declared;
  for (const Stmt *P = PM.getParent(Declared); P; C = P, P = PM.getParent(P))
    if (isLoop(P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      if (!For || For->getInit() != C)
        return false;
    }
  Counters[K] = true;
  return true;
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
  auto Fold = [this](const Expr *E) { return fold(E); };

  bool Ok = true;
  unsigned Incs = 0;
  llvm::SmallVector<const Stmt *, 4> Resets, ModIncs, Flips;
  llvm::SmallVector<const DeclStmt *, 2> Decls;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Ok)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == St || D == Ph)
          Decls.push_back(DS);
    if (const auto *D = dyn_cast<DeclRefExpr>(S);
        D && (D->getDecl() == St || D->getDecl() == Ph)) {
      bool Stage = D->getDecl() == St;
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      if (readsOnly(PM, P, C))
        return;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
          Stage && U && U->isIncrementOp()) {
        ++Incs;
        return;
      }
      if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P);
          CA && CA->getLHS() == C) {
        if (Stage && CA->getOpcode() == BO_AddAssign &&
            Fold(CA->getRHS()) == 1) {
          ++Incs;
          return;
        }
        if (!Stage && CA->getOpcode() == BO_XorAssign &&
            Fold(CA->getRHS()) == 1) {
          Flips.push_back(CA);
          return;
        }
      }
      if (const auto *A = dyn_cast_or_null<BinaryOperator>(P);
          A && A->getOpcode() == BO_Assign && A->getLHS() == C) {
        const Expr *R = A->getRHS()->IgnoreParenCasts();
        if (Stage && Fold(R) == 0) {
          Resets.push_back(A);
          return;
        }
        if (const auto *M = dyn_cast<BinaryOperator>(R);
            Stage && M && M->getOpcode() == BO_Rem &&
            isPlusOne(M->getLHS(), St, Fold)) {
          std::optional<std::int64_t> S = Fold(M->getRHS());
          if (S && *S > 0 && (!Stages || Stages == std::uint64_t(*S))) {
            Stages = *S;
            ModIncs.push_back(A);
            return;
          }
        }
        if (!Stage && isFlipOf(R, Ph, Fold)) {
          Flips.push_back(A);
          return;
        }
      }
      Ok = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Stages = 0;
  Visit(F->getBody());
  if (!Ok || Flips.empty() || Decls.size() != 2 ||
      (!ModIncs.empty() && (Incs || !Resets.empty())))
    return false;
  // Declared outside every loop: reset once, not every tile.
  for (const DeclStmt *DS : Decls)
    for (const Stmt *P = PM.getParent(DS); P; P = PM.getParent(P))
      if (isLoop(P))
        return false;

  // The if a flip or reset lies in: its then-branch holds the statement.
  auto IfOf = [&](const Stmt *X) -> const IfStmt * {
    const Stmt *C = nullptr;
    const Stmt *P = parentThroughParens(PM, X, C);
    if (const auto *Cmp = dyn_cast_or_null<CompoundStmt>(P)) {
      C = Cmp;
      P = parentThroughParens(PM, Cmp, C);
    }
    const auto *I = dyn_cast_or_null<IfStmt>(P);
    if (!I || I->getThen() != C || I->getElse() || I->getInit() ||
        I->getConditionVariable())
      return nullptr;
    return I;
  };
  // `St == S` or `++St == S` (a wrap at S), or `St == 0` (after a ModInc).
  auto WrapOf = [&](const IfStmt *I, bool &AfterMod) -> std::uint64_t {
    const auto *B = dyn_cast<BinaryOperator>(I->getCond()->IgnoreParenImpCasts());
    if (!B || (B->getOpcode() != BO_EQ && B->getOpcode() != BO_GE))
      return 0;
    const Expr *L = B->getLHS()->IgnoreParenImpCasts(),
               *R = B->getRHS()->IgnoreParenImpCasts();
    auto IsStage = [&](const Expr *E) {
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && U->getOpcode() == UO_PreInc)
        E = U->getSubExpr();
      return varOf(E) == St;
    };
    if (!IsStage(L))
      std::swap(L, R);
    if (!IsStage(L))
      return 0;
    std::optional<std::int64_t> S = Fold(R);
    if (!S || *S < 0)
      return 0;
    AfterMod = *S == 0;
    return AfterMod ? 1 : std::uint64_t(*S);
  };
  llvm::SmallPtrSet<const IfStmt *, 4> Wraps;
  for (const Stmt *X : Flips) {
    const IfStmt *I = IfOf(X);
    if (!I || !Wraps.insert(I).second)
      return false; // two flips in one wrap
    bool AfterMod = false;
    std::uint64_t S = WrapOf(I, AfterMod);
    if (!S || AfterMod != !ModIncs.empty())
      return false;
    if (AfterMod) {
      // The statement before the if is `St = (St + 1) % S`.
      const auto *Cmp = dyn_cast_or_null<CompoundStmt>(PM.getParent(I));
      if (!Cmp)
        return false;
      const Stmt *Prev = nullptr;
      for (const Stmt *Child : Cmp->body()) {
        if (Child == I)
          break;
        Prev = Child;
      }
      if (!Prev || !llvm::is_contained(ModIncs, Prev))
        return false;
    } else {
      if (Stages && Stages != S)
        return false;
      Stages = S;
    }
  }
  // Every reset lies in a wrap, one per wrap; every ModInc is followed by
  // one.
  llvm::SmallPtrSet<const IfStmt *, 4> Reset;
  for (const Stmt *X : Resets) {
    const IfStmt *I = IfOf(X);
    if (!I || !Wraps.count(I) || !Reset.insert(I).second)
      return false;
  }
  if (ModIncs.empty() ? Reset.size() != Wraps.size()
                      : ModIncs.size() != Wraps.size())
    return false;
  if (!Stages)
    return false;
  FirstPhase = static_cast<unsigned>(*P0);
  Rings[Key] = std::make_pair(Stages, FirstPhase);
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
  return R;
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
  auto Invariant = [this](const Stmt *S) { return invariant(S); };
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, At, C); P; P = parentThroughParens(PM, P, C)) {
    if (const auto *I = dyn_cast<IfStmt>(P)) {
      if (I->getCond() != C && !Invariant(I->getCond()))
        return nullptr;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (CO->getCond() != C && !Invariant(CO->getCond()))
        return nullptr;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P);
               B && B->isLogicalOp()) {
      if (B->getRHS() == C && !Invariant(B->getLHS()))
        return nullptr;
    } else if (isa<SwitchStmt, SwitchCase>(P)) {
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
  forEachRef(Kernel->getBody(), V, [&](const DeclRefExpr *D) {
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
  const Stmt *C = nullptr;
  for (const Stmt *P = parentThroughParens(PM, Steps.front(), C); P;
       P = parentThroughParens(PM, P, C)) {
    if (P == Loop)
      return true;
    if (isLoop(P) || isa<LambdaExpr, BlockExpr, SwitchStmt, SwitchCase>(P))
      return false;
    if (!Every)
      continue;
    if (const auto *I = dyn_cast<IfStmt>(P)) {
      if (I->getCond() != C && !invariant(I->getCond()))
        return false;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (CO->getCond() != C && !invariant(CO->getCond()))
        return false;
    } else if (const auto *B = dyn_cast<BinaryOperator>(P);
               B && B->isLogicalOp()) {
      if (B->getRHS() == C && !invariant(B->getLHS()))
        return false;
    } else if (isa<BinaryConditionalOperator>(P)) {
      return false;
    }
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
  forEachRef(F->getBody(), Ph, [&](const DeclRefExpr *D) {
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

  const auto *B = dyn_cast<BinaryOperator>(E);
  if (B && ((B->getOpcode() == BO_And && fold(B->getRHS()) == 1) ||
            (B->getOpcode() == BO_Rem && fold(B->getRHS()) == 2))) {
    const Expr *X = localInit(B->getLHS());
    // `(k / S) & 1` with the member `k % S`: the counter's lap.
    // `k & 1` of a counter: its lap of one step.
    const auto *D = dyn_cast<BinaryOperator>(X);
    if (D && D->getOpcode() != BO_Div)
      D = nullptr;
    const VarDecl *K = D ? varOf(D->getLHS()) : varOf(X);
    std::optional<std::int64_t> T =
        D ? fold(D->getRHS()) : std::optional<std::int64_t>(1);
    if (K && !D && (!counter(K) || X != B->getLHS()->IgnoreParenCasts()))
      K = nullptr; // `s & 1` of a stage `s = k % S`: below
    if (K && T && *T > 0) {
      std::optional<Ring> R = ringIndex(Index, nullptr);
      // One barrier waited each pass: the counter's steps bound the flips.
      if (!Index && Fixed) {
        if (!counter(K) || *T < 2)
          return Out;
        return period(1, std::uint64_t(*T), Flip, K, Kernel, At);
      }
      if (!R || !R->Counter || R->Var != K ||
          (Members && R->Stages != Members))
        return Out;
      if (R->Stages != std::uint64_t(*T))
        return period(R->Stages, std::uint64_t(*T), Flip, K, Kernel,
                      At);
      if (!D)
        return Out;
      Out.Form = ParityForm::Ring;
      Out.Bit = Flip;
      return Out;
    }
    // `s & 1` with the member `s`: the stage's bit, not its phase.
    if (!Index)
      return Out;
    const Expr *I = localInit(Index);
    const VarDecl *XV = varOf(X);
    bool Same = (XV && XV == varOf(I));
    if (!Same) {
      // Both `k % S` of the same counter.
      const auto *XB = dyn_cast<BinaryOperator>(X);
      const auto *IB = dyn_cast<BinaryOperator>(I);
      Same = XB && IB && XB->getOpcode() == BO_Rem &&
             IB->getOpcode() == BO_Rem && varOf(XB->getLHS()) &&
             varOf(XB->getLHS()) == varOf(IB->getLHS()) &&
             fold(XB->getRHS()) && fold(XB->getRHS()) == fold(IB->getRHS());
    }
    if (!Same)
      return Out;
    std::optional<std::uint64_t> Period;
    if (const auto *IB = dyn_cast<BinaryOperator>(I);
        IB && IB->getOpcode() == BO_Rem) {
      std::optional<Ring> R = ringIndex(Index, nullptr);
      if (R && (!Members || R->Stages == Members))
        Period = R->Stages;
    }
    if (!Period || *Period < 2 || !repeats(Kernel, At, *Period))
      return Out;
    Out.Form = ParityForm::StageBit;
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
        !pipelineState(St, Stages, First) || (Members && Stages != Members))
      return Out;
    Out.Form = ParityForm::Ring;
    Out.Bit = First ^ Flip;
    return Out;
  }

  // A phase bit flipped when its stage wraps.
  if (const VarDecl *Ph = varOf(E)) {
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
    if (!R || R->Counter || (Members && R->Stages != Members))
      return Out;
    Out.Form = ParityForm::Ring;
    Out.Bit = R->FirstPhase ^ Flip;
    return Out;
  }
  return Out;
}

} // namespace clang::tidy::tma
