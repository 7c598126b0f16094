//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/CuteTensors.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::tma::cute {

static bool inCute(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cute" &&
          isa<TranslationUnitDecl>(NS->getParent()->getRedeclContext()))
        return true;
  return false;
}

bool isTmaLoadWith(const CXXMemberCallExpr &C) {
  const CXXMethodDecl *M = C.getMethodDecl();
  if (!M || !M->getIdentifier() || M->getName() != "with")
    return false;
  const auto *R = dyn_cast<ClassTemplateSpecializationDecl>(M->getParent());
  if (!R || (R->getName() != "Copy_Atom" && R->getName() != "Copy_Traits"))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(R->getDeclContext());
  if (!NS || NS->getName() != "cute")
    return false;
  // Its operation: the first type among the (packed) template arguments.
  for (const TemplateArgument &A : R->getTemplateArgs().asArray()) {
    ArrayRef<TemplateArgument> Each =
        A.getKind() == TemplateArgument::Pack ? A.pack_elements() : A;
    for (const TemplateArgument &E : Each)
      if (E.getKind() == TemplateArgument::Type)
        return StringRef(E.getAsType().getAsString()).contains("SM90_TMA_LOAD");
  }
  return false;
}

/// \p E without the temporaries, copies and casts around a value.
static const Expr *strip(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 &&
             C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    else
      return E;
  }
  return E;
}

/// A free function of namespace cute named \p Name, called with \p Args
/// arguments (at least).
static const FunctionDecl *cuteCall(const CallExpr &C, StringRef Name,
                                    unsigned Args) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->getIdentifier() ||
      FD->getName() != Name || C.getNumArgs() < Args || !inCute(FD))
    return nullptr;
  return FD;
}

std::optional<TmaLoadCopy> tmaLoadCopy(const CallExpr &C) {
  if (!cuteCall(C, "copy", 3) || C.getNumArgs() != 3)
    return std::nullopt;
  const auto *With = dyn_cast<CXXMemberCallExpr>(strip(C.getArg(0)));
  if (!With || !isTmaLoadWith(*With) || With->getNumArgs() < 1)
    return std::nullopt;
  return TmaLoadCopy{With->getArg(0), C.getArg(2)};
}

llvm::SmallVector<const Expr *, 2> gemmOperands(const CallExpr &C) {
  // gemm(mma, A, B, C) and gemm(mma, D, A, B, C).
  if (!cuteCall(C, "gemm", 4) || C.getNumArgs() > 5)
    return {};
  unsigned N = C.getNumArgs();
  return {C.getArg(N - 3), C.getArg(N - 2)};
}

namespace {
struct Walk {
  llvm::SmallVectorImpl<const Expr *> &Out;
  llvm::DenseSet<const Decl *> Seen;
  unsigned Budget = 256;

  void expr(const Expr *E, unsigned Depth) {
    if (!E || Depth > 24 || !Budget)
      return;
    --Budget;
    E = strip(E);
    // `engine.begin()` and `data()`: the object's own storage.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(E))
      if (const CXXMethodDecl *MD = M->getMethodDecl();
          MD && MD->getIdentifier() && M->getNumArgs() == 0 &&
          (MD->getName() == "begin" || MD->getName() == "data")) {
        Out.push_back(M->getImplicitObjectArgument());
        return;
      }
    if (E->getType()->isPointerType() || E->getType()->isArrayType()) {
      Out.push_back(E);
      return;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *VD = D->getDecl();
      if (!Seen.insert(VD).second)
        return;
      if (const auto *B = dyn_cast<BindingDecl>(VD)) {
        // `auto [a, b] = f(...)`: what the whole tuple is built from.
        if (const auto *DD = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl()))
          expr(DD->getInit(), Depth + 1);
        return;
      }
      const auto *V = dyn_cast<VarDecl>(VD);
      if (V && V->isLocalVarDecl() && V->hasInit())
        expr(V->getInit(), Depth + 1);
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // A slice `t(_, i)` or `t[i]` of a view is within its view.
      if ((Op->getOperator() == OO_Call || Op->getOperator() == OO_Subscript) &&
          Op->getNumArgs() > 0)
        expr(Op->getArg(0), Depth + 1);
      return;
    }
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = M->getMethodDecl();
      if (!MD || !MD->getIdentifier())
        return;
      if (!inCute(MD))
        return;
      // A CuTe view's partition or fragment of its arguments.
      expr(M->getImplicitObjectArgument(), Depth + 1);
      for (const Expr *A : M->arguments())
        expr(A, Depth + 1);
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !inCute(FD))
        return;
      for (const Expr *A : C->arguments())
        expr(A, Depth + 1);
      return;
    }
  }
};
} // namespace

void tensorSources(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  Walk W{Out, {}};
  W.expr(E, 0);
}

} // namespace clang::tidy::tma::cute
