//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/DescriptorCheck.h"
#include "api/EncodeCall.h"
#include "checks/ContextNotes.h"
#include "checks/Explain.h"
#include "rules/TiledRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <map>

using namespace clang::ast_matchers;
using ::tma::rules::Param;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral CallId = "call";
/// The most elements any array operand of an encode call can need.
static constexpr unsigned MaxArrayElems = 5;
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
  Finder->addMatcher(callExpr(argumentCountIs(TiledArgCount)).bind(CallId),
                     this);
}

void DescriptorCheck::onEndOfTranslationUnit() {
  Folder.reset();
  Explained.clear();
  Reported.clear();
  Suggested.clear();
}

/// Bits of one element that \p Address points to, when it is a typed pointer
/// to a scalar element type (arithmetic, or a CUDA/CUTLASS half, bfloat16 or
/// fp8 type).
static rules::Known addressElementBits(const Expr *Address,
                                       const ASTContext &Ctx) {
  QualType T = Address->IgnoreParenCasts()->getType();
  if (!T->isPointerType())
    return std::nullopt;
  QualType Elem = T->getPointeeType();
  if (Elem->isIncompleteType() || Elem->isDependentType() ||
      Elem->isBooleanType())
    return std::nullopt;
  bool Scalar = Elem->isArithmeticType();
  if (const auto *RD = Elem->getAsRecordDecl())
    Scalar = llvm::is_contained({"__half", "__nv_bfloat16", "__nv_fp8_e4m3",
                                 "__nv_fp8_e5m2", "half_t", "bfloat16_t",
                                 "float_e4m3_t", "float_e5m2_t"},
                                RD->getName());
  if (!Scalar)
    return std::nullopt;
  return Ctx.getTypeSize(Elem);
}

static FoldedOperands foldOperands(const CallExpr &Call, ConstantFolder &F,
                                   const ASTContext &Ctx) {
  FoldedOperands Out;
  auto Scalar = [&](Param P) -> rules::Known {
    auto V = F.foldInt(tiledArgument(Call, P));
    if (!V)
      return std::nullopt;
    Out.Origins[{P, 0}] = V->From;
    return asU64(V->Value);
  };
  auto Array = [&](Param P) {
    rules::KnownArray A;
    auto V = F.foldArray(tiledArgument(Call, P), &Call, MaxArrayElems);
    if (!V)
      return A;
    A.Provided = V->Provided;
    for (unsigned I = 0; I < V->Elems.size(); ++I) {
      if (!V->Elems[I]) {
        A.Elems.emplace_back();
        continue;
      }
      A.Elems.emplace_back(asU64(V->Elems[I]->Value));
      Out.Origins[{P, I}] = V->Elems[I]->From;
    }
    if (V->Array)
      Out.Origins[{P, ~0U}] =
          Origin{V->Array->getSourceRange(), V->Array, nullptr, {}};
    return A;
  };
  rules::TiledDescriptor &D = Out.Desc;
  D.DataType = Scalar(Param::TensorDataType);
  D.Rank = Scalar(Param::TensorRank);
  D.GlobalDim = Array(Param::GlobalDim);
  D.GlobalStrides = Array(Param::GlobalStrides);
  D.BoxDim = Array(Param::BoxDim);
  D.ElementStrides = Array(Param::ElementStrides);
  D.Interleave = Scalar(Param::Interleave);
  D.Swizzle = Scalar(Param::Swizzle);
  D.L2Promotion = Scalar(Param::L2Promotion);
  D.OobFill = Scalar(Param::OobFill);
  D.AddressElementBits =
      addressElementBits(tiledArgument(Call, Param::GlobalAddress), Ctx);
  return Out;
}

