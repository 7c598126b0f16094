//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/TxOps.h"
#include "api/CuteTensors.h"
#include "api/KernelEvents.h"
#include "api/KernelModel.h"
#include "api/LoopParts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>

namespace clang::tidy::tma {

/// The context an op of \p T folds in when its function runs in \p C.
const CallContext *opContext(ConstantFolder &Folder, const TxOp &T,
                             const CallContext *C) {
  for (const auto &[Call, Callee] : T.Frames)
    C = Folder.contextFor(Call, Callee, C);
  return C;
}

void collectRefs(const Stmt *S, std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    Out.push_back(D);
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    // Captures refer to the enclosing variables from the body.
    collectRefs(L->getBody(), Out);
    for (const Expr *Init : L->capture_inits())
      collectRefs(Init, Out);
    return;
  }
  for (const Stmt *Child : S->children())
    collectRefs(Child, Out);
}

namespace {

/// Whether every use of the field \p FD of `this` in \p Body lies within
/// one of \p Sites.
bool onlyFeeds(const Stmt *Body, const FieldDecl *FD, const ParentMap &PM,
               const llvm::SmallPtrSetImpl<const Stmt *> &Sites) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *M = dyn_cast<MemberExpr>(S);
        M && M->getMemberDecl() == FD &&
        isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) &&
        llvm::none_of(Sites,
                      [&](const Stmt *Site) { return isWithin(PM, M, Site); }))
      return false;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return true;
}

} // namespace

bool sameKey(const BarrierIdentity &A, const BarrierIdentity &B) {
  return A.Key == B.Key;
}

namespace {

/// Whether \p Cur, the parent of \p Child, dereferences the address that
/// Child computes: a subscript of it, `*p`, `p->f`.
bool dereferences(const Stmt *Cur, const Stmt *Child) {
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(Cur))
    return A->getBase() == Child;
  if (const auto *U = dyn_cast<UnaryOperator>(Cur))
    return U->getOpcode() == UO_Deref;
  if (const auto *M = dyn_cast<MemberExpr>(Cur))
    return M->isArrow() && M->getBase() == Child;
  return false;
}

/// Whether \p Cur reads or writes the value of the lvalue \p Child, which
/// a dereference of a pool or buffer address designates, as a value that
/// cannot hold a barrier's address (a float, a bf16, a vector): a tile
/// element of another region of the pool is no use of the barrier.
/// An integer or pointer read may be an address kept in memory: not so.
bool accessesNonAddressValue(const Stmt *Cur, const Stmt *Child) {
  const Expr *Read = nullptr;
  if (const auto *C = dyn_cast<ImplicitCastExpr>(Cur);
      C && C->getCastKind() == CK_LValueToRValue)
    Read = C;
  // A store of such a value through the address (`tile[i] = x`, `+=`).
  else if (const auto *B = dyn_cast<BinaryOperator>(Cur);
           B && B->isAssignmentOp() && B->getLHS() == Child)
    Read = B->getLHS();
  else if (const auto *K = dyn_cast<CXXConstructExpr>(Cur);
           K && K->getNumArgs() == 1 && K->getArg(0) == Child &&
           K->getConstructor()->isCopyOrMoveConstructor())
    Read = K;
  if (!Read)
    return false;
  QualType T = Read->getType();
  return !T->isIntegerType() && !T->isPointerType() && !T->isEnumeralType() &&
         (T->isRealFloatingType() || T->isRecordType() || T->isVectorType());
}

} // namespace

/// Whether a use \p DRE of the barrier (or of a local holding its address)
/// only feeds recognised ops, address conversions, the barrier's own
/// arrive/wait members or its init.
bool isKnownUse(const ParentMap &PM, const DeclRefExpr *DRE,
                const llvm::SmallPtrSetImpl<const Stmt *> &OpSites,
                DeviceOpsFinder &Finder, PeerAddresses &Peers) {
  const Stmt *Child = DRE;
  bool Derefed = false;
  for (const Stmt *Cur = PM.getParent(DRE); Cur;
       Child = Cur, Cur = PM.getParent(Cur)) {
    if (OpSites.count(Cur))
      return true;
    // `sizeof(sram.vec)`, `alignof(...)`: an unevaluated operand.
    if (isa<UnaryExprOrTypeTraitExpr>(Cur))
      return true;
    if (Derefed && accessesNonAddressValue(Cur, Child))
      return true;
    if (dereferences(Cur, Child))
      Derefed = true;
    else if (const auto *U = dyn_cast<UnaryOperator>(Cur);
             U && U->getOpcode() == UO_AddrOf)
      Derefed = false;
    if (isa<DeclStmt>(Cur))
      return true;
    // The address mapped to a peer CTA by an asm of its own, and the local
    // it writes, followed as a holder of the address (taintedBy).
    if (const auto *A = dyn_cast<GCCAsmStmt>(Cur))
      if (auto M = mapaAsm(*A); M && (M->Addr == Child || M->Out == Child))
        return true;
    if (isa<GCCAsmStmt>(Cur) || isa<AsmStmt>(Cur) || isa<LambdaExpr>(Cur) ||
        isa<ReturnStmt>(Cur) || isa<CXXConstructExpr>(Cur) ||
        isa<InitListExpr>(Cur))
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(Cur); B && B->isAssignmentOp())
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(Cur)) {
      // An address helper (`smem_u32(&bar)`) keeps the barrier's identity.
      if (Finder.addressHelperArgument(*Call) == Child ||
          Peers.mappedArgument(*Call) == Child)
        continue;
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || !FD->getIdentifier())
        return false;
      StringRef Name = FD->getName();
      if (const auto *M = dyn_cast<CXXMemberCallExpr>(Call))
        return Child == M->getCallee() &&
               llvm::is_contained({"arrive", "wait", "arrive_and_wait",
                                   "arrive_and_drop", "try_wait",
                                   "try_wait_parity", "wait_parity"},
                                  Name);
      if (Name == "__cvta_generic_to_shared")
        continue;
      if (Name == "init" &&
          FD->getQualifiedNameAsString().rfind("cuda::", 0) == 0)
        return true;
      return false;
    }
    if (!isa<Expr>(Cur))
      return true;
  }
  return true;
}

