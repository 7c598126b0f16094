//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/ExpectTxFacts.h"
#include "folding/Uses.h"
#include "rules/TensorCopyRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>

namespace clang::tidy::tma {

ExpectTxFacts::ExpectTxFacts(ASTContext &Ctx,
                             std::shared_ptr<ConstantFolder> Folder,
                             std::shared_ptr<DeviceOpsFinder> Finder)
    : Ctx(Ctx), Folder(Folder), Finder(Finder), Linker(*Folder, Ctx),
      Guards(Ctx, Folder), Ranks(*Folder), Peers(*Finder, *Folder),
      FieldUses(Ctx), Collector(Ctx, *Folder, *Finder, Peers) {}

rules::Known ExpectTxFacts::foldOperand(const OpValue &V) {
  return ::clang::tidy::tma::foldOperand(V, *Folder);
}

rules::Known ExpectTxFacts::delivered(const DeviceOp &Op) {
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    return foldOperand(B->Size);
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return std::nullopt;
  auto Map = Linker.mapOf(T->Map.E, Folder->currentContext());
  if (!Map)
    return std::nullopt;
  return rules::tensorCopyBytes(Map->Desc, copyModeOf(T->Mode));
}

rules::Known ExpectTxFacts::deliveredBy(const TxOp &T) {
  const CallContext *Saved = Folder->currentContext();
  Folder->enterContext(opContext(*Folder, T, Saved));
  rules::Known K = delivered(T.Op);
  Folder->enterContext(Saved);
  if (K)
    *K *= T.Times;
  return K;
}

std::vector<TxPairing> ExpectTxFacts::pairingsOf(const FunctionDecl *Fn,
                                                 const TxOps &Tx,
                                                 bool CallSiteContexts) {
  std::vector<TxPairing> Result;
  const std::vector<TxOp> &Ops = Tx.Ops;
  if (!llvm::all_of(Ops, [](const TxOp &T) { return T.Id; }))
    return Result;
  const Stmt *Body = Fn->getBody();
  const ParentMap &PM = Folder->parentsOf(Body);
  const std::vector<const DeclRefExpr *> &BodyRefs = Collector.refsOf(Body);
  const auto &OpSites = Tx.OpSites;
  llvm::SmallPtrSet<const VarDecl *, 4> Roots;
  for (const TxOp &T : Ops)
    Roots.insert(T.Id->Root);
  for (const VarDecl *Root : Roots) {
    if (!Root->isLocalVarDecl() || !Root->hasAttr<CUDASharedAttr>())
      continue;
    auto Tainted = taintedBy(Root, BodyRefs, PM, *Finder, Peers);
    if (llvm::any_of(BodyRefs, [&](const DeclRefExpr *D) {
          const auto *VD = dyn_cast<VarDecl>(D->getDecl());
          return VD && Tainted.count(VD) &&
                 !isKnownUse(PM, D, OpSites, *Finder, Peers);
        }))
      continue;
    const TxOp *FirstExpect = nullptr, *FirstCopy = nullptr;
    bool SelfExpecting = false;
    for (const TxOp &T : Ops) {
      if (T.Id->Root != Root)
        continue;
      if (std::holds_alternative<ExpectTx>(T.Op)) {
        FirstExpect = FirstExpect ? FirstExpect : &T;
      } else {
        FirstCopy = FirstCopy ? FirstCopy : &T;
        if (const auto *B = std::get_if<BulkCopy>(&T.Op))
          SelfExpecting |= B->OwnsExpectTx;
      }
    }
    TxPairing P;
    P.Facts.Barrier = Root->getName().str();
    P.Facts.HasExpect = FirstExpect;
    P.Facts.HasCopy = FirstCopy;
    P.Facts.SelfExpecting = SelfExpecting;
    P.FirstExpect = FirstExpect;
    P.FirstCopy = FirstCopy;
    if (FirstExpect && !FirstCopy) {
      // Only a count that is known not to be zero expects anything.
      const auto &E = std::get<ExpectTx>(FirstExpect->Op);
      bool NonZero = false;
      for (const CallContext *Context :
           Folder->contextsOf(CallSiteContexts ? Fn : nullptr)) {
        if (!Folder->mayRun(FirstExpect->Site, Fn, Context))
          continue;
        Folder->enterContext(opContext(*Folder, *FirstExpect, Context));
        NonZero |= foldOperand(E.Bytes).value_or(0) != 0;
      }
      Folder->enterContext(nullptr);
      P.Facts.ExpectsBytes = NonZero;
    }
    Result.push_back(std::move(P));
  }
  return Result;
}

/// Why the model does not count what op \p T completes on its barrier,
/// naming the op and its line (and the helper call it is seen at); the
/// reason is the one recorded with its role (TxOp::Uncounted).
static std::string uncountedWhy(const TxOp &T, const SourceManager &SM) {
  auto Line = [&](SourceLocation L) {
    return std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(L)));
  };
  std::string What = "the op";
  if (std::holds_alternative<ExpectTx>(T.Op))
    What = "the expect-tx";
  else if (std::holds_alternative<BulkCopy>(T.Op))
    What = "the bulk copy";
  else if (std::holds_alternative<TensorCopy>(T.Op))
    What = "the tensor copy";
  // The op's own line, and its file when that is not the phase's.
  SourceLocation OpLoc = SM.getFileLoc(siteOf(T.Op).Loc);
  std::string At = What + " at line " + Line(OpLoc);
  if (SM.getFileID(OpLoc) != SM.getFileID(T.Loc))
    At += " of " + llvm::sys::path::filename(SM.getFilename(OpLoc)).str();
  if (const CallExpr *Via = T.via())
    At += " (in '" + T.Frames.back().second->getNameAsString() +
          "', called at line " + Line(Via->getBeginLoc()) + ")";
  return At + " " + T.Uncounted.str() + ": its bytes are not counted";
}

