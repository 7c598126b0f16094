//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/DescriptorCheck.h"
#include "rules/TensorMapRules.h"
#include "checks/SharedMatchers.h"
#include "api/CudaTarget.h"
#include "api/EncodeCall.h"
#include "api/OwnKernelMaps.h"
#include "rules/ArchRules.h"
#include "checks/ContextNotes.h"
#include "checks/Explain.h"
#include "rules/TiledRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <cstdlib>
#include <map>

using namespace clang::ast_matchers;
using ::tma::rules::Param;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral CallId = SharedMatchers::CallId;
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

/// True when \p Arg is written as a null pointer constant (`nullptr`,
/// `NULL`, `0`), possibly cast to the operand's pointer type.
static bool isNullPointer(const Expr &Arg, ASTContext &Ctx) {
  return !Arg.isValueDependent() &&
         Arg.IgnoreParenCasts()->isNullPointerConstant(
             Ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

static FoldedOperands foldOperands(const CallExpr &Call, EncodeKind Kind,
                                   ConstantFolder &F, ASTContext &Ctx,
                                   const std::optional<rules::GpuTarget> &T) {
  FoldedOperands Out;
  Out.Kind = Kind;
  auto Record = [&](Param P, unsigned I, const FoldedInt &V, bool Signed) {
    Out.Origins[{P, I}] = V.From;
    Out.Values[{P, I}] = Signed ? std::to_string(V.Value.getSExtValue())
                                : std::to_string(asU64(V.Value));
  };
  auto Scalar = [&](Param P) -> rules::Known {
    const Expr *Arg = encodeArgument(Call, Kind, P);
    auto V = Arg ? F.foldInt(Arg) : std::nullopt;
    if (!V)
      return std::nullopt;
    Record(P, 0, *V, false);
    return asU64(V->Value);
  };
  auto SignedScalar = [&](Param P) -> rules::KnownSigned {
    const Expr *Arg = encodeArgument(Call, Kind, P);
    auto V = Arg ? F.foldInt(Arg) : std::nullopt;
    if (!V || V->Value.getSignificantBits() > 64)
      return std::nullopt;
    Record(P, 0, *V, true);
    return V->Value.getSExtValue();
  };
  // The folded elements of an array operand, each passed to Add.
  auto Elements = [&](Param P, auto Add) -> std::optional<uint64_t> {
    const Expr *Arg = encodeArgument(Call, Kind, P);
    if (Arg && isNullPointer(*Arg, Ctx)) {
      Add(~0U, nullptr);
      return std::nullopt;
    }
    auto V = Arg ? F.foldArray(Arg, &Call, MaxArrayElems) : std::nullopt;
    if (!V)
      return std::nullopt;
    for (unsigned I = 0; I < V->Elems.size(); ++I)
      Add(I, V->Elems[I] ? &*V->Elems[I] : nullptr);
    if (V->Array)
      Out.Origins[{P, ~0U}] =
          Origin{V->Array->getSourceRange(), V->Array, nullptr, {}};
    return V->Provided;
  };
  auto Array = [&](Param P) {
    rules::KnownArray A;
    A.Provided = Elements(P, [&](unsigned I, const FoldedInt *E) {
      if (I == ~0U) {
        A.Null = true;
        return;
      }
      A.Elems.push_back(E ? rules::Known(asU64(E->Value)) : std::nullopt);
      if (E)
        Record(P, I, *E, false);
    });
    return A;
  };
  auto SignedArray = [&](Param P) {
    rules::KnownSignedArray A;
    A.Provided = Elements(P, [&](unsigned I, const FoldedInt *E) {
      if (I == ~0U)
        return;
      bool Fits = E && E->Value.getSignificantBits() <= 64;
      A.Elems.push_back(Fits ? rules::KnownSigned(E->Value.getSExtValue())
                             : std::nullopt);
      if (Fits)
        Record(P, I, *E, true);
    });
    return A;
  };
  // The operands every encoder has, in any of the three descriptors.
  auto Common = [&](auto &D) {
    D.DataType = Scalar(Param::TensorDataType);
    D.Rank = Scalar(Param::TensorRank);
    D.GlobalDim = Array(Param::GlobalDim);
    D.GlobalStrides = Array(Param::GlobalStrides);
    D.ElementStrides = Array(Param::ElementStrides);
    D.Interleave = Scalar(Param::Interleave);
    D.Swizzle = Scalar(Param::Swizzle);
    D.L2Promotion = Scalar(Param::L2Promotion);
    D.OobFill = Scalar(Param::OobFill);
    D.AddressElementBits = addressElementBits(
        encodeArgument(Call, Kind, Param::GlobalAddress), Ctx);
    D.Target = T;
    // TMAP-ENC-OUT-ALIGN64 and TMAP-ENC-GADDR-ALIGN: the proven alignment.
    for (Param P : {Param::TensorMap, Param::GlobalAddress}) {
      const Expr *Arg = encodeArgument(Call, Kind, P);
      std::optional<PointerAlign> A = Arg ? F.pointerAlign(Arg) : std::nullopt;
      if (!A || !A->provenAlign())
        continue;
      (P == Param::TensorMap ? D.TensorMapAlign : D.GlobalAddressAlign) =
          A->provenAlign();
      Out.Pointers[P] = std::move(*A);
    }
  };
  switch (Kind) {
  case EncodeKind::Tiled:
    Common(Out.Desc);
    Out.Desc.BoxDim = Array(Param::BoxDim);
    break;
  case EncodeKind::Im2col:
    Common(Out.Im2col);
    Out.Im2col.PixelBoxLowerCorner = SignedArray(Param::PixelBoxLowerCorner);
    Out.Im2col.PixelBoxUpperCorner = SignedArray(Param::PixelBoxUpperCorner);
    Out.Im2col.ChannelsPerPixel = Scalar(Param::ChannelsPerPixel);
    Out.Im2col.PixelsPerColumn = Scalar(Param::PixelsPerColumn);
    break;
  case EncodeKind::Im2colWide:
    Common(Out.Wide);
    Out.Wide.PixelBoxLowerCornerWidth =
        SignedScalar(Param::PixelBoxLowerCornerWidth);
    Out.Wide.PixelBoxUpperCornerWidth =
        SignedScalar(Param::PixelBoxUpperCornerWidth);
    Out.Wide.ChannelsPerPixel = Scalar(Param::ChannelsPerPixel);
    Out.Wide.PixelsPerColumn = Scalar(Param::PixelsPerColumn);
    Out.Wide.Mode = Scalar(Param::Mode);
    break;
  case EncodeKind::ReplaceAddress:
    // TMAP-REPLACE-ADDR-ALIGN: the new address's proven alignment.
    if (const Expr *Arg = encodeArgument(Call, Kind, Param::GlobalAddress))
      if (std::optional<PointerAlign> A = F.pointerAlign(Arg);
          A && A->provenAlign()) {
        Out.Desc.GlobalAddressAlign = A->provenAlign();
        Out.Pointers[Param::GlobalAddress] = std::move(*A);
      }
    break;
  }
  return Out;
}

/// The rules of the encoder \p Ops was folded for.
static std::vector<rules::Violation>
evaluate(const FoldedOperands &Ops, const rules::EncodeRuleOptions &Opts) {
  switch (Ops.Kind) {
  case EncodeKind::Tiled:
    return rules::checkTiled(Ops.Desc, Opts);
  case EncodeKind::Im2col:
    return rules::checkIm2col(Ops.Im2col, Opts);
  case EncodeKind::Im2colWide:
    return rules::checkIm2colWide(Ops.Wide, Opts);
  case EncodeKind::ReplaceAddress:
    return rules::checkReplaceAddressAlign(Ops.Desc.GlobalAddressAlign,
                                           Ops.Desc.Interleave,
                                           Ops.Desc.DataType);
  }
  return {};
}

/// Sets the target of every descriptor in \p Ops.
static void setTarget(FoldedOperands &Ops,
                      const std::optional<rules::GpuTarget> &T) {
  Ops.Desc.Target = T;
  Ops.Im2col.Target = T;
  Ops.Wide.Target = T;
}

/// The value operands of each encoder: scalars, then arrays (with the
/// elements the rank makes the driver read beyond it: -1 for strides, -2
/// for the corner arrays).
static const std::vector<Param> &scalarOperands(EncodeKind K) {
  static const std::vector<Param> Tiled = {
      Param::TensorDataType, Param::TensorRank,  Param::Interleave,
      Param::Swizzle,        Param::L2Promotion, Param::OobFill};
  static const std::vector<Param> Im2col = {
      Param::TensorDataType,  Param::TensorRank, Param::ChannelsPerPixel,
      Param::PixelsPerColumn, Param::Interleave, Param::Swizzle,
      Param::L2Promotion,     Param::OobFill};
  static const std::vector<Param> Wide = {Param::TensorDataType,
                                          Param::TensorRank,
                                          Param::PixelBoxLowerCornerWidth,
                                          Param::PixelBoxUpperCornerWidth,
                                          Param::ChannelsPerPixel,
                                          Param::PixelsPerColumn,
                                          Param::Interleave,
                                          Param::Mode,
                                          Param::Swizzle,
                                          Param::L2Promotion,
                                          Param::OobFill};
  return K == EncodeKind::Tiled    ? Tiled
         : K == EncodeKind::Im2col ? Im2col
                                   : Wide;
}

static const std::vector<std::pair<Param, int>> &arrayOperands(EncodeKind K) {
  static const std::vector<std::pair<Param, int>> Tiled = {
      {Param::GlobalDim, 0},
      {Param::GlobalStrides, -1},
      {Param::BoxDim, 0},
      {Param::ElementStrides, 0}};
  static const std::vector<std::pair<Param, int>> Im2col = {
      {Param::GlobalDim, 0},
      {Param::GlobalStrides, -1},
      {Param::PixelBoxLowerCorner, -2},
      {Param::PixelBoxUpperCorner, -2},
      {Param::ElementStrides, 0}};
  static const std::vector<std::pair<Param, int>> Wide = {
      {Param::GlobalDim, 0},
      {Param::GlobalStrides, -1},
      {Param::ElementStrides, 0}};
  return K == EncodeKind::Tiled    ? Tiled
         : K == EncodeKind::Im2col ? Im2col
                                   : Wide;
}

static unsigned valueOperandCount(EncodeKind K) {
  return scalarOperands(K).size() + arrayOperands(K).size();
}

/// How many of the value operands are known: scalars, and arrays whose
/// every element the driver reads is known.
static unsigned knownOperands(const FoldedOperands &Ops) {
  unsigned Known = 0;
  for (Param P : scalarOperands(Ops.Kind))
    Known += Ops.Values.count({P, 0});
  auto Rank = Ops.Values.find({Param::TensorRank, 0});
  if (Rank == Ops.Values.end())
    return Known;
  int R = std::atoi(Rank->second.c_str());
  int MinRank = Ops.Kind == EncodeKind::Tiled ? 1 : 3;
  if (R < MinRank || R > 5)
    return Known;
  for (const auto &[P, Delta] : arrayOperands(Ops.Kind)) {
    bool All = true;
    for (int I = 0; I < R + Delta; ++I)
      All = All && Ops.Values.count({P, static_cast<unsigned>(I)});
    Known += All;
  }
  return Known;
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
    auto Ops = std::make_shared<FoldedOperands>(
        foldOperands(*Call, *Kind, *Folder, *Result.Context, *Target));
    if (*Kind == EncodeKind::ReplaceAddress)
      linkReplacedMap(*Call, Fn, Context, *Ops, *Result.Context);
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
    std::vector<rules::Violation> Violations = evaluate(*Ops, Opts);
    // TMAP-ENC-ARCH: the unit's target applies only to a map its own
    // kernels read (rules::mapEncodeTarget); linked only when it matters.
    if (llvm::any_of(Violations, [](const rules::Violation &V) {
          return V.RuleId == std::string_view("TMAP-ENC-ARCH");
        })) {
      std::optional<rules::GpuTarget> MapTarget = rules::mapEncodeTarget(
          *Target, readByOwnKernel(*Call, Context, *Result.Context));
      if (!MapTarget) {
        setTarget(*Ops, MapTarget);
        Violations = evaluate(*Ops, Opts);
      }
    }
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
      Findings.push_back(
          {std::move(V), Ops, Arg, Loc, std::move(Message), 0, false});
    }
  }
  Folder->enterContext(nullptr);
  if (CoverageReport && *Kind != EncodeKind::ReplaceAddress)
    diag(SM.getFileLoc(Call->getBeginLoc()),
         "encode call: %0 of %1 operands folded (best of %2 context%s2)")
        << BestKnown << valueOperandCount(*Kind)
        << static_cast<unsigned>(Contexts.size());

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
    Reported.insert({F.Loc.getRawEncoding(), F.Message});
    report(F, Result);
    // A forwarded operand is reported at the caller: the wrapper's
    // instantiation says nothing more.
    bool Forwarded = F.Arg != encodeArgument(*Call, *Kind, F.V.Parameter);
    if (!Forwarded && Fn && Fn->isTemplateInstantiation() &&
        Fn->getPointOfInstantiation().isValid())
      diag(SM.getFileLoc(Fn->getPointOfInstantiation()),
           "in instantiation of %0 requested here", DiagnosticIDs::Note)
          << Fn;
  }
}

