//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/StageSlices.h"
#include "api/KernelModel.h"
#include "api/LoopParts.h"
#include "api/ThreadGuards.h"

#include "folding/ConstantFolder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

namespace clang::tidy::tma {

namespace {
/// More members than a ring has: no period is followed that far.
constexpr std::uint64_t MaxPeriod = 64;

std::optional<std::int64_t> foldInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

const VarDecl *varOf(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
}

std::string idOf(const Decl *D) {
  return std::to_string(reinterpret_cast<std::uintptr_t>(D->getCanonicalDecl()));
}

/// The CUDA builtin variable and field that the property access \p E
/// reads, e.g. "threadIdx.x". Its value never changes in a thread.
std::optional<std::string> builtinVar(const Expr *E) {
  if (!isa<PseudoObjectExpr>(E))
    return std::nullopt;
  auto V = cudaBuiltinVar(E);
  if (!V)
    return std::nullopt;
  return (V->first + "." + llvm::StringRef(&V->second, 1)).str();
}

bool isLoop(const Stmt *S) {
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}
} // namespace

/// One address being spelled.
struct StageSlices::Walk {
  Walk(StageSlices &Self, const FunctionDecl *Kernel,
       events::Substitution Subst)
      : Self(Self), Kernel(Kernel), Subst(Subst) {}
  StageSlices &Self;
  const FunctionDecl *Kernel;
  events::Substitution Subst;
  /// The innermost loop around the event's statement, and the `for`
  /// loops around it that declare their counter, innermost first.
  const Stmt *Loop = nullptr;
  llvm::SmallVector<const ForStmt *, 4> Fors;
  /// The counter of Loop when it is a `for` stepping it by one and nothing
  /// else writes it.
  const VarDecl *Counter = nullptr;
  /// Some part changes from pass to pass of Loop, not as a ring index.
  bool Varies = false;
  /// What makes it vary is only Counter as a subscript or offset: each
  /// pass names another stage, none twice.
  bool ByCounter = false, ByOther = false;
  unsigned Rings = 0;
  std::uint64_t Members = 0;
  bool Root = false;
  unsigned Steps = 0;
  /// A part of it is the thread's index (`threadIdx.x / 32`): the same
  /// expression names another stage in another thread.
  bool PerThread = false;

  /// \p Index: \p E is an index that selects a distinct stage for each of
  /// its values (a subscript, the offset of a pointer, a non-zero multiple
  /// of either).
  bool key(const Expr *E, bool Index, std::string &Out) {
    if (!E || ++Steps > 256)
      return false;
    E = E->IgnoreParens();
    if (std::optional<std::int64_t> V = foldInt(E, Self.Ctx)) {
      Out += "#" + std::to_string(*V);
      return true;
    }
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      if (C->getCastKind() == CK_UserDefinedConversion ||
          C->getCastKind() == CK_ConstructorConversion)
        return false;
      // A value loaded from memory may differ between two loads of it;
      // a variable's is followed in leaf().
      if (C->getCastKind() == CK_LValueToRValue &&
          !isa<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
        return false;
      return key(C->getSubExpr(), Index, Out);
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return leaf(D, Index, Out);
    // threadIdx, blockIdx, blockDim, gridDim: fixed for the thread's life.
    if (std::optional<std::string> B = builtinVar(E)) {
      PerThread |= llvm::StringRef(*B).starts_with("threadIdx");
      Out += "%" + *B;
      return true;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return binary(B, Index, Out);
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Out += "[";
      if (!key(A->getBase(), false, Out))
        return false;
      Out += " ";
      if (!key(A->getIdx(), true, Out))
        return false;
      Out += "]";
      return true;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Deref)
        return false;
      Out += U->getOpcode() == UO_AddrOf ? "&" : "*";
      return key(U->getSubExpr(), false, Out);
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (!key(M->getBase(), false, Out))
        return false;
      Out += (M->isArrow() ? "->" : ".") + idOf(M->getMemberDecl());
      return true;
    }
    return false;
  }

