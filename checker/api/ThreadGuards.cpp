//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/ThreadGuards.h"
#include "api/BarrierPhases.h"
#include "api/ClusterRank.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "api/LoopParts.h"
#include "api/PtxParser.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::tma {

using ::tma::rules::threads::BlockSize;
using ::tma::rules::threads::Cmp;
using ::tma::rules::threads::Cond;
using ::tma::rules::threads::Step;
using ::tma::rules::threads::ThreadExpr;
using ::tma::rules::threads::ThreadSet;

namespace {
constexpr unsigned MaxDepth = 16;
/// uniformImpl's own bound: a member call on a uniform object reads the
/// method's body and the helpers it calls (ThreadGuardsObjects.cpp).
constexpr unsigned MaxUniformDepth = 32;

std::optional<Cmp> cmpOf(BinaryOperatorKind K, bool Swapped) {
  switch (K) {
  case BO_EQ:
    return Cmp::EQ;
  case BO_NE:
    return Cmp::NE;
  case BO_LT:
    return Swapped ? Cmp::GT : Cmp::LT;
  case BO_LE:
    return Swapped ? Cmp::GE : Cmp::LE;
  case BO_GT:
    return Swapped ? Cmp::LT : Cmp::GT;
  case BO_GE:
    return Swapped ? Cmp::LE : Cmp::GE;
  default:
    return std::nullopt;
  }
}

void collectJumps(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
      isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    Out.push_back(S);
  for (const Stmt *Child : S->children())
    collectJumps(Child, Out);
}

/// `t.thread_rank()` of a `cooperative_groups::thread_block`: the linear
/// rank of the thread in the block.
bool isBlockThreadRank(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || !MD->getIdentifier() || MD->getName() != "thread_rank" ||
      !MD->getParent()->getIdentifier() ||
      MD->getParent()->getName() != "thread_block")
    return false;
  for (const DeclContext *DC = MD->getParent()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      if (N->getIdentifier() && N->getName() == "cooperative_groups")
        return N->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}

/// The innermost loop or switch around \p S (what a break leaves).
const Stmt *jumpTarget(const ParentMap &PM, const Stmt *S) {
  for (const Stmt *P = PM.getParent(S); P; P = PM.getParent(P))
    if (isLoop(P) || isa<SwitchStmt>(P))
      return P;
  return nullptr;
}

/// Calls \p F(D, P) for each reference D to \p VD in \p Body that is not a
/// plain read (an lvalue-to-rvalue conversion), P being its parent past
/// parentheses, until F returns false; returns whether none did.
template <typename Fn>
bool forEachNonReadRef(const Stmt *Body, const VarDecl *VD,
                       const ParentMap &PM, Fn F) {
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
    const auto *D = dyn_cast<DeclRefExpr>(S);
    if (!D || D->getDecl() != VD)
      continue;
    const Stmt *P = PM.getParent(D);
    while (P && isa<ParenExpr>(P))
      P = PM.getParent(P);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(P);
        C && C->getCastKind() == CK_LValueToRValue)
      continue;
    if (!F(D, P))
      return false;
  }
  return true;
}
} // namespace

std::optional<std::int64_t> ThreadGuards::constant(const Expr *E) {
  if (!E || E->isValueDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (auto F = Folder->foldInt(E))
    if (F->Value.getSignificantBits() <= 64)
      return F->Value.getExtValue();
  return std::nullopt;
}

namespace {
/// The one statement \p S runs, past constant `if constexpr` branches and
/// declarations that run nothing (constexpr locals, static_asserts): the
/// return of `if constexpr (N == 0) { return a; } else { constexpr int W =
/// N / 32; static_assert(W > 0); return b; }` in an instantiation. Null
/// for anything else.
const ReturnStmt *soleReturn(const Stmt *S, const ASTContext &Ctx,
                             unsigned Depth = 0) {
  if (!S || Depth > 8)
    return nullptr;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S))
    return Ret;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    bool Taken = false;
    if (!If->isConstexpr() || If->getInit() || If->getConditionVariable() ||
        If->getCond()->isValueDependent() ||
        !If->getCond()->EvaluateAsBooleanCondition(Taken, Ctx))
      return nullptr;
    return soleReturn(Taken ? If->getThen() : If->getElse(), Ctx, Depth + 1);
  }
  const auto *Body = dyn_cast<CompoundStmt>(S);
  if (!Body)
    return nullptr;
  auto RunsNothing = [](const Stmt *X) {
    if (isa<NullStmt>(X))
      return true;
    const auto *D = dyn_cast<DeclStmt>(X);
    return D && llvm::all_of(D->decls(), [](const Decl *Y) {
             const auto *V = dyn_cast<VarDecl>(Y);
             return isa<StaticAssertDecl>(Y) || (V && V->isConstexpr());
           });
  };
  const Stmt *One = nullptr;
  for (const Stmt *X : Body->body()) {
    if (RunsNothing(X))
      continue;
    if (One)
      return nullptr;
    One = X;
  }
  return soleReturn(One, Ctx, Depth + 1);
}
// The argument of \p Call that a parameter \p P of its callee \p FD stands
// for; a parameter of an outer function goes to the outer resolver \p R.
const Expr *boundArgument(const FunctionDecl *FD, const CallExpr *Call,
                          ThreadGuards::Resolver R, const ParmVarDecl *P) {
  if (P->getDeclContext() == FD->getDefinition() || P->getDeclContext() == FD)
    return P->getFunctionScopeIndex() < Call->getNumArgs()
               ? Call->getArg(P->getFunctionScopeIndex())
               : nullptr;
  return R ? R(P) : nullptr;
}
} // namespace

