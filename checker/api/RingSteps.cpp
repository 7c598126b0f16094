//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// How a function body steps a ring's stage and phase bit (RingSteps.h).
//
//===----------------------------------------------------------------------===//

#include "api/RingSteps.h"
#include "folding/Uses.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::tma::waitparity {

namespace {

/// A stride: a variable other than the stage and phase, or a constant
/// that is not negative.
bool isStride(const Expr *N, const VarDecl *St, const VarDecl *Ph,
              const FoldFn &Fold) {
  if (const VarDecl *V = varOf(N))
    return V != St && V != Ph;
  std::optional<std::int64_t> C = Fold(N);
  return C && *C >= 0;
}

/// The same stride: one variable, or one constant.
bool sameStride(const Expr *A, const Expr *B, const FoldFn &Fold) {
  if (const VarDecl *V = varOf(A))
    return V == varOf(B);
  std::optional<std::int64_t> C = Fold(A);
  return C && !varOf(B) && C == Fold(B);
}

/// `St + N` (either order): N, else null.
const Expr *strideOf(const Expr *E, const VarDecl *St, const VarDecl *Ph,
                     const FoldFn &Fold) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
  if (!B || B->getOpcode() != BO_Add)
    return nullptr;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  if (varOf(L) != St)
    std::swap(L, R);
  return varOf(L) == St && isStride(R, St, Ph, Fold) ? R : nullptr;
}

/// `X / S` of a positive S: X and S, else null.
const Expr *divided(const Expr *E, std::uint64_t &S, const FoldFn &Fold) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenCasts());
  if (!B || B->getOpcode() != BO_Div)
    return nullptr;
  std::optional<std::int64_t> C = Fold(B->getRHS());
  if (!C || *C <= 0)
    return nullptr;
  S = std::uint64_t(*C);
  return B->getLHS();
}

/// `Ph ^= X`, `Ph = Ph ^ X`, `Ph = X ^ Ph`: X, else null.
const Expr *phaseXor(const Stmt *S, const VarDecl *Ph) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  if (!B || varOf(B->getLHS()) != Ph)
    return nullptr;
  if (B->getOpcode() == BO_XorAssign)
    return B->getRHS();
  if (B->getOpcode() != BO_Assign)
    return nullptr;
  const auto *X = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenCasts());
  if (!X || X->getOpcode() != BO_Xor)
    return nullptr;
  if (varOf(X->getLHS()) == Ph)
    return X->getRHS();
  return varOf(X->getRHS()) == Ph ? X->getLHS() : nullptr;
}

/// `St = (St + 1) % S` or `St = St == S - 1 ? 0 : St + 1` (also `St + 1
/// == S`, `>=`, and `!=` with the arms swapped): S, else 0.
std::uint64_t modIncStages(const Expr *R, const VarDecl *St,
                           const FoldFn &Fold) {
  R = R->IgnoreParenCasts();
  if (const auto *M = dyn_cast<BinaryOperator>(R);
      M && M->getOpcode() == BO_Rem && isPlusOne(M->getLHS(), St, Fold)) {
    std::optional<std::int64_t> S = Fold(M->getRHS());
    return S && *S > 0 ? std::uint64_t(*S) : 0;
  }
  const auto *CO = dyn_cast<ConditionalOperator>(R);
  const auto *C =
      CO ? dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts())
         : nullptr;
  if (!C || (C->getOpcode() != BO_EQ && C->getOpcode() != BO_NE &&
             C->getOpcode() != BO_GE))
    return 0;
  const Expr *Zero = CO->getTrueExpr(), *Next = CO->getFalseExpr();
  if (C->getOpcode() == BO_NE)
    std::swap(Zero, Next);
  if (Fold(Zero) != 0 || !isPlusOne(Next, St, Fold))
    return 0;
  const Expr *L = C->getLHS(), *K = C->getRHS();
  std::optional<std::int64_t> V = Fold(K);
  if (!V || *V < 0)
    return 0;
  if (varOf(L) == St)
    return std::uint64_t(*V) + 1; // St == S - 1
  if (isPlusOne(L, St, Fold) && *V > 0)
    return std::uint64_t(*V); // St + 1 == S
  return 0;
}

