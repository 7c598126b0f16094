//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/ClusterRank.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

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

bool isRankSource(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  return Call && readsClusterRank(Call);
}
} // namespace

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
  if (!dependsOnRank(E)) {
    auto V = Folder.foldInt(E);
    if (!V || V->Value.getSignificantBits() > 64)
      return std::nullopt;
    return V->Value.getExtValue();
  }
  if (isRankSource(E))
    return static_cast<std::int64_t>(Rank);
  if (const Expr *Init = localInit(E))
    return valueIn(Init, Rank, Depth + 1);
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
