//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-descriptor: api/EncodeFacts folds an encode call's operands into the
// record of its entry point per call-site context, rules/EncodeSite judges
// it as a whole; this file keeps one finding per place and message over
// the contexts, keeps two fixes of one call from fighting, and turns each
// violation into its diagnostic, notes and fix-it through the one
// reporter (checks/SiteReporter.h).
//
//===----------------------------------------------------------------------===//

#include "checks/DescriptorCheck.h"
#include "api/CudaTarget.h"
#include "api/EncodeCall.h"
#include "api/OwnKernelMaps.h"
#include "checks/EncodeFixes.h"
#include "checks/Explain.h"
#include "checks/SharedMatchers.h"
#include "rules/EncodeSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <map>

using namespace clang::ast_matchers;
using ::tma::rules::Param;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral CallId = SharedMatchers::CallId;
/// The value operands of an encode call: all but tensorMap and globalAddress.
static constexpr unsigned TiledValueOperands = 10;

DescriptorCheck::DescriptorCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      StrideUnitHeuristics(Options.get("StrideUnitHeuristics", true)),
      AddressTypeCheck(Options.get("AddressTypeCheck", true)),
      CallSiteContexts(Options.get("CallSiteContexts", true)),
      CoverageReport(Options.get("CoverageReport", false)),
      SuggestRuntimeCheck(Options.get("SuggestRuntimeCheck", false)),
      ExplainDescriptors(Options.get("ExplainDescriptors", false)) {}

void DescriptorCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "StrideUnitHeuristics", StrideUnitHeuristics);
  Options.store(Opts, "AddressTypeCheck", AddressTypeCheck);
  Options.store(Opts, "CallSiteContexts", CallSiteContexts);
  Options.store(Opts, "CoverageReport", CoverageReport);
  Options.store(Opts, "SuggestRuntimeCheck", SuggestRuntimeCheck);
  Options.store(Opts, "ExplainDescriptors", ExplainDescriptors);
}

void DescriptorCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // The encoders' and cuTensorMapReplaceAddress's operand counts and
  // names; classifyEncodeCall decides.
  Shared = SharedMatchers::calls(Finder, this, mayBeEncodeCall);
}

void DescriptorCheck::onEndOfTranslationUnit() {
  OwnMaps.reset();
  Linker.reset();
  Finder.reset();
  Folder.reset();
  Target.reset();
  Report.clear();
}

void DescriptorCheck::explain(const CallExpr &Call, const EncodeFacts &Ops,
                              const SourceManager &SM) {
  std::string Text = "explain: " + explainTiledCall(Call, Ops.Desc);
  SourceLocation Loc = SM.getFileLoc(Call.getBeginLoc());
  // One line per distinct descriptor: contexts that fold alike say it once.
  if (Report.record(Loc, Text))
    Report.aid(Loc, Text);
}

MapLinker &DescriptorCheck::linker(ASTContext &Ctx) {
  if (!Linker)
    Linker = std::make_unique<MapLinker>(*Folder, Ctx);
  return *Linker;
}

void DescriptorCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>(CallId);
  const SourceManager &SM = *Result.SourceManager;
  // Calls in system headers are analysed too: a forwarding wrapper there
  // (CUTLASS's driver wrapper) reports at the user's call of the wrapper.
  std::optional<EncodeKind> Kind = classifyEncodeCall(*Call);
  if (!Kind)
    return;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
  if (!Target)
    Target = encodeTarget(*Result.Context, PP);
  rules::TiledRuleOptions Opts;
  Opts.StrideUnitHeuristics = StrideUnitHeuristics;
  Opts.AddressTypeCheck = AddressTypeCheck;

  // Evaluate the call under every context of its function; a message that
  // several contexts produce is reported once, for the first of them.
  // The enclosing function comes from the folder's call index (a matcher
  // such as forCallable would build the parent map of the whole TU).
  const FunctionDecl *Fn = Folder->enclosingFunction(Call);
  std::vector<Finding> Findings;
  std::map<std::pair<SourceLocation::UIntTy, std::string>, size_t> Seen;
  unsigned BestKnown = 0, BestTiledKnown = 0;
  std::vector<Param> BestUnknown;
  auto Contexts = Folder->contextsOf(CallSiteContexts ? Fn : nullptr);
  for (const CallContext *Context : Contexts) {
    // A context under which a guard leaves before the call reports nothing
    // (tma-rules.md §11.C).
    if (!Folder->mayRun(Call, Fn, Context))
      continue;
    Folder->enterContext(Context);
    auto Ops = std::make_shared<EncodeFacts>(
        foldEncodeCall(*Call, *Kind, *Folder, *Result.Context, *Target));
    if (*Kind == EncodeKind::ReplaceAddress)
      linkReplacedMap(
          *Ops, *Call, Fn, Context,
          [&]() -> MapLinker & { return linker(*Result.Context); }, *Folder);
    if (*Kind == EncodeKind::Tiled) {
      // The run-time suggestion names tma::encode_tiled: Tiled calls only.
      std::vector<Param> Unknown = unknownOperands(Ops->Desc);
      if (Context == Contexts.front() ||
          TiledValueOperands - Unknown.size() > BestTiledKnown) {
        BestTiledKnown = TiledValueOperands - Unknown.size();
        BestUnknown = std::move(Unknown);
      }
    }
    if (ExplainDescriptors && *Kind == EncodeKind::Tiled)
      explain(*Call, *Ops, SM);
    BestKnown = std::max(BestKnown, knownOperands(*Ops));
    std::vector<rules::Violation> Violations =
        rules::checkEncodeSite(*Ops, Opts, [&] {
          return readByOwnKernel(*Call, Context, *Result.Context);
        });
    for (rules::Violation &V : Violations) {
      const Expr *Written = encodeArgument(*Call, *Kind, V.Parameter);
      if (!Written)
        continue;
      // An operand that only forwards a parameter is reported where the
      // caller wrote it.
      const CallContext *Outer = Context;
      // The encode function is reported at the call, never at the caller
      // that passed a function pointer.
      const Expr *Arg = V.Parameter == Param::Encoder
                            ? Written
                            : forwardedFrom(Written, Outer);
      SourceLocation Loc = SM.getFileLoc(Arg->getBeginLoc());
      // Before the message is built: library code breaks many rules.
      if (SM.isInSystemHeader(Loc))
        continue;
      std::string Message = rules::withRuleId(V);
      if (!Report.admits(Loc, Message, SM))
        continue;
      auto Key = std::make_pair(Loc.getRawEncoding(), Message);
      auto [It, New] = Seen.try_emplace(Key, Findings.size());
      if (!New) {
        ++Findings[It->second].Others;
        continue;
      }
      Findings.push_back(
          {std::move(V), Ops, Arg, Loc, std::move(Message), 0, false});
    }
  }
  Folder->enterContext(nullptr);
  if (CoverageReport && *Kind != EncodeKind::ReplaceAddress) {
    const auto N = static_cast<unsigned>(Contexts.size());
    Report.aid(SM.getFileLoc(Call->getBeginLoc()),
               "encode call: " + std::to_string(BestKnown) + " of " +
                   std::to_string(valueOperandCount(*Kind)) +
                   " operands folded (best of " + std::to_string(N) +
                   " context" + (N == 1 ? "" : "s") + ")");
  }

  // Values known only at run time: the checker is silent there, the same
  // rules run in <tma/validate.h>. Once per call, only in a function body
  // (the call index leaves out types: a call in decltype never runs), not in
  // system headers and not in a macro body (a library's driver-entry
  // wrapper, where the user cannot change the call; a call passed to a macro
  // is the user's).
  SourceLocation CallLoc = SM.getFileLoc(Call->getBeginLoc());
  if (SuggestRuntimeCheck && Fn && Findings.empty() && !BestUnknown.empty() &&
      !SM.isInSystemHeader(CallLoc) &&
      !SM.isMacroBodyExpansion(Call->getBeginLoc()) &&
      Report.record(CallLoc, "remark: run-time check")) {
    std::string Names;
    for (size_t I = 0; I < BestUnknown.size(); ++I)
      Names += std::string(I == 0                        ? ""
                           : I + 1 == BestUnknown.size() ? " and "
                                                         : ", ") +
               rules::paramName(BestUnknown[I]);
    const bool One = BestUnknown.size() == 1;
    Report.remark(CallLoc, Names + (One ? " does" : " do") +
                               " not fold at compile time: tma::encode_tiled "
                               "from <tma/validate.h>, called with the same "
                               "arguments, checks " +
                               (One ? "it" : "them") + " at run time");
  }

  // Fixes of one call never fight: a fix computed from an operand that
  // another fix changes, or a second fix of the same operand, is left to
  // the note's text (the fixed call is checked again on the next run).
  std::map<std::pair<Param, unsigned>, size_t> FixedBy;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const auto &S = Findings[I].V.Suggested;
    if (S && certainFix(*S, Findings[I].Arg, *Findings[I].Ops, SM) &&
        !FixedBy.try_emplace({S->Parameter, S->Index.value_or(0)}, I).second)
      Findings[I].NoFix = true;
  }
  for (size_t I = 0; I < Findings.size(); ++I) {
    Finding &F = Findings[I];
    auto ChangedByOther = [&](Param P, std::optional<unsigned> Index) {
      auto It = FixedBy.find({P, Index.value_or(0)});
      return It != FixedBy.end() && It->second != I;
    };
    if (F.V.Suggested &&
        (ChangedByOther(F.V.Parameter, F.V.Index) ||
         llvm::any_of(F.V.AlsoUses, [&](const auto &U) {
           return ChangedByOther(U.first, U.second);
         })))
      F.NoFix = true;
  }

  for (const Finding &F : Findings) {
    if (!report(F, SM, Result.Context->getLangOpts()))
      continue;
    // A forwarded operand is reported at the caller: the wrapper's
    // instantiation says nothing more.
    bool Forwarded = F.Arg != encodeArgument(*Call, *Kind, F.V.Parameter);
    Report.noteInstantiation(Forwarded, Fn, SM);
  }
}

