//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Two mutually recursive walks: pointee() follows a pointer value to the
// location it points at, object() follows an lvalue to the location of its
// object. Offsets add up in bytes from the types Clang gives each step
// (element sizes, field offsets), so casts between pointer types need no
// special case.
//
//===----------------------------------------------------------------------===//

#include "api/SharedBuffers.h"
#include "folding/Uses.h"
#include "rules/SmemRules.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

#include <numeric>

namespace clang::tidy::tma {

/// Deeper chains are unusual enough to give up on.
static constexpr unsigned MaxDepth = 32;
/// What an `extern __shared__` pool's start is aligned to whatever its
/// declaration says: dynamic shared memory starts 16-byte aligned.
static constexpr std::uint64_t ExternStartAlign = 16;

::tma::rules::Known addressAlignOf(const SharedBuffer &B) {
  // A static variable's start is aligned to what its declaration says and
  // to no more; an extern pool's and a rounded address's may be aligned to
  // more.
  bool Whole = !B.Extern && !B.RoundedTo;
  if (B.Offset || !B.Stride || !B.BaseAlign)
    return ::tma::rules::addressAlign(B.BaseAlign, B.Offset, Whole);
  // Residue + k * Stride: a stride at least as aligned as the base keeps
  // the residue's answer; a smaller one leaves only the residue's bits
  // below the stride's lowest one certain.
  std::uint64_t StrideAlign = B.Stride & (~B.Stride + 1);
  if (StrideAlign >= *B.BaseAlign)
    return ::tma::rules::addressAlign(B.BaseAlign, B.Residue, Whole);
  return ::tma::rules::addressAlign(StrideAlign, B.Residue,
                                    /*BaseIsWholeGuarantee=*/false);
}

void SharedBuffers::Location::addIndex(std::optional<std::int64_t> Elem,
                                       std::optional<std::int64_t> Known,
                                       std::uint64_t Mod) {
  if (!Elem || !Known || !Offset) {
    Offset = std::nullopt;
    return;
  }
  Offset = *Offset + *Known * *Elem;
  if (Mod) {
    // Another run-time part: no stage family any more (the caller makes a
    // new one).
    Members = 0;
    Stride = std::gcd(
        Stride, Mod * static_cast<std::uint64_t>(*Elem < 0 ? -*Elem : *Elem));
  }
}

bool SharedBuffers::ringIndex(const Expr *E, std::uint64_t N,
                              const CallContext *Context, unsigned Depth) {
  if (!E || Depth > MaxDepth || N < 2)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    return VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
           VD->getInit() && isNeverReassigned(VD) &&
           ringIndex(VD->getInit(), N, Context, Depth + 1);
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_Rem ||
      foldIndex(B->getRHS(), Context) != static_cast<std::int64_t>(N))
    return false;
  // The counter of a `for` around the index, stepping by one.
  const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
  const auto *K = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // Or a helper's (a lambda's) parameter that its call binds to such a
  // counter of the caller (`produce(kt)` with `s = kt % S` inside).
  if (const auto *PVD = dyn_cast_or_null<ParmVarDecl>(K)) {
    const Expr *Arg = argumentFor(PVD, Context);
    Ref = Arg && isNeverReassigned(PVD)
              ? dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts())
              : nullptr;
    K = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!K || isa<ParmVarDecl>(K))
      return false;
    Context = Context->Parent;
  }
  const auto *FD =
      K ? dyn_cast_or_null<FunctionDecl>(K->getParentFunctionOrMethod())
        : nullptr;
  if (!FD || !FD->getBody() || !K->getType()->isIntegerType())
    return false;
  const ParentMap &PM = Folder.parentsOf(FD);
  for (const Stmt *P = PM.getParent(Ref); P; P = PM.getParent(P)) {
    const auto *F = dyn_cast<ForStmt>(P);
    const auto *Init = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
    if (!Init || !Init->isSingleDecl() || Init->getSingleDecl() != K)
      continue;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    auto Names = [&](const Expr *X) {
      const auto *R = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
      return R && R->getDecl() == K;
    };
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
      return U->isIncrementOp() && Names(U->getSubExpr());
    if (const auto *A = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      return A->getOpcode() == BO_AddAssign && Names(A->getLHS()) &&
             foldIndex(A->getRHS(), Context) == 1;
    return false;
  }
  return false;
}