/// The value operands (all but tensorMap and globalAddress) that are not
/// known: scalars, and arrays of which an element the driver reads is not.
static std::vector<Param> unknownOperands(const rules::TiledDescriptor &D) {
  std::vector<Param> Out;
  auto Scalar = [&](const rules::Known &V, Param P) {
    if (!V)
      Out.push_back(P);
  };
  Scalar(D.DataType, Param::TensorDataType);
  Scalar(D.Rank, Param::TensorRank);
  bool ValidRank = D.Rank && *D.Rank >= 1 && *D.Rank <= 5;
  auto Array = [&](const rules::KnownArray &A, Param P, bool Strides) {
    uint64_t N = !ValidRank ? 0 : Strides ? *D.Rank - 1 : *D.Rank;
    bool AllKnown = ValidRank;
    for (uint64_t I = 0; I < N; ++I)
      AllKnown &= A.at(I).has_value();
    if (!AllKnown)
      Out.push_back(P);
  };
  Array(D.GlobalDim, Param::GlobalDim, false);
  Array(D.GlobalStrides, Param::GlobalStrides, true);
  Array(D.BoxDim, Param::BoxDim, false);
  Array(D.ElementStrides, Param::ElementStrides, false);
  Scalar(D.Interleave, Param::Interleave);
  Scalar(D.Swizzle, Param::Swizzle);
  Scalar(D.L2Promotion, Param::L2Promotion);
  Scalar(D.OobFill, Param::OobFill);
  return Out;
}

static std::string operandName(Param P, std::optional<unsigned> Index) {
  std::string S = rules::paramName(P);
  if (Index)
    S += "[" + std::to_string(*Index) + "]";
  return S;
}

/// A range the user can edit: in a file, not in a macro body.
static bool isEditable(SourceRange R, const SourceManager &SM) {
  return R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID() &&
         !SM.isInSystemHeader(R.getBegin());
}