const Expr *ThreadGuards::returnedBy(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  const ReturnStmt *Ret = soleReturn(Def->getBody(), Ctx);
  return Ret ? Ret->getRetValue() : nullptr;
}

const ParmVarDecl *ThreadGuards::laneZeroShuffle(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->getNumParams() != 1)
    return nullptr;
  // `T r; asm("shfl.sync.idx.b32 %0, %1, 0, 0x1f, mask;" : "=r"(r) :
  // "r"(x)); return r;`
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 3)
    return nullptr;
  const auto *Decl = dyn_cast<DeclStmt>(Body->body_front());
  const auto *Asm = dyn_cast<GCCAsmStmt>(*std::next(Body->body_begin()));
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  const auto *V = Decl && Decl->isSingleDecl()
                      ? dyn_cast<VarDecl>(Decl->getSingleDecl())
                      : nullptr;
  if (!V || V->getInit() || !Asm || !Ret || !Ret->getRetValue() ||
      Asm->getNumOutputs() != 1 || Asm->getNumInputs() != 1)
    return nullptr;
  auto Names = [](const Expr *E, const ValueDecl *D) {
    const auto *Ref =
        E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return Ref && Ref->getDecl() == D;
  };
  if (!Names(Asm->getOutputExpr(0), V) || !Names(Ret->getRetValue(), V) ||
      !Names(Asm->getInputExpr(0), Def->getParamDecl(0)))
    return nullptr;
  const auto *Text = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
  if (!Text)
    return nullptr;
  // One statement, lane 0's %1 into %0.
  unsigned Statements = 0;
  std::vector<::tma::ptx::Shuffle> S =
      ::tma::ptx::shufflesOf(Text->getString(), !Asm->isSimple(), &Statements);
  using ::tma::ptx::Value;
  auto IsRef = [](const Value &V, unsigned I) {
    return V.Kind == Value::Ref && V.Index == I;
  };
  if (Statements != 1 || S.size() != 1 || S[0].Guarded || S[0].Mode != "idx" ||
      !IsRef(S[0].Dst, 0) || !IsRef(S[0].Src, 1) ||
      S[0].Lane.Kind != Value::Immediate || S[0].Lane.Imm != 0)
    return nullptr;
  return FD->getParamDecl(0);
}

std::optional<ThreadExpr> ThreadGuards::threadExpr(const Expr *E, Resolver R,
                                                   unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    // Integer conversions that keep a thread index (< 1024) intact.
    QualType T = C->getType();
    if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp ||
        (C->getCastKind() == CK_IntegralCast && T->isIntegerType() &&
         Ctx.getTypeSize(T) >= 16))
      return threadExpr(C->getSubExpr(), R, Depth + 1);
    return std::nullopt;
  }
  if (auto V = cudaBuiltinVar(E))
    return V->first == "threadIdx" ? threadIndex(V->second) : std::nullopt;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    Step::Op Op;
    switch (B->getOpcode()) {
    case BO_Div:
      Op = Step::Div;
      break;
    case BO_Rem:
      Op = Step::Mod;
      break;
    case BO_And:
      Op = Step::And;
      break;
    case BO_Shr:
      Op = Step::Shr;
      break;
    case BO_Shl:
      Op = Step::Shl;
      break;
    case BO_Add:
      Op = Step::Add;
      break;
    case BO_Sub:
      Op = Step::Sub;
      break;
    case BO_Mul:
      Op = Step::Mul;
      break;
    default:
      return std::nullopt;
    }
    // An unsigned difference may wrap; the model computes in int64.
    if (Op == Step::Sub && E->getType()->isUnsignedIntegerType())
      return std::nullopt;
    std::optional<std::int64_t> C = constant(B->getRHS());
    std::optional<ThreadExpr> X;
    if (C) {
      X = threadExpr(B->getLHS(), R, Depth + 1);
    } else if (Op == Step::Add || Op == Step::Mul || Op == Step::And) {
      C = constant(B->getLHS());
      if (C)
        X = threadExpr(B->getRHS(), R, Depth + 1);
    }
    if (!X || *C < 0 || ((Op == Step::Div || Op == Step::Mod) && *C == 0))
      return std::nullopt;
    X->push_back({Op, *C});
    return X;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      return R ? threadExpr(R(P), R, Depth + 1) : std::nullopt;
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (VD && VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->getInit() &&
        !VD->getType()->isReferenceType() &&
        (VD->getType().isConstQualified() || Folder->isNeverWritten(VD) ||
         initialValueAt(VD, D)))
      return threadExpr(VD->getInit(), R, Depth + 1);
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return std::nullopt;
    if (unsigned ID = FD->getBuiltinID()) {
      std::string Builtin = Ctx.BuiltinInfo.getName(ID);
      llvm::StringRef Name = Builtin;
      return Name.consume_front("__nvvm_read_ptx_sreg_tid_") && Name.size() == 1
                 ? threadIndex(Name[0])
                 : std::nullopt;
    }
    if (isBlockThreadRank(Call))
      return ThreadExpr();
    // __shfl_sync(mask, x, 0): lane 0's x, which is every lane's when x is
    // the same across the warp.
    if (FD->getIdentifier() && FD->getName() == "__shfl_sync" &&
        Call->getNumArgs() >= 3 && constant(Call->getArg(2)) == 0) {
      auto X = threadExpr(Call->getArg(1), R, Depth + 1);
      if (X && ::tma::rules::threads::warpUniform(*X))
        return X;
      return std::nullopt;
    }
    // An asm wrapper of `shfl.sync.idx` from lane 0 (`make_warp_uniform(x)`):
    // the same as __shfl_sync above.
    if (const ParmVarDecl *P = laneZeroShuffle(FD)) {
      unsigned I = P->getFunctionScopeIndex();
      auto X = I < Call->getNumArgs()
                   ? threadExpr(Call->getArg(I), R, Depth + 1)
                   : std::nullopt;
      if (X && ::tma::rules::threads::warpUniform(*X))
        return X;
      return std::nullopt;
    }
    // A one-return helper (`canonical_warp_idx_sync()`, `lane_id()`).
    const Expr *Ret = returnedBy(FD);
    if (!Ret ||
        (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic()))
      return std::nullopt;
    auto Inner = [&](const ParmVarDecl *P) {
      return boundArgument(FD, Call, R, P);
    };
    return threadExpr(Ret, Inner, Depth + 1);
  }
  return std::nullopt;
}