std::pair<std::optional<std::int64_t>, std::uint64_t>
SharedBuffers::affineIndex(const Expr *E, const CallContext *Context,
                           unsigned Depth) {
  if (std::optional<std::int64_t> K = foldIndex(E, Context))
    return {K, 0};
  // Any integer: 0 plus a multiple of 1.
  std::pair<std::optional<std::int64_t>, std::uint64_t> Any{0, 1};
  E = E->IgnoreParenImpCasts();
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || Depth > MaxDepth || !E->getType()->isIntegerType())
    return Any;
  auto L = affineIndex(B->getLHS(), Context, Depth + 1);
  auto R = affineIndex(B->getRHS(), Context, Depth + 1);
  if (!L.first || !R.first)
    return Any;
  switch (B->getOpcode()) {
  case BO_Add:
    return {*L.first + *R.first, std::gcd(L.second, R.second)};
  case BO_Sub:
    return {*L.first - *R.first, std::gcd(L.second, R.second)};
  case BO_Mul:
    // (a + m*i) * c = a*c + (m*c)*i; two unknown factors give nothing.
    if (!L.second && *L.first >= 0)
      return {*L.first * *R.first,
              R.second * static_cast<std::uint64_t>(*L.first)};
    if (!R.second && *R.first >= 0)
      return {*L.first * *R.first,
              L.second * static_cast<std::uint64_t>(*R.first)};
    return Any;
  case BO_Shl:
    if (!R.second && *R.first >= 0 && *R.first < 32)
      return {*L.first * (std::int64_t(1) << *R.first), L.second << *R.first};
    return Any;
  default:
    return Any;
  }
}

static std::optional<std::int64_t> add(std::optional<std::int64_t> A,
                                       std::optional<std::int64_t> B) {
  if (!A || !B)
    return std::nullopt;
  return *A + *B;
}

std::optional<std::int64_t>
SharedBuffers::foldIndex(const Expr *E, const CallContext *Context) {
  const CallContext *Saved = Folder.currentContext();
  Folder.enterContext(Context);
  std::optional<FoldedInt> V = Folder.foldInt(E);
  Folder.enterContext(Saved);
  if (!V || V->Value.getSignificantBits() > 64)
    return std::nullopt;
  return V->Value.getExtValue();
}