bool DescriptorCheck::readByOwnKernel(const CallExpr &Call,
                                      const CallContext *Context,
                                      ASTContext &Ctx) {
  if (!OwnMaps) {
    if (!Linker)
      Linker = std::make_unique<MapLinker>(*Folder, Ctx);
    Finder = DeviceOpsFinder::forTranslationUnit(Ctx);
    OwnMaps = std::make_unique<OwnKernelMaps>(Ctx, *Folder, *Finder, *Linker);
  }
  bool Read = OwnMaps->readByOwnKernel(&Call, Context);
  Folder->enterContext(Context);
  return Read;
}

void DescriptorCheck::linkReplacedMap(const CallExpr &Call,
                                      const FunctionDecl *Fn,
                                      const CallContext *Context,
                                      FoldedOperands &Ops, ASTContext &Ctx) {
  // Only an address proven below 32 bytes can break the map's requirement
  // beyond the 16 bytes every map needs.
  const rules::Known &Align = Ops.Desc.GlobalAddressAlign;
  if (!Fn || !Align || *Align == 0 || *Align >= 32)
    return;
  if (!Linker)
    Linker = std::make_unique<MapLinker>(*Folder, Ctx);
  std::optional<KnownMap> M = Linker->hostMapOf(
      encodeArgument(Call, EncodeKind::ReplaceAddress, Param::TensorMap), Fn,
      &Call, Context);
  // hostMapOf folds in the encode's context: restore the call's.
  Folder->enterContext(Context);
  if (!M)
    return;
  Ops.Desc.Interleave = M->Desc.Interleave;
  Ops.Desc.DataType = M->Desc.DataType;
  Ops.LinkedEncode = M->Link.Encode;
  Ops.LinkedKind = M->Link.Kind;
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
  auto NoteOrigin = [&](Param P, std::optional<unsigned> I) {
    const Origin *O = OriginFor(P, I);
    auto Value = Ops.Values.find({P, I.value_or(0)});
    if (!O || !O->Range.isValid() || Value == Ops.Values.end())
      return;
    SourceLocation L = SM.getFileLoc(O->Range.getBegin());
    if (L == F.Loc || SM.isInSystemHeader(L))
      return;
    diag(L, "%0 = %1 comes from here", DiagnosticIDs::Note)
        << operandName(P, I) << Value->second;
  };

  bool IsArray = llvm::any_of(arrayOperands(Ops.Kind), [&](const auto &A) {
    return A.first == V.Parameter;
  });
  if (!IsArray || V.Index)
    NoteOrigin(V.Parameter, V.Index);
  else if (const Origin *O = OriginFor(V.Parameter, ~0U); O && O->Var)
    diag(SM.getFileLoc(O->Var->getLocation()), "%0 declared here",
         DiagnosticIDs::Note)
        << O->Var;
  for (const auto &[P, I] : V.AlsoUses) {
    const Origin *O = OriginFor(P, I);
    if (P == V.Parameter || !O || !O->Var)
      continue;
    NoteOrigin(P, I);
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

  if (auto It = Ops.Pointers.find(V.Parameter); It != Ops.Pointers.end())
    notePointer(It->second, V.Parameter, F.Loc, SM);
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
      diag(L, "the map is encoded here with %0 = %1", DiagnosticIDs::Note)
          << rules::paramName(P)
          << (P == Param::Interleave ? rules::interleaveName(*Value)
                                     : rules::dataTypeName(*Value));
    }

  if (const auto &S = V.Suggested)
    suggest(*S, Arg, Ops, !F.NoFix, Result);
}