std::optional<ThreadExpr> ThreadGuards::threadIndex(char Dim) {
  // No launch shape: the block is taken to be one-dimensional, its
  // threadIdx.x the rank; y and z are unknown.
  if (!Shape || (Shape->Y == 1 && Shape->Z == 1)) {
    if (Dim == 'x')
      return ThreadExpr();
    if (Shape && (Dim == 'y' || Dim == 'z'))
      return ThreadExpr{{Step::Mul, 0}}; // always 0
    return std::nullopt;
  }
  std::int64_t X = Shape->X, Y = Shape->Y;
  switch (Dim) {
  case 'x':
    return ThreadExpr{{Step::Mod, X}};
  case 'y':
    return ThreadExpr{{Step::Div, X}, {Step::Mod, Y}};
  case 'z':
    return ThreadExpr{{Step::Div, X * Y}};
  default:
    return std::nullopt;
  }
}

bool ThreadGuards::initialValueAt(const VarDecl *VD, const Expr *Use) {
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  const Stmt *Body = FD->getBody();
  for (const Stmt *J : jumpsOf(Body))
    if (isa<GotoStmt>(J) || isa<IndirectGotoStmt>(J))
      return false;
  const ParentMap &PM = Folder->parentsOf(Body);
  // The loops around the use; a use in a lambda may run anywhere.
  llvm::SmallVector<const Stmt *, 4> Loops;
  const Stmt *P = PM.getParent(Use);
  if (!P)
    return false;
  for (; P; P = PM.getParent(P)) {
    if (isa<LambdaExpr>(P))
      return false;
    if (isLoop(P))
      Loops.push_back(P);
  }
  auto [It, Inserted] = Writes.try_emplace(VD);
  if (Inserted) {
    std::vector<const Stmt *> &Refs = It->second;
    forEachNonReadRef(Body, VD, PM, [&](const DeclRefExpr *D, const Stmt *) {
      Refs.push_back(D);
      return true;
    });
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation UseEnd = SM.getExpansionLoc(Use->getEndLoc());
  for (const Stmt *W : It->second) {
    if (W == Use ||
        !SM.isBeforeInTranslationUnit(UseEnd,
                                      SM.getExpansionLoc(W->getBeginLoc())))
      return false;
    for (const Stmt *L : Loops)
      if (isWithin(PM, W, L))
        return false;
  }
  return true;
}

bool ThreadGuards::isElect(const Expr *E, unsigned Depth) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || Depth > 4)
    return false;
  if (FD->getName() == "elect_one_sync")
    return true;
  // A wrapper that returns such a call (`return cute::elect_one_sync();`).
  if (const Expr *Ret = returnedBy(FD); Ret && isElect(Ret, Depth + 1))
    return true;
  // A user wrapper of `elect.sync` with at most a member-mask parameter.
  const FunctionDecl *Def = nullptr;
  if (FD->getNumParams() > 1 || !FD->hasBody(Def) || !Def ||
      !FD->getName().contains_insensitive("elect"))
    return false;
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      if (const auto *Text =
              dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr()))
        if (Text->getString().contains("elect.sync"))
          return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

