//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// MapLink's device side: from a device op's tensor-map operand (through
// helpers, locals and struct fields) to the kernel parameter and the
// launches that pass it, and which kernels may rewrite maps in global
// memory. The host side follows each launch argument to its encode call
// (api/MapLinkHost.cpp).
//
//===----------------------------------------------------------------------===//

#include "api/MapLink.h"
#include "api/BarrierPhases.h"
#include "api/MapLinkPaths.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

using namespace maplink;

rules::CopyMode copyModeOf(::tma::device::TensorMode M) {
  using ::tma::device::TensorMode;
  switch (M) {
  case TensorMode::Tile:
    return rules::CopyMode::Tile;
  case TensorMode::TileGather4:
    return rules::CopyMode::Gather4;
  case TensorMode::TileScatter4:
    return rules::CopyMode::Scatter4;
  case TensorMode::Im2col:
    return rules::CopyMode::Im2col;
  case TensorMode::Im2colNoOffs:
    return rules::CopyMode::Im2colNoOffs;
  case TensorMode::Im2colW:
    return rules::CopyMode::Im2colW;
  case TensorMode::Im2colW128:
    return rules::CopyMode::Im2colW128;
  }
  return rules::CopyMode::Tile;
}

MapLinker::Place MapLinker::callerPlace(const CallContext *Context) {
  return Place{Folder.enclosingFunction(Context->Call), Context->Call,
               Context->Parent};
}

