//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Pointer provenance for the alignment rules: what an address is proven to
// be, as a base of known alignment plus a constant byte offset. Silence over
// guesses: anything not followed (heap memory other than device
// allocations, integer round trips, unknown offsets, re-pointed pointers)
// gives std::nullopt.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/Uses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"

namespace clang::tidy::tma {

static constexpr unsigned MaxPointerDepth = 16;

std::optional<PointerAlign> ConstantFolder::pointerAlign(const Expr *E) {
  return pointerAlignImpl(E, 0);
}

/// The byte size of \p T for pointer arithmetic, when T is complete.
static std::optional<int64_t> elementBytes(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
      T->isFunctionType() || T->isSizelessType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

/// \p A moved by \p Count elements of \p Bytes bytes, unless it overflows.
static std::optional<PointerAlign> moved(std::optional<PointerAlign> A,
                                         const llvm::APSInt &Count,
                                         int64_t Bytes) {
  if (!A || Count.getSignificantBits() > 40 || Bytes > (int64_t(1) << 20))
    return std::nullopt;
  A->Offset += Count.getExtValue() * Bytes;
  return A;
}

/// A power of two, or 0.
static uint64_t powerOfTwo(uint64_t V) { return V && !(V & (V - 1)) ? V : 0; }

/// True when \p T is an integer that can hold a device address
/// (CUdeviceptr, uintptr_t, unsigned long long).
static bool isAddressInteger(QualType T, const ASTContext &Ctx) {
  return T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType() &&
         Ctx.getTypeSize(T) >= 64;
}

/// True when \p Call allocates device memory into its argument 0: the
/// runtime's functions (a pointer) for \p IntegerTarget false, the driver's
/// (a CUdeviceptr) for true. Every one returns a 256-byte aligned address
/// ("any address ... returned by one of the memory allocation routines from
/// the driver or runtime API is always aligned to at least 256 bytes", CUDA
/// C++ Programming Guide, Device Memory Accesses); the stream-ordered
/// allocator's (Driver API, Stream Ordered Memory Allocator) included, and
/// cudaMallocAsync's pool overload, which calls cudaMallocFromPoolAsync.
static bool isDeviceAllocation(const CallExpr &Call, bool IntegerTarget) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier() || Call.getNumArgs() < 2)
    return false;
  // The _ptsz names are what the per-thread-stream macros expand to, the
  // _v2 names what cuda.h's versioning macros expand cuMemAlloc to.
  if (IntegerTarget)
    return llvm::is_contained(
        {"cuMemAlloc", "cuMemAlloc_v2", "cuMemAllocPitch",
         "cuMemAllocPitch_v2", "cuMemAllocManaged", "cuMemAllocAsync",
         "cuMemAllocAsync_ptsz", "cuMemAllocFromPoolAsync",
         "cuMemAllocFromPoolAsync_ptsz"},
        FD->getName());
  return llvm::is_contained({"cudaMalloc", "cudaMallocAsync",
                             "cudaMallocAsync_ptsz", "cudaMallocManaged",
                             "cudaMallocPitch", "cudaMallocFromPoolAsync",
                             "cudaMallocFromPoolAsync_ptsz"},
                            FD->getName());
}

const CallExpr *ConstantFolder::allocationOf(const VarDecl *VD) {
  auto [It, New] = Allocations.try_emplace(VD, nullptr);
  if (!New)
    return It->second;
  const Stmt *Body = bodyOf(VD);
  bool Integer = isAddressInteger(VD->getType(), Ctx);
  if (!Body || (!VD->getType()->isPointerType() && !Integer))
    return nullptr;
  // Uninitialised or null before the allocation: a null read is 0, which
  // every alignment divides.
  if (const Expr *Init = VD->getInit();
      Init && !Init->isValueDependent() &&
      Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) ==
          Expr::NPCK_NotNull)
    return nullptr;
  const ParentMap &PM = parentsOf(Body);
  const CallExpr *Found = nullptr;
  for (const DeclRefExpr *Use : usesOf(VD)) {
    if (!mayWrite(PM, Use))
      continue;
    // The one write allowed: `&p` (through casts) as argument 0 of an
    // allocation call.
    const Stmt *S = PM.getParent(Use);
    const auto *Addr = dyn_cast_or_null<UnaryOperator>(S);
    if (!Addr || Addr->getOpcode() != UO_AddrOf)
      return nullptr;
    const Stmt *Up = PM.getParent(Addr);
    const Expr *Arg = Addr;
    while (Up && (isa<ParenExpr>(Up) || isa<CastExpr>(Up))) {
      Arg = cast<Expr>(Up);
      Up = PM.getParent(Up);
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(Up);
    if (!Call || !isDeviceAllocation(*Call, Integer) ||
        Call->getArg(0) != Arg)
      return nullptr;
    Found = Call;
  }
  return Allocations[VD] = Found;
}

std::optional<PointerAlign>
ConstantFolder::pointerVarAlign(const VarDecl *VD, unsigned Depth) {
  if (VD->getType().isVolatileQualified() || VD->getType()->isReferenceType())
    return std::nullopt;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    const Expr *Arg = boundArgument(PVD);
    if (!Arg || !isNeverWritten(PVD))
      return std::nullopt;
    const CallContext *Bound = Current;
    auto A = inContext(Bound->Parent, [&] {
      return VD->getType()->isPointerType()
                 ? pointerAlignImpl(Arg, Depth + 1)
                 : integerAlignImpl(Arg, Depth + 1);
    });
    if (A)
      A->Through.push_back(Binding{PVD, Bound});
    return A;
  }
  if (!VD->hasLocalStorage())
    return std::nullopt;
  if (isNeverWritten(VD)) {
    if (const Expr *Init = VD->getInit())
      return VD->getType()->isPointerType() ? pointerAlignImpl(Init, Depth + 1)
                                            : integerAlignImpl(Init, Depth + 1);
    return std::nullopt;
  }
  if (const CallExpr *Alloc = allocationOf(VD)) {
    PointerAlign A;
    A.Kind = PointerAlign::Allocation;
    A.BaseAlign = DeviceAllocationAlign;
    A.Base = VD;
    A.Alloc = Alloc;
    return A;
  }
  return std::nullopt;
}