bool DescriptorCheck::readByOwnKernel(const CallExpr &Call,
                                      const CallContext *Context,
                                      ASTContext &Ctx) {
  if (!OwnMaps) {
    MapLinker &L = linker(Ctx);
    Finder = DeviceOpsFinder::forTranslationUnit(Ctx);
    OwnMaps = std::make_unique<OwnKernelMaps>(Ctx, *Folder, *Finder, L);
  }
  bool Read = OwnMaps->readByOwnKernel(&Call, Context);
  Folder->enterContext(Context);
  return Read;
}

bool DescriptorCheck::report(const Finding &F, const SourceManager &SM,
                             const LangOptions &LangOpts) {
  const rules::Violation &V = F.V;
  const EncodeFacts &Ops = *F.Ops;
  if (!Report.warnOnce(F.Loc, F.Message, SM))
    return false;

  // A note for a value that did not come from the call itself.
  auto NoteOrigin = [&](Param P, std::optional<unsigned> I) {
    const Origin *O = Ops.originOf(P, I);
    auto Value = Ops.Values.find({P, I.value_or(0)});
    if (O && Value != Ops.Values.end())
      Report.noteValue(*O, operandName(P, I), Value->second, F.Loc, SM);
  };

  if (!isArrayOperand(Ops.Kind, V.Parameter) || V.Index)
    NoteOrigin(V.Parameter, V.Index);
  else if (const Origin *O = Ops.originOf(V.Parameter, ~0U); O && O->Var)
    Report.noteDeclared(*O->Var, SM);
  for (const auto &[P, I] : V.AlsoUses) {
    const Origin *O = Ops.originOf(P, I);
    if (P == V.Parameter || !O || !O->Var)
      continue;
    NoteOrigin(P, I);
  }

  // The calls that bound the parameters the bad value was read through,
  // innermost first.
  if (const Origin *O = Ops.originOf(V.Parameter, V.Index)) {
    Report.noteCalls(O->Through, F.Loc, *Folder, nullptr, SM);
    if (F.Others && !O->Through.empty())
      Report.noteOtherCalls(F.Loc, F.Others, O->Through.back().Context->Callee);
  }

  if (auto It = Ops.Pointers.find(V.Parameter); It != Ops.Pointers.end())
    Report.notePointer(It->second, rules::paramName(V.Parameter), F.Loc,
                       *Folder, nullptr, SM);
  // TMAP-REPLACE-ADDR-ALIGN: the operand of the map's encode call that asks
  // for more than 16 bytes.
  if (Ops.LinkedEncode)
    for (const auto &[P, I] : V.AlsoUses) {
      const Expr *E = encodeArgument(*Ops.LinkedEncode, Ops.LinkedKind, P);
      SourceLocation L =
          SM.getFileLoc((E ? E : Ops.LinkedEncode)->getBeginLoc());
      if (SM.isInSystemHeader(L))
        continue;
      const rules::Known &Value = P == Param::Interleave ? Ops.Desc.Interleave
                                                         : Ops.Desc.DataType;
      const char *Name = P == Param::Interleave ? rules::interleaveName(*Value)
                                                : rules::dataTypeName(*Value);
      Report.note(L, std::string("the map is encoded here with ") +
                         rules::paramName(P) + " = " +
                         (Name ? Name : "(null)"));
    }

  if (const auto &S = V.Suggested)
    suggest(*S, F.Arg, Ops, !F.NoFix, SM, LangOpts);
  return true;
}

void DescriptorCheck::suggest(const rules::Suggestion &S, const Expr *Arg,
                              const EncodeFacts &Ops, bool WithFix,
                              const SourceManager &SM,
                              const LangOptions &LangOpts) {
  llvm::SmallVector<FixItHint, 1> Fixes;
  if (S.Kind == rules::Suggestion::SkipFirstElement) {
    SourceRange R = Arg->getSourceRange();
    if (isEditable(R, SM) && isa<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LangOpts), " + 1"));
    Report.note(SM.getFileLoc(R.getBegin()), S.Text, Fixes);
    return;
  }
  // Replace the literal that produced the value, wherever it is.
  const Origin *O = Ops.originOf(S.Parameter, S.Index);
  SourceRange R = O ? O->Range : Arg->getSourceRange();
  SourceLocation L = SM.getFileLoc(R.getBegin());
  if (SM.isInSystemHeader(L))
    return;
  if (WithFix)
    if (std::optional<SourceRange> Fix = certainFix(S, Arg, Ops, SM))
      Fixes.push_back(FixItHint::CreateReplacement(
          CharSourceRange::getTokenRange(*Fix),
          S.Spelling.empty() ? std::to_string(S.Value) : S.Spelling));
  Report.note(L, S.Text, Fixes);
}

} // namespace clang::tidy::tma
