//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Facts, then rules, then report: api/PlacementFacts builds the record of
// each placement site (a variable that holds a map) and of each
// tensormap.replace value, rules/PlacementSite judges it, and the check
// reports every violation through the shared SiteReporter at the fact it
// names, with the notes of the address's path.
//
//===----------------------------------------------------------------------===//

#include "checks/TensorMapPlacementCheck.h"
#include "checks/SharedMatchers.h"
#include "rules/PlacementSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <memory>
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

using namespace placement;
using ::tma::rules::MapStorage;
using ::tma::rules::PlacementFact;

TensorMapPlacementCheck::TensorMapPlacementCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), CallDepth(Options.get("CallDepth", 3U)),
      GlobalFence(Options.get("GlobalFence", true)) {}

void TensorMapPlacementCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallDepth", CallDepth);
  Options.store(Opts, "GlobalFence", GlobalFence);
}

void TensorMapPlacementCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // Kernels (TMAP-PLACE-*) and other __device__ definitions (their map
  // copies), through the module's shared matcher.
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

/// The insertions that make parameter \p Index of \p Kernel
/// 'const __grid_constant__' on every declaration of the kernel, or nothing
/// when one of them cannot be edited safely.
static std::vector<FixItHint> gridConstantFixes(const FunctionDecl &Kernel,
                                                unsigned Index,
                                                const SourceManager &SM,
                                                const LangOptions &LangOpts) {
  const FunctionDecl *Written = Kernel.getTemplateInstantiationPattern();
  if (!Written)
    Written = &Kernel;
  std::vector<FixItHint> Fixes;
  for (const FunctionDecl *Decl : Written->redecls()) {
    if (Index >= Decl->getNumParams())
      return {};
    const ParmVarDecl &P = *Decl->getParamDecl(Index);
    // A template parameter's type is shared with other instantiations.
    if (P.getType()->isDependentType())
      return {};
    SourceLocation Begin = P.getBeginLoc();
    if (Begin.isInvalid() || Begin.isMacroID() || SM.isInSystemHeader(Begin))
      return {};
    if (!P.getType().isConstQualified()) {
      Fixes.push_back(
          FixItHint::CreateInsertion(Begin, "const __grid_constant__ "));
      continue;
    }
    // 'const CUtensorMap' -> 'const __grid_constant__ CUtensorMap'.
    Token Tok;
    if (!Lexer::getRawToken(Begin, Tok, SM, LangOpts) &&
        Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "const")
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(Begin, 0, SM, LangOpts),
          " __grid_constant__"));
    else
      Fixes.push_back(FixItHint::CreateInsertion(Begin, "__grid_constant__ "));
  }
  return Fixes;
}

void TensorMapPlacementCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // The shared matcher hands over no dependent function, and says once for
  // all checks whether it has a body outside system headers.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  auto FactsOf = [&]() -> PlacementFacts & {
    if (!Folder)
      Folder = ConstantFolder::forTranslationUnit(Ctx);
    if (!Facts)
      Facts = std::make_unique<PlacementFacts>(Ctx, *Folder, matchedOnItsOwn,
                                               CallDepth);
    return *Facts;
  };
  if (const FunctionDecl *Fn = M.Fn; Fn && !M.Kernel) {
    if (M.UserBody && FactsOf().mayHoldSite(*Fn)) {
      checkSites(*Fn, *Fn, Facts->copySites(*Fn), Ctx);
      checkReplaceValues(*Fn, Ctx);
    }
    return;
  }
  const FunctionDecl *Kernel = M.Fn;
  // Templates are checked per instantiation.
  if (!Kernel || !Kernel->getBody())
    return;
  PlacementFacts &F = FactsOf();
  std::vector<MapSite> Params = F.valueParamSites(*Kernel);
  auto Only = [&](MapStorage S) {
    std::vector<MapSite> Out;
    for (const MapSite &P : Params)
      if (P.Storage == S)
        Out.push_back(P);
    return Out;
  };
  if (M.UserBody) {
    checkSites(*Kernel, *Kernel, F.copySites(*Kernel), Ctx);
    checkReplaceValues(*Kernel, Ctx);
    checkSites(*Kernel, *Kernel, Only(MapStorage::GridConstantParam), Ctx);
  }
  checkSites(*Kernel, *Kernel, Only(MapStorage::KernelParamCopy), Ctx);
  if (GlobalFence)
    checkSites(*Kernel, *Kernel, F.globalSites(*Kernel), Ctx);
}

