//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/StageSlices.h"
#include "api/IntRanges.h"
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
  /// Every loop around the event's statement, innermost first.
  llvm::SmallVector<const Stmt *, 4> Loops;
  /// The ring locals (StageSlices::ringLocal) the address reads.
  llvm::SmallVector<const RingLocal *, 2> RingUses;
  /// Ring terms of any loop (`k % S`, a ring local), and the bytes that
  /// one step of the only one moves an integer address (a multiplier).
  unsigned RingTerms = 0;
  std::uint64_t Stride = 0;
  bool PointerMath = false;
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
    if (std::optional<std::int64_t> V = foldSigned(E, Self.Ctx)) {
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
    // The shared-window address of a pointer: as the pointer names it.
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !FD->getIdentifier() ||
          FD->getName() != "__cvta_generic_to_shared" || C->getNumArgs() != 1)
        return false;
      Out += "cvta(";
      if (!key(C->getArg(0), false, Out))
        return false;
      Out += ")";
      return true;
    }
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
    if (Self.written(VD)) {
      // A ring local stepped in one of the loops around the statement:
      // fixed in one pass of its loop before its step (sliceOf checks the
      // statement is), a ring index of that loop.
      const RingLocal *R = Self.ringLocal(VD, Kernel);
      if (!R || !llvm::is_contained(Loops, R->Loop))
        return false;
      RingUses.push_back(R);
      ++RingTerms;
      if (R->Loop == Loop) {
        ++Rings;
        Members = R->Members;
        Varies |= !Index;
        ByOther |= !Index;
      }
      Out += "~" + std::to_string(R->Members);
      return true;
    }
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
      std::optional<std::int64_t> N = foldSigned(B->getRHS(), Self.Ctx);
      if (!N || *N < 1)
        return false;
      ++Rings;
      ++RingTerms;
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
          std::optional<std::int64_t> N = foldSigned(B->getRHS(), Self.Ctx);
          if (!N || *N < 1 || !Self.steppedOnlyBy(K, F, Kernel->getBody()))
            return false;
          ++RingTerms;
          Out += "(%$" + idOf(K) + " #" + std::to_string(*N) + ")";
          return true;
        }
    if (!B->isAdditiveOp() && !B->isMultiplicativeOp() && !B->isShiftOp() &&
        !B->isBitwiseOp())
      return false;
    bool LIndex = false, RIndex = false;
    PointerMath |= B->getType()->isPointerType();
    if (B->getType()->isPointerType() && Op == BO_Add) {
      LIndex = !B->getLHS()->getType()->isPointerType();
      RIndex = !LIndex;
    } else if ((Op == BO_Add || Op == BO_Sub) && Index &&
               B->getType()->isIntegerType()) {
      // An integer address or index: each operand, the other fixed, names
      // a distinct byte for each of its values.
      LIndex = RIndex = true;
    } else if (Op == BO_Mul && Index) {
      auto NonZero = [&](const Expr *X) {
        std::optional<std::int64_t> V = foldSigned(X, Self.Ctx);
        return V && *V != 0;
      };
      LIndex = NonZero(B->getRHS());
      RIndex = NonZero(B->getLHS());
    }
    Out += "(" + BinaryOperator::getOpcodeStr(Op).str() + " ";
    unsigned Terms = RingTerms;
    std::uint64_t Inner = Stride;
    Stride = 0;
    if (!key(B->getLHS(), LIndex, Out))
      return false;
    Out += " ";
    if (!key(B->getRHS(), RIndex, Out))
      return false;
    Out += ")";
    // The multiplier of an integer ring term (`s * 8192`, `(k % S) * B`).
    std::optional<std::int64_t> C =
        foldSigned(LIndex ? B->getRHS() : B->getLHS(), Self.Ctx);
    bool Integer = B->getType()->isIntegerType();
    if (RingTerms == Terms)
      Stride = Inner;
    else if (Op == BO_Mul && Index && Integer && C && *C > 0 &&
             *C < (std::int64_t(1) << 32))
      Stride = (Stride ? Stride : 1) * static_cast<std::uint64_t>(*C);
    else if (!((Op == BO_Add || Op == BO_Sub) && Index && Integer))
      Stride = 0;
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
    W.Loops.push_back(P);
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
              foldSigned(A->getRHS(), Ctx) == 1;
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
          A && foldSigned(A->getIdx(), Ctx) == 0 &&
          Ctx.getAsConstantArrayType(A->getBase()->IgnoreParenImpCasts()->getType())) {
        E = A->getBase();
        continue;
      }
    break;
  }
  if (!E)
    return std::nullopt;
  StageSlice Out;
  // An integer address is an index into the shared window.
  if (!W.key(E, E->getType()->isIntegerType(), Out.Key) || !W.Root)
    return std::nullopt;
  // A ring local names the pass's stage only before its step.
  for (const RingLocal *R : W.RingUses)
    if (!beforeStep(*R, At, PM))
      return std::nullopt;
  Out.PerThread = W.PerThread;
  if (W.RingTerms == 1 && !W.PointerMath && E->getType()->isIntegerType())
    Out.Stride = W.Stride;
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
  const auto *F = dyn_cast<ForStmt>(W.Loop);
  if (!F || !W.Counter) {
    Out.Period = static_cast<unsigned>(W.Members);
    return Out;
  }
  const auto *C =
      dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  const auto *DS = cast<DeclStmt>(F->getInit());
  const Expr *Init = cast<VarDecl>(DS->getSingleDecl())->getInit();
  if (C && varOf(C->getLHS()) == W.Counter && Init)
    if (auto Hi = foldSigned(C->getRHS(), Ctx))
      if (auto Lo = foldSigned(Init, Ctx)) {
        std::int64_t Trips = *Hi - *Lo + (C->getOpcode() == BO_LE ? 1 : 0);
        if (Trips <= static_cast<std::int64_t>(W.Members)) {
          Out.Once = true;
          return Out;
        }
      }
  Out.Period = static_cast<unsigned>(W.Members);
  return Out;
}

