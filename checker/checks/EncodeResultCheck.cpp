//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/EncodeResultCheck.h"
#include "checks/SharedMatchers.h"
#include "api/CudaTarget.h"
#include "api/EncodeCall.h"
#include "rules/EntryPointRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral CallId = SharedMatchers::CallId;

/// A run-time lookup of driver functions (the _ptsz and _v2 spellings are
/// what the runtime and driver headers' macros expand to): the callee's
/// name, as callee(functionDecl(hasAnyName(...))) matched it.
static bool isDriverLookup(const CallExpr &Call) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Call.getCalleeDecl());
  if (!FD || !FD->getIdentifier())
    return false;
  static constexpr llvm::StringLiteral Names[] = {
      "cudaGetDriverEntryPoint",          "cudaGetDriverEntryPoint_ptsz",
      "cudaGetDriverEntryPointByVersion", "cudaGetDriverEntryPointByVersion_ptsz",
      "cuGetProcAddress",                 "cuGetProcAddress_v2",
      "cuGetProcAddress_v2_ptsz"};
  return llvm::is_contained(Names, FD->getName());
}

void EncodeResultCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
}

void EncodeResultCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // Encode calls by their operand counts and names, and driver lookups by
  // their callee's name, through the module's shared call matcher.
  Shared = SharedMatchers::calls(Finder, this, [](const CallExpr &Call) {
    return mayBeEncodeCall(Call) || isDriverLookup(Call);
  });
}

/// The string literal \p E is (through casts and parentheses), or null.
static const StringLiteral *symbolLiteral(const Expr *E) {
  return dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
}

void EncodeResultCheck::checkLookup(const CallExpr &Call,
                                    const MatchFinder::MatchResult &Result) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || Call.getNumArgs() < 2)
    return;
  const StringLiteral *Symbol = symbolLiteral(Call.getArg(0));
  if (!Symbol || !Symbol->isOrdinary())
    return;
  StringRef Name = FD->getName();
  rules::EntryPointQuery Q;
  Q.Symbol = Symbol->getString().str();
  // CUDA_VERSION as the translation unit defines it (api/CudaTarget.h).
  if (std::optional<unsigned> V = cudaVersionMacro(PP))
    Q.Toolkit = *V;
  Q.Lookup = Name.starts_with("cuGetProcAddress")
                 ? rules::EntryLookup::ProcAddress
             : Name.starts_with("cudaGetDriverEntryPointByVersion")
                 ? rules::EntryLookup::ByVersion
                 : rules::EntryLookup::Unversioned;
  const Expr *VersionArg = nullptr;
  if (Q.Lookup != rules::EntryLookup::Unversioned && Call.getNumArgs() > 2) {
    VersionArg = Call.getArg(2);
    if (!Folder)
      Folder = ConstantFolder::forTranslationUnit(*Result.Context);
    if (auto V = Folder->foldInt(VersionArg))
      Q.Version = asU64(V->Value);
  }
  const SourceManager &SM = *Result.SourceManager;
  for (const rules::EntryViolation &V : rules::checkEntryPoint(Q)) {
    const Expr *At = V.Operand == rules::EntryOperand::Version && VersionArg
                         ? VersionArg
                         : Call.getArg(0);
    Report.warnOnce(SM.getFileLoc(At->getBeginLoc()),
                    V.Message + " (" + V.RuleId + ")", SM);
  }
}

/// True when \p E is written as a whole argument of a function-like macro,
/// `CHECK_CU(cuTensorMapEncodeTiled(...))`: the macro takes the result, and
/// what it does with it is the macro author's business.
static bool isWholeMacroArgument(const Expr &E, const SourceManager &SM,
                                 const LangOptions &LangOpts) {
  SourceLocation Begin = E.getBeginLoc(), End = E.getEndLoc();
  if (!SM.isMacroArgExpansion(Begin) || !SM.isMacroArgExpansion(End))
    return false;
  std::optional<Token> Prev = Lexer::findPreviousToken(
      SM.getSpellingLoc(Begin), SM, LangOpts, /*IncludeComments=*/false);
  std::optional<Token> Next =
      Lexer::findNextToken(SM.getSpellingLoc(End), SM, LangOpts);
  return Prev && Next && Prev->isOneOf(tok::l_paren, tok::comma) &&
         Next->isOneOf(tok::r_paren, tok::comma);
}

