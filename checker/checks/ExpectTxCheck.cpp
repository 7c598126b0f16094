//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/ExpectTxCheck.h"
#include "checks/DescriptorCheck.h"
#include "checks/SharedMatchers.h"
#include "api/BarrierPhases.h"
#include "api/KernelEvents.h"
#include "api/LaunchCluster.h"
#include "checks/ContextNotes.h"
#include "folding/Uses.h"
#include "rules/DataTypes.h"
#include "rules/DeviceRules.h"
#include "rules/TensorCopyRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

ExpectTxCheck::ExpectTxCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      CallSiteContexts(Options.get("CallSiteContexts", true)),
      CoverageReport(Options.get("CoverageReport", false)) {}

void ExpectTxCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallSiteContexts", CallSiteContexts);
  Options.store(Opts, "CoverageReport", CoverageReport);
}

void ExpectTxCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

void ExpectTxCheck::onEndOfTranslationUnit() {
  Linker.reset();
  Guards.reset();
  Ranks.reset();
  Peers.reset();
  Finder.reset();
  Folder.reset();
  Reported.clear();
  RefsOfBody.clear();
}

namespace {

/// What a transaction op does on its barrier.
enum class TxRole {
  Expect,  ///< an expect-tx the model counts
  Copy,    ///< a 1-D bulk copy the model counts
  /// A load the model counts but for its CTA mask: its bytes complete on
  /// the barrier of every CTA of the mask (counted per CTA of a cluster).
  Multicast,
  /// A counted copy or expect-tx on the barrier of the CTA that its mapa
  /// names (TxOp::PeerRank): counted per CTA of a cluster.
  Remote,
  Unknown, ///< completes bytes the model cannot count (tensor, reduce...)
};

struct TxOp {
  DeviceOp Op;
  const Stmt *Site;
  TxRole Role;
  std::optional<BarrierIdentity> Id;
  PhasePlace Place;
  SourceLocation Loc;
  /// An op in a __device__ helper: the call of the helper in this body (the
  /// op's Site) and the helper, then the calls of nested helpers down to
  /// the one that holds the op. Its operands fold in the contexts of these
  /// calls.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 1>
      Frames;
  /// A copy of an inner counted loop, counted in the region around the loop
  /// once per iteration.
  const ForStmt *Loop = nullptr;
  /// A Remote op: the rank of the CTA whose barrier it names (in the
  /// function that holds the op: the innermost frame's).
  const Expr *PeerRank = nullptr;
  /// PeerRank is an expression of the checked body (not of a helper).
  bool PeerRankHere = false;
  const CallExpr *via() const {
    return Frames.empty() ? nullptr : Frames.front().first;
  }
};

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

bool sameKey(const BarrierIdentity &A, const BarrierIdentity &B) {
  return A.Key == B.Key;
}

/// Whether a use \p DRE of the barrier (or of a local holding its address)
/// only feeds recognised ops, address conversions, the barrier's own
/// arrive/wait members or its init.
bool isKnownUse(const ParentMap &PM, const DeclRefExpr *DRE,
                const llvm::SmallPtrSetImpl<const Stmt *> &OpSites,
                DeviceOpsFinder &Finder, PeerAddresses &Peers) {
  const Stmt *Child = DRE;
  for (const Stmt *Cur = PM.getParent(DRE); Cur;
       Child = Cur, Cur = PM.getParent(Cur)) {
    if (OpSites.count(Cur))
      return true;
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
      for (const Stmt *P = PM.getParent(D); P; Child = P, P = PM.getParent(P)) {
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

/// A tensor load whose delivered bytes the model counts: one CTA's copy
/// (no multicast, no CTA pair) in a mode whose count tma-rules.md gives.
bool isCountedTensorLoad(const TensorCopy &T) {
  using device::TensorMode;
  return T.Direction == device::TensorDirection::Load && !T.Predicated &&
         !T.Incomplete && !T.Report && !T.CtaMask.Present &&
         (!T.CtaGroup || *T.CtaGroup == 1) &&
         llvm::is_contained(
             {TensorMode::Tile, TensorMode::TileGather4, TensorMode::Im2col},
             T.Mode);
}

/// A multicast load that would be counted but for its CTA mask.
bool isCountedMulticast(const DeviceOp &Op) {
  if (const auto *T = std::get_if<TensorCopy>(&Op)) {
    if (!T->CtaMask.Present)
      return false;
    TensorCopy One = *T;
    One.CtaMask.Present = false;
    return isCountedTensorLoad(One);
  }
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    return B->CtaMask.Present &&
           B->Direction == device::BulkDirection::GlobalToShared &&
           B->Reduce == device::ReduceOp::None && !B->Predicated &&
           !B->Incomplete && !B->IgnoreLeft.Present;
  return false;
}

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
        else if (const auto *W = dyn_cast<WhileStmt>(P))
          C = W->getCond();
        else if (const auto *F = dyn_cast<ForStmt>(P))
          C = F->getCond();
        else if (const auto *D = dyn_cast<DoStmt>(P))
          C = D->getCond();
        else if (const auto *Sw = dyn_cast<SwitchStmt>(P))
          C = Sw->getCond();
        if (C && Ranks.dependsOnRank(C))
          return true;
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

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

} // namespace

const std::vector<const DeclRefExpr *> &
ExpectTxCheck::refsOf(const Stmt *Body) {
  auto [It, New] = RefsOfBody.try_emplace(Body);
  if (New)
    collectRefs(Body, It->second);
  return It->second;
}

rules::Known ExpectTxCheck::foldOperand(const OpValue &V) {
  return ::clang::tidy::tma::foldOperand(V, *Folder);
}

rules::Known ExpectTxCheck::delivered(const DeviceOp &Op) {
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    return foldOperand(B->Size);
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return std::nullopt;
  auto Map = Linker->mapOf(T->Map.E, Folder->currentContext());
  if (!Map)
    return std::nullopt;
  return rules::tensorCopyBytes(Map->Desc, copyModeOf(T->Mode));
}

void ExpectTxCheck::noteCopy(const DeviceOp &Op, SourceLocation Loc,
                             const std::string &Barrier,
                             const SourceManager &SM) {
  diag(Loc, "this copy delivers %0 bytes to '%1'", DiagnosticIDs::Note)
      << std::to_string(*delivered(Op)) << Barrier;
  if (const auto *B = std::get_if<BulkCopy>(&Op); B && B->OwnsExpectTx)
    diag(Loc,
         "and expects them itself: cuda::memcpy_async performs the expect-tx "
         "of its own bytes (MEMCPY-ASYNC-TX-OWNED)",
         DiagnosticIDs::Note);
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return;
  auto Map = Linker->mapOf(T->Map.E, Folder->currentContext());
  const rules::MapDescriptor &D = Map->Desc;
  std::string Box;
  if (D.Encoder == rules::MapEncoder::Tiled) {
    for (uint64_t I = 0; I < *D.Rank; ++I)
      Box += (I ? " x " : "") + std::to_string(*D.BoxDim.at(I));
    Box = "box " + Box;
  } else {
    Box = std::to_string(*D.PixelsPerColumn) + " pixels x " +
          std::to_string(*D.ChannelsPerPixel) + " channels";
  }
  const char *Type = rules::dataTypeName(*D.DataType);
  diag(Map->BoxArg->getExprLoc(),
       "the tensor map it reads is encoded here: %0 of %1", DiagnosticIDs::Note)
      << Box << (Type ? Type : "?");
  noteHandoff(*this, *Map, SM);
}

void ExpectTxCheck::check(const MatchFinder::MatchResult &Result) {
  // A non-dependent definition with a body outside system headers, asked
  // once for all checks by the shared matcher.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  if (!M.UserBody)
    return;
  const FunctionDecl *Fn = M.Fn;
  const SourceManager &SM = *Result.SourceManager;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(*Result.Context);
  if (!Linker)
    Linker = std::make_unique<MapLinker>(*Folder, *Result.Context);
  if (!Guards)
    Guards = std::make_unique<ThreadGuards>(*Result.Context, Folder);
  if (!Ranks)
    Ranks = std::make_unique<ClusterRank>(*Folder);
  if (!Peers)
    Peers = std::make_unique<PeerAddresses>(*Finder, *Folder);
  const Stmt *Body = Fn->getBody();
  const bool Kernel = M.Kernel;

  // The ops of the body, and the transaction ops among them.
  llvm::ArrayRef<DeviceOpsFinder::OpStmt> Stmts = Finder->opStmtsOf(Body);
  llvm::SmallPtrSet<const Stmt *, 16> OpSites;
  std::vector<TxOp> Ops;
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
  std::vector<std::pair<BlockingWait, BarrierIdentity>> Waits;
  std::vector<std::pair<const Stmt *, BarrierIdentity>> Inits;
  // Via/Helper: an op of a helper called at S; BarrierArg: the caller's
  // argument for the helper's barrier parameter (null: not a parameter).
  using Frame = std::pair<const CallExpr *, const FunctionDecl *>;
  auto Add = [&](const DeviceOp &Op, const Stmt *S, bool Straight,
                 llvm::ArrayRef<Frame> Frames, const Expr *BarrierArg,
                 std::optional<BarrierIdentity> MemberId = std::nullopt,
                 const Expr *PeerRank = nullptr) {
    const CallExpr *Via = Frames.empty() ? nullptr : Frames.front().first;
    OpSites.insert(S);
    const OpValue *Bar = nullptr;
    TxRole Role = TxRole::Unknown;
    if (const auto *E = std::get_if<ExpectTx>(&Op)) {
      Bar = &E->Barrier;
      if (E->BarrierSpace != device::Space::SharedCluster && !E->Predicated &&
          !E->Incomplete)
        Role = TxRole::Expect;
    } else if (const auto *B = std::get_if<BulkCopy>(&Op)) {
      Bar = &B->Barrier;
      // .ignore_oob: what completes on the barrier is not documented.
      if (B->Direction == device::BulkDirection::GlobalToShared &&
          B->Reduce == device::ReduceOp::None && !B->CtaMask.Present &&
          !B->Predicated && !B->Incomplete && !B->IgnoreLeft.Present)
        Role = TxRole::Copy;
    } else if (const auto *T = std::get_if<TensorCopy>(&Op)) {
      Bar = &T->Barrier;
      if (isCountedTensorLoad(*T))
        Role = TxRole::Copy;
    }
    if (Role == TxRole::Unknown && isCountedMulticast(Op))
      Role = TxRole::Multicast;
    // The barrier an op names directly, mapped to a peer CTA (a helper's
    // op comes with its PeerRank from Expand).
    // A helper's barrier parameter may get a mapped address from this body
    // (`load(dst, map, peer(&bar, leader))`): its rank is this body's.
    const Expr *BarE = Via ? BarrierArg : Bar ? Bar->E : nullptr;
    bool RankHere = !Via;
    if (!PeerRank && BarE && !std::holds_alternative<Wait>(Op) &&
        !std::holds_alternative<BarrierInit>(Op))
      if (auto P = Peers->peerOf(BarE)) {
        BarE = Finder->lookThrough(P->Local);
        PeerRank = P->Rank;
        RankHere = true;
      }
    if (PeerRank) {
      // Counted per CTA of the cluster: an expect-tx, a DSMEM push or a
      // load (`.cta_group::2` too) whose barrier is the peer's.
      Role = TxRole::Unknown;
      if (const auto *E = std::get_if<ExpectTx>(&Op)) {
        if (!E->Predicated && !E->Incomplete)
          Role = TxRole::Remote;
      } else if (const auto *B = std::get_if<BulkCopy>(&Op)) {
        if ((B->Direction == device::BulkDirection::GlobalToShared ||
             B->Direction == device::BulkDirection::SharedToCluster) &&
            B->Reduce == device::ReduceOp::None && !B->CtaMask.Present &&
            !B->Predicated && !B->Incomplete && !B->IgnoreLeft.Present &&
            !B->OwnsExpectTx)
          Role = TxRole::Remote;
      } else if (const auto *T = std::get_if<TensorCopy>(&Op)) {
        TensorCopy One = *T;
        One.CtaGroup.reset();
        if (isCountedTensorLoad(One))
          Role = TxRole::Remote;
      }
    }
    // A wait straight through its helpers, which may return only once its
    // phase completes (below, with the parent map), and an init.
    if (const auto *W = std::get_if<Wait>(&Op)) {
      const Expr *WE = Via ? BarrierArg : W->Barrier.E;
      if (Straight && W->Barrier.Present)
        if (auto Id = MemberId ? std::move(MemberId)
                      : WE     ? barrierIdentity(WE, *Result.Context)
                               : std::nullopt)
          RawWaits.push_back(
              {S, *W, {Frames.begin(), Frames.end()}, std::move(*Id)});
      return;
    }
    if (const auto *I = std::get_if<BarrierInit>(&Op)) {
      const Expr *IE = Via ? BarrierArg : I->Barrier.E;
      if (I->Barrier.Present)
        if (auto Id = MemberId ? std::move(MemberId)
                      : IE     ? barrierIdentity(IE, *Result.Context)
                               : std::nullopt)
          Inits.emplace_back(S, std::move(*Id));
      return;
    }
    if (!Bar || !Bar->Present)
      return;
    if (!Straight)
      Role = TxRole::Unknown;
    TxOp T{Op,
           S,
           Role,
           MemberId ? std::move(MemberId)
           : BarE   ? barrierIdentity(BarE, *Result.Context)
                    : std::nullopt,
           phasePlaceOf(Folder->parentsOf(Body), S, Body),
           SM.getFileLoc(Via ? Via->getBeginLoc() : siteOf(Op).Loc),
           {Frames.begin(), Frames.end()}};
    T.PeerRank = Role == TxRole::Remote ? PeerRank : nullptr;
    T.PeerRankHere = RankHere;
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
    const ParentMap &HPM = Folder->parentsOf(HBody);
    const std::vector<const DeclRefExpr *> &Refs = refsOf(HBody);
    auto Tainted = taintedBy(P, Refs, HPM, *Finder, *Peers);
    return llvm::all_of(Refs, [&](const DeclRefExpr *D) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      return !VD || !Tainted.count(VD) ||
             isKnownUse(HPM, D, HelperSites[H], *Finder, *Peers);
    });
  };
  struct PendingOp {
    DeviceOp Op;
    bool Straight;
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
  std::function<void(llvm::SmallVectorImpl<Frame> &, bool, const Expr *)>
      Expand = [&](llvm::SmallVectorImpl<Frame> &Frames, bool ParentStraight,
                   const Expr *Object) {
        const FunctionDecl *Helper = Frames.back().second;
        const std::optional<FieldPath> Prefix = Prefixes.back();
        const Stmt *HBody = Helper->getBody();
        llvm::ArrayRef<DeviceOpsFinder::OpStmt> HStmts =
            Finder->opStmtsOf(HBody);
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
            for (const DeviceOp &Op : Finder->opsOf(*Asm))
              Found.emplace_back(Op, HS);
            HSites.insert(HS);
            continue;
          }
          const auto *HC = cast<CallExpr>(HS);
          if (auto Op = Finder->opOf(*HC)) {
            Found.emplace_back(*Op, HS);
            HSites.insert(HS);
            continue;
          }
          if (Finder->addressHelperArgument(*HC))
            continue; // `smem_u32(bar)`: still straight through.
          const FunctionDecl *FD = HC->getDirectCallee();
          if (FD && (!FD->getBody() ||
                     SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()))))
            continue;
          if (FD && !Finder->mayIssueOps(FD))
            continue; // computes values only (TK's get_tma, unit_coord)
          const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
          // A method of one of this method's fields (`this->bar->expect(n)`,
          // `full.arrive_and_expect_tx(n)`) or of its own object: followed
          // with that field.
          std::optional<FieldPath> Fields;
          const auto *MC = dyn_cast<CXXMemberCallExpr>(HC);
          if (MD && !MD->isStatic() && Object && Prefix && MC) {
            const Expr *Of = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
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
        const ParentMap &HPM = Folder->parentsOf(HBody);
        auto StraightHere = [&](const Stmt *HS) {
          PhasePlace HP = phasePlaceOf(HPM, HS, HBody);
          return ParentStraight && !OtherCalls && HP.Region == HBody &&
                 HP.Branches.empty() && !HP.Unclear;
        };
        for (const auto &[Op, HS] : Found) {
          bool Straight = StraightHere(HS);
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
            if (auto P = Peers->peerOf(BarE)) {
              BarE = Finder->lookThrough(P->Local);
              PeerRank = P->Rank;
            }
          const ParmVarDecl *Param =
              BarE ? barrierParameter(BarE, Helper, *Finder, *Folder)
                   : nullptr;
          std::optional<BarrierIdentity> MemberId;
          // The barrier as a field of the object of the method frame \p K
          // (\p BE in its body): `&this->b`, a barrier object field
          // (`cuda::barrier &`), a pointer field to the barrier (`uint64_t
          // *bar`), also through pointer fields (`&this->bar->b`).
          auto FieldBarrier = [&](const Expr *BE, size_t K) {
            if (!Object || !Prefixes[K] || !BE)
              return;
            BE = BE->IgnoreParenCasts();
            const auto *U = dyn_cast<UnaryOperator>(BE);
            const bool AddrOf = U && U->getOpcode() == UO_AddrOf;
            if (AddrOf)
              BE = U->getSubExpr();
            const bool PointerField =
                !AddrOf && BE->getType()->isPointerType();
            llvm::SmallVector<const FieldDecl *, 2> Path;
            if (!thisFieldPath(BE, Path, /*PointerFields=*/true))
              return;
            FieldPath Full = *Prefixes[K];
            Full.append(Path.begin(), Path.end());
            MemberId = memberBarrierIdentity(Object, Full, *Result.Context,
                                             PointerField);
            // The field must only feed the method's ops.
            const Stmt *KBody = Frames[K].second->getBody();
            if (!onlyFeeds(KBody, Path.front(), Folder->parentsOf(KBody),
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
            Arg = Finder->lookThrough(
                FC->getArg(Param->getFunctionScopeIndex()));
            if (K == 0)
              break;
            Param = barrierParameter(Arg, Frames[K - 1].second, *Finder,
                                     *Folder);
            if (!Param) {
              FieldBarrier(Arg, K - 1);
              Arg = nullptr;
            }
          }
          if (Bar && !Param && !MemberId)
            FieldBarrier(BarE, Frames.size() - 1);
          // (A wait's barrier is no transaction op's: NestedUnknown below.)
          Pending.push_back({Op, Straight, {Frames.begin(), Frames.end()}, Arg,
                             std::move(MemberId),
                             Bar && Bar->Present && !Init &&
                                 !std::holds_alternative<Wait>(Op),
                             PeerRank});
        }
        for (size_t N = 0; N < Nested.size(); ++N) {
          const auto &[NC, FD] = Nested[N];
          const auto &Fields = NestedFields[N];
          bool Straight = StraightHere(NC);
          std::optional<FieldPath> Inner;
          if (Fields) {
            Inner = *Prefix;
            Inner->append(Fields->begin(), Fields->end());
            // The field whose method is called must only feed this
            // method's ops and nested calls.
            if (!Fields->empty() &&
                !onlyFeeds(HBody, Fields->front(), HPM, HSites))
              Straight = false;
          }
          Frames.emplace_back(NC, FD);
          Prefixes.push_back(std::move(Inner));
          Expand(Frames, Straight, Object);
          Prefixes.pop_back();
          Frames.pop_back();
        }
      };
  auto AddHelperOps = [&](const CallExpr &Call) {
    const FunctionDecl *Helper = Call.getDirectCallee();
    // Most helpers issue nothing: answered once per body, before the
    // expansion below reads the helper at this call.
    if (!Helper || !Helper->getBody() || !Finder->mayIssueOps(Helper))
      return;
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Helper);
    // A method of a user barrier or pipeline class (`bar.expect(n)` on its
    // own field): `this` is the caller's object.
    const auto *MemberCall = dyn_cast<CXXMemberCallExpr>(&Call);
    const Expr *Object =
        Method && !Method->isStatic() && MemberCall
            ? Finder->lookThrough(MemberCall->getImplicitObjectArgument())
            : nullptr;
    if (!Helper || (Method && !Method->isStatic() && !Object) ||
        !Helper->getBody() || !Helper->hasAttr<CUDADeviceAttr>() ||
        SM.isInSystemHeader(SM.getFileLoc(Helper->getLocation())))
      return;
    llvm::SmallVector<Frame, 4> Frames{{&Call, Helper}};
    Pending.clear();
    Prefixes.assign(1, Object ? std::optional<FieldPath>(FieldPath())
                              : std::nullopt);
    Expand(Frames, true, Object);
    // A nested helper's op on a barrier that is not the caller's: the
    // nested helpers are other code, as they were before being followed.
    const bool NestedUnknown = llvm::any_of(Pending, [](const PendingOp &P) {
      return P.Frames.size() > 1 && P.HasBarrier && !P.Arg && !P.MemberId;
    });
    for (PendingOp &P : Pending) {
      if (NestedUnknown && P.Frames.size() > 1)
        continue;
      Add(P.Op, &Call, P.Straight && !(NestedUnknown && P.Frames.size() == 1),
          P.Frames, P.Arg, std::move(P.MemberId), P.PeerRank);
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
      std::vector<DeviceOp> AsmOps = Finder->opsOf(*Asm);
      if (AsmOps.empty() || !InUserCode(S))
        continue;
      for (const DeviceOp &Op : AsmOps)
        Add(Op, S, true, {}, nullptr);
    } else if (auto Op = Finder->opOf(*cast<CallExpr>(S))) {
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
                  Finder->lookThrough(MC->getImplicitObjectArgument()),
                  *Result.Context))
            Waits.emplace_back(B, std::move(*Id));
      } else if (const Expr *Bar =
                     FD ? events::libcudacxxInitBarrier(*FD, *C) : nullptr) {
        if (auto Id = barrierIdentity(Finder->lookThrough(Bar), *Result.Context))
          Inits.emplace_back(C, std::move(*Id));
      }
      // AddHelperOps' own first test.
      if (!FD || !FD->getBody() || !Finder->mayIssueOps(FD))
        continue;
      AddHelperOps(*C);
    }
  }
  if (Ops.empty())
    return;
  // Built only for a function with an op (most device functions have none).
  const ParentMap &PM = Folder->parentsOf(Body);

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
                       R.Frames.empty() ? nullptr : R.Frames.front().second,
                       PM, *Finder);
    if (!B.S)
      continue;
    const Expr *P = R.W.Parity && R.W.Phase.Present ? R.W.Phase.Written
                                                    : nullptr;
    for (size_t K = R.Frames.size(); P && K-- > 0;) {
      const CallExpr *FC = R.Frames[K].first;
      const auto *D = dyn_cast<DeclRefExpr>(P->IgnoreParenImpCasts());
      const auto *Param = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
      P = Param && !isa<CXXOperatorCallExpr>(FC) &&
                  Param->getDeclContext() == R.Frames[K].second &&
                  Param->getFunctionScopeIndex() < FC->getNumArgs() &&
                  Folder->isNeverWritten(Param)
              ? FC->getArg(Param->getFunctionScopeIndex())
              : nullptr;
    }
    B.Parity = P;
    Waits.emplace_back(B, std::move(R.Id));
  }

  // Locals that hold the address of a barrier: the roots and what is
  // initialised from them.
  const std::vector<const DeclRefExpr *> &BodyRefs = refsOf(Body);

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

  llvm::DenseSet<const Stmt *> Regions;
  for (const TxOp &T : Ops)
    Regions.insert(T.Place.Region);

  // Kernel-wide: a barrier that only ever gets an expect-tx, or only ever
  // gets copies. Only for a __shared__ barrier of the kernel whose every use
  // is a recognised op, and when every op's barrier is identified: then no
  // other code (not even a peer CTA, which runs these same ops) can pair it.
  if (Kernel && llvm::all_of(Ops, [](const TxOp &T) { return T.Id; })) {
    llvm::SmallPtrSet<const VarDecl *, 4> Roots;
    for (const TxOp &T : Ops)
      Roots.insert(T.Id->Root);
    for (const VarDecl *Root : Roots) {
      if (!Root->isLocalVarDecl() || !Root->hasAttr<CUDASharedAttr>())
        continue;
      auto Tainted = taintedBy(Root, BodyRefs, PM, *Finder, *Peers);
      if (llvm::any_of(BodyRefs, [&](const DeclRefExpr *D) {
            const auto *VD = dyn_cast<VarDecl>(D->getDecl());
            return VD && Tainted.count(VD) &&
                   !isKnownUse(PM, D, OpSites, *Finder, *Peers);
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
      std::string Name = Root->getName().str();
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
        if (NonZero && Rules.allows("MBAR-TX-EQUALS-BYTES") &&
            Reported.insert({FirstExpect->Loc.getRawEncoding(), "no copy"})
                .second)
          diag(FirstExpect->Loc,
               "expect-tx on '%0' but no copy in this kernel completes on "
               "it: its phase never completes (MBAR-TX-EQUALS-BYTES)")
              << Name;
      } else if (FirstCopy && !FirstExpect && !SelfExpecting &&
                 Rules.allows("MBAR-TX-EQUALS-BYTES") &&
                 Reported.insert({FirstCopy->Loc.getRawEncoding(), "no expect"})
                     .second) {
        diag(FirstCopy->Loc,
             "copies complete on '%0' but no expect-tx in this kernel counts "
             "their bytes: its phases complete before the data lands, or "
             "never (MBAR-TX-EQUALS-BYTES)")
            << Name;
      }
    }
  }

  // The phase of a group with a multicast, counted CTA by CTA of the
  // kernel's cluster: a multicast completes its bytes on the barrier at the
  // same offset in every CTA of its mask. Each op must run in one thread of
  // a CTA, in the CTAs its rank guards select; masks and expect-tx counts
  // may depend on the rank. Reports the first CTA whose counts differ;
  // returns the coverage line, or "" when something is unknown.
  auto ClusterPhase = [&](const std::vector<unsigned> &Group,
                          const std::string &Name) -> std::string {
    auto Cluster = clusterOf(Fn, nullptr, *Folder);
    if (!Cluster || Cluster->Ctas < 2 || Cluster->Ctas > 16)
      return "";
    // A jump under a rank-dependent condition (`if (rank != 0) return;`)
    // decides which CTAs reach the ops in a way the branches above do not
    // show: unknown.
    if (rankDependentJump(Body, PM, *Ranks))
      return "";
    const uint64_t Ctas = Cluster->Ctas;
    const ::tma::rules::threads::BlockSize Block = Guards->blockOf(Fn);
    // The value of V, an operand of T, in the CTA of rank R: through the
    // argument of a helper's parameter when it depends on the rank.
    auto ValueIn = [&](const TxOp &T, const OpValue &V,
                       uint64_t R) -> ::tma::rules::Known {
      const Expr *E = V.E;
      if (E && T.via()) {
        const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
        const CallExpr *Call = T.via();
        E = T.Frames.size() == 1 && P &&
                    P->getFunctionScopeIndex() < Call->getNumArgs() &&
                    isa<FunctionDecl>(P->getDeclContext()) &&
                    cast<FunctionDecl>(P->getDeclContext())
                            ->getCanonicalDecl() ==
                        T.Frames.front().second->getCanonicalDecl()
                ? Call->getArg(P->getFunctionScopeIndex())
                : nullptr;
      }
      if (E && Ranks->dependsOnRank(E)) {
        auto X = Ranks->valueIn(E, R);
        if (!X || *X < 0)
          return std::nullopt;
        return static_cast<uint64_t>(*X);
      }
      const CallContext *Saved = Folder->currentContext();
      Folder->enterContext(opContext(*Folder, T, Saved));
      ::tma::rules::Known K = foldOperand(V);
      Folder->enterContext(Saved);
      return K;
    };
    // Whether C holds in the CTA of rank R; parts on the thread alone hold
    // in some thread (the issuers count them).
    std::function<std::optional<bool>(const Expr *, uint64_t)> Holds =
        [&](const Expr *C, uint64_t R) -> std::optional<bool> {
      C = C->IgnoreParenImpCasts();
      if (const auto *B = dyn_cast<BinaryOperator>(C);
          B && B->getOpcode() == BO_LAnd) {
        auto L = Holds(B->getLHS(), R);
        if (L && !*L)
          return false;
        auto Rt = Holds(B->getRHS(), R);
        if (Rt && !*Rt)
          return false;
        if (!L || !Rt)
          return std::nullopt;
        return true;
      }
      if (Guards->threadOnly(C))
        return true;
      auto X = Ranks->valueIn(C, R);
      if (!X)
        return std::nullopt;
      return *X != 0;
    };
    auto RunsIn = [&](const TxOp &T, uint64_t R) -> std::optional<bool> {
      for (const auto &[If, Else] : T.Place.Branches) {
        const Expr *C = If->getCond();
        if (!C || If->getInit() || If->getConditionVariable())
          return std::nullopt;
        if (!Else) {
          auto H = Holds(C, R);
          if (!H || !*H)
            return H;
          continue;
        }
        if (Guards->threadOnly(C))
          continue;
        auto X = Ranks->valueIn(C, R);
        if (!X)
          return std::nullopt;
        if (*X)
          return false;
      }
      return true;
    };
    // Which CTAs run each op of the group, and how many threads of a CTA
    // issue it (MBAR-TX-ISSUERS: one per warp under elect.sync, ...).
    std::vector<llvm::SmallVector<bool, 16>> In(Group.size());
    std::vector<unsigned> Issuers(Group.size());
    for (unsigned G = 0; G < Group.size(); ++G) {
      const TxOp &T = Ops[Group[G]];
      auto Threads = Guards->threadsAt(T.Site, Fn);
      auto N = Threads ? ::tma::rules::threads::issuers(*Threads, Block)
                       : std::nullopt;
      if (!N || *N == 0)
        return "";
      Issuers[G] = *N;
      for (uint64_t R = 0; R < Ctas; ++R) {
        auto Runs = RunsIn(T, R);
        if (!Runs)
          return "";
        In[G].push_back(*Runs);
      }
    }
    // The bytes T delivers, with its map linked in its helper's context.
    auto DeliveredBy = [&](const TxOp &T) {
      const CallContext *Saved = Folder->currentContext();
      Folder->enterContext(opContext(*Folder, T, Saved));
      ::tma::rules::Known K = delivered(T.Op);
      Folder->enterContext(Saved);
      return K;
    };
    auto Times = [](::tma::rules::Known K, unsigned N) -> ::tma::rules::Known {
      if (!K)
        return std::nullopt;
      return *K * N;
    };
    // The CTA whose barrier a Remote op issued in CTA From names.
    auto TargetOf = [&](const TxOp &T,
                        uint64_t From) -> std::optional<uint64_t> {
      OpValue V;
      V.E = V.Written = T.PeerRank;
      V.Present = true;
      std::optional<uint64_t> To;
      if (!T.PeerRankHere) {
        To = ValueIn(T, V, From);
      } else if (Ranks->dependsOnRank(T.PeerRank)) {
        if (auto X = Ranks->valueIn(T.PeerRank, From); X && *X >= 0)
          To = static_cast<uint64_t>(*X);
      } else {
        To = foldOperand(V);
      }
      if (!To || *To >= Ctas)
        return std::nullopt;
      // `.cta_group::2`: only the leader CTA of the issuer's pair, where
      // the address and the pair's routing (tma-rules.md, INFERRED) agree.
      if (const auto *C = std::get_if<TensorCopy>(&T.Op);
          C && C->CtaGroup && *C->CtaGroup == 2 &&
          *To != (From & ~uint64_t{1}))
        return std::nullopt;
      return *To;
    };
    bool Equal = true;
    for (const CallContext *Context :
         Folder->contextsOf(CallSiteContexts ? Fn : nullptr)) {
      if (llvm::any_of(Group, [&](unsigned I) {
            return !Folder->mayRun(Ops[I].Site, Fn, Context);
          }))
        continue;
      Folder->enterContext(Context);
      // Per CTA: what it expects, what the cluster delivers to it, and the
      // ops of other CTAs among those (for notes): multicasts (Mask) and
      // ops on a peer's barrier (Remote).
      struct Arrival {
        unsigned Op;
        uint64_t From, Mask;
        bool Remote;
        unsigned Issuers;
      };
      for (uint64_t R = 0; R < Ctas && Equal; ++R) {
        std::vector<::tma::rules::Known> Expected, Delivered;
        std::vector<Arrival> Arrivals;
        bool Unknown = false;
        for (unsigned G = 0; G < Group.size() && !Unknown; ++G) {
          const TxOp &T = Ops[Group[G]];
          const auto *E = std::get_if<ExpectTx>(&T.Op);
          if (T.Role == TxRole::Remote) {
            for (uint64_t From = 0; From < Ctas; ++From) {
              if (!In[G][From])
                continue;
              auto To = TargetOf(T, From);
              if (!To) {
                Unknown = true;
                break;
              }
              if (*To != R)
                continue;
              if (E)
                Expected.push_back(
                    Times(ValueIn(T, E->Bytes, From), Issuers[G]));
              else
                Delivered.push_back(Times(DeliveredBy(T), Issuers[G]));
              Arrivals.push_back({Group[G], From, 0, true, Issuers[G]});
            }
            continue;
          }
          if (E) {
            if (In[G][R])
              Expected.push_back(Times(ValueIn(T, E->Bytes, R), Issuers[G]));
            continue;
          }
          if (T.Role == TxRole::Copy) {
            if (In[G][R])
              Delivered.push_back(Times(DeliveredBy(T), Issuers[G]));
            continue;
          }
          const OpValue *Mask = nullptr;
          if (const auto *C = std::get_if<TensorCopy>(&T.Op))
            Mask = &C->CtaMask;
          else if (const auto *B = std::get_if<BulkCopy>(&T.Op))
            Mask = &B->CtaMask;
          for (uint64_t From = 0; From < Ctas; ++From) {
            if (!In[G][From])
              continue;
            auto M = ValueIn(T, *Mask, From);
            if (!M) {
              Unknown = true;
              break;
            }
            if (*M >> R & 1) {
              Delivered.push_back(Times(DeliveredBy(T), Issuers[G]));
              Arrivals.push_back({Group[G], From, *M, false, Issuers[G]});
            }
          }
        }
        if (Unknown ||
            llvm::any_of(Expected, [](const auto &K) { return !K; }) ||
            llvm::any_of(Delivered, [](const auto &K) { return !K; })) {
          Folder->enterContext(nullptr);
          return "";
        }
        auto V = ::tma::rules::checkMbarTxClusterBytes(Expected, Delivered,
                                                       Name, R, Ctas);
        if (!V)
          continue;
        Equal = false;
        // The first expect-tx that counts in this CTA.
        unsigned FirstExpect = Group.front();
        for (unsigned G = 0; G < Group.size(); ++G)
          if (std::holds_alternative<ExpectTx>(Ops[Group[G]].Op) &&
              (Ops[Group[G]].Role == TxRole::Remote || In[G][R])) {
            FirstExpect = Group[G];
            break;
          }
        SourceLocation Loc = Ops[FirstExpect].Loc;
        std::string Message = V->Message + " (" + V->RuleId + ")";
        if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
            !Rules.allows(Message) ||
            !Reported.insert({Loc.getRawEncoding(), Message}).second)
          continue;
        diag(Loc, "%0") << Message;
        diag(SM.getFileLoc(Cluster->From), "the cluster has %0 CTAs: %1",
             DiagnosticIDs::Note)
            << std::to_string(Ctas) << Cluster->How;
        for (const Arrival &A : Arrivals) {
          const TxOp &T = Ops[A.Op];
          if (!A.Remote)
            diag(T.Loc,
                 "this multicast from CTA %0 (mask 0x%1) delivers %2 bytes to "
                 "'%3' in CTA %4",
                 DiagnosticIDs::Note)
                << std::to_string(A.From) << llvm::utohexstr(A.Mask)
                << std::to_string(DeliveredBy(T).value_or(0)) << Name
                << std::to_string(R);
          else if (std::holds_alternative<ExpectTx>(T.Op))
            diag(T.Loc,
                 "this expect-tx in CTA %0 counts on '%1' of CTA %2: mapa "
                 "names that CTA's barrier",
                 DiagnosticIDs::Note)
                << std::to_string(A.From) << Name << std::to_string(R);
          else
            diag(T.Loc,
                 "this copy in CTA %0 delivers %1 bytes to '%2' of CTA %3: "
                 "mapa names that CTA's barrier",
                 DiagnosticIDs::Note)
                << std::to_string(A.From)
                << std::to_string(DeliveredBy(T).value_or(0)) << Name
                << std::to_string(R);
        }
        for (unsigned G = 0; G < Group.size(); ++G) {
          if (Issuers[G] == 1)
            continue;
          const TxOp &T = Ops[Group[G]];
          if (Block.exact())
            diag(T.Loc,
                 "issued by %0 threads of each CTA's block of %1 threads, "
                 "each counting its bytes (MBAR-TX-ISSUERS)",
                 DiagnosticIDs::Note)
                << Issuers[G] << Block.Max;
          else
            diag(T.Loc,
                 "issued by %0 threads of each CTA, each counting its bytes "
                 "(MBAR-TX-ISSUERS)",
                 DiagnosticIDs::Note)
                << Issuers[G];
        }
        diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
      }
      Folder->enterContext(nullptr);
    }
    return Equal ? "proven equal in every CTA of the cluster"
                 : "not proven (a mismatch in a CTA of the cluster)";
  };

  for (const Stmt *Region : Regions) {
    std::vector<unsigned> Here;
    bool RegionUnknown = false;
    for (unsigned I = 0; I < Ops.size(); ++I)
      if (Ops[I].Place.Region == Region) {
        Here.push_back(I);
        RegionUnknown |= !Ops[I].Id;
      }
    if (RegionUnknown)
      continue;
    // The groups of the region: the first op of each key.
    llvm::SmallVector<unsigned, 4> Leaders;
    for (unsigned I : Here)
      if (llvm::none_of(Leaders, [&](unsigned L) {
            return sameKey(*Ops[L].Id, *Ops[I].Id);
          }))
        Leaders.push_back(I);

    for (unsigned L : Leaders) {
      const BarrierIdentity &Id = *Ops[L].Id;
      std::vector<unsigned> Group;
      // Why the phase is unknown; empty while it is not. Lifted: only
      // reasons that counting CTA by CTA of the cluster answers.
      std::string Why;
      bool Lifted = true;
      auto Unsure = [&](const char *Reason, bool ClusterAnswers = false) {
        if (Why.empty())
          Why = Reason;
        Lifted &= ClusterAnswers;
      };
      for (unsigned I : Here) {
        if (sameKey(*Ops[I].Id, Id))
          Group.push_back(I);
        else if (mayAlias(*Ops[I].Id, Id))
          Unsure("another barrier operand may alias it");
      }
      if (!Kernel && !(Id.Solid && Id.Root->isLocalVarDecl()))
        Unsure("a barrier of the callers of this helper");
      if (!Id.Root->isLocalVarDeclOrParm())
        Unsure("a barrier outside this function");
      // The same barrier in a loop nested in this region, or around it;
      // unless a wait at the top of the loop body separates the phases.
      std::vector<const Stmt *> SitesOn, InitsOn;
      std::vector<BlockingWait> WaitsOn;
      for (const TxOp &T : Ops)
        if (!T.Id || sameKey(*T.Id, Id) || mayAlias(*T.Id, Id))
          SitesOn.push_back(T.Site);
      for (const auto &[W, WId] : Waits)
        if (sameKey(WId, Id))
          WaitsOn.push_back(W);
      for (const auto &[I, IId] : Inits)
        if (sameKey(IId, Id))
          InitsOn.push_back(I);
      for (const TxOp &T : Ops)
        if (T.Place.Region != Region &&
            (!T.Id || sameKey(*T.Id, Id) || mayAlias(*T.Id, Id)) &&
            (isWithin(PM, T.Place.Region, Region) ||
             isWithin(PM, Region, T.Place.Region)) &&
            !separatedByLoopWait(PM, SM, Region, T.Place.Region, Body,
                                 SitesOn, WaitsOn, InitsOn, *Folder))
          Unsure("an op on it in a nested or enclosing loop");
      // How many threads issue each op of the group (MBAR-TX-ISSUERS):
      // from its guards and the kernel's block size; all or nothing.
      std::vector<unsigned> Issuers;
      const ::tma::rules::threads::BlockSize Block =
          Kernel ? Guards->blockOf(Fn) : ::tma::rules::threads::BlockSize();
      for (unsigned I : Group) {
        std::optional<unsigned> N;
        if (Kernel)
          if (auto T = Guards->threadsAt(Ops[I].Site, Fn))
            N = ::tma::rules::threads::issuers(*T, Block);
        if (!N || *N == 0) {
          Issuers.clear();
          break;
        }
        Issuers.push_back(*N);
      }
      // Guards that only some ops of the group have must tell threads
      // apart: a condition that is the same in every thread (`if (k == 0)`)
      // decides whether an op runs in this phase at all.
      for (unsigned I : Group)
        for (const auto &[If, Else] : Ops[I].Place.Branches)
          if (!Issuers.empty() &&
              llvm::any_of(Group,
                           [&, If = If, Else = Else](unsigned J) {
                             return !llvm::is_contained(
                                 Ops[J].Place.Branches,
                                 std::make_pair(If, Else));
                           }) &&
              !Guards->threadOnly(If->getCond()))
            Issuers.clear();
      const bool Counted = !Issuers.empty();
      // Multicasts and ops on a peer's barrier are counted CTA by CTA of
      // the cluster (ClusterPhase): the reasons below that it answers.
      bool HasExpect = false, HasCopy = false, HasMulticast = false;
      for (unsigned I : Group)
        HasMulticast |= Ops[I].Role == TxRole::Multicast ||
                        Ops[I].Role == TxRole::Remote;
      for (unsigned I : Group) {
        const TxOp &T = Ops[I];
        if (T.Role == TxRole::Unknown)
          Unsure(
              "a tensor, multicast, reduce or predicated op completes on it");
        if (T.Role == TxRole::Multicast)
          Unsure("a multicast completes on it", true);
        if (T.Role == TxRole::Remote)
          Unsure("an op on it names a peer CTA's barrier (mapa)", true);
        if (T.Place.Unclear)
          Unsure("control flow the model does not follow");
        HasExpect |= T.Role == TxRole::Expect;
        HasCopy |= T.Role == TxRole::Copy;
        // Both branches of one if.
        for (unsigned J : Group)
          for (const auto &BI : T.Place.Branches)
            for (const auto &BJ : Ops[J].Place.Branches)
              if (BI.first == BJ.first && BI.second != BJ.second)
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
      if (!HasExpect && !HasRemoteExpect)
        continue;
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
      llvm::SmallPtrSet<const VarDecl *, 4> Tainted =
          taintedBy(Id.Root, BodyRefs, PM, *Finder, *Peers);
      for (const DeclRefExpr *D : BodyRefs) {
        const auto *VD = dyn_cast<VarDecl>(D->getDecl());
        // Only the barrier's variables matter: asked before the walk up
        // the parents, which most references of a kernel would take.
        if (!VD || (!Tainted.count(VD) && !IdVars.count(VD)) ||
            !isWithin(PM, D, Region))
          continue;
        if (Tainted.count(VD) &&
            !isKnownUse(PM, D, OpSites, *Finder, *Peers))
          Unsure("the barrier is passed to a function or stored");
        // A write of the root redirects a pointer read from it, unless it
        // is an op's own call (`pipe.expect(n)` on a non-const method).
        if (IdVars.count(VD) &&
            (VD != Id.Root || VD->getType()->isPointerType() ||
             (Id.ReadsPointer && llvm::none_of(OpSites, [&](const Stmt *S) {
                return isWithin(PM, D, S);
              }))) &&
            mayWrite(PM, D)) {
          SourceLocation W = SM.getFileLoc(D->getBeginLoc());
          if (SM.isBeforeInTranslationUnit(First, W) &&
              SM.isBeforeInTranslationUnit(W, Last))
            Unsure("the barrier expression changes between its ops");
        }
      }

      std::string Name =
          textOf(Id.Object, Id, SM, Result.Context->getLangOpts()) + Id.Member;
      auto Cover = [&](const std::string &What) {
        if (!CoverageReport)
          return;
        for (unsigned I : Group)
          if (std::holds_alternative<ExpectTx>(Ops[I].Op) &&
              Reported.insert({Ops[I].Loc.getRawEncoding(), "coverage"}).second)
            diag(Ops[I].Loc, "coverage: expect-tx on '%0': %1") << Name << What;
      };
      if (!Why.empty()) {
        // A multicast: count the phase CTA by CTA of the cluster.
        if (Lifted && HasMulticast && Kernel)
          if (std::string Done = ClusterPhase(Group, Name);
              !Done.empty()) {
            Cover(Done);
            continue;
          }
        Cover("unknown (" + Why + ")");
        continue;
      }
      bool AllKnown = true;
      const bool SingleContext =
          !isInInstantiation(Fn) &&
          Folder->contextsOf(CallSiteContexts ? Fn : nullptr).size() == 1;
      for (const CallContext *Context :
           Folder->contextsOf(CallSiteContexts ? Fn : nullptr)) {
        // A context under which a guard leaves before an op of the phase
        // compares nothing (tma-rules.md §11.C).
        if (llvm::any_of(Group, [&](unsigned I) {
              return !Folder->mayRun(Ops[I].Site, Fn, Context);
            }))
          continue;
        Folder->enterContext(Context);
        std::vector<::tma::rules::Known> Expected, Delivered;
        // An op of a helper folds in the context of the helper's call.
        auto InOpContext = [&](unsigned I, auto F) {
          if (Ops[I].via())
            Folder->enterContext(opContext(*Folder, Ops[I], Context));
          auto R = F();
          Folder->enterContext(Context);
          return R;
        };
        const ExpectTx *FirstExpect = nullptr;
        unsigned FirstExpectIdx = 0, Expects = 0;
        uint64_t SelfExpected = 0;
        std::vector<unsigned> ExpectIssuers, CopyIssuers;
        for (unsigned G = 0; G < Group.size() && Counted; ++G)
          (std::holds_alternative<ExpectTx>(Ops[Group[G]].Op) ? ExpectIssuers
                                                              : CopyIssuers)
              .push_back(Issuers[G]);
        for (unsigned I : Group) {
          if (const auto *E = std::get_if<ExpectTx>(&Ops[I].Op)) {
            Expected.push_back(
                InOpContext(I, [&] { return foldOperand(E->Bytes); }));
            if (!FirstExpect) {
              FirstExpect = E;
              FirstExpectIdx = I;
            }
            ++Expects;
          } else {
            Delivered.push_back(
                InOpContext(I, [&] { return delivered(Ops[I].Op); }));
            if (Ops[I].Loop && Delivered.back()) {
              auto N = tripCount(Ops[I].Loop, PM, *Folder);
              Delivered.back() =
                  N ? ::tma::rules::Known(*Delivered.back() * *N)
                    : std::nullopt;
            }
            // cuda::memcpy_async expects its own bytes
            // (MEMCPY-ASYNC-TX-OWNED).
            if (const auto *B = std::get_if<BulkCopy>(&Ops[I].Op);
                B && B->OwnsExpectTx) {
              Expected.push_back(Delivered.back());
              SelfExpected += Delivered.back().value_or(0);
            }
          }
        }
        // Ops issued by different numbers of threads compare only as
        // totals (MBAR-TX-ISSUERS); the thread-by-thread rule then says
        // nothing. cuda::memcpy_async's own expect-tx is not counted so.
        const bool IssuersDiffer =
            Counted && llvm::any_of(Issuers, [&](unsigned N) {
              return N != Issuers.front();
            });
        if (IssuersDiffer && Expected.size() != ExpectIssuers.size()) {
          AllKnown = false;
          continue;
        }
        auto V =
            IssuersDiffer
                ? ::tma::rules::checkMbarTxIssuers(Expected, ExpectIssuers,
                                                   Delivered, CopyIssuers, Name)
                : ::tma::rules::checkMbarTxEqualsBytes(Expected, Delivered,
                                                       Name, SelfExpected);
        AllKnown &= llvm::all_of(Expected,
                                 [](const auto &K) { return K.has_value(); }) &&
                    llvm::all_of(Delivered,
                                 [](const auto &K) { return K.has_value(); });
        if (!V)
          continue;
        AllKnown = false; // reported, not proven
        SourceLocation Loc = Ops[FirstExpectIdx].Loc;
        if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
          continue;
        std::string Message = V->Message + " (" + V->RuleId + ")";
        if (!Rules.allows(Message) ||
            !Reported.insert({Loc.getRawEncoding(), Message}).second)
          continue;
        // A fix-it for a single literal count outside macros, in code that
        // runs in this one context (a template instantiation or a function
        // with several calls may be right elsewhere).
        const Expr *Lit = nullptr;
        if (Expects == 1 && !Ops[FirstExpectIdx].via() && SingleContext &&
            !IssuersDiffer && !FirstExpect->Bytes.Imm &&
            FirstExpect->Bytes.Written) {
          const Expr *W = FirstExpect->Bytes.Written->IgnoreParenImpCasts();
          if (isa<IntegerLiteral>(W) && !W->getBeginLoc().isMacroID() &&
              !W->getEndLoc().isMacroID())
            Lit = W;
        }
        // The count the fix writes comes from the maps as tma-descriptor's
        // fixes of their encode calls leave them (a box fix changes the
        // bytes): no fix-it when a map would change by hand.
        std::optional<uint64_t> FixTo = V->Limit;
        if (Lit && llvm::any_of(Group, [&](unsigned I) {
              return std::holds_alternative<TensorCopy>(Ops[I].Op);
            })) {
          uint64_t Total = 0;
          for (unsigned I : Group) {
            if (!FixTo || std::holds_alternative<ExpectTx>(Ops[I].Op))
              continue;
            rules::Known Bytes = InOpContext(I, [&]() -> rules::Known {
              const auto *T = std::get_if<TensorCopy>(&Ops[I].Op);
              if (!T)
                return delivered(Ops[I].Op);
              auto Map = Linker->mapOf(T->Map.E, Folder->currentContext());
              auto Fixed = Map ? mapAfterFixes(*Map, *Folder, *Result.Context)
                               : std::nullopt;
              return Fixed ? rules::tensorCopyBytes(*Fixed,
                                                    copyModeOf(T->Mode))
                           : std::nullopt;
            });
            if (Bytes && Ops[I].Loop) {
              auto N = tripCount(Ops[I].Loop, PM, *Folder);
              Bytes = N ? rules::Known(*Bytes * *N) : std::nullopt;
            }
            if (Bytes)
              Total += *Bytes;
            else
              FixTo.reset();
          }
          if (FixTo)
            FixTo = Total - std::min(Total, SelfExpected);
        }
        {
          auto D = diag(Loc, "%0") << Message;
          // Expecting 0 is not a fix: the suggestion says to remove it.
          if (Lit && FixTo && *FixTo != 0 && Expected.front() != FixTo)
            D << FixItHint::CreateReplacement(Lit->getSourceRange(),
                                              std::to_string(*FixTo));
          else
            Lit = nullptr;
        }
        for (unsigned G = 0; G < Group.size(); ++G) {
          unsigned I = Group[G];
          if (!std::holds_alternative<ExpectTx>(Ops[I].Op))
            InOpContext(I, [&] {
              noteCopy(Ops[I].Op, Ops[I].Loc, Name, SM);
              return 0;
            });
          if (const ForStmt *F = Ops[I].Loop)
            if (auto N = tripCount(F, PM, *Folder))
              diag(SM.getFileLoc(F->getForLoc()),
                   "in each of the %0 iterations of this loop",
                   DiagnosticIDs::Note)
                  << std::to_string(*N);
          if (IssuersDiffer && Block.exact())
            diag(Ops[I].Loc,
                 "issued by %0 %select{thread|threads}1 of the block of %2 "
                 "threads",
                 DiagnosticIDs::Note)
                << Issuers[G] << (Issuers[G] != 1) << Block.Max;
          else if (IssuersDiffer)
            diag(Ops[I].Loc,
                 "issued by %0 %select{thread|threads}1 of the block",
                 DiagnosticIDs::Note)
                << Issuers[G] << (Issuers[G] != 1);
        }
        if (!Lit && FixTo == V->Limit)
          diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
        else if (!Lit && FixTo && Expected.front() == FixTo)
          diag(Loc,
               "the count is right once the fixes of the tensor map's "
               "encode call are applied",
               DiagnosticIDs::Note);
        else if (!Lit)
          diag(Loc,
               "fix the tensor map's encode call first: the byte count "
               "follows from its box",
               DiagnosticIDs::Note);
      }
      Folder->enterContext(nullptr);
      Cover(AllKnown
                ? "proven equal"
                : "not proven (a byte count does not fold, or a mismatch)");
    }
  }
}

} // namespace clang::tidy::tma
