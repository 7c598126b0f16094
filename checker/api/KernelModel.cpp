//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModel.h"
#include "api/BarrierPhases.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::tma {

using ::tma::rules::ordering::Event;
using ::tma::rules::ordering::EventKind;
using ::tma::rules::threads::Cond;
using ::tma::rules::threads::ThreadSet;

namespace {
/// Marks the variables of pointer or integer type that a use under \p S
/// may write: any reference to one that is not a plain load of its value.
void collectWritten(const Stmt *S, llvm::DenseSet<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *C = dyn_cast<ImplicitCastExpr>(S);
      C && C->getCastKind() == CK_LValueToRValue &&
      isa<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
    return; // a read of the value
  if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl());
        VD &&
        (VD->getType()->isPointerType() || VD->getType()->isIntegerType()))
      Out.insert(VD);
    return;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // A capture by reference may write it in the lambda.
    for (const LambdaCapture &Cap : L->captures())
      if (Cap.capturesVariable() && Cap.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(Cap.getCapturedVar()))
          Out.insert(VD);
    collectWritten(L->getBody(), Out);
    return;
  }
  for (const Stmt *Child : S->children())
    collectWritten(Child, Out);
}
} // namespace

const Expr *LocalAliases::initOf(const VarDecl *VD) {
  if (!VD->isLocalVarDecl() || VD->hasAttr<CUDASharedAttr>() ||
      VD->isStaticLocal() || !VD->getInit())
    return nullptr;
  QualType T = VD->getType();
  if (T->isReferenceType())
    return VD->getInit();
  if (!T->isPointerType() && !T->isIntegerType())
    return nullptr;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return nullptr;
  auto [It, Inserted] = Written.try_emplace(FD);
  if (Inserted)
    collectWritten(FD->getBody(), It->second);
  return It->second.count(VD) ? nullptr : VD->getInit();
}

const VarDecl *sharedRoot(const Expr *E, bool &Whole,
                          const ParamBindings *Bindings, std::string *Path,
                          bool Access, LocalAliases *Aliases) {
  Whole = true;
  if (Path)
    Path->clear();
  bool Derefs = false;
  for (unsigned Steps = 0; E && Steps < 256; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()); P && Bindings)
        if (const Expr *Arg = Bindings->lookup(P)) {
          // Reading or writing the pointer itself touches no buffer.
          if (Access && !Derefs && P->getType()->isPointerType())
            return nullptr;
          E = Arg;
          Access = false;
          continue;
        }
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      // Only pointers and references stand for a buffer (an integer local
      // holds a value, not an address).
      if (const Expr *Init = VD && Aliases &&
                                     (VD->getType()->isPointerType() ||
                                      VD->getType()->isReferenceType())
                                 ? Aliases->initOf(VD)
                                 : nullptr) {
        // As for a parameter: the pointer itself is no buffer access.
        if (Access && !Derefs && VD->getType()->isPointerType())
          return nullptr;
        E = Init;
        Access = false;
        continue;
      }
      if (!VD || !VD->hasAttr<CUDASharedAttr>() ||
          VD->getType()->isPointerType() || VD->getType()->isReferenceType())
        return nullptr;
      return VD;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Whole = false;
      Derefs = true;
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      Whole = false;
      Derefs |= M->isArrow();
      if (Path && !M->isArrow())
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
      if (!B->isAdditiveOp())
        return nullptr;
      Whole = false;
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

namespace {

constexpr unsigned MaxDepth = 6;
constexpr std::size_t MaxEvents = 4096;

/// An index that may vary: anything but an integer constant.
bool hasVaryingIndex(const Expr *E, const ASTContext &Ctx) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (A->getIdx()->isValueDependent() ||
          !A->getIdx()->isIntegerConstantExpr(Ctx))
        return true;
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      E = M->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
    } else {
      return !isa<DeclRefExpr>(E);
    }
  }
  return false;
}

std::optional<std::uint64_t> foldInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

/// The N of a template argument list: its first integral argument.
std::optional<std::uint64_t> firstIntegral(const TemplateArgumentList *Args) {
  if (!Args)
    return std::nullopt;
  for (const TemplateArgument &A : Args->asArray())
    if (A.getKind() == TemplateArgument::Integral)
      return A.getAsIntegral().getZExtValue();
  return std::nullopt;
}

/// The return statements under \p S (not in lambdas), and whether a goto
/// is among them.
void returnsIn(const Stmt *S, llvm::SmallVectorImpl<const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    Out.push_back(S);
  for (const Stmt *Child : S->children())
    returnsIn(Child, Out);
}

/// The return that ends `if (c) { ...; return; }` (no else, no other
/// return or goto in it), or null.
const ReturnStmt *endingReturn(const IfStmt &If) {
  if (If.getElse() || If.isConstexpr() || If.isConsteval() || If.getInit() ||
      If.getConditionVariable())
    return nullptr;
  const Stmt *Last = If.getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Last))
    Last = CS->body_empty() ? nullptr : CS->body_back();
  const auto *R = dyn_cast_or_null<ReturnStmt>(Last);
  llvm::SmallVector<const Stmt *, 4> All;
  returnsIn(If.getThen(), All);
  return R && All.size() == 1 ? R : nullptr;
}

class Builder {
public:
  Builder(ASTContext &Ctx, DeviceOpsFinder &Finder, KernelSequence &Out,
          llvm::DenseSet<const FunctionDecl *> &Quiet, LocalAliases &Aliases,
          ThreadGuards &Guards)
      : Ctx(Ctx), Finder(Finder), Out(Out), Quiet(Quiet), Aliases(Aliases),
        Guards(Guards) {}