const FunctionDecl *MapLinker::launchedKernel(const CallExpr &Call,
                                              const CallContext *Context) {
  const Expr *K = nullptr;
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(&Call))
    K = KC->getCallee();
  else if (launchArgumentOffset(Call))
    K = Call.getArg(1);
  for (unsigned Steps = 0; K && Steps < 8; ++Steps) {
    if (const FunctionDecl *F = functionOf(K))
      return F;
    const VarDecl *Var = varOf(K->IgnoreParenImpCasts());
    if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Var)) {
      K = argumentFor(Param, Context);
      Context = Context ? Context->Parent : nullptr;
    } else if (Var && Var->hasLocalStorage() && Folder.isNeverWritten(Var)) {
      K = Var->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool MapLinker::bodyMayWriteGlobalMaps(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return asmWritesGlobalMap(*Asm);
  if (const auto *L = dyn_cast<LambdaExpr>(S))
    return bodyMayWriteGlobalMaps(L->getBody(), Depth);
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (callWritesGlobalMap(*Call))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A call through a pointer may run anything.
    if (!Callee && !isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      return true;
    if (Callee && mayWriteGlobalMaps(Callee, Depth + 1))
      return true;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    if (mayWriteGlobalMaps(CE->getConstructor(), Depth + 1))
      return true;
  for (const Stmt *Child : S->children())
    if (bodyMayWriteGlobalMaps(Child, Depth))
      return true;
  return false;
}

bool MapLinker::mayWriteGlobalMaps(const FunctionDecl *Fn, unsigned Depth) {
  // Builtins and the toolkit's functions (CCCL's atomics call through
  // function references; cuda::ptx's map writers are known by name above)
  // write no map.
  const SourceManager &SM = Ctx.getSourceManager();
  if (Fn->getBuiltinID() ||
      SM.isInSystemHeader(SM.getFileLoc(Fn->getLocation())))
    return false;
  const FunctionDecl *Def = nullptr;
  if (!Fn->hasBody(Def)) {
    // A user function defined elsewhere may, through a parameter that is
    // a pointer (or reference) to non-const.
    return Fn->isVariadic() ||
           llvm::any_of(Fn->parameters(), [](const ParmVarDecl *P) {
             QualType T = P->getType();
             return (T->isPointerType() || T->isReferenceType()) &&
                    !T->getPointeeType().isConstQualified();
           });
  }
  if (auto It = MapWriters.find(Def); It != MapWriters.end()) {
    // A recursion in progress: the walk of its first call decides; an
    // answer that counted on it is not kept.
    if (llvm::is_contained(MapWalk, Def))
      Provisional = true;
    return It->second;
  }
  // A call chain deeper than this is not followed: it may write (and the
  // answer is not kept, so that it does not depend on the order of
  // questions).
  if (Depth > 24) {
    Provisional = true;
    return true;
  }
  MapWriters[Def] = false;
  MapWalk.push_back(Def);
  const bool Outer = Provisional;
  Provisional = false;
  const bool May = bodyMayWriteGlobalMaps(Def->getBody(), Depth);
  MapWalk.pop_back();
  if (Provisional && !May)
    MapWriters.erase(Def);
  else
    MapWriters[Def] = May;
  Provisional |= Outer;
  return May;
}

std::optional<KnownMap> MapLinker::mapOf(const Expr *Map,
                                         const CallContext *Context) {
  if (!Map)
    return std::nullopt;
  auto [It, New] = Memo.try_emplace({Map, Context});
  if (!New)
    return It->second;
  // Device side: follow parameters out through the calls of Context until
  // one of them is a kernel launch. E is a pointer to the map, or an lvalue
  // of the map itself (Object); Path leads from E's object to the map.
  const Expr *E = Map;
  bool Object = false;
  AccessPath Path;
  const CallContext *C = Context;
  for (unsigned Steps = 0; Steps < MaxLinkDepth; ++Steps) {
    const Expr *Inner = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Inner);
        !Object && U && U->getOpcode() == UO_AddrOf) {
      Inner = U->getSubExpr()->IgnoreParenImpCasts();
      Object = true;
    }
    // `p.tma_a` of a `const CUtensorMap *tma_a` field (`p->tma_a` of a
    // pointer to the struct): the map is the field's pointee.
    if (const auto *ME = dyn_cast<MemberExpr>(Inner);
        !Object && ME && isa<FieldDecl>(ME->getMemberDecl()) &&
        ME->getType()->isPointerType()) {
      Path = prepend({cast<FieldDecl>(ME->getMemberDecl()), 0, true}, Path);
      Inner = ME->getBase()->IgnoreParenCasts();
      Object = !ME->isArrow();
    }
    // `p.tma_a`, `maps[1]`, `p->desc`: the map is a part of a larger object.
    if (Object) {
      bool ThroughPointer = false;
      Inner = peelObject(Inner, Path, ThroughPointer, Ctx);
      Object = !ThroughPointer;
      // `*p` of a pointer to the object: the pointer.
      if (const auto *U = dyn_cast<UnaryOperator>(Inner);
          Object && U && U->getOpcode() == UO_Deref) {
        Inner = U->getSubExpr()->IgnoreParenCasts();
        Object = false;
      }
    }
    // A getter of the map's object (`src.get_tma<ST, axis>()` returning
    // `&this->tma_descs...`): the call's object, the fields below it.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Inner)) {
      AccessPath Fields;
      const Expr *Obj = getterObject(MC, Fields, 0);
      if (!Obj)
        break;
      Fields.append(Path.begin(), Path.end());
      Path = std::move(Fields);
      Object = !Obj->getType()->isPointerType();
      if (Object) {
        bool ThroughPointer = false;
        Inner = peelObject(Obj->IgnoreParenCasts(), Path, ThroughPointer, Ctx);
        Object = !ThroughPointer;
      } else {
        Inner = Obj->IgnoreParenCasts();
      }
    }
    // A local pointer (or reference) of the device function: what it was
    // initialised with when nothing changes it later, or the one map that
    // every assignment of it designates.
    if (const VarDecl *Local = varOf(Inner);
        Local && !isa<ParmVarDecl>(Local) && Local->hasLocalStorage() &&
        !Local->hasAttr<CUDASharedAttr>()) {
      const bool Ref = Local->getType()->isReferenceType();
      if (!Ref && (Object || !Local->getType()->isPointerType()))
        break;
      if (Ref || Folder.isNeverWritten(Local)) {
        if (!Local->getInit())
          break;
        E = Local->getInit();
        Object = Ref;
        continue;
      }
      It->second = reassignedMap(Local, Path, C);
      return It->second;
    }
    // A __constant__ map, set by the host with cudaMemcpyToSymbol. (A
    // __device__ map may also be written by device code: not followed.)
    if (const VarDecl *Var = varOf(Inner); Object && Var &&
                                           Var->hasGlobalStorage() &&
                                           Var->hasAttr<CUDAConstantAttr>()) {
      const CallExpr *Copy = nullptr;
      if (auto L = fromSymbol(Var, Path, Copy)) {
        It->second = describe(*L);
        It->second->Handoff = Copy;
        It->second->ToSymbol = true;
      }
      return It->second;
    }
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(varOf(Inner));
    // A lambda refers to the enclosing function's parameters directly: go
    // out to the call of that function.
    const auto *ParamFn =
        Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    while (ParamFn && C &&
           C->Callee->getCanonicalDecl() != ParamFn->getCanonicalDecl() &&
           isa<CXXMethodDecl>(C->Callee) &&
           cast<CXXMethodDecl>(C->Callee)->getParent()->isLambda())
      C = C->Parent;
    const Expr *Arg = Param ? argumentFor(Param, C) : nullptr;
    if (!Arg)
      break;
    const bool Ref = Param->getType()->isReferenceType();
    if (C->Callee->hasAttr<CUDAGlobalAttr>()) {
      // A map in global memory that the kernel itself may rewrite
      // (tensormap.replace) is not the one the host encoded; a by-value
      // map is the kernel's own parameter, which it cannot rewrite.
      if (!(Object && !Ref && !hasDeref(Path)) && mayWriteGlobalMaps(C->Callee))
        break;
      // The launch: Arg is host code.
      Place P = callerPlace(C);
      if (!P.Fn)
        break;
      std::optional<LinkedMap> L = Object || Ref ? fromValue(Arg, P, 0, Path)
                                                 : fromPointer(Arg, P, 0, Path);
      if (L) {
        It->second = describe(*L);
        It->second->Handoff = C->Call;
      }
      return It->second;
    }
    // A device helper's by-value map is a local copy: TMA cannot use it.
    // A by-value struct still holds the caller's pointer field, when the
    // helper does not change its copy.
    const bool CopiedPointer =
        Object && !Ref && hasDeref(Path) && Folder.isNeverWritten(Param);
    if (Object && !Ref && !CopiedPointer)
      break;
    Object = Ref || CopiedPointer;
    E = CopiedPointer ? stripValue(Arg) : Arg;
    C = C->Parent;
  }
  return std::nullopt;
}

std::optional<KnownMap> MapLinker::reassignedMap(const VarDecl *Local,
                                                 PathRef Path,
                                                 const CallContext *Context) {
  std::optional<std::vector<const Expr *>> Sources =
      Path.empty() ? Folder.assignmentsOf(Local) : std::nullopt;
  if (!Sources)
    return std::nullopt;
  if (const Expr *Init = Local->getInit())
    Sources->push_back(Init);
  std::optional<KnownMap> One;
  for (const Expr *S : *Sources) {
    // A null pointer designates no map: a copy through it would fault.
    if (S->IgnoreParenCasts()->isNullPointerConstant(
            Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    std::optional<KnownMap> M = mapOf(S, Context);
    if (!M || (One && (One->Link.Encode != M->Link.Encode ||
                       One->Link.Context != M->Link.Context)))
      return std::nullopt;
    One = M;
  }
  return One;
}

} // namespace clang::tidy::tma
