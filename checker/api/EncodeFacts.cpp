//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/EncodeFacts.h"
#include "api/MapLink.h"

#include "clang/AST/ASTContext.h"
#include <cstdlib>

using ::tma::rules::Param;

namespace clang::tidy::tma {

/// The most elements any array operand of an encode call can need.
static constexpr unsigned MaxArrayElems = 5;

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

rules::EncodeEntry encodeEntry(EncodeKind K) {
  switch (K) {
  case EncodeKind::Tiled:
    return rules::EncodeEntry::Tiled;
  case EncodeKind::Im2col:
    return rules::EncodeEntry::Im2col;
  case EncodeKind::Im2colWide:
    return rules::EncodeEntry::Im2colWide;
  case EncodeKind::ReplaceAddress:
    return rules::EncodeEntry::ReplaceAddress;
  }
  return rules::EncodeEntry::Tiled;
}

EncodeFacts foldEncodeCall(const CallExpr &Call, EncodeKind Kind,
                           ConstantFolder &F, ASTContext &Ctx,
                           const std::optional<rules::GpuTarget> &T) {
  EncodeFacts Out;
  Out.Kind = Kind;
  Out.Entry = encodeEntry(Kind);
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

void linkReplacedMap(EncodeFacts &Facts, const CallExpr &Call,
                     const FunctionDecl *Fn, const CallContext *Context,
                     llvm::function_ref<MapLinker &()> Linker,
                     ConstantFolder &Folder) {
  // Only an address proven below 32 bytes can break the map's requirement
  // beyond the 16 bytes every map needs.
  const rules::Known &Align = Facts.Desc.GlobalAddressAlign;
  if (!Fn || !Align || *Align == 0 || *Align >= 32)
    return;
  std::optional<KnownMap> M = Linker().hostMapOf(
      encodeArgument(Call, EncodeKind::ReplaceAddress, Param::TensorMap), Fn,
      &Call, Context);
  // hostMapOf folds in the encode's context: restore the call's.
  Folder.enterContext(Context);
  if (!M)
    return;
  Facts.Desc.Interleave = M->Desc.Interleave;
  Facts.Desc.DataType = M->Desc.DataType;
  Facts.LinkedEncode = M->Link.Encode;
  Facts.LinkedKind = M->Link.Kind;
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

unsigned valueOperandCount(EncodeKind K) {
  return scalarOperands(K).size() + arrayOperands(K).size();
}

/// How many of the value operands are known: scalars, and arrays whose
/// every element the driver reads is known.
unsigned knownOperands(const EncodeFacts &Ops) {
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
std::vector<Param> unknownOperands(const rules::TiledDescriptor &D) {
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

std::string operandName(Param P, std::optional<unsigned> Index) {
  std::string S = rules::paramName(P);
  if (Index)
    S += "[" + std::to_string(*Index) + "]";
  return S;
}

bool isArrayOperand(EncodeKind K, Param P) {
  return llvm::any_of(arrayOperands(K),
                      [&](const auto &A) { return A.first == P; });
}

} // namespace clang::tidy::tma
