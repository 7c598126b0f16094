//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's generic shared-memory accesses: reads and writes of a
// `__shared__` buffer by C++ expressions, asm loads and stores, and the
// buffers an MMA's matrix descriptors describe.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::tma {
namespace kmodel {

void Builder::write(const Expr *Lhs, SourceLocation Loc) {
  bool Whole = false;
  std::string Path;
  PoolRegion Region;
  const VarDecl *VD =
      sharedRoot(Lhs, Whole, bindings(), &Path, true, &Aliases, &Region);
  if (!VD) {
    mapWrite(Lhs, Loc);
    return;
  }
  Event E;
  E.Kind = EventKind::GenericWrite;
  E.Object = objectOf(VD, Path, Region);
  if (!Whole && stage(Lhs, /*Element=*/true, E))
    E.SliceWrite = true;
  emit(E, Loc, std::nullopt, VD);
}

void Builder::read(const Expr *E, SourceLocation Loc) {
  bool Whole = false;
  std::string Path;
  PoolRegion Region;
  const VarDecl *VD =
      sharedRoot(E, Whole, bindings(), &Path, true, &Aliases, &Region);
  if (!VD)
    return;
  Event Ev;
  Ev.Kind = EventKind::GenericRead;
  Ev.Object = objectOf(VD, Path, Region);
  readSteps(E, Ev);
  emit(Ev, Loc, std::nullopt, VD);
}

const Expr *Builder::addressedPointer(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
      if (const Expr *Arg = P && bindings() ? bindings()->lookup(P) : nullptr) {
        E = Arg;
        continue;
      }
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      E = VD && VD->getType()->isIntegerType() ? Aliases.initOf(VD) : nullptr;
      continue;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      if (const Expr *Arg = Finder.addressHelperArgument(*C))
        return Arg;
      const FunctionDecl *FD = C->getDirectCallee();
      if (FD && FD->getIdentifier() &&
          FD->getName() == "__cvta_generic_to_shared" && C->getNumArgs() == 1)
        return C->getArg(0);
      return nullptr;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
      if (const Expr *L = addressedPointer(B->getLHS()))
        return L;
      if (B->getOpcode() == BO_Add)
        return addressedPointer(B->getRHS());
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

void Builder::asmAccess(const GCCAsmStmt &S, std::optional<unsigned> Index,
                        EventKind Kind, SourceLocation Loc) {
  if (!Index || *Index < S.getNumOutputs() ||
      *Index - S.getNumOutputs() >= S.getNumInputs())
    return;
  const Expr *In = S.getInputExpr(*Index - S.getNumOutputs());
  // sharedRoot follows a shared-window address's arithmetic (and so its
  // pool region), a generic address (ldmatrix without .shared) is the
  // pointer itself; else the pointer its integer address converts.
  if (!accessOf(In, Kind, /*Mma=*/false, Loc))
    if (const Expr *Ptr = addressedPointer(In))
      accessOf(Ptr, Kind, /*Mma=*/false, Loc);
}

bool Builder::accessOf(const Expr *Ptr, EventKind Kind, bool Mma,
                       SourceLocation Loc) {
  bool Whole = false;
  std::string Path;
  PoolRegion Region;
  const VarDecl *VD =
      Ptr ? sharedRoot(Ptr, Whole, bindings(), &Path, false, &Aliases, &Region)
          : nullptr;
  if (!VD)
    return false;
  Event E;
  E.Kind = Kind;
  E.Mma = Mma;
  E.Object = objectOf(VD, Path, Region);
  if (Kind == EventKind::GenericRead)
    readSteps(Ptr, E);
  // A byte written inside one stage of an integer ring address
  // (`stage_addr + lane * 16` in `base + s * 8192`): a write of that stage.
  if (Kind == EventKind::GenericWrite && !Whole && !Mma &&
      Ptr->getType()->isIntegerType() && stageWithin(Ptr, E))
    E.SliceWrite = true;
  emit(E, Loc, std::nullopt, VD);
  return true;
}

const Expr *Builder::descriptorPointer(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      E = Ctor && Ctor->isCopyOrMoveConstructor() && C->getNumArgs() == 1
              ? C->getArg(0)
              : nullptr;
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      E = isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())
              ? MC->getImplicitObjectArgument()
              : nullptr;
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      // `desc.desc_`: the integer of a descriptor object.
      E = !M->isArrow() && M->getType()->isIntegerType() &&
                  M->getBase()->getType()->isRecordType()
              ? M->getBase()
              : nullptr;
      continue;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD)) {
        E = bindings() ? bindings()->lookup(P) : nullptr;
        continue;
      }
      if (VD && VD->getType()->isRecordType() && VD->isLocalVarDecl() &&
          !VD->isStaticLocal() && !VD->hasAttr<CUDASharedAttr>())
        E = VD->getInit();
      else
        E = VD ? Aliases.initOf(VD) : nullptr;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      // `addr >> 4`, `(addr & 0x3FFFF) >> 4`: the start-address field of a
      // 32-bit shared address, the address itself (mmaRead resolves it).
      if ((B->getOpcode() == BO_Shr || B->getOpcode() == BO_And) &&
          B->getRHS()->isIntegerConstantExpr(Ctx)) {
        const Expr *L = B->getLHS()->IgnoreParenCasts();
        if (const auto *Inner = dyn_cast<BinaryOperator>(L);
            Inner && Inner->getOpcode() == BO_And &&
            Inner->getRHS()->isIntegerConstantExpr(Ctx))
          L = Inner->getLHS();
        return L;
      }
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Or)
        return nullptr;
      const Expr *L = descriptorPointer(B->getLHS());
      const Expr *R = descriptorPointer(B->getRHS());
      return L && R ? nullptr : L ? L : R;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      if (const Expr *Arg = Finder.addressHelperArgument(*C))
        return Arg;
      const FunctionDecl *FD = C->getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (!FD || !FD->hasBody(Def) || !Def)
        return nullptr;
      std::optional<unsigned> I = Model.descriptorParam(Def);
      if (!I)
        I = Model.descriptorAddressParam(Def);
      unsigned Shift = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
      return I && *I + Shift < C->getNumArgs() ? C->getArg(*I + Shift)
                                               : nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

void Builder::mmaRead(const GCCAsmStmt &S, unsigned Index, SourceLocation Loc) {
  if (Index < S.getNumOutputs() ||
      Index - S.getNumOutputs() >= S.getNumInputs())
    return;
  // A pointer, or a 32-bit shared address (sharedRoot follows a window's
  // arithmetic; else the pointer it converts).
  const Expr *Address =
      descriptorPointer(S.getInputExpr(Index - S.getNumOutputs()));
  if (!accessOf(Address, EventKind::GenericRead, /*Mma=*/true, Loc))
    if (const Expr *Ptr = Address ? addressedPointer(Address) : nullptr)
      accessOf(Ptr, EventKind::GenericRead, /*Mma=*/true, Loc);
}

} // namespace kmodel

} // namespace clang::tidy::tma