void DescriptorCheck::notePointer(const PointerAlign &A, Param P,
                                  SourceLocation WarnLoc,
                                  const SourceManager &SM) {
  std::string Offset = std::to_string(A.Offset) +
                       (A.Offset == 1 || A.Offset == -1 ? " byte" : " bytes");
  if (A.Kind == PointerAlign::Allocation) {
    SourceLocation L = SM.getFileLoc(A.Alloc->getBeginLoc());
    if (!SM.isInSystemHeader(L))
      diag(L,
           "%0 is %1 past '%2', which %3 allocates %4-byte aligned",
           DiagnosticIDs::Note)
          << rules::paramName(P) << Offset << A.Base->getName()
          << A.Alloc->getDirectCallee()->getName()
          << std::to_string(A.BaseAlign);
  } else {
    SourceLocation L = SM.getFileLoc(A.Base->getLocation());
    bool Declared = A.Base->hasAttr<AlignedAttr>();
    if (!SM.isInSystemHeader(L))
      diag(L, "%0 is %1 into '%2', which is %3-byte aligned (%4)",
           DiagnosticIDs::Note)
          << rules::paramName(P) << Offset << A.Base->getName()
          << std::to_string(A.BaseAlign)
          << (Declared ? "declared" : "its type's alignment");
  }
  noteBindings(*this, *Folder, A.Through, WarnLoc, SM, nullptr);
}