/// True when \p E is something a value suggestion may replace outright: an
/// integer literal or an enumerator, possibly under a cast.
static bool isReplaceableLiteral(const Expr *E) {
  // Not IgnoreParenCasts: it also looks through substituted template
  // arguments, whose spelling is the parameter's name.
  while (true) {
    if (const auto *PE = dyn_cast<ParenExpr>(E))
      E = PE->getSubExpr();
    else if (const auto *CE = dyn_cast<CastExpr>(E))
      E = CE->getSubExpr();
    else
      break;
  }
  if (isa<IntegerLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isa<EnumConstantDecl>(DRE->getDecl());
  return false;
}

void DescriptorCheck::explain(const CallExpr &Call, const FoldedOperands &Ops,
                              const SourceManager &SM) {
  const rules::TiledDescriptor &D = Ops.Desc;
  auto Arg = [&](Param P) { return tiledArgument(Call, P); };
  std::string Text =
      "cuTensorMapEncodeTiled descriptor: tensorDataType = " +
      explainScalar(D.DataType, rules::dataTypeName,
                    Arg(Param::TensorDataType)) +
      "; tensorRank = " +
      explainScalar(D.Rank, nullptr, Arg(Param::TensorRank)) +
      "; globalDim = " + explainArray(D.GlobalDim, Arg(Param::GlobalDim)) +
      "; globalStrides = " +
      explainArray(D.GlobalStrides, Arg(Param::GlobalStrides)) +
      "; boxDim = " + explainArray(D.BoxDim, Arg(Param::BoxDim)) +
      "; elementStrides = " +
      explainArray(D.ElementStrides, Arg(Param::ElementStrides)) +
      "; interleave = " +
      explainScalar(D.Interleave, rules::interleaveName,
                    Arg(Param::Interleave)) +
      "; swizzle = " +
      explainScalar(D.Swizzle, rules::swizzleName, Arg(Param::Swizzle)) +
      "; l2Promotion = " +
      explainScalar(D.L2Promotion, nullptr, Arg(Param::L2Promotion)) +
      "; oobFill = " + explainScalar(D.OobFill, nullptr, Arg(Param::OobFill));
  SourceLocation Loc = SM.getFileLoc(Call.getBeginLoc());
  // One line per distinct descriptor: contexts that fold alike say it once.
  if (Explained.insert({Loc.getRawEncoding(), Text}).second)
    diag(Loc, "explain: %0") << Text;
}

void DescriptorCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>(CallId);
  const SourceManager &SM = *Result.SourceManager;
  // Calls in system headers are analysed too: a forwarding wrapper there
  // (CUTLASS's driver wrapper) reports at the user's call of the wrapper.
  if (classifyEncodeCall(*Call) != EncodeKind::Tiled)
    return;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
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
  unsigned BestKnown = 0;
  std::vector<Param> BestUnknown;
  auto Contexts = Folder->contextsOf(CallSiteContexts ? Fn : nullptr);
  for (const CallContext *Context : Contexts) {
    // A context under which a guard leaves before the call reports nothing
    // (tma-rules.md §11.C).
    if (!Folder->mayRun(Call, Fn, Context))
      continue;
    Folder->enterContext(Context);
    auto Ops = std::make_shared<FoldedOperands>(
        foldOperands(*Call, *Folder, *Result.Context));
    std::vector<Param> Unknown = unknownOperands(Ops->Desc);
    if (Context == Contexts.front() ||
        TiledValueOperands - Unknown.size() > BestKnown) {
      BestKnown = TiledValueOperands - Unknown.size();
      BestUnknown = std::move(Unknown);
    }
    if (ExplainDescriptors)
      explain(*Call, *Ops, SM);
    for (rules::Violation &V : rules::checkTiled(Ops->Desc, Opts)) {
      // An operand that only forwards a parameter is reported where the
      // caller wrote it.
      const CallContext *Outer = Context;
      const Expr *Arg = forwardedFrom(tiledArgument(*Call, V.Parameter), Outer);
      SourceLocation Loc = SM.getFileLoc(Arg->getBeginLoc());
      if (SM.isInSystemHeader(Loc))
        continue;
      if (!Rules.allows(V.RuleId))
        continue;
      std::string Message = rules::withRuleId(V);
      auto Key = std::make_pair(Loc.getRawEncoding(), Message);
      if (Reported.count(Key))
        continue;
      auto [It, New] = Seen.try_emplace(Key, Findings.size());
      if (!New) {
        ++Findings[It->second].Others;
        continue;
      }
      Findings.push_back({std::move(V), Ops, Arg, Loc, std::move(Message), 0});
    }
  }
  Folder->enterContext(nullptr);
  if (CoverageReport)
    diag(SM.getFileLoc(Call->getBeginLoc()),
         "encode call: %0 of 10 operands folded (best of %1 context%s1)")
        << BestKnown << static_cast<unsigned>(Contexts.size());

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
      Suggested.insert(CallLoc.getRawEncoding()).second) {
    std::string Names;
    for (size_t I = 0; I < BestUnknown.size(); ++I)
      Names += std::string(I == 0                        ? ""
                           : I + 1 == BestUnknown.size() ? " and "
                                                         : ", ") +
               rules::paramName(BestUnknown[I]);
    diag(CallLoc,
         "%0 %plural{1:does|:do}1 not fold at compile time: "
         "tma::encode_tiled from <tma/validate.h>, called with the same "
         "arguments, checks %plural{1:it|:them}1 at run time",
         DiagnosticIDs::Remark)
        << Names << static_cast<unsigned>(BestUnknown.size());
  }

  for (const Finding &F : Findings) {
    Reported.insert({F.Loc.getRawEncoding(), F.Message});
    report(F, Result);
    // A forwarded operand is reported at the caller: the wrapper's
    // instantiation says nothing more.
    bool Forwarded = F.Arg != tiledArgument(*Call, F.V.Parameter);
    if (!Forwarded && Fn && Fn->isTemplateInstantiation() &&
        Fn->getPointOfInstantiation().isValid())
      diag(SM.getFileLoc(Fn->getPointOfInstantiation()),
           "in instantiation of %0 requested here", DiagnosticIDs::Note)
          << Fn;
  }
}