/// The variable \p Root and the locals initialised from it (directly or
/// through other such locals): what holds the barrier's address. The result
/// of a call is no address of it, except that of an address helper: an
/// arrival token (`auto t = cuda::device::barrier_arrive_tx(bar, 1, n)`,
/// `bar.arrive()`) or an mbarrier state is a value.
llvm::SmallPtrSet<const VarDecl *, 4>
taintedBy(const VarDecl *Root, llvm::ArrayRef<const DeclRefExpr *> BodyRefs,
          const ParentMap &PM, DeviceOpsFinder &Finder, PeerAddresses &Peers) {
  llvm::SmallPtrSet<const VarDecl *, 4> Tainted;
  Tainted.insert(Root);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const DeclRefExpr *D : BodyRefs) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD || !Tainted.count(VD))
        continue;
      const Stmt *Child = D;
      bool Derefed = false;
      for (const Stmt *P = PM.getParent(D); P; Child = P, P = PM.getParent(P)) {
        // A value read through the address holds no address of it.
        if (Derefed && accessesNonAddressValue(P, Child))
          break;
        if (dereferences(P, Child))
          Derefed = true;
        else if (const auto *U = dyn_cast<UnaryOperator>(P);
                 U && U->getOpcode() == UO_AddrOf)
          Derefed = false;
        if (const auto *Call = dyn_cast<CallExpr>(P);
            Call && Finder.addressHelperArgument(*Call) != Child &&
            Peers.mappedArgument(*Call) != Child)
          break;
        // `asm("mapa..." : "=r"(peer) : "r"(addr), "r"(rank))`: peer holds
        // the address (in another CTA).
        if (const auto *A = dyn_cast<GCCAsmStmt>(P)) {
          if (auto M = mapaAsm(*A); M && M->Addr == Child)
            if (const auto *O = dyn_cast<DeclRefExpr>(M->Out->IgnoreParens()))
              if (const auto *V = dyn_cast<VarDecl>(O->getDecl()))
                Grew |= Tainted.insert(V).second;
          break;
        }
        if (const auto *DS = dyn_cast<DeclStmt>(P)) {
          for (const Decl *Dd : DS->decls())
            if (const auto *V = dyn_cast<VarDecl>(Dd))
              Grew |= Tainted.insert(V).second;
          break;
        }
        if (!isa<Expr>(P))
          break;
      }
    }
  }
  return Tainted;
}

std::string textOf(const Expr *E, const BarrierIdentity &Id,
                   const SourceManager &SM, const LangOptions &LO) {
  if (!Id.WindowName.empty())
    return Id.WindowName;
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  if (!E->getBeginLoc().isMacroID() && !E->getEndLoc().isMacroID()) {
    StringRef T = Lexer::getSourceText(R, SM, LO);
    if (!T.empty() && !T.contains('\n'))
      return T.str();
  }
  return Id.Root->getName().str();
}

/// Whether \p Fn is, or lies in, a template instantiation.
bool isInInstantiation(const FunctionDecl *Fn) {
  for (const DeclContext *DC = Fn; DC; DC = DC->getParent()) {
    if (const auto *F = dyn_cast<FunctionDecl>(DC);
        F && F->isTemplateInstantiation())
      return true;
    if (isa<ClassTemplateSpecializationDecl>(DC))
      return true;
  }
  return false;
}

namespace {

/// The barrier operand of a transaction op; null for other ops.
const OpValue *barrierOf(const DeviceOp &Op) {
  if (const auto *E = std::get_if<ExpectTx>(&Op))
    return &E->Barrier;
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    return &B->Barrier;
  if (const auto *T = std::get_if<TensorCopy>(&Op))
    return &T->Barrier;
  if (const auto *W = std::get_if<Wait>(&Op))
    return &W->Barrier;
  return nullptr;
}

/// Why the model does not count what \p Op completes on its barrier as
/// this CTA's expect-tx or copy: how the op is issued; empty when it
/// counts it (a tensor load of one CTA, no multicast, no CTA pair, in a mode
/// whose count tma-rules.md gives; a plain global-to-shared bulk copy; an
/// expect-tx on this CTA's window). The one place that decides a role.
llvm::StringRef uncountedReason(const DeviceOp &Op) {
  if (const auto *E = std::get_if<ExpectTx>(&Op)) {
    if (E->BarrierSpace == device::Space::SharedCluster)
      return "names a cluster-window barrier address";
    if (E->Predicated)
      return "is predicated";
    if (E->Incomplete)
      return "has operands the model does not read";
    return "";
  }
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (B->Reduce != device::ReduceOp::None)
      return "is a reduction";
    if (B->Direction != device::BulkDirection::GlobalToShared)
      return "is no global-to-shared load";
    if (B->CtaMask.Present)
      return "is a multicast";
    if (B->Predicated)
      return "is predicated";
    // .ignore_oob: what completes on the barrier is not documented.
    if (B->IgnoreLeft.Present)
      return "ignores out-of-bounds bytes (.ignore_oob)";
    if (B->Incomplete)
      return "has operands the model does not read";
    return "";
  }
  if (const auto *T = std::get_if<TensorCopy>(&Op)) {
    using device::TensorMode;
    if (T->Reduce != device::ReduceOp::None)
      return "is a reduction";
    if (T->Direction != device::TensorDirection::Load)
      return "is no load";
    if (T->CtaMask.Present)
      return "is a multicast";
    if (T->CtaGroup && *T->CtaGroup != 1)
      return "is a .cta_group::2 load (its bytes complete on the pair's "
             "barrier)";
    if (T->Predicated)
      return "is predicated";
    if (T->Report)
      return "reports to the barrier (.mbarrier::report)";
    if (T->Incomplete)
      return "has operands the model does not read";
    if (!llvm::is_contained(
            {TensorMode::Tile, TensorMode::TileGather4, TensorMode::Im2col},
            T->Mode))
      return "uses a mode the model does not count";
    return "";
  }
  return "completes bytes the model does not count";
}