/// sizeof \p T in bytes; std::nullopt for incomplete and dependent types.
/// void counts 1, as GNU pointer arithmetic does.
static std::optional<std::int64_t> sizeOf(QualType T, const ASTContext &Ctx) {
  if (T->isVoidType())
    return 1;
  if (T->isIncompleteType() || T->isDependentType() || !T->isConstantSizeType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

llvm::ArrayRef<const DeclRefExpr *>
SharedBuffers::refsTo(const VarDecl *VD, const Stmt *Body) {
  auto [It, New] = RefsByBody.try_emplace(Body);
  if (New) {
    llvm::SmallVector<const Stmt *, 64> Work{Body};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl()))
          It->second[Var].push_back(DRE);
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  auto Found = It->second.find(VD);
  if (Found == It->second.end())
    return {};
  return Found->second;
}

template <typename UseFn>
bool SharedBuffers::everyUse(const VarDecl *VD, const Stmt *Body, UseFn Use) {
  if (!Body)
    return false;
  const ParentMap &PM = Folder.parentsOf(Body);
  return llvm::all_of(refsTo(VD, Body),
                      [&](const DeclRefExpr *DRE) { return Use(DRE, PM); });
}

bool SharedBuffers::isNeverReassigned(const VarDecl *VD) {
  // A const local is never written (a lambda may capture it by reference).
  if (VD->getType().isConstQualified() && !VD->getType()->isReferenceType())
    return true;
  auto [It, New] = NeverReassigned.try_emplace(VD, false);
  if (!New)
    return It->second;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  // Every use must be a plain read of the value: anything else (assignment,
  // ++, &p, a reference binding, an unevaluated operand) may change it.
  bool Only = everyUse(VD, FD ? FD->getBody() : nullptr,
                       [](const DeclRefExpr *DRE, const ParentMap &PM) {
                         const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(
                             PM.getParentIgnoreParens(DRE));
                         return Cast &&
                                Cast->getCastKind() == CK_LValueToRValue;
                       });
  return NeverReassigned[VD] = Only;
}

std::optional<SharedBuffers::Location>
SharedBuffers::entry(const Expr *E, const CallContext *Context,
                     unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (E->isGLValue()) {
    QualType T = E->getType();
    if (T->isArrayType())
      return object(E, Context, Depth + 1);
    if (T->isPointerType())
      return pointerValue(E, Context, Depth + 1);
    return std::nullopt;
  }
  // An address held as an integer (what is left of `(T *)(uintptr_t)...`
  // once the casts are looked through).
  if (E->getType()->isIntegerType())
    return integerAddress(E, Context, Depth + 1);
  return pointee(E, Context, Depth + 1);
}

std::optional<SharedBuffers::Location>
SharedBuffers::pointerValue(const Expr *E, const CallContext *Context,
                            unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType())
    return std::nullopt;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    const Expr *Arg = argumentFor(PVD, Context);
    if (!Arg || !isNeverReassigned(PVD))
      return std::nullopt;
    if (const Expr *Forwarded = forwardedArgument(Arg->IgnoreParenImpCasts()))
      Arg = Forwarded;
    return entry(Arg, Context->Parent, Depth + 1);
  }
  if (!VD->hasLocalStorage() || !VD->getInit() || !isNeverReassigned(VD))
    return std::nullopt;
  return entry(VD->getInit(), Context, Depth + 1);
}

/// The power of two \p Mask rounds down to when and-ed with an integer of
/// \p Bits bits (`~(A - 1)`: all bits from A's up set); 0 for other masks.
static std::uint64_t roundingMask(std::int64_t Mask, unsigned Bits) {
  auto M = static_cast<std::uint64_t>(Mask);
  if (Bits < 64)
    M &= (std::uint64_t(1) << Bits) - 1;
  std::uint64_t A = M & (~M + 1);
  std::uint64_t All = Bits < 64 ? (std::uint64_t(1) << Bits) - 1 : ~std::uint64_t(0);
  if (A < 2 || (M | (A - 1)) != All)
    return 0;
  return A;
}

