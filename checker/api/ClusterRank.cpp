//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/ClusterRank.h"
#include "api/LoopParts.h"
#include "folding/Uses.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::tma {

namespace {
/// Locals followed through their initialisers, and operators nested.
constexpr unsigned MaxDepth = 16;
} // namespace

namespace {
/// Whether the helper \p F returns `%cluster_ctarank` read by its asm.
bool returnsCtaRank(const FunctionDecl *F) {
  F = F ? F->getDefinition() : nullptr;
  if (!F || !F->getBody())
    return false;
  // `{ T r; asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }`:
  // the asm's one output is the variable the one return statement returns.
  const auto *Body = dyn_cast<CompoundStmt>(F->getBody());
  if (!Body)
    return false;
  const VarDecl *Out = nullptr, *Returned = nullptr;
  unsigned Returns = 0;
  for (const Stmt *S : Body->body()) {
    if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
      const auto *Text = dyn_cast_or_null<StringLiteral>(A->getAsmStringExpr());
      if (!Text || !Text->getString().contains("%cluster_ctarank") ||
          A->getNumOutputs() != 1 || Out)
        return false;
      const auto *D = dyn_cast<DeclRefExpr>(
          A->getOutputExpr(0)->IgnoreParenImpCasts());
      Out = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    } else if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      ++Returns;
      const auto *D = dyn_cast_or_null<DeclRefExpr>(
          R->getRetValue() ? R->getRetValue()->IgnoreParenImpCasts() : nullptr);
      Returned = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    } else if (!isa<DeclStmt>(S)) {
      return false;
    }
  }
  return Out && Returns == 1 && Out == Returned;
}

bool isRankCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  return Call && readsClusterRank(Call);
}

/// The parent of \p S in \p PM, parentheses skipped.
const Stmt *parentOf(const Stmt *S, const ParentMap &PM) {
  const Stmt *P = PM.getParent(S);
  while (P && isa<ParenExpr>(P))
    P = PM.getParent(P);
  return P;
}

/// Whether \p D is read by value (an lvalue-to-rvalue conversion).
bool readByValue(const DeclRefExpr &D, const ParentMap &PM) {
  const auto *C = dyn_cast_or_null<ImplicitCastExpr>(parentOf(&D, PM));
  return C && C->getCastKind() == CK_LValueToRValue;
}

/// The compound statement that declares the local \p VD.
const CompoundStmt *scopeOf(const VarDecl &VD, const Stmt *Body,
                            const ParentMap &PM) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        DS && llvm::is_contained(DS->decls(), &VD))
      return dyn_cast_or_null<CompoundStmt>(PM.getParent(DS));
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return nullptr;
}

/// The body of the function that declares the local \p VD.
const Stmt *bodyOf(const VarDecl &VD) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  return FD ? FD->getBody() : nullptr;
}
} // namespace

StringRef movedSpecialRegister(const GCCAsmStmt &A) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(A.getAsmStringExpr());
  if (!Text || A.getNumOutputs() != 1 || A.getNumInputs() != 0)
    return {};
  // `mov.u32 %0, %%cluster_ctarank;` (one instruction, a trailing newline).
  StringRef T = Text->getString().trim();
  T.consume_back(";");
  if (!T.consume_front("mov.") || T.contains(';') || T.contains('{'))
    return {};
  size_t Comma = T.find(',');
  if (Comma == StringRef::npos || T.take_front(Comma).trim().rsplit(' ').second != "%0")
    return {};
  StringRef Reg = T.drop_front(Comma + 1).trim();
  Reg = Reg.ltrim('%');
  if (Reg.empty() || Reg.contains(' '))
    return {};
  return Reg;
}