void TensorMapPlacementCheck::checkSites(const FunctionDecl &FD,
                                         const FunctionDecl &Kernel,
                                         const std::vector<MapSite> &Sites,
                                         ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const MapSite &S : Sites) {
    // A variable reported already (template instantiations repeat a
    // function) or in a system header: no report is made at it, its uses
    // are not followed. A map in global memory or a __grid_constant__
    // parameter is reported at a statement.
    SourceLocation VarLoc = SM.getFileLoc(S.Var->getLocation());
    bool AtVar = S.Storage != MapStorage::GridConstantParam &&
                 !(S.Storage == MapStorage::Global && !isa<ParmVarDecl>(S.Var));
    if (AtVar && (VarLoc.isInvalid() || SM.isInSystemHeader(VarLoc) ||
                  Reported.count(VarLoc.getRawEncoding())))
      continue;
    MapPlacement P = Facts->placementOf(FD, S);
    for (const ::tma::rules::PlacementViolation &V :
         ::tma::rules::checkMapPlacement(P.Facts))
      report(S, P, V, Kernel, Ctx);
  }
}

void TensorMapPlacementCheck::notePath(const VarDecl &Var,
                                       llvm::ArrayRef<const Stmt *> Path,
                                       SourceLocation SkipAt,
                                       const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
  if (SkipAt.isInvalid() || First != SkipAt)
    Report.note(First,
                (Path.size() == 1 ? "the address of " +
                                        SiteReporter::nameOf(Var, Ctx) +
                                        " reaches a TMA operation here"
                                  : "the address of " +
                                        SiteReporter::nameOf(Var, Ctx) +
                                        " is passed on here and reaches a "
                                        "TMA operation"));
  SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
  if (Path.size() > 1 && !SM.isInSystemHeader(Last))
    Report.note(Last, "the TMA operation");
}

void TensorMapPlacementCheck::report(
    const MapSite &S, const MapPlacement &P,
    const ::tma::rules::PlacementViolation &PV, const FunctionDecl &Kernel,
    ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const ::tma::rules::DeviceViolation &V = PV.Violation;
  const VarDecl &Var = *S.Var;
  std::string Name = SiteReporter::nameOf(Var, Ctx);
  std::string Tail = V.Message + " (" + V.RuleId + ")";
  // The variable, "parameter 'p' holds a CUtensorMap and ..." for a class
  // that holds one.
  bool Holder = !isMapType(Var.getType());
  SourceLocation Loc;
  std::string Message;
  switch (PV.About) {
  case PlacementFact::Read:
    Loc = SM.getFileLoc(Var.getLocation());
    if (S.Storage == MapStorage::KernelParamCopy)
      Message = (Holder ? "parameter " + Name + " holds a CUtensorMap and "
                        : "CUtensorMap parameter " + Name + " ") +
                Tail;
    else
      Message = (Holder ? Name + " holds a CUtensorMap and "
                        : "tensor map " + Name + " ") +
                Tail;
    break;
  case PlacementFact::Write:
    Loc = SM.getFileLoc(P.Path.front()->getBeginLoc());
    Message = (P.Path.size() > 1
                   ? "the address of tensor map " + Name +
                         " is passed on here to " + mapWriteName(*P.Path.back()) +
                         ", which writes it in place"
                   : mapWriteName(*P.Path.back()) + " writes tensor map " +
                         Name + " in place") +
              "; " + Name + " " + Tail;
    break;
  case PlacementFact::Fence:
    // A parameter is reported once; a __device__ map once per kernel use.
    Loc = SM.getFileLoc(isa<ParmVarDecl>(Var) ? Var.getLocation()
                                              : P.Path.front()->getBeginLoc());
    Message = "tensor map " + Name +
              " is read from global memory by a TMA operation, but " +
              SiteReporter::nameOf(Kernel, Ctx) + " " + Tail;
    break;
  }
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      Reported.count(Loc.getRawEncoding()))
    return;
  std::vector<FixItHint> Fixes;
  if (V.RuleId == llvm::StringRef("TMAP-PLACE-GRID-CONSTANT") &&
      Rules.allows(V.RuleId) &&
      survivesConst(cast<ParmVarDecl>(Var), Kernel, *Folder,
                    Facts->bodies()))
    Fixes = gridConstantFixes(Kernel, S.Index, SM, getLangOpts());
  if (!Report.warnOnce(Loc, Message, SM, Fixes))
    return;
  Reported.insert(Loc.getRawEncoding());
  switch (PV.About) {
  case PlacementFact::Read:
    notePath(Var, P.Path, SourceLocation(), Ctx);
    break;
  case PlacementFact::Write: {
    SourceLocation Last = SM.getFileLoc(P.Path.back()->getBeginLoc());
    if (P.Path.size() > 1 && !SM.isInSystemHeader(Last))
      Report.note(Last, "the write");
    Report.note(SM.getFileLoc(Var.getLocation()),
                Name + " is declared here");
    break;
  }
  case PlacementFact::Fence:
    // Not where the warning is already (a __device__ map's use).
    notePath(Var, P.Path, Loc, Ctx);
    break;
  }
  if (!V.Suggestion.empty())
    Report.note(PV.About == PlacementFact::Fence
                    ? SM.getFileLoc(Kernel.getLocation())
                    : Loc,
                V.Suggestion);
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-REPLACE-ENCODING
//===----------------------------------------------------------------------===//