void DescriptorCheck::suggest(const rules::Suggestion &S, const Expr *Arg,
                              const FoldedOperands &Ops, bool WithFix,
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
  if (!WithFix)
    return;
  if (std::optional<SourceRange> Fix = certainFix(S, Arg, Ops, SM))
    Note << FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(*Fix),
        S.Spelling.empty() ? std::to_string(S.Value) : S.Spelling);
}

std::optional<SourceRange> certainFix(const rules::Suggestion &S,
                                      const Expr *Arg,
                                      const FoldedOperands &Ops,
                                      const SourceManager &SM) {
  if (S.Kind != rules::Suggestion::SetValue)
    return std::nullopt;
  auto It = Ops.Origins.find({S.Parameter, S.Index.value_or(0)});
  const Origin *O = It == Ops.Origins.end() ? nullptr : &It->second;
  SourceRange R = O ? O->Range : Arg->getSourceRange();
  if (SM.isInSystemHeader(SM.getFileLoc(R.getBegin())))
    return std::nullopt;
  const Expr *Source = O ? O->Source : Arg;
  // A value that came through a parameter is shared with other callers.
  bool Shared = O && !O->Through.empty();
  if (Source && !Shared && isReplaceableLiteral(Source) && isEditable(R, SM))
    return R;
  return std::nullopt;
}

