//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/EncodeCall.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/STLExtras.h"

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

/// True when \p FT's parameters follow \p Shape, one letter per parameter:
/// M the CUtensorMap pointer, D data type, I interleave, W im2col-wide mode,
/// S swizzle, L L2 promotion, O OOB fill (the cuda.h enumerations), i an
/// integer, p a pointer, _ anything.
static bool hasSignature(const FunctionProtoType &FT, llvm::StringRef Shape) {
  if (FT.getNumParams() != Shape.size())
    return false;
  for (unsigned I = 0; I < Shape.size(); ++I) {
    QualType T = FT.getParamType(I);
    bool Ok = true;
    switch (Shape[I]) {
    case 'M':
      Ok = isMapPointer(T);
      break;
    case 'D':
      Ok = isCudaTag(T, "CUtensorMapDataType_enum");
      break;
    case 'I':
      Ok = isCudaTag(T, "CUtensorMapInterleave_enum");
      break;
    case 'W':
      Ok = isCudaTag(T, "CUtensorMapIm2ColWideMode_enum");
      break;
    case 'S':
      Ok = isCudaTag(T, "CUtensorMapSwizzle_enum");
      break;
    case 'L':
      Ok = isCudaTag(T, "CUtensorMapL2promotion_enum");
      break;
    case 'O':
      Ok = isCudaTag(T, "CUtensorMapFloatOOBfill_enum");
      break;
    case 'i':
      Ok = T->isIntegerType();
      break;
    case 'p':
      Ok = T->isPointerType();
      break;
    default:
      break;
    }
    if (!Ok)
      return false;
  }
  return true;
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
  // The driver's parameter lists (cuda.h, CUDA 13.0).
  if (hasSignature(FT, "MDi_ppppISLO"))
    return EncodeKind::Tiled;
  if (hasSignature(FT, "MDi_ppppiipISLO"))
    return EncodeKind::Im2col;
  if (hasSignature(FT, "MDi_ppiiiipIWSLO"))
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

bool mayBeEncodeCall(const CallExpr &Call) {
  unsigned N = Call.getNumArgs();
  if (N != TiledArgCount && N != Im2colArgCount && N != Im2colWideArgCount &&
      N != ReplaceAddressArgCount)
    return false;
  // A call through a function pointer or reference: its type decides.
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return true;
  // The driver function, or a method of the same name: the name alone
  // (an identifier's length and characters), before any type is read.
  const IdentifierInfo *Name = FD->getIdentifier();
  if (!Name)
    return false;
  static constexpr EncodeKind Kinds[] = {
      EncodeKind::Tiled, EncodeKind::Im2col, EncodeKind::Im2colWide,
      EncodeKind::ReplaceAddress};
  return llvm::any_of(Kinds, [&](EncodeKind K) {
    return Name->getName() == encodeKindName(K);
  });
}

std::optional<EncodeKind> classifyEncodeCall(const CallExpr &Call) {
  if (!mayBeEncodeCall(Call))
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

/// The position of \p P among the operands of encoder \p K (cuda.h,
/// CUDA 13.0), or -1.
static int argumentIndex(EncodeKind K, rules::Param P) {
  using rules::Param;
  auto Index = static_cast<int>(P);
  if (K == EncodeKind::ReplaceAddress)
    return P == Param::TensorMap ? 0 : P == Param::GlobalAddress ? 1 : -1;
  if (P <= Param::GlobalStrides)
    return Index;
  switch (K) {
  case EncodeKind::Tiled:
    return Index < static_cast<int>(TiledArgCount) ? Index : -1;
  case EncodeKind::Im2col:
  case EncodeKind::Im2colWide: {
    const bool Wide = K == EncodeKind::Im2colWide;
    switch (P) {
    case Param::PixelBoxLowerCorner:
      return Wide ? -1 : 6;
    case Param::PixelBoxUpperCorner:
      return Wide ? -1 : 7;
    case Param::PixelBoxLowerCornerWidth:
      return Wide ? 6 : -1;
    case Param::PixelBoxUpperCornerWidth:
      return Wide ? 7 : -1;
    case Param::ChannelsPerPixel:
      return 8;
    case Param::PixelsPerColumn:
      return 9;
    case Param::ElementStrides:
      return 10;
    case Param::Interleave:
      return 11;
    case Param::Mode:
      return Wide ? 12 : -1;
    case Param::Swizzle:
      return Wide ? 13 : 12;
    case Param::L2Promotion:
      return Wide ? 14 : 13;
    case Param::OobFill:
      return Wide ? 15 : 14;
    default:
      return -1;
    }
  }
  case EncodeKind::ReplaceAddress:
    break;
  }
  return -1;
}

const Expr *encodeArgument(const CallExpr &Call, EncodeKind K, rules::Param P) {
  if (P == rules::Param::Encoder)
    return Call.getCallee();
  int Index = argumentIndex(K, P);
  if (Index < 0 || static_cast<unsigned>(Index) >= Call.getNumArgs())
    return nullptr;
  return Call.getArg(Index);
}

} // namespace clang::tidy::tma