namespace {
/// The members of a ring that \p Step steps \p VD round: `s ^= 1`,
/// `s = s ^ 1`, `s = 1 ^ s` (2), `s = (s + 1) % N` (N); 0 for any other
/// statement.
std::uint64_t ringStep(const Stmt *Step, const VarDecl *VD,
                       const ASTContext &Ctx) {
  if (const auto *A = dyn_cast<CompoundAssignOperator>(Step))
    return A->getOpcode() == BO_XorAssign && varOf(A->getLHS()) == VD &&
                   foldSigned(A->getRHS(), Ctx) == 1
               ? 2
               : 0;
  const auto *A = dyn_cast<BinaryOperator>(Step);
  if (!A || A->getOpcode() != BO_Assign || varOf(A->getLHS()) != VD)
    return 0;
  const auto *R = dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
  if (!R)
    return 0;
  auto VarAndOne = [&](const Expr *L, const Expr *Rt) {
    return (varOf(L) == VD && foldSigned(Rt, Ctx) == 1) ||
           (varOf(Rt) == VD && foldSigned(L, Ctx) == 1);
  };
  if (R->getOpcode() == BO_Xor)
    return VarAndOne(R->getLHS(), R->getRHS()) ? 2 : 0;
  if (R->getOpcode() != BO_Rem)
    return 0;
  const auto *Sum =
      dyn_cast<BinaryOperator>(R->getLHS()->IgnoreParenImpCasts());
  std::optional<std::int64_t> N = foldSigned(R->getRHS(), Ctx);
  if (!Sum || Sum->getOpcode() != BO_Add || !N || *N < 1 ||
      *N > static_cast<std::int64_t>(MaxPeriod) ||
      !VarAndOne(Sum->getLHS(), Sum->getRHS()))
    return 0;
  std::optional<std::int64_t> Init =
      VD->getInit() ? foldSigned(VD->getInit(), Ctx) : std::nullopt;
  return Init && *Init >= 0 && *Init < *N ? static_cast<std::uint64_t>(*N) : 0;
}

bool within(const SourceManager &SM, SourceLocation L, const Stmt *S) {
  return SM.isPointWithin(SM.getExpansionLoc(L),
                          SM.getExpansionLoc(S->getBeginLoc()),
                          SM.getExpansionLoc(S->getEndLoc()));
}

bool hasJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt,
          CXXThrowExpr, CoreturnStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(), hasJump);
}
} // namespace