std::optional<AsmWrittenLocal> asmWrittenLocal(const VarDecl &VD,
                                               const ParentMap &PM) {
  const Stmt *Body = bodyOf(VD);
  if (!Body || !VD.isLocalVarDecl() || VD.isStaticLocal() || VD.getInit() ||
      !VD.getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  AsmWrittenLocal L;
  L.Scope = scopeOf(VD, Body, PM);
  if (!L.Scope)
    return std::nullopt;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(Body, &VD, Refs);
  for (const DeclRefExpr *D : Refs) {
    if (readByValue(*D, PM))
      continue;
    const auto *A = dyn_cast_or_null<GCCAsmStmt>(parentOf(D, PM));
    if (!A || A->getNumOutputs() != 1 ||
        A->getOutputExpr(0)->IgnoreParens() != D ||
        movedSpecialRegister(*A).empty() || PM.getParent(A) != L.Scope)
      return std::nullopt;
    auto I = indexIn(L.Scope, A, PM);
    if (!I)
      return std::nullopt;
    L.Writers.push_back({*I, A});
  }
  if (L.Writers.empty())
    return std::nullopt;
  llvm::sort(L.Writers, [](const auto &X, const auto &Y) {
    return X.first < Y.first;
  });
  return L;
}

const GCCAsmStmt *reachingAsmWrite(const AsmWrittenLocal &L,
                                   const DeclRefExpr &D, const ParentMap &PM) {
  auto I = indexIn(L.Scope, &D, PM);
  if (!I)
    return nullptr;
  const GCCAsmStmt *Last = nullptr;
  for (const auto &[J, A] : L.Writers)
    if (J < *I)
      Last = A;
  return Last;
}

bool ClusterRank::isRankSource(const Expr *E) {
  if (isRankCall(E))
    return true;
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  const Stmt *Body = VD ? bodyOf(*VD) : nullptr;
  if (!Body || VD->getInit())
    return false;
  const ParentMap &PM = Folder.parentsOf(Body);
  auto [It, New] = AsmLocals.try_emplace(VD);
  if (New)
    It->second = asmWrittenLocal(*VD, PM);
  if (!It->second)
    return false;
  const GCCAsmStmt *A = reachingAsmWrite(*It->second, *D, PM);
  return A && movedSpecialRegister(*A) == "cluster_ctarank";
}

std::optional<ClusterRank::Accumulation>
ClusterRank::accumulationOf(const DeclRefExpr &D) {
  const auto *VD = dyn_cast<VarDecl>(D.getDecl());
  const Stmt *Body = VD ? bodyOf(*VD) : nullptr;
  if (!Body || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getInit() || !VD->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  const ParentMap &PM = Folder.parentsOf(Body);
  auto [It, New] = Accumulations.try_emplace(VD);
  if (New)
    It->second = accumulationInto(*VD, Body, PM);
  if (!It->second)
    return std::nullopt;
  auto ForAt = indexIn(It->second->Scope, It->second->Loop, PM);
  auto UseAt = indexIn(It->second->Scope, &D, PM);
  if (!ForAt || !UseAt || *UseAt <= *ForAt)
    return std::nullopt;
  return It->second;
}

std::optional<ClusterRank::Accumulation>
ClusterRank::accumulationInto(const VarDecl &Var, const Stmt *Body,
                              const ParentMap &PM) {
  const VarDecl *VD = &Var;
  const CompoundStmt *Scope = scopeOf(*VD, Body, PM);
  if (!Scope)
    return std::nullopt;
  // One write: `v op= e` as the whole body of a for statement of the scope.
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(Body, VD, Refs);
  const CompoundAssignOperator *Write = nullptr;
  for (const DeclRefExpr *R : Refs) {
    if (readByValue(*R, PM))
      continue;
    const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(parentOf(R, PM));
    if (!CA || CA->getLHS()->IgnoreParens() != R || Write)
      return std::nullopt;
    Write = CA;
  }
  if (!Write || !llvm::is_contained({BO_OrAssign, BO_AddAssign, BO_XorAssign,
                                     BO_AndAssign},
                                    Write->getOpcode()))
    return std::nullopt;
  const Stmt *Up = PM.getParent(Write);
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Up);
      C && C->size() == 1)
    Up = PM.getParent(C);
  const auto *For = dyn_cast_or_null<ForStmt>(Up);
  if (!For || PM.getParent(For) != Scope || For->getConditionVariable())
    return std::nullopt;
  // for (int i = a; i < b; ++i): i written only by the increment.
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *I = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  const auto *Inc = dyn_cast_or_null<UnaryOperator>(For->getInc());
  auto Names = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == I;
  };
  if (!I || !I->getInit() || !I->getType()->isIntegralOrEnumerationType() ||
      !Cond || !llvm::is_contained({BO_LT, BO_LE, BO_NE}, Cond->getOpcode()) ||
      !Names(Cond->getLHS()) || !Inc || !Inc->isIncrementOp() ||
      !Names(Inc->getSubExpr()))
    return std::nullopt;
  llvm::SmallVector<const DeclRefExpr *, 8> CounterRefs;
  refsTo(For, I, CounterRefs);
  for (const DeclRefExpr *R : CounterRefs)
    if (!readByValue(*R, PM) && parentOf(R, PM) != Inc)
      return std::nullopt;
  return Accumulation{I,
                      VD->getInit(),
                      I->getInit(),
                      Cond->getRHS(),
                      Write->getRHS(),
                      Cond->getOpcode(),
                      BinaryOperator::getOpForCompoundAssignment(
                          Write->getOpcode()),
                      For,
                      Scope};
}

