//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/EncodeCall.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

namespace clang::tidy::tma {

/// True when \p T is the enumeration or record that cuda.h names \p Tag
/// (through any typedef).
static bool isCudaTag(QualType T, llvm::StringRef Tag) {
  const TagDecl *TD = T.getCanonicalType()->getAsTagDecl();
  return TD && TD->getName() == Tag;
}

/// True when \p FT has cuTensorMapEncodeTiled's parameter list.
static bool hasTiledSignature(const FunctionProtoType &FT) {
  if (FT.getNumParams() != TiledArgCount)
    return false;
  QualType Map = FT.getParamType(0)->getPointeeType();
  return !Map.isNull() && isCudaTag(Map, "CUtensorMap_st") &&
         isCudaTag(FT.getParamType(1), "CUtensorMapDataType_enum") &&
         FT.getParamType(2)->isIntegerType() &&
         FT.getParamType(4)->isPointerType() &&
         FT.getParamType(5)->isPointerType() &&
         FT.getParamType(6)->isPointerType() &&
         FT.getParamType(7)->isPointerType() &&
         isCudaTag(FT.getParamType(8), "CUtensorMapInterleave_enum") &&
         isCudaTag(FT.getParamType(9), "CUtensorMapSwizzle_enum") &&
         isCudaTag(FT.getParamType(10), "CUtensorMapL2promotion_enum") &&
         isCudaTag(FT.getParamType(11), "CUtensorMapFloatOOBfill_enum");
}

std::optional<EncodeKind> classifyEncodeCall(const CallExpr &Call) {
  if (Call.getNumArgs() != TiledArgCount)
    return std::nullopt;
  if (const FunctionDecl *FD = Call.getDirectCallee()) {
    // The driver function, or a method of the same name that wraps it.
    const auto *FT = FD->getType()->getAs<FunctionProtoType>();
    if (FD->getName() == "cuTensorMapEncodeTiled" && FT &&
        hasTiledSignature(*FT))
      return EncodeKind::Tiled;
    return std::nullopt;
  }
  // A call through a function pointer or reference.
  QualType T = Call.getCallee()->IgnoreParenImpCasts()->getType();
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  const auto *FT = T->getAs<FunctionProtoType>();
  if (FT && hasTiledSignature(*FT))
    return EncodeKind::Tiled;
  return std::nullopt;
}

const Expr *tiledArgument(const CallExpr &Call, rules::Param P) {
  auto Index = static_cast<unsigned>(P);
  assert(Index < TiledArgCount && "Tiled parameters are the first twelve");
  return Call.getArg(Index);
}

} // namespace clang::tidy::tma