/// True when \p S is \p Parent's sub-statement whose value is discarded: a
/// statement of a block (not the value of a GNU statement expression), the
/// body or branch of a control statement, or a for-loop increment.
static bool isDiscardedSubStmt(const Stmt &S, const Stmt *Parent,
                               const ParentMap &PM) {
  if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
    // ({ ...; E; }) yields E.
    return CS->body_back() != &S || !isa_and_nonnull<StmtExpr>(PM.getParent(
                                        const_cast<CompoundStmt *>(CS)));
  }
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return If->getThen() == &S || If->getElse() == &S;
  if (const auto *For = dyn_cast<ForStmt>(Parent))
    return For->getBody() == &S || For->getInc() == &S;
  if (const auto *While = dyn_cast<WhileStmt>(Parent))
    return While->getBody() == &S;
  if (const auto *Do = dyn_cast<DoStmt>(Parent))
    return Do->getBody() == &S;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Parent))
    return Range->getBody() == &S;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
    return Switch->getBody() == &S;
  if (const auto *Case = dyn_cast<SwitchCase>(Parent))
    return Case->getSubStmt() == &S;
  if (const auto *Label = dyn_cast<LabelStmt>(Parent))
    return Label->getSubStmt() == &S;
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Parent))
    return Attributed->getSubStmt() == &S;
  return false;
}

/// True when the value of \p Call is provably thrown away: the call is an
/// expression statement or is cast to void, possibly under parentheses, the
/// left side of a comma or a branch of ?:. Anything else (assigned, returned,
/// passed on, compared, a condition, a macro argument) counts as checked.
static bool isDiscarded(const CallExpr &Call, ASTContext &Ctx,
                        const ParentMap &PM) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr *E = &Call;
  // Bounded: each step goes one node up.
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    if (isWholeMacroArgument(*E, SM, Ctx.getLangOpts()))
      return false;
    const Stmt *P = PM.getParent(const_cast<Expr *>(E));
    if (!P)
      return false;
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(P)) {
      if (Cast->getTypeAsWritten()->isVoidType())
        return true;
      E = Cast;
      continue;
    }
    if (const auto *PE = dyn_cast<Expr>(P)) {
      if (isa<ParenExpr, ImplicitCastExpr, FullExpr, MaterializeTemporaryExpr>(
              PE)) {
        E = PE;
        continue;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(PE);
          BO && BO->getOpcode() == BO_Comma) {
        if (BO->getLHS() == E)
          return true;
        E = PE;
        continue;
      }
      if (const auto *CO = dyn_cast<ConditionalOperator>(PE);
          CO && CO->getCond() != E) {
        E = PE;
        continue;
      }
      return false;
    }
    return isDiscardedSubStmt(*E, P, PM);
  }
  return false;
}

void EncodeResultCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>(CallId);
  if (isDriverLookup(*Call))
    checkLookup(*Call, Result);
  std::optional<EncodeKind> Kind = classifyEncodeCall(*Call);
  if (!Kind)
    return;
  // The value must be a CUresult (a wrapper method may return void).
  const auto *Enum = Call->getType().getCanonicalType()->getAsTagDecl();
  if (!Enum || Enum->getName() != "cudaError_enum")
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Call->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return;
  // Parents come from the enclosing body alone: the parent map of the whole
  // TU costs more than everything else the module does.
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
  const FunctionDecl *Fn = Folder->enclosingFunction(Call);
  if (!Fn || !Fn->getBody() ||
      !isDiscarded(*Call, *Result.Context, Folder->parentsOf(Fn)))
    return;
  // One warning per place, whichever encoder a macro there calls.
  Report.warnOnceAs(Loc, "TMAP-ENC-RESULT-CHECKED",
                    "the CUresult of " + encodeKindName(*Kind).str() +
                        " is discarded; a rejected descriptor is only "
                        "reported through it (TMAP-ENC-RESULT-CHECKED)",
                    SM);
}

} // namespace clang::tidy::tma