/// \p Op with no CTA mask (a multicast as the load it would be for one
/// CTA).
DeviceOp withoutMask(DeviceOp Op) {
  if (auto *T = std::get_if<TensorCopy>(&Op))
    T->CtaMask.Present = false;
  else if (auto *B = std::get_if<BulkCopy>(&Op))
    B->CtaMask.Present = false;
  return Op;
}

/// A multicast load that would be counted but for its CTA mask.
bool isCountedMulticast(const DeviceOp &Op) {
  if (const auto *T = std::get_if<TensorCopy>(&Op)) {
    if (!T->CtaMask.Present)
      return false;
  } else if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (!B->CtaMask.Present)
      return false;
  } else {
    return false;
  }
  return uncountedReason(withoutMask(Op)).empty();
}

/// Why the model does not count \p Op on the barrier of the CTA its mapa
/// names (a TxRole::Remote op); empty when it counts it: an expect-tx, a
/// load or DSMEM push (`.cta_group::2` too) whose barrier is the peer's.
llvm::StringRef uncountedRemoteReason(const DeviceOp &Op) {
  if (const auto *E = std::get_if<ExpectTx>(&Op)) {
    if (!E->Predicated && !E->Incomplete)
      return "";
  } else if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if ((B->Direction == device::BulkDirection::GlobalToShared ||
         B->Direction == device::BulkDirection::SharedToCluster) &&
        B->Reduce == device::ReduceOp::None && !B->CtaMask.Present &&
        !B->Predicated && !B->Incomplete && !B->IgnoreLeft.Present &&
        !B->OwnsExpectTx)
      return "";
  } else if (const auto *T = std::get_if<TensorCopy>(&Op)) {
    TensorCopy One = *T;
    One.CtaGroup.reset();
    if (uncountedReason(One).empty())
      return "";
  }
  // How the op is issued when that is why; else its peer's barrier.
  llvm::StringRef Own = uncountedReason(Op);
  return Own.empty() ? "names another CTA's barrier the model cannot place"
                     : Own;
}

} // namespace

/// Whether \p Body holds a return, break, continue, goto or throw under a
/// condition that depends on the CTA's rank in its cluster.
bool rankDependentJump(const Stmt *Body, const ParentMap &PM,
                       ClusterRank &Ranks) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S))
      for (const Stmt *P = PM.getParent(S); P && P != Body;
           P = PM.getParent(P)) {
        const Expr *C = nullptr;
        if (const auto *If = dyn_cast<IfStmt>(P))
          C = If->getCond();
        else if (const auto *Sw = dyn_cast<SwitchStmt>(P))
          C = Sw->getCond();
        else
          C = loopCond(P);
        if (C && Ranks.dependsOnRank(C))
          return true;
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

namespace {

/// Whether something in \p S may leave a loop body early, or skip part of
/// it: break, continue, return, goto, throw.
bool leavesEarly(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, CXXThrowExpr>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return leavesEarly(C); });
}

/// Helpers followed into helpers: the call of a helper and up to three
/// nested ones.
constexpr size_t MaxHelperDepth = 4;

/// How an op or a nested call runs in its helper's call: straight (every
/// if between it and the helper's body folds, the same in every context, and
/// at most one counted loop of a folded trip count lies between), whether
/// it runs at all (an if not taken, a loop of no iteration), and the loop.
struct HelperRun {
  bool Straight = false;
  bool Runs = true;
  const ForStmt *Loop = nullptr;
  const FunctionDecl *LoopIn = nullptr;
  uint64_t Times = 1;
};

/// The context of the helper frames \p Frames (outermost first) called
/// from the checked body with nothing known of its parameters.
const CallContext *
helperContext(llvm::ArrayRef<std::pair<const CallExpr *, const FunctionDecl *>>
                  Frames,
              ConstantFolder &Folder) {
  const CallContext *C = nullptr;
  for (const auto &[Call, Callee] : Frames)
    C = Folder.contextFor(Call, Callee, C);
  return C;
}

/// Whether \p Cond folds, in the helper frames \p Frames called from the
/// checked body with nothing known of its parameters (the null context: so
/// the same in every context the body runs in), and to what.
std::optional<bool>
foldedInCall(const Expr *Cond,
             llvm::ArrayRef<std::pair<const CallExpr *, const FunctionDecl *>>
                 Frames,
             ConstantFolder &Folder) {
  const CallContext *Saved = Folder.currentContext();
  Folder.enterContext(helperContext(Frames, Folder));
  std::optional<FoldedInt> V = Cond ? Folder.foldInt(Cond) : std::nullopt;
  Folder.enterContext(Saved);
  if (!V)
    return std::nullopt;
  return V->Value != 0;
}

/// How the op or nested call \p HS of the helper whose body is \p HBody
/// (the innermost of \p Frames) runs in the helper's call.
HelperRun
helperRun(const ParentMap &HPM, const Stmt *HS, const Stmt *HBody,
          llvm::ArrayRef<std::pair<const CallExpr *, const FunctionDecl *>>
              Frames,
          ConstantFolder &Folder) {
  HelperRun R;
  PhasePlace HP = phasePlaceOf(HPM, HS, HBody);
  if (HP.Unclear)
    return R;
  llvm::SmallVector<std::pair<const IfStmt *, bool>, 4> Branches =
      HP.Branches;
  if (HP.Region != HBody) {
    // One counted loop, straight through its body, of a trip count that
    // folds in the call; the loop itself under folded ifs only.
    const auto *F = dyn_cast_or_null<ForStmt>(HPM.getParent(HP.Region));
    if (!F || F->getBody() != HP.Region || !countedLoopVar(F, HPM) ||
        leavesEarly(F->getBody()))
      return R;
    PhasePlace LP = phasePlaceOf(HPM, F, HBody);
    if (LP.Unclear || LP.Region != HBody)
      return R;
    Branches.append(LP.Branches.begin(), LP.Branches.end());
    const CallContext *Saved = Folder.currentContext();
    Folder.enterContext(helperContext(Frames, Folder));
    std::optional<uint64_t> N = tripCount(F, HPM, Folder);
    Folder.enterContext(Saved);
    if (!N)
      return R;
    R.Loop = F;
    R.LoopIn = Frames.back().second;
    R.Times = *N;
    R.Runs = *N != 0;
  }
  // Each if folds, the same in every context; one not taken (whatever the
  // others): HS never runs in the call.
  bool Folded = true;
  for (const auto &[If, Else] : Branches) {
    std::optional<bool> Taken;
    if (!If->getInit() && !If->getConditionVariable() && !If->isConsteval())
      Taken = foldedInCall(If->getCond(), Frames, Folder);
    if (!Taken)
      Folded = false;
    else if (*Taken == Else)
      R.Runs = false;
  }
  if (!R.Runs) {
    R.Loop = nullptr;
    R.LoopIn = nullptr;
    R.Times = 1;
    return R;
  }
  if (!Folded)
    return HelperRun();
  // Past an if or a loop, nothing may leave the helper early (`if (n == 1)
  // { copy(); return; }` skips what follows): no return but a last one, no
  // goto, no throw, no break or continue outside the counted loop.
  if (!Branches.empty() || R.Loop) {
    const auto *CS = dyn_cast<CompoundStmt>(HBody);
    if (!CS)
      return HelperRun();
    for (const Stmt *C : CS->body())
      if (leavesEarly(C) && !(C == CS->body_back() && isa<ReturnStmt>(C)))
        return HelperRun();
  }
  R.Straight = true;
  return R;
}