std::optional<Cond> ThreadGuards::condition(const Expr *C, Resolver R) {
  if (!C || C->isValueDependent())
    return std::nullopt;
  C = C->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(C);
      U && U->getOpcode() == UO_LNot) {
    auto Sub = condition(U->getSubExpr(), R);
    if (!Sub)
      return std::nullopt;
    return Sub->K == Cond::True ? *Sub : Cond::negate(std::move(*Sub));
  }
  if (const auto *B = dyn_cast<BinaryOperator>(C)) {
    if (B->isLogicalOp()) {
      auto L = condition(B->getLHS(), R);
      auto Rt = L ? condition(B->getRHS(), R) : std::nullopt;
      if (!L || !Rt)
        return std::nullopt;
      if (L->K == Cond::True && Rt->K == Cond::True)
        return Cond();
      return B->getOpcode() == BO_LAnd
                 ? Cond::both(std::move(*L), std::move(*Rt))
                 : Cond::either(std::move(*L), std::move(*Rt));
    }
    if (B->isComparisonOp()) {
      if (auto K = constant(B->getRHS()))
        if (auto X = threadExpr(B->getLHS(), R, 0))
          return Cond::atom(std::move(*X), *cmpOf(B->getOpcode(), false), *K);
      if (auto K = constant(B->getLHS()))
        if (auto X = threadExpr(B->getRHS(), R, 0))
          return Cond::atom(std::move(*X), *cmpOf(B->getOpcode(), true), *K);
    }
  }
  if (isElect(C))
    return Cond::elect();
  // A helper that returns a condition on the thread, its parameters
  // standing for the call's arguments: tilelang's `tl_shuffle_elect<N>()`
  // is `elect_one_sync() && canonical_warp_idx() % W == 0` (one elected
  // lane in every W-th warp) past its `if constexpr` branches.
  if (const auto *Call = dyn_cast<CallExpr>(C); Call && CondDepth < MaxDepth) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    const Expr *Ret = FD && !(MD && !MD->isStatic()) ? returnedBy(FD) : nullptr;
    if (Ret) {
      auto Inner = [&](const ParmVarDecl *P) {
        return boundArgument(FD, Call, R, P);
      };
      ++CondDepth;
      auto Sub = condition(Ret, Inner);
      --CondDepth;
      if (Sub)
        return Sub;
    }
  }
  // A flag computed once (`bool leader = elect_one_sync();`, `bool first =
  // threadIdx.x == 0;`), or a helper's flag parameter.
  // An integer flag (`uint32_t leader = elect_sync(); if (leader)`) is
  // tested against zero like its initialiser.
  if (const auto *D = dyn_cast<DeclRefExpr>(C);
      D && C->getType()->isIntegralOrEnumerationType() &&
      CondDepth < MaxDepth) {
    const Expr *Init = nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      Init = R ? R(P) : nullptr;
    else if (const auto *VD = dyn_cast<VarDecl>(D->getDecl());
             VD && VD->isLocalVarDecl() && !VD->isStaticLocal() &&
             !VD->getType()->isReferenceType() &&
             (VD->getType().isConstQualified() || Folder->isNeverWritten(VD) ||
              initialValueAt(VD, D)))
      Init = VD->getInit();
    if (Init) {
      ++CondDepth;
      auto Sub = condition(Init, R);
      --CondDepth;
      if (Sub)
        return Sub;
    }
  }
  if (uniform(C, R))
    return Cond();
  if (C->getType()->isIntegerType())
    if (auto X = threadExpr(C, R, 0))
      return Cond::atom(std::move(*X), Cmp::NE, 0);
  return std::nullopt;
}

namespace {
bool hasUniformPart(const Cond &C) {
  if (C.K == Cond::True)
    return true;
  for (const Cond &K : C.Kids)
    if (hasUniformPart(K))
      return true;
  return false;
}
} // namespace

bool ThreadGuards::threadOnly(const Expr *C) {
  auto G = condition(C);
  return G && !hasUniformPart(*G);
}

bool ThreadGuards::threadStrided(const ForStmt &F) {
  // The counter and its first value.
  const VarDecl *V = nullptr;
  const Expr *First = nullptr;
  if (const auto *D = dyn_cast_or_null<DeclStmt>(F.getInit());
      D && D->isSingleDecl()) {
    V = dyn_cast<VarDecl>(D->getSingleDecl());
    First = V ? V->getInit() : nullptr;
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F.getInit());
             B && B->getOpcode() == BO_Assign) {
    const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
    V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    First = B->getRHS();
  }
  if (!V || !First || !V->getType()->isIntegerType() ||
      !threadExpr(First, nullptr, 0))
    return false;
  auto IsV = [V](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == V;
  };
  const auto *C = dyn_cast_or_null<BinaryOperator>(F.getCond());
  if (!C ||
      (C->getOpcode() != BO_LT && C->getOpcode() != BO_LE &&
       C->getOpcode() != BO_NE) ||
      !IsV(C->getLHS()) || !uniform(C->getRHS()))
    return false;
  const auto *Inc = dyn_cast_or_null<BinaryOperator>(F.getInc());
  if (!Inc)
    return false;
  if (Inc->getOpcode() == BO_AddAssign)
    return IsV(Inc->getLHS()) && uniform(Inc->getRHS());
  if (Inc->getOpcode() != BO_Assign || !IsV(Inc->getLHS()))
    return false;
  const auto *Sum = dyn_cast<BinaryOperator>(Inc->getRHS()->IgnoreParenImpCasts());
  return Sum && Sum->getOpcode() == BO_Add &&
         ((IsV(Sum->getLHS()) && uniform(Sum->getRHS())) ||
          (IsV(Sum->getRHS()) && uniform(Sum->getLHS())));
}

