//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/BarrierFieldUses.h"
#include "api/KernelEvents.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace clang::tidy::tma {

namespace {
/// The member expression of the field \p E designates, subscripts looked
/// through (`sram.bar_full` of `sram.bar_full[stage]`); null otherwise.
const MemberExpr *fieldAccess(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(E);
  return ME && isa<FieldDecl>(ME->getMemberDecl()) ? ME : nullptr;
}

bool isBarrierField(const FieldDecl *FD) {
  const Type *T = FD->getType()->getBaseElementTypeUnsafe();
  return events::isCudaBarrier(T ? T->getAsCXXRecordDecl() : nullptr);
}

/// Every access of a barrier field, the function around it, and the
/// accesses that are an init, a wait or a plain arrive.
struct FieldUseVisitor : DynamicRecursiveASTVisitor {
  struct Found {
    const MemberExpr *E;
    const FunctionDecl *In;
  };
  std::vector<Found> All;
  llvm::DenseSet<const MemberExpr *> Harmless;
  /// The function whose body is being traversed; null in a lambda.
  std::vector<const FunctionDecl *> Stack{nullptr};

  FieldUseVisitor() { ShouldVisitTemplateInstantiations = true; }

  bool TraverseDecl(Decl *D) override {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Stack.push_back(FD);
    bool R = DynamicRecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Stack.pop_back();
    return R;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) override {
    Stack.push_back(nullptr);
    bool R = DynamicRecursiveASTVisitor::TraverseLambdaExpr(L);
    Stack.pop_back();
    return R;
  }
  bool VisitMemberExpr(MemberExpr *E) override {
    if (const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl()))
      if (isBarrierField(FD))
        All.push_back({E, Stack.back()});
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    const CXXMethodDecl *MD = C->getMethodDecl();
    if (!MD)
      return true;
    events::BarrierMember Role = events::barrierMember(*MD);
    if (Role.Arrives || Role.Waits)
      if (const MemberExpr *ME = fieldAccess(C->getImplicitObjectArgument()))
        Harmless.insert(ME);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) override {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return true;
    if (const Expr *Bar = events::libcudacxxInitBarrier(*FD, *C)) {
      const auto *U = dyn_cast<UnaryOperator>(Bar->IgnoreParenImpCasts());
      if (U && U->getOpcode() == UO_AddrOf)
        if (const MemberExpr *ME = fieldAccess(U->getSubExpr()))
          Harmless.insert(ME);
    }
    return true;
  }
};

const FunctionDecl *patternOf(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    F = P;
  return F->getCanonicalDecl();
}
} // namespace

const FieldDecl *barrierField(const Expr *Object) {
  const MemberExpr *ME = fieldAccess(Object);
  const auto *FD = ME ? cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  return FD && isBarrierField(FD) ? FD : nullptr;
}

void BarrierFieldUses::gather() {
  Gathered = true;
  // clangd checks the main file's declarations only (a restricted
  // traversal scope): every top-level declaration is walked here, the
  // preamble's included, but the bodies of the headers' functions may be
  // left out of the preamble. Only fields of records the main file
  // declares are judged there: no header function can name them, and the
  // headers' templates instantiated with them are instantiated in the main
  // file's parse.
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  Restricted = Scope.size() != 1 || !isa<TranslationUnitDecl>(Scope.front());
  FieldUseVisitor V;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    V.TraverseDecl(D);
  for (const FieldUseVisitor::Found &F : V.All) {
    const auto *FD = cast<FieldDecl>(F.E->getMemberDecl());
    Uses[FD].push_back({F.E, F.In, V.Harmless.contains(F.E)});
  }
}

std::optional<OtherFieldUse>
BarrierFieldUses::otherUse(const FieldDecl *FD, const FunctionDecl *Fn) {
  if (!Gathered)
    gather();
  if (Restricted) {
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
      RD = S->getSpecializedTemplate()->getTemplatedDecl();
    const SourceManager &SM = Ctx.getSourceManager();
    if (!RD || !SM.isInMainFile(SM.getFileLoc(RD->getLocation())))
      return OtherFieldUse{};
  }
  auto It = Uses.find(FD);
  if (It == Uses.end())
    return std::nullopt;
  const FunctionDecl *Pattern = patternOf(Fn);
  for (const Use &U : It->second)
    if (!U.Harmless && (!U.In || patternOf(U.In) != Pattern))
      return OtherFieldUse{U.E};
  return std::nullopt;
}

} // namespace clang::tidy::tma