/// The identity of a barrier of an `extern __shared__` byte pool given as
/// an integer shared-window address (`base + OFF + s * 8`, through locals
/// never written after their initialisation), as the ordering model names
/// it; std::nullopt for anything else.
std::optional<BarrierIdentity> windowIdentity(const Expr *E,
                                              LocalAliases &Aliases,
                                              DeviceOpsFinder &Finder,
                                              const ASTContext &Ctx) {
  if (!E || !E->IgnoreParens()->getType()->isIntegerType())
    return std::nullopt;
  std::optional<events::BarrierName> N = events::barrierNameOf(
      E,
      [&](const VarDecl *VD) -> const Expr * {
        return VD ? Aliases.initOf(VD) : nullptr;
      },
      Ctx, [&](const CallExpr &C) { return Finder.addressHelperArgument(C); });
  if (!N || !N->PoolOffset || (!N->Fixed && !N->Index))
    return std::nullopt;
  BarrierIdentity Id;
  Id.Object = E;
  Id.Root = N->Root;
  Id.Key = N->Key;
  Id.Key.AddInteger(9); // apart from the keys of barrierIdentity
  Id.WindowOffset = *N->PoolOffset;
  Id.WindowName = N->Display;
  Id.WindowFamily.AddPointer(N->Root->getCanonicalDecl());
  Id.WindowFamily.AddInteger(N->PoolStride);
  if (N->Index)
    N->Index->IgnoreParenImpCasts()->Profile(Id.WindowFamily, Ctx,
                                             /*Canonical=*/true);
  return Id;
}

} // namespace

std::optional<BulkCopy> cuteTileLoad(const CallExpr &C, ASTContext &Ctx) {
  // CuTe's copy issues the atom's TMA load for every tile of dst, each
  // completing the tile's bytes on bar: dst's elements in all (the box's
  // out-of-bounds part is written too). Only the atom SM90_TMA_LOAD, whose
  // loads land in this CTA alone, with a barrier given as the uint64_t
  // itself, and a dst whose size is static.
  std::optional<cute::TmaLoadCopy> Copy = cute::tmaLoadCopy(C);
  if (!Copy)
    return std::nullopt;
  if (!cute::isPlainTmaLoadWith(*Copy->With))
    return std::nullopt;
  QualType BarT = Copy->Barrier->getType().getCanonicalType();
  if (!BarT->isIntegerType() || Ctx.getTypeSize(BarT) != 64 ||
      !Copy->Barrier->isLValue())
    return std::nullopt;
  std::optional<cute::StaticTensorSize> Size =
      cute::staticTensorSize(Copy->Dst->getType(), Ctx);
  if (!Size)
    return std::nullopt;
  BulkCopy B;
  B.Site = &C;
  B.Loc = C.getBeginLoc();
  B.Api = OpApi::Cute;
  B.Direction = device::BulkDirection::GlobalToShared;
  B.DstSpace = device::Space::SharedCta;
  B.Size.Imm = Size->bytes();
  B.Size.Present = true;
  B.Barrier.E = Copy->Barrier;
  B.Barrier.Written = Copy->Barrier;
  B.Barrier.Present = true;
  B.Dst.E = Copy->Dst;
  B.Dst.Written = Copy->Dst;
  B.Dst.Present = true;
  return B;
}

const std::vector<const DeclRefExpr *> &
TxOpCollector::refsOf(const Stmt *Body) {
  auto [It, New] = RefsOfBody.try_emplace(Body);
  if (New)
    collectRefs(Body, It->second);
  return It->second;
}