bool ThreadGuards::firstPassRuns(const ForStmt &F,
                                 ::tma::rules::threads::BlockSize Block) {
  namespace thr = ::tma::rules::threads;
  const auto *D = dyn_cast_or_null<DeclStmt>(F.getInit());
  const auto *V = D && D->isSingleDecl() ? dyn_cast<VarDecl>(D->getSingleDecl())
                                         : nullptr;
  const auto *C = dyn_cast_or_null<BinaryOperator>(F.getCond());
  if (!V || !V->getInit() || !V->getType()->isIntegerType() || !C ||
      (C->getOpcode() != BO_LT && C->getOpcode() != BO_LE))
    return false;
  // Constants of the language only: the folder's parameters belong to
  // whichever call context it was left in.
  auto Constant = [&](const Expr *E) -> std::optional<std::int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType() ||
        !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  const auto *Ref = dyn_cast<DeclRefExpr>(C->getLHS()->IgnoreParenImpCasts());
  std::optional<std::int64_t> Bound = Constant(C->getRHS());
  if (!Ref || Ref->getDecl() != V || !Bound)
    return false;
  thr::Cmp Op = C->getOpcode() == BO_LT ? thr::Cmp::LT : thr::Cmp::LE;
  if (std::optional<std::int64_t> First = Constant(V->getInit()))
    return Op == thr::Cmp::LT ? *First < *Bound : *First <= *Bound;
  std::optional<thr::ThreadExpr> T = threadExpr(V->getInit(), nullptr, 0);
  if (!T)
    return false;
  // Every thread of the block meets the bound on its first value.
  thr::ThreadSet All;
  return thr::includedIn(All, All.under(thr::Cond::atom(*T, Op, *Bound), true),
                         Block);
}

bool ThreadGuards::uniform(const Expr *E, Resolver R) {
  return uniformImpl(E, R, 0);
}

bool ThreadGuards::uniformImpl(const Expr *E, Resolver R, unsigned Depth) {
  if (!E || Depth > MaxUniformDepth)
    return false;
  E = E->IgnoreParenCasts();
  if (E->isValueDependent())
    return false;
  if (isa<IntegerLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<FloatingLiteral>(E) || isa<CharacterLiteral>(E) ||
      isa<UnaryExprOrTypeTraitExpr>(E) || isa<CXXNullPtrLiteralExpr>(E))
    return true;
  if (auto V = cudaBuiltinVar(E))
    return V->first == "blockIdx" || V->first == "blockDim" ||
           V->first == "gridDim" ||
           (V->first == "threadIdx" && V->second != 'x' && Shape &&
            (V->second == 'y' ? Shape->Y : Shape->Z) == 1);
  if (isa<PseudoObjectExpr>(E))
    return false;
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult Res;
    if (E->EvaluateAsInt(Res, Ctx))
      return true;
  }
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *VD = D->getDecl();
    if (isa<EnumConstantDecl>(VD) || isa<NonTypeTemplateParmDecl>(VD))
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (R)
        if (const Expr *Arg = R(P))
          return uniformImpl(Arg, R, Depth + 1);
      // A kernel's parameters are the same in every thread.
      const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
      return F && F->hasAttr<CUDAGlobalAttr>() &&
             !P->getType()->isReferenceType();
    }
    if (const auto *V = dyn_cast<VarDecl>(VD)) {
      if (V->hasAttr<CUDAConstantAttr>())
        return true;
      if (V->isLocalVarDecl() && !V->isStaticLocal() && V->getInit() &&
          !V->getType()->isReferenceType() &&
          (V->getType().isConstQualified() || Folder->isNeverWritten(V)))
        return uniformImpl(V->getInit(), R, Depth + 1);
      return uniformVar(V, Depth + 1);
    }
    return false;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(M->getMemberDecl()))
      return false;
    const Expr *Base = M->getBase()->IgnoreParenImpCasts();
    // A field of the object whose method is being read (uniform objects).
    if (isa<CXXThisExpr>(Base))
      return ThisObject &&
             cast<FieldDecl>(M->getMemberDecl())->getParent() == ThisObject;
    if (M->isArrow())
      return false;
    // A field of a by-value object that is uniform (`params.k`), or of a
    // kernel local whose state is alike where it is read (`sched.iter`).
    if (uniformImpl(M->getBase(), R, Depth + 1))
      return true;
    const auto *D = dyn_cast<DeclRefExpr>(Base);
    const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return V && V->getType()->isRecordType() && objectAlikeAt(V, *M, Depth + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    // `++iter` in a method of a uniform object: the field's next value.
    if (U->isIncrementDecrementOp() && ThisObject)
      if (const auto *M = dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParens());
          M && isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
        return uniformImpl(M, R, Depth + 1);
    return (U->getOpcode() == UO_LNot || U->getOpcode() == UO_Minus ||
            U->getOpcode() == UO_Plus || U->getOpcode() == UO_Not) &&
           uniformImpl(U->getSubExpr(), R, Depth + 1);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           uniformImpl(B->getLHS(), R, Depth + 1) &&
           uniformImpl(B->getRHS(), R, Depth + 1);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return uniformImpl(C->getCond(), R, Depth + 1) &&
           uniformImpl(C->getTrueExpr(), R, Depth + 1) &&
           uniformImpl(C->getFalseExpr(), R, Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // The CTA's rank in its cluster (%cluster_ctarank).
    if (readsClusterRank(Call))
      return true;
    const FunctionDecl *FD = Call->getDirectCallee();
    // A load through the read-only cache (`__ldg(p + i)`): the data does not
    // change while the kernel runs, so one address reads one value.
    if (FD && FD->getIdentifier() && FD->getName() == "__ldg" &&
        Call->getNumArgs() == 1 &&
        FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return uniformImpl(Call->getArg(0), R, Depth + 1);
    // The CUDA headers' integer min/max (`min`, `umin`, libdevice's
    // `__nv_umin`): pure functions of their arguments.
    if (FD && FD->getIdentifier() && FD->getReturnType()->isIntegerType() &&
        FD->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
        Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) &&
        llvm::is_contained({"min", "max", "umin", "umax", "llmin", "llmax",
                            "ullmin", "ullmax", "__nv_min", "__nv_max",
                            "__nv_umin", "__nv_umax", "__nv_llmin",
                            "__nv_llmax", "__nv_ullmin", "__nv_ullmax"},
                           FD->getName()))
      return llvm::all_of(Call->arguments(), [&](const Expr *A) {
        return uniformImpl(A, R, Depth + 1);
      });
    // A member call on a uniform object (`sched.next(m, n)`).
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      return uniformMemberCall(*MC, R, Depth + 1);
    // A one-return helper of uniform arguments (`min(a, b)`, `ceil_div`).
    if (!FD || (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic()))
      return false;
    const Expr *Ret = returnedBy(FD);
    if (!Ret)
      return false;
    for (const Expr *A : Call->arguments())
      if (!uniformImpl(A, R, Depth + 1))
        return false;
    auto Inner = [&](const ParmVarDecl *P) {
      return boundArgument(FD, Call, R, P);
    };
    return uniformImpl(Ret, Inner, Depth + 1);
  }
  return false;
}

