//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The kernel model's construction: Builder walks a kernel's CFG (helpers
// spliced in at their calls) into its events, with their guards, barrier
// and map objects, shared-memory accesses and stages. The model's queries
// are in KernelModel.cpp.
//
// Above 1,000 lines for a reason: Builder is one class whose methods,
// written inline, call each other throughout the walk (an op's event reads
// the guard, the barrier and the map objects; a call splices the callee's
// walk in). Splitting it by event family needs the class declared in a
// header first; this change only moved it here, unchanged.
//
//===----------------------------------------------------------------------===//

#include "api/KernelModel.h"
#include "api/KernelModelBuild.h"
#include "api/BarrierPhases.h"
#include "api/CuteTensors.h"
#include "api/DeviceOpsCommon.h"
#include "api/KernelEvents.h"
#include "api/LoopParts.h"
#include "api/MapAddress.h"
#include "folding/Uses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <tuple>

namespace clang::tidy::tma {

using ::tma::rules::ordering::Event;
using ::tma::rules::ordering::EventKind;
using ::tma::rules::threads::Cond;
using ::tma::rules::threads::ThreadSet;
using namespace kmodel;

namespace {

class Builder {
public:
  Builder(ASTContext &Ctx, KernelModel &Model, DeviceOpsFinder &Finder,
          KernelSequence &Out, llvm::DenseSet<const FunctionDecl *> &Quiet,
          LocalAliases &Aliases, ThreadGuards &Guards, StageSlices &Slices,
          bool Threads)
      : Ctx(Ctx), Model(Model), Finder(Finder), Out(Out), Quiet(Quiet),
        Aliases(Aliases), Guards(Guards), Slices(Slices), Threads(Threads) {}

  bool run(const FunctionDecl *Kernel) {
    Stack.push_back(Kernel);
    Out.Block = Guards.blockOf(Kernel);
    Cur = Out.G.node();
    // Unknown threads everywhere when no rule reads them (no guard is read).
    if (Threads)
      Set = std::make_shared<const ThreadSet>();
    if (!body(Kernel, /*Kernel=*/true))
      Failed = true;
    if (Failed)
      return false;
    Out.G.finish();
    return true;
  }

private:
  void emit(Event E, SourceLocation OpLoc, std::optional<DeviceOp> Op = {},
            const VarDecl *Var = nullptr) {
    if (Out.Seq.size() >= MaxEvents) {
      Failed = true;
      return;
    }
    E.Threads = Set;
    E.Guarded |= Guarded;
    // A run of generic accesses to one buffer in one block is one event.
    if ((E.Kind == EventKind::GenericRead ||
         E.Kind == EventKind::GenericWrite) &&
        !Out.Seq.empty() && Out.G.nodeOf(Out.Seq.size() - 1) == Cur) {
      const Event &Last = Out.Seq.back();
      if (Last.Kind == E.Kind && Last.Object == E.Object &&
          Last.Mma == E.Mma && Last.Guarded == E.Guarded &&
          Last.Threads == E.Threads)
        return;
    }
    KernelEvent K;
    K.OpLoc = OpLoc;
    K.Loc = InHelper ? ViaLoc : OpLoc;
    K.InBody = !InHelper;
    K.Op = std::move(Op);
    K.Var = Var;
    // The toolkit's fences and atomics (system headers, a function named
    // neither for barriers nor for an init) initialise no mbarrier.
    if (E.Kind == EventKind::Opaque && !Stack.empty() &&
        Ctx.getSourceManager().isInSystemHeader(OpLoc)) {
      const FunctionDecl *In = Stack.back();
      K.NoInit = In && In->getIdentifier() &&
                 Ctx.getSourceManager().isInSystemHeader(In->getLocation()) &&
                 !In->getName().contains_insensitive("barrier") &&
                 !In->getName().contains_insensitive("init");
    }
    Out.G.event(Cur, Out.Seq.size());
    Out.Seq.push_back(std::move(E));
    Out.Events.push_back(std::move(K));
  }
  void simple(EventKind Kind, SourceLocation Loc) {
    Event E;
    E.Kind = Kind;
    emit(E, Loc);
  }

  /// A buffer: the variable, the region of a dynamic pool and the fields
  /// selected in it.
  int objectOf(const VarDecl *VD, const std::string &Path,
               const PoolRegion &Region) {
    for (std::size_t I = 0; I < BufferKeys.size(); ++I)
      if (BufferKeys[I].VD == VD && BufferKeys[I].Path == Path &&
          BufferKeys[I].Region == Region)
        return BufferIds[I];
    BufferKeys.push_back({VD, Path, Region});
    std::string Name = VD->getName().str();
    if (Region.Known && Region.Bytes)
      Name += (Region.Bytes < 0 ? " - " : " + ") +
              std::to_string(Region.Bytes < 0 ? -Region.Bytes : Region.Bytes);
    BufferIds.push_back(newObject(VD, Name + Path));
    return BufferIds.back();
  }
  /// A barrier: its identity's structural key.
  int objectOf(const events::BarrierName &Id) {
    for (auto &[Key, Obj] : BarrierKeys)
      if (Key == Id.Key)
        return Obj;
    // A barrier in a struct laid over a raw buffer (`sram.bar_empty[s]`
    // with `sram` a cast of `sbuffer`) is named with the fields on the way
    // (`sbuffer.bar_empty`), not as the buffer; a struct or barrier class
    // variable keeps its own name.
    const Type *T = Id.Root->getType()->getBaseElementTypeUnsafe();
    BarrierKeys.push_back(
        {Id.Key, newObject(Id.Root, T->isRecordType()
                                        ? Id.Root->getName().str()
                                        : Id.Display)});
    return BarrierKeys.back().second;
  }
  int newObject(const VarDecl *VD, std::string Name) {
    Out.Objects.push_back(VD);
    Out.Names.push_back(std::move(Name));
    return static_cast<int>(Out.Objects.size() - 1);
  }