TxOps TxOpCollector::collect(const Stmt *Body, const SourceManager &SM) {
  // The ops of the body, and the transaction ops among them.
  llvm::ArrayRef<DeviceOpsFinder::OpStmt> Stmts = Finder.opStmtsOf(Body);
  TxOps Result;
  std::vector<TxOp> &Ops = Result.Ops;
  llvm::SmallPtrSet<const Stmt *, 16> &OpSites = Result.OpSites;
  // Try_waits and test_waits straight through their helpers, and the
  // inits: they may separate phases across a loop boundary (below).
  struct RawWait {
    const Stmt *S;
    Wait W;
    llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 2>
        Frames;
    BarrierIdentity Id;
  };
  std::vector<RawWait> RawWaits;
  std::vector<std::pair<BlockingWait, BarrierIdentity>> &Waits = Result.Waits;
  std::vector<std::pair<const Stmt *, BarrierIdentity>> &Inits = Result.Inits;
  // Integer shared-window addresses name a pool's barriers (the locals of
  // this body and its helpers).
  LocalAliases Aliases;
  Aliases.Finder = &Finder;
  Aliases.Ctx = &Ctx;
  auto Identify = [&](const Expr *E) {
    std::optional<BarrierIdentity> Id = barrierIdentity(E, Ctx);
    if (!Id)
      Id = windowIdentity(E, Aliases, Finder, Ctx);
    return Id;
  };
  // Via/Helper: an op of a helper called at S; BarrierArg: the caller's
  // argument for the helper's barrier parameter (null: not a parameter).
  using Frame = std::pair<const CallExpr *, const FunctionDecl *>;
  auto Add = [&](const DeviceOp &Op, const Stmt *S, bool Straight,
                 llvm::ArrayRef<Frame> Frames, const Expr *BarrierArg,
                 std::optional<BarrierIdentity> MemberId = std::nullopt,
                 const Expr *PeerRank = nullptr,
                 const HelperRun &Run = HelperRun()) {
    const CallExpr *Via = Frames.empty() ? nullptr : Frames.front().first;
    OpSites.insert(S);
    // In a loop of its helpers only a copy is followed (counted per
    // iteration below when its role is Copy); a wait or init there is not
    // straight.
    if (Run.Loop && !std::holds_alternative<BulkCopy>(Op) &&
        !std::holds_alternative<TensorCopy>(Op))
      Straight = false;
    const OpValue *Bar = nullptr;
    if (const auto *E = std::get_if<ExpectTx>(&Op))
      Bar = &E->Barrier;
    else if (const auto *B = std::get_if<BulkCopy>(&Op))
      Bar = &B->Barrier;
    else if (const auto *T = std::get_if<TensorCopy>(&Op))
      Bar = &T->Barrier;
    llvm::StringRef Uncounted = uncountedReason(Op);
    TxRole Role = TxRole::Unknown;
    if (Uncounted.empty())
      Role = std::holds_alternative<ExpectTx>(Op) ? TxRole::Expect
                                                  : TxRole::Copy;
    else if (isCountedMulticast(Op))
      Role = TxRole::Multicast;
    // The barrier an op names directly, mapped to a peer CTA (a helper's
    // op comes with its PeerRank from Expand).
    // A helper's barrier parameter may get a mapped address from this body
    // (`load(dst, map, peer(&bar, leader))`): its rank is this body's.
    const Expr *BarE = Via ? BarrierArg : Bar ? Bar->E : nullptr;
    bool RankHere = !Via;
    if (!PeerRank && BarE && !std::holds_alternative<Wait>(Op) &&
        !std::holds_alternative<BarrierInit>(Op))
      if (auto P = Peers.peerOf(BarE)) {
        BarE = Finder.lookThrough(P->Local);
        PeerRank = P->Rank;
        RankHere = true;
      }
    if (PeerRank && Bar) {
      // Counted per CTA of the cluster: an op whose barrier is the peer's.
      Uncounted = uncountedRemoteReason(Op);
      Role = Uncounted.empty() ? TxRole::Remote : TxRole::Unknown;
    }
    // A wait straight through its helpers, which may return only once its
    // phase completes (below, with the parent map), and an init.
    if (const auto *W = std::get_if<Wait>(&Op)) {
      const Expr *WE = Via ? BarrierArg : W->Barrier.E;
      if (Straight && W->Barrier.Present)
        if (auto Id = MemberId ? std::move(MemberId)
                      : WE     ? Identify(WE)
                               : std::nullopt)
          RawWaits.push_back(
              {S, *W, {Frames.begin(), Frames.end()}, std::move(*Id)});
      return;
    }
    if (const auto *I = std::get_if<BarrierInit>(&Op)) {
      const Expr *IE = Via ? BarrierArg : I->Barrier.E;
      if (I->Barrier.Present)
        if (auto Id = MemberId ? std::move(MemberId)
                      : IE     ? Identify(IE)
                               : std::nullopt)
          Inits.emplace_back(S, std::move(*Id));
      return;
    }
    if (!Bar || !Bar->Present)
      return;
    // Only a counted copy is counted once per iteration of its helper's loop.
    if (Run.Loop && Role != TxRole::Copy)
      Straight = false;
    if (!Straight) {
      // How the op is issued comes first, when that alone rules it out.
      if (Uncounted.empty() || Role == TxRole::Remote)
        Uncounted = "does not run straight through its helper (a branch, a "
                    "loop or another call lies between)";
      Role = TxRole::Unknown;
    }
    TxOp T{Op,
           S,
           Role,
           Role == TxRole::Unknown ? Uncounted : llvm::StringRef(),
           MemberId ? std::move(MemberId)
           : BarE   ? Identify(BarE)
                    : std::nullopt,
           phasePlaceOf(Folder.parentsOf(Body), S, Body),
           SM.getFileLoc(Via ? Via->getBeginLoc() : siteOf(Op).Loc),
           {Frames.begin(), Frames.end()}};
    T.PeerRank = Role == TxRole::Remote ? PeerRank : nullptr;
    T.PeerRankHere = RankHere;
    if (Straight && Run.Loop) {
      T.HelperLoop = Run.Loop;
      T.HelperLoopIn = Run.LoopIn;
      T.Times = Run.Times;
    }
    Ops.push_back(std::move(T));
  };
  // The ops of a __device__ helper called at Call, seen at the call. An op
  // counts when it runs straight through the helper, its barrier is a
  // parameter, and the helper calls no other code that could issue ops.
  // Helpers that the helper calls (ThunderKittens' load_async overloads,
  // a wrapper of a wrapper) are expanded the same way, a few levels deep,
  // with the barrier followed from parameter to argument.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallPtrSet<const Stmt *, 8>>
      HelperSites;
  // Whether every use of \p P (and of the locals holding its address) in
  // \p H feeds H's ops, address conversions or nested helpers.
  auto OnlyFeedsOps = [&](const ParmVarDecl *P, const FunctionDecl *H) {
    const Stmt *HBody = H->getBody();
    const ParentMap &HPM = Folder.parentsOf(HBody);
    const std::vector<const DeclRefExpr *> &Refs = refsOf(HBody);
    auto Tainted = taintedBy(P, Refs, HPM, Finder, Peers);
    return llvm::all_of(Refs, [&](const DeclRefExpr *D) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      return !VD || !Tainted.count(VD) ||
             isKnownUse(HPM, D, HelperSites[H], Finder, Peers);
    });
  };
  struct PendingOp {
    DeviceOp Op;
    bool Straight;
    HelperRun Run;
    llvm::SmallVector<Frame, 2> Frames;
    const Expr *Arg;
    std::optional<BarrierIdentity> MemberId;
    bool HasBarrier;
    /// The op's barrier is mapped to the CTA of this rank (mapa).
    const Expr *PeerRank = nullptr;
  };
  std::vector<PendingOp> Pending;
  // Object: the caller's object of the outermost call, a method (null for
  // other helpers). Prefixes, one per frame: the fields from Object to the
  // frame's `this` when the frame is a method of Object or of its fields (a
  // pipeline's `this->bar->expect(n)` calls Barrier::expect on the field
  // bar); std::nullopt for other frames.
  using FieldPath = llvm::SmallVector<const FieldDecl *, 4>;
  std::vector<std::optional<FieldPath>> Prefixes;
  // ParentRun: how the call of this frame runs in its caller's frames (its
  // loop, if it lies in one).
  std::function<void(llvm::SmallVectorImpl<Frame> &, const HelperRun &,
                     const Expr *)>
      Expand = [&](llvm::SmallVectorImpl<Frame> &Frames,
                   const HelperRun &ParentRun, const Expr *Object) {
        const FunctionDecl *Helper = Frames.back().second;
        const std::optional<FieldPath> Prefix = Prefixes.back();
        const Stmt *HBody = Helper->getBody();
        llvm::ArrayRef<DeviceOpsFinder::OpStmt> HStmts =
            Finder.opStmtsOf(HBody);
        std::vector<std::pair<DeviceOp, const Stmt *>> Found;
        std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Nested;
        // For each nested call, the fields from this method's object to the
        // nested method's (std::nullopt: not a method of this object).
        std::vector<std::optional<FieldPath>> NestedFields;
        auto &HSites = HelperSites[Helper];
        bool OtherCalls = false;
        for (const DeviceOpsFinder::OpStmt &OS : HStmts) {
          const Stmt *HS = OS.S;
          if (isa<LambdaExpr>(HS))
            continue;
          if (const auto *Asm = dyn_cast<GCCAsmStmt>(HS)) {
            for (const DeviceOp &Op : Finder.opsOf(*Asm))
              Found.emplace_back(Op, HS);
            HSites.insert(HS);
            continue;
          }
          const auto *HC = cast<CallExpr>(HS);
          if (auto Op = Finder.opOf(*HC)) {
            Found.emplace_back(*Op, HS);
            HSites.insert(HS);
            continue;
          }
          if (Finder.addressHelperArgument(*HC))
            continue; // `smem_u32(bar)`: still straight through.
          const FunctionDecl *FD = HC->getDirectCallee();
          if (FD && (!FD->getBody() ||
                     SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()))))
            continue;
          if (FD && !Finder.mayIssueOps(FD))
            continue; // computes values only (TK's get_tma, unit_coord)
          const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
          // A method of one of this method's fields (`this->bar->expect(n)`,
          // `full.arrive_and_expect_tx(n)`) or of its own object: followed
          // with that field.
          std::optional<FieldPath> Fields;
          const auto *MC = dyn_cast<CXXMemberCallExpr>(HC);
          if (MD && !MD->isStatic() && Object && Prefix && MC) {
            const Expr *Of =
                MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
            llvm::SmallVector<const FieldDecl *, 2> Steps;
            if (isa<CXXThisExpr>(Of) ||
                thisFieldPath(Of, Steps, /*PointerFields=*/true))
              Fields = FieldPath(Steps.begin(), Steps.end());
          }
          const bool FieldMethod = Fields.has_value();
          if (FD && Frames.size() < MaxHelperDepth &&
              FD->hasAttr<CUDADeviceAttr>() &&
              (!MD || MD->isStatic() || FieldMethod) &&
              llvm::none_of(Frames,
                            [&](const Frame &F) { return F.second == FD; })) {
            Nested.emplace_back(HC, FD);
            NestedFields.push_back(Fields);
            HSites.insert(HS);
            continue;
          }
          OtherCalls = true;
        }
        // Nothing to follow: no parent map (most helpers issue no op).
        if (Found.empty() && Nested.empty())
          return;
        const ParentMap &HPM = Folder.parentsOf(HBody);
        // How HS runs in the helper: straight through it, or under ifs and
        // a counted loop that fold in this call (helperRun).
        auto RunHere = [&](const Stmt *HS) {
          HelperRun R = helperRun(HPM, HS, HBody, Frames, Folder);
          R.Straight &= ParentRun.Straight && !OtherCalls;
          // One loop in all the frames: the caller's, or this one's.
          if (ParentRun.Loop) {
            R.Straight &= !R.Loop;
            R.Loop = ParentRun.Loop;
            R.LoopIn = ParentRun.LoopIn;
            R.Times = ParentRun.Times;
          }
          return R;
        };
        for (const auto &[Op, HS] : Found) {
          HelperRun Run = RunHere(HS);
          // Under an if that this call never takes: not an op of the call.
          if (!Run.Runs)
            continue;
          bool Straight = Run.Straight;
          const Expr *Arg = nullptr;
          const OpValue *Bar = barrierOf(Op);
          // An init's barrier is followed too (for the waits' phases), but
          // is no transaction op's either.
          const auto *Init = std::get_if<BarrierInit>(&Op);
          if (Init)
            Bar = &Init->Barrier;
          // A barrier address mapped to a peer CTA: its identity is the
          // address mapped, the rank an expression of this helper.
          const Expr *BarE = Bar ? Bar->E : nullptr;
          const Expr *PeerRank = nullptr;
          if (BarE && !Init && !std::holds_alternative<Wait>(Op))
            if (auto P = Peers.peerOf(BarE)) {
              BarE = Finder.lookThrough(P->Local);
              PeerRank = P->Rank;
            }
          const ParmVarDecl *Param =
              BarE ? barrierParameter(BarE, Helper, Finder, Folder) : nullptr;
          std::optional<BarrierIdentity> MemberId;
          // The barrier as a field of the object of the method frame \p K
          // (\p BE in its body): `&this->b`, a barrier object field
          // (`cuda::barrier &`), a pointer field to the barrier (`uint64_t
          // *bar`), also through pointer fields (`&this->bar->b`).
          auto FieldBarrier = [&](const Expr *BE, size_t K) {
            if (!Object || !Prefixes[K] || !BE)
              return;
            BE = BE->IgnoreParenCasts();
            // An accessor of the same object (tilelang's `storage()`,
            // `return *const_cast<uint64_t *>(&barrier_);`): the field its
            // return designates.
            bool Accessed = false;
            if (const auto *MC = dyn_cast<CXXMemberCallExpr>(BE);
                MC &&
                isa<CXXThisExpr>(
                    MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
              if (const Expr *Ret = events::accessorReturn(*MC)) {
                BE = Ret->IgnoreParenCasts();
                Accessed = true;
                if (const auto *D = dyn_cast<UnaryOperator>(BE);
                    D && D->getOpcode() == UO_Deref)
                  if (const auto *A = dyn_cast<UnaryOperator>(
                          D->getSubExpr()->IgnoreParenCasts());
                      A && A->getOpcode() == UO_AddrOf)
                    BE = A->getSubExpr()->IgnoreParenCasts();
              }
            const auto *U = dyn_cast<UnaryOperator>(BE);
            const bool AddrOf = U && U->getOpcode() == UO_AddrOf;
            if (AddrOf)
              BE = U->getSubExpr();
            const bool PointerField = !AddrOf && BE->getType()->isPointerType();
            llvm::SmallVector<const FieldDecl *, 2> Path;
            if (!thisFieldPath(BE, Path, /*PointerFields=*/true))
              return;
            FieldPath Full = *Prefixes[K];
            Full.append(Path.begin(), Path.end());
            // The one word of a class that wraps it (`struct Barrier {
            // uint64_t barrier_; }`) is the object itself, as the copies
            // given the object name it.
            if (Accessed && !PointerField &&
                events::oneWordField(*Full.back()->getParent()) == Full.back())
              Full.pop_back();
            if (Full.empty())
              MemberId = Identify(Object);
            else
              MemberId = memberBarrierIdentity(Object, Full, Ctx, PointerField);
            // The field must only feed the method's ops.
            const Stmt *KBody = Frames[K].second->getBody();
            if (!onlyFeeds(KBody, Path.front(), Folder.parentsOf(KBody),
                           HelperSites[Frames[K].second]))
              Straight = false;
          };
          // From the parameter out to the argument of the outermost call,
          // or to a field of a method's object passed as the argument
          // (`expect_tx(&this->b, n)` in Barrier::expect).
          for (size_t K = Frames.size(); Param && K-- > 0;) {
            const CallExpr *FC = Frames[K].first;
            if (Param->getFunctionScopeIndex() >= FC->getNumArgs()) {
              Arg = nullptr;
              break;
            }
            // The parameter must only feed the helper's ops.
            if (!OnlyFeedsOps(Param, Frames[K].second))
              Straight = false;
            Arg =
                Finder.lookThrough(FC->getArg(Param->getFunctionScopeIndex()));
            if (K == 0)
              break;
            Param = barrierParameter(Arg, Frames[K - 1].second, Finder, Folder);
            if (!Param) {
              FieldBarrier(Arg, K - 1);
              Arg = nullptr;
            }
          }
          if (Bar && !Param && !MemberId)
            FieldBarrier(BarE, Frames.size() - 1);
          // (A wait's barrier is no transaction op's: NestedUnknown below.)
          Pending.push_back({Op,
                             Straight,
                             Run,
                             {Frames.begin(), Frames.end()},
                             Arg,
                             std::move(MemberId),
                             Bar && Bar->Present && !Init &&
                                 !std::holds_alternative<Wait>(Op),
                             PeerRank});
        }
        for (size_t N = 0; N < Nested.size(); ++N) {
          const auto &[NC, FD] = Nested[N];
          const auto &Fields = NestedFields[N];
          // A nested call in a loop: its ops count once per iteration when
          // they are counted copies (Add).
          HelperRun Run = RunHere(NC);
          if (!Run.Runs)
            continue;
          std::optional<FieldPath> Inner;
          if (Fields) {
            Inner = *Prefix;
            Inner->append(Fields->begin(), Fields->end());
            // The field whose method is called must only feed this
            // method's ops and nested calls.
            if (!Fields->empty() &&
                !onlyFeeds(HBody, Fields->front(), HPM, HSites))
              Run.Straight = false;
          }
          Frames.emplace_back(NC, FD);
          Prefixes.push_back(std::move(Inner));
          Expand(Frames, Run, Object);
          Prefixes.pop_back();
          Frames.pop_back();
        }
      };
  auto AddHelperOps = [&](const CallExpr &Call) {
    const FunctionDecl *Helper = Call.getDirectCallee();
    // Most helpers issue nothing: answered once per body, before the
    // expansion below reads the helper at this call.
    if (!Helper || !Helper->getBody() || !Finder.mayIssueOps(Helper))
      return;
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Helper);
    // A method of a user barrier or pipeline class (`bar.expect(n)` on its
    // own field): `this` is the caller's object.
    const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(&Call);
    const Expr *Object =
        Method && !Method->isStatic() && MemberCall
            ? Finder.lookThrough(MemberCall->getImplicitObjectArgument())
            : nullptr;
    if (!Helper || (Method && !Method->isStatic() && !Object) ||
        !Helper->getBody() || !Helper->hasAttr<CUDADeviceAttr>() ||
        SM.isInSystemHeader(SM.getFileLoc(Helper->getLocation())))
      return;
    llvm::SmallVector<Frame, 4> Frames{{&Call, Helper}};
    Pending.clear();
    Prefixes.assign(1, Object ? std::optional<FieldPath>(FieldPath())
                              : std::nullopt);
    HelperRun Top;
    Top.Straight = true;
    Expand(Frames, Top, Object);
    // A nested helper's op on a barrier that is not the caller's: the
    // nested helpers are other code, as they were before being followed.
    const bool NestedUnknown = llvm::any_of(Pending, [](const PendingOp &P) {
      return P.Frames.size() > 1 && P.HasBarrier && !P.Arg && !P.MemberId;
    });
    for (PendingOp &P : Pending) {
      if (NestedUnknown && P.Frames.size() > 1)
        continue;
      Add(P.Op, &Call, P.Straight && !(NestedUnknown && P.Frames.size() == 1),
          P.Frames, P.Arg, std::move(P.MemberId), P.PeerRank, P.Run);
    }
  };
  // A statement outside system headers. Asked after the finder's memoised
  // answers, which rule out most statements for less (a host pass hands
  // over thousands of __host__ __device__ bodies without an op).
  auto InUserCode = [&](const Stmt *S) {
    SourceLocation Loc = SM.getFileLoc(S->getBeginLoc());
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  };
  for (const DeviceOpsFinder::OpStmt &OS : Stmts) {
    const Stmt *S = OS.S;
    if (isa<LambdaExpr>(S))
      continue;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      std::vector<DeviceOp> AsmOps = Finder.opsOf(*Asm);
      if (AsmOps.empty() || !InUserCode(S))
        continue;
      for (const DeviceOp &Op : AsmOps)
        Add(Op, S, true, {}, nullptr);
    } else if (auto Op = Finder.opOf(*cast<CallExpr>(S))) {
      if (InUserCode(S))
        Add(*Op, S, true, {}, nullptr);
    } else {
      const auto *C = cast<CallExpr>(S);
      const FunctionDecl *FD = C->getDirectCallee();
      if (!InUserCode(S))
        continue;
      // cuda::barrier's waits and init(&bar, n), whose bodies are builtins.
      events::BarrierMember Role;
      if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD))
        Role = events::barrierMember(*MD);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
          MC && Role.Waits && !Role.BodyModelled) {
        BlockingWait B;
        B.S = C;
        B.OwnPhase = FD->getName() == "arrive_and_wait";
        if (FD->getName() == "wait_parity" && C->getNumArgs() == 1)
          B.Parity = C->getArg(0);
        if (B.OwnPhase || B.Parity)
          if (auto Id = barrierIdentity(
                  Finder.lookThrough(MC->getImplicitObjectArgument()), Ctx))
            Waits.emplace_back(B, std::move(*Id));
      } else if (const Expr *Bar =
                     FD ? events::libcudacxxInitBarrier(*FD, *C) : nullptr) {
        if (auto Id = barrierIdentity(Finder.lookThrough(Bar), Ctx))
          Inits.emplace_back(C, std::move(*Id));
      }
      // `cute::copy(tma.with(bar), src, dst)`: a counted copy of dst's
      // bytes (cuteTileLoad); its body lies too deep to follow.
      if (std::optional<BulkCopy> Copy = cuteTileLoad(*C, Ctx)) {
        Add(*Copy, S, true, {}, nullptr);
        // The barrier reaches the copy through `with(bar)`: part of the op.
        OpSites.insert(cute::tmaLoadCopy(*C)->With);
        continue;
      }
      // AddHelperOps' own first test.
      if (!FD || !FD->getBody() || !Finder.mayIssueOps(FD))
        continue;
      AddHelperOps(*C);
    }
  }
  if (Ops.empty())
    return Result;
  // Built only for a function with an op (most device functions have none).
  const ParentMap &PM = Folder.parentsOf(Body);

  // The waits that return only once their phase completes: a try_wait
  // looping in its asm, or the condition of a C++ loop that spins on it
  // (`while (!try_wait(bar, p)) {}`); the parity in this body's terms
  // (through the helpers' parameters, never written in them).
  for (RawWait &R : RawWaits) {
    BlockingWait B;
    if (blocksUntilComplete(R.W))
      B.S = R.S;
    else if (R.Frames.size() <= 1)
      B.S = waitLoopOf(R.S, R.W,
                       R.Frames.empty() ? nullptr : R.Frames.front().second, PM,
                       Finder);
    if (!B.S)
      continue;
    const Expr *P =
        R.W.Parity && R.W.Phase.Present ? R.W.Phase.Written : nullptr;
    for (size_t K = R.Frames.size(); P && K-- > 0;) {
      const CallExpr *FC = R.Frames[K].first;
      const auto *D = dyn_cast<DeclRefExpr>(P->IgnoreParenImpCasts());
      const auto *Param = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
      P = Param && !isa<CXXOperatorCallExpr>(FC) &&
                  Param->getDeclContext() == R.Frames[K].second &&
                  Param->getFunctionScopeIndex() < FC->getNumArgs() &&
                  Folder.isNeverWritten(Param)
              ? FC->getArg(Param->getFunctionScopeIndex())
              : nullptr;
    }
    B.Parity = P;
    Waits.emplace_back(B, std::move(R.Id));
  }

  // Copies of an inner counted loop (`for (int k = 0; k < BLOCK_K / 8; ++k)`
  // with a load of each A and B slice, learn-cuda 02e) belong to the phase
  // of the region around the loop, once per iteration: when every op of the
  // loop is a counted copy straight through its body, and nothing leaves
  // the body early. The trip count folds in each context.
  llvm::DenseMap<const ForStmt *, bool> Hoistable;
  for (const TxOp &T : Ops) {
    const auto *F = dyn_cast_or_null<ForStmt>(PM.getParent(T.Place.Region));
    if (!F || F->getBody() != T.Place.Region || Hoistable.count(F))
      continue;
    Hoistable[F] =
        llvm::all_of(Ops,
                     [&](const TxOp &O) {
                       return O.Place.Region != T.Place.Region ||
                              (O.Role == TxRole::Copy && O.Id &&
                               O.Place.Branches.empty() && !O.Place.Unclear);
                     }) &&
        countedLoopVar(F, PM) && !leavesEarly(F->getBody());
  }
  for (TxOp &T : Ops) {
    const auto *F = dyn_cast_or_null<ForStmt>(PM.getParent(T.Place.Region));
    if (!F || F->getBody() != T.Place.Region || !Hoistable.lookup(F))
      continue;
    T.Loop = F;
    T.Place = phasePlaceOf(PM, F, Body);
  }
  return Result;
}

} // namespace clang::tidy::tma