std::optional<SharedBuffers::Location>
SharedBuffers::integerAddress(const Expr *E, const CallContext *Context,
                              unsigned Depth) {
  if (!E || Depth > MaxDepth || !E->getType()->isIntegerType())
    return std::nullopt;
  E = E->IgnoreParens();
  // Shared-memory addresses fit in 32 bits: anything narrower is no address.
  unsigned Bits = static_cast<unsigned>(Ctx.getTypeSize(E->getType()));
  if (Bits < 32)
    return std::nullopt;
  auto Rounded = [](std::optional<Location> L, std::uint64_t A) {
    if (L) {
      *L = Location{L->Var, 0};
      L->RoundedTo = A;
    }
    return L;
  };
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_PointerToIntegral:
      return pointee(Cast->getSubExpr(), Context, Depth + 1);
    case CK_IntegralCast:
    case CK_NoOp:
      return integerAddress(Cast->getSubExpr(), Context, Depth + 1);
    case CK_LValueToRValue: {
      // A local or parameter holding the integer, never reassigned.
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !isNeverReassigned(VD))
        return std::nullopt;
      if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
        const Expr *Arg = argumentFor(PVD, Context);
        return Arg ? integerAddress(Arg, Context->Parent, Depth + 1)
                   : std::nullopt;
      }
      if (!VD->hasLocalStorage() || !VD->getInit())
        return std::nullopt;
      return integerAddress(VD->getInit(), Context, Depth + 1);
    }
    default:
      return std::nullopt;
    }
  }
  // The shared-window address of a pointer: `__cvta_generic_to_shared(p)`.
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && FD->getIdentifier() &&
        FD->getName() == "__cvta_generic_to_shared" && C->getNumArgs() == 1)
      return entry(C->getArg(0), Context, Depth + 1);
    return std::nullopt;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_Add:
  case BO_Sub: {
    // Address plus or minus a byte count (either order for a sum).
    std::optional<Location> Loc = integerAddress(L, Context, Depth + 1);
    const Expr *Index = R;
    if (!Loc && B->getOpcode() == BO_Add) {
      Loc = integerAddress(R, Context, Depth + 1);
      Index = L;
    }
    if (!Loc)
      return std::nullopt;
    auto [K, Mod] = affineIndex(Index, Context, Depth + 1);
    if (K && B->getOpcode() == BO_Sub)
      K = -*K;
    Loc->addIndex(1, K, Mod);
    return Loc;
  }
  case BO_And: {
    // (a + A - 1) & ~(A - 1): the mask on either side.
    for (int Side = 0; Side < 2; ++Side) {
      std::optional<std::int64_t> M = foldIndex(Side ? L : R, Context);
      if (std::uint64_t A = M ? roundingMask(*M, Bits) : 0)
        return Rounded(integerAddress(Side ? R : L, Context, Depth + 1), A);
    }
    return std::nullopt;
  }
  case BO_Mul: {
    // a / A * A.
    for (int Side = 0; Side < 2; ++Side) {
      const auto *Div =
          dyn_cast<BinaryOperator>((Side ? R : L)->IgnoreParenImpCasts());
      std::optional<std::int64_t> A = foldIndex(Side ? L : R, Context);
      if (!Div || Div->getOpcode() != BO_Div || !A || *A < 2 ||
          (*A & (*A - 1)) != 0 || foldIndex(Div->getRHS(), Context) != A)
        continue;
      return Rounded(integerAddress(Div->getLHS(), Context, Depth + 1),
                     static_cast<std::uint64_t>(*A));
    }
    return std::nullopt;
  }
  case BO_Shl: {
    // a >> s << s.
    const auto *Shr = dyn_cast<BinaryOperator>(L->IgnoreParenImpCasts());
    std::optional<std::int64_t> S = foldIndex(R, Context);
    if (!Shr || Shr->getOpcode() != BO_Shr || !S || *S < 1 || *S > 30 ||
        foldIndex(Shr->getRHS(), Context) != S)
      return std::nullopt;
    return Rounded(integerAddress(Shr->getLHS(), Context, Depth + 1),
                   std::uint64_t(1) << *S);
  }
  default:
    return std::nullopt;
  }
}