/// The statements of \p Body that step \p St and \p Ph by a stride, as one
/// unit each (RingSteps.h), and their wrap sizes.
void strides(const Stmt *Body, const VarDecl *St, const VarDecl *Ph,
             const FoldFn &Fold, llvm::SmallPtrSetImpl<const Stmt *> &Covered,
             llvm::SmallVectorImpl<std::uint64_t> &Sizes) {
  if (!Body)
    return;
  if (const auto *Cmp = dyn_cast<CompoundStmt>(Body)) {
    llvm::SmallVector<const Stmt *, 16> B(Cmp->body());
    for (std::size_t I = 0; I < B.size(); ++I) {
      // `Ph ^= ((St + N) / S) & 1; St = (St + N) % S;`
      if (I + 1 < B.size()) {
        std::uint64_t S = 0;
        const Expr *X = phaseXor(B[I], Ph);
        const Expr *Bit = X ? lowBit(X, Fold) : nullptr;
        const Expr *Sum = Bit ? divided(Bit, S, Fold) : nullptr;
        const Expr *N = Sum ? strideOf(Sum, St, Ph, Fold) : nullptr;
        const auto *A = dyn_cast<BinaryOperator>(B[I + 1]);
        const auto *M =
            A && A->getOpcode() == BO_Assign && varOf(A->getLHS()) == St
                ? dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenCasts())
                : nullptr;
        const Expr *N2 = M && M->getOpcode() == BO_Rem &&
                                 Fold(M->getRHS()) == std::int64_t(S)
                             ? strideOf(M->getLHS(), St, Ph, Fold)
                             : nullptr;
        if (N && N2 && sameStride(N, N2, Fold)) {
          Covered.insert(B[I]);
          Covered.insert(B[I + 1]);
          Sizes.push_back(S);
          ++I;
          continue;
        }
      }
      // `St += N; Ph ^= (St / S) & 1; St %= S;`
      if (I + 2 < B.size()) {
        const auto *Add = dyn_cast<CompoundAssignOperator>(B[I]);
        std::uint64_t S = 0;
        const Expr *X = phaseXor(B[I + 1], Ph);
        const Expr *Bit = X ? lowBit(X, Fold) : nullptr;
        const Expr *Q = Bit ? divided(Bit, S, Fold) : nullptr;
        const auto *Wrap = dyn_cast<BinaryOperator>(B[I + 2]);
        bool Wraps = false;
        if (Wrap && varOf(Wrap->getLHS()) == St) {
          if (Wrap->getOpcode() == BO_RemAssign)
            Wraps = Fold(Wrap->getRHS()) == std::int64_t(S);
          else if (const auto *M = dyn_cast<BinaryOperator>(
                       Wrap->getRHS()->IgnoreParenCasts());
                   Wrap->getOpcode() == BO_Assign && M &&
                   M->getOpcode() == BO_Rem)
            Wraps = varOf(M->getLHS()) == St &&
                    Fold(M->getRHS()) == std::int64_t(S);
        }
        if (Add && Add->getOpcode() == BO_AddAssign &&
            varOf(Add->getLHS()) == St &&
            isStride(Add->getRHS(), St, Ph, Fold) && Q && varOf(Q) == St &&
            Wraps) {
          Covered.insert(B[I]);
          Covered.insert(B[I + 1]);
          Covered.insert(B[I + 2]);
          Sizes.push_back(S);
          I += 2;
          continue;
        }
      }
    }
  }
  for (const Stmt *C : Body->children())
    strides(C, St, Ph, Fold, Covered, Sizes);
}

/// Whether \p T is `int &` of a non-const integer.
bool intRef(QualType T) {
  return T->isLValueReferenceType() && T->getPointeeType()->isIntegerType() &&
         !T->getPointeeType().isConstQualified();
}

} // namespace

struct RingSteps::Sites {
  unsigned Incs = 0;
  llvm::SmallVector<const Stmt *, 4> Resets, ModIncs, Flips, PredFlips;
  llvm::SmallPtrSet<const Stmt *, 4> Calls;
  /// A helper called whose steps need the stage below S on entry.
  bool UnitCalls = false;
  /// A helper called that steps by a stride.
  bool Strides = false;
  /// The wrap sizes of every step form seen (must all agree).
  llvm::SmallVector<std::uint64_t, 4> Sizes;
};