  bool run(const FunctionDecl *Kernel) {
    Stack.push_back(Kernel);
    Out.Block = Guards.blockOf(Kernel);
    walkBody(Kernel->getBody());
    return !Failed;
  }

private:
  void emit(Event E, SourceLocation OpLoc, std::optional<DeviceOp> Op = {},
            const VarDecl *Var = nullptr) {
    if (Out.Seq.size() >= MaxEvents) {
      Failed = true;
      return;
    }
    E.Loops = Loops;
    E.Branches = Branches;
    E.Threads = threads();
    // A run of generic accesses to one buffer in one place is one event.
    if ((E.Kind == EventKind::GenericRead ||
         E.Kind == EventKind::GenericWrite) &&
        !Out.Seq.empty()) {
      const Event &Last = Out.Seq.back();
      if (Last.Kind == E.Kind && Last.Object == E.Object &&
          Last.Loops == E.Loops && Last.Branches == E.Branches)
        return;
    }
    KernelEvent K;
    K.OpLoc = OpLoc;
    K.Loc = InHelper ? ViaLoc : OpLoc;
    K.InBody = !InHelper;
    K.Op = std::move(Op);
    K.Var = Var;
    Out.Seq.push_back(std::move(E));
    Out.Events.push_back(std::move(K));
  }
  void simple(EventKind Kind, SourceLocation Loc) {
    Event E;
    E.Kind = Kind;
    emit(E, Loc);
  }
  std::uintptr_t fresh() { return ++Counter; }

  /// A buffer: the variable and the fields selected in it.
  int objectOf(const VarDecl *VD, const std::string &Path) {
    for (std::size_t I = 0; I < BufferKeys.size(); ++I)
      if (BufferKeys[I].first == VD && BufferKeys[I].second == Path)
        return BufferIds[I];
    BufferKeys.push_back({VD, Path});
    BufferIds.push_back(newObject(VD, VD->getName().str() + Path));
    return BufferIds.back();
  }
  /// A barrier: its identity's structural key.
  int objectOf(const BarrierIdentity &Id) {
    for (auto &[Key, Obj] : BarrierKeys)
      if (Key == Id.Key)
        return Obj;
    BarrierKeys.push_back({Id.Key, newObject(Id.Root, Id.Root->getName().str())});
    return BarrierKeys.back().second;
  }
  int newObject(const VarDecl *VD, std::string Name) {
    Out.Objects.push_back(VD);
    Out.Names.push_back(std::move(Name));
    return static_cast<int>(Out.Objects.size() - 1);
  }

  /// The body of the kernel or of a helper: a return as its last statement
  /// just ends it.
  void walkBody(const Stmt *Body) {
    const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
    if (!CS) {
      walk(Body);
      return;
    }
    bool Kernel = Stack.size() == 1;
    for (const Stmt *S : CS->body()) {
      if (S == CS->body_back())
        if (const auto *R = dyn_cast<ReturnStmt>(S)) {
          walk(R->getRetValue());
          return;
        }
      // `if (c) { ...; return; }` in the kernel's body: what follows runs
      // in the threads where c does not hold.
      const auto *If = Kernel ? dyn_cast<IfStmt>(S) : nullptr;
      const ReturnStmt *Ending = If ? endingReturn(*If) : nullptr;
      if (!Ending) {
        walk(S);
        continue;
      }
      const Stmt *Saved = TopReturn;
      TopReturn = Ending;
      walk(S);
      TopReturn = Saved;
      pushGuard(guardOf(If->getCond()), false); // never popped
    }
  }

  void branch(const Stmt *S, std::uintptr_t Id, unsigned Which,
              const std::optional<Cond> &Guard, bool Holds) {
    if (!S)
      return;
    Branches.push_back({Id, Which});
    pushGuard(Guard, Holds);
    walk(S);
    popGuard();
    Branches.pop_back();
  }
  /// A loop; its body runs in the threads where \p Cond holds (every
  /// thread: no condition; unknown: \p Unknown).
  void loop(llvm::ArrayRef<const Stmt *> Parts, const Expr *Cond,
            bool Unknown = false) {
    Loops.push_back(fresh());
    pushGuard(Unknown ? std::nullopt
              : Cond  ? guardOf(Cond)
                      : std::optional<::tma::rules::threads::Cond>(
                           ::tma::rules::threads::Cond()),
              true);
    for (const Stmt *P : Parts)
      walk(P);
    popGuard();
    Loops.pop_back();
    // Threads that left the loop early are back.
    llvm::erase_if(Diverged, [&](const auto &D) {
      return D.first == Scope::Loop && D.second > Loops.size();
    });
  }

  /// The guard stack: the thread conditions around the walk (unknown:
  /// std::nullopt), each with the branch taken.
  void pushGuard(std::optional<Cond> C, bool Holds) {
    GuardStack.emplace_back(std::move(C), Holds);
    SetValid = false;
  }
  void popGuard() {
    GuardStack.pop_back();
    SetValid = false;
  }
  std::optional<Cond> guardOf(const Expr *C) {
    auto Resolve = [this](const ParmVarDecl *P) -> const Expr * {
      for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
        if (const Expr *A = F->lookup(P))
          return A;
      return nullptr;
    };
    return Guards.condition(C, Resolve);
  }
  /// Whether every guard around the walk is known and the same in every
  /// thread.
  bool uniformHere() const {
    return llvm::all_of(GuardStack, [](const auto &G) {
      return G.first && G.first->K == Cond::True;
    });
  }
  /// The threads of an event here; null when unknown.
  std::shared_ptr<const ThreadSet> threads() {
    if (SetValid)
      return Set;
    SetValid = true;
    Set = nullptr;
    if (!Diverged.empty())
      return nullptr;
    ThreadSet T;
    for (const auto &[C, Holds] : GuardStack) {
      if (!C)
        return nullptr;
      if (C->K != Cond::True)
        T = T.under(*C, Holds);
    }
    Set = std::make_shared<const ThreadSet>(std::move(T));
    return Set;
  }