/// The reference member of a parameter that \p Object reads
/// (`args.bar`, `args.bars[i]`), with the parameter; null otherwise.
static const FieldDecl *referenceMember(const Expr *Object,
                                        const ParmVarDecl *&Param) {
  const Expr *E = Object ? Object->IgnoreParenImpCasts() : nullptr;
  while (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  const auto *M = dyn_cast_or_null<MemberExpr>(E);
  if (!M || M->isArrow())
    return nullptr;
  const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
  const auto *D = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
  Param = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  return FD && Param && FD->getType()->isReferenceType() ? FD : nullptr;
}

std::string ExpectTxFacts::callersWhy(const FunctionDecl *Fn,
                                      const BarrierIdentity &Id,
                                      const SourceManager &SM) {
  // What the barrier is to the helper, and where its callers' phases (which
  // hold the helper's ops at the call) are judged: the first call.
  std::string What;
  const ParmVarDecl *Param = nullptr;
  if (const FieldDecl *FD = referenceMember(Id.Object, Param))
    What = "the reference member '" + FD->getNameAsString() +
           "' of its parameter '" + Param->getNameAsString() +
           "', bound where its callers build '" + Param->getNameAsString() +
           "': the model does not follow a reference member to its "
           "binding";
  else if ((Param = dyn_cast<ParmVarDecl>(Id.Root)) &&
           Param->getDeclContext() == Fn)
    What = "its parameter '" + Param->getNameAsString() + "'";
  else
    return "";
  std::string Where;
  for (const CallContext *C : Folder->contextsOf(Fn))
    if (C && C->Call) {
      SourceLocation At = SM.getFileLoc(C->Call->getBeginLoc());
      Where = "; judged in the phases of its callers, with this helper's "
              "ops (first call: line " +
              std::to_string(SM.getPresumedLineNumber(At)) + " of " +
              llvm::sys::path::filename(SM.getFilename(At)).str() + ")";
      break;
    }
  return " (" + What + ")" + Where;
}

std::string ExpectTxFacts::helperBarrierWhy(const FunctionDecl *Fn,
                                            const BarrierIdentity &Id,
                                            const SourceManager &SM) {
  const std::string Callers = "a barrier of the callers of this helper";
  const auto *Param = dyn_cast<ParmVarDecl>(Id.Root);
  const FieldDecl *Field = barrierField(Id.Object);
  if (!Param || Param->getDeclContext() != Fn || !Field || Id.ReadsPointer)
    return Callers + callersWhy(Fn, Id, SM);
  auto Other = FieldUses.otherUse(Field, Fn);
  if (!Other)
    return "";
  const std::string Name = "'" + Field->getName().str() + "'";
  if (!Other->Use)
    return Callers + " (the uses of " + Name +
           " outside it are not all seen here)";
  SourceLocation At = SM.getFileLoc(Other->Use->getBeginLoc());
  return Callers + ": " + Name + " is also used at " +
         (SM.getFileID(At) == SM.getFileID(SM.getFileLoc(Fn->getLocation()))
              ? ""
              : llvm::sys::path::filename(SM.getFilename(At)).str() + ":") +
         "line " + std::to_string(SM.getPresumedLineNumber(At)) +
         ", other than by an init, a wait or a plain arrive";
}

std::vector<TxPhase> ExpectTxFacts::phasesOf(const FunctionDecl *Fn,
                                             bool Kernel, const TxOps &Tx,
                                             const SourceManager &SM) {
  std::vector<TxPhase> Result;
  const std::vector<TxOp> &Ops = Tx.Ops;
  const auto &OpSites = Tx.OpSites;
  const auto &Waits = Tx.Waits;
  const auto &Inits = Tx.Inits;
  const Stmt *Body = Fn->getBody();
  const ParentMap &PM = Folder->parentsOf(Body);
  const std::vector<const DeclRefExpr *> &BodyRefs = Collector.refsOf(Body);
  // Asked of every phase, answered once per function: per barrier root, the
  // locals holding its address and the references (indices into BodyRefs)
  // that are no recognised use of it; the references that may write their
  // variable. Each phase then looks only at those, not at every reference
  // of the body (linear in the phases of an unrolled kernel, not quadratic).
  struct RootUses {
    llvm::SmallPtrSet<const VarDecl *, 4> Tainted;
    std::vector<unsigned> Unknown;
  };
  llvm::DenseMap<const VarDecl *, RootUses> ByRoot;
  auto UsesOf = [&](const VarDecl *Root) -> const RootUses & {
    auto [It, New] = ByRoot.try_emplace(Root);
    if (New) {
      It->second.Tainted = taintedBy(Root, BodyRefs, PM, *Finder, Peers);
      for (unsigned I = 0; I < BodyRefs.size(); ++I) {
        const auto *VD = dyn_cast<VarDecl>(BodyRefs[I]->getDecl());
        if (VD && It->second.Tainted.count(VD) &&
            !isKnownUse(PM, BodyRefs[I], OpSites, *Finder, Peers))
          It->second.Unknown.push_back(I);
      }
    }
    return It->second;
  };
  llvm::DenseMap<const VarDecl *, std::vector<unsigned>> WritesOf;
  for (unsigned I = 0; I < BodyRefs.size(); ++I)
    if (const auto *VD = dyn_cast<VarDecl>(BodyRefs[I]->getDecl()))
      if (mayWrite(PM, BodyRefs[I]))
        WritesOf[VD].push_back(I);
  llvm::DenseSet<const Stmt *> Regions;
  for (const TxOp &T : Ops)
    Regions.insert(T.Place.Region);
  // Ops, waits and inits by barrier key (sameKey, mayAlias through the
  // index, not against each other: N barriers cost N, not N squared). The
  // ops of each region, and the regions nested in it or around it.
  BarrierIndex AllOps, WaitsByKey, InitsByKey;
  std::vector<unsigned> NoId;
  llvm::DenseMap<const Stmt *, std::vector<unsigned>> OpsIn;
  for (unsigned I = 0; I < Ops.size(); ++I) {
    if (Ops[I].Id)
      AllOps.add(I, *Ops[I].Id);
    else
      NoId.push_back(I);
    OpsIn[Ops[I].Place.Region].push_back(I);
  }
  for (unsigned I = 0; I < Waits.size(); ++I)
    WaitsByKey.add(I, Waits[I].second);
  for (unsigned I = 0; I < Inits.size(); ++I)
    InitsByKey.add(I, Inits[I].second);
  llvm::DenseMap<const Stmt *, std::vector<const Stmt *>> Related;
  for (const Stmt *R : Regions)
    for (const Stmt *Up = R ? PM.getParent(R) : nullptr; Up;
         Up = PM.getParent(Up))
      if (Regions.count(Up)) {
        Related[R].push_back(Up);
        Related[Up].push_back(R);
      }
  for (const Stmt *Region : Regions) {
    const std::vector<unsigned> &Here = OpsIn[Region];
    if (llvm::any_of(Here, [&](unsigned I) { return !Ops[I].Id; }))
      continue;
    // The groups of the region: the first op of each key.
    BarrierIndex InRegion;
    for (unsigned I : Here)
      InRegion.add(I, *Ops[I].Id);
    llvm::SmallVector<unsigned, 4> Leaders;
    for (unsigned I : Here)
      if (InRegion.sameKey(*Ops[I].Id).front() == I)
        Leaders.push_back(I);

    for (unsigned L : Leaders) {
      const BarrierIdentity &Id = *Ops[L].Id;
      std::vector<unsigned> Group(InRegion.sameKey(Id).begin(),
                                  InRegion.sameKey(Id).end());
      // Why the phase is unknown; empty while it is not. Lifted: only
      // reasons that counting CTA by CTA of the cluster answers.
      std::string Why;
      bool Lifted = true;
      auto Unsure = [&](const std::string &Reason,
                        bool ClusterAnswers = false) {
        if (Why.empty())
          Why = Reason;
        Lifted &= ClusterAnswers;
      };
      if (InRegion.anyAlias(Id, [](unsigned) { return true; }))
        Unsure("another barrier operand may alias it");
      // A helper's barrier of its callers: counted here when it is a
      // barrier field of a parameter that no code outside the helper
      // completes bytes on (then the helper's phases are the barrier's).
      const FieldDecl *HelperField = nullptr;
      if (!Kernel && !(Id.Solid && Id.Root->isLocalVarDecl())) {
        std::string Reason = helperBarrierWhy(Fn, Id, SM);
        if (Reason.empty())
          HelperField = barrierField(Id.Object);
        else
          Unsure(Reason);
      }
      if (!Id.Root->isLocalVarDeclOrParm())
        Unsure("a barrier outside this function");
      // The same barrier in a loop nested in this region, or around it;
      // unless a wait at the top of the loop body separates the phases.
      // What separatedByLoopWait needs, once per barrier and only when
      // such a loop holds an op on it.
      auto On = [&](const TxOp &T) {
        return !T.Id || sameKey(*T.Id, Id) || mayAlias(*T.Id, Id);
      };
      std::vector<const Stmt *> SitesOn, InitsOn;
      std::vector<BlockingWait> WaitsOn;
      bool Gathered = false;
      auto Gather = [&] {
        Gathered = true;
        std::vector<unsigned> Items = NoId;
        llvm::append_range(Items, AllOps.sameKey(Id));
        AllOps.anyAlias(Id, [&](unsigned I) {
          Items.push_back(I);
          return false;
        });
        llvm::sort(Items);
        for (unsigned I : Items)
          SitesOn.push_back(Ops[I].Site);
        for (unsigned W : WaitsByKey.sameKey(Id))
          WaitsOn.push_back(Waits[W].first);
        for (unsigned I : InitsByKey.sameKey(Id))
          InitsOn.push_back(Inits[I].first);
      };
      for (const Stmt *Other : Related.lookup(Region)) {
        if (llvm::none_of(OpsIn[Other],
                          [&](unsigned I) { return On(Ops[I]); }))
          continue;
        if (!Gathered)
          Gather();
        if (!separatedByLoopWait(PM, SM, Region, Other, Body, SitesOn,
                                 WaitsOn, InitsOn, *Folder))
          Unsure("an op on it in a nested or enclosing loop");
      }
      // How many threads issue each op of the group (MBAR-TX-ISSUERS):
      // from its guards and the kernel's block size; all or nothing.
      std::vector<unsigned> Issuers;
      const ::tma::rules::threads::BlockSize Block =
          Kernel ? Guards.blockOf(Fn) : ::tma::rules::threads::BlockSize();
      for (unsigned I : Group) {
        std::optional<unsigned> N;
        if (Kernel)
          if (auto T = Guards.threadsAt(Ops[I].Site, Fn))
            N = ::tma::rules::threads::issuers(*T, Block);
        if (!N || *N == 0) {
          Issuers.clear();
          break;
        }
        Issuers.push_back(*N);
      }
      // Per if statement around the group's ops, how many ops of the
      // group sit in its then and its else branch: counted once, so that
      // the questions below cost the group's size, not its square (an
      // unrolled phase of N expect-tx ops).
      llvm::DenseMap<const IfStmt *, std::array<unsigned, 2>> OpsUnder;
      for (unsigned I : Group) {
        const auto &Branches = Ops[I].Place.Branches;
        for (auto B = Branches.begin(); B != Branches.end(); ++B)
          if (!llvm::is_contained(llvm::make_range(Branches.begin(), B), *B))
            ++OpsUnder[B->first][B->second];
      }
      // Guards that only some ops of the group have must tell threads
      // apart: a condition that is the same in every thread (`if (k == 0)`)
      // decides whether an op runs in this phase at all.
      for (unsigned I : Group)
        for (const auto &[If, Else] : Ops[I].Place.Branches)
          if (!Issuers.empty() && OpsUnder[If][Else] < Group.size() &&
              !Guards.threadOnly(If->getCond()))
            Issuers.clear();
      const bool Counted = !Issuers.empty();
      // Multicasts and ops on a peer's barrier are counted CTA by CTA of
      // the cluster (ClusterPhase): the reasons below that it answers.
      bool HasExpect = false, HasCopy = false, HasMulticast = false;
      for (unsigned I : Group)
        HasMulticast |=
            Ops[I].Role == TxRole::Multicast || Ops[I].Role == TxRole::Remote;
      for (unsigned I : Group) {
        const TxOp &T = Ops[I];
        if (T.Role == TxRole::Unknown)
          Unsure(uncountedWhy(T, SM));
        if (T.Role == TxRole::Multicast)
          Unsure("a multicast completes on it", true);
        if (T.Role == TxRole::Remote)
          Unsure("an op on it names a peer CTA's barrier (mapa)", true);
        if (T.Place.Unclear)
          Unsure("control flow the model does not follow");
        HasExpect |= T.Role == TxRole::Expect;
        HasCopy |= T.Role == TxRole::Copy;
        // Both branches of one if.
        for (const auto &[If, Else] : T.Place.Branches)
          if (OpsUnder[If][!Else] > 0)
            Unsure("ops in both branches of one if", HasMulticast);
        // Under different guards the ops may run on different numbers of
        // threads (a copy per lane, one expect-tx): the sums do not compare.
        // Unless the issuing threads of every op are counted.
        if (!Counted && T.Place.Branches != Ops[Group.front()].Place.Branches)
          Unsure("ops under different guards", HasMulticast);
      }
      const bool HasRemoteExpect = llvm::any_of(Group, [&](unsigned I) {
        return Ops[I].Role == TxRole::Remote &&
               std::holds_alternative<ExpectTx>(Ops[I].Op);
      });
      if (!HasExpect && !HasRemoteExpect) {
        // Only expect-tx ops the model does not count (a cluster-window
        // address, a predicate): a phase with its reason, not none.
        auto Uncounted = llvm::find_if(Group, [&](unsigned I) {
          return std::holds_alternative<ExpectTx>(Ops[I].Op);
        });
        if (Uncounted == Group.end())
          continue;
        Unsure(uncountedWhy(Ops[*Uncounted], SM));
      }
      if (!HasCopy)
        Unsure("no counted copy on it in the phase", HasMulticast);

      // The variables the barrier expression reads: none may change between
      // the first and the last op of the group.
      SourceLocation First = Ops[Group.front()].Loc,
                     Last = Ops[Group.back()].Loc;
      llvm::SmallPtrSet<const VarDecl *, 4> IdVars;
      {
        std::vector<const DeclRefExpr *> Refs;
        collectRefs(Id.Object, Refs);
        for (const DeclRefExpr *D : Refs)
          if (const auto *VD = dyn_cast<VarDecl>(D->getDecl()))
            IdVars.insert(VD);
      }
      const RootUses &Uses = UsesOf(Id.Root);
      // A write of the root redirects a pointer read from it, unless it is
      // an op's own call (`pipe.expect(n)` on a non-const method); a write
      // of another variable of the expression changes the barrier.
      auto MayRedirect = [&](const VarDecl *VD) {
        return VD != Id.Root || VD->getType()->isPointerType() ||
               Id.ReadsPointer;
      };
      // The unknown uses and the writes that may change the barrier, in
      // the body's order (the first reason found is the one given).
      std::vector<unsigned> Candidates = Uses.Unknown;
      for (const VarDecl *VD : IdVars)
        if (auto It = WritesOf.find(VD); It != WritesOf.end() && MayRedirect(VD))
          Candidates.insert(Candidates.end(), It->second.begin(),
                            It->second.end());
      llvm::sort(Candidates);
      Candidates.erase(std::unique(Candidates.begin(), Candidates.end()),
                       Candidates.end());
      for (unsigned Index : Candidates) {
        const DeclRefExpr *D = BodyRefs[Index];
        const auto *VD = cast<VarDecl>(D->getDecl());
        if (!Why.empty() && !Lifted)
          break; // Nothing below can change the verdict any more.
        if (!isWithin(PM, D, Region))
          continue;
        if (std::binary_search(Uses.Unknown.begin(), Uses.Unknown.end(),
                               Index))
          Unsure("the barrier is passed to a function or stored");
        if (IdVars.count(VD) && MayRedirect(VD) &&
            (VD != Id.Root || VD->getType()->isPointerType() ||
             llvm::none_of(OpSites,
                           [&](const Stmt *S) { return isWithin(PM, D, S); })) &&
            mayWrite(PM, D)) {
          SourceLocation W = SM.getFileLoc(D->getBeginLoc());
          if (SM.isBeforeInTranslationUnit(First, W) &&
              SM.isBeforeInTranslationUnit(W, Last))
            Unsure("the barrier expression changes between its ops");
        }
      }

      std::string Name =
          textOf(Id.Object, Id, SM, Ctx.getLangOpts()) + Id.Member;
      Result.push_back({std::move(Group), std::move(Name), std::move(Why),
                        Lifted, HasMulticast, std::move(Issuers), Block,
                        HelperField});
    }
  }
  return Result;
}

/// The argument that call \p C passes for parameter \p P of its callee.
static const Expr *argumentFor(const CallExpr *C, const ParmVarDecl *P) {
  unsigned I = P->getFunctionScopeIndex();
  // A method called as an operator passes its object first.
  if (isa<CXXOperatorCallExpr>(C) &&
      isa_and_nonnull<CXXMethodDecl>(C->getDirectCallee()))
    ++I;
  return I < C->getNumArgs() ? C->getArg(I) : nullptr;
}

void ExpectTxFacts::runTimeInputs(const Expr *E, const CallContext *Context,
                                  std::vector<std::string> &Out,
                                  unsigned Depth) {
  // The leaves of the count the Why names: kernel parameters, variables
  // that are written, calls. Helper parameters are followed to the
  // argument of the call in \p Context, const locals to their initialiser.
  if (!E || Depth > 24 || Out.size() >= 4)
    return;
  auto Add = [&](std::string Name) {
    if (!llvm::is_contained(Out, Name))
      Out.push_back(std::move(Name));
  };
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (!VD)
      return;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      const auto *Fn = dyn_cast<FunctionDecl>(P->getDeclContext());
      if (Fn && Fn->hasAttr<CUDAGlobalAttr>())
        return Add("the kernel parameter '" + P->getNameAsString() + "'");
      if (Context && Context->Call && Fn &&
          Context->Callee->getCanonicalDecl() == Fn->getCanonicalDecl())
        if (const Expr *Arg = argumentFor(Context->Call, P))
          return runTimeInputs(Arg, Context->Parent, Out, Depth + 1);
      return Add("the parameter '" + P->getNameAsString() + "'" +
                 (Fn ? " of '" + Fn->getNameAsString() + "'" : ""));
    }
    if (VD->isLocalVarDecl() && VD->getInit() &&
        (VD->getType().isConstQualified() ||
         VD->getType()->isReferenceType()))
      return runTimeInputs(VD->getInit(), Context, Out, Depth + 1);
    if (VD->isLocalVarDecl())
      return Add("the variable '" + VD->getNameAsString() + "'");
    return;
  }
  if (isa<CallExpr>(E) && !isa<CXXOperatorCallExpr>(E)) {
    const auto *C = cast<CallExpr>(E);
    const FunctionDecl *F = C->getDirectCallee();
    // blockIdx.x and its kin: the CTA's coordinates.
    if (F && F->getName().starts_with("__fetch_builtin"))
      return;
    if (F && !F->isConstexpr())
      return Add("the result of '" + F->getNameAsString() + "'");
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      runTimeInputs(CE, Context, Out, Depth + 1);
}

