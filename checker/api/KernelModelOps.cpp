//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's device ops: one op of the device-op model into its events (bulk
// and tensor copies with their buffer and stage, barrier ops, fences), and an
// asm statement's instructions the op model does not hold (bulk groups,
// thread barriers, shared-memory accesses, MMA reads).
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

const VarDecl *Builder::copyEvent(Event &E, EventKind Kind, bool Tensor,
                                  const Expr *Buf, const OpValue *Map,
                                  bool &Whole, PoolRegion *At) {
  if (Map)
    E.Map = mapObject(*Map);
  E.Kind = Kind;
  E.Tensor = Tensor;
  std::string Path;
  PoolRegion Region;
  const VarDecl *VD =
      Buf ? sharedRoot(Buf, Whole, bindings(), &Path, false, &Aliases, &Region)
          : nullptr;
  if (VD)
    E.Object = objectOf(VD, Path, Region);
  PendingUnnamed = !VD && Buf ? unnamedWhy(Buf) : "";
  if (At)
    *At = Path.empty() ? Region : PoolRegion{0, true, false};
  return VD;
}

std::string Builder::unnamedWhy(const Expr *Buf) {
  // Down the address to the variable it starts from, through the helpers'
  // parameters and the locals that stand for their initialiser.
  const Expr *E = Buf;
  for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      E = M->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
    } else if (const auto *B = dyn_cast<BinaryOperator>(E);
               B && B->isAdditiveOp() && B->getType()->isPointerType()) {
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD)
        return "";
      if (const auto *P = dyn_cast<ParmVarDecl>(VD))
        if (const Expr *Arg = bindings() ? bindings()->lookup(P) : nullptr) {
          E = Arg;
          continue;
        }
      const std::string Name = "'" + VD->getNameAsString() + "'";
      if (VD->hasAttr<CUDASharedAttr>())
        return "";
      if (isa<ParmVarDecl>(VD))
        return "its address comes from the parameter " + Name +
               ", no __shared__ variable of the kernel";
      const Expr *Init = VD->getInit();
      const auto *Call =
          Init ? dyn_cast<CallExpr>(Init->IgnoreParenImpCasts()) : nullptr;
      if (Call && Call->getDirectCallee() && VD->hasLocalStorage() &&
          (VD->getType()->isReferenceType() ||
           VD->getType()->isPointerType())) {
        std::string Callee = Call->getDirectCallee()->getNameAsString();
        return "it is " + Name + ", bound to what '" + Callee +
               "' returns" +
               (Callee == "allocate"
                    ? " (a block of an allocator over the dynamic pool: the "
                      "model names __shared__ variables and what casts, "
                      "offsets and accessors derive from them, not an "
                      "allocator's blocks)"
                    : "");
      }
      if (Init && VD->hasLocalStorage() &&
          (VD->getType()->isReferenceType() ||
           VD->getType()->isPointerType())) {
        E = Init;
        continue;
      }
      return "its address comes from " + Name +
             ", no __shared__ variable the model follows it to";
    } else {
      return "";
    }
  }
  return "";
}

void Builder::loadEvent(const OpValue &Dst, const OpValue &Barrier, bool Tensor,
                        const DeviceOp &Op, const OpSite &Site,
                        const OpValue *Map) {
  Event E;
  bool Whole = false;
  const VarDecl *VD = copyEvent(E, EventKind::Load, Tensor, Dst.E, Map, Whole);
  E.WholeObject = Whole;
  if (VD && !Whole)
    stage(Dst.E, /*Element=*/false, E);
  const VarDecl *BarVar = nullptr;
  bool Fixed = false;
  E.Barrier = barrierObject(Barrier, BarVar, Fixed, nullptr, &E);
  // Spelt in the user's code: the toolkit's own copies (memcpy_async's
  // bulk path) may take cp.async instead at run time.
  E.BulkOnly = Site.Api != OpApi::Libcudacxx && Site.Loc.isValid() &&
               !Ctx.getSourceManager().isInSystemHeader(
                   Ctx.getSourceManager().getFileLoc(Site.Loc));
  predicated(Site, [&] { emit(E, Site.Loc, Op, VD); });
}

std::optional<std::uint64_t> Builder::stage(const Expr *Addr, bool Element,
                                            Event &E) {
  auto Subst = [this](const VarDecl *VD) { return substitute(VD); };
  std::optional<StageSlice> S = Slices.sliceOf(
      Addr, Element, Stack.front(), BodyStmt, LoopyHelpers > 0, Subst);
  // Spelled with the helper's own locals and loops (`&s.state[stage]` in
  // a helper's loop, `stage` its local): the same stage only in the same
  // call of the helper, whose key therefore names the call.
  if (!S && InHelper && HelperStmt) {
    S = Slices.sliceOf(Addr, Element, Stack.back(), HelperStmt,
                       /*InLoop=*/false, Subst);
    if (S)
      S->Key = "call" + std::to_string(Calls.back()) + ":" + S->Key;
  }
  if (!S)
    return std::nullopt;
  nameStage(*S, E);
  return S->Bytes;
}