std::optional<SharedBuffers::Location>
SharedBuffers::pointee(const Expr *E, const CallContext *Context,
                       unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return object(Cast->getSubExpr(), Context, Depth + 1);
    case CK_LValueToRValue:
      return pointerValue(Cast->getSubExpr(), Context, Depth + 1);
    case CK_NoOp:
    case CK_BitCast:
    case CK_AddressSpaceConversion: {
      std::optional<Location> L = pointee(Cast->getSubExpr(), Context, Depth + 1);
      // Code that casts the start of a pool to `T *` takes the start to be
      // aligned to T (CUTLASS's `*reinterpret_cast<SharedStorage *>(smem)`).
      QualType To = E->getType()->isPointerType()
                        ? E->getType()->getPointeeType()
                        : QualType();
      if (L && L->Offset && !L->Stride && !L->RoundedTo && !To.isNull() &&
          !To->isIncompleteType() && !To->isDependentType()) {
        auto Align = static_cast<std::int64_t>(
            Ctx.getTypeAlignInChars(To).getQuantity());
        if (Align > 0 && *L->Offset % Align == 0)
          L->CastAlign =
              std::max<std::uint64_t>(L->CastAlign, static_cast<std::uint64_t>(Align));
      }
      return L;
    }
    case CK_IntegralToPointer:
      return integerAddress(Cast->getSubExpr(), Context, Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf)
      return object(U->getSubExpr(), Context, Depth + 1);
    return std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *Ptr = B->getLHS();
    const Expr *Index = B->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Index);
    // Pointer differences and non-pointer sums are not addresses.
    if (!Ptr->getType()->isPointerType() ||
        !Index->getType()->isIntegralOrEnumerationType() ||
        (B->getOpcode() == BO_Sub && Ptr != B->getLHS()))
      return std::nullopt;
    std::optional<Location> L = pointee(Ptr, Context, Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<std::int64_t> Elem =
        sizeOf(Ptr->getType()->getPointeeType(), Ctx);
    auto [K, Mod] = affineIndex(Index, Context, Depth + 1);
    if (K && B->getOpcode() == BO_Sub)
      K = -*K;
    L->addIndex(Elem, K, Mod);
    return L;
  }
  if (const auto *Forwarded = forwardedArgument(E))
    return entry(Forwarded, Context, Depth + 1);
  // `this` inside a method followed from its call: the call's object.
  if (isa<CXXThisExpr>(E)) {
    if (ThisObjects.empty())
      return std::nullopt;
    auto [Obj, ObjContext] = ThisObjects.pop_back_val();
    std::optional<Location> L =
        Obj->getType()->isPointerType()
            ? pointee(Obj, ObjContext, Depth + 1)
            : object(Obj, ObjContext, Depth + 1);
    ThisObjects.push_back({Obj, ObjContext});
    return L;
  }
  // A method that returns an address within its object (cute::array's
  // `T *data() { return __elems_; }`), followed with the call's object.
  if (const auto *MCall = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCall->getMethodDecl();
    const FunctionDecl *Def = MD ? MD->getDefinition() : nullptr;
    const auto *Body =
        Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
    const auto *Ret = Body && Body->size() == 1
                          ? dyn_cast<ReturnStmt>(Body->body_front())
                          : nullptr;
    const Expr *Obj = MCall->getImplicitObjectArgument();
    if (!Ret || !Ret->getRetValue() || !Obj || MD->isStatic())
      return std::nullopt;
    ThisObjects.push_back({Obj, Context});
    std::optional<Location> L = entry(
        Ret->getRetValue(), Folder.contextFor(MCall, Def, Context), Depth + 1);
    ThisObjects.pop_back();
    return L;
  }
  // A helper that returns an address computed from its parameters
  // (`return base + stage * StageElems;`), followed under this call.
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    const auto *Body =
        Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
    const auto *Ret = Body && Body->size() == 1
                          ? dyn_cast<ReturnStmt>(Body->body_front())
                          : nullptr;
    if (Ret && Ret->getRetValue())
      return entry(Ret->getRetValue(), Folder.contextFor(Call, Def, Context),
                   Depth + 1);
  }
  return std::nullopt;
}

