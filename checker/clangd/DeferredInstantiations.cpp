//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The preamble keeps the bodies of the project's headers for the checks
// (PreambleBodies.cpp), the templates' among them; stock clangd skips them.
// At the end of the main file Sema instantiates every specialization the
// file uses of those templates, reached by the checks or not: on
// flashinfer's mha_sm90.cu a tenth of the re-check (bench/README.md, issue
// 25 item 5, rounds 5 and 7). Stock clangd instantiates none of them: their
// patterns have no body there.
//
// So they wait. Before the parse of a main file whose AST the tma- checks will
// match, this file gives Sema (created here, before the parse, as the action
// would create it) one more external source; Sema asks it for its pending
// instantiations just before it performs them, and it takes out of Sema's
// list those whose pattern comes from the preamble with a body that stock
// clangd would have skipped (not constexpr, its type not deduced, not a
// lambda's, not the standard library's: Deferral::waits). The
// checks' walk of what the main file reaches (checks/TraversalScope.cpp)
// instantiates one when it meets it, before it walks its body; the
// instantiations that body needs wait in turn. What the walk never meets
// is never instantiated, as in stock clangd.
//
// The preamble's own pending instantiations (its headers' uses, which Sema
// reads from the preamble at the same point) wait the same way: on
// DeepGEMM's sm100_bf16_gemm.cuh 89 of its 102 do, and the walk needs one.
//
// clangd's own diagnostics stay stock clangd's: the bodies that wait are
// the ones stock clangd has not (nothing in them is diagnosed there), an
// instantiation made for the walk diagnoses nothing, and a specialization
// that waits counts as defined (stock clangd's is, with a skipped body).
//
// clangd's --parse-forwarding-functions keeps bodies that this test cannot
// tell from the preamble's own: then nothing waits (installBodyProviders).
//
//===----------------------------------------------------------------------===//

#include "clangd/DeferredInstantiations.h"
#include "checks/TraversalScope.h"
#include "clangd/LateBodies.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Parse/Parser.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <deque>
#include <memory>
#include <utility>

namespace clang::tidy::tma::clangd {
namespace {

/// Sema's source of the instantiations that wait for the walk.
class Deferral : public ExternalSemaSource {
public:
  explicit Deferral(Sema &S) : S(S), Ctx(&S.getASTContext()) {}

  /// The AST it defers for (compared, not read: the AST may be gone).
  const ASTContext *context() const { return Ctx; }
  unsigned waited() const { return Deferred; }
  /// Whether an instantiation still waits for the walk.
  bool waiting() const { return !Waiting.empty(); }
  unsigned instantiated() const { return Instantiated; }

  /// Sema reads the external sources' pending instantiations just before it
  /// performs its own (Sema::ActOnEndOfTranslationUnitFragment).
  void ReadPendingInstantiations(
      llvm::SmallVectorImpl<std::pair<ValueDecl *, SourceLocation>> &Pending)
      override {
    // The preamble's own (its reader is the AST's external source; it
    // gives them once): those that may wait wait too.
    if (auto *Reader = dyn_cast_or_null<ExternalSemaSource>(
            S.getASTContext().getExternalSource());
        Reader && Reader != this) {
      llvm::SmallVector<std::pair<ValueDecl *, SourceLocation>, 16> Preamble;
      Reader->ReadPendingInstantiations(Preamble);
      for (const auto &Entry : Preamble) {
        auto *F = dyn_cast<FunctionDecl>(Entry.first);
        if (!F || !waits(*F)) {
          Pending.push_back(Entry);
          continue;
        }
        wait(*F, Entry.second);
      }
    }
    takeWaiting();
  }