  std::optional<Cond> guardOf(const Expr *C) {
    auto Resolve = [this](const ParmVarDecl *P) -> const Expr * {
      for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
        if (const Expr *A = F->lookup(P))
          return A;
      return nullptr;
    };
    return Guards.condition(C, Resolve);
  }

  /// The condition a two-way terminator branches on, as a thread condition
  /// (std::nullopt: unknown).
  std::optional<Cond> branchGuard(const CFGBlock &D) {
    const Stmt *T = D.getTerminatorStmt();
    const auto *C = dyn_cast_or_null<Expr>(D.getTerminatorCondition());
    if (!C || D.succ_size() != 2 || isa<CXXForRangeStmt>(T) ||
        isa<BinaryConditionalOperator>(T))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(T); If && If->getConditionVariable())
      return std::nullopt;
    if (!isa<IfStmt, ForStmt, WhileStmt, DoStmt, ConditionalOperator,
             BinaryOperator>(T))
      return std::nullopt;
    return guardOf(C);
  }

  /// The condition under which the threads at \p D take its successor
  /// edge \p Edge, and whether it holds there: a two-way branch's condition
  /// (true into its first successor, false into its second); for a
  /// `switch` on a thread expression f(t), `f(t) == V` into `case V:`
  /// (std::nullopt: unknown, a default or a range among them).
  std::optional<std::pair<Cond, bool>> edgeGuard(const CFGBlock &D, int Edge) {
    const auto *Switch = dyn_cast_or_null<SwitchStmt>(D.getTerminatorStmt());
    if (!Switch) {
      std::optional<Cond> C = Edge <= 1 ? branchGuard(D) : std::nullopt;
      if (!C)
        return std::nullopt;
      return std::make_pair(std::move(*C), Edge == 0);
    }
    if (Switch->getConditionVariable() || Switch->getInit())
      return std::nullopt;
    std::optional<Cond> C = guardOf(Switch->getCond());
    if (!C)
      return std::nullopt;
    if (C->K == Cond::True)
      return std::make_pair(std::move(*C), true);
    // The thread expression of `f(t) != 0`, the integer condition itself.
    if (C->K != Cond::Atom || C->Op != ::tma::rules::threads::Cmp::NE ||
        C->Value != 0)
      return std::nullopt;
    const CFGBlock *Succ = (D.succ_begin() + Edge)->getReachableBlock();
    const auto *Case =
        Succ ? dyn_cast_or_null<CaseStmt>(Succ->getLabel()) : nullptr;
    if (!Case || Case->caseStmtIsGNURange())
      return std::nullopt;
    Expr::EvalResult V;
    if (Case->getLHS()->isValueDependent() ||
        !Case->getLHS()->EvaluateAsInt(V, Ctx))
      return std::nullopt;
    return std::make_pair(Cond::atom(C->Expr, ::tma::rules::threads::Cmp::EQ,
                                     V.Val.getInt().getSExtValue()),
                          true);
  }

  /// The block that the edge from \p B into \p Succ leads to: the body of
  /// a `for` loop whose first pass surely runs (Succ its condition, B
  /// before the loop, the condition shows no event), else Succ. The loop
  /// has no zero-trip path then.
  unsigned entryOf(const CFGBlock &B, const CFGBlock &Succ,
                   const std::vector<char> &HasEvents) {
    const auto *For = dyn_cast_or_null<ForStmt>(Succ.getTerminatorStmt());
    if (!For || B.getLoopTarget() == For || HasEvents[Succ.getBlockID()] ||
        Succ.succ_empty() || !Guards.firstPassRuns(*For, Out.Block))
      return Succ.getBlockID();
    const CFGBlock *Body = Succ.succ_begin()->getReachableBlock();
    return Body ? Body->getBlockID() : Succ.getBlockID();
  }

  /// Splices the CFG of \p FD's body in at the current node: the events of
  /// its blocks in reverse post-order, each block's threads from its
  /// immediate dominator. The kernel's exits end the flow; a helper's lead
  /// to a node after the call. False when the model cannot follow the body.
  bool body(const FunctionDecl *FD, bool Kernel) {
    const KernelModel::BodyGraph *BG = Model.graphOf(FD);
    if (!BG)
      return false;
    const CFG &Cfg = *BG->Graph;
    const unsigned N = Cfg.getNumBlockIDs();
    std::vector<std::size_t> First(N), Last(N);
    std::vector<std::shared_ptr<const ThreadSet>> Sets(N);
    std::vector<char> Under(N, 0), HasEvents(N, 1);
    for (const CFGBlock *B : BG->Order) {
      if (Failed)
        return true;
      if (B == &Cfg.getExit())
        continue;
      const unsigned Id = B->getBlockID();
      const KernelModel::BodyGraph::Info &I = BG->Blocks[Id];
      if (B == &Cfg.getEntry()) {
        Sets[Id] = Set;
        Under[Id] = Guarded;
      } else {
        std::shared_ptr<const ThreadSet> S;
        bool U = true;
        if (I.Idom) {
          unsigned D = I.Idom->getBlockID();
          if (I.Joins) {
            S = Sets[D];
            U = Under[D];
          } else if (I.Edge >= 0) {
            U = Under[D] || !isLoop(I.Idom->getTerminatorStmt());
            const auto *For =
                dyn_cast_or_null<ForStmt>(I.Idom->getTerminatorStmt());
            // A thread-strided loop's body runs in the threads that reach
            // it, each on its own elements.
            if (For && I.Edge == 0 && Guards.threadStrided(*For))
              S = Sets[D];
            else if (Sets[D])
              if (auto C = edgeGuard(*I.Idom, I.Edge))
                S = C->first.K == Cond::True
                        ? Sets[D]
                        : std::make_shared<const ThreadSet>(
                              Sets[D]->under(C->first, C->second));
          }
        }
        Sets[Id] = std::move(S);
        Under[Id] = U;
        Cur = Out.G.node();
      }
      Set = Sets[Id];
      Guarded = Under[Id];
      First[Id] = Cur;
      std::size_t Before = Out.Seq.size();
      for (const CFGElement &E : *B)
        if (auto S = E.getAs<CFGStmt>())
          element(S->getStmt());
      Last[Id] = Cur;
      HasEvents[Id] = Out.Seq.size() != Before || First[Id] != Last[Id];
      if (Out.G.nodes() > MaxNodes)
        Failed = true;
    }
    std::size_t After = Kernel ? 0 : Out.G.node();
    for (const CFGBlock *B : BG->Order) {
      const unsigned Id = B->getBlockID();
      if (B == &Cfg.getExit())
        continue;
      for (const CFGBlock::AdjacentBlock &S : B->succs()) {
        const CFGBlock *Succ = S.getReachableBlock();
        if (!Succ)
          continue;
        if (Succ != &Cfg.getExit())
          Out.G.edge(Last[Id], First[entryOf(*B, *Succ, HasEvents)]);
        else if (Kernel)
          Out.G.exit(Last[Id], BG->Blocks[Id].EarlyExit);
        else
          Out.G.edge(Last[Id], After);
      }
    }
    Cur = After;
    return true;
  }

