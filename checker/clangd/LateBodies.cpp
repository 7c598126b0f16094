//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The main file's side of the bodies the preamble keeps as tokens
// (LateBodies.h): when the checks' walk of what the main file reaches meets
// a function whose body the preamble left as tokens, it is parsed then, as
// -fdelayed-template-parsing parses a template at its first instantiation
// (Parser::ParseLateTemplatedFuncDef through Sema's late-template-parser
// callback, which the main file's parser set at its end). Parsing the
// bodies of the headers' helpers when the preamble is built (then writing,
// indexing and reading them) cost a quarter of clangd's instructions; a
// file reaches few of them.
//
// The parse runs after the main file's: clangd runs the checks on the AST
// before it ends the source file, with its Sema and preprocessor alive. A
// new Parser enters a translation-unit scope; the late parser re-enters
// the function's declaration contexts. Its diagnostics are dropped (the
// body compiled when the header did), the templates it instantiates are
// instantiated at once.
//
//===----------------------------------------------------------------------===//

#include "clangd/LateBodies.h"
#include "checks/TraversalScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Parse/Parser.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "clang/Serialization/ASTReader.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdlib>
#include <memory>

namespace clang::tidy::tma::clangd {
namespace {

class LateBodies : public BodyProvider {
public:
  LateBodies(Sema &S, LateParsedTemplate &All)
      : S(S), Stream(std::move(All.Toks)), FPO(All.FPO) {
    All.Toks.clear();
    // After the marker: eof at a function's name, then its body.
    for (size_t I = 1; I < Stream.size(); ++I) {
      if (!Stream[I].is(tok::eof))
        continue;
      size_t End = I + 1;
      while (End < Stream.size() && !Stream[End].is(tok::eof))
        ++End;
      Index[Stream[I].getLocation()] = {I + 1, End};
      I = End - 1;
    }
  }

  ~LateBodies() override {
    if (!P)
      return;
    P->ExitScope();
    S.TUScope = SavedTUScope;
    P.reset();
    if (std::getenv("TMA_TIDY_STATS"))
      llvm::errs() << "tma-clangd late bodies: " << Parsed << " parsed of "
                   << Index.size() + Parsed << "\n";
  }

  bool instantiate(const FunctionDecl &) override { return false; }
  bool walksImplicitCode() const override { return false; }
  // Any may call a body kept as tokens.
  bool walksSystemBody(const FunctionDecl &) const override { return true; }

  bool provide(const FunctionDecl &Def) override {
    auto It = Index.find(Def.getLocation());
    if (It == Index.end() || !S.LateTemplateParser)
      return false;
    auto [Begin, End] = It->second;
    Index.erase(It);
    auto *FD = const_cast<FunctionDecl *>(&Def);
    if (FD->hasBody() || Begin == End)
      return FD->hasBody();
    auto LPT = std::make_unique<LateParsedTemplate>();
    LPT->D = FD;
    LPT->FPO = FPO;
    LPT->Toks.append(Stream.begin() + Begin, Stream.begin() + End);
    enterParser();
    // The preamble started the definition before it skipped the body: the
    // parameters are in the function's context already, and the parse
    // adds them again (a cycle in the context's list).
    llvm::SmallVector<Decl *, 8> Params;
    for (Decl *D : FD->decls())
      if (isa<ParmVarDecl>(D))
        Params.push_back(D);
    for (Decl *D : Params)
      FD->removeDecl(D);
    DiagnosticsEngine &Diags = S.getDiagnostics();
    bool WasSuppressed = Diags.getSuppressAllDiagnostics();
    Diags.setSuppressAllDiagnostics(true);
    // As a late-parsed template: Sema takes it for the definition it
    // is, not a redefinition of the skipped body.
    FD->setLateTemplateParsed(true);
    S.LateTemplateParser(P.get(), *LPT);
    FD->setLateTemplateParsed(false);
    S.PerformPendingInstantiations();
    Diags.setSuppressAllDiagnostics(WasSuppressed);
    ++Parsed;
    // The preprocessor's token stream points into the tokens: they live
    // as long as Sema (which looks an entry up only for a function marked
    // late-parsed, as this one no longer is; the stream was moved out of
    // the entry this may replace).
    S.LateParsedTemplateMap[FD] = std::move(LPT);
    return FD->hasBody();
  }

private:
  void enterParser() {
    if (P)
      return;
    P = std::make_unique<Parser>(S.getPreprocessor(), S,
                                 /*SkipFunctionBodies=*/false);
    SavedTUScope = S.TUScope;
    P->EnterScope(Scope::DeclScope);
    S.ActOnTranslationUnitScope(P->getCurScope());
  }

  Sema &S;
  CachedTokens Stream;
  FPOptions FPO;
  llvm::DenseMap<SourceLocation, std::pair<size_t, size_t>> Index;
  std::unique_ptr<Parser> P;
  Scope *SavedTUScope = nullptr;
  unsigned Parsed = 0;
};

} // namespace

std::unique_ptr<BodyProvider> makeLateBodies(ASTContext &Ctx) {
  // The preamble's reader is the AST's external source; it knows Sema.
  auto *Source = dyn_cast_or_null<ExternalSemaSource>(Ctx.getExternalSource());
  if (!Source || isa<MultiplexExternalSemaSource>(Source))
    return nullptr;
  Sema *S = static_cast<ASTReader *>(Source)->getSema();
  if (!S || &S->getASTContext() != &Ctx || !S->LateTemplateParser ||
      !S->getExternalSource())
    return nullptr;
  S->getExternalSource()->ReadLateParsedTemplates(S->LateParsedTemplateMap);
  for (auto &Entry : S->LateParsedTemplateMap) {
    LateParsedTemplate *LPT = Entry.second.get();
    if (LPT && !LPT->Toks.empty() && LPT->Toks[0].is(tok::identifier) &&
        LPT->Toks[0].getIdentifierInfo() &&
        LPT->Toks[0].getIdentifierInfo()->getName() == LateBodiesMarker)
      return std::make_unique<LateBodies>(*S, *LPT);
  }
  return nullptr;
}


} // namespace clang::tidy::tma::clangd