  bool leaf(const DeclRefExpr *D, bool Index, std::string &Out) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (!VD)
      return false;
    if (VD->hasAttr<CUDASharedAttr>()) {
      Root = true;
      Out += "@" + idOf(VD);
      return true;
    }
    // A helper's parameter, a local pointer or integer never written:
    // what it stands for.
    if (const Expr *S = Subst(VD))
      return key(S, Index, Out);
    if (VD->getParentFunctionOrMethod() != Kernel)
      return false;
    Out += "$" + idOf(VD);
    if (VD == Counter) {
      Varies = true; // not in a ring index (binary() takes those)
      (Index ? ByCounter : ByOther) = true;
      return true;
    }
    // The counter of a `for` around the statement, stepped only there:
    // the same in one pass of each loop it is declared in.
    for (const ForStmt *F : Fors) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      if (DS && DS->isSingleDecl() && DS->getSingleDecl() == VD) {
        Varies |= F == Loop;
        ByOther |= F == Loop;
        return Self.steppedOnlyBy(VD, F, Kernel->getBody());
      }
    }
    if (Self.written(VD))
      return false;
    // Declared in the loop: a new value each pass.
    if (Loop && !isa<ParmVarDecl>(VD)) {
      const SourceManager &SM = Self.Ctx.getSourceManager();
      SourceLocation L = SM.getExpansionLoc(VD->getLocation());
      if (SM.isPointWithin(L, SM.getExpansionLoc(Loop->getBeginLoc()),
                           SM.getExpansionLoc(Loop->getEndLoc()))) {
        Varies = true;
        ByOther = true;
      }
    }
    return true;
  }

  bool binary(const BinaryOperator *B, bool Index, std::string &Out) {
    const BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Rem && Counter && varOf(B->getLHS()) == Counter) {
      std::optional<std::int64_t> N = foldInt(B->getRHS(), Self.Ctx);
      if (!N || *N < 1)
        return false;
      ++Rings;
      Members = static_cast<std::uint64_t>(*N);
      Varies |= !Index;
      ByOther |= !Index;
      Out += "(%$" + idOf(Counter) + " #" + std::to_string(*N) + ")";
      return true;
    }
    // The ring index of an outer loop's counter (a write in a loop nested
    // in the ring's: `out[it % S][i]` in `for (i ...)`): the same in one
    // pass of that loop, spelled as the copy outside the nested loop
    // spells it.
    if (Op == BO_Rem)
      if (const VarDecl *K = varOf(B->getLHS()))
        for (const ForStmt *F : Fors) {
          const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
          if (F == Loop || !DS || !DS->isSingleDecl() ||
              DS->getSingleDecl() != K)
            continue;
          std::optional<std::int64_t> N = foldInt(B->getRHS(), Self.Ctx);
          if (!N || *N < 1 || !Self.steppedOnlyBy(K, F, Kernel->getBody()))
            return false;
          Out += "(%$" + idOf(K) + " #" + std::to_string(*N) + ")";
          return true;
        }
    if (!B->isAdditiveOp() && !B->isMultiplicativeOp() && !B->isShiftOp() &&
        !B->isBitwiseOp())
      return false;
    bool LIndex = false, RIndex = false;
    if (B->getType()->isPointerType() && Op == BO_Add) {
      LIndex = !B->getLHS()->getType()->isPointerType();
      RIndex = !LIndex;
    } else if (Op == BO_Mul && Index) {
      auto NonZero = [&](const Expr *X) {
        std::optional<std::int64_t> V = foldInt(X, Self.Ctx);
        return V && *V != 0;
      };
      LIndex = NonZero(B->getRHS());
      RIndex = NonZero(B->getLHS());
    }
    Out += "(" + BinaryOperator::getOpcodeStr(Op).str() + " ";
    if (!key(B->getLHS(), LIndex, Out))
      return false;
    Out += " ";
    if (!key(B->getRHS(), RIndex, Out))
      return false;
    Out += ")";
    return true;
  }
};

bool StageSlices::steppedOnlyBy(const VarDecl *K, const ForStmt *F,
                                const Stmt *Body) {
  auto [It, Inserted] = Stepped.try_emplace(K, false);
  if (!Inserted)
    return It->second;
  const Stmt *Inc = F->getInc();
  bool Other = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Other || S == Inc)
      return;
    if (const auto *C = dyn_cast<ImplicitCastExpr>(S);
        C && C->getCastKind() == CK_LValueToRValue &&
        isa<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
      return;
    if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
      Other |= D->getDecl() == K;
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &Cap : L->captures())
        Other |= Cap.capturesVariable() && Cap.getCapturedVar() == K &&
                 Cap.getCaptureKind() == LCK_ByRef;
      Visit(L->getBody());
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Body);
  return It->second = Inc && !Other;
}

bool StageSlices::written(const VarDecl *VD) {
  QualType T = VD->getType();
  return (!T->isPointerType() && !T->isIntegerType()) ||
         !Aliases.neverWritten(VD);
}

