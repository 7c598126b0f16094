//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/Explain.h"
#include "api/EncodeCall.h"

#include "rules/DataTypes.h"
#include "rules/EncodeCommon.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tma {

namespace rules = ::tma::rules;

std::string whyUnknown(const Expr *E) {
  if (!E)
    return "not folded at the encode call";
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    std::string Name = "'" + D->getName().str() + "'";
    if (isa<ParmVarDecl>(D))
      return "parameter " + Name +
             ": no call site in this translation unit passes a known value";
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (VD->hasGlobalStorage() && !VD->getType().isConstQualified())
        return Name + " is a non-const global, written at run time";
      if (VD->getType()->isPointerType())
        return Name + " is a pointer whose target the folder does not follow";
      return Name + " has no value the folder can prove at this call";
    }
  }
  if (isa<CallExpr>(E))
    return "the result of a call";
  if (isa<MemberExpr>(E))
    return "a member, read at run time";
  if (isa<ArraySubscriptExpr>(E))
    return "an element, read at run time";
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return "a null pointer";
  return "not a constant the folder can evaluate";
}

std::string explainScalar(const rules::Known &K,
                          const char *(*Name)(std::uint64_t), const Expr *E) {
  if (!K)
    return "unknown (" + whyUnknown(E) + ")";
  std::string Value = std::to_string(*K);
  if (Name)
    if (const char *Spelling = Name(*K))
      return std::string(Spelling) + " (" + Value + ")";
  return Value;
}

std::string explainArray(const rules::KnownArray &A, const Expr *E) {
  if (A.Elems.empty())
    return "unknown (" + whyUnknown(E) + ")";
  std::string Out = "{";
  for (std::size_t I = 0; I < A.Elems.size(); ++I)
    Out += (I ? ", " : "") +
           (A.Elems[I] ? std::to_string(*A.Elems[I])
                       : std::string("unknown (element ") + std::to_string(I) +
                             " did not fold)");
  return Out + "}";
}

std::string explainMap(const rules::MapDescriptor &D) {
  std::string Out = rules::encoderName(D.Encoder);
  Out += ", tensorDataType " + explainScalar(D.DataType, rules::dataTypeName,
                                             nullptr);
  Out += ", tensorRank " + explainScalar(D.Rank, nullptr, nullptr);
  if (D.Encoder == rules::MapEncoder::Tiled) {
    Out += ", boxDim " + explainArray(D.BoxDim, nullptr);
    Out += ", elementStrides " + explainArray(D.ElementStrides, nullptr);
  } else {
    Out += ", channelsPerPixel " +
           explainScalar(D.ChannelsPerPixel, nullptr, nullptr);
    Out += ", pixelsPerColumn " +
           explainScalar(D.PixelsPerColumn, nullptr, nullptr);
  }
  Out += ", interleave " +
         explainScalar(D.Interleave, rules::interleaveName, nullptr);
  Out += ", swizzle " + explainScalar(D.Swizzle, rules::swizzleName, nullptr);
  return Out;
}

std::string explainTiledCall(const CallExpr &Call,
                             const rules::TiledDescriptor &D) {
  using rules::Param;
  auto Arg = [&](Param P) { return tiledArgument(Call, P); };
  return "cuTensorMapEncodeTiled descriptor: tensorDataType = " +
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
         "; oobFill = " +
         explainScalar(D.OobFill, nullptr, Arg(Param::OobFill));
}

} // namespace clang::tidy::tma