void TensorMapPlacementCheck::checkReplaceValues(const FunctionDecl &FD,
                                                 ASTContext &Ctx) {
  for (const ReplaceSite &R : Facts->replaceSitesOf(FD)) {
    if (R.Imm || !R.E) {
      // A template argument: which instantiation.
      ReplaceValue V = Facts->replaceValueOf(R, nullptr);
      for (const ::tma::rules::DeviceViolation &Viol :
           ::tma::rules::checkReplaceValue(V.Facts))
        reportReplace(R, V, Viol, nullptr,
                      FD.isTemplateInstantiation() ? &FD : nullptr, Ctx);
      continue;
    }
    for (const CallContext *Context : Folder->contextsOf(&FD)) {
      // Nothing to report where a guard leaves before the site (§11.C).
      if (!Folder->mayRun(R.Site, &FD, Context))
        continue;
      Folder->enterContext(Context);
      ReplaceValue V = Facts->replaceValueOf(R, Context);
      for (const ::tma::rules::DeviceViolation &Viol :
           ::tma::rules::checkReplaceValue(V.Facts))
        reportReplace(R, V, Viol, Context, nullptr, Ctx);
    }
    Folder->enterContext(nullptr);
  }
}

void TensorMapPlacementCheck::reportReplace(
    const ReplaceSite &R, const ReplaceValue &Value,
    const ::tma::rules::DeviceViolation &V, const CallContext *Context,
    const FunctionDecl *Instantiation, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation OpLoc = SM.getFileLoc(R.Site->getBeginLoc());
  SourceLocation Loc =
      Value.Written ? SM.getFileLoc(Value.Written->getBeginLoc()) : OpLoc;
  if (!Report.warnOnce(Loc, SiteReporter::message("", "", V), SM))
    return;
  // A value that a helper's parameter forwards is reported where a caller
  // wrote it: the calls in between, and the instruction that receives it.
  if (Value.Folded)
    Report.noteCalls(*Value.Folded, Loc, *Folder, Context, SM);
  if (Value.Forwarded && OpLoc != Loc && !SM.isInSystemHeader(OpLoc))
    Report.note(OpLoc, std::string("passed to tensormap.replace .") +
                           ::tma::rules::replaceFieldName(R.Field) + " here");
  if (!V.Suggestion.empty())
    Report.note(Loc, V.Suggestion);
  Report.noteInstantiation(/*Forwarded=*/false, Instantiation, SM);
}

} // namespace clang::tidy::tma