std::string ExpectTxFacts::unknownBytesWhy(const TxOps &Tx, unsigned I,
                                           const CallContext *Context,
                                           const ParentMap &PM,
                                           const SourceManager &SM) {
  const TxOp &Op = Tx.Ops[I];
  auto Line = [&](SourceLocation L) {
    return std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(L)));
  };
  const std::string At = " at line " + Line(Op.Loc);
  Folder->enterContext(Op.via() ? opContext(*Folder, Op, Context) : Context);
  std::string Why;
  if (const auto *E = std::get_if<ExpectTx>(&Op.Op)) {
    Why = "the count of the expect-tx" + At + " is not folded";
    std::vector<std::string> Inputs;
    runTimeInputs(E->Bytes.Written, Folder->currentContext(), Inputs, 0);
    // The kernel parameters named together, first.
    std::vector<std::string> Params, Parts;
    for (const std::string &I : Inputs)
      if (llvm::StringRef(I).starts_with("the kernel parameter '"))
        Params.push_back(I.substr(strlen("the kernel parameter ")));
      else
        Parts.push_back(I);
    auto Join = [](const std::vector<std::string> &L) {
      std::string J;
      for (unsigned K = 0; K < L.size(); ++K)
        J += (K ? K + 1 == L.size() ? " and " : ", " : "") + L[K];
      return J;
    };
    if (!Params.empty())
      Parts.insert(Parts.begin(), (Params.size() == 1
                                       ? "the kernel parameter "
                                       : "the kernel parameters ") +
                                      Join(Params));
    if (!Parts.empty())
      Why += " (it reads " + Join(Parts) + ")";
  } else if (const auto *B = std::get_if<BulkCopy>(&Op.Op)) {
    if (!foldOperand(B->Size))
      Why = "the size of the bulk copy" + At + " is not folded";
  } else if (const auto *T = std::get_if<TensorCopy>(&Op.Op)) {
    auto Map = Linker.mapOf(T->Map.E, Folder->currentContext());
    const rules::MapDescriptor *D = Map ? &Map->Desc : nullptr;
    if (!D) {
      Why = "the tensor map of the copy" + At +
            " is not linked to a host encode call";
    } else if (!rules::tensorCopyBytes(*D, copyModeOf(T->Mode))) {
      std::string Field;
      if (!D->DataType)
        Field = "tensorDataType";
      else if (D->Encoder == rules::MapEncoder::Tiled)
        for (uint64_t K = 0; K < D->Rank.value_or(0) && K < 5; ++K)
          if (!D->BoxDim.at(K)) {
            Field = "boxDim[" + std::to_string(K) + "]";
            break;
          }
      std::string Encode =
          " of the encode call at line " + Line(Map->Link.Encode->getBeginLoc());
      Why = "the box of the copy" + At + " is not folded" +
            (Field.empty() ? " (its map's rank, box or mode" + Encode + ")"
                           : " (" + Field + Encode + ")");
    }
  } else {
    Why = "the op" + At + " delivers a count the model does not know";
  }
  Folder->enterContext(Context);
  if (Why.empty() && Op.Loop && !tripCount(Op.Loop, PM, *Folder))
    Why = "the trip count of the loop at line " +
          Line(Op.Loop->getForLoc()) + " around the copy" + At +
          " is not folded";
  return Why.empty() ? "a count" + At + " is not folded" : Why;
}