  /// One element of a block: an expression or statement whose operands
  /// are elements before it.
  void element(const Stmt *S) {
    if (Failed)
      return;
    if (!InHelper)
      BodyStmt = S;
    else
      HelperStmt = S;
    for (const events::Access &A : events::accessesOf(S))
      A.Write ? write(A.LValue, A.Loc) : read(A.LValue, A.Loc);
    if (isa<BinaryOperator, UnaryOperator, ImplicitCastExpr>(S))
      return;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      asmEvents(*Asm);
      return;
    }
    if (isa<AsmStmt>(S)) {
      simple(EventKind::Opaque, S->getBeginLoc());
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->isAssignmentOp() && Op->getNumArgs() == 2)
      return;
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      call(*C);
      return;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = C->getConstructor();
      if (Ctor && !Ctor->isTrivial())
        callee(Ctor, C->getBeginLoc());
      return;
    }
  }

  void write(const Expr *Lhs, SourceLocation Loc) {
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

  /// TMAP-INFLIGHT-IMMUTABLE: a store into a `CUtensorMap` that a kernel
  /// pointer parameter points to (through subscripts, members, casts).
  void mapWrite(const Expr *Lhs, SourceLocation Loc) {
    if (mapPartWrite(Lhs, Loc) || !holdsMap(Lhs->getType(), 0))
      return;
    // A whole map, or an object holding one, stored through a pointer
    // the map's address names.
    if (std::optional<MapAddress> A = mapAddress(Lhs))
      mapEvent(EventKind::MapWrite, mapObjectAt(*A, Lhs), Loc);
  }
  /// A type that is, or holds, a `CUtensorMap`.
  static bool holdsMap(QualType T, unsigned Depth) {
    if (Depth > 4 || T.isNull())
      return false;
    if (const auto *AT = T->getAsArrayTypeUnsafe())
      return holdsMap(AT->getElementType(), Depth + 1);
    const auto *RD = T->getAsRecordDecl();
    if (!RD || RD->isDependentType())
      return false;
    if (RD->getIdentifier() && RD->getName().starts_with("CUtensorMap"))
      return true;
    const RecordDecl *Def = RD->getDefinition();
    return Def && llvm::any_of(Def->fields(), [&](const FieldDecl *F) {
             return holdsMap(F->getType(), Depth + 1);
           });
  }
  /// A store into (a part of) the map a `CUtensorMap *` parameter of the
  /// kernel points to (through subscripts, members, casts).
  bool mapPartWrite(const Expr *Lhs, SourceLocation Loc) {
    bool Derefs = false;
    const Expr *E = Lhs;
    while (E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
        const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        if (const ParamBindings *B = bindings(); P && B)
          if (const Expr *Arg = B->lookup(P)) {
            if (!Derefs)
              return true; // the helper's own pointer, not the map
            E = Arg;
            continue;
          }
        if (!Derefs || !P || !isTensorMapPointer(P->getType()))
          return false;
        int Map = mapObject(E);
        mapEvent(EventKind::MapWrite, Map, Loc);
        return Map >= 0;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        Derefs = true;
        E = A->getBase();
      } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
        Derefs |= M->isArrow();
        E = M->getBase();
      } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
        if (U->getOpcode() != UO_Deref && U->getOpcode() != UO_AddrOf)
          return false;
        Derefs |= U->getOpcode() == UO_Deref;
        E = U->getSubExpr();
      } else if (const auto *C = dyn_cast<CastExpr>(E)) {
        E = C->getSubExpr();
      } else if (const auto *B = dyn_cast<BinaryOperator>(E);
                 B && B->isAdditiveOp()) {
        E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
      } else {
        return false;
      }
    }
    return false;
  }
  static bool isTensorMapPointer(QualType T) {
    if (!T->isPointerType())
      return false;
    const auto *RD = T->getPointeeType()->getAsRecordDecl();
    return RD && RD->getIdentifier() &&
           RD->getName().starts_with("CUtensorMap");
  }
  void mapEvent(EventKind Kind, int Map, SourceLocation Loc) {
    if (Map < 0)
      return;
    Event E;
    E.Kind = Kind;
    E.Map = Map;
    emit(E, Loc);
  }
  /// The map a `tensormap.replace` / `tensormap.cp_fenceproxy` writes: its
  /// first operand `[%N]`, through the address conversion CCCL wraps it in.
  int asmMapOperand(const GCCAsmStmt &S, llvm::StringRef Operands) {
    llvm::StringRef First = Operands.split(',').first.trim(" \t[]");
    unsigned Index = 0;
    if (!First.consume_front("%") || First.getAsInteger(10, Index) ||
        Index < S.getNumOutputs() ||
        Index - S.getNumOutputs() >= S.getNumInputs())
      return -1;
    const Expr *E = S.getInputExpr(Index - S.getNumOutputs());
    for (;;) {
      E = E->IgnoreParenCasts();
      const auto *C = dyn_cast<CallExpr>(E);
      if (!C || C->getNumArgs() != 1)
        break;
      E = C->getArg(0); // __as_ptr_gmem(p), __cvta_generic_to_global(p)
    }
    return mapObject(E);
  }

  /// The object of a barrier operand; -1 when it is no `__shared__`
  /// variable of the kernel the model can name.
  /// With \p E, also its family and, for an init, whether it makes every
  /// member of it.
  /// With \p At (or \p E), also where the barrier lies (Event::Region,
  /// Part).
  int barrierObject(const OpValue &V, const VarDecl *&Var, bool &Fixed,
                    Event *E = nullptr, Event *At = nullptr) {
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
    }
    int Obj = objectOf(*Id);
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
  /// Where the barrier \p Id lies (Event::Region, Part): its `__shared__`
  /// variable, none for the dynamic pool (every `extern __shared__`
  /// variable aliases it), and the field of the variable's own type that
  /// its name selects first (none through a union, or when a cast laid
  /// another type over the variable: such a view may overlap any field).
  void regionOf(const events::BarrierName &Id, Event &E) {
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

  /// A pool barrier at a window address (Event::Window): its family (the
  /// pool, the bytes per member, the index variable), its offset and the
  /// epoch of its index.
  void windowOf(const events::BarrierName &Id, Event &E) {
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

  /// Where the index variable \p V, read at \p D in the kernel's body, has
  /// one value: the statement of the innermost loop body around D (or of
  /// the kernel's body) that holds D, counted by the statements before it
  /// that write V; -1 when D's own statement writes V, D lies in a loop's
  /// header or a lambda, or V may change unseen (its address is taken, it
  /// is bound to a reference, it is no local of the kernel).
  int epochOf(const DeclRefExpr *D, const VarDecl *V) {
    const FunctionDecl *Kernel = Stack.empty() ? nullptr : Stack.front();
    if (!Kernel || !Kernel->getBody() || !V->hasLocalStorage() ||
        V->getDeclContext() != Kernel || V->getType()->isReferenceType())
      return -1;
    if (!KernelParents)
      KernelParents = std::make_unique<ParentMap>(Kernel->getBody());
    const ParentMap &PM = *KernelParents;
    if (!PM.getParent(D))
      return -1;
    // Only reads and plain writes of V anywhere in the kernel.
    auto [Seen, New] = PlainVars.try_emplace(V, true);
    if (New) {
      llvm::SmallVector<const DeclRefExpr *, 8> Refs;
      refsTo(Kernel->getBody(), V, Refs);
      for (const DeclRefExpr *R : Refs)
        if (!isRead(PM, R) && !isPlainWrite(PM, R))
          Seen->second = false;
    }
    if (!Seen->second)
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
  int epochKey(const Stmt *Pass, const VarDecl *V, unsigned Writes) {
    auto Key = std::make_tuple(Pass, V, Writes);
    auto It = llvm::find(EpochKeys, Key);
    if (It == EpochKeys.end())
      It = EpochKeys.insert(EpochKeys.end(), Key);
    return static_cast<int>(It - EpochKeys.begin());
  }
  static bool isRead(const ParentMap &PM, const DeclRefExpr *R) {
    const Stmt *C = nullptr;
    const auto *IC =
        dyn_cast_or_null<ImplicitCastExpr>(parentThroughParens(PM, R, C));
    return IC && IC->getCastKind() == CK_LValueToRValue;
  }
  static bool isPlainWrite(const ParentMap &PM, const DeclRefExpr *R) {
    const Stmt *C = nullptr;
    const Stmt *P = parentThroughParens(PM, R, C);
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(P))
      return U->isIncrementDecrementOp();
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
      return B->isAssignmentOp() && B->getLHS() == C;
    return false;
  }
  bool writesVar(const ParentMap &PM, const Stmt *S, const VarDecl *V) {
    llvm::SmallVector<const DeclRefExpr *, 8> Refs;
    refsTo(S, V, Refs);
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *Dd : DS->decls())
        if (Dd == V)
          return true;
    return llvm::any_of(Refs, [&](const DeclRefExpr *R) {
      return isPlainWrite(PM, R);
    });
  }

  /// The family of a barrier: its root and fields, whatever the indices.
  int familyOf(const events::BarrierName &Id) {
    auto Key = std::make_pair(Id.Root->getCanonicalDecl(), Id.Display);
    for (std::size_t I = 0; I < FamilyKeys.size(); ++I)
      if (FamilyKeys[I] == Key)
        return static_cast<int>(I);
    FamilyKeys.push_back(std::move(Key));
    return static_cast<int>(FamilyKeys.size() - 1);
  }

  void read(const Expr *E, SourceLocation Loc) {
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
    emit(Ev, Loc, std::nullopt, VD);
  }

  /// Names the barrier operand of an op.
  void barrierEvent(EventKind Kind, const OpValue &V, const DeviceOp &Op,
                    const OpSite &Site,
                    ::tma::rules::ordering::UseRole Role = {},
                    const Wait *W = nullptr) {
    Event E;
    E.Kind = Kind;
    E.Role = Role;
    const VarDecl *Var = nullptr;
    E.Object = barrierObject(V, Var, E.FixedObject, &E);
    if (W && W->Parity && W->Phase.E && V.E)
      parity(*W, E);
    predicated(Site, [&] { emit(E, Site.Loc, Op, Var); });
  }

  /// A wait's parity (api/WaitParity), its operand and barrier index seen
  /// through the parameters of the helpers being walked.
  void parity(const Wait &W, Event &E) {
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
        W.Barrier.E, [this](const VarDecl *VD) { return substitute(VD); },
        Ctx,
        [this](const CallExpr &C) { return Finder.addressHelperArgument(C); });
    if (!Id)
      return;
    WaitParity P = Model.parities().of(
        Through(W.Phase.E), Id->Index ? Through(Id->Index) : nullptr,
        Id->Fixed, Id->Members, Stack.front(), BodyStmt);
    E.Parity = P.Form;
    E.ParityBit = P.Bit;
    E.ParityUnknown =
        P.Form == ::tma::rules::ordering::ParityForm::Unknown && !P.Folds;
  }

  /// The object of a tensor map operand: a pointer parameter of the kernel
  /// (global memory); -1 for anything else.
  int mapObject(const OpValue &V) { return V.E ? mapObject(V.E) : -1; }
  int mapObject(const Expr *E) {
    std::optional<MapAddress> A = mapAddress(E);
    return A ? mapObjectAt(*A, bound(E)) : -1;
  }
  std::optional<MapAddress> mapAddress(const Expr *E) {
    return Maps.of(E, Stack.front(), [this](const ParmVarDecl *P) {
      const ParamBindings *B = bindings();
      const Expr *Arg = B ? B->lookup(P) : nullptr;
      return Arg ? Finder.lookThrough(Arg) : nullptr;
    });
  }
  /// The map object at \p A, named after \p Spelt (the operand as the
  /// kernel writes it) when it is first seen.
  int mapObjectAt(const MapAddress &A, const Expr *Spelt) {
    for (const auto &[Key, Id] : MapKeys)
      if (Key == A)
        return Id;
    std::string Name = A.Root->getName().str();
    if (A.Offset != 0)
      Name += " + " + std::to_string(A.Offset) + " bytes";
    if (Spelt) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange R = CharSourceRange::getTokenRange(
          Spelt->IgnoreParenImpCasts()->getSourceRange());
      llvm::StringRef Text =
          R.getBegin().isMacroID() || R.getEnd().isMacroID()
              ? llvm::StringRef()
              : Lexer::getSourceText(R, SM, Ctx.getLangOpts());
      Text = Text.ltrim("&*").trim();
      if (!Text.empty() && Text.size() <= 48 && !Text.contains('\n'))
        Name = Text.str();
    }
    MapKeys.push_back({A, newObject(A.Root, std::move(Name))});
    return MapKeys.back().second;
  }

  /// The part a load and a store share: \p E's kind, its map and the
  /// shared buffer \p Buf names (\p Whole: nothing selected a part of it);
  /// the buffer's variable, or null.
  const VarDecl *copyEvent(Event &E, EventKind Kind, bool Tensor,
                           const Expr *Buf, const OpValue *Map, bool &Whole,
                           PoolRegion *At = nullptr) {
    if (Map)
      E.Map = mapObject(*Map);
    E.Kind = Kind;
    E.Tensor = Tensor;
    std::string Path;
    PoolRegion Region;
    const VarDecl *VD =
        Buf ? sharedRoot(Buf, Whole, bindings(), &Path, false, &Aliases,
                         &Region)
            : nullptr;
    if (VD)
      E.Object = objectOf(VD, Path, Region);
    if (At)
      *At = Path.empty() ? Region : PoolRegion{0, true, false};
    return VD;
  }

  /// A copy into shared memory: what it writes and where it completes.
  void loadEvent(const OpValue &Dst, const OpValue &Barrier, bool Tensor,
                 const DeviceOp &Op, const OpSite &Site,
                 const OpValue *Map = nullptr) {
    Event E;
    bool Whole = false;
    const VarDecl *VD =
        copyEvent(E, EventKind::Load, Tensor, Dst.E, Map, Whole);
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

  /// Sets \p E's stage of its buffer (Event::Slice, Period) from the
  /// address \p Addr (with \p Element, the lvalue of a written element);
  /// the stage's bytes (0: not an array), or std::nullopt when unknown.
  std::optional<std::uint64_t> stage(const Expr *Addr, bool Element,
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
    auto [It, Inserted] =
        SliceIds.try_emplace(S->Key, static_cast<int>(SliceIds.size()));
    E.Slice = It->second;
    E.Period = S->Period;
    E.Once = S->Once;
    E.PerThread = S->PerThread;
    return S->Bytes;
  }

  /// Whether \p FD's body has a loop (then the ops of a helper are not in
  /// the kernel's innermost loop only).
  bool hasLoop(const FunctionDecl *FD) {
    auto [It, Inserted] = Loopy.try_emplace(FD, false);
    if (!Inserted)
      return It->second;
    return It->second = findsLoop(FD->getBody());
  }
  static bool findsLoop(const Stmt *S) {
    if (!S)
      return false;
    if (isLoop(S) || isa<GotoStmt>(S))
      return true;
    for (const Stmt *C : S->children())
      if (findsLoop(C))
        return true;
    return false;
  }

  template <typename Fn> void predicated(const OpSite &Site, Fn &&F) {
    if (!Site.Predicated) {
      F();
      return;
    }
    // `@p`: the threads where p holds.
    auto SavedSet = Set;
    bool SavedGuarded = Guarded;
    Set = nullptr;
    Guarded = true;
    F();
    Set = std::move(SavedSet);
    Guarded = SavedGuarded;
  }

  void storeEvent(const OpValue &Src, const OpValue *Size, bool Tensor,
                  const DeviceOp &Op, const OpSite &Site,
                  const OpValue *Map = nullptr) {
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
          (Tensor && ((VD->hasExternalStorage() && Region.Known &&
                       Region.Start) ||
                      events::startOfBuffer(
                          Src.E,
                          [this](const VarDecl *V) { return substitute(V); },
                          Ctx, VD)));
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

  void opEvent(const DeviceOp &Op) {
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
      barrierEvent(EventKind::BarrierUse, std::get<Arrive>(Op).Barrier, Op,
                   Site, ::tma::rules::ordering::UseRole::Arrive);
      return;
    case OpKind::BarrierInit:
      barrierEvent(EventKind::BarrierInit, std::get<BarrierInit>(Op).Barrier,
                   Op, Site);
      return;
    case OpKind::Wait:
      barrierEvent(EventKind::BarrierWait, std::get<Wait>(Op).Barrier, Op,
                   Site, {}, &std::get<Wait>(Op));
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

  /// The depth of `cp.async.bulk.wait_group{.read} X`.
  std::optional<std::uint64_t> asmDepth(const GCCAsmStmt &S,
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

  /// The pointer whose shared-window address \p E computes: through
  /// `__cvta_generic_to_shared(p)` and address helpers, integer offsets
  /// added to it, casts, and locals never written after their
  /// initialisation; null when it is no such address.
  const Expr *addressedPointer(const Expr *E) {
    for (unsigned Steps = 0; E && Steps < 32; ++Steps) {
      E = E->IgnoreParenCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
        const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        if (const Expr *Arg =
                P && bindings() ? bindings()->lookup(P) : nullptr) {
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

  /// `stmatrix [%n], ...` / `st.shared.* [%n], ...` (a generic write) and
  /// `ld.shared.* %r, [%n]` / `ldmatrix {...}, [%n]` (a generic read) of the
  /// buffer whose address operand %n computes.
  void asmAccess(const GCCAsmStmt &S, std::optional<unsigned> Index,
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

  /// An access of \p Kind to the shared buffer that \p Ptr points into;
  /// none when the buffer is unknown.
  bool accessOf(const Expr *Ptr, EventKind Kind, bool Mma, SourceLocation Loc) {
    bool Whole = false;
    std::string Path;
    PoolRegion Region;
    const VarDecl *VD =
        Ptr ? sharedRoot(Ptr, Whole, bindings(), &Path, false, &Aliases,
                         &Region)
            : nullptr;
    if (!VD)
      return false;
    Event E;
    E.Kind = Kind;
    E.Mma = Mma;
    E.Object = objectOf(VD, Path, Region);
    emit(E, Loc, std::nullopt, VD);
    return true;
  }

  /// The shared pointer the matrix descriptor \p E is built from: through
  /// helper parameters, locals never written after their initialisation (a
  /// descriptor object's later field writes advance its address within the
  /// buffer it starts in), a descriptor object's conversion to its integer,
  /// `|` and `+` with a part that is no address, and calls of helpers that
  /// build it from a pointer parameter (descriptorParam); null when it is
  /// none.
  const Expr *descriptorPointer(const Expr *E) {
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
        unsigned Shift = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
        return I && *I + Shift < C->getNumArgs() ? C->getArg(*I + Shift)
                                                  : nullptr;
      }
      return nullptr;
    }
    return nullptr;
  }

  /// `wgmma.mma_async` / `tcgen05.mma` reading the buffer that its
  /// shared-memory descriptor operand %n describes (silent when the
  /// descriptor's buffer is unknown).
  void mmaRead(const GCCAsmStmt &S, unsigned Index, SourceLocation Loc) {
    if (Index < S.getNumOutputs() ||
        Index - S.getNumOutputs() >= S.getNumInputs())
      return;
    accessOf(descriptorPointer(S.getInputExpr(Index - S.getNumOutputs())),
             EventKind::GenericRead, /*Mma=*/true, Loc);
  }

  void asmEvents(const GCCAsmStmt &S) {
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

  /// The ordering events that library functions without a visible body
  /// stand for, by name.
  bool namedEvent(const FunctionDecl &FD, SourceLocation Loc) {
    if (!FD.getIdentifier())
      return false;
    llvm::StringRef Name = FD.getName();
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
        if (const auto *RD =
                FD.getParamDecl(0)->getType()->getAsCXXRecordDecl())
          if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
            E.Depth = firstIntegral(&Spec->getTemplateArgs());
      emit(E, Loc);
      return true;
    }
    return false;
  }

  /// cuda::ptx::tensormap_replace_*(space_global, map, ...) and
  /// tensormap_cp_fenceproxy(sem, scope, map, src, size): writes of a map
  /// in global memory (their bodies, an asm statement, are not walked).
  bool tensorMapWrite(const FunctionDecl &FD, const CallExpr &C) {
    if (!FD.getIdentifier())
      return false;
    llvm::StringRef Name = FD.getName();
    const Expr *Map = nullptr;
    if (Name.starts_with("tensormap_replace_") && C.getNumArgs() >= 2) {
      // space_global_t, or what it names: space_t<dot_space::global>.
      std::string Space =
          C.getArg(0)->getType().getCanonicalType().getAsString();
      if (!llvm::StringRef(Space).contains("global"))
        return false;
      Map = C.getArg(1);
    } else if (Name == "tensormap_cp_fenceproxy" && C.getNumArgs() == 5) {
      Map = C.getArg(2);
    } else {
      return false;
    }
    mapEvent(EventKind::MapWrite, mapObject(Map), C.getBeginLoc());
    return true;
  }

  /// cuda::barrier's arrive / wait / wait_parity / arrive_and_wait members
  /// (CCCL's bodies are NVVM builtins the model does not follow): an arrive and
  /// a wait on the barrier object, when the model can name it.
  bool libcudacxxBarrier(const FunctionDecl &FD, const CallExpr &C) {
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

  /// libcu++'s `init(&bar, n)`: an mbarrier.init of the barrier (its body,
  /// behind target dispatch, is not walked).
  bool libcudacxxInit(const FunctionDecl &FD, const CallExpr &C) {
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

  void intrinsicEvent(events::IntrinsicRole Role, SourceLocation Loc) {
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

  /// The one shared buffer the CuTe tensor view \p E is built from, as an
  /// address sharedRoot names; null when there is none or more than one.
  const Expr *cuteBuffer(const Expr *E) {
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

  /// `&E` for the object \p E (made once per expression, in the AST's
  /// memory), for the walks that name a barrier by its address.
  const Expr *addressOf(const Expr *E) {
    const Expr *&A = AddressOf[E];
    if (!A)
      A = UnaryOperator::Create(
          Ctx, const_cast<Expr *>(E), UO_AddrOf,
          Ctx.getPointerType(E->getType()), VK_PRValue, OK_Ordinary,
          E->getBeginLoc(), /*CanOverflow=*/false, FPOptionsOverride());
    return A;
  }

  /// CuTe's algorithms, whose bodies lie too deep for the walk: a TMA load
  /// atom's `copy(tma.with(bar), src, dst)` is a tensor load into dst's
  /// buffer completing on bar; `gemm(mma, A, B, C)` reads A's and B's
  /// buffers (an MMA's shared-memory operands).
  bool cuteAlgorithm(const CallExpr &C) {
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

  void call(const CallExpr &C) {
    if (std::optional<DeviceOp> Op = Finder.opOf(C)) {
      opEvent(*Op);
      return;
    }
    if (cuteAlgorithm(C))
      return;
    const FunctionDecl *FD = C.getDirectCallee();
    if (!FD) {
      simple(EventKind::Opaque, C.getBeginLoc());
      return;
    }
    if (tensorMapWrite(*FD, C) || libcudacxxBarrier(*FD, C) ||
        libcudacxxInit(*FD, C))
      return;
    // The helper's parameters stand for the arguments of this call.
    ParamBindings Frame;
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) &&
                             !cast<CXXMethodDecl>(FD)->isStatic()
                         ? 1
                         : 0;
    bool SharedArg = false, MapArg = false;
    for (unsigned I = 0; I < FD->getNumParams() && I + Shift < C.getNumArgs();
         ++I) {
      const Expr *Arg = bound(C.getArg(I + Shift));
      // An integer parameter given `smem_u32(p)` stands for p's address.
      if (const auto *Conv = dyn_cast<CallExpr>(Arg->IgnoreParenCasts()))
        if (const Expr *Ptr = Finder.addressHelperArgument(*Conv))
          Arg = Ptr;
      Frame[FD->getParamDecl(I)] = Arg;
      bool Whole = false;
      SharedArg |= sharedRoot(Arg, Whole, bindings(), nullptr, false,
                              &Aliases) != nullptr;
      // A matrix descriptor of a shared buffer (an MMA helper's operand).
      if (!SharedArg && !Arg->getType()->isPointerType() &&
          (Arg->getType()->isIntegerType() || Arg->getType()->isRecordType()))
        if (const Expr *Ptr = descriptorPointer(Arg))
          SharedArg = sharedRoot(Ptr, Whole, bindings(), nullptr, false,
                                 &Aliases) != nullptr;
      MapArg = MapArg || namesMapPointer(Arg);
    }
    // A member of a barrier or pipeline object in shared memory: `this`
    // stands for it.
    const Expr *ThisObj = events::thisObject(
        C, This.empty() ? nullptr : This.back(),
        [this](const VarDecl *V) { return substitute(V); }, Ctx);
    SharedArg |= ThisObj != nullptr;
    // A helper that showed no event and gets no shared buffer now shows
    // none again (its events other than buffer accesses do not depend on
    // its arguments): the walk of math and index helpers is done once.
    const FunctionDecl *Def = nullptr;
    if (!SharedArg && FD->hasBody(Def) && Def && Quiet.count(Def))
      return;
    std::size_t Before = Out.Seq.size();
    // Every frame's parameters stay bound while the helper runs: an
    // argument of an inner call may name a parameter of an outer helper
    // (`inner(buf + off)` in `outer(float *buf)`).
    std::vector<std::pair<const ParmVarDecl *, const Expr *>> Saved;
    for (const auto &[P, Arg] : Frame) {
      Saved.push_back({P, AllBindings.lookup(P)});
      AllBindings[P] = Arg;
    }
    Frames.push_back(std::move(Frame));
    This.push_back(ThisObj);
    callee(FD, C.getBeginLoc(), SharedArg || MapArg);
    This.pop_back();
    Frames.pop_back();
    for (const auto &[P, Old] : Saved) {
      if (Old)
        AllBindings[P] = Old;
      else
        AllBindings.erase(P);
    }
    if (!SharedArg && Def && Out.Seq.size() == Before && !Failed)
      Quiet.insert(Def);
  }

  const ParamBindings *bindings() const {
    return Frames.empty() ? nullptr : &AllBindings;
  }
  /// What a helper parameter or a local pointer or reference stands for;
  /// for null, what `this` stands for.
  const Expr *substitute(const VarDecl *VD) {
    if (!VD)
      return This.empty() ? nullptr : This.back();
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      return bindings() ? bindings()->lookup(P) : nullptr;
    const Expr *Init = Aliases.initOf(VD);
    // `uint32_t a = smem_u32(&bar)`: a stands for bar's address.
    if (const auto *Conv =
            dyn_cast_or_null<CallExpr>(Init ? Init->IgnoreParenCasts() : nullptr))
      if (const Expr *Ptr = Finder.addressHelperArgument(*Conv))
        return Ptr;
    return Init;
  }
  /// \p E, or the argument a parameter \p E names stands for.
  const Expr *bound(const Expr *E) const {
    const Expr *S = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(S))
      if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
        if (const ParamBindings *B = bindings())
          if (const Expr *Arg = B->lookup(P))
            return Finder.lookThrough(Arg);
    return E;
  }

  /// Whether \p E, through the bindings, names a tensor-map pointer
  /// parameter the way mapWrite follows a store's target: a helper given
  /// it may write a kernel's map through its parameter.
  bool namesMapPointer(const Expr *E) const {
    while (E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
        const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
        if (const ParamBindings *B = bindings(); P && B)
          if (const Expr *Arg = B->lookup(P)) {
            E = Arg;
            continue;
          }
        return P && isTensorMapPointer(P->getType());
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
        E = A->getBase();
      else if (const auto *M = dyn_cast<MemberExpr>(E))
        E = M->getBase();
      else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
        E = U->getSubExpr();
      else if (const auto *C = dyn_cast<CastExpr>(E))
        E = C->getSubExpr();
      else if (const auto *B = dyn_cast<BinaryOperator>(E);
               B && B->isAdditiveOp())
        E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
      else
        return false;
    }
    return false;
  }

  /// \p Bound: some parameter of \p FD stands for a shared buffer or a
  /// kernel's tensor map at this call.
  void callee(const FunctionDecl *FD, SourceLocation Loc, bool Bound = false) {
    if (namedEvent(*FD, Loc) || events::ordersNothing(*FD))
      return;
    if (unsigned ID = FD->getBuiltinID()) {
      intrinsicEvent(events::builtinRole(Ctx.BuiltinInfo.getName(ID)), Loc);
      return;
    }
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def) {
      // CUDA intrinsics declared without a body (address conversions,
      // shuffles, math) order nothing; anything else may.
      intrinsicEvent(events::bodylessRole(*FD), Loc);
      return;
    }
    // A helper that provably shows nothing (math, wgmma, index helpers)
    // would leave no node: neither its CFG nor its walk is needed, however
    // deep it sits.
    if (!Bound && Model.showsNothing(Def, Stack.size() + 1))
      return;
    if (Stack.size() > MaxDepth || llvm::is_contained(Stack, Def)) {
      simple(EventKind::Opaque, Loc);
      return;
    }
    // Events of a helper point at its call (or construction) in the body.
    bool Outer = InHelper;
    if (!InHelper)
      ViaLoc = Loc;
    InHelper = true;
    // The helper's CFG goes in at the call; its threads start as the
    // call's, and every thread that returns from it is back after it.
    std::size_t Nodes = Out.G.nodes(), Events = Out.Seq.size(), At = Cur;
    auto SavedSet = Set;
    bool SavedGuarded = Guarded;
    Stack.push_back(Def);
    Calls.push_back(++CallCount);
    const Stmt *SavedStmt = HelperStmt;
    HelperStmt = nullptr;
    bool Loops = hasLoop(Def);
    LoopyHelpers += Loops;
    bool Followed = body(Def, /*Kernel=*/false);
    LoopyHelpers -= Loops;
    HelperStmt = SavedStmt;
    Calls.pop_back();
    Stack.pop_back();
    InHelper = Outer;
    Set = std::move(SavedSet);
    Guarded = SavedGuarded;
    if (Failed)
      return;
    // A helper with no event leaves no node.
    if (Out.Seq.size() == Events) {
      Out.G.rollback(Nodes);
      Cur = At;
    }
    if (!Followed)
      simple(EventKind::Opaque, Loc);
  }

  ASTContext &Ctx;
  KernelModel &Model;
  DeviceOpsFinder &Finder;
  KernelSequence &Out;
  /// Helpers whose walk showed no event with no shared buffer passed (for
  /// all kernels of the TU).
  llvm::DenseSet<const FunctionDecl *> &Quiet;
  LocalAliases &Aliases;
  ThreadGuards &Guards;
  StageSlices &Slices;
  /// The stages named so far (Event::Slice), by key.
  llvm::StringMap<int> SliceIds;
  /// The kernel body's statement being walked (a helper's call).
  const Stmt *BodyStmt = nullptr;
  /// Helpers with a loop on the walk's stack.
  unsigned LoopyHelpers = 0;
  /// The statement of the innermost helper being walked, and each helper
  /// call on the stack numbered (a stage spelled with a helper's locals is
  /// one only within the same call).
  const Stmt *HelperStmt = nullptr;
  llvm::SmallVector<unsigned, 8> Calls;
  unsigned CallCount = 0;
  llvm::DenseMap<const FunctionDecl *, bool> Loopy;
  /// Whether the events get thread sets.
  const bool Threads;
  /// The node the events go to, and the threads that run them there
  /// (null: unknown); Guarded as Event::Guarded.
  std::size_t Cur = 0;
  std::shared_ptr<const ThreadSet> Set;
  bool Guarded = false;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  struct BufferKey {
    const VarDecl *VD;
    std::string Path;
    PoolRegion Region;
  };
  std::vector<BufferKey> BufferKeys;
  std::vector<int> BufferIds;
  std::vector<std::pair<llvm::FoldingSetNodeID, int>> BarrierKeys;
  std::vector<std::pair<const VarDecl *, std::string>> FamilyKeys;
  std::vector<const VarDecl *> RegionKeys;
  std::vector<const FieldDecl *> PartKeys;
  std::vector<std::tuple<const VarDecl *, std::int64_t, const VarDecl *>>
      WindowKeys;
  std::vector<std::tuple<const Stmt *, const VarDecl *, unsigned>> EpochKeys;
  std::unique_ptr<ParentMap> KernelParents;
  /// Index variables only read and plainly written in the kernel.
  llvm::DenseMap<const VarDecl *, bool> PlainVars;
  std::vector<std::pair<MapAddress, int>> MapKeys;
  MapAddresses Maps{Ctx, Aliases};
  /// Walking a helper, called (or constructed) in the body at ViaLoc.
  bool InHelper = false;
  /// Per helper being walked: its parameters' arguments.
  std::vector<ParamBindings> Frames;
  /// The parameters of every frame being walked and their arguments.
  ParamBindings AllBindings;
  /// Per frame: the object `this` stands for (events::thisObject).
  std::vector<const Expr *> This;
  SourceLocation ViaLoc;
  bool Failed = false;
  llvm::DenseMap<const Expr *, const Expr *> AddressOf;
};

} // namespace

bool buildSequence(ASTContext &Ctx, KernelModel &Model, DeviceOpsFinder &Finder,
                   KernelSequence &Out,
                   llvm::DenseSet<const FunctionDecl *> &Quiet,
                   LocalAliases &Aliases, ThreadGuards &Guards,
                   StageSlices &Slices, bool Threads,
                   const FunctionDecl *Kernel) {
  Builder B(Ctx, Model, Finder, Out, Quiet, Aliases, Guards, Slices, Threads);
  return B.run(Kernel);
}

} // namespace clang::tidy::tma