  void walk(const Stmt *S) {
    if (!S || Failed)
      return;
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
      Failed = true;
      return;
    }
    if (isa<LambdaExpr>(S) || isa<SwitchStmt>(S) || isa<CXXTryStmt>(S)) {
      // A lambda runs where it is called (seen there); a switch is control
      // the model does not follow.
      if (!isa<LambdaExpr>(S))
        simple(EventKind::Opaque, S->getBeginLoc());
      return;
    }
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
      if (const auto *R = dyn_cast<ReturnStmt>(S))
        walk(R->getRetValue());
      simple(EventKind::Jump, S->getBeginLoc());
      // Some threads leave: who runs what follows is unknown until they
      // are back (after the loop, after the helper), or to the end.
      if (S != TopReturn && !uniformHere()) {
        SetValid = false;
        if (!isa<ReturnStmt>(S))
          Diverged.push_back({Scope::Loop, Loops.size()});
        else if (Stack.size() > 1)
          Diverged.push_back({Scope::Helper, Stack.size()});
        else
          Diverged.push_back({Scope::Kernel, 0});
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      if (If->isConsteval()) {
        simple(EventKind::Opaque, S->getBeginLoc());
        return;
      }
      if (If->isConstexpr()) {
        // The instantiation keeps the branch it takes.
        bool Taken = false;
        if (!If->getCond()->isValueDependent() &&
            If->getCond()->EvaluateAsBooleanCondition(Taken, Ctx)) {
          walk(Taken ? If->getThen() : If->getElse());
          return;
        }
        simple(EventKind::Opaque, S->getBeginLoc());
        return;
      }
      walk(If->getConditionVariableDeclStmt());
      walk(If->getCond());
      std::uintptr_t Id = fresh();
      std::optional<Cond> Guard =
          If->getConditionVariable() ? std::nullopt : guardOf(If->getCond());
      branch(If->getThen(), Id, 0, Guard, true);
      branch(If->getElse(), Id, 1, Guard, false);
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      walk(F->getInit());
      loop({F->getConditionVariableDeclStmt(), F->getCond(), F->getBody(),
            F->getInc()},
           F->getCond(), F->getConditionVariable() != nullptr);
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      loop({W->getConditionVariableDeclStmt(), W->getCond(), W->getBody()},
           W->getCond(), W->getConditionVariable() != nullptr);
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      bool Again = true;
      if (!D->getCond()->isValueDependent() &&
          D->getCond()->EvaluateAsBooleanCondition(Again, Ctx) && !Again) {
        // do { } while (0): one pass, a plain block.
        walk(D->getBody());
        return;
      }
      loop({D->getBody(), D->getCond()}, D->getCond());
      return;
    }
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
      walk(R->getInit());
      walk(R->getRangeStmt());
      walk(R->getBeginStmt());
      walk(R->getEndStmt());
      loop({R->getCond(), R->getLoopVarStmt(), R->getBody(), R->getInc()},
           nullptr, /*Unknown=*/true);
      return;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(S)) {
      walk(C->getCond());
      std::uintptr_t Id = fresh();
      std::optional<Cond> Guard =
          isa<ConditionalOperator>(C) ? guardOf(C->getCond()) : std::nullopt;
      branch(C->getTrueExpr(), Id, 0, Guard, true);
      branch(C->getFalseExpr(), Id, 1, Guard, false);
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isLogicalOp()) {
        walk(B->getLHS());
        branch(B->getRHS(), fresh(), 0, guardOf(B->getLHS()),
               B->getOpcode() == BO_LAnd);
        return;
      }
      if (B->isAssignmentOp()) {
        walk(B->getRHS());
        walk(B->getLHS());
        write(B->getLHS(), B->getOperatorLoc());
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
      walk(U->getSubExpr());
      write(U->getSubExpr(), U->getOperatorLoc());
      return;
    }
    if (const auto *C = dyn_cast<ImplicitCastExpr>(S);
        C && C->getCastKind() == CK_LValueToRValue) {
      walk(C->getSubExpr());
      read(C->getSubExpr(), C->getBeginLoc());
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      for (const Stmt *Child : S->children())
        walk(Child);
      asmEvents(*Asm);
      return;
    }
    if (isa<AsmStmt>(S)) {
      simple(EventKind::Opaque, S->getBeginLoc());
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
      walk(Op->getArg(1));
      walk(Op->getArg(0));
      write(Op->getArg(0), Op->getOperatorLoc());
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      // Arguments first (the object of a member call is among them).
      for (const Stmt *Child : S->children())
        walk(Child);
      call(*C);
      return;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
      for (const Expr *A : C->arguments())
        walk(A);
      const CXXConstructorDecl *Ctor = C->getConstructor();
      if (Ctor && !Ctor->isTrivial())
        callee(Ctor, C->getBeginLoc());
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child);
  }

  void write(const Expr *Lhs, SourceLocation Loc) {
    bool Whole = false;
    std::string Path;
    const VarDecl *VD =
        sharedRoot(Lhs, Whole, bindings(), &Path, true, &Aliases);
    if (!VD) {
      mapWrite(Lhs, Loc);
      return;
    }
    Event E;
    E.Kind = EventKind::GenericWrite;
    E.Object = objectOf(VD, Path);
    emit(E, Loc, std::nullopt, VD);
  }

  /// TMAP-INFLIGHT-IMMUTABLE: a store into a `CUtensorMap` that a kernel
  /// pointer parameter points to (through subscripts, members, casts).
  void mapWrite(const Expr *Lhs, SourceLocation Loc) {
    bool Derefs = false;
    const Expr *E = Lhs;
    while (E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
        const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        if (const ParamBindings *B = bindings(); P && B)
          if (const Expr *Arg = B->lookup(P)) {
            if (!Derefs)
              return; // the helper's own pointer, not the map
            E = Arg;
            continue;
          }
        if (!Derefs || !P || !isTensorMapPointer(P->getType()))
          return;
        mapEvent(EventKind::MapWrite, mapObject(E), Loc);
        return;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        Derefs = true;
        E = A->getBase();
      } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
        Derefs |= M->isArrow();
        E = M->getBase();
      } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
        if (U->getOpcode() != UO_Deref && U->getOpcode() != UO_AddrOf)
          return;
        Derefs |= U->getOpcode() == UO_Deref;
        E = U->getSubExpr();
      } else if (const auto *C = dyn_cast<CastExpr>(E)) {
        E = C->getSubExpr();
      } else if (const auto *B = dyn_cast<BinaryOperator>(E);
                 B && B->isAdditiveOp()) {
        E = B->getLHS()->getType()->isPointerType() ? B->getLHS()
                                                    : B->getRHS();
      } else {
        return;
      }
    }
  }
  static bool isTensorMapPointer(QualType T) {
    if (!T->isPointerType())
      return false;
    const auto *RD = T->getPointeeType()->getAsRecordDecl();
    return RD && RD->getIdentifier() &&
           RD->getName().starts_with("CUtensorMap");
  }
  void mapEvent(EventKind Kind, int Map, SourceLocation Loc) {
    if (Map < 0)
      return;
    Event E;
    E.Kind = Kind;
    E.Map = Map;
    emit(E, Loc);
  }
  /// The map a `tensormap.replace` / `tensormap.cp_fenceproxy` writes: its
  /// first operand `[%N]`, through the address conversion CCCL wraps it in.
  int asmMapOperand(const GCCAsmStmt &S, llvm::StringRef Operands) {
    llvm::StringRef First = Operands.split(',').first.trim(" \t[]");
    unsigned Index = 0;
    if (!First.consume_front("%") || First.getAsInteger(10, Index) ||
        Index < S.getNumOutputs() ||
        Index - S.getNumOutputs() >= S.getNumInputs())
      return -1;
    const Expr *E = S.getInputExpr(Index - S.getNumOutputs());
    for (;;) {
      E = E->IgnoreParenCasts();
      const auto *C = dyn_cast<CallExpr>(E);
      if (!C || C->getNumArgs() != 1)
        break;
      E = C->getArg(0); // __as_ptr_gmem(p), __cvta_generic_to_global(p)
    }
    return mapObject(E);
  }

  /// The object of a barrier operand; -1 when it is no `__shared__`
  /// variable of the kernel the model can name.
  int barrierObject(const OpValue &V, const VarDecl *&Var, bool &Fixed) {
    Var = nullptr;
    Fixed = false;
    if (!V.E)
      return -1;
    auto Id = barrierIdentity(bound(V.E), Ctx);
    if (!Id || !Id->Root || !Id->Root->hasAttr<CUDASharedAttr>() ||
        Id->ThroughPointer)
      return -1;
    Var = Id->Root;
    Fixed = !hasVaryingIndex(Id->Object, Ctx);
    return objectOf(*Id);
  }

  void read(const Expr *E, SourceLocation Loc) {
    bool Whole = false;
    std::string Path;
    const VarDecl *VD = sharedRoot(E, Whole, bindings(), &Path, true, &Aliases);
    if (!VD)
      return;
    Event Ev;
    Ev.Kind = EventKind::GenericRead;
    Ev.Object = objectOf(VD, Path);
    emit(Ev, Loc, std::nullopt, VD);
  }

  /// Names the barrier operand of an op.
  void barrierEvent(EventKind Kind, const OpValue &V, const DeviceOp &Op,
                    const OpSite &Site,
                    ::tma::rules::ordering::UseRole Role = {}) {
    Event E;
    E.Kind = Kind;
    E.Role = Role;
    const VarDecl *Var = nullptr;
    E.Object = barrierObject(V, Var, E.FixedObject);
    predicated(Site, [&] { emit(E, Site.Loc, Op, Var); });
  }

  /// The object of a tensor map operand: a pointer parameter of the kernel
  /// (global memory); -1 for anything else.
  int mapObject(const OpValue &V) { return V.E ? mapObject(V.E) : -1; }
  int mapObject(const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(bound(E)->IgnoreParenImpCasts());
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    if (!P || !P->getType()->isPointerType() ||
        P->getDeclContext() != Stack.front())
      return -1;
    return objectOf(P, "");
  }

  /// A copy into shared memory: what it writes and where it completes.
  void loadEvent(const OpValue &Dst, const OpValue &Barrier, bool Tensor,
                 const DeviceOp &Op, const OpSite &Site,
                 const OpValue *Map = nullptr) {
    Event E;
    if (Map)
      E.Map = mapObject(*Map);
    E.Kind = EventKind::Load;
    E.Tensor = Tensor;
    bool Whole = false;
    std::string Path;
    const VarDecl *VD =
        Dst.E ? sharedRoot(Dst.E, Whole, bindings(), &Path, false, &Aliases)
              : nullptr;
    if (VD)
      E.Object = objectOf(VD, Path);
    E.WholeObject = Whole;
    const VarDecl *BarVar = nullptr;
    bool Fixed = false;
    E.Barrier = barrierObject(Barrier, BarVar, Fixed);
    predicated(Site, [&] { emit(E, Site.Loc, Op, VD); });
  }

  template <typename Fn> void predicated(const OpSite &Site, Fn &&F) {
    if (!Site.Predicated) {
      F();
      return;
    }
    Branches.push_back({fresh(), 0});
    pushGuard(std::nullopt, true); // `@p`: the threads where p holds
    F();
    popGuard();
    Branches.pop_back();
  }

  void storeEvent(const OpValue &Src, const OpValue *Size, bool Tensor,
                  const DeviceOp &Op, const OpSite &Site,
                  const OpValue *Map = nullptr) {
    Event E;
    if (Map)
      E.Map = mapObject(*Map);
    E.Kind = EventKind::Store;
    E.Tensor = Tensor;
    bool Whole = false;
    std::string Path;
    const VarDecl *VD =
        Src.E ? sharedRoot(Src.E, Whole, bindings(), &Path, false, &Aliases)
              : nullptr;
    if (VD) {
      E.Object = objectOf(VD, Path);
      E.WholeObject = Whole;
      // A 1-D copy reads all of the buffer only when its size says so.
      if (Whole && Size) {
        auto Bytes = foldInt(Size->Written, Ctx);
        E.WholeObject =
            Bytes && !VD->getType()->isIncompleteType() &&
            *Bytes == static_cast<std::uint64_t>(
                          Ctx.getTypeSizeInChars(VD->getType()).getQuantity());
      }
    }
    predicated(Site, [&] { emit(E, Site.Loc, Op, VD); });
  }

  void opEvent(const DeviceOp &Op) {
    using device::OpKind;
    const OpSite &Site = siteOf(Op);
    switch (kindOf(Op)) {
    case OpKind::BulkCopy: {
      const auto &B = std::get<BulkCopy>(Op);
      if (B.Direction == device::BulkDirection::SharedToGlobal ||
          B.Direction == device::BulkDirection::SharedToCluster)
        storeEvent(B.Src, &B.Size, false, Op, Site);
      else if (B.Direction == device::BulkDirection::GlobalToShared) {
        barrierEvent(EventKind::BarrierUse, B.Barrier, Op, Site);
        loadEvent(B.Dst, B.Barrier, false, Op, Site);
      }
      if (B.Direction == device::BulkDirection::SharedToCluster)
        barrierEvent(EventKind::BarrierUse, B.Barrier, Op, Site);
      return;
    }
    case OpKind::TensorCopy: {
      const auto &T = std::get<TensorCopy>(Op);
      if (T.Direction == device::TensorDirection::Store ||
          T.Direction == device::TensorDirection::Reduce)
        storeEvent(T.Smem, nullptr, true, Op, Site, &T.Map);
      else if (T.Direction == device::TensorDirection::Load) {
        barrierEvent(EventKind::BarrierUse, T.Barrier, Op, Site);
        loadEvent(T.Smem, T.Barrier, true, Op, Site, &T.Map);
      }
      return;
    }
    case OpKind::ExpectTx: {
      const auto &X = std::get<ExpectTx>(Op);
      barrierEvent(EventKind::BarrierUse, X.Barrier, Op, Site,
                   X.WithArrive ? ::tma::rules::ordering::UseRole::Other
                                : ::tma::rules::ordering::UseRole::Expect);
      return;
    }
    case OpKind::Arrive:
      barrierEvent(EventKind::BarrierUse, std::get<Arrive>(Op).Barrier, Op,
                   Site, ::tma::rules::ordering::UseRole::Arrive);
      return;
    case OpKind::BarrierInit:
      barrierEvent(EventKind::BarrierInit, std::get<BarrierInit>(Op).Barrier,
                   Op, Site);
      return;
    case OpKind::Wait:
      barrierEvent(EventKind::BarrierWait, std::get<Wait>(Op).Barrier, Op,
                   Site);
      return;
    case OpKind::Fence: {
      const auto &F = std::get<Fence>(Op);
      // Only a proxy fence that covers shared::cta orders shared memory.
      if (F.Kind == device::FenceKind::ProxyAsync &&
          F.FencedSpace != device::Space::Global) {
        Event E;
        E.Kind = EventKind::ProxyFence;
        emit(E, Site.Loc, Op);
      } else if (F.Kind == device::FenceKind::TensormapAcquire) {
        Event E;
        E.Kind = EventKind::MapAcquire;
        E.Map = mapObject(F.Address);
        emit(E, Site.Loc, Op);
      }
      return;
    }
    case OpKind::StBulk:
      // A shared-memory fill the event model has no word for.
      simple(EventKind::Opaque, Site.Loc);
      return;
    }
  }

  /// The depth of `cp.async.bulk.wait_group{.read} X`.
  std::optional<std::uint64_t> asmDepth(const GCCAsmStmt &S,
                                        llvm::StringRef Operand) {
    Operand = Operand.trim();
    std::uint64_t N = 0;
    if (!Operand.getAsInteger(10, N))
      return N;
    unsigned Index = 0;
    if (!Operand.consume_front("%") || Operand.getAsInteger(10, Index))
      return std::nullopt;
    if (Index < S.getNumOutputs())
      return std::nullopt;
    Index -= S.getNumOutputs();
    if (Index >= S.getNumInputs())
      return std::nullopt;
    return foldInt(S.getInputExpr(Index), Ctx);
  }

  /// The pointer whose shared-window address \p E computes: through
  /// `__cvta_generic_to_shared(p)` and address helpers, integer offsets
  /// added to it, casts, and locals never written after their
  /// initialisation; null when it is no such address.
  const Expr *addressedPointer(const Expr *E) {
    for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
      E = E->IgnoreParenCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
        const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        if (const Expr *Arg =
                P && bindings() ? bindings()->lookup(P) : nullptr) {
          E = Arg;
          continue;
        }
        const auto *VD = dyn_cast<VarDecl>(D->getDecl());
        E = VD && VD->getType()->isIntegerType() ? Aliases.initOf(VD) : nullptr;
        continue;
      }
      if (const auto *C = dyn_cast<CallExpr>(E)) {
        if (const Expr *Arg = Finder.addressHelperArgument(*C))
          return Arg;
        const FunctionDecl *FD = C->getDirectCallee();
        if (FD && FD->getIdentifier() &&
            FD->getName() == "__cvta_generic_to_shared" && C->getNumArgs() == 1)
          return C->getArg(0);
        return nullptr;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
        if (const Expr *L = addressedPointer(B->getLHS()))
          return L;
        if (B->getOpcode() == BO_Add)
          return addressedPointer(B->getRHS());
        return nullptr;
      }
      return nullptr;
    }
    return nullptr;
  }

  /// `stmatrix [%n], ...` / `st.shared.* [%n], ...`: a generic write of the
  /// buffer whose address operand %n computes.
  void asmStore(const GCCAsmStmt &S, llvm::StringRef Operands,
                SourceLocation Loc) {
    Operands = Operands.trim();
    if (!Operands.consume_front("[%"))
      return;
    unsigned Index = 0;
    if (Operands.consumeInteger(10, Index) || Index < S.getNumOutputs() ||
        Index - S.getNumOutputs() >= S.getNumInputs())
      return;
    const Expr *Ptr =
        addressedPointer(S.getInputExpr(Index - S.getNumOutputs()));
    bool Whole = false;
    std::string Path;
    const VarDecl *VD =
        Ptr ? sharedRoot(Ptr, Whole, bindings(), &Path, false, &Aliases)
            : nullptr;
    if (!VD)
      return;
    Event E;
    E.Kind = EventKind::GenericWrite;
    E.Object = objectOf(VD, Path);
    emit(E, Loc, std::nullopt, VD);
  }

  void asmEvents(const GCCAsmStmt &S) {
    SourceLocation Loc = S.getAsmLoc();
    const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
    if (!Text) {
      simple(EventKind::Opaque, Loc);
      return;
    }
    std::vector<DeviceOp> Ops = Finder.opsOf(S);
    for (const DeviceOp &Op : Ops)
      opEvent(Op);
    // The instructions the op model does not hold: thread barriers, bulk
    // groups, inval, other fences; and TMA instructions it did not
    // recognise, which make the statement opaque.
    unsigned TmaLines = 0;
    llvm::SmallVector<llvm::StringRef, 16> Lines;
    llvm::StringRef(Text->getString()).split(Lines, ';');
    for (llvm::StringRef Line : Lines) {
      // Several instructions may share a line; braces and labels go.
      Line = Line.trim(" \t\r\n{}");
      if (Line.contains(':') && !Line.contains("::"))
        Line = Line.split(':').second.trim(" \t\r\n{}");
      while (Line.contains('\n'))
        Line = Line.split('\n').second.trim(" \t\r{}");
      if (Line.consume_front("@"))
        Line = Line.split(' ').second.trim();
      auto [Opcode, Operands] = Line.split(' ');
      Opcode = Opcode.split('\t').first;
      if (Opcode.starts_with("cp.async.bulk.commit_group")) {
        simple(EventKind::Commit, Loc);
      } else if (Opcode.starts_with("cp.async.bulk.wait_group")) {
        Event E;
        E.Kind = EventKind::WaitGroup;
        E.Depth = asmDepth(S, Operands);
        emit(E, Loc);
      } else if (Opcode.starts_with("stmatrix") ||
                 Opcode.starts_with("st.shared")) {
        // A generic store to shared memory at a 32-bit shared address.
        asmStore(S, Operands, Loc);
      } else if (Opcode.starts_with("bar.") || Opcode.starts_with("barrier.")) {
        simple(EventKind::ThreadSync, Loc);
      } else if (Opcode.starts_with("mbarrier.inval")) {
        simple(EventKind::BarrierInval, Loc);
      } else if ((Opcode.starts_with("tensormap.replace") &&
                  Opcode.contains(".global.")) ||
                 Opcode.starts_with("tensormap.cp_fenceproxy.global")) {
        mapEvent(EventKind::MapWrite, asmMapOperand(S, Operands), Loc);
      } else if (Opcode.starts_with("mbarrier.") ||
                 Opcode.starts_with("cp.async.bulk") ||
                 Opcode.starts_with("cp.reduce.async.bulk") ||
                 Opcode.starts_with("st.bulk") ||
                 Opcode.starts_with("fence.proxy") ||
                 Opcode.starts_with("fence.mbarrier_init")) {
        ++TmaLines;
      } else if (Opcode.starts_with("fence.") ||
                 Opcode.starts_with("membar.")) {
        simple(EventKind::Opaque, Loc);
      }
    }
    if (TmaLines > Ops.size())
      simple(EventKind::Opaque, Loc);
  }

  /// The ordering events that library functions without a visible body
  /// stand for, by name.
  bool namedEvent(const FunctionDecl &FD, SourceLocation Loc) {
    if (!FD.getIdentifier())
      return false;
    llvm::StringRef Name = FD.getName();
    if (Name == "cp_async_bulk_commit_group" || Name == "tma_store_arrive") {
      simple(EventKind::Commit, Loc);
      return true;
    }
    if (Name == "cp_async_bulk_wait_group_read" ||
        Name == "cp_async_bulk_wait_group" || Name == "tma_store_wait") {
      Event E;
      E.Kind = EventKind::WaitGroup;
      E.Depth = firstIntegral(FD.getTemplateSpecializationArgs());
      // cuda::ptx passes N as an n32_t<N> argument.
      if (!E.Depth && FD.getNumParams() == 1)
        if (const auto *RD =
                FD.getParamDecl(0)->getType()->getAsCXXRecordDecl())
          if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
            E.Depth = firstIntegral(&Spec->getTemplateArgs());
      emit(E, Loc);
      return true;
    }
    return false;
  }

  /// cuda::ptx::tensormap_replace_*(space_global, map, ...) and
  /// tensormap_cp_fenceproxy(sem, scope, map, src, size): writes of a map
  /// in global memory (their bodies, an asm statement, are not walked).
  bool tensorMapWrite(const FunctionDecl &FD, const CallExpr &C) {
    if (!FD.getIdentifier())
      return false;
    llvm::StringRef Name = FD.getName();
    const Expr *Map = nullptr;
    if (Name.starts_with("tensormap_replace_") && C.getNumArgs() >= 2) {
      // space_global_t, or what it names: space_t<dot_space::global>.
      std::string Space =
          C.getArg(0)->getType().getCanonicalType().getAsString();
      if (!llvm::StringRef(Space).contains("global"))
        return false;
      Map = C.getArg(1);
    } else if (Name == "tensormap_cp_fenceproxy" && C.getNumArgs() == 5) {
      Map = C.getArg(2);
    } else {
      return false;
    }
    mapEvent(EventKind::MapWrite, mapObject(Map), C.getBeginLoc());
    return true;
  }

  /// cuda::barrier's arrive / wait / arrive_and_wait members (CCCL's
  /// bodies are NVVM builtins the model does not follow): an arrive and a
  /// wait on the barrier object, when the model can name it.
  bool libcudacxxBarrier(const FunctionDecl &FD, const CallExpr &C) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&C);
    const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
    if (!MC || !MD || !MD->getIdentifier() || !MD->getParent() ||
        !MD->getParent()->getIdentifier() ||
        MD->getParent()->getName() != "barrier")
      return false;
    const DeclContext *NS = MD->getParent()->getEnclosingNamespaceContext();
    while (NS && isa<NamespaceDecl>(NS) &&
           cast<NamespaceDecl>(NS)->isInlineNamespace())
      NS = NS->getParent();
    const auto *N = dyn_cast_or_null<NamespaceDecl>(NS);
    if (!N || N->getName() != "cuda" ||
        !N->getParent()->getRedeclContext()->isTranslationUnit())
      return false;
    llvm::StringRef Name = MD->getName();
    bool Arrives = Name == "arrive" || Name == "arrive_and_wait";
    bool Waits = Name == "wait" || Name == "arrive_and_wait";
    if (!Arrives && !Waits)
      return false;
    OpValue V;
    V.E = MC->getImplicitObjectArgument();
    V.Written = V.E;
    const VarDecl *Var = nullptr;
    Event E;
    E.Object = barrierObject(V, Var, E.FixedObject);
    if (E.Object < 0) {
      simple(EventKind::Opaque, C.getBeginLoc());
      return true;
    }
    if (Arrives) {
      E.Kind = EventKind::BarrierUse;
      E.Role = ::tma::rules::ordering::UseRole::Arrive;
      emit(E, C.getBeginLoc(), std::nullopt, Var);
    }
    if (Waits) {
      E.Kind = EventKind::BarrierWait;
      emit(E, C.getBeginLoc(), std::nullopt, Var);
    }
    return true;
  }

  void call(const CallExpr &C) {
    if (std::optional<DeviceOp> Op = Finder.opOf(C)) {
      opEvent(*Op);
      return;
    }
    const FunctionDecl *FD = C.getDirectCallee();
    if (!FD) {
      simple(EventKind::Opaque, C.getBeginLoc());
      return;
    }
    if (tensorMapWrite(*FD, C) || libcudacxxBarrier(*FD, C))
      return;
    // The helper's parameters stand for the arguments of this call.
    ParamBindings Frame;
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) &&
                             !cast<CXXMethodDecl>(FD)->isStatic()
                         ? 1
                         : 0;
    bool SharedArg = false;
    for (unsigned I = 0; I < FD->getNumParams() && I + Shift < C.getNumArgs();
         ++I) {
      const Expr *Arg = bound(C.getArg(I + Shift));
      Frame[FD->getParamDecl(I)] = Arg;
      bool Whole = false;
      SharedArg |= sharedRoot(Arg, Whole, bindings(), nullptr, false,
                              &Aliases) != nullptr;
    }
    // A helper that showed no event and gets no shared buffer now shows
    // none again (its events other than buffer accesses do not depend on
    // its arguments): the walk of math and index helpers is done once.
    const FunctionDecl *Def = nullptr;
    if (!SharedArg && FD->hasBody(Def) && Def && Quiet.count(Def))
      return;
    std::size_t Before = Out.Seq.size();
    // Every frame's parameters stay bound while the helper runs: an
    // argument of an inner call may name a parameter of an outer helper
    // (`inner(buf + off)` in `outer(float *buf)`).
    std::vector<std::pair<const ParmVarDecl *, const Expr *>> Saved;
    for (const auto &[P, Arg] : Frame) {
      Saved.push_back({P, AllBindings.lookup(P)});
      AllBindings[P] = Arg;
    }
    Frames.push_back(std::move(Frame));
    callee(FD, C.getBeginLoc());
    Frames.pop_back();
    for (const auto &[P, Old] : Saved) {
      if (Old)
        AllBindings[P] = Old;
      else
        AllBindings.erase(P);
    }
    if (!SharedArg && Def && Out.Seq.size() == Before && !Failed)
      Quiet.insert(Def);
  }

  const ParamBindings *bindings() const {
    return Frames.empty() ? nullptr : &AllBindings;
  }
  /// \p E, or the argument a parameter \p E names stands for.
  const Expr *bound(const Expr *E) const {
    const Expr *S = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
        if (const ParamBindings *B = bindings())
          if (const Expr *Arg = B->lookup(P))
            return Finder.lookThrough(Arg);
    return E;
  }

  void callee(const FunctionDecl *FD, SourceLocation Loc) {
    if (namedEvent(*FD, Loc))
      return;
    if (unsigned ID = FD->getBuiltinID()) {
      std::string BuiltinName = Ctx.BuiltinInfo.getName(ID);
      llvm::StringRef Name = BuiltinName;
      if (Name.contains("mbarrier"))
        simple(EventKind::Opaque, Loc); // an mbarrier op the model lacks
      else if (Name.contains("sync") || Name.contains("bar"))
        simple(EventKind::ThreadSync, Loc);
      else if (Name.contains("fence") || Name.contains("membar"))
        simple(EventKind::Opaque, Loc);
      return;
    }
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def) {
      // CUDA intrinsics declared without a body (address conversions,
      // shuffles, math) order nothing; anything else may.
      llvm::StringRef Name =
          FD->getIdentifier() ? FD->getName() : llvm::StringRef();
      bool Intrinsic = Name.starts_with("__") && !Name.contains("sync") &&
                       !Name.contains("fence") && !Name.contains("bar") &&
                       !Name.contains("wait") && !Name.contains("arrive");
      if (!Intrinsic)
        simple(EventKind::Opaque, Loc);
      return;
    }
    if (Stack.size() > MaxDepth || llvm::is_contained(Stack, Def)) {
      simple(EventKind::Opaque, Loc);
      return;
    }
    // Events of a helper point at its call (or construction) in the body.
    bool Outer = InHelper;
    if (!InHelper)
      ViaLoc = Loc;
    InHelper = true;
    Stack.push_back(Def);
    walkBody(Def->getBody());
    Stack.pop_back();
    InHelper = Outer;
    // Threads that returned early from the helper are back.
    llvm::erase_if(Diverged, [&](const auto &D) {
      return D.first == Scope::Helper && D.second > Stack.size();
    });
    SetValid = false;
  }

  ASTContext &Ctx;
  DeviceOpsFinder &Finder;
  KernelSequence &Out;
  /// Helpers whose walk showed no event with no shared buffer passed (for
  /// all kernels of the TU).
  llvm::DenseSet<const FunctionDecl *> &Quiet;
  LocalAliases &Aliases;
  ThreadGuards &Guards;
  std::vector<std::pair<std::optional<Cond>, bool>> GuardStack;
  /// Jumps under a guard (some threads left) and where they end: a loop
  /// (its depth), a helper (the call depth) or the kernel.
  enum class Scope { Loop, Helper, Kernel };
  std::vector<std::pair<Scope, std::size_t>> Diverged;
  std::shared_ptr<const ThreadSet> Set;
  bool SetValid = false;
  /// The return of a top-level `if (c) { ...; return; }` being walked.
  const Stmt *TopReturn = nullptr;
  std::vector<std::uintptr_t> Loops;
  std::vector<std::pair<std::uintptr_t, unsigned>> Branches;
  std::uintptr_t Counter = 0;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  std::vector<std::pair<const VarDecl *, std::string>> BufferKeys;
  std::vector<int> BufferIds;
  std::vector<std::pair<llvm::FoldingSetNodeID, int>> BarrierKeys;
  /// Walking a helper, called (or constructed) in the body at ViaLoc.
  bool InHelper = false;
  /// Per helper being walked: its parameters' arguments.
  std::vector<ParamBindings> Frames;
  /// The parameters of every frame being walked and their arguments.
  ParamBindings AllBindings;
  SourceLocation ViaLoc;
  bool Failed = false;
};

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

const KernelSequence *KernelModel::sequenceOf(const FunctionDecl *Kernel) {
  auto [It, Inserted] = Memo.try_emplace(Kernel);
  if (!Inserted)
    return It->second.get();
  if (!Kernel->hasBody() || Kernel->isDependentContext())
    return nullptr;
  auto K = std::make_unique<KernelSequence>();
  Builder B(Ctx, *Finder, *K, QuietHelpers, Aliases, Guards);
  if (!B.run(Kernel) || !hasTmaOp(*K))
    return nullptr;
  It->second = std::move(K);
  return It->second.get();
}

} // namespace clang::tidy::tma