rules::PhaseFacts ExpectTxFacts::phaseFactsIn(const TxPhase &P, const TxOps &Tx,
                                              const CallContext *Context,
                                              const ParentMap &PM) {
  rules::PhaseFacts F;
  F.Barrier = P.Name;
  Folder->enterContext(Context);
  for (unsigned G = 0; G < P.Group.size(); ++G) {
    const TxOp &Op = Tx.Ops[P.Group[G]];
    rules::PhaseOpFacts O;
    O.Issuers = P.Issuers.empty() ? 0 : P.Issuers[G];
    // An op of a helper folds in the context of the helper's call.
    if (Op.via())
      Folder->enterContext(opContext(*Folder, Op, Context));
    if (const auto *E = std::get_if<ExpectTx>(&Op.Op)) {
      O.IsExpect = true;
      O.Bytes = foldOperand(E->Bytes);
    } else {
      O.Bytes = delivered(Op.Op);
      // Every iteration of its helper's loop.
      if (O.Bytes)
        *O.Bytes *= Op.Times;
      if (const auto *B = std::get_if<BulkCopy>(&Op.Op))
        O.OwnsExpectTx = B->OwnsExpectTx;
    }
    Folder->enterContext(Context);
    if (!O.IsExpect && Op.Loop && O.Bytes) {
      auto N = tripCount(Op.Loop, PM, *Folder);
      O.Bytes = N ? rules::Known(*O.Bytes * *N) : std::nullopt;
    }
    F.Ops.push_back(std::move(O));
  }
  return F;
}

