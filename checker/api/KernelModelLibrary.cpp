//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's library calls whose bodies the walk does not follow: bulk-group
// commits and waits by name, cuda::barrier members and init, CUDA
// intrinsics, and CuTe's copy and gemm algorithms.
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

bool Builder::namedEvent(const FunctionDecl &FD, SourceLocation Loc) {
  if (!FD.getIdentifier())
    return false;
  llvm::StringRef Name = FD.getName();
  // A body that holds the recognised asm tells what the call does.
  if ((isCommitName(Name) || isWaitGroupName(Name)) &&
      events::groupBodyDecides(FD))
    return false;
  if (isCommitName(Name)) {
    simple(EventKind::Commit, Loc);
    return true;
  }
  if (isWaitGroupName(Name)) {
    Event E;
    E.Kind = EventKind::WaitGroup;
    E.Depth = firstIntegral(FD.getTemplateSpecializationArgs());
    // cuda::ptx passes N as an n32_t<N> argument.
    if (!E.Depth && FD.getNumParams() == 1)
      if (const auto *RD = FD.getParamDecl(0)->getType()->getAsCXXRecordDecl())
        if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
          E.Depth = firstIntegral(&Spec->getTemplateArgs());
    emit(E, Loc);
    return true;
  }
  return false;
}

bool Builder::libcudacxxBarrier(const FunctionDecl &FD, const CallExpr &C) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&C);
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  events::BarrierMember Role =
      MC && MD ? events::barrierMember(*MD) : events::BarrierMember();
  bool Arrives = Role.Arrives, Waits = Role.Waits;
  if (!Arrives && !Waits)
    return false;
  OpValue V;
  V.E = MC->getImplicitObjectArgument();
  V.Written = V.E;
  const VarDecl *Var = nullptr;
  Event E;
  E.Object = barrierObject(V, Var, E.FixedObject, &E);
  if (E.Object < 0) {
    if (Role.BodyModelled)
      return false; // walk the body
    simple(EventKind::Opaque, C.getBeginLoc());
    return true;
  }
  auto Emit = [&] {
    std::size_t Before = Out.Events.size();
    emit(E, C.getBeginLoc(), std::nullopt, Var);
    if (Out.Events.size() > Before)
      Out.Events.back().Operand = V.E;
  };
  if (Arrives) {
    E.Kind = EventKind::BarrierUse;
    E.Role = ::tma::rules::ordering::UseRole::Arrive;
    Emit();
  }
  if (Waits) {
    E.Kind = EventKind::BarrierWait;
    Emit();
  }
  return true;
}

bool Builder::libcudacxxInit(const FunctionDecl &FD, const CallExpr &C) {
  const Expr *Bar = events::libcudacxxInitBarrier(FD, C);
  if (!Bar)
    return false;
  OpValue V;
  V.E = V.Written = Bar;
  Event E;
  E.Kind = EventKind::BarrierInit;
  const VarDecl *Var = nullptr;
  E.Object = barrierObject(V, Var, E.FixedObject, &E);
  emit(E, C.getBeginLoc(), std::nullopt, Var);
  return true;
}

void Builder::intrinsicEvent(events::IntrinsicRole Role, SourceLocation Loc) {
  if (Role == events::IntrinsicRole::ThreadSync) {
    simple(EventKind::ThreadSync, Loc);
  } else if (Role == events::IntrinsicRole::WarpSync) {
    Event E;
    E.Kind = EventKind::ThreadSync;
    E.Warp = true;
    emit(E, Loc);
  } else if (Role == events::IntrinsicRole::Opaque)
    simple(EventKind::Opaque, Loc);
}

const Expr *Builder::cuteBuffer(const Expr *E) {
  llvm::SmallVector<const Expr *, 8> Sources;
  cute::tensorSources(E, Sources);
  const Expr *Found = nullptr;
  const VarDecl *Root = nullptr;
  std::string RootPath;
  for (const Expr *S : Sources) {
    bool Whole = false;
    std::string Path;
    const VarDecl *VD =
        sharedRoot(S, Whole, bindings(), &Path, false, &Aliases);
    if (!VD)
      continue;
    if (Found && (VD != Root || Path != RootPath))
      return nullptr; // two buffers: the view's is not known
    Found = S;
    Root = VD;
    RootPath = Path;
  }
  return Found;
}

const Expr *Builder::addressOf(const Expr *E) {
  const Expr *&A = AddressOf[E];
  if (!A)
    A = UnaryOperator::Create(Ctx, const_cast<Expr *>(E), UO_AddrOf,
                              Ctx.getPointerType(E->getType()), VK_PRValue,
                              OK_Ordinary, E->getBeginLoc(),
                              /*CanOverflow=*/false, FPOptionsOverride());
  return A;
}

bool Builder::cuteAlgorithm(const CallExpr &C) {
  OpSite Site{&C, C.getBeginLoc(), OpApi::Cute, /*Predicated=*/false};
  auto Bind = [&](const Expr *E) {
    OpValue V;
    V.Present = E != nullptr;
    V.Written = E;
    V.E = E ? Finder.lookThrough(E) : nullptr;
    return V;
  };
  if (std::optional<cute::TmaLoadCopy> Copy = cute::tmaLoadCopy(C)) {
    auto T = at<TensorCopy>(Site);
    T.Direction = device::TensorDirection::Load;
    // with() takes the barrier object by reference: its address.
    const Expr *Bar = Copy->Barrier;
    if (Bar->isGLValue() && !Bar->getType()->isPointerType())
      Bar = addressOf(Bar);
    T.Barrier = Bind(Bar);
    T.Smem = Bind(cuteBuffer(Copy->Dst));
    DeviceOp Op = T;
    barrierEvent(EventKind::BarrierUse, T.Barrier, Op, Site);
    loadEvent(T.Smem, T.Barrier, true, Op, Site);
    return true;
  }
  llvm::SmallVector<const Expr *, 2> Reads = cute::gemmOperands(C);
  if (Reads.empty())
    return false;
  for (const Expr *R : Reads) {
    const Expr *Buf = cuteBuffer(R);
    // A shared operand the model cannot name: the walk of the body is
    // too deep, so the call stays opaque.
    if (!Buf)
      return false;
    (void)Buf;
  }
  for (const Expr *R : Reads)
    accessOf(cuteBuffer(R), EventKind::GenericRead, /*Mma=*/true,
             C.getBeginLoc());
  return true;
}

} // namespace kmodel

} // namespace clang::tidy::tma
