//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/TraversalScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::tma {

namespace {
BodyProviderFactory ProviderFactory = nullptr;
BeforeParseHook ParseHook = nullptr;
} // namespace

void setBodyProviderFactory(BodyProviderFactory Factory) {
  ProviderFactory = Factory;
}

void setBeforeParseHook(BeforeParseHook Hook) { ParseHook = Hook; }

void beforeParse() {
  if (ParseHook)
    ParseHook();
}

bool hasRestrictedTraversalScope(const ASTContext &Ctx) {
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  return Scope.size() != 1 || !isa<TranslationUnitDecl>(Scope.front());
}

namespace {

/// Walks the scope and, breadth first, the definitions it reaches.
class Reacher : public RecursiveASTVisitor<Reacher> {
public:
  Reacher(const SourceManager &SM, BodyProvider *Provider)
      : SM(SM), Provider(Provider) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const {
    return Provider && Provider->walksImplicitCode();
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    reach(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    reach(E->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    reach(E->getConstructor());
    return true;
  }

  /// The definitions outside the scope, in the order they were reached.
  std::vector<Decl *> Reached;
  /// Reached, not yet walked.
  std::vector<const FunctionDecl *> Work;

private:
  void reach(const ValueDecl *D) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F)
      return;
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Def) {
      // An instantiation that waited for the walk, or a body the preamble
      // kept as tokens: made now, and walked for the bodies it reaches in
      // turn.
      if (!Provider)
        return;
      if (!Provider->instantiate(*F) || !F->hasBody(Def) || !Def)
        if (!F->isDefined(Def) || !Def || !Provider->provide(*Def) ||
            !F->hasBody(Def) || !Def)
          return;
    }
    if (!Seen.insert(Def).second)
      return;
    SourceLocation Loc = SM.getExpansionLoc(Def->getLocation());
    // In the main file: within a declaration of the scope (a template's
    // instantiations are walked with it).
    if (Loc.isInvalid() || SM.isWrittenInMainFile(Loc))
      return;
    // A lambda's call operator, a local class's method: walked with the
    // function around it.
    for (const DeclContext *DC = Def->getDeclContext(); DC;
         DC = DC->getParent())
      if (isa<FunctionDecl, BlockDecl, CapturedDecl>(DC))
        return;
    // System headers hold no user body; with a provider their bodies may
    // be walked (not checked) for the bodies they reach that the AST left
    // out.
    if (SM.isInSystemHeader(Loc)) {
      if (Provider && Provider->walksSystemBody(*Def))
        Work.push_back(Def);
      return;
    }
    Reached.push_back(const_cast<FunctionDecl *>(Def));
    Work.push_back(Def);
  }

  const SourceManager &SM;
  BodyProvider *Provider;
  llvm::DenseSet<const FunctionDecl *> Seen;
};

} // namespace

std::optional<std::vector<Decl *>> widenTraversalScope(ASTContext &Ctx) {
  if (!hasRestrictedTraversalScope(Ctx))
    return std::nullopt;
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  const SourceManager &SM = Ctx.getSourceManager();
  std::unique_ptr<BodyProvider> Provider =
      ProviderFactory ? ProviderFactory(Ctx) : nullptr;
  Reacher R(SM, Provider.get());
  for (Decl *D : Scope)
    R.TraverseDecl(D);
  while (!R.Work.empty()) {
    const FunctionDecl *F = R.Work.back();
    R.Work.pop_back();
    R.TraverseDecl(const_cast<FunctionDecl *>(F));
  }
  if (R.Reached.empty())
    return std::nullopt;

  // The order of a walk of the whole TU: the preamble's headers before the
  // main file, a header included later at its place.
  auto Before = [&](const Decl *A, const Decl *B) {
    SourceLocation LA = SM.getExpansionLoc(A->getLocation());
    SourceLocation LB = SM.getExpansionLoc(B->getLocation());
    return LA.isValid() && LB.isValid() && LA != LB &&
           SM.isBeforeInTranslationUnit(LA, LB);
  };
  // Ties (functions a macro expands to) in the order they were reached.
  std::vector<std::pair<Decl *, size_t>> Order;
  for (size_t I = 0; I < R.Reached.size(); ++I)
    Order.emplace_back(R.Reached[I], I);
  llvm::sort(Order, [&](const auto &A, const auto &B) {
    if (Before(A.first, B.first))
      return true;
    return !Before(B.first, A.first) && A.second < B.second;
  });
  for (size_t I = 0; I < Order.size(); ++I)
    R.Reached[I] = Order[I].first;
  std::vector<Decl *> Widened;
  Widened.reserve(Scope.size() + R.Reached.size());
  auto Next = R.Reached.begin();
  for (Decl *D : Scope) {
    while (Next != R.Reached.end() && Before(*Next, D))
      Widened.push_back(*Next++);
    Widened.push_back(D);
  }
  Widened.insert(Widened.end(), Next, R.Reached.end());
  Ctx.setTraversalScope(Widened);
  return Scope;
}

} // namespace clang::tidy::tma
