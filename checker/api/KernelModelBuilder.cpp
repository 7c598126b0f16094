//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The kernel model's construction (Builder, declared in KernelModelBuilder.h):
// the walk of a kernel's CFG into events and the splicing of a helper's CFG
// in at its call, with the bindings of its parameters. The events of each
// family are made in the files KernelModelBuilder.h lists; the model's
// queries are in KernelModel.cpp.
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

bool Builder::run(const FunctionDecl *Kernel) {
  Stack.push_back(Kernel);
  Out.Block = Guards.blockOf(Kernel);
  Cur = Out.G.node();
  // Unknown threads everywhere when no rule reads them (no guard is read).
  if (Threads)
    Set = Most = std::make_shared<const ThreadSet>();
  if (!body(Kernel, /*Kernel=*/true))
    Failed = true;
  if (Failed)
    return false;
  Out.G.finish();
  return true;
}

void Builder::emit(Event E, SourceLocation OpLoc, std::optional<DeviceOp> Op,
                   const VarDecl *Var) {
  if (Out.Seq.size() >= MaxEvents) {
    Failed = true;
    return;
  }
  E.Threads = Set;
  E.ThreadsAtMost = Set ? Set : Most;
  E.Guarded |= Guarded;
  // A run of generic accesses to one buffer in one block is one event.
  if ((E.Kind == EventKind::GenericRead || E.Kind == EventKind::GenericWrite) &&
      !Out.Seq.empty() && Out.G.nodeOf(Out.Seq.size() - 1) == Cur) {
    Event &Last = Out.Seq.back();
    if (Last.Kind == E.Kind && Last.Object == E.Object && Last.Mma == E.Mma &&
        Last.Guarded == E.Guarded && Last.Threads == E.Threads) {
      // What holds of every access of the run.
      llvm::erase_if(Last.StageSteps, [&](const auto &S) {
        return !llvm::is_contained(E.StageSteps, S);
      });
      return;
    }
  }
  KernelEvent K;
  K.OpLoc = OpLoc;
  K.Loc = InHelper ? ViaLoc : OpLoc;
  K.InBody = !InHelper;
  if (InHelper && CallLocs.size() > 1)
    K.Through.assign(CallLocs.begin() + 1, CallLocs.end());
  K.Op = std::move(Op);
  K.Var = Var;
  K.Unnamed = std::move(PendingUnnamed);
  PendingUnnamed.clear();
  if (E.Kind == EventKind::BarrierWait) {
    K.ParityStep = ParityStep;
    K.ParityFlip = ParityFlip;
  }
  ParityStep = ParityFlip = SourceLocation();
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

void Builder::simple(EventKind Kind, SourceLocation Loc) {
  Event E;
  E.Kind = Kind;
  emit(E, Loc);
}

int Builder::objectOf(const VarDecl *VD, const std::string &Path,
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

int Builder::objectOf(const events::BarrierName &Id) {
  for (auto &[Key, Obj] : BarrierKeys)
    if (Key == Id.Key)
      return Obj;
  // A barrier in a struct laid over a raw buffer (`sram.bar_empty[s]`
  // with `sram` a cast of `sbuffer`) is named with the fields on the way
  // (`sbuffer.bar_empty`), not as the buffer; a struct or barrier class
  // variable keeps its own name.
  const Type *T = Id.Root->getType()->getBaseElementTypeUnsafe();
  BarrierKeys.push_back(
      {Id.Key, newObject(Id.Root, T->isRecordType() ? Id.Root->getName().str()
                                                    : Id.Display)});
  return BarrierKeys.back().second;
}

int Builder::newObject(const VarDecl *VD, std::string Name) {
  Out.Objects.push_back(VD);
  Out.Names.push_back(std::move(Name));
  return static_cast<int>(Out.Objects.size() - 1);
}

unsigned Builder::entryOf(const CFGBlock &B, const CFGBlock &Succ,
                          const std::vector<char> &HasEvents) {
  const auto *For = dyn_cast_or_null<ForStmt>(Succ.getTerminatorStmt());
  if (!For || B.getLoopTarget() == For || HasEvents[Succ.getBlockID()] ||
      Succ.succ_empty() || !Guards.firstPassRuns(*For, Out.Block))
    return Succ.getBlockID();
  const CFGBlock *Body = Succ.succ_begin()->getReachableBlock();
  return Body ? Body->getBlockID() : Succ.getBlockID();
}

bool Builder::body(const FunctionDecl *FD, bool Kernel) {
  const KernelModel::BodyGraph *BG = Model.graphOf(FD);
  if (!BG)
    return false;
  const CFG &Cfg = *BG->Graph;
  const unsigned N = Cfg.getNumBlockIDs();
  std::vector<std::size_t> First(N), Last(N);
  std::vector<std::shared_ptr<const ThreadSet>> Sets(N), Mosts(N);
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
      Mosts[Id] = Set ? Set : Most;
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
          else if (Sets[D]) {
            if (auto C = edgeGuard(*I.Idom, I.Edge))
              S = C->first.K == Cond::True
                      ? Sets[D]
                      : std::make_shared<const ThreadSet>(
                            Sets[D]->under(C->first, C->second));
            // A condition the model cannot read, in code that one thread
            // runs (a producer's `if (sched.next(...))` under `tid == 0`):
            // what it guards runs in that thread or in none.
            else if (::tma::rules::threads::countAt(*Sets[D],
                                                    Out.Block.Max) == 1)
              S = Sets[D];
          }
        } else if (Sets[D]) {
          // The `else` of `if (a && b)`: both of the condition's blocks
          // jump there.
          if (auto C = shortCircuitGuard(*I.Idom, *B))
            S = C->first.K == Cond::True
                    ? Sets[D]
                    : std::make_shared<const ThreadSet>(
                          Sets[D]->under(C->first, C->second));
        }
      }
      // Every thread that runs the block ran its dominator: the
      // dominator's threads bound them where the block's are unknown.
      Mosts[Id] = S ? S : I.Idom ? Mosts[I.Idom->getBlockID()] : nullptr;
      Sets[Id] = std::move(S);
      Under[Id] = U;
      Cur = Out.G.node();
    }
    Set = Sets[Id];
    Most = Mosts[Id];
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

