//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Which buffer a shared-memory address names, for the kernel model:
// LocalAliases (the locals that stand for a pointer or integer address,
// assigned once or moved only by offsets) and sharedRoot (an expression's
// __shared__ variable through those locals, bound parameters, members,
// offsets and the cvta helpers). The model's queries are in
// KernelModel.cpp, its construction in KernelModelBuilder.cpp.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModel.h"
#include "api/KernelModelBuild.h"
#include "api/KernelEvents.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::tma {

using namespace kmodel;
namespace {
/// The pointer and integer locals declared without an initialiser and
/// assigned by the very next statement of their block (`int smem; smem =
/// cvta(buf);`): the assignment stands for the initialiser.
void collectAssignedOnce(
    const Stmt *S, llvm::DenseMap<const VarDecl *, const BinaryOperator *> &Out) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    const Stmt *Prev = nullptr;
    for (const Stmt *Cur : CS->body()) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(Prev);
      const auto *VD = DS && DS->isSingleDecl()
                           ? dyn_cast<VarDecl>(DS->getSingleDecl())
                           : nullptr;
      const auto *A = dyn_cast<BinaryOperator>(Cur);
      if (VD && !VD->getInit() && VD->isLocalVarDecl() &&
          !VD->isStaticLocal() &&
          (VD->getType()->isPointerType() || VD->getType()->isIntegerType()) &&
          A && A->getOpcode() == BO_Assign)
        if (const auto *D =
                dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens());
            D && D->getDecl() == VD)
          Out[VD] = A;
      Prev = Cur;
    }
  }
  for (const Stmt *Child : S->children())
    collectAssignedOnce(Child, Out);
}

/// Marks the variables of pointer or integer type that a use under \p S
/// may write: any reference to one that is not a plain load of its value
/// (but the left side of an assignment in \p Once). A const local is
/// never written.
void collectWritten(
    const Stmt *S, llvm::DenseSet<const VarDecl *> &Out,
    const llvm::DenseMap<const VarDecl *, const BinaryOperator *> &Once,
    llvm::DenseSet<const VarDecl *> &Moved) {
  if (!S)
    return;
  // `a += n`, `a -= n`, `++a`: a moves within the buffer it points into.
  auto MovedVar = [](const Expr *E) -> const VarDecl * {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return VD && (VD->getType()->isPointerType() ||
                  VD->getType()->isIntegerType())
               ? VD
               : nullptr;
  };
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(S);
      CA && (CA->getOpcode() == BO_AddAssign ||
             CA->getOpcode() == BO_SubAssign))
    if (const VarDecl *VD = MovedVar(CA->getLHS())) {
      Moved.insert(VD);
      collectWritten(CA->getRHS(), Out, Once, Moved);
      return;
    }
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    if (const VarDecl *VD = MovedVar(U->getSubExpr())) {
      Moved.insert(VD);
      return;
    }
  if (const auto *C = dyn_cast<ImplicitCastExpr>(S);
      C && C->getCastKind() == CK_LValueToRValue &&
      isa<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
    return; // a read of the value
  auto Mark = [&](const VarDecl *VD) {
    if (!VD->getType().isConstQualified())
      Out.insert(VD);
  };
  if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl());
        VD &&
        (VD->getType()->isPointerType() || VD->getType()->isIntegerType()))
      Mark(VD);
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->getOpcode() == BO_Assign)
    if (const auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
      if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (auto It = Once.find(VD); It != Once.end() && It->second == B) {
          collectWritten(B->getRHS(), Out, Once, Moved);
          return;
        }
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    // An input operand is read, whether the target's constraint takes it
    // as a value or (the host pass: "l" is no x86 register) an lvalue.
    for (const Expr *O : A->outputs())
      collectWritten(O, Out, Once, Moved);
    for (const Expr *In : A->inputs())
      if (!isa<DeclRefExpr>(In->IgnoreParenImpCasts()))
        collectWritten(In, Out, Once, Moved);
    return;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // A capture by reference may write it in the lambda.
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(Cap.getCapturedVar()))
          Mark(VD);
    collectWritten(L->getBody(), Out, Once, Moved);
    return;
  }
  for (const Stmt *Child : S->children())
    collectWritten(Child, Out, Once, Moved);
}
} // namespace