  /// Instantiates \p F if it waits; whether it has a body now.
  bool instantiate(const FunctionDecl &F) {
    auto It = Waiting.find(F.getCanonicalDecl());
    if (It == Waiting.end())
      return false;
    auto [Fn, Point] = It->second;
    Waiting.erase(It);
    Fn->setWillHaveBody(false);
    DiagnosticsEngine &Diags = S.getDiagnostics();
    bool WasSuppressed = Diags.getSuppressAllDiagnostics();
    Diags.setSuppressAllDiagnostics(true);
    enterScope();
    S.InstantiateFunctionDefinition(Point, Fn, /*Recursive=*/false,
                                    /*DefinitionRequired=*/false,
                                    /*AtEndOfTU=*/true);
    Fn->setInstantiationIsPending(false);
    // What the body uses: the instantiations that may wait wait, the others
    // are done now, as at the end of the file.
    takeWaiting();
    if (!S.PendingInstantiations.empty())
      S.PerformPendingInstantiations();
    Diags.setSuppressAllDiagnostics(WasSuppressed);
    ++Instantiated;
    return F.hasBody();
  }

  /// Leaves the translation unit's scope that enterScope entered, if it
  /// did: at the end of the walk, or before the late bodies' parser enters
  /// its own.
  void leaveScope() {
    if (!P)
      return;
    P->ExitScope();
    S.TUScope = SavedTU;
    P.reset();
  }

private:
  /// The translation unit's scope, as at the end of the file: the parser
  /// has left it. A builtin the body names is declared in it, and a range
  /// `for` is rebuilt in the current scope, which only a Parser sets
  /// (without one, Sema::BuildCXXForRangeStmt crashed: TransformerEngine's
  /// cast.cu). When the late bodies' parser is in its scope, that one.
  /// Entered once for the walk's instantiations, not once for each: a
  /// Parser's construction (its pragma handlers) cost 5.9 M instructions
  /// over mha_sm90's 126 (bench/README.md, issue 25 item 5, round 11).
  void enterScope() {
    if (P || S.getCurScope())
      return;
    P = std::make_unique<Parser>(S.getPreprocessor(), S,
                                 /*SkipFunctionBodies=*/false);
    SavedTU = S.TUScope;
    P->EnterScope(Scope::DeclScope);
    S.TUScope = P->getCurScope();
  }

  /// Whether \p F's instantiation may wait: an implicit instantiation whose
  /// pattern the preamble holds with a body that stock clangd skips
  /// (Sema::canSkipFunctionBody: not constexpr, no deduced type; clangd's
  /// callbacks: not std::make_unique, whose body clangd parses), not a
  /// lambda's or a local class's (never skipped).
  static bool waits(const FunctionDecl &F) {
    if (F.getTemplateSpecializationKind() != TSK_ImplicitInstantiation ||
        F.isConstexpr())
      return false;
    const FunctionDecl *P = F.getTemplateInstantiationPattern();
    if (!P || !P->isFromASTFile() || !P->doesThisDeclarationHaveABody() ||
        P->isConstexpr() || P->getReturnType()->getContainedDeducedType())
      return false;
    for (const DeclContext *DC = P->getDeclContext(); DC;
         DC = DC->getParent()) {
      if (isa<FunctionDecl, BlockDecl, CapturedDecl>(DC))
        return false;
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
          NS && NS->getIdentifier() && NS->getName() == "std")
        return false;
    }
    return !isLambdaCallOperator(P);
  }

  /// \p F waits. It counts as defined meanwhile, as stock clangd's
  /// instantiation with a skipped body: Sema would say of an inline one,
  /// used and not defined, that it is not.
  void wait(FunctionDecl &F, SourceLocation Point) {
    if (!Waiting.try_emplace(F.getCanonicalDecl(), &F, Point).second)
      return;
    F.setWillHaveBody(true);
    ++Deferred;
  }

  /// Takes the instantiations that may wait out of Sema's list.
  void takeWaiting() {
    std::deque<Sema::PendingImplicitInstantiation> Kept;
    for (const auto &Entry : S.PendingInstantiations) {
      auto *F = dyn_cast<FunctionDecl>(Entry.first);
      if (!F || !waits(*F))
        Kept.push_back(Entry);
      else
        wait(*F, Entry.second);
    }
    S.PendingInstantiations.swap(Kept);
  }