// The value of V, an operand of T, in the CTA of rank R: through the
// argument of a helper's parameter when it depends on the rank.
rules::Known ExpectTxFacts::valueIn(const TxOp &T, const OpValue &V,
                                    uint64_t R) {
  const Expr *E = V.E;
  if (E && T.via()) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    const CallExpr *Call = T.via();
    E = T.Frames.size() == 1 && P &&
                P->getFunctionScopeIndex() < Call->getNumArgs() &&
                isa<FunctionDecl>(P->getDeclContext()) &&
                cast<FunctionDecl>(P->getDeclContext())->getCanonicalDecl() ==
                    T.Frames.front().second->getCanonicalDecl()
            ? Call->getArg(P->getFunctionScopeIndex())
            : nullptr;
  }
  if (E && Ranks.dependsOnRank(E)) {
    auto X = Ranks.valueIn(E, R);
    if (!X || *X < 0)
      return std::nullopt;
    return static_cast<uint64_t>(*X);
  }
  const CallContext *Saved = Folder->currentContext();
  Folder->enterContext(opContext(*Folder, T, Saved));
  rules::Known K = foldOperand(V);
  Folder->enterContext(Saved);
  return K;
}

// Whether C holds in the CTA of rank R; parts on the thread alone hold in
// some thread (the issuers count them).
std::optional<bool> ExpectTxFacts::holds(const Expr *C, uint64_t R) {
  C = C->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(C);
      B && B->getOpcode() == BO_LAnd) {
    auto L = holds(B->getLHS(), R);
    if (L && !*L)
      return false;
    auto Rt = holds(B->getRHS(), R);
    if (Rt && !*Rt)
      return false;
    if (!L || !Rt)
      return std::nullopt;
    return true;
  }
  if (Guards.threadOnly(C))
    return true;
  auto X = Ranks.valueIn(C, R);
  if (!X)
    return std::nullopt;
  return *X != 0;
}