/// Sets operand \p P (element \p I) of the tiled descriptor \p D and of
/// the map \p M to \p V; false for an operand that neither holds.
static bool setOperand(rules::TiledDescriptor &D, rules::MapDescriptor &M,
                       Param P, std::optional<unsigned> I, uint64_t V) {
  auto Elem = [&](rules::KnownArray &A) {
    unsigned K = I.value_or(0);
    if (A.Elems.size() <= K)
      A.Elems.resize(K + 1);
    A.Elems[K] = V;
  };
  switch (P) {
  case Param::TensorDataType:
    D.DataType = M.DataType = V;
    return true;
  case Param::TensorRank:
    D.Rank = M.Rank = V;
    return true;
  case Param::BoxDim:
    Elem(D.BoxDim);
    Elem(M.BoxDim);
    return true;
  case Param::ElementStrides:
    Elem(D.ElementStrides);
    Elem(M.ElementStrides);
    return true;
  case Param::Interleave:
    D.Interleave = M.Interleave = V;
    return true;
  case Param::Swizzle:
    D.Swizzle = M.Swizzle = V;
    return true;
  case Param::GlobalDim:
    Elem(D.GlobalDim);
    return true;
  case Param::GlobalStrides:
    Elem(D.GlobalStrides);
    return true;
  case Param::L2Promotion:
    D.L2Promotion = V;
    return true;
  case Param::OobFill:
    D.OobFill = V;
    return true;
  default:
    return false;
  }
}

std::optional<rules::MapDescriptor>
mapAfterFixes(const KnownMap &Map, ConstantFolder &Folder, ASTContext &Ctx) {
  const CallExpr *Call = Map.Link.Encode;
  // Only tiled maps: the fixes of the im2col encoders are not modelled here.
  if (!Call || Map.Link.Kind != EncodeKind::Tiled)
    return std::nullopt;
  const CallContext *Saved = Folder.currentContext();
  Folder.enterContext(Map.Link.Context);
  FoldedOperands Ops =
      foldOperands(*Call, Map.Link.Kind, Folder, Ctx, std::nullopt);
  rules::TiledRuleOptions Opts;
  std::vector<rules::Violation> Violations = evaluate(Ops, Opts);
  rules::MapDescriptor Fixed = Map.Desc;
  bool Certain = true;
  for (const rules::Violation &V : Violations) {
    const Expr *Written = encodeArgument(*Call, Map.Link.Kind, V.Parameter);
    const CallContext *Outer = Map.Link.Context;
    const Expr *Arg = Written ? forwardedFrom(Written, Outer) : nullptr;
    if (!V.Suggested || !Arg ||
        !certainFix(*V.Suggested, Arg, Ops, Ctx.getSourceManager()) ||
        !setOperand(Ops.Desc, Fixed, V.Suggested->Parameter,
                    V.Suggested->Index, V.Suggested->Value)) {
      Certain = false;
      break;
    }
  }
  Folder.enterContext(Saved);
  // A map its fixes do not make right changes by hand.
  if (!Certain || (!Violations.empty() && !evaluate(Ops, Opts).empty()))
    return std::nullopt;
  return Fixed;
}


} // namespace clang::tidy::tma