bool ThreadGuards::uniformVar(const VarDecl *VD, unsigned Depth) {
  // A written local of a kernel (a loop counter, a phase bit): uniform when
  // its initialiser and every value written to it are, and every write runs
  // under uniform control. Decided once; a self-reference (`k = k + 1`)
  // assumes the answer being decided.
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>() || !FD->getBody() ||
      !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !(VD->getType()->isIntegralOrEnumerationType() ||
        VD->getType()->isBooleanType()))
    return false;
  auto [It, Inserted] = UniformVars.try_emplace(VD, true);
  if (!Inserted)
    return It->second;
  std::size_t Mark = Assumed.size();
  Assumed.push_back({VD, nullptr});
  auto Decide = [&]() -> bool {
    // `uint32_t r; asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));`: a
    // register that every thread of the CTA reads alike.
    if (!VD->getInit()) {
      auto L = asmWrittenLocal(*VD, Folder->parentsOf(FD->getBody()));
      return L && llvm::all_of(L->Writers, [](const auto &W) {
               StringRef Reg = movedSpecialRegister(*W.second);
               return Reg == "cluster_ctarank" || Reg == "cluster_nctarank" ||
                      Reg.starts_with("clusterid.") ||
                      Reg.starts_with("nclusterid.") ||
                      Reg.starts_with("cluster_ctaid.") ||
                      Reg.starts_with("cluster_nctaid.") ||
                      Reg.starts_with("ctaid.") || Reg.starts_with("nctaid.");
             });
    }
    if (!uniformImpl(VD->getInit(), nullptr, Depth + 1))
      return false;
    const Stmt *Body = FD->getBody();
    const ParentMap &PM = Folder->parentsOf(Body);
    // A break or goto under a guard leaves loops in some threads only.
    const std::vector<const Stmt *> BodyJumps = jumpsOf(Body);
    // Only the control inside the variable's scope matters: every thread
    // that has it (a loop counter under `if (threadIdx.x == 0)`) runs the
    // same code from its declaration on.
    const Stmt *Scope = nullptr;
    {
      std::vector<const Stmt *> Work{Body};
      while (!Work.empty() && !Scope) {
        const Stmt *S = Work.back();
        Work.pop_back();
        if (!S || isa<LambdaExpr>(S))
          continue;
        if (const auto *DS = dyn_cast<DeclStmt>(S);
            DS && llvm::is_contained(DS->decls(), VD))
          Scope = PM.getParent(DS);
        for (const Stmt *Child : S->children())
          Work.push_back(Child);
      }
    }
    auto UniformControl = [&](const Stmt *S) {
      const Stmt *Prev = S;
      for (const Stmt *P = PM.getParent(S); P && Prev != Body && Prev != Scope;
           Prev = P, P = PM.getParent(P)) {
        if (const auto *If = dyn_cast<IfStmt>(P)) {
          if (Prev != If->getCond() && !If->isConstexpr() &&
              !uniformImpl(If->getCond(), nullptr, Depth + 1))
            return false;
        } else if (isLoop(P)) {
          if (isa<CXXForRangeStmt>(P))
            return false;
          if (const auto *F = dyn_cast<ForStmt>(P); F && Prev == F->getInit())
            continue;
          if (const Expr *Cond = loopCond(P);
              Cond && !uniformImpl(Cond, nullptr, Depth + 1))
            return false;
        } else if (isa<SwitchStmt>(P) || isa<LambdaExpr>(P) ||
                   isa<AbstractConditionalOperator>(P)) {
          return false;
        } else if (const auto *B = dyn_cast<BinaryOperator>(P);
                   B && B->isLogicalOp() && Prev == B->getRHS() &&
                   !uniformImpl(B->getLHS(), nullptr, Depth + 1)) {
          return false;
        }
      }
      return true;
    };
    for (const Stmt *J : BodyJumps)
      if ((isa<GotoStmt>(J) || isa<IndirectGotoStmt>(J) ||
           (isa<BreakStmt>(J) && (!Scope || isWithin(PM, J, Scope)))) &&
          !UniformControl(J))
        return false;
    return forEachNonReadRef(
        Body, VD, PM, [&](const DeclRefExpr *D, const Stmt *P) {
          if (const auto *B = dyn_cast_or_null<BinaryOperator>(P);
              B && B->isAssignmentOp() && B->getLHS()->IgnoreParens() == D)
            return uniformImpl(B->getRHS(), nullptr, Depth + 1) &&
                   UniformControl(B);
          if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
              U && U->isIncrementDecrementOp())
            return UniformControl(U);
          return false; // address taken, bound to a reference, unknown use
        });
  };
  bool Result = Decide();
  UniformVars[VD] = Result;
  if (!Result)
    forgetSince(Mark + 1);
  return Result;
}

