//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/OrderingCheck.h"
#include "checks/SharedMatchers.h"
#include "checks/OrderingFixes.h"
#include "rules/OrderingRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <functional>
#include <string>

using namespace clang::ast_matchers;
namespace ord = tma::rules::ordering;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral FnId = SharedMatchers::FunctionId;

void OrderingCheck::registerMatchers(MatchFinder *F) {
  Rules.diagnoseUnknown(*this, getID());
  Shared =
      SharedMatchers::functions(F, this, SharedMatchers::Functions::Kernels);
}

namespace {
/// Records the `#if` branches the preprocessor skipped and the files it
/// entered.
class SkippedRanges : public PPCallbacks {
public:
  SkippedRanges(const SourceManager &SM,
                std::shared_ptr<OrderingCheck::Preprocessed> Out)
      : SM(SM), Out(std::move(Out)) {}
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason == EnterFile && Loc.isValid())
      Out->Files.insert(SM.getFileID(SM.getFileLoc(Loc)).getHashValue());
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    Out->Skipped.push_back(Range);
  }

private:
  const SourceManager &SM;
  std::shared_ptr<OrderingCheck::Preprocessed> Out;
};
} // namespace

void OrderingCheck::registerPPCallbacks(const SourceManager &SM,
                                        Preprocessor *PP, Preprocessor *) {
  PPInfo = std::make_shared<Preprocessed>();
  // The main file is entered before the callbacks exist.
  PPInfo->Files.insert(SM.getMainFileID().getHashValue());
  PP->addPPCallbacks(std::make_unique<SkippedRanges>(SM, PPInfo));
}

bool OrderingCheck::bodyRuns(const Stmt *Body, const SourceManager &SM,
                             const LangOptions &LO) const {
  if (LO.CUDAIsDevice)
    return true;
  if (!Body)
    return false;
  SourceLocation B = SM.getFileLoc(Body->getBeginLoc()),
                 E = SM.getFileLoc(Body->getEndLoc());
  if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != SM.getFileID(E) ||
      !PPInfo->Files.count(SM.getFileID(B).getHashValue()))
    return false;
  for (const SourceRange &R : PPInfo->Skipped) {
    SourceLocation S = R.getBegin();
    if (SM.getFileID(S) == SM.getFileID(B) &&
        !SM.isBeforeInTranslationUnit(S, B) &&
        !SM.isBeforeInTranslationUnit(E, S))
      return false;
  }
  return true;
}

void OrderingCheck::onEndOfTranslationUnit() {
  Model.reset();
  Finder.reset();
  Reported.clear();
  Fixed.clear();
}

bool OrderingCheck::once(SourceLocation Loc, const std::string &Message) {
  return Rules.allows(Message) &&
         Reported.insert({Loc.getRawEncoding(), Message}).second;
}

bool OrderingCheck::firstFixAt(SourceLocation Loc) {
  return Fixed.insert(Loc.getRawEncoding()).second;
}