std::optional<bool> ExpectTxFacts::runsIn(const TxOp &T, uint64_t R) {
  for (const auto &[If, Else] : T.Place.Branches) {
    const Expr *C = If->getCond();
    if (!C || If->getInit() || If->getConditionVariable())
      return std::nullopt;
    if (!Else) {
      auto H = holds(C, R);
      if (!H || !*H)
        return H;
      continue;
    }
    if (Guards.threadOnly(C))
      continue;
    auto X = Ranks.valueIn(C, R);
    if (!X)
      return std::nullopt;
    if (*X)
      return false;
  }
  return true;
}

std::optional<uint64_t> ExpectTxFacts::targetOf(const TxOp &T, uint64_t From,
                                                uint64_t Ctas) {
  OpValue V;
  V.E = V.Written = T.PeerRank;
  V.Present = true;
  std::optional<uint64_t> To;
  if (!T.PeerRankHere) {
    To = valueIn(T, V, From);
  } else if (Ranks.dependsOnRank(T.PeerRank)) {
    if (auto X = Ranks.valueIn(T.PeerRank, From); X && *X >= 0)
      To = static_cast<uint64_t>(*X);
  } else {
    To = foldOperand(V);
  }
  if (!To || *To >= Ctas)
    return std::nullopt;
  // `.cta_group::2`: only the leader CTA of the issuer's pair, where the
  // address and the pair's routing (tma-rules.md, INFERRED) agree.
  if (const auto *C = std::get_if<TensorCopy>(&T.Op);
      C && C->CtaGroup && *C->CtaGroup == 2 && *To != (From & ~uint64_t{1}))
    return std::nullopt;
  return *To;
}