void Builder::nameStage(const StageSlice &S, Event &E) {
  auto [It, Inserted] =
      SliceIds.try_emplace(S.Key, static_cast<int>(SliceIds.size()));
  E.Slice = It->second;
  E.Period = S.Period;
  E.Once = S.Once;
  E.PerThread = S.PerThread;
}

bool Builder::stageWithin(const Expr *Addr, Event &E) {
  // In a helper: its parameters stand for the call's arguments, at the
  // kernel's statement of the call.
  if (Stack.empty() || !BodyStmt || LoopyHelpers > 0)
    return false;
  auto Subst = [this](const VarDecl *VD) { return substitute(VD); };
  std::optional<StageSlice> S = Slices.sliceWithin(
      Addr, Stack.front(), BodyStmt, /*InLoop=*/false, Subst);
  if (!S)
    return false;
  nameStage(*S, E);
  return true;
}

void Builder::storeEvent(const OpValue &Src, const OpValue *Size, bool Tensor,
                         const DeviceOp &Op, const OpSite &Site,
                         const OpValue *Map) {
  Event E;
  bool Whole = false;
  PoolRegion Region;
  const VarDecl *VD =
      copyEvent(E, EventKind::Store, Tensor, Src.E, Map, Whole, &Region);
  if (VD) {
    // A tensor store from the start of a buffer (`&s.C[0]`) or of a
    // region of the dynamic pool (`smem + OFF`) reads it as a whole, as
    // one of the buffer named alone does.
    E.WholeObject =
        Whole ||
        (Tensor &&
         ((VD->hasExternalStorage() && Region.Known && Region.Start) ||
          events::startOfBuffer(
              Src.E, [this](const VarDecl *V) { return substitute(V); }, Ctx,
              VD)));
    // A 1-D copy reads all of the buffer only when its size says so.
    if (Whole && Size) {
      // Through a helper's size parameter (`bulkStore(dst, buf, n)`).
      // An immediate size has no expression (a PTX literal).
      std::optional<std::uint64_t> Bytes = Size->Imm;
      if (!Bytes && Size->Written)
        Bytes = foldInt(bound(Size->Written), Ctx);
      E.WholeObject =
          Bytes && !VD->getType()->isIncompleteType() &&
          *Bytes == static_cast<std::uint64_t>(
                        Ctx.getTypeSizeInChars(VD->getType()).getQuantity());
    }
    // A copy of one stage: a tensor store from its start, or a 1-D copy
    // of its size, reads all of it.
    if (!E.WholeObject)
      if (std::optional<std::uint64_t> StageBytes =
              stage(Src.E, /*Element=*/false, E)) {
        std::optional<std::uint64_t> Bytes;
        if (Size)
          Bytes = Size->Imm;
        if (Size && !Bytes && Size->Written)
          Bytes = foldInt(bound(Size->Written), Ctx);
        E.WholeSlice =
            Tensor || (*StageBytes && Bytes && *Bytes == *StageBytes);
      }
  }
  predicated(Site, [&] { emit(E, Site.Loc, Op, VD); });
}

void Builder::opEvent(const DeviceOp &Op) {
  using device::OpKind;
  const OpSite &Site = siteOf(Op);
  switch (kindOf(Op)) {
  case OpKind::BulkCopy: {
    const auto &B = std::get<BulkCopy>(Op);
    if (B.Direction == device::BulkDirection::SharedToGlobal ||
        B.Direction == device::BulkDirection::SharedToCluster)
      storeEvent(B.Src, &B.Size, false, Op, Site);
    else if (B.Direction == device::BulkDirection::GlobalToShared) {
      barrierEvent(EventKind::BarrierUse, B.Barrier, Op, Site);
      loadEvent(B.Dst, B.Barrier, false, Op, Site);
    }
    if (B.Direction == device::BulkDirection::SharedToCluster)
      barrierEvent(EventKind::BarrierUse, B.Barrier, Op, Site);
    return;
  }
  case OpKind::TensorCopy: {
    const auto &T = std::get<TensorCopy>(Op);
    if (T.Direction == device::TensorDirection::Store ||
        T.Direction == device::TensorDirection::Reduce)
      storeEvent(T.Smem, nullptr, true, Op, Site, &T.Map);
    else if (T.Direction == device::TensorDirection::Load) {
      barrierEvent(EventKind::BarrierUse, T.Barrier, Op, Site);
      loadEvent(T.Smem, T.Barrier, true, Op, Site, &T.Map);
    }
    return;
  }
  case OpKind::ExpectTx: {
    const auto &X = std::get<ExpectTx>(Op);
    barrierEvent(EventKind::BarrierUse, X.Barrier, Op, Site,
                 X.WithArrive ? ::tma::rules::ordering::UseRole::Other
                              : ::tma::rules::ordering::UseRole::Expect);
    return;
  }
  case OpKind::Arrive:
    barrierEvent(EventKind::BarrierUse, std::get<Arrive>(Op).Barrier, Op, Site,
                 ::tma::rules::ordering::UseRole::Arrive);
    return;
  case OpKind::BarrierInit:
    barrierEvent(EventKind::BarrierInit, std::get<BarrierInit>(Op).Barrier, Op,
                 Site);
    return;
  case OpKind::Wait:
    barrierEvent(EventKind::BarrierWait, std::get<Wait>(Op).Barrier, Op, Site,
                 {}, &std::get<Wait>(Op));
    return;
  case OpKind::Fence: {
    const auto &F = std::get<Fence>(Op);
    // Only a proxy fence that covers shared::cta orders shared memory.
    if (F.Kind == device::FenceKind::ProxyAsync &&
        F.FencedSpace != device::Space::Global) {
      Event E;
      E.Kind = EventKind::ProxyFence;
      emit(E, Site.Loc, Op);
    } else if (F.Kind == device::FenceKind::TensormapAcquire) {
      Event E;
      E.Kind = EventKind::MapAcquire;
      E.Map = mapObject(F.Address);
      emit(E, Site.Loc, Op);
    }
    return;
  }
  case OpKind::StBulk:
    // A shared-memory fill the event model has no word for.
    simple(EventKind::Opaque, Site.Loc);
    return;
  }
}