void DescriptorCheck::report(const Finding &F,
                             const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const rules::Violation &V = F.V;
  const FoldedOperands &Ops = *F.Ops;
  const Expr *Arg = F.Arg;
  diag(F.Loc, "%0") << F.Message;

  auto OriginFor = [&](Param P, std::optional<unsigned> I) -> const Origin * {
    auto It = Ops.Origins.find({P, I.value_or(0)});
    return It == Ops.Origins.end() ? nullptr : &It->second;
  };
  // A note for a value that did not come from the call itself.
  auto NoteOrigin = [&](Param P, std::optional<unsigned> I, uint64_t Value) {
    const Origin *O = OriginFor(P, I);
    if (!O || !O->Range.isValid())
      return;
    SourceLocation L = SM.getFileLoc(O->Range.getBegin());
    if (L == F.Loc || SM.isInSystemHeader(L))
      return;
    diag(L, "%0 = %1 comes from here", DiagnosticIDs::Note)
        << operandName(P, I) << std::to_string(Value);
  };

  bool IsArray =
      V.Parameter == Param::GlobalDim || V.Parameter == Param::GlobalStrides ||
      V.Parameter == Param::BoxDim || V.Parameter == Param::ElementStrides;
  if (!IsArray || V.Index)
    NoteOrigin(V.Parameter, V.Index, V.Value);
  else if (const Origin *O = OriginFor(V.Parameter, ~0U); O && O->Var)
    diag(SM.getFileLoc(O->Var->getLocation()), "%0 declared here",
         DiagnosticIDs::Note)
        << O->Var;
  for (const auto &[P, I] : V.AlsoUses) {
    const Origin *O = OriginFor(P, I);
    if (P == V.Parameter || !O || !O->Var)
      continue;
    rules::Known Value = P == Param::TensorDataType ? Ops.Desc.DataType
                         : P == Param::TensorRank   ? Ops.Desc.Rank
                         : P == Param::Swizzle      ? Ops.Desc.Swizzle
                         : P == Param::Interleave   ? Ops.Desc.Interleave
                         : P == Param::GlobalDim
                             ? Ops.Desc.GlobalDim.at(I.value_or(0))
                             : std::nullopt;
    if (Value)
      NoteOrigin(P, I, *Value);
  }

  // The calls that bound the parameters the bad value was read through,
  // innermost first.
  if (const Origin *O = OriginFor(V.Parameter, V.Index)) {
    noteBindings(*this, *Folder, O->Through, F.Loc, SM, nullptr);
    if (F.Others && !O->Through.empty())
      diag(F.Loc, "the same value also comes from %0 other call%s0 of %1",
           DiagnosticIDs::Note)
          << F.Others << O->Through.back().Context->Callee;
  }

  if (const auto &S = V.Suggested)
    suggest(*S, Arg, Ops, Result);
}

void DescriptorCheck::suggest(const rules::Suggestion &S, const Expr *Arg,
                              const FoldedOperands &Ops,
                              const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const LangOptions &LangOpts = Result.Context->getLangOpts();
  if (S.Kind == rules::Suggestion::SkipFirstElement) {
    SourceRange R = Arg->getSourceRange();
    auto Note = diag(SM.getFileLoc(R.getBegin()), "%0", DiagnosticIDs::Note)
                << S.Text;
    if (isEditable(R, SM) && isa<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      Note << FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LangOpts), " + 1");
    return;
  }
  // Replace the literal that produced the value, wherever it is.
  auto It = Ops.Origins.find({S.Parameter, S.Index.value_or(0)});
  const Origin *O = It == Ops.Origins.end() ? nullptr : &It->second;
  SourceRange R = O ? O->Range : Arg->getSourceRange();
  SourceLocation L = SM.getFileLoc(R.getBegin());
  if (SM.isInSystemHeader(L))
    return;
  auto Note = diag(L, "%0", DiagnosticIDs::Note) << S.Text;
  const Expr *Source = O ? O->Source : Arg;
  // A value that came through a parameter is shared with other callers.
  bool Shared = O && !O->Through.empty();
  if (Source && !Shared && isReplaceableLiteral(Source) && isEditable(R, SM))
    Note << FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(R),
        S.Spelling.empty() ? std::to_string(S.Value) : S.Spelling);
}

} // namespace clang::tidy::tma
