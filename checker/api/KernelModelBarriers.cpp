//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's barrier operands: the object, family, region and pool window a
// barrier operand names, the epoch of a window's index, a wait's parity, and
// the barrier events of device ops.
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

int Builder::barrierObject(const OpValue &V, const VarDecl *&Var, bool &Fixed,
                           Event *E, Event *At) {
  Var = nullptr;
  Fixed = false;
  if (!V.E)
    return -1;
  auto Id = events::barrierNameOf(
      V.E, [this](const VarDecl *VD) { return substitute(VD); }, Ctx,
      [this](const CallExpr &C) { return Finder.addressHelperArgument(C); });
  if (!Id)
    return -1;
  Var = Id->Root;
  Fixed = Id->Fixed;
  if (At || E)
    regionOf(*Id, At ? *At : *E);
  if (E) {
    E->Family = familyOf(*Id);
    // A byte pool's family has the members its init loop makes.
    std::uint64_t Members =
        Id->Pool && Id->Index ? Model.loopBound(Id->Index) : Id->Members;
    E->AllMembers = E->Kind == EventKind::BarrierInit && Id->Index &&
                    Model.everyMember(Id->Index, Members);
    // An arrive loop releases every member (MBAR-WAIT-PARITY).
    if (E->Kind == EventKind::BarrierUse &&
        E->Role == ::tma::rules::ordering::UseRole::Arrive && Id->Index)
      E->AllMembers = Model.parities().everyMember(Id->Index, Members);
    firstMember(*Id, *E);
  }
  int Obj = objectOf(*Id);
  if (Id->ElementOffset)
    elementSlot(*Id, Obj, E);
  if (Id->PoolOffset) {
    if (Out.PoolSlots.size() <= static_cast<std::size_t>(Obj))
      Out.PoolSlots.resize(Obj + 1);
    std::optional<PoolSlot> &Slot = Out.PoolSlots[Obj];
    if (!Slot)
      Slot = PoolSlot{*Id->PoolOffset, Id->PoolStride, 0};
    // The members an init loop makes: all of them, when it is known to
    // run over every one.
    if (E && E->Kind == EventKind::BarrierInit && Id->Index) {
      std::uint64_t N = E->AllMembers ? Model.loopBound(Id->Index) : 0;
      Slot->InitMembers = std::max(Slot->InitMembers, N);
      Slot->InitsKnown &= N > 0;
    }
  }
  return Obj;
}

void Builder::elementSlot(const events::BarrierName &Id, int Obj, Event *E) {
  if (Obj < 0)
    return;
  if (Out.PoolSlots.size() <= static_cast<std::size_t>(Obj))
    Out.PoolSlots.resize(Obj + 1);
  std::optional<PoolSlot> &Slot = Out.PoolSlots[Obj];
  if (!Slot) {
    Slot = PoolSlot{*Id.ElementOffset, Id.ElementStride, 0};
    Slot->Members = Id.ElementMembers;
  }
  // An init loop makes as many members as it runs passes, when it is known
  // to reach each one; otherwise it may make any of the family.
  if (E && E->Kind == EventKind::BarrierInit && Id.ElementIndex) {
    std::uint64_t N = Model.loopBound(Id.ElementIndex);
    if (N && !Model.everyMember(Id.ElementIndex, N))
      N = 0;
    Slot->InitMembers = std::max(Slot->InitMembers, N);
    Slot->InitsKnown &= N > 0;
  }
}

void Builder::firstMember(const events::BarrierName &Id, Event &E) {
  IndexVar = nullptr;
  if (E.Kind != EventKind::BarrierUse && E.Kind != EventKind::BarrierWait)
    return;
  // A pool family's index, or an array's (named by its element).
  const Expr *Index = Id.PoolOffset && Id.PoolStride ? Id.Index : nullptr;
  if (!Id.PoolOffset && Id.ElementOffset && Id.ElementStride)
    Index = Id.ElementIndex;
  if (!Index || Stack.empty())
    return;
  // The index as the kernel's body spells it (a helper's parameter stands
  // for its argument).
  for (unsigned I = 0; I < 8; ++I) {
    const Expr *B = bound(Index);
    if (!B || B == Index)
      break;
    Index = B;
  }
  // Parameters inside it (`i % S` in a lambda called with the kernel's
  // counter) stand for their arguments too.
  auto Through = [this](const Expr *X) {
    for (unsigned I = 0; X && I < 8; ++I) {
      const Expr *B = bound(X);
      if (!B || B == X)
        break;
      X = B;
    }
    return X;
  };
  std::optional<WaitParities::FirstValue> F =
      Model.parities().firstValue(Index, Stack.front(), BodyStmt, Through);
  if (!F)
    return;
  E.FirstMember = F->Value;
  IndexVar = F->Var;
  IndexStart = F->Start;
}