std::optional<RingSteps::Helper>
RingSteps::helper(const FunctionDecl *FD, unsigned StI, unsigned PhI,
                  unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD || Depth > 3 || !FD->hasBody(Def) || !Def || !Def->getBody() ||
      StI >= Def->getNumParams() || PhI >= Def->getNumParams() || StI == PhI)
    return std::nullopt;
  auto Key = std::make_tuple(Def, StI, PhI);
  if (auto It = Helpers.find(Key); It != Helpers.end())
    return It->second;
  Helpers[Key] = std::nullopt; // recursion
  const ParmVarDecl *St = Def->getParamDecl(StI), *Ph = Def->getParamDecl(PhI);
  if (!intRef(St->getType()) || !intRef(Ph->getType()))
    return std::nullopt;
  llvm::SmallVector<const DeclStmt *, 2> Decls;
  std::optional<Helper> H =
      judge(Def->getBody(), Parents(Def), St, Ph, Depth + 1, Decls);
  Helpers[Key] = H;
  return H;
}

std::optional<RingSteps::Ring>
RingSteps::stages(const FunctionDecl *F, const VarDecl *St, const VarDecl *Ph,
                  llvm::SmallVectorImpl<const DeclStmt *> &Decls) {
  if (!F || !F->getBody())
    return std::nullopt;
  std::optional<Helper> H = judge(F->getBody(), Parents(F), St, Ph, 0, Decls);
  if (!H)
    return std::nullopt;
  return Ring{H->Stages, H->Strides};
}