const std::vector<const Stmt *> &ThreadGuards::jumpsOf(const Stmt *Body) {
  auto [It, Inserted] = Jumps.try_emplace(Body);
  if (Inserted)
    collectJumps(Body, It->second);
  return It->second;
}

std::optional<ThreadSet> ThreadGuards::threadsAt(const Stmt *S,
                                                 const FunctionDecl *Fn) {
  if (!Fn->hasAttr<CUDAGlobalAttr>() || !Fn->getBody())
    return std::nullopt;
  blockOf(Fn); // the block shape that spells threadIdx
  const Stmt *Body = Fn->getBody();
  const ParentMap &PM = Folder->parentsOf(Body);
  // The guards from S up to the body, innermost first.
  std::vector<std::pair<const Expr *, bool>> Up;
  // The guards from \p From up to the body, or up to (not including) the
  // first statement of \p Stop, which is then \p Met.
  auto GuardsOf = [&](const Stmt *From,
                      std::vector<std::pair<const Expr *, bool>> &Out,
                      const llvm::SmallPtrSetImpl<const Stmt *> *Stop = nullptr,
                      const Stmt **Met = nullptr) {
    const Stmt *Prev = From;
    for (const Stmt *P = PM.getParent(From); P; Prev = P, P = PM.getParent(P)) {
      if (Stop && Stop->count(P)) {
        *Met = P;
        return true;
      }
      if (const auto *If = dyn_cast<IfStmt>(P)) {
        if (If->isConsteval())
          return false;
        if (!If->isConstexpr() &&
            (Prev == If->getThen() || Prev == If->getElse()))
          Out.push_back({If->getCond(), Prev == If->getThen()});
      } else if (isLoop(P)) {
        if (isa<CXXForRangeStmt>(P))
          return false;
        if (const auto *F = dyn_cast<ForStmt>(P); F && Prev == F->getInit())
          continue;
        if (const Expr *C = loopCond(P))
          Out.push_back({C, true});
      } else if (const auto *B = dyn_cast<BinaryOperator>(P);
                 B && B->isLogicalOp()) {
        if (Prev == B->getRHS())
          Out.push_back({B->getLHS(), B->getOpcode() == BO_LAnd});
      } else if (const auto *C = dyn_cast<ConditionalOperator>(P)) {
        if (Prev != C->getCond())
          Out.push_back({C->getCond(), Prev == C->getTrueExpr()});
      } else if (isa<SwitchStmt>(P) || isa<LambdaExpr>(P) ||
                 isa<BinaryConditionalOperator>(P) || isa<CXXTryStmt>(P)) {
        return false;
      }
      if (P == Body)
        break;
    }
    return true;
  };
  if (!GuardsOf(S, Up))
    return std::nullopt;
  ThreadSet Set;
  // Jumps before S that some threads take. Only the guards between the
  // jump and the innermost statement that holds S too tell threads apart
  // there: all uniform, every thread that gets that far jumps alike. `if
  // (c) { ...; return; }` (or continue or break, in the loop around S)
  // in a compound statement, S after it, guards what follows with !c (a
  // warp role's branch that ends its pass); any other jump makes S
  // unknown.
  const std::vector<const Stmt *> BodyJumps = jumpsOf(Body);
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Top = dyn_cast<CompoundStmt>(Body);
  llvm::SmallPtrSet<const Stmt *, 16> AroundS;
  for (const Stmt *P = S; P; P = PM.getParent(P)) {
    AroundS.insert(P);
    if (P == Body)
      break;
  }
  for (const Stmt *J : BodyJumps) {
    if (!SM.isBeforeInTranslationUnit(J->getBeginLoc(), S->getBeginLoc()))
      continue;
    if (isa<GotoStmt>(J) || isa<IndirectGotoStmt>(J))
      return std::nullopt;
    if (!isa<ReturnStmt>(J)) {
      const Stmt *Target = jumpTarget(PM, J);
      if (!Target || !isWithin(PM, S, Target))
        continue;
    }
    std::vector<std::pair<const Expr *, bool>> JG;
    const Stmt *Shared = nullptr;
    if (!GuardsOf(J, JG, &AroundS, &Shared) || !Shared)
      return std::nullopt;
    // The jump and S in two branches of one `if`: no thread that jumps
    // there would have run S in that pass.
    if (isa<IfStmt>(Shared))
      continue;
    bool Uniform =
        llvm::all_of(JG, [&](const auto &G) { return uniform(G.first); });
    if (Uniform)
      continue;
    const Stmt *P = PM.getParent(J);
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(P);
        CS && CS->body_back() == J)
      P = PM.getParent(P);
    const auto *If = dyn_cast_or_null<IfStmt>(P);
    if (If && isa<CompoundStmt>(Shared) && PM.getParent(If) == Shared &&
        !If->getElse() && !If->isConstexpr() && JG.size() == 1 &&
        !isWithin(PM, S, If)) {
      auto C = condition(If->getCond());
      // Outside the kernel's top level, the condition must be on the thread
      // alone: a uniform part (`warp == 0 && k == 0`) lets the jumping
      // threads reach S in other passes.
      if (!C || (Shared != Top && hasUniformPart(*C)))
        return std::nullopt;
      Set = Set.under(std::move(*C), false);
      continue;
    }
    return std::nullopt;
  }
  const BlockSize Block = blockOf(Fn);
  for (auto G = Up.rbegin(); G != Up.rend(); ++G) {
    // A loop runs its body in the same threads when its condition is
    // uniform; any other condition is unknown here, unless the guards
    // around it leave one thread: what it guards runs in that thread or in
    // none, as a uniform loop may run no trip and a uniform `if` may not
    // hold (the producer's `if (sched.next(...))` under `tid == 0`).
    auto C = condition(G->first);
    if (!C) {
      auto N = ::tma::rules::threads::issuers(Set, Block);
      if (N && *N == 1)
        continue;
    }
    if (!C)
      return std::nullopt;
    if (C->K != Cond::True)
      Set = Set.under(std::move(*C), G->second);
  }
  return Set;
}