const Expr *LocalAliases::initOf(const VarDecl *VD) {
  if (!VD->isLocalVarDecl() || VD->hasAttr<CUDASharedAttr>() ||
      VD->isStaticLocal())
    return nullptr;
  QualType T = VD->getType();
  if (T->isReferenceType())
    return VD->getInit();
  if (!T->isPointerType() && !T->isIntegerType())
    return nullptr;
  const Expr *Init = VD->getInit();
  if (!Init) {
    const FunctionInfo *F = infoOf(VD);
    auto It = F ? F->Once.find(VD) : decltype(F->Once)::const_iterator();
    if (!F || It == F->Once.end())
      return nullptr;
    Init = It->second->getRHS();
  }
  return neverWritten(VD) ? Init : nullptr;
}

const Expr *LocalAliases::rootInitOf(const VarDecl *VD) {
  if (const Expr *Init = initOf(VD))
    return Init;
  const FunctionInfo *F = infoOf(VD);
  if (!F || !F->OnlyMoved.count(VD) || !VD->isLocalVarDecl() ||
      VD->isStaticLocal() || VD->hasAttr<CUDASharedAttr>())
    return nullptr;
  return VD->getInit();
}

bool LocalAliases::neverWritten(const VarDecl *VD) {
  const FunctionInfo *F = infoOf(VD);
  return F && !F->Written.count(VD);
}

const LocalAliases::FunctionInfo *LocalAliases::infoOf(const VarDecl *VD) {
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return nullptr;
  auto [It, Inserted] = Functions.try_emplace(FD);
  if (Inserted) {
    collectAssignedOnce(FD->getBody(), It->second.Once);
    llvm::DenseSet<const VarDecl *> Moved;
    collectWritten(FD->getBody(), It->second.Written, It->second.Once,
                   Moved);
    // Moved only: written by offsets and nothing else.
    for (const VarDecl *VD : Moved)
      if (!It->second.Written.count(VD) && !VD->getType().isConstQualified())
        It->second.OnlyMoved.insert(VD);
    for (const VarDecl *VD : Moved)
      It->second.Written.insert(VD);
  }
  return &It->second;
}

namespace {
/// Whether \p E is an offset of an integer address rather than the
/// address: a constant, or a run-time term `x * C`, `x << C`.
bool windowOffset(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  auto Folds = [&](const Expr *X) {
    Expr::EvalResult R;
    return !X->isValueDependent() && X->EvaluateAsInt(R, Ctx);
  };
  if (Folds(E))
    return true;
  const auto *B = dyn_cast<BinaryOperator>(E);
  return B && ((B->getOpcode() == BO_Mul &&
                (Folds(B->getLHS()) || Folds(B->getRHS()))) ||
               (B->getOpcode() == BO_Shl && Folds(B->getRHS())));
}
/// The constant part of the offset \p E adds to an address, in units of
/// \p Scale bytes, into \p Region: constants add, run-time terms scaled by
/// a constant (`s * STAGE`, `k << 10`), other arithmetic of run-time
/// values, calls and locals written in place add nothing (a family's
/// member, a lane's offset), locals never written add what their
/// initialisers add; a kernel parameter or a choice (`c ? a : b`) makes
/// the region unknown.
void addOffset(const Expr *E, std::int64_t Scale, PoolRegion &Region,
               const ParamBindings *Bindings, LocalAliases &Aliases,
               unsigned &Budget) {
  if (!Region.Known || !Budget || !Aliases.Ctx)
    return;
  --Budget;
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, *Aliases.Ctx)) {
    Region.Bytes += R.Val.getInt().getExtValue() * Scale;
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
      addOffset(B->getLHS(), Scale, Region, Bindings, Aliases, Budget);
      addOffset(B->getRHS(), B->getOpcode() == BO_Sub ? -Scale : Scale,
                Region, Bindings, Aliases, Budget);
      return;
    }
    // `s * STAGE`, `(i / S) & 1`...: a run-time term.
    Region.Start = false;
    return;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD); P && Bindings)
      if (const Expr *Arg = Bindings->lookup(P)) {
        addOffset(Arg, Scale, Region, Bindings, Aliases, Budget);
        return;
      }
    if (const Expr *Init = VD ? Aliases.initOf(VD) : nullptr) {
      addOffset(Init, Scale, Region, Bindings, Aliases, Budget);
      return;
    }
    // A kernel's parameter may carve any region (`smem + p.bias_off`); a
    // local written in place is a counter or a lane's offset.
    if (isa_and_nonnull<ParmVarDecl>(VD))
      Region.Known = false;
    Region.Start = false;
    return;
  }
  // A choice may pick either region; a call (`swizzle(row, col)`) is a
  // lane's offset in its tile.
  if (isa<ConditionalOperator, BinaryConditionalOperator>(E))
    Region.Known = false;
  // Anything else (`threadIdx.x`, a unary minus...) is a run-time term.
  Region.Start = false;
}