std::optional<SharedBuffers::Location>
SharedBuffers::object(const Expr *E, const CallContext *Context,
                      unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (VD->hasAttr<CUDASharedAttr>())
      return Location{VD->getCanonicalDecl(), 0};
    // A reference cannot be rebound: its initialiser (or the argument
    // bound to it) is its object.
    if (!VD->getType()->isReferenceType())
      return std::nullopt;
    if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
      const Expr *Arg = argumentFor(PVD, Context);
      if (!Arg)
        return std::nullopt;
      if (const Expr *Forwarded = forwardedArgument(Arg->IgnoreParenImpCasts()))
        Arg = Forwarded;
      return object(Arg, Context->Parent, Depth + 1);
    }
    if (!VD->hasLocalStorage() || !VD->getInit())
      return std::nullopt;
    return object(VD->getInit(), Context, Depth + 1);
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_NoOp:
    case CK_LValueBitCast:
      return object(Cast->getSubExpr(), Context, Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return Temp->getSubExpr()->isGLValue()
               ? object(Temp->getSubExpr(), Context, Depth + 1)
               : std::nullopt;
  if (const auto *MCall = dyn_cast<CXXMemberCallExpr>(E))
    return allocation(MCall, Context, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return pointee(U->getSubExpr(), Context, Depth + 1);
    return std::nullopt;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<Location> L = pointee(ASE->getBase(), Context, Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<std::int64_t> Elem = sizeOf(ASE->getType(), Ctx);
    auto [K, Mod] = affineIndex(ASE->getIdx(), Context, Depth + 1);
    bool Runtime = L->Stride != 0;
    L->addIndex(Elem, K, Mod);
    // The first run-time part, a ring index over the array's stages: a
    // stage family.
    const auto *Arr = Ctx.getAsConstantArrayType(
        ASE->getBase()->IgnoreParenImpCasts()->getType());
    if (Mod && !Runtime && Elem && *Elem > 0 && Arr && L->Offset &&
        ringIndex(ASE->getIdx(), Arr->getSize().getLimitedValue(), Context,
                  Depth + 1)) {
      L->Members = Arr->getSize().getLimitedValue();
      L->MemberStride = static_cast<std::uint64_t>(*Elem);
    }
    return L;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return std::nullopt;
    std::optional<Location> L = ME->isArrow()
                                    ? pointee(ME->getBase(), Context, Depth + 1)
                                    : object(ME->getBase(), Context, Depth + 1);
    if (!L)
      return std::nullopt;
    const RecordDecl *RD = FD->getParent();
    if (FD->isBitField() || RD->isInvalidDecl() || RD->isDependentType() ||
        !RD->isCompleteDefinition()) {
      L->Offset = std::nullopt;
      return L;
    }
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
    auto Bits =
        static_cast<std::int64_t>(Layout.getFieldOffset(FD->getFieldIndex()));
    L->Offset = add(L->Offset, Bits / Ctx.getCharWidth());
    return L;
  }
  return std::nullopt;
}

/// The integer value of the template argument \p A, if it is one.
static std::optional<std::int64_t> integral(const TemplateArgument &A) {
  if (A.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return A.getAsIntegral().getExtValue();
}

bool SharedBuffers::onlyAllocates(const VarDecl *VD) {
  auto [It, New] = OnlyAllocates.try_emplace(VD, false);
  if (!New)
    return It->second;
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  bool Only = everyUse(
      VD, Fn ? Fn->getBody() : nullptr,
      [](const DeclRefExpr *DRE, const ParentMap &PM) {
        const auto *ME = dyn_cast_or_null<MemberExpr>(PM.getParent(DRE));
        const auto *MD =
            ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
        return MD && MD->getIdentifier() && MD->getName() == "allocate" &&
               isa_and_nonnull<CXXMemberCallExpr>(PM.getParent(ME));
      });
  return OnlyAllocates[VD] = Only;
}

std::optional<SharedBuffers::Location>
SharedBuffers::allocation(const CXXMemberCallExpr *Call,
                          const CallContext *Context, unsigned Depth) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  const auto *Class = MD ? dyn_cast<ClassTemplateSpecializationDecl>(
                               MD->getParent())
                         : nullptr;
  if (!Class || !MD->getIdentifier() || MD->getName() != "allocate" ||
      !Class->getIdentifier() || Class->getName() != "shared_allocator" ||
      Depth > MaxDepth)
    return std::nullopt;
  // `allocate<Align, T, dims...>()`, else the class's default_alignment.
  std::optional<std::int64_t> Align;
  if (const TemplateArgumentList *Args = MD->getTemplateSpecializationArgs();
      Args && Args->size() > 0)
    Align = integral(Args->get(0));
  if (!Align && Class->getTemplateArgs().size() > 0)
    Align = integral(Class->getTemplateArgs()[0]);
  if (!Align || *Align <= 0 || (*Align & (*Align - 1)) != 0)
    return std::nullopt; // no rounding: where it lies depends on the others
  // The allocator: a local built on the pool, only ever asked to allocate.
  const auto *DRE = dyn_cast<DeclRefExpr>(
      Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *Init =
      VD && VD->hasLocalStorage() && VD->getInit()
          ? dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit())
          : nullptr;
  if (!Init || Init->getNumArgs() != 1 || !onlyAllocates(VD))
    return std::nullopt;
  std::optional<Location> Pool = pointee(Init->getArg(0), Context, Depth + 1);
  if (!Pool)
    return std::nullopt;
  Location L{Pool->Var, 0};
  L.RoundedTo = static_cast<std::uint64_t>(*Align);
  return L;
}

SharedBuffer SharedBuffers::describe(const Location &L) const {
  SharedBuffer B;
  const VarDecl *VD = L.Var;
  B.Var = VD;
  B.Extern = VD->hasExternalStorage();
  B.Offset = L.Offset;
  // An offset known modulo a stride is no offset for the size rules.
  if (L.Offset && L.Stride && L.Members) {
    B.Members = L.Members;
    B.Member0 = *L.Offset;
    B.MemberStride = L.MemberStride;
  }
  if (L.Offset && L.Stride) {
    B.Offset = std::nullopt;
    B.Stride = L.Stride;
    B.Residue = *L.Offset % static_cast<std::int64_t>(L.Stride);
    if (B.Residue < 0)
      B.Residue += static_cast<std::int64_t>(L.Stride);
  }
  QualType T = VD->getType();
  if (T->isDependentType())
    return B;
  if (L.RoundedTo) {
    B.RoundedTo = L.RoundedTo;
    B.BaseAlign = L.RoundedTo;
    if (std::optional<std::int64_t> Size = sizeOf(T, Ctx))
      B.Size = static_cast<std::uint64_t>(*Size);
    return B;
  }
  // Attributes on any redeclaration count (getMaxAlignment reads this one).
  std::uint64_t Declared = 0;
  for (const VarDecl *R : VD->redecls())
    Declared = std::max<std::uint64_t>(Declared, R->getMaxAlignment() /
                                                     Ctx.getCharWidth());
  std::uint64_t Natural = Ctx.getTypeAlignInChars(T).getQuantity();
  if (B.Extern) {
    std::uint64_t Base = std::max({Declared, Natural, ExternStartAlign});
    B.AlignDeclared = Declared == Base && Declared > Natural;
    B.AlignFromCast = !B.AlignDeclared && L.CastAlign > Base;
    B.BaseAlign = std::max(Base, L.CastAlign);
    return B;
  }
  B.BaseAlign = std::max(Declared, Natural);
  B.AlignDeclared = Declared > Natural;
  if (std::optional<std::int64_t> Size = sizeOf(T, Ctx)) {
    B.Size = static_cast<std::uint64_t>(*Size);
    if (B.Offset && *B.Offset >= 0 && *B.Offset <= *Size)
      B.BytesToEnd = static_cast<std::uint64_t>(*Size - *B.Offset);
  }
  return B;
}

std::optional<SharedBuffer> SharedBuffers::resolve(const Expr *E) {
  std::optional<Location> L = entry(E, Folder.currentContext(), 0);
  if (!L || !L->Var)
    return std::nullopt;
  return describe(*L);
}

std::optional<SharedBuffer> SharedBuffers::resolve(const OpValue &V) {
  if (!V.Present || !V.E)
    return std::nullopt;
  std::optional<SharedBuffer> B = resolve(V.E);
  if (!B || V.Offset == 0)
    return B;
  B->Offset = add(B->Offset, V.Offset);
  B->Residue += V.Offset;
  B->BytesToEnd.reset();
  if (B->Size && B->Offset && *B->Offset >= 0 &&
      static_cast<std::uint64_t>(*B->Offset) <= *B->Size)
    B->BytesToEnd = *B->Size - static_cast<std::uint64_t>(*B->Offset);
  return B;
}

} // namespace clang::tidy::tma