BlockSize ThreadGuards::blockOf(const FunctionDecl *Kernel) {
  Kernel = Kernel->getCanonicalDecl();
  if (auto It = Blocks.find(Kernel); It != Blocks.end()) {
    Shape = Shapes.lookup(Kernel);
    return It->second;
  }
  std::optional<unsigned> MaxThreads;
  for (const FunctionDecl *R : Kernel->redecls())
    if (const auto *LB = R->getAttr<CUDALaunchBoundsAttr>())
      if (auto N = constant(LB->getMaxThreads()); N && *N > 0)
        MaxThreads = static_cast<unsigned>(*N);
  // The block dimensions of every launch `k<<<grid, block>>>`.
  std::optional<Dim3> Launch;
  bool Agree = true, Any = false;
  for (const CallContext *C : Folder->contextsOf(Kernel)) {
    if (!C)
      continue;
    Any = true;
    const auto *K = dyn_cast<CUDAKernelCallExpr>(C->Call);
    const CallExpr *Config = K ? K->getConfig() : nullptr;
    std::optional<Dim3> This;
    if (Config && Config->getNumArgs() >= 2) {
      const Expr *B = Config->getArg(1)->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(B))
        B = M->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(B))
        B = F->getSubExpr()->IgnoreParenImpCasts();
      // A local `dim3 block(32, n)` passed by value: the copy of it.
      if (const auto *Copy = dyn_cast<CXXConstructExpr>(B);
          Copy && Copy->getNumArgs() == 1 &&
          Copy->getConstructor()->isCopyOrMoveConstructor()) {
        B = Copy->getArg(0)->IgnoreParenImpCasts();
        if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(B))
          B = M->getSubExpr()->IgnoreParenImpCasts();
      }
      if (const auto *D = dyn_cast<DeclRefExpr>(B))
        if (const auto *V = dyn_cast<VarDecl>(D->getDecl());
            V && V->isLocalVarDecl() && V->getInit() &&
            (V->getType().isConstQualified() || Folder->isNeverWritten(V)))
          B = V->getInit()->IgnoreParenImpCasts();
      if (const auto *CE = dyn_cast<CXXConstructExpr>(B)) {
        const CallContext *Saved = Folder->currentContext();
        Folder->enterContext(C->Parent);
        std::optional<std::int64_t> Dims[3] = {1, 1, 1};
        for (unsigned I = 0; I < 3 && I < CE->getNumArgs(); ++I)
          if (!isa<CXXDefaultArgExpr>(CE->getArg(I)))
            Dims[I] = constant(CE->getArg(I));
        Folder->enterContext(Saved);
        // dim3(n), an int converted, dim3(x, y, z).
        if (Dims[0] && Dims[1] && Dims[2] && *Dims[0] >= 1 && *Dims[1] >= 1 &&
            *Dims[2] >= 1 && *Dims[0] * *Dims[1] * *Dims[2] <= 1024)
          This = Dim3{static_cast<unsigned>(*Dims[0]),
                      static_cast<unsigned>(*Dims[1]),
                      static_cast<unsigned>(*Dims[2])};
      }
    }
    if (!This || (Launch && (Launch->X != This->X || Launch->Y != This->Y ||
                             Launch->Z != This->Z)))
      Agree = false;
    Launch = This;
  }
  std::optional<Dim3> Known = Any && Agree ? Launch : std::nullopt;
  BlockSize B = ::tma::rules::threads::blockSizeOf(
      Known ? std::optional<unsigned>(Known->X * Known->Y * Known->Z)
            : std::nullopt,
      MaxThreads);
  Blocks[Kernel] = B;
  Shapes[Kernel] = Known;
  Shape = Known;
  return B;
}

} // namespace clang::tidy::tma