std::optional<std::int64_t>
ClusterRank::accumulated(const Accumulation &A, std::uint64_t Rank,
                         unsigned Depth) {
  auto V = valueIn(A.Init, Rank, Depth + 1);
  auto From = valueIn(A.Start, Rank, Depth + 1);
  auto To = valueIn(A.Bound, Rank, Depth + 1);
  if (!V || !From || !To || Bound.count(A.Counter))
    return std::nullopt;
  // Masks over a cluster's CTAs: a few iterations.
  constexpr std::int64_t MaxTrips = 64;
  std::int64_t Trips = 0;
  for (std::int64_t K = *From;
       A.Cmp == BO_LT ? K < *To : A.Cmp == BO_LE ? K <= *To : K != *To; ++K) {
    if (++Trips > MaxTrips) {
      V.reset();
      break;
    }
    Bound[A.Counter] = K;
    auto X = valueIn(A.Step, Rank, Depth + 1);
    if (!X) {
      V.reset();
      break;
    }
    switch (A.Op) {
    case BO_Or:
      *V |= *X;
      break;
    case BO_Add:
      *V += *X;
      break;
    case BO_Xor:
      *V ^= *X;
      break;
    default:
      *V &= *X;
      break;
    }
  }
  Bound.erase(A.Counter);
  return V;
}

bool ClusterRank::refersToBound(const Expr *E) {
  if (Bound.empty() || !E)
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()); VD && Bound.count(VD))
      return true;
  for (const Stmt *C : E->children())
    if (refersToBound(dyn_cast_or_null<Expr>(C)))
      return true;
  return false;
}

bool readsClusterRank(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F)
    return false;
  if (Call->getNumArgs() == 0 && F->getIdentifier()) {
    std::string Name = F->getQualifiedNameAsString();
    if (Name == "cute::block_rank_in_cluster" ||
        Name == "cuda::ptx::get_sreg_cluster_ctarank" ||
        (isa<CXXMemberCallExpr>(Call) && F->getName() == "block_rank" &&
         StringRef(Name).starts_with("cooperative_groups::")))
      return true;
  }
  return Call->getNumArgs() == 0 && returnsCtaRank(F);
}

const Expr *ClusterRank::localInit(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
      !VD->getType()->isIntegralOrEnumerationType() ||
      !Folder.isNeverWritten(VD))
    return nullptr;
  return VD->getInit();
}