  Sema &S;
  const ASTContext *Ctx;
  std::unique_ptr<Parser> P;
  Scope *SavedTU = nullptr;
  /// By canonical declaration: the specialization and its point of
  /// instantiation.
  llvm::DenseMap<const FunctionDecl *, std::pair<FunctionDecl *, SourceLocation>>
      Waiting;
  unsigned Deferred = 0, Instantiated = 0;
};

bool DeferEnabled = false;
/// The checks joined a finder on this thread: the next action executed
/// parses the file it will match (clangd's ParsedAST::build).
thread_local bool Armed = false;
/// That file's deferral, until the next one.
thread_local llvm::IntrusiveRefCntPtr<Deferral> Current;

void arm() { Armed = true; }

/// Sema created before the parse (ASTFrontendAction::ExecuteAction keeps an
/// existing one), with the deferral as one of its external sources.
void install(FrontendAction &Action) {
  if (!DeferEnabled || Action.usesPreprocessorOnly())
    return;
  CompilerInstance &CI = Action.getCompilerInstance();
  if (!CI.hasPreprocessor() || !CI.hasASTContext() || !CI.hasASTConsumer() ||
      CI.hasSema() || CI.hasCodeCompletionConsumer() ||
      !CI.getFrontendOpts().CodeCompletionAt.FileName.empty() ||
      !CI.getASTContext().getExternalSource())
    return;
  CI.createSema(Action.getTranslationUnitKind(), nullptr);
  Current = llvm::makeIntrusiveRefCnt<Deferral>(CI.getSema());
  CI.getSema().addExternalSource(Current);
}

/// The walk's provider: the deferral of the file, and the bodies kept as
/// tokens if the preamble kept some.
class Bodies : public BodyProvider {
public:
  Bodies(Deferral *D, std::unique_ptr<BodyProvider> Late)
      : D(D), Late(std::move(Late)) {}
  ~Bodies() override {
    if (D)
      D->leaveScope();
    if (D && std::getenv("TMA_TIDY_STATS"))
      llvm::errs() << "tma-clangd instantiations: " << D->waited()
                   << " waited, " << D->instantiated()
                   << " instantiated for the walk\n";
  }

  bool provide(const FunctionDecl &Def) override {
    if (!Late)
      return false;
    // The late bodies' parser enters its own scope (one Parser at a time).
    if (D)
      D->leaveScope();
    return Late->provide(Def);
  }
  bool instantiate(const FunctionDecl &F) override {
    return D && D->instantiate(F);
  }
  // Only while one waits: with none, the walk is the one without deferral.
  bool walksImplicitCode() const override { return D && D->waiting(); }
  bool walksSystemBody(const FunctionDecl &Def) const override {
    // An instantiation may use one that waits; a body parsed in the
    // preamble uses the preamble's own.
    return (Late && Late->walksSystemBody(Def)) ||
           (D && D->waiting() && Def.isTemplateInstantiation());
  }

private:
  Deferral *D;
  std::unique_ptr<BodyProvider> Late;
};

std::unique_ptr<BodyProvider> makeBodies(ASTContext &Ctx) {
  Deferral *D = Current && Current->context() == &Ctx
                    ? Current.get()
                    : nullptr;
  std::unique_ptr<BodyProvider> Late = makeLateBodies(Ctx);
  if (!D && !Late)
    return nullptr;
  return std::make_unique<Bodies>(D, std::move(Late));
}

} // namespace

void installBodyProviders(bool Defer) {
  DeferEnabled = Defer;
  setBeforeParseHook(arm);
  setBodyProviderFactory(makeBodies);
}

} // namespace clang::tidy::tma::clangd

// clang's FrontendAction::Execute, renamed by the linker's --wrap, and
// ours, which clangd's calls reach instead (see CMakeLists.txt).
llvm::Error clangFrontendActionExecute(clang::FrontendAction *Action) __asm__(
    "__real__ZN5clang14FrontendAction7ExecuteEv");
// NOLINTNEXTLINE(misc-use-internal-linkage)
llvm::Error tmaFrontendActionExecute(clang::FrontendAction *Action) __asm__(
    "__wrap__ZN5clang14FrontendAction7ExecuteEv");

llvm::Error tmaFrontendActionExecute(clang::FrontendAction *Action) {
  using namespace clang::tidy::tma::clangd;
  if (std::exchange(Armed, false)) {
    Current = nullptr;
    install(*Action);
  }
  return clangFrontendActionExecute(Action);
}