std::optional<std::uint64_t> Builder::asmDepth(const GCCAsmStmt &S,
                                               llvm::StringRef Operand) {
  Operand = Operand.trim();
  std::uint64_t N = 0;
  if (!Operand.getAsInteger(10, N))
    return N;
  unsigned Index = 0;
  if (!Operand.consume_front("%") || Operand.getAsInteger(10, Index))
    return std::nullopt;
  if (Index < S.getNumOutputs())
    return std::nullopt;
  Index -= S.getNumOutputs();
  if (Index >= S.getNumInputs())
    return std::nullopt;
  return foldInt(S.getInputExpr(Index), Ctx);
}

void Builder::asmEvents(const GCCAsmStmt &S) {
  SourceLocation Loc = S.getAsmLoc();
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text) {
    simple(EventKind::Opaque, Loc);
    return;
  }
  std::vector<DeviceOp> Ops = Finder.opsOf(S);
  for (const DeviceOp &Op : Ops)
    opEvent(Op);
  // The instructions the op model does not hold: thread barriers, bulk
  // groups, inval, other fences; and TMA instructions it did not
  // recognise, which make the statement opaque.
  unsigned TmaLines = 0;
  using events::AsmLineKind;
  for (const events::AsmLine &L : events::asmLines(Text->getString())) {
    switch (L.Kind) {
    case AsmLineKind::Commit:
      simple(EventKind::Commit, Loc);
      break;
    case AsmLineKind::WaitGroup: {
      Event E;
      E.Kind = EventKind::WaitGroup;
      E.Depth = asmDepth(S, L.Operands);
      emit(E, Loc);
      break;
    }
    case AsmLineKind::SharedWrite:
      // A generic store to shared memory at a 32-bit shared address.
      asmAccess(S, L.Address, EventKind::GenericWrite, Loc);
      break;
    case AsmLineKind::SharedRead:
      asmAccess(S, L.Address, EventKind::GenericRead, Loc);
      break;
    case AsmLineKind::MmaRead:
      for (unsigned N : events::mmaDescriptorOperands(L.Opcode, L.Operands))
        mmaRead(S, N, Loc);
      break;
    case AsmLineKind::CpAsyncWait:
      // cp.async copies (cuda::pipeline<thread_scope_thread>'s
      // memcpy_async) complete here: a wait on no barrier the model names.
      {
        Event E;
        E.Kind = EventKind::BarrierWait;
        E.CpAsyncGroups = true;
        emit(E, Loc);
        break;
      }
    case AsmLineKind::ThreadSync: {
      Event E;
      E.Kind = EventKind::ThreadSync;
      llvm::StringRef Op = L.Opcode;
      if (Op.starts_with("barrier.cluster.arrive"))
        E.SyncHalf = Event::Half::Arrive;
      else if (Op.starts_with("barrier.cluster.wait"))
        E.SyncHalf = Event::Half::Wait;
      emit(E, Loc);
      break;
    }
    case AsmLineKind::WarpSync:
      intrinsicEvent(events::IntrinsicRole::WarpSync, Loc);
      break;
    case AsmLineKind::Inval:
      simple(EventKind::BarrierInval, Loc);
      break;
    case AsmLineKind::MapWrite:
      mapEvent(EventKind::MapWrite, asmMapOperand(S, L.Operands), Loc);
      break;
    case AsmLineKind::Tma:
      ++TmaLines;
      break;
    case AsmLineKind::Opaque:
      simple(EventKind::Opaque, Loc);
      if (!L.Opcode.starts_with("mbarrier") && !Out.Events.empty() &&
          Out.Seq.back().Kind == EventKind::Opaque)
        Out.Events.back().NoInit = true;
      break;
    }
  }
  if (TmaLines > Ops.size())
    simple(EventKind::Opaque, Loc);
}

} // namespace kmodel

} // namespace clang::tidy::tma