std::optional<PointerAlign> ConstantFolder::objectAlignImpl(const Expr *E,
                                                            unsigned Depth) {
  if (Depth > MaxPointerDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    // A host variable of this program: device variables' host shadows and
    // references are not the object.
    if (!VD || isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType() ||
        VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>() ||
        VD->hasAttr<CUDASharedAttr>() || VD->getType()->isDependentType() ||
        VD->getType()->isIncompleteType())
      return std::nullopt;
    uint64_t Align = powerOfTwo(Ctx.getDeclAlign(VD).getQuantity());
    if (!Align)
      return std::nullopt;
    PointerAlign A;
    A.BaseAlign = Align;
    A.Base = VD;
    return A;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl() ||
        FD->getParent()->isDependentType())
      return std::nullopt;
    std::optional<PointerAlign> A =
        ME->isArrow() ? pointerAlignImpl(ME->getBase(), Depth + 1)
                      : objectAlignImpl(ME->getBase(), Depth + 1);
    if (!A)
      return std::nullopt;
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
    A->Offset += static_cast<int64_t>(
        Ctx.toCharUnitsFromBits(L.getFieldOffset(FD->getFieldIndex()))
            .getQuantity());
    return A;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto Index = foldInt(AS->getIdx());
    auto Bytes = elementBytes(AS->getType(), Ctx);
    if (!Index || !Bytes)
      return std::nullopt;
    return moved(pointerAlignImpl(AS->getBase(), Depth + 1), Index->Value,
                 *Bytes);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return pointerAlignImpl(UO->getSubExpr(), Depth + 1);
  return std::nullopt;
}

std::optional<PointerAlign> ConstantFolder::pointerAlignImpl(const Expr *E,
                                                             unsigned Depth) {
  if (!E || Depth > MaxPointerDepth || E->isValueDependent() ||
      E->isTypeDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_NoOp:
    case CK_BitCast:
      return pointerAlignImpl(CE->getSubExpr(), Depth + 1);
    case CK_ArrayToPointerDecay:
      return objectAlignImpl(CE->getSubExpr(), Depth + 1);
    case CK_IntegralToPointer:
      // (void *)d, (void *)(d + 16) for a CUdeviceptr d.
      return integerAlignImpl(CE->getSubExpr(), Depth + 1);
    case CK_LValueToRValue: {
      const Expr *Sub = CE->getSubExpr()->IgnoreParens();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && VD->getType()->isPointerType())
          return pointerVarAlign(VD, Depth);
      return std::nullopt;
    }
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return objectAlignImpl(UO->getSubExpr(), Depth + 1);
  // A pointer variable named as an lvalue (device-op operands come looked
  // through their conversions).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType()->isPointerType())
      return pointerVarAlign(VD, Depth);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    const Expr *Ptr = BO->getLHS(), *Int = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    if (!Ptr->getType()->isPointerType() ||
        !Int->getType()->isIntegerType() ||
        (BO->getOpcode() == BO_Sub && Ptr != BO->getLHS()))
      return std::nullopt;
    auto Count = foldInt(Int);
    auto Bytes = elementBytes(Ptr->getType()->getPointeeType(), Ctx);
    if (!Count || !Bytes)
      return std::nullopt;
    llvm::APSInt N = Count->Value.extend(Count->Value.getBitWidth() + 1);
    N.setIsSigned(true);
    if (BO->getOpcode() == BO_Sub)
      N = -N;
    return moved(pointerAlignImpl(Ptr, Depth + 1), N, *Bytes);
  }
  return std::nullopt;
}

std::optional<PointerAlign> ConstantFolder::integerAlignImpl(const Expr *E,
                                                             unsigned Depth) {
  if (!E || Depth > MaxPointerDepth || E->isValueDependent() ||
      !isAddressInteger(E->getType(), Ctx))
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_NoOp:
    case CK_IntegralCast:
      // Between integers that keep every address bit.
      return integerAlignImpl(Sub, Depth + 1);
    case CK_LValueToRValue:
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && isAddressInteger(VD->getType(), Ctx))
          return pointerVarAlign(VD, Depth);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    // An address plus or minus a constant number of bytes.
    for (bool AddressOnLeft : {true, false}) {
      const Expr *Addr = AddressOnLeft ? BO->getLHS() : BO->getRHS();
      const Expr *Bytes = AddressOnLeft ? BO->getRHS() : BO->getLHS();
      if (!AddressOnLeft && BO->getOpcode() == BO_Sub)
        break;
      std::optional<PointerAlign> A = integerAlignImpl(Addr, Depth + 1);
      if (!A)
        continue;
      auto N = foldInt(Bytes);
      if (!N)
        return std::nullopt;
      llvm::APSInt Count = N->Value.extend(N->Value.getBitWidth() + 1);
      Count.setIsSigned(true);
      if (BO->getOpcode() == BO_Sub)
        Count = -Count;
      return moved(A, Count, 1);
    }
  }
  return std::nullopt;
}

} // namespace clang::tidy::tma