std::optional<StageSlice>
StageSlices::sliceOf(const Expr *Addr, bool Element, const FunctionDecl *Kernel,
                     const Stmt *At, bool InLoop,
                     events::Substitution Subst) {
  if (!Addr || !Kernel || !Kernel->getBody() || !At)
    return std::nullopt;
  Walk W(*this, Kernel, Subst);
  // The loops around the statement, from the kernel's parent map.
  const ParentMap &PM = Folder.parentsOf(Kernel);
  bool InBody = true;
  for (const Stmt *Prev = At, *P = PM.getParent(At); P;
       Prev = P, P = PM.getParent(P)) {
    if (!isLoop(P))
      continue;
    if (!W.Loop) {
      W.Loop = P;
      // A range `for` has no counter to spell a period with: as if the
      // statement were outside its body.
      InBody = !isa<CXXForRangeStmt>(P) && Prev == loopBody(P);
    }
    if (const auto *F = dyn_cast<ForStmt>(P))
      W.Fors.push_back(F);
  }
  if (const auto *F = dyn_cast_or_null<ForStmt>(W.Loop)) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
    const auto *K = DS && DS->isSingleDecl()
                        ? dyn_cast<VarDecl>(DS->getSingleDecl())
                        : nullptr;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    bool ByOne = false;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
      ByOne = U->isIncrementOp() && varOf(U->getSubExpr()) == K;
    else if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      ByOne = A->getOpcode() == BO_AddAssign && varOf(A->getLHS()) == K &&
              foldInt(A->getRHS(), Ctx) == 1;
    if (K && ByOne && K->getType()->isIntegerType() &&
        steppedOnlyBy(K, F, Kernel->getBody()))
      W.Counter = K;
  }

  // The stage: an address without its casts, what its local pointer or
  // helper parameter stands for, `&stage[0]` as `stage`; for a written
  // element, the array it is an element of.
  const Expr *E = Addr;
  for (unsigned Steps = 0; E && Steps < 64; ++Steps) {
    E = E->IgnoreParenCasts();
    if (Element) {
      if (const auto *M = dyn_cast<MemberExpr>(E);
          M && events::selectsElementPart(*M)) {
        E = M->getBase();
        continue;
      }
      const auto *A = dyn_cast<ArraySubscriptExpr>(E);
      if (!A)
        return std::nullopt;
      E = A->getBase()->IgnoreParenImpCasts();
      // A stage is a part of the buffer, not the buffer itself.
      if (!isa<ArraySubscriptExpr, MemberExpr>(E) ||
          !Ctx.getAsConstantArrayType(E->getType()))
        return std::nullopt;
      break;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      const Expr *S = VD && !VD->hasAttr<CUDASharedAttr>() ? Subst(VD) : nullptr;
      if (!S)
        break;
      E = S;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      if (const auto *A =
              dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
          A && foldInt(A->getIdx(), Ctx) == 0 &&
          Ctx.getAsConstantArrayType(A->getBase()->IgnoreParenImpCasts()->getType())) {
        E = A->getBase();
        continue;
      }
    break;
  }
  if (!E)
    return std::nullopt;
  StageSlice Out;
  if (!W.key(E, false, Out.Key) || !W.Root)
    return std::nullopt;
  Out.PerThread = W.PerThread;
  if (const auto *Arr = Ctx.getAsConstantArrayType(E->getType());
      Arr && !E->getType()->isIncompleteType())
    Out.Bytes = static_cast<std::uint64_t>(
        Ctx.getTypeSizeInChars(E->getType()).getQuantity());
  if (InLoop || !W.Loop || !InBody || W.Rings > 1)
    return Out;
  if (W.Varies) {
    Out.Once = W.ByCounter && !W.ByOther && W.Rings == 0;
    return Out;
  }
  if (W.Rings == 0) {
    Out.Period = 1;
    return Out;
  }
  if (W.Members > MaxPeriod)
    return Out;
  // A loop of a known trip count that never comes back to a stage.
  const auto *F = cast<ForStmt>(W.Loop);
  const auto *C =
      dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  const auto *DS = cast<DeclStmt>(F->getInit());
  const Expr *Init = cast<VarDecl>(DS->getSingleDecl())->getInit();
  if (C && varOf(C->getLHS()) == W.Counter && Init)
    if (auto Hi = foldInt(C->getRHS(), Ctx))
      if (auto Lo = foldInt(Init, Ctx)) {
        std::int64_t Trips = *Hi - *Lo + (C->getOpcode() == BO_LE ? 1 : 0);
        if (Trips <= static_cast<std::int64_t>(W.Members)) {
          Out.Once = true;
          return Out;
        }
      }
  Out.Period = static_cast<unsigned>(W.Members);
  return Out;
}

} // namespace clang::tidy::tma
