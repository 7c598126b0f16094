//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/CuteTensors.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::tma::cute {

static bool inCute(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cute" &&
          isa<TranslationUnitDecl>(NS->getParent()->getRedeclContext()))
        return true;
  return false;
}

/// The operation of the atom whose `with(...)` \p C calls: the first type
/// among the (packed) template arguments of cute's Copy_Atom or
/// Copy_Traits; null for another call.
static QualType withOperation(const CXXMemberCallExpr &C) {
  const CXXMethodDecl *M = C.getMethodDecl();
  if (!M || !M->getIdentifier() || M->getName() != "with")
    return QualType();
  const auto *R = dyn_cast<ClassTemplateSpecializationDecl>(M->getParent());
  if (!R || (R->getName() != "Copy_Atom" && R->getName() != "Copy_Traits"))
    return QualType();
  const auto *NS = dyn_cast<NamespaceDecl>(R->getDeclContext());
  if (!NS || NS->getName() != "cute")
    return QualType();
  for (const TemplateArgument &A : R->getTemplateArgs().asArray()) {
    ArrayRef<TemplateArgument> Each =
        A.getKind() == TemplateArgument::Pack ? A.pack_elements() : A;
    for (const TemplateArgument &E : Each)
      if (E.getKind() == TemplateArgument::Type)
        return E.getAsType();
  }
  return QualType();
}

bool isTmaLoadWith(const CXXMemberCallExpr &C) {
  QualType Op = withOperation(C);
  return !Op.isNull() && StringRef(Op.getAsString()).contains("SM90_TMA_LOAD");
}

bool isPlainTmaLoadWith(const CXXMemberCallExpr &C) {
  QualType Op = withOperation(C);
  const auto *RD = Op.isNull() ? nullptr : Op->getAsCXXRecordDecl();
  // A Copy_Atom's first argument is its Copy_Traits: the traits' operation.
  if (const auto *T = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
      T && T->getName() == "Copy_Traits" && inCute(T)) {
    RD = nullptr;
    ArrayRef<TemplateArgument> Args = T->getTemplateArgs().asArray();
    if (!Args.empty() && Args.front().getKind() == TemplateArgument::Type)
      RD = Args.front().getAsType()->getAsCXXRecordDecl();
  }
  return RD && RD->getIdentifier() && RD->getName() == "SM90_TMA_LOAD" &&
         inCute(RD);
}

/// A specialization of class template \p Name of namespace cute.
static const ClassTemplateSpecializationDecl *cuteSpec(QualType T,
                                                       StringRef Name) {
  const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!RD || !RD->getIdentifier() || RD->getName() != Name || !inCute(RD))
    return nullptr;
  return RD;
}

/// The product of the extents of a static shape: a `cute::C<N>` (the
/// integral argument of `C<N>` or `constant<T, N>`), or a `cute::tuple` of
/// shapes. std::nullopt for a run-time extent (`int`).
static std::optional<uint64_t> staticShapeSize(QualType T, unsigned Depth) {
  if (Depth > 8)
    return std::nullopt;
  const ClassTemplateSpecializationDecl *RD = cuteSpec(T, "C");
  if (!RD)
    RD = cuteSpec(T, "constant");
  if (RD) {
    ArrayRef<TemplateArgument> Args = RD->getTemplateArgs().asArray();
    if (Args.empty() || Args.back().getKind() != TemplateArgument::Integral)
      return std::nullopt;
    const llvm::APSInt &V = Args.back().getAsIntegral();
    if (V.isNegative() || V.getActiveBits() > 32)
      return std::nullopt;
    return V.getZExtValue();
  }
  RD = cuteSpec(T, "tuple");
  if (!RD)
    return std::nullopt;
  uint64_t Size = 1;
  for (const TemplateArgument &A : RD->getTemplateArgs().asArray()) {
    ArrayRef<TemplateArgument> Each =
        A.getKind() == TemplateArgument::Pack ? A.pack_elements() : A;
    for (const TemplateArgument &E : Each) {
      if (E.getKind() != TemplateArgument::Type)
        return std::nullopt;
      std::optional<uint64_t> N = staticShapeSize(E.getAsType(), Depth + 1);
      if (!N || (*N && Size > (uint64_t(1) << 32) / *N))
        return std::nullopt;
      Size *= *N;
    }
  }
  return Size;
}

/// The byte size of an element type that is exactly its storage: C++
/// arithmetic types and the CUDA and CUTLASS 16- and 8-bit floats (no
/// sub-byte type, whose sizeof exceeds its bits).
static std::optional<uint64_t> elementBytes(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<BuiltinType>()) {
    if (!B->isInteger() && !B->isFloatingPoint())
      return std::nullopt;
    if (B->getKind() == BuiltinType::Bool)
      return std::nullopt;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || !RD->hasDefinition())
    return std::nullopt;
  static const char *const Known[] = {
      "half_t",       "bfloat16_t",   "tfloat32_t",    "float_e4m3_t",
      "float_e5m2_t", "float_ue8m0_t", "float_ue4m3_t", "__half",
      "__nv_bfloat16", "__nv_fp8_e4m3", "__nv_fp8_e5m2"};
  if (!llvm::is_contained(Known, RD->getName()))
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