std::optional<ClusterCount>
ExpectTxFacts::clusterCountOf(const FunctionDecl *Fn, const TxOps &Tx,
                              const std::vector<unsigned> &Group) {
  auto Cluster = clusterOf(Fn, nullptr, *Folder);
  if (!Cluster || Cluster->Ctas < 2 || Cluster->Ctas > 16)
    return std::nullopt;
  // A jump under a rank-dependent condition (`if (rank != 0) return;`)
  // decides which CTAs reach the ops in a way the branches above do not
  // show: unknown.
  const Stmt *Body = Fn->getBody();
  if (rankDependentJump(Body, Folder->parentsOf(Body), Ranks))
    return std::nullopt;
  ClusterCount C;
  C.Cluster = *Cluster;
  C.Block = Guards.blockOf(Fn);
  // Which CTAs run each op of the group, and how many threads of a CTA
  // issue it (MBAR-TX-ISSUERS: one per warp under elect.sync, ...).
  C.In.resize(Group.size());
  C.Issuers.resize(Group.size());
  for (unsigned G = 0; G < Group.size(); ++G) {
    const TxOp &T = Tx.Ops[Group[G]];
    auto Threads = Guards.threadsAt(T.Site, Fn);
    auto N =
        Threads ? rules::threads::issuers(*Threads, C.Block) : std::nullopt;
    if (!N || *N == 0)
      return std::nullopt;
    C.Issuers[G] = *N;
    for (uint64_t R = 0; R < Cluster->Ctas; ++R) {
      auto Runs = runsIn(T, R);
      if (!Runs)
        return std::nullopt;
      C.In[G].push_back(*Runs);
    }
  }
  return C;
}

