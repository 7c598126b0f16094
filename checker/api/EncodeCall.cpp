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

/// True when \p T is a pointer to the CUtensorMap record.
static bool isMapPointer(QualType T) {
  if (!T->isPointerType())
    return false;
  QualType Map = T->getPointeeType();
  return !Map.isNull() && isCudaTag(Map, "CUtensorMap_st");
}

/// True when \p FT has cuTensorMapEncodeTiled's parameter list.
static bool hasTiledSignature(const FunctionProtoType &FT) {
  if (FT.getNumParams() != TiledArgCount)
    return false;
  return isMapPointer(FT.getParamType(0)) &&
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

/// True when \p FT has cuTensorMapEncodeIm2col's parameter list.
static bool hasIm2colSignature(const FunctionProtoType &FT) {
  if (FT.getNumParams() != Im2colArgCount)
    return false;
  return isMapPointer(FT.getParamType(0)) &&
         isCudaTag(FT.getParamType(1), "CUtensorMapDataType_enum") &&
         FT.getParamType(2)->isIntegerType() &&
         FT.getParamType(4)->isPointerType() &&
         FT.getParamType(5)->isPointerType() &&
         FT.getParamType(6)->isPointerType() &&
         FT.getParamType(7)->isPointerType() &&
         FT.getParamType(8)->isIntegerType() &&
         FT.getParamType(9)->isIntegerType() &&
         FT.getParamType(10)->isPointerType() &&
         isCudaTag(FT.getParamType(11), "CUtensorMapInterleave_enum") &&
         isCudaTag(FT.getParamType(12), "CUtensorMapSwizzle_enum") &&
         isCudaTag(FT.getParamType(13), "CUtensorMapL2promotion_enum") &&
         isCudaTag(FT.getParamType(14), "CUtensorMapFloatOOBfill_enum");
}

/// True when \p FT has cuTensorMapEncodeIm2colWide's parameter list.
static bool hasIm2colWideSignature(const FunctionProtoType &FT) {
  if (FT.getNumParams() != Im2colWideArgCount)
    return false;
  return isMapPointer(FT.getParamType(0)) &&
         isCudaTag(FT.getParamType(1), "CUtensorMapDataType_enum") &&
         FT.getParamType(2)->isIntegerType() &&
         FT.getParamType(4)->isPointerType() &&
         FT.getParamType(5)->isPointerType() &&
         FT.getParamType(6)->isIntegerType() &&
         FT.getParamType(7)->isIntegerType() &&
         FT.getParamType(8)->isIntegerType() &&
         FT.getParamType(9)->isIntegerType() &&
         FT.getParamType(10)->isPointerType() &&
         isCudaTag(FT.getParamType(11), "CUtensorMapInterleave_enum") &&
         isCudaTag(FT.getParamType(12), "CUtensorMapIm2ColWideMode_enum") &&
         isCudaTag(FT.getParamType(13), "CUtensorMapSwizzle_enum") &&
         isCudaTag(FT.getParamType(14), "CUtensorMapL2promotion_enum") &&
         isCudaTag(FT.getParamType(15), "CUtensorMapFloatOOBfill_enum");
}

/// True when \p FT has cuTensorMapReplaceAddress's parameter list and
/// returns a CUresult (two pointers alone say little).
static bool hasReplaceAddressSignature(const FunctionProtoType &FT) {
  return FT.getNumParams() == ReplaceAddressArgCount &&
         isMapPointer(FT.getParamType(0)) &&
         FT.getParamType(1)->isVoidPointerType() &&
         isCudaTag(FT.getReturnType(), "cudaError_enum");
}

/// The kind whose signature \p FT has, or std::nullopt.
static std::optional<EncodeKind> kindOfSignature(const FunctionProtoType &FT) {
  if (hasTiledSignature(FT))
    return EncodeKind::Tiled;
  if (hasIm2colSignature(FT))
    return EncodeKind::Im2col;
  if (hasIm2colWideSignature(FT))
    return EncodeKind::Im2colWide;
  if (hasReplaceAddressSignature(FT))
    return EncodeKind::ReplaceAddress;
  return std::nullopt;
}

llvm::StringRef encodeKindName(EncodeKind K) {
  switch (K) {
  case EncodeKind::Tiled:
    return "cuTensorMapEncodeTiled";
  case EncodeKind::Im2col:
    return "cuTensorMapEncodeIm2col";
  case EncodeKind::Im2colWide:
    return "cuTensorMapEncodeIm2colWide";
  case EncodeKind::ReplaceAddress:
    return "cuTensorMapReplaceAddress";
  }
  llvm_unreachable("unknown encode kind");
}

std::optional<EncodeKind> classifyEncodeCall(const CallExpr &Call) {
  unsigned N = Call.getNumArgs();
  if (N != TiledArgCount && N != Im2colArgCount && N != Im2colWideArgCount &&
      N != ReplaceAddressArgCount)
    return std::nullopt;
  if (const FunctionDecl *FD = Call.getDirectCallee()) {
    // The driver function, or a method of the same name that wraps it.
    const auto *FT = FD->getType()->getAs<FunctionProtoType>();
    if (!FT || !FD->getIdentifier())
      return std::nullopt;
    std::optional<EncodeKind> K = kindOfSignature(*FT);
    if (K && FD->getName() == encodeKindName(*K))
      return K;
    return std::nullopt;
  }
  // A call through a function pointer or reference.
  QualType T = Call.getCallee()->IgnoreParenImpCasts()->getType();
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  if (const auto *FT = T->getAs<FunctionProtoType>())
    return kindOfSignature(*FT);
  return std::nullopt;
}

const Expr *tiledArgument(const CallExpr &Call, rules::Param P) {
  auto Index = static_cast<unsigned>(P);
  assert(Index < TiledArgCount && "Tiled parameters are the first twelve");
  return Call.getArg(Index);
}

} // namespace clang::tidy::tma
