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
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLExtras.h"
#include <tuple>

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

/// SourceManager::isBeforeInTranslationUnit on the expansion locations of
/// declarations, with what it computes per question kept per declaration
/// and per pair of files: each question decomposed both locations again
/// (a search of the preamble's loaded files, about 1,500 instructions),
/// and sorting the reached definitions asked it thousands of times.
class TuOrder {
public:
  struct Place {
    SourceLocation Loc;
    FileID File;
    unsigned Offset = 0;
  };

  explicit TuOrder(const SourceManager &SM) : SM(SM) {}

  const Place &placeOf(const Decl *D) {
    auto [It, New] = Places.try_emplace(D);
    if (New) {
      Place &P = It->second;
      P.Loc = SM.getExpansionLoc(D->getLocation());
      if (P.Loc.isValid())
        std::tie(P.File, P.Offset) = SM.getDecomposedLoc(P.Loc);
    }
    return It->second;
  }

  /// Whether A is before B (false for an invalid location or the same one).
  bool before(const Place &A, const Place &B) {
    if (A.Loc.isInvalid() || B.Loc.isInvalid() || A.Loc == B.Loc)
      return false;
    if (A.File.isInvalid() || B.File.isInvalid())
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    // In one file: the offsets (what SourceManager compares there).
    if (A.File == B.File)
      return A.Offset < B.Offset;
    // Two files neither of which includes the other (directly or not), the
    // main file and the preamble's set aside: the answer is where their
    // include chains part, the same for every pair of locations in them.
    if (!pairOnly(A.File, B.File))
      return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    auto [It, New] = Pairs.try_emplace({A.File, B.File}, false);
    if (New)
      It->second = SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    return It->second;
  }

private:
  /// The files that include \p F, innermost first.
  const llvm::SmallVector<FileID, 8> &includersOf(FileID F) {
    auto [It, New] = Includers.try_emplace(F);
    if (New)
      for (SourceLocation L = SM.getIncludeLoc(F); L.isValid();) {
        FileID Up = SM.getFileID(L);
        if (Up.isInvalid() || llvm::is_contained(It->second, Up))
          break;
        It->second.push_back(Up);
        L = SM.getIncludeLoc(Up);
      }
    return It->second;
  }

  bool pairOnly(FileID A, FileID B) {
    for (FileID F : {A, B})
      if (F == SM.getMainFileID() || F == SM.getPreambleFileID())
        return false;
    return !llvm::is_contained(includersOf(A), B) &&
           !llvm::is_contained(includersOf(B), A);
  }

  const SourceManager &SM;
  llvm::DenseMap<const Decl *, Place> Places;
  llvm::DenseMap<FileID, llvm::SmallVector<FileID, 8>> Includers;
  llvm::DenseMap<std::pair<FileID, FileID>, bool> Pairs;
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
  TuOrder Order(SM);
  auto Before = [&](const Decl *A, const Decl *B) {
    return Order.before(Order.placeOf(A), Order.placeOf(B));
  };
  // Ties (functions a macro expands to) in the order they were reached.
  std::vector<std::pair<Decl *, size_t>> Ranked;
  for (size_t I = 0; I < R.Reached.size(); ++I)
    Ranked.emplace_back(R.Reached[I], I);
  llvm::sort(Ranked, [&](const auto &A, const auto &B) {
    if (Before(A.first, B.first))
      return true;
    return !Before(B.first, A.first) && A.second < B.second;
  });
  for (size_t I = 0; I < Ranked.size(); ++I)
    R.Reached[I] = Ranked[I].first;
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