namespace {

/// The fence.proxy.async in the API of \p Op.
const char *fenceSpelling(const DeviceOp &Op) {
  switch (siteOf(Op).Api) {
  case OpApi::InlinePtx:
    return "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\")";
  case OpApi::CudaPtx:
    return "cuda::ptx::fence_proxy_async(cuda::ptx::space_shared)";
  case OpApi::Cde:
    return "cuda::device::experimental::fence_proxy_async_shared_cta()";
  case OpApi::Cute:
    return "cute::tma_store_fence()";
  case OpApi::Cutlass:
    return "cutlass::arch::fence_view_async_shared()";
  default:
    return "fence.proxy.async.shared::cta";
  }
}

/// Whether every loop around event \p Outer is around \p Inner too.
bool loopsAround(const ord::Flow &G, std::size_t Outer, std::size_t Inner) {
  for (const ord::Flow::Set *L : G.loopsAround(Outer))
    if (!(*L)[G.nodeOf(Inner)])
      return false;
  return true;
}

/// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: the fence goes before the
/// first thread barrier on the way from the write to the copy that every
/// writing thread runs after it (it post-dominates the write, in the same
/// or an outer loop), or, with no thread barrier in between, before the
/// copy when the same threads write and copy (each dominates or
/// post-dominates the other).
std::optional<FixItHint> fenceFix(const KernelSequence &K,
                                  const ord::Finding &F, const Stmt *Body,
                                  const SourceManager &SM,
                                  const LangOptions &LO) {
  const ord::Flow &G = K.G;
  std::optional<std::size_t> At;
  for (std::size_t J : G.between(F.First, F.Second, false))
    if (K.Seq[J].Kind == ord::EventKind::ThreadSync && !K.Seq[J].Warp) {
      At = J;
      break;
    }
  if (At) {
    if (!G.postDominates(*At, F.First) || !loopsAround(G, *At, F.First))
      return std::nullopt;
  } else if (!G.dominates(F.First, F.Second) ||
             !G.postDominates(F.Second, F.First)) {
    return std::nullopt; // other threads copy: a thread barrier is missing too
  } else {
    At = F.Second;
  }
  const KernelEvent &Write = K.Events[F.First], &Store = K.Events[F.Second];
  SourceLocation Loc = K.Events[*At].Loc;
  const Stmt *S = statementAt(Body, Loc, SM);
  if (!S || Write.Loc.isMacroID() ||
      !SM.isBeforeInTranslationUnit(Write.Loc, S->getBeginLoc()))
    return std::nullopt;
  std::optional<std::string> Code =
      fenceStatement(*Store.Op, Store.InBody, Body, SM, LO);
  if (!Code)
    return std::nullopt;
  return insertBefore(*S, *Code, SM);
}

/// MBAR-INIT-VISIBLE: __syncthreads() before the statement of the kernel's
/// own block that holds the use, when that is not the one that holds the
/// init (every thread reaches it once, after the init).
std::optional<FixItHint> syncFix(const KernelSequence &K,
                                 const ord::Finding &F, const Stmt *Body,
                                 const SourceManager &SM) {
  const Stmt *Init = topLevelStatementAt(Body, K.Events[F.First].Loc, SM);
  const Stmt *Use = topLevelStatementAt(Body, K.Events[F.Second].Loc, SM);
  if (!Init || !Use || Init == Use ||
      !SM.isBeforeInTranslationUnit(Init->getBeginLoc(), Use->getBeginLoc()))
    return std::nullopt;
  return insertBefore(*Use, "__syncthreads();", SM);
}

} // namespace

void OrderingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>(FnId);
  const SourceManager &SM = *Result.SourceManager;
  if (isDependentFunction(*Fn) || !Fn->getBody() ||
      SM.isInSystemHeader(SM.getFileLoc(Fn->getLocation())))
    return;
  if (!Model)
    Model = KernelModel::forTranslationUnit(*Result.Context);
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(*Result.Context);
  const KernelSequence *K = Model->sequenceOf(Fn);
  if (!K) {
    if (ExplainModel)
      explainModel(*Fn, K, SM);
    return;
  }
  // ExplainModel: why each rule stayed silent, recorded where it decides.
  ord::Silences Silences;
  ord::Silences *Why = ExplainModel ? &Silences : nullptr;

  auto Line = [&](SourceLocation L) {
    return std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(L)));
  };
  auto Name = [&](std::size_t I) -> std::string {
    int O = K->Seq[I].Object;
    return O < 0 ? "shared memory" : "'" + K->Names[O] + "'";
  };
  auto What = [&](std::size_t I) -> std::string {
    return K->Seq[I].Tensor ? "TMA store" : "bulk copy";
  };
  auto Warn = [&](SourceLocation L, const std::string &Msg,
                  std::optional<FixItHint> Fix = std::nullopt) {
    L = SM.getFileLoc(L);
    if (!once(L, Msg))
      return false;
    auto D = diag(L, "%0") << Msg;
    if (Fix && firstFixAt(Fix->RemoveRange.getBegin()))
      D << *Fix;
    return true;
  };
  const Stmt *Body = Fn->getBody();
  const LangOptions &LO = Result.Context->getLangOpts();
  auto NoteOp = [&](std::size_t I, const std::string &Msg) {
    const KernelEvent &E = K->Events[I];
    diag(SM.getFileLoc(E.Loc), "%0", DiagnosticIDs::Note) << Msg;
    if (!E.InBody && !SM.isInSystemHeader(SM.getFileLoc(E.OpLoc)))
      diag(SM.getFileLoc(E.OpLoc), "issued here", DiagnosticIDs::Note);
  };

  for (const ord::Finding &F : ord::fenceBeforeStore(K->Seq, K->G, K->Block, Why)) {
    const KernelEvent &S = K->Events[F.Second];
    // A fence on the way that comes after the hand-off (every path from
    // the write to it passes a thread barrier).
    std::optional<std::size_t> Late;
    ord::Flow::Set BeforeSync =
        K->G.search(F.First, true, false, [&](std::size_t J) {
          return K->Seq[J].Kind == ord::EventKind::ThreadSync &&
                 !K->Seq[J].Warp;
        });
    for (std::size_t J : K->G.between(F.First, F.Second, false))
      if (K->Seq[J].Kind == ord::EventKind::ProxyFence && !BeforeSync[J]) {
        Late = J;
        break;
      }
    std::string Msg = What(F.Second) + " reads " + Name(F.Second) +
                      " written by generic stores at line " +
                      Line(K->Events[F.First].Loc) +
                      (Late ? " with no fence.proxy.async before the thread "
                              "barrier that hands it over (the fence at line " +
                                  Line(K->Events[*Late].Loc) +
                                  " comes after it)"
                            : " with no fence.proxy.async in between") +
                      " (" + F.Rule + ")";
    if (!Warn(S.Loc, Msg, fenceFix(*K, F, Body, SM, LO)))
      continue;
    NoteOp(F.First, "generic store to " + Name(F.First) + " here");
    NoteOp(F.Second, std::string("each writing thread must execute ") +
                         fenceSpelling(*S.Op) +
                         " after its stores, before the thread barrier that "
                         "hands the buffer to the issuing thread");
  }

  if (Why && !WaitBeforeExit)
    for (std::size_t S = 0; S < K->Seq.size(); ++S)
      if (K->Seq[S].Kind == ord::EventKind::Store)
        Why->push_back({K->Seq[S].Tensor ? "TMA-STORE-WAIT"
                                         : "BULK-S2G-WAIT-BEFORE-REUSE",
                        S,
                        "option WaitBeforeExit is off: a copy not waited for "
                        "before the kernel exits is not reported",
                        std::nullopt});
  for (const ord::Finding &F :
       WaitBeforeExit ? ord::waitBeforeExit(K->Seq, K->G, Why)
                      : std::vector<ord::Finding>()) {
    std::string Msg = What(F.First) + " reads " + Name(F.First) +
                      " but the kernel can exit after it with no "
                      "cp.async.bulk.wait_group.read: the copy may still be "
                      "reading shared memory (" +
                      F.Rule + ")";
    Warn(K->Events[F.First].Loc, Msg);
  }

  for (const ord::Finding &F : ord::waitBeforeReuse(K->Seq, K->G, Why)) {
    std::string Why;
    if (!F.Wait)
      Why = "no cp.async.bulk.wait_group.read in between covers its group";
    else if (F.Commits == 0)
      Why = "its group is not committed before the wait at line " +
            Line(K->Events[*F.Wait].Loc);
    else
      Why = "wait_group.read " + std::to_string(*K->Seq[*F.Wait].Depth) +
            " at line " + Line(K->Events[*F.Wait].Loc) +
            " lets its group stay pending (" + std::to_string(F.Commits) +
            (F.Commits == 1 ? " group" : " groups") +
            " committed since the copy)";
    std::string Writer = K->Seq[F.Second].Kind != ord::EventKind::Load
                             ? "generic store"
                         : K->Seq[F.Second].Tensor ? "TMA load"
                                                   : "bulk load";
    // A stage of a ring: the same stage, in the same pass or Laps later.
    std::string Msg =
        K->Seq[F.First].Slice < 0
            ? Writer + " overwrites " + Name(F.First) + " while the " +
                  What(F.First) + " at line " + Line(K->Events[F.First].Loc) +
                  " may still read it: " + Why + " (" + F.Rule + ")"
        : F.Laps == 0
            ? Writer + " overwrites the stage of " + Name(F.First) +
                  " that the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " may still read: " + Why +
                  " (" + F.Rule + ")"
            : Writer + " overwrites the stage of " + Name(F.First) +
                  " that the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " read " +
                  std::to_string(F.Laps) +
                  (F.Laps == 1 ? " pass" : " passes") +
                  " earlier (a ring of " + std::to_string(F.Laps) +
                  (F.Laps == 1 ? " stage" : " stages") +
                  ") and may still read: " + Why + " (" + F.Rule + ")";
    std::optional<FixItHint> Fix;
    if (F.Wait && F.Commits > 0 && F.Laps == 0 && K->Events[*F.Wait].InBody)
      Fix = waitDepthFix(Body, K->Events[*F.Wait].Loc, *K->Seq[*F.Wait].Depth,
                         F.Commits - 1, *Result.Context);
    if (!Warn(K->Events[F.Second].Loc, Msg, Fix))
      continue;
    NoteOp(F.First, "the " + What(F.First) + " reads " + Name(F.First) +
                        " here");
    if (F.Wait && F.Commits > 0)
      diag(SM.getFileLoc(K->Events[*F.Wait].Loc),
           "wait_group.read %0 would complete the copy's group",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(F.Commits - 1);
  }

  for (const ord::Finding &F : ord::initVisible(K->Seq, K->G, K->Block, Why)) {
    // A role's use: a thread of it that runs no init.
    const ord::Event &Init = K->Seq[F.First], &Use = K->Seq[F.Second];
    std::optional<unsigned> Thread;
    if (Use.Guarded && Use.Threads && Init.Threads)
      Thread = ::tma::rules::threads::firstOutside(*Use.Threads, *Init.Threads,
                                                   K->Block);
    std::string Who = Thread ? "by thread " + std::to_string(*Thread) +
                                   ", which runs no init of it,"
                             : "by all threads";
    std::string Msg = Name(F.Second) + " is used " + Who +
                      " here after its mbarrier.init "
                      "at line " +
                      Line(K->Events[F.First].Loc) +
                      " with no __syncthreads() in between: other threads "
                      "may use it before it is initialised (MBAR-INIT-VISIBLE)";
    // Where a cluster wait stands alone, the missing arrive is the fix,
    // not a __syncthreads().
    if (!Warn(K->Events[F.Second].Loc, Msg,
              F.Wait ? std::nullopt : syncFix(*K, F, Body, SM)))
      continue;
    NoteOp(F.First, "initialised here, by the threads of this branch only");
    if (F.Wait)
      NoteOp(*F.Wait, "this barrier.cluster.wait has no "
                      "barrier.cluster.arrive before it: it synchronises "
                      "nothing");
  }

  for (const ord::Finding &F : ord::reinitInLoop(K->Seq, K->G)) {
    std::string Msg = "mbarrier.init of " + Name(F.First) +
                      " inside a loop that uses it: the next pass "
                      "re-initialises a live barrier without mbarrier.inval "
                      "(MBAR-REINIT-INVAL)";
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, "used here in the same loop");
  }

  for (const ord::Finding &F : ord::waitParity(K->Seq, K->G, Why)) {
    const ord::Event &W = K->Seq[F.First];
    std::string Msg = "wait on " + Name(F.First);
    std::string Note;
    if (W.Parity == ord::ParityForm::Constant ||
        W.Parity == ord::ParityForm::StageBit) {
      Msg += W.Parity == ord::ParityForm::StageBit
                 ? " names the stage's own bit as its parity, the same "
                   "parity each time the ring comes back to the stage"
                 : " names parity " + std::to_string(W.ParityBit) +
                       " on every pass of its loop";
      Msg += W.FixedObject
                 ? ", but the barrier completes a phase each pass: from the "
                   "second pass on the wait names a phase that has already "
                   "completed and returns at once; flip the parity after "
                   "each wait (MBAR-WAIT-PARITY)"
                 : ", but the barrier completes a phase each lap: from the "
                   "second lap on the wait names a phase that has already "
                   "completed and returns at once; flip the parity each time "
                   "the stage wraps (MBAR-WAIT-PARITY)";
      Note = "the barrier completes here, in a loop";
    } else if (K->Seq[F.Second].Role != ord::UseRole::Arrive) {
      Msg += " names parity 1 on the ring's first lap, but no phase of the "
             "barrier has completed then: parity 1 names the phase before "
             "its first, so the wait returns at once, before its copy "
             "lands; start the phase bit at 0 (MBAR-WAIT-PARITY)";
      Note = "the copy or expect-tx that completes the first phase";
    } else {
      Msg += " names parity 1 on the ring's first lap, but the arrivals at "
             "line " +
             Line(K->Events[F.Second].Loc) +
             " complete phase 0 of every stage before the ring starts: from "
             "the second lap on the wait names a phase that completed a lap "
             "earlier and returns before the stage is released; start the "
             "phase bit at 0 (MBAR-WAIT-PARITY)";
      Note = "these arrivals complete phase 0 before any wait";
    }
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, Note);
  }

  auto LoadWhat = [&](std::size_t I) -> std::string {
    return K->Seq[I].Tensor ? "TMA load" : "bulk copy";
  };
  auto BarrierName = [&](std::size_t I) -> std::string {
    int B = K->Seq[I].Barrier;
    return B < 0 ? "its mbarrier" : "'" + K->Names[B] + "'";
  };
  auto ReadWhat = [&](std::size_t I) -> std::string {
    return K->Seq[I].Mma ? "the MMA (shared-memory descriptor) reads "
                         : "generic load reads ";
  };
  for (const ord::Finding &F : ord::loadWaitBeforeRead(K->Seq, K->G, Why)) {
    std::string Msg = ReadWhat(F.Second) + Name(F.Second) + " while the " +
                      LoadWhat(F.First) + " at line " +
                      Line(K->Events[F.First].Loc) + " may still write it: ";
    if (F.Wait)
      Msg += "cp.async.bulk.wait_group at line " +
             Line(K->Events[*F.Wait].Loc) +
             " does not wait for copies that complete on an mbarrier";
    else
      Msg += "no wait on " + BarrierName(F.First) + " in between";
    Msg += std::string(" (") + F.Rule + ")";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                        " completes on " + BarrierName(F.First));
    if (F.Other)
      NoteOp(*F.Other, "this wait is on another barrier: it does not "
                       "order the read");
  }

  for (const ord::Finding &F : ord::loadWaitAcrossRoles(K->Seq, K->G)) {
    std::string Msg = ReadWhat(F.Second) + Name(F.Second) +
                      " that the " + LoadWhat(F.First) + " at line " +
                      Line(K->Events[F.First].Loc) +
                      " (in other threads' code) writes, with no wait on " +
                      BarrierName(F.First) + " before it on this path "
                      "(TMA-LOAD-WAIT-BEFORE-READ)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                        " completes on " + BarrierName(F.First) +
                        "; wait on it before reading");
  }

  for (const ord::Finding &F : ord::asyncWarFence(K->Seq, K->G, Why)) {
    std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                      " that generic loads read at line " +
                      Line(K->Events[F.First].Loc) +
                      " with no fence.proxy.async, thread barrier or mbarrier "
                      "hand-off in between (ASYNC-WAR-FENCE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "generic load of " + Name(F.First) + " here");
  }

  for (const ord::Finding &F : ord::asyncWarHandOff(K->Seq, K->G)) {
    std::size_t Arrive = *F.Wait;
    std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                      " that generic loads read at line " +
                      Line(K->Events[F.First].Loc) +
                      " and hand back through the arrive on " + Name(Arrive) +
                      " at line " + Line(K->Events[Arrive].Loc) +
                      " with no fence.proxy.async before it: the copy may "
                      "overtake the reads (ASYNC-WAR-FENCE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "generic load of " + Name(F.First) + " here");
    NoteOp(Arrive, "each reading thread must execute "
                   "fence.proxy.async.shared::cta after its reads, before "
                   "this arrive");
  }

  for (const ord::Finding &F : ord::reuseBeforeRelease(K->Seq, K->G, Why)) {
    std::size_t Arrive = *F.Wait;
    std::string Msg =
        LoadWhat(F.Second) + " refills " + Name(F.Second) + " that " +
        (K->Seq[F.First].Mma ? "the MMA (shared-memory descriptor) reads"
                             : "generic loads read") +
        " at line " + Line(K->Events[F.First].Loc) +
        " in other threads' code and hands back through the arrive on " +
        Name(Arrive) + " at line " + Line(K->Events[Arrive].Loc) +
        ", but these threads never wait on " + Name(Arrive) +
        ": the copy may overwrite the stage before its reads are done "
        "(ASYNC-REUSE-BEFORE-RELEASE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, std::string(K->Seq[F.First].Mma ? "the MMA reads "
                                                     : "generic load of ") +
                        Name(F.First) + " here, after waiting on " +
                        Name(*F.Other));
    NoteOp(Arrive, "the readers release the stage here; wait on this "
                   "barrier's phase before the refill");
  }

  for (const ord::Finding &F : ord::expectAfterArrive(K->Seq, K->G)) {
    std::string Msg = "expect-tx on " + Name(F.Second) +
                      " after an arrive on it at line " +
                      Line(K->Events[F.First].Loc) +
                      ": the arrive may complete the phase before these bytes "
                      "are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "arrives here; expect the bytes before it, or use "
                    "mbarrier.arrive.expect_tx");
  }

  for (const ord::Finding &F : ord::waitByOtherThreads(K->Seq, K->G, K->Block)) {
    // A stage of a ring is overwritten Laps passes after its copy.
    std::string Target =
        F.Laps == 0
            ? Name(F.First) + " while the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " may still read it"
            : "the stage of " + Name(F.First) + " that the " + What(F.First) +
                  " at line " + Line(K->Events[F.First].Loc) + " read " +
                  std::to_string(F.Laps) +
                  (F.Laps == 1 ? " pass" : " passes") +
                  " earlier (a ring of " + std::to_string(F.Laps) +
                  (F.Laps == 1 ? " stage" : " stages") + ") and may still read";
    std::string Msg =
        "generic store overwrites " + Target +
        ": the wait at line " + Line(K->Events[*F.Wait].Loc) +
        " waits only in the thread that issued the copy, and no thread "
        "barrier after it makes the others wait (BULK-WAITGROUP-SCOPE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + What(F.First) + " reads " + Name(F.First) +
                        " here, issued by the threads of this branch only");
  }

  for (const ord::Finding &F : ord::acquireAfterCopy(K->Seq, K->G)) {
    int M = K->Seq[F.First].Map;
    std::string Msg = std::string(K->Seq[F.First].Kind == ord::EventKind::Load
                                      ? LoadWhat(F.First)
                                      : What(F.First)) +
                      " reads the tensor map '" + K->Names[M] +
                      "' before its acquire fence at line " +
                      Line(K->Events[F.Second].Loc) +
                      ": the fence must precede the copy "
                      "(TMAP-PLACE-GLOBAL-FENCE)";
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, "fence.proxy.tensormap::generic.acquire here");
  }

  for (const ord::Finding &F : ord::mapRewriteInFlight(K->Seq, K->G, Why)) {
    const ord::Event &Cp = K->Seq[F.First];
    bool Load = Cp.Kind == ord::EventKind::Load;
    std::string Copy = Load ? LoadWhat(F.First) : What(F.First);
    std::string Why;
    if (Load)
      Why = "no mbarrier wait in between completes it";
    else if (!F.Wait)
      Why = "no cp.async.bulk.wait_group.read in between completes its group";
    else if (F.Commits == 0)
      Why = "its group is not committed before the wait at line " +
            Line(K->Events[*F.Wait].Loc);
    else
      Why = "wait_group.read " + std::to_string(*K->Seq[*F.Wait].Depth) +
            " at line " + Line(K->Events[*F.Wait].Loc) +
            " lets its group stay pending";
    std::string Msg = "tensor map '" + K->Names[Cp.Map] +
                      "' is rewritten while the " + Copy + " at line " +
                      Line(K->Events[F.First].Loc) +
                      " may still read it: " + Why +
                      " (TMAP-INFLIGHT-IMMUTABLE)";
    std::optional<FixItHint> Fix;
    if (F.Wait && F.Commits > 0 && K->Events[*F.Wait].InBody)
      Fix = waitDepthFix(Body, K->Events[*F.Wait].Loc, *K->Seq[*F.Wait].Depth,
                         F.Commits - 1, *Result.Context);
    if (!Warn(K->Events[F.Second].Loc, Msg, Fix))
      continue;
    NoteOp(F.First, "the " + Copy + " reads the tensor map here");
    if (F.Wait && F.Commits > 0)
      diag(SM.getFileLoc(K->Events[*F.Wait].Loc),
           "wait_group.read %0 would complete the copy's group",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(F.Commits - 1);
  }

  checkUninit(*Fn, *K, SM, Why);
  if (ExplainModel)
    explainModel(*Fn, K, SM, Silences);
}

} // namespace clang::tidy::tma