void Builder::regionOf(const events::BarrierName &Id, Event &E) {
  const VarDecl *Root = Id.Root->getCanonicalDecl();
  if (Root->hasExternalStorage()) {
    windowOf(Id, E);
    return;
  }
  auto Find = [](auto &Keys, auto Key) {
    auto It = llvm::find(Keys, Key);
    if (It == Keys.end())
      It = Keys.insert(Keys.end(), Key);
    return static_cast<int>(It - Keys.begin());
  };
  E.Region = Find(RegionKeys, Root);
  llvm::StringRef Path = Id.Display;
  if (!Path.consume_front(Root->getName()) || !Path.consume_front("."))
    return;
  llvm::StringRef Field =
      Path.take_until([](char C) { return C == '.' || C == '['; });
  const auto *RD =
      Root->getType()->getBaseElementTypeUnsafe()->getAsRecordDecl();
  if (!RD || RD->isUnion())
    return;
  for (const FieldDecl *FD : RD->fields())
    if (FD->getIdentifier() && FD->getName() == Field) {
      E.Part = Find(PartKeys, FD->getCanonicalDecl());
      return;
    }
}

void Builder::windowOf(const events::BarrierName &Id, Event &E) {
  if (!Id.PoolOffset)
    return;
  const VarDecl *V = nullptr;
  if (Id.Index) {
    const auto *D = dyn_cast<DeclRefExpr>(Id.Index->IgnoreParenCasts());
    V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    if (!V || !Id.PoolStride)
      return;
    E.WindowEpoch = epochOf(D, V);
  } else if (!Id.Fixed || Id.PoolStride) {
    return;
  }
  auto Key = std::make_tuple(Id.Root->getCanonicalDecl(), Id.PoolStride, V);
  auto It = llvm::find(WindowKeys, Key);
  if (It == WindowKeys.end())
    It = WindowKeys.insert(WindowKeys.end(), Key);
  E.Window = static_cast<int>(It - WindowKeys.begin());
  E.WindowOffset = *Id.PoolOffset;
  E.WindowFixed = !V;
}

int Builder::epochOf(const DeclRefExpr *D, const VarDecl *V) {
  const FunctionDecl *Kernel = Stack.empty() ? nullptr : Stack.front();
  if (!Kernel || !Kernel->getBody() || !V->hasLocalStorage() ||
      V->getDeclContext() != Kernel || V->getType()->isReferenceType())
    return -1;
  const ParentMap &PM = kernelParents();
  if (!PM.getParent(D))
    return -1;
  if (!onlyPlainUses(V))
    return -1;
  const Stmt *Child = D, *Pass = nullptr;
  for (const Stmt *P = PM.getParent(D); P; Child = P, P = PM.getParent(P)) {
    if (isa<LambdaExpr, StmtExpr>(P))
      return -1;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P)) {
      if (loopBody(P) != Child)
        return -1;
      Pass = Child;
      break;
    }
  }
  if (!Pass)
    Pass = Kernel->getBody();
  // The statement of the pass that holds D.
  const Stmt *Top = D;
  for (const Stmt *P = PM.getParent(D); P && Top != Pass && P != Pass;
       P = PM.getParent(P))
    Top = P;
  llvm::SmallVector<const Stmt *, 16> Parts;
  if (const auto *C = dyn_cast<CompoundStmt>(Pass))
    Parts.append(C->body_begin(), C->body_end());
  else
    Parts.push_back(Pass);
  unsigned Writes = 0;
  for (const Stmt *S : Parts) {
    bool W = writesVar(PM, S, V);
    if (S == Top)
      return W ? -1 : epochKey(Pass, V, Writes);
    Writes += W;
  }
  return -1;
}

bool Builder::onlyPlainUses(const VarDecl *V) {
  const ParentMap &PM = kernelParents();
  // Only reads and plain writes of V anywhere in the kernel.
  auto [Seen, New] = PlainVars.try_emplace(V, true);
  if (New) {
    llvm::SmallVector<const DeclRefExpr *, 8> Refs;
    refsTo(Stack.front()->getBody(), V, Refs);
    for (const DeclRefExpr *R : Refs)
      if (!isRead(PM, R) && !isPlainWrite(PM, R))
        Seen->second = false;
  }
  return Seen->second;
}

const ParentMap &Builder::kernelParents() {
  if (!KernelParents)
    KernelParents = std::make_unique<ParentMap>(Stack.front()->getBody());
  return *KernelParents;
}

