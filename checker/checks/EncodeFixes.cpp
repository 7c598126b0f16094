//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/EncodeFixes.h"
#include "rules/EncodeSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using ::tma::rules::Param;

namespace clang::tidy::tma {

/// A range the user can edit: in a file, not in a macro body.
bool isEditable(SourceRange R, const SourceManager &SM) {
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

std::optional<SourceRange> certainFix(const rules::Suggestion &S,
                                      const Expr *Arg, const EncodeFacts &Ops,
                                      const SourceManager &SM) {
  if (S.Kind != rules::Suggestion::SetValue)
    return std::nullopt;
  const Origin *O = Ops.originOf(S.Parameter, S.Index);
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
  EncodeFacts Ops =
      foldEncodeCall(*Call, Map.Link.Kind, Folder, Ctx, std::nullopt);
  rules::TiledRuleOptions Opts;
  std::vector<rules::Violation> Violations = rules::checkEncodeSite(Ops, Opts);
  rules::MapDescriptor Fixed = Map.Desc;
  bool Certain = true;
  for (const rules::Violation &V : Violations) {
    const Expr *Written = encodeArgument(*Call, Map.Link.Kind, V.Parameter);
    const CallContext *Outer = Map.Link.Context;
    const Expr *Arg = Written ? forwardedFrom(Written, Outer) : nullptr;
    if (!V.Suggested || !Arg ||
        !certainFix(*V.Suggested, Arg, Ops, Ctx.getSourceManager()) ||
        !setOperand(Ops.Desc, Fixed, V.Suggested->Parameter, V.Suggested->Index,
                    V.Suggested->Value)) {
      Certain = false;
      break;
    }
  }
  Folder.enterContext(Saved);
  // A map its fixes do not make right changes by hand.
  if (!Certain ||
      (!Violations.empty() && !rules::checkEncodeSite(Ops, Opts).empty()))
    return std::nullopt;
  return Fixed;
}

} // namespace clang::tidy::tma