std::optional<RingSteps::Helper>
RingSteps::judge(const Stmt *Body, const ParentMap &PM, const VarDecl *St,
                 const VarDecl *Ph, unsigned Depth,
                 llvm::SmallVectorImpl<const DeclStmt *> &Decls) {
  Sites W;
  llvm::SmallPtrSet<const Stmt *, 8> Covered;
  strides(Body, St, Ph, Fold, Covered, W.Sizes);
  bool Ok = true;
  // A call that binds both to reference parameters of a helper whose body
  // steps them (a lambda's `operator()` too).
  auto Call = [&](const CallExpr *CE) {
    if (W.Calls.count(CE))
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || (isa<CXXMemberCallExpr>(CE)))
      return false;
    unsigned Shift = 0;
    if (isa<CXXOperatorCallExpr>(CE)) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return false;
      Shift = 1;
    }
    std::optional<unsigned> StI, PhI;
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      const auto *D = dyn_cast<DeclRefExpr>(CE->getArg(I)->IgnoreParens());
      const VarDecl *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      std::optional<unsigned> &Slot = V == St ? StI : PhI;
      if (V != St && V != Ph)
        continue;
      if (Slot || I - Shift >= FD->getNumParams() ||
          !intRef(FD->getParamDecl(I - Shift)->getType()))
        return false;
      Slot = I - Shift;
    }
    if (!StI || !PhI)
      return false;
    std::optional<Helper> H = helper(FD, *StI, *PhI, Depth);
    if (!H)
      return false;
    W.Calls.insert(CE);
    W.Sizes.push_back(H->Stages);
    W.UnitCalls |= !H->Exact;
    W.Strides |= H->Strides;
    return true;
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Ok || Covered.count(S))
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == St || D == Ph)
          Decls.push_back(DS);
    // A mutable lambda's copy of the stage or phase is its own: its writes
    // are no steps of the ring, though they name the same variable.
    if (const auto *L = dyn_cast<LambdaExpr>(S); L && L->isMutable())
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy &&
            (C.getCapturedVar() == St || C.getCapturedVar() == Ph)) {
          Ok = false;
          return;
        }
    if (const auto *D = dyn_cast<DeclRefExpr>(S);
        D && (D->getDecl() == St || D->getDecl() == Ph)) {
      bool Stage = D->getDecl() == St;
      const Stmt *C = nullptr;
      const Stmt *P = parentThroughParens(PM, D, C);
      if (readsOnly(PM, P, C))
        return;
      // A lambda's capture by reference: its body's uses are seen there
      // (an init capture `[&s = stage]` names another variable: not seen).
      if (const auto *L = dyn_cast_or_null<LambdaExpr>(P)) {
        bool Captured = false;
        for (const LambdaCapture &Cap : L->captures())
          if (Cap.capturesVariable() && Cap.getCapturedVar() == D->getDecl())
            Captured = Cap.getCaptureKind() == LCK_ByRef || !L->isMutable();
        Ok &= Captured;
        return;
      }
      if (const auto *CE = dyn_cast_or_null<CallExpr>(P)) {
        Ok &= Call(CE);
        return;
      }
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
          Stage && U && U->isIncrementOp()) {
        ++W.Incs;
        return;
      }
      if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P);
          CA && CA->getLHS() == C) {
        if (Stage && CA->getOpcode() == BO_AddAssign &&
            Fold(CA->getRHS()) == 1) {
          ++W.Incs;
          return;
        }
        if (!Stage && CA->getOpcode() == BO_XorAssign &&
            Fold(CA->getRHS()) == 1) {
          W.Flips.push_back(CA);
          return;
        }
        // `Ph ^= St == 0`, after `St = (St + 1) % S`.
        const auto *Z = dyn_cast<BinaryOperator>(CA->getRHS()->IgnoreParenCasts());
        if (!Stage && CA->getOpcode() == BO_XorAssign && Z &&
            Z->getOpcode() == BO_EQ &&
            ((varOf(Z->getLHS()) == St && Fold(Z->getRHS()) == 0) ||
             (varOf(Z->getRHS()) == St && Fold(Z->getLHS()) == 0))) {
          W.PredFlips.push_back(CA);
          return;
        }
      }
      if (const auto *A = dyn_cast_or_null<BinaryOperator>(P);
          A && A->getOpcode() == BO_Assign && A->getLHS() == C) {
        const Expr *R = A->getRHS()->IgnoreParenCasts();
        if (Stage && Fold(R) == 0) {
          W.Resets.push_back(A);
          return;
        }
        if (std::uint64_t S = Stage ? modIncStages(R, St, Fold) : 0) {
          W.Sizes.push_back(S);
          W.ModIncs.push_back(A);
          return;
        }
        if (!Stage && isFlipOf(R, Ph, Fold)) {
          W.Flips.push_back(A);
          return;
        }
      }
      Ok = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Body);
  if (!Ok || (!W.ModIncs.empty() && (W.Incs || !W.Resets.empty())))
    return std::nullopt;
  // A stage stepped inline by one may stand at S until its wrap: a helper
  // that steps it by one from there would miss the wrap.
  if (W.Incs && (W.UnitCalls || W.Flips.empty()))
    return std::nullopt;
  if (W.Flips.empty() && W.PredFlips.empty() && W.Calls.empty() &&
      Covered.empty())
    return std::nullopt;

  // The statement before \p X in its compound statement.
  auto Before = [&](const Stmt *X) -> const Stmt * {
    const auto *Cmp = dyn_cast_or_null<CompoundStmt>(PM.getParent(X));
    if (!Cmp)
      return nullptr;
    const Stmt *Prev = nullptr;
    for (const Stmt *Child : Cmp->body()) {
      if (Child == X)
        return Prev;
      Prev = Child;
    }
    return nullptr;
  };
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
    const auto *B =
        dyn_cast<BinaryOperator>(I->getCond()->IgnoreParenImpCasts());
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
  for (const Stmt *X : W.Flips) {
    const IfStmt *I = IfOf(X);
    if (!I || !Wraps.insert(I).second)
      return std::nullopt; // two flips in one wrap
    bool AfterMod = false;
    std::uint64_t S = WrapOf(I, AfterMod);
    if (!S || AfterMod != !W.ModIncs.empty())
      return std::nullopt;
    if (AfterMod) {
      // The statement before the if is `St = (St + 1) % S`.
      const Stmt *Prev = Before(I);
      if (!Prev || !llvm::is_contained(W.ModIncs, Prev))
        return std::nullopt;
    } else {
      W.Sizes.push_back(S);
    }
  }
  for (const Stmt *X : W.PredFlips) {
    const Stmt *Prev = Before(X);
    if (!Prev || !llvm::is_contained(W.ModIncs, Prev))
      return std::nullopt;
  }
  // Every reset lies in a wrap, one per wrap; every ModInc is followed by
  // one flip.
  llvm::SmallPtrSet<const IfStmt *, 4> Reset;
  for (const Stmt *X : W.Resets) {
    const IfStmt *I = IfOf(X);
    if (!I || !Wraps.count(I) || !Reset.insert(I).second)
      return std::nullopt;
  }
  if (W.ModIncs.empty()
          ? Reset.size() != Wraps.size() || !W.PredFlips.empty()
          : W.ModIncs.size() != Wraps.size() + W.PredFlips.size())
    return std::nullopt;
  if (W.Sizes.empty() || llvm::any_of(W.Sizes, [&](std::uint64_t S) {
        return S != W.Sizes.front();
      }))
    return std::nullopt;
  Helper H;
  H.Stages = W.Sizes.front();
  H.Exact = !W.Incs && W.ModIncs.empty() && !W.UnitCalls && Wraps.empty() &&
            W.PredFlips.empty();
  H.Strides = W.Strides || !Covered.empty();
  return H;
}

} // namespace clang::tidy::tma::waitparity