bool ClusterRank::dependsOnRank(const Expr *E, unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  if (isRankSource(E))
    return true;
  if (const Expr *Init = localInit(E))
    return dependsOnRank(Init, Depth + 1);
  if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (auto A = accumulationOf(*D))
      return dependsOnRank(A->Init, Depth + 1) ||
             dependsOnRank(A->Start, Depth + 1) ||
             dependsOnRank(A->Bound, Depth + 1) ||
             dependsOnRank(A->Step, Depth + 1);
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (dependsOnRank(CE, Depth + 1))
        return true;
  return false;
}

std::optional<std::int64_t> ClusterRank::valueIn(const Expr *E,
                                                 std::uint64_t Rank,
                                                 unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      if (auto It = Bound.find(VD); It != Bound.end())
        return It->second;
  if (!dependsOnRank(E) && !refersToBound(E)) {
    auto V = Folder.foldInt(E);
    if (V && V->Value.getSignificantBits() <= 64)
      return V->Value.getExtValue();
    // Not folded: an accumulating local, or operators over one.
    if (!isa<DeclRefExpr>(E) && !isa<BinaryOperator>(E) &&
        !isa<UnaryOperator>(E) && !isa<ExplicitCastExpr>(E) &&
        !isa<ConditionalOperator>(E))
      return std::nullopt;
  }
  if (isRankSource(E))
    return static_cast<std::int64_t>(Rank);
  if (const Expr *Init = localInit(E))
    return valueIn(Init, Rank, Depth + 1);
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    auto A = accumulationOf(*D);
    return A ? accumulated(*A, Rank, Depth) : std::nullopt;
  }
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    return C->getType()->isIntegralOrEnumerationType()
               ? valueIn(C->getSubExpr(), Rank, Depth + 1)
               : std::nullopt;
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    auto Cond = valueIn(C->getCond(), Rank, Depth + 1);
    if (!Cond)
      return std::nullopt;
    return valueIn(*Cond ? C->getTrueExpr() : C->getFalseExpr(), Rank,
                   Depth + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    auto V = valueIn(U->getSubExpr(), Rank, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_LNot:
      return *V == 0;
    case UO_Minus:
      return -*V;
    case UO_Not:
      return ~*V;
    case UO_Plus:
      return *V;
    default:
      return std::nullopt;
    }
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  auto L = valueIn(B->getLHS(), Rank, Depth + 1);
  // Short circuits: the right side of a decided && or || need not fold.
  if (L && B->getOpcode() == BO_LAnd && *L == 0)
    return 0;
  if (L && B->getOpcode() == BO_LOr && *L != 0)
    return 1;
  auto R = valueIn(B->getRHS(), Rank, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  // Values are small (ranks, masks, byte counts): 64-bit arithmetic.
  switch (B->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<std::int64_t>(*L / *R) : std::nullopt;
  case BO_Rem:
    return *R ? std::optional<std::int64_t>(*L % *R) : std::nullopt;
  case BO_Shl:
    return *R >= 0 && *R < 63 ? std::optional<std::int64_t>(*L << *R)
                              : std::nullopt;
  case BO_Shr:
    return *R >= 0 && *R < 63 ? std::optional<std::int64_t>(*L >> *R)
                              : std::nullopt;
  case BO_And:
    return *L & *R;
  case BO_Or:
    return *L | *R;
  case BO_Xor:
    return *L ^ *R;
  case BO_EQ:
    return *L == *R;
  case BO_NE:
    return *L != *R;
  case BO_LT:
    return *L < *R;
  case BO_GT:
    return *L > *R;
  case BO_LE:
    return *L <= *R;
  case BO_GE:
    return *L >= *R;
  case BO_LAnd:
    return *L && *R;
  case BO_LOr:
    return *L || *R;
  default:
    return std::nullopt;
  }
}

} // namespace clang::tidy::tma