int Builder::epochKey(const Stmt *Pass, const VarDecl *V, unsigned Writes) {
  auto Key = std::make_tuple(Pass, V, Writes);
  auto It = llvm::find(EpochKeys, Key);
  if (It == EpochKeys.end())
    It = EpochKeys.insert(EpochKeys.end(), Key);
  return static_cast<int>(It - EpochKeys.begin());
}

bool Builder::isRead(const ParentMap &PM, const DeclRefExpr *R) {
  const Stmt *C = nullptr;
  const auto *IC =
      dyn_cast_or_null<ImplicitCastExpr>(parentThroughParens(PM, R, C));
  return IC && IC->getCastKind() == CK_LValueToRValue;
}

bool Builder::isPlainWrite(const ParentMap &PM, const DeclRefExpr *R) {
  const Stmt *C = nullptr;
  const Stmt *P = parentThroughParens(PM, R, C);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
    return U->isIncrementDecrementOp();
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
    return B->isAssignmentOp() && B->getLHS() == C;
  return false;
}

bool Builder::writesVar(const ParentMap &PM, const Stmt *S, const VarDecl *V) {
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(S, V, Refs);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *Dd : DS->decls())
      if (Dd == V)
        return true;
  return llvm::any_of(
      Refs, [&](const DeclRefExpr *R) { return isPlainWrite(PM, R); });
}

int Builder::familyOf(const events::BarrierName &Id) {
  auto Key = std::make_pair(Id.Root->getCanonicalDecl(), Id.Display);
  for (std::size_t I = 0; I < FamilyKeys.size(); ++I)
    if (FamilyKeys[I] == Key)
      return static_cast<int>(I);
  FamilyKeys.push_back(std::move(Key));
  return static_cast<int>(FamilyKeys.size() - 1);
}

void Builder::barrierEvent(EventKind Kind, const OpValue &V, const DeviceOp &Op,
                           const OpSite &Site,
                           ::tma::rules::ordering::UseRole Role,
                           const Wait *W) {
  Event E;
  E.Kind = Kind;
  E.Role = Role;
  const VarDecl *Var = nullptr;
  E.Object = barrierObject(V, Var, E.FixedObject, &E);
  if (W && W->Parity && W->Phase.E && V.E)
    parity(*W, E);
  if (Kind == EventKind::BarrierWait)
    waitStage(V, E);
  const VarDecl *Index = E.FirstMember >= 0 ? IndexVar : nullptr;
  long long Start = IndexStart;
  predicated(Site, [&] {
    std::size_t N = Out.Events.size();
    emit(E, Site.Loc, Op, Var);
    if (Index && Out.Events.size() > N) {
      Out.Events.back().IndexVar = Index;
      Out.Events.back().IndexStart = Start;
    }
  });
}

void Builder::parity(const Wait &W, Event &E) {
  auto Through = [this](const Expr *X) {
    for (unsigned I = 0; X && I < 8; ++I) {
      const auto *D = dyn_cast<DeclRefExpr>(X->IgnoreParenCasts());
      const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
      const Expr *Arg = P && bindings() ? bindings()->lookup(P) : nullptr;
      if (!Arg)
        break;
      X = Arg;
    }
    return X;
  };
  auto Id = events::barrierNameOf(
      W.Barrier.E, [this](const VarDecl *VD) { return substitute(VD); }, Ctx,
      [this](const CallExpr &C) { return Finder.addressHelperArgument(C); });
  if (!Id)
    return;
  WaitParity P = Model.parities().of(
      Through(W.Phase.E), Id->Index ? Through(Id->Index) : nullptr, Id->Fixed,
      Id->Members, Stack.front(), BodyStmt);
  E.Parity = P.Form;
  E.ParityBit = P.Bit;
  E.ParityStages = static_cast<unsigned>(P.Stages);
  E.ParityPeriod = static_cast<unsigned>(P.Period);
  E.ParityRingStages = static_cast<unsigned>(P.RingStages);
  E.ParityMembers = static_cast<unsigned>(Id->Members);
  E.ParityLaterLaps = P.LaterLaps;
  ParityStep = P.Step ? P.Step->getBeginLoc() : SourceLocation();
  ParityFlip = P.Flip ? P.Flip->getBeginLoc() : SourceLocation();
  E.ParityUnknown = P.Form == ::tma::rules::ordering::ParityForm::Unknown &&
                    !P.Folds && !P.Followed && !P.RingStages;
}

} // namespace kmodel

} // namespace clang::tidy::tma