/// The size of \p T in bytes, or 0 when it has none.
std::int64_t bytesOf(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
      T->isVoidType())
    return 0;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}
} // namespace

const VarDecl *sharedRoot(const Expr *E, bool &Whole,
                          const ParamBindings *Bindings, std::string *Path,
                          bool Access, LocalAliases *Aliases,
                          PoolRegion *Region) {
  Whole = true;
  if (Path)
    Path->clear();
  bool Derefs = false;
  // The pool region: offsets add up until a field is selected (what lies
  // outside it is within the field) or the address is rounded (`& ~127`:
  // what lies inside is the rounding's).
  PoolRegion Here;
  bool Rounded = false;
  unsigned TermBudget = 64;
  // \p Term units of \p Unit (null: bytes; a pointee or element type).
  auto Offset = [&](const Expr *Term, const Type *Unit, bool Minus = false) {
    if (Region && Aliases && Aliases->Ctx && !Rounded) {
      std::int64_t Scale =
          Unit ? bytesOf(QualType(Unit, 0), *Aliases->Ctx) : 1;
      if (Minus)
        Scale = -Scale;
      if (!Scale)
        Here.Known = false;
      else
        addOffset(Term, Scale, Here, Bindings, *Aliases, TermBudget);
    }
  };
  auto Found = [&](const VarDecl *VD) {
    if (Region)
      *Region = VD && VD->hasExternalStorage() ? Here : PoolRegion();
    return VD;
  };
  // One budget of steps for a question and the walks of the left operands
  // it tries (locals combined with locals must not make it exponential).
  thread_local unsigned Nested = 0, Budget = 0;
  if (Nested == 0)
    Budget = 512;
  for (unsigned Steps = 0; E && Steps < 256 && Budget; ++Steps, --Budget) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()); P && Bindings)
        if (const Expr *Arg = Bindings->lookup(P)) {
          // Reading or writing the pointer (or an integer address) itself
          // touches no buffer.
          if (Access && !Derefs &&
              (P->getType()->isPointerType() || P->getType()->isIntegerType()))
            return nullptr;
          E = Arg;
          Access = false;
          continue;
        }
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      // Pointers and references stand for a buffer, and integers that hold
      // a shared-window address (`uint32_t a = cvta(buf) + off`).
      if (const Expr *Init = VD && Aliases ? Aliases->rootInitOf(VD) : nullptr) {
        if (!Aliases->initOf(VD))
          Whole = Here.Start = false; // moved within the buffer
        // As for a parameter: the pointer itself is no buffer access.
        if (Access && !Derefs && !VD->getType()->isReferenceType())
          return nullptr;
        E = Init;
        Access = false;
        continue;
      }
      if (!VD || !VD->hasAttr<CUDASharedAttr>() ||
          VD->getType()->isPointerType() || VD->getType()->isReferenceType())
        return nullptr;
      return Found(VD);
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      // The element an access reads or writes lies in the region its base
      // starts; a subscript that computes an address (`&smem[OFF]`) moves.
      if (!(Access && !Derefs))
        Offset(A->getIdx(), A->getType().getTypePtr());
      else
        Here.Start = false;
      Whole = false;
      Derefs = true;
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      Whole = false;
      Here = PoolRegion();
      Rounded = false;
      Derefs |= M->isArrow();
      if (Path && !M->isArrow() && !events::selectsElementPart(*M))
        *Path = "." + M->getMemberDecl()->getNameAsString() + *Path;
      E = M->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_AddrOf && U->getOpcode() != UO_Deref)
        return nullptr;
      Derefs |= U->getOpcode() == UO_Deref;
      E = U->getSubExpr();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
    } else if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      const Expr *L = B->getLHS(), *R = B->getRHS();
      if (L->getType()->isPointerType() || R->getType()->isPointerType()) {
        if (!B->isAdditiveOp())
          return nullptr;
        Whole = false;
        const Expr *P = L->getType()->isPointerType() ? L : R;
        Offset(P == L ? R : L, P->getType()->getPointeeType().getTypePtr(),
               B->getOpcode() == BO_Sub);
        E = P;
        continue;
      }
      // An integer shared-window address with an offset (`base + s *
      // STAGE`, `a + 16`), rounded (`& ~127`) or swizzled (`^ (k * 32)`):
      // the side that is not an offset.
      BinaryOperatorKind Op = B->getOpcode();
      if (!Aliases || !Aliases->Ctx || !B->getType()->isIntegerType() ||
          !(Op == BO_Add || Op == BO_Sub || Op == BO_Xor || Op == BO_Or ||
            Op == BO_And))
        return nullptr;
      Whole = false;
      // Only a sum moves the region; a swizzle or a mask stays in it, and
      // the offsets a mask rounds are the rounding's.
      auto Moved = [&](const Expr *Term) {
        if (Op == BO_Add || Op == BO_Sub)
          Offset(Term, nullptr, Op == BO_Sub);
        else
          Here.Start = false;
      };
      if (windowOffset(R, *Aliases->Ctx)) {
        Moved(R);
        Rounded |= Op == BO_And;
        E = L;
      } else if (Op != BO_Sub && windowOffset(L, *Aliases->Ctx)) {
        Moved(L);
        Rounded |= Op == BO_And;
        E = R;
      } else if (Op == BO_Sub) {
        return nullptr;
      } else {
        // Either side may be the address: the left one, else the right.
        std::string Inner;
        bool InnerWhole = false;
        PoolRegion InnerRegion;
        ++Nested;
        const VarDecl *VD =
            sharedRoot(L, InnerWhole, Bindings, Path ? &Inner : nullptr,
                       Access, Aliases, Region ? &InnerRegion : nullptr);
        --Nested;
        if (VD) {
          if (Path)
            *Path = Inner + *Path;
          Moved(R);
          if (Region && !Rounded) {
            Here.Bytes += InnerRegion.Bytes;
            Here.Known &= InnerRegion.Known;
          }
          Here.Start &= InnerRegion.Start;
          return Found(VD);
        }
        Moved(L);
        E = R;
      }
    } else if (const auto *C = dyn_cast<CallExpr>(E)) {
      // An accessor lambda (`[&](int i) { return buf + i * BYTES + 16; }`):
      // the buffer its one return addresses (its parameters are run-time
      // offsets within it).
      if (const Expr *Ret = events::byValueLambdaReturn(*C);
          Ret && C->getDirectCallee()->getReturnType()->isPointerType()) {
        if (Access && !Derefs)
          return nullptr;
        E = Ret;
        continue;
      }
      // An accessor object's `full[i]`: the lambda call it returns.
      if (const CallExpr *Inner = events::accessorClosureCall(*C);
          Inner && C->getDirectCallee()->getReturnType()->isPointerType()) {
        E = Inner;
        continue;
      }
      // `__cvta_generic_to_shared(p)`, `smem_u32(p)`: p's buffer.
      const Expr *Arg = Aliases ? Aliases->helperArgument(*C) : nullptr;
      if (!Arg)
        return nullptr;
      E = Arg;
      Access = false;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

} // namespace clang::tidy::tma