void Builder::element(const Stmt *S) {
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

bool Builder::hasLoop(const FunctionDecl *FD) {
  auto [It, Inserted] = Loopy.try_emplace(FD, false);
  if (!Inserted)
    return It->second;
  return It->second = findsLoop(FD->getBody());
}

bool Builder::findsLoop(const Stmt *S) {
  if (!S)
    return false;
  if (isLoop(S) || isa<GotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (findsLoop(C))
      return true;
  return false;
}

void Builder::call(const CallExpr &C) {
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
    SharedArg |=
        sharedRoot(Arg, Whole, bindings(), nullptr, false, &Aliases) != nullptr;
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
  // A static member or a free function has no `this` of its own: a `this`
  // its walk meets is in an argument of this call (`Bar::init(&this->word,
  // n)` in a member of a barrier class), the caller's.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      !ThisObj && (!MD || MD->isStatic()) && !This.empty())
    ThisObj = This.back();
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

const Expr *Builder::substitute(const VarDecl *VD) {
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

const Expr *Builder::bound(const Expr *E) const {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (const auto *P = dyn_cast<ParmVarDecl>(D->getDecl()))
      if (const ParamBindings *B = bindings())
        if (const Expr *Arg = B->lookup(P))
          return Finder.lookThrough(Arg);
  return E;
}

void Builder::callee(const FunctionDecl *FD, SourceLocation Loc, bool Bound) {
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
  auto SavedSet = Set, SavedMost = Most;
  bool SavedGuarded = Guarded;
  Stack.push_back(Def);
  CallLocs.push_back(Loc);
  Calls.push_back(++CallCount);
  const Stmt *SavedStmt = HelperStmt;
  HelperStmt = nullptr;
  bool Loops = hasLoop(Def);
  LoopyHelpers += Loops;
  bool Followed = body(Def, /*Kernel=*/false);
  LoopyHelpers -= Loops;
  HelperStmt = SavedStmt;
  Calls.pop_back();
  CallLocs.pop_back();
  Stack.pop_back();
  InHelper = Outer;
  Set = std::move(SavedSet);
  Most = std::move(SavedMost);
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

} // namespace kmodel

bool buildSequence(ASTContext &Ctx, KernelModel &Model, DeviceOpsFinder &Finder,
                   KernelSequence &Out,
                   llvm::DenseSet<const FunctionDecl *> &Quiet,
                   LocalAliases &Aliases, ThreadGuards &Guards,
                   StageSlices &Slices, bool Threads,
                   const FunctionDecl *Kernel) {
  kmodel::Builder B(Ctx, Model, Finder, Out, Quiet, Aliases, Guards, Slices,
                    Threads);
  return B.run(Kernel);
}

} // namespace clang::tidy::tma