std::optional<StaticTensorSize> staticTensorSize(QualType T,
                                                 const ASTContext &Ctx) {
  const ClassTemplateSpecializationDecl *RD =
      cuteSpec(T.getNonReferenceType(), "Tensor");
  if (!RD || RD->getTemplateArgs().size() != 2 ||
      RD->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
    return std::nullopt;
  const ClassTemplateSpecializationDecl *Layout =
      cuteSpec(RD->getTemplateArgs()[1].getAsType(), "Layout");
  if (!Layout || Layout->getTemplateArgs().size() < 1 ||
      Layout->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  std::optional<uint64_t> N =
      staticShapeSize(Layout->getTemplateArgs()[0].getAsType(), 0);
  if (!N || *N == 0)
    return std::nullopt;
  // The tensor's value_type (its engine's).
  const auto *V = RD->lookup(&Ctx.Idents.get("value_type")).find_first<TypedefNameDecl>();
  if (!V)
    return std::nullopt;
  QualType E = V->getUnderlyingType();
  std::optional<uint64_t> Bytes = elementBytes(E, Ctx);
  if (!Bytes || *Bytes == 0)
    return std::nullopt;
  return StaticTensorSize{*N, E.getCanonicalType().getUnqualifiedType(),
                          *Bytes};
}

/// \p E without the temporaries, copies and casts around a value.
static const Expr *strip(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 &&
             C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    else
      return E;
  }
  return E;
}

/// A free function of namespace cute named \p Name, called with \p Args
/// arguments (at least).
static const FunctionDecl *cuteCall(const CallExpr &C, StringRef Name,
                                    unsigned Args) {
  const FunctionDecl *FD = C.getDirectCallee();
  if (!FD || isa<CXXMethodDecl>(FD) || !FD->getIdentifier() ||
      FD->getName() != Name || C.getNumArgs() < Args || !inCute(FD))
    return nullptr;
  return FD;
}

std::optional<TmaLoadCopy> tmaLoadCopy(const CallExpr &C) {
  if (!cuteCall(C, "copy", 3) || C.getNumArgs() != 3)
    return std::nullopt;
  const auto *With = dyn_cast<CXXMemberCallExpr>(strip(C.getArg(0)));
  if (!With || !isTmaLoadWith(*With) || With->getNumArgs() < 1)
    return std::nullopt;
  return TmaLoadCopy{With, With->getArg(0), C.getArg(2)};
}

llvm::SmallVector<const Expr *, 2> gemmOperands(const CallExpr &C) {
  // gemm(mma, A, B, C) and gemm(mma, D, A, B, C).
  if (!cuteCall(C, "gemm", 4) || C.getNumArgs() > 5)
    return {};
  unsigned N = C.getNumArgs();
  return {C.getArg(N - 3), C.getArg(N - 2)};
}

namespace {
struct Walk {
  llvm::SmallVectorImpl<const Expr *> &Out;
  llvm::DenseSet<const Decl *> Seen;
  unsigned Budget = 256;

  void expr(const Expr *E, unsigned Depth) {
    if (!E || Depth > 24 || !Budget)
      return;
    --Budget;
    E = strip(E);
    // `engine.begin()` and `data()`: the object's own storage.
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(E))
      if (const CXXMethodDecl *MD = M->getMethodDecl();
          MD && MD->getIdentifier() && M->getNumArgs() == 0 &&
          (MD->getName() == "begin" || MD->getName() == "data")) {
        Out.push_back(M->getImplicitObjectArgument());
        return;
      }
    if (E->getType()->isPointerType() || E->getType()->isArrayType()) {
      Out.push_back(E);
      return;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *VD = D->getDecl();
      if (!Seen.insert(VD).second)
        return;
      if (const auto *B = dyn_cast<BindingDecl>(VD)) {
        // `auto [a, b] = f(...)`: what the whole tuple is built from.
        if (const auto *DD = dyn_cast_or_null<VarDecl>(B->getDecomposedDecl()))
          expr(DD->getInit(), Depth + 1);
        return;
      }
      const auto *V = dyn_cast<VarDecl>(VD);
      if (V && V->isLocalVarDecl() && V->hasInit())
        expr(V->getInit(), Depth + 1);
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // A slice `t(_, i)` or `t[i]` of a view is within its view.
      if ((Op->getOperator() == OO_Call || Op->getOperator() == OO_Subscript) &&
          Op->getNumArgs() > 0)
        expr(Op->getArg(0), Depth + 1);
      return;
    }
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = M->getMethodDecl();
      if (!MD || !MD->getIdentifier())
        return;
      if (!inCute(MD))
        return;
      // A CuTe view's partition or fragment of its arguments.
      expr(M->getImplicitObjectArgument(), Depth + 1);
      for (const Expr *A : M->arguments())
        expr(A, Depth + 1);
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !inCute(FD))
        return;
      for (const Expr *A : C->arguments())
        expr(A, Depth + 1);
      return;
    }
  }
};
} // namespace

void tensorSources(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  Walk W{Out, {}};
  W.expr(E, 0);
}

} // namespace clang::tidy::tma::cute