rules::ClusterPhaseFacts ExpectTxFacts::clusterFactsIn(
    const ClusterCount &C, const TxOps &Tx, const std::vector<unsigned> &Group,
    const std::string &Name,
    std::vector<std::vector<ClusterArrival>> &Arrivals) {
  const uint64_t Ctas = C.Cluster.Ctas;
  rules::ClusterPhaseFacts F;
  F.Barrier = Name;
  F.Ctas = Ctas;
  Arrivals.clear();
  auto Times = [](rules::Known K, unsigned N) -> rules::Known {
    if (!K)
      return std::nullopt;
    return *K * N;
  };
  auto Known = [](const std::vector<rules::Known> &Ks) {
    return llvm::all_of(Ks,
                        [](const rules::Known &K) { return K.has_value(); });
  };
  // Per CTA: what it expects, what the cluster delivers to it, and the ops
  // of other CTAs among those (for notes): multicasts (Mask) and ops on a
  // peer's barrier (Remote). Up to the first CTA that cannot be counted.
  for (uint64_t R = 0; R < Ctas; ++R) {
    rules::ClusterCtaFacts &Cta = F.PerCta.emplace_back();
    std::vector<ClusterArrival> &Here = Arrivals.emplace_back();
    bool &Unknown = Cta.Unknown;
    for (unsigned G = 0; G < Group.size() && !Unknown; ++G) {
      const TxOp &T = Tx.Ops[Group[G]];
      const auto *E = std::get_if<ExpectTx>(&T.Op);
      if (T.Role == TxRole::Remote) {
        for (uint64_t From = 0; From < Ctas; ++From) {
          if (!C.In[G][From])
            continue;
          auto To = targetOf(T, From, Ctas);
          if (!To) {
            Unknown = true;
            break;
          }
          if (*To != R)
            continue;
          if (E)
            Cta.Expected.push_back(
                Times(valueIn(T, E->Bytes, From), C.Issuers[G]));
          else
            Cta.Delivered.push_back(Times(deliveredBy(T), C.Issuers[G]));
          Here.push_back({Group[G], From, 0, true, C.Issuers[G]});
        }
        continue;
      }
      if (E) {
        if (C.In[G][R])
          Cta.Expected.push_back(Times(valueIn(T, E->Bytes, R), C.Issuers[G]));
        continue;
      }
      if (T.Role == TxRole::Copy) {
        if (C.In[G][R])
          Cta.Delivered.push_back(Times(deliveredBy(T), C.Issuers[G]));
        continue;
      }
      const OpValue *Mask = nullptr;
      if (const auto *TC = std::get_if<TensorCopy>(&T.Op))
        Mask = &TC->CtaMask;
      else if (const auto *B = std::get_if<BulkCopy>(&T.Op))
        Mask = &B->CtaMask;
      for (uint64_t From = 0; From < Ctas; ++From) {
        if (!C.In[G][From])
          continue;
        auto M = valueIn(T, *Mask, From);
        if (!M) {
          Unknown = true;
          break;
        }
        if (*M >> R & 1) {
          Cta.Delivered.push_back(Times(deliveredBy(T), C.Issuers[G]));
          Here.push_back({Group[G], From, *M, false, C.Issuers[G]});
        }
      }
    }
    if (Unknown || !Known(Cta.Expected) || !Known(Cta.Delivered))
      break;
  }
  return F;
}

} // namespace clang::tidy::tma