const StageSlices::RingLocal *
StageSlices::ringLocal(const VarDecl *VD, const FunctionDecl *Kernel) {
  auto [It, Inserted] = RingLocals.try_emplace(VD);
  if (!Inserted)
    return It->second ? &*It->second : nullptr;
  if (!VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() || VD->hasAttr<CUDASharedAttr>() ||
      VD->getParentFunctionOrMethod() != Kernel || !Kernel->getBody())
    return nullptr;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  auto Parent = [&](const Stmt *S) {
    const Stmt *P = PM.getParent(S);
    while (P && isa<ParenExpr>(P))
      P = PM.getParent(P);
    return P;
  };
  // Every use: a read, or the one step.
  llvm::SmallVector<const DeclRefExpr *, 8> Reads;
  const Stmt *Step = nullptr;
  std::uint64_t Members = 0;
  bool Bad = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Bad)
      return;
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const LambdaCapture &Cap : L->captures())
        Bad |= Cap.capturesVariable() && Cap.getCapturedVar() == VD;
      return;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == VD) {
      const Stmt *P = Parent(D);
      if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P);
          C && C->getCastKind() == CK_LValueToRValue) {
        Reads.push_back(D);
        return;
      }
      std::uint64_t N = P ? ringStep(P, VD, Ctx) : 0;
      if (!N || Step)
        Bad = true;
      Step = P;
      Members = N;
      return;
    }
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Kernel->getBody());
  if (Bad || !Step)
    return nullptr;
  RingLocal R;
  R.Members = Members;
  R.Step = Step;
  R.Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(Step));
  for (const Stmt *P = PM.getParent(Step); P && !R.Loop; P = PM.getParent(P))
    if (isLoop(P))
      R.Loop = P;
  if (!R.Block || !R.Loop || !loopBody(R.Loop))
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  // Declared outside the loop; read only in its body, before the step
  // (the step's own read aside).
  if (within(SM, VD->getLocation(), R.Loop))
    return nullptr;
  SourceLocation StepAt = SM.getExpansionLoc(Step->getBeginLoc());
  for (const DeclRefExpr *D : Reads) {
    if (within(SM, D->getLocation(), Step))
      continue;
    if (!within(SM, D->getLocation(), loopBody(R.Loop)) ||
        !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(D->getLocation()),
                                      StepAt))
      return nullptr;
  }
  It->second = R;
  return &*It->second;
}

bool StageSlices::beforeStep(const RingLocal &R, const Stmt *At,
                             const ParentMap &PM) {
  const Stmt *Child = At;
  while (Child && PM.getParent(Child) != R.Block)
    Child = PM.getParent(Child);
  if (!Child || Child == R.Step)
    return false;
  bool Seen = false;
  for (const Stmt *S : R.Block->body()) {
    if (S == R.Step)
      return Seen;
    Seen |= S == Child;
    if (Seen && hasJump(S))
      return false;
  }
  return false;
}

std::optional<StageSlice>
StageSlices::sliceWithin(const Expr *Addr, const FunctionDecl *Kernel,
                         const Stmt *At, bool InLoop,
                         events::Substitution Subst) {
  const Expr *E = Addr;
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenCasts();
    const auto *D = dyn_cast<DeclRefExpr>(E);
    const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    const Expr *S = VD && !VD->hasAttr<CUDASharedAttr>() ? Subst(VD) : nullptr;
    if (!S)
      break;
    E = S;
  }
  // The loops around the statement, for the offset's counters.
  llvm::SmallVector<const ForStmt *, 4> Fors;
  const ParentMap &PM = Folder.parentsOf(Kernel);
  for (const Stmt *P = PM.getParent(At); P; P = PM.getParent(P))
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      const auto *K = DS && DS->isSingleDecl()
                          ? dyn_cast<VarDecl>(DS->getSingleDecl())
                          : nullptr;
      if (K && steppedOnlyBy(K, F, Kernel->getBody()))
        Fors.push_back(F);
    }
  RangeGuards G = guardsOf(At, PM, Ctx,
                      [this](const VarDecl *VD) { return !written(VD); });
  // Down the left operands of `((member + a) + b)`: the deepest operand
  // that is a ring stage and the sum of the offsets added to it.
  std::optional<StageSlice> Best;
  IntRange Off{0, 0};
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(E);
    if (!B || B->getOpcode() != BO_Add || !B->getType()->isIntegerType())
      break;
    std::optional<IntRange> R = rangeOf(B->getRHS(), Ctx, Subst, Fors, G);
    if (!R || R->first < 0)
      break;
    Off = {Off.first + R->first, Off.second + R->second};
    if (Off.second > RangeCap)
      break;
    std::optional<StageSlice> S =
        sliceOf(B->getLHS(), /*Element=*/false, Kernel, At, InLoop, Subst);
    if (S && S->Stride &&
        static_cast<std::uint64_t>(Off.second) < S->Stride)
      Best = S;
    E = B->getLHS();
    for (unsigned Hops = 0; E && Hops < 8; ++Hops) {
      E = E->IgnoreParenCasts();
      const auto *D = dyn_cast<DeclRefExpr>(E);
      const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
      const Expr *Sub =
          VD && !VD->hasAttr<CUDASharedAttr>() ? Subst(VD) : nullptr;
      if (!Sub)
        break;
      E = Sub;
    }
  }
  return Best;
}

} // namespace clang::tidy::tma
