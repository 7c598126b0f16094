//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/OrderingCheck.h"
#include "api/UninitFacts.h"
#include "checks/DiscardedBranches.h"
#include "checks/SharedMatchers.h"
#include "checks/OrderingFixes.h"
#include "rules/OrderingRules.h"
#include "rules/OrderingSite.h"
#include "rules/UninitSite.h"

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
static constexpr llvm::StringLiteral TuId = "discarded-tu";

void OrderingCheck::registerMatchers(MatchFinder *F) {
  Rules.diagnoseUnknown(*this, getID());
  Shared =
      SharedMatchers::functions(F, this, SharedMatchers::Functions::Kernels);
  // ExplainModel: the `if constexpr` branches the TU compiles nowhere.
  if (ExplainModel)
    F->addMatcher(translationUnitDecl().bind(TuId), this);
}

void OrderingCheck::explainDiscarded(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto At = [&](SourceLocation L) {
    return std::to_string(SM.getSpellingLineNumber(L)) + ":" +
           std::to_string(SM.getSpellingColumnNumber(L));
  };
  for (const DiscardedBranch &B : discardedBranches(Ctx))
    diag(B.Begin, "model: discarded: the `if constexpr` branch at %0-%1 is "
                  "dropped in each of the %2 resolution(s) of its statement "
                  "in this TU: none of its code is compiled here%3")
        << At(B.Begin) << At(B.End) << B.Instances
        << (B.Statement.isValid()
                ? "; the statement from " + At(B.Statement) +
                      " has no other branch: it compiles to nothing"
                : std::string());
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
  Report.clear();
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

/// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: the fence before the event the
/// rules chose (V.FixAt), where the statement there comes after the write
/// and the copy's API spells the fence.
std::optional<FixItHint> fenceFix(const KernelSequence &K,
                                  const ord::OrderingViolation &V,
                                  const Stmt *Body, const SourceManager &SM,
                                  const LangOptions &LO) {
  if (V.Fix != ord::OrderingFix::Fence)
    return std::nullopt;
  const KernelEvent &Write = K.Events[V.First], &Store = K.Events[V.Second];
  SourceLocation Loc = K.Events[*V.FixAt].Loc;
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
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>(TuId)) {
    explainDiscarded(*Result.Context);
    return;
  }
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
    return Report.warnFixOnce(SM.getFileLoc(L), Msg, SM, Fix);
  };
  const Stmt *Body = Fn->getBody();
  const LangOptions &LO = Result.Context->getLangOpts();
  auto NoteOp = [&](std::size_t I, const std::string &Msg) {
    Report.noteEvent(K->Events[I], Msg, SM);
  };

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
  // Why a bulk group may still be pending at the rewrite.
  auto Shortfall = [&](const ord::OrderingViolation &F) -> std::string {
    switch (F.Shortfall) {
    case ord::WaitShortfall::NoBarrierWait:
      return "no mbarrier wait in between completes it";
    case ord::WaitShortfall::NoWait:
      return F.Form == ord::OrderingForm::MapRewriteInFlight
                 ? "no cp.async.bulk.wait_group.read in between completes "
                   "its group"
                 : "no cp.async.bulk.wait_group.read in between covers its "
                   "group";
    case ord::WaitShortfall::NotCommitted:
      return "its group is not committed before the wait at line " +
             Line(K->Events[*F.Wait].Loc);
    case ord::WaitShortfall::TooShallow: {
      std::string Why = "wait_group.read " +
                        std::to_string(*K->Seq[*F.Wait].Depth) + " at line " +
                        Line(K->Events[*F.Wait].Loc) +
                        " lets its group stay pending";
      if (F.Form == ord::OrderingForm::WaitBeforeReuse)
        Why += " (" + std::to_string(F.Commits) +
               (F.Commits == 1 ? " group" : " groups") +
               " committed since the copy)";
      return Why;
    }
    case ord::WaitShortfall::None:
      break;
    }
    return "";
  };
  auto DepthFix = [&](const ord::OrderingViolation &F) {
    std::optional<FixItHint> Fix;
    if (F.Fix == ord::OrderingFix::WaitDepth && K->Events[*F.Wait].InBody)
      Fix = waitDepthFix(Body, K->Events[*F.Wait].Loc, *K->Seq[*F.Wait].Depth,
                         F.FixDepth, *Result.Context);
    return Fix;
  };
  auto NoteDepth = [&](const ord::OrderingViolation &F) {
    if (F.CompletingDepth)
      Report.note(SM.getFileLoc(K->Events[*F.Wait].Loc),
                  "wait_group.read " + std::to_string(*F.CompletingDepth) +
                      " would complete the copy's group");
  };

  ord::KernelFacts Facts{K->Seq,           K->G, K->Block, WaitBeforeExit,
                         K->UnseenArrives, &K->PoolSlots};
  for (const ord::OrderingViolation &F :
       ord::checkKernelOrdering(Facts, Why)) {
    switch (F.Form) {
    case ord::OrderingForm::FenceBeforeStore: {
      const KernelEvent &S = K->Events[F.Second];
      std::string Msg =
          What(F.Second) + " reads " + Name(F.Second) +
          " written by generic stores at line " +
          Line(K->Events[F.First].Loc) +
          (F.LateFence
               ? " with no fence.proxy.async before the thread "
                 "barrier that hands it over (the fence at line " +
                     Line(K->Events[*F.LateFence].Loc) + " comes after it)"
               : " with no fence.proxy.async in between") +
          " (" + F.Rule + ")";
      if (!Warn(S.Loc, Msg, fenceFix(*K, F, Body, SM, LO)))
        break;
      NoteOp(F.First, "generic store to " + Name(F.First) + " here");
      NoteOp(F.Second, std::string("each writing thread must execute ") +
                           fenceSpelling(*S.Op) +
                           " after its stores, before the thread barrier "
                           "that hands the buffer to the issuing thread");
      break;
    }

    case ord::OrderingForm::WaitBeforeExit: {
      // The last wait is too shallow: it leaves the copy's group pending.
      std::string Shallow;
      if (F.Wait) {
        std::uint64_t D = *K->Seq[*F.Wait].Depth;
        Shallow = " deep enough to complete its group (wait_group " +
                  std::to_string(D) + " at line " +
                  Line(K->Events[*F.Wait].Loc) + " leaves " +
                  std::to_string(D) + (D == 1 ? " group" : " groups") +
                  " pending, and " + std::to_string(F.Commits) +
                  (F.Commits == 1 ? " was" : " were") +
                  " committed since the copy)";
      }
      if (Warn(K->Events[F.First].Loc,
               What(F.First) + " reads " + Name(F.First) +
                   " but the kernel can exit after it with no "
                   "cp.async.bulk.wait_group.read" +
                   Shallow +
                   ": the copy may still be reading shared memory (" +
                   F.Rule + ")"))
        NoteDepth(F);
      break;
    }

    case ord::OrderingForm::WaitBeforeReuse: {
      std::string Why = Shortfall(F);
      std::string Writer = K->Seq[F.Second].Kind != ord::EventKind::Load
                               ? "generic store"
                           : K->Seq[F.Second].Tensor ? "TMA load"
                                                     : "bulk load";
      // A stage of a ring: the same stage, in the same pass or Laps later.
      std::string Msg =
          K->Seq[F.First].Slice < 0
              ? Writer + " overwrites " + Name(F.First) + " while the " +
                    What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) +
                    " may still read it: " + Why + " (" + F.Rule + ")"
          : F.Laps == 0
              ? Writer + " overwrites the stage of " + Name(F.First) +
                    " that the " + What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) + " may still read: " + Why +
                    " (" + F.Rule + ")"
          // The same stage every pass (`buf[warp]`, a stage fixed for the
          // thread): the next pass writes it again.
          : F.Laps == 1
              ? Writer + " overwrites the stage of " + Name(F.First) +
                    " that the " + What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) +
                    " read in the previous pass of its loop and may still "
                    "read: " +
                    Why + " (" + F.Rule + ")"
              : Writer + " overwrites the stage of " + Name(F.First) +
                    " that the " + What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) + " read " +
                    std::to_string(F.Laps) +
                    (F.Laps == 1 ? " pass" : " passes") +
                    " earlier (a ring of " + std::to_string(F.Laps) +
                    (F.Laps == 1 ? " stage" : " stages") +
                    ") and may still read: " + Why + " (" + F.Rule + ")";
      if (!Warn(K->Events[F.Second].Loc, Msg, DepthFix(F)))
        break;
      NoteOp(F.First,
             "the " + What(F.First) + " reads " + Name(F.First) + " here");
      NoteDepth(F);
      break;
    }

    case ord::OrderingForm::InitVisible: {
      std::string Who =
          F.ThreadLast
              ? "by some of threads " + std::to_string(*F.Thread) + ".." +
                    std::to_string(*F.ThreadLast) +
                    " (a condition the model cannot read picks which), none "
                    "of which runs an init of it,"
          : F.Thread ? "by thread " + std::to_string(*F.Thread) +
                           ", which runs no init of it,"
                     : "by all threads";
      std::string Msg =
          Name(F.Second) + " is used " + Who +
          " here after its mbarrier.init "
          "at line " +
          Line(K->Events[F.First].Loc) +
          " with no __syncthreads() in between: other threads "
          "may use it before it is initialised (MBAR-INIT-VISIBLE)";
      if (!Warn(K->Events[F.Second].Loc, Msg,
                F.Fix == ord::OrderingFix::Sync ? syncFix(*K, F, Body, SM)
                                                : std::nullopt))
        break;
      NoteOp(F.First, "initialised here, by the threads of this branch only");
      if (F.Other)
        NoteOp(*F.Other, "this lies on some path from the init to the use, "
                         "not on every one: a path skips it (a loop that may "
                         "run no pass, another branch)");
      if (F.Wait)
        NoteOp(*F.Wait, "this barrier.cluster.wait has no "
                        "barrier.cluster.arrive before it: it synchronises "
                        "nothing");
      break;
    }

    case ord::OrderingForm::ReinitInLoop:
      if (Warn(K->Events[F.First].Loc,
               "mbarrier.init of " + Name(F.First) +
                   " inside a loop that uses it: the next pass "
                   "re-initialises a live barrier without mbarrier.inval "
                   "(MBAR-REINIT-INVAL)"))
        NoteOp(F.Second, "used here in the same loop");
      break;

    case ord::OrderingForm::WaitParity: {
      const ord::Event &W = K->Seq[F.First];
      std::string Msg = "wait on " + Name(F.First);
      std::string Note;
      // A ring of one barrier waited once a pass: its lap is a pass.
      const char *FirstLap =
          W.Parity == ord::ParityForm::Ring && W.ParityStages == 1
              ? "its first pass (one barrier, its phase "
                "bit flipped once a pass)"
              : "the ring's first lap";
      if (F.Parity == ord::ParityMistake::Repeated) {
        Msg += W.Parity == ord::ParityForm::StageBit
                   ? " names a parity computed from the stage index alone, "
                     "the same parity each time the ring comes back to the "
                     "stage"
                   : " names parity " + std::to_string(W.ParityBit) +
                         " on every pass of its loop";
        Msg += W.FixedObject
                   ? ", but the barrier completes a phase each pass: from "
                     "the second pass on the wait names a phase that has "
                     "already completed and returns at once; flip the "
                     "parity after each wait (MBAR-WAIT-PARITY)"
                   : ", but the barrier completes a phase each lap: from the "
                     "second lap on the wait names a phase that has already "
                     "completed and returns at once; flip the parity each "
                     "time the stage wraps (MBAR-WAIT-PARITY)";
        Note = "the barrier completes here, in a loop";
      } else if (F.Parity == ord::ParityMistake::Period) {
        // The rule found the member; its two visits name the same parity.
        unsigned S = W.ParityStages, T = W.ParityPeriod;
        unsigned M = ord::repeatedParityMember(S, T).value_or(0);
        unsigned Bit = ((M / T) & 1) ^ W.ParityBit;
        Msg += T == 1 ? std::string(" names a parity that flips every step "
                                    "of its count")
                      : " names a parity that flips once every " +
                            std::to_string(T) + " steps of its count";
        if (S == 1)
          Msg += ", at most one step a pass, but the barrier completes a "
                 "phase each pass: two passes in a row name the same "
                 "parity, so the second wait names the phase the first saw "
                 "complete and returns at once (or, once the next phase "
                 "completed too, waits a pass late); keep a phase bit for "
                 "this barrier and flip it after each wait "
                 "(MBAR-WAIT-PARITY)";
        else
          Msg += ", but the ring comes back to a member every " +
                 std::to_string(S) + " steps: member " + std::to_string(M) +
                 " is waited at steps " + std::to_string(M) + " and " +
                 std::to_string(M + S) +
                 ", a lap apart, with the same parity " + std::to_string(Bit) +
                 ", so the second wait names the phase the first saw "
                 "complete and returns at once (or, once the next phase "
                 "completed too, waits a lap late); flip the parity every " +
                 std::to_string(S) +
                 " steps, when the member wraps (MBAR-WAIT-PARITY)";
        Note = "the barrier completes here, in a loop";
        // A stage and a phase bit that count two different things: the
        // two writes that make them so.
        const KernelEvent &KE = K->Events[F.First];
        if (KE.ParityStep.isValid() && KE.ParityFlip.isValid()) {
          if (Warn(KE.Loc, Msg)) {
            NoteOp(F.Second, Note);
            Report.note(SM.getFileLoc(KE.ParityStep),
                        "the stage steps here, by one a pass, wrapping at " +
                            std::to_string(S));
            Report.note(SM.getFileLoc(KE.ParityFlip),
                        "the phase bit flips here, on every pass, not when "
                        "the stage wraps");
          }
          break;
        }
      } else if (F.Parity == ord::ParityMistake::BeforeFirstCopy) {
        Msg += std::string(" names parity 1 on ") + FirstLap +
               ", but no phase of the "
               "barrier has completed then: parity 1 names the phase before "
               "its first, so the wait returns at once, before its copy "
               "lands; start the phase bit at 0 (MBAR-WAIT-PARITY)";
        Note = "the copy or expect-tx that completes the first phase";
      } else if (F.Parity == ord::ParityMistake::FirstLapHang) {
        bool Self = !F.Other || K->Seq[*F.Other].Family == W.Family;
        Msg += std::string(" names parity 0 on ") + FirstLap +
               ", so it waits for the "
               "barrier's first phase, but every arrive on it comes after a "
               "wait for ";
        Msg += Self ? "its own first phase: it never completes"
                    : "the first phase of " + Name(*F.Other) +
                          ", and every copy, expect-tx or arrive on " +
                          Name(*F.Other) +
                          " after a wait for a first phase like this one: "
                          "neither first phase can complete";
        Msg += " and the kernel hangs; wait with parity 1 on the first lap "
               "(it names the phase before the first, which counts as "
               "complete) (MBAR-WAIT-PARITY)";
        if (Warn(K->Events[F.First].Loc, Msg)) {
          NoteOp(F.Second, "the arrive that would complete the first phase");
          if (F.Other)
            NoteOp(*F.Other, "the wait it comes after");
        }
        break;
      } else {
        Msg += " names parity 1 on the ring's first lap, but the arrivals at "
               "line " +
               Line(K->Events[F.Second].Loc) +
               " complete phase 0 of every stage before the ring starts: "
               "from the second lap on the wait names a phase that completed "
               "a lap earlier and returns before the stage is released; "
               "start the phase bit at 0 (MBAR-WAIT-PARITY)";
        Note = "these arrivals complete phase 0 before any wait";
      }
      if (Warn(K->Events[F.First].Loc, Msg))
        NoteOp(F.Second, Note);
      break;
    }

    case ord::OrderingForm::LoadWaitBeforeRead: {
      std::string Msg = ReadWhat(F.Second) + Name(F.Second) + " while the " +
                        LoadWhat(F.First) + " at line " +
                        Line(K->Events[F.First].Loc) +
                        " may still write it: ";
      if (F.Wait)
        Msg += "cp.async.bulk.wait_group at line " +
               Line(K->Events[*F.Wait].Loc) +
               " does not wait for copies that complete on an mbarrier";
      else
        Msg += "no wait on " + BarrierName(F.First) + " in between";
      Msg += std::string(" (") + F.Rule + ")";
      if (!Warn(K->Events[F.Second].Loc, Msg))
        break;
      NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                          " completes on " + BarrierName(F.First));
      if (F.Other)
        NoteOp(*F.Other, "this wait is on another barrier: it does not "
                         "order the read");
      break;
    }

    case ord::OrderingForm::LoadWaitAcrossRoles: {
      std::string Msg = ReadWhat(F.Second) + Name(F.Second) + " that the " +
                        LoadWhat(F.First) + " at line " +
                        Line(K->Events[F.First].Loc) +
                        " (in other threads' code) writes, with no wait on " +
                        BarrierName(F.First) +
                        " before it on this path "
                        "(TMA-LOAD-WAIT-BEFORE-READ)";
      if (!Warn(K->Events[F.Second].Loc, Msg))
        break;
      NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                          " completes on " + BarrierName(F.First) +
                          "; wait on it before reading");
      if (F.Other)
        NoteOp(*F.Other,
               "this wait on " + Name(*F.Other) +
                   " lies before the loop around the read, which moves the "
                   "read to another stage on every pass: it orders one "
                   "pass's read at most");
      break;
    }

    case ord::OrderingForm::AsyncWarFence: {
      std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                        " that generic loads read at line " +
                        Line(K->Events[F.First].Loc) +
                        " with no fence.proxy.async, thread barrier or "
                        "mbarrier hand-off in between (ASYNC-WAR-FENCE)";
      if (Warn(K->Events[F.Second].Loc, Msg))
        NoteOp(F.First, "generic load of " + Name(F.First) + " here");
      break;
    }

    case ord::OrderingForm::AsyncWarHandOff: {
      std::size_t Arrive = *F.Wait;
      std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                        " that generic loads read at line " +
                        Line(K->Events[F.First].Loc) +
                        " and hand back through the arrive on " +
                        Name(Arrive) + " at line " +
                        Line(K->Events[Arrive].Loc) +
                        " with no fence.proxy.async before it: the copy may "
                        "overtake the reads (ASYNC-WAR-FENCE)";
      if (!Warn(K->Events[F.Second].Loc, Msg))
        break;
      NoteOp(F.First, "generic load of " + Name(F.First) + " here");
      NoteOp(Arrive, "each reading thread must execute "
                     "fence.proxy.async.shared::cta after its reads, before "
                     "this arrive");
      break;
    }

    case ord::OrderingForm::ReuseBeforeRelease: {
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
        break;
      NoteOp(F.First, std::string(K->Seq[F.First].Mma ? "the MMA reads "
                                                       : "generic load of ") +
                          Name(F.First) + " here, after waiting on " +
                          Name(*F.Other));
      NoteOp(Arrive, "the readers release the stage here; wait on this "
                     "barrier's phase before the refill");
      break;
    }

    case ord::OrderingForm::ExpectAfterArrive: {
      std::string Msg = "expect-tx on " + Name(F.Second) +
                        " after an arrive on it at line " +
                        Line(K->Events[F.First].Loc) +
                        ": the arrive may complete the phase before these "
                        "bytes are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE)";
      if (Warn(K->Events[F.Second].Loc, Msg))
        NoteOp(F.First, "arrives here; expect the bytes before it, or use "
                        "mbarrier.arrive.expect_tx");
      break;
    }

    case ord::OrderingForm::WaitByOtherThreads: {
      // A stage of a ring is overwritten Laps passes after its copy.
      std::string Target =
          F.Laps == 0
              ? Name(F.First) + " while the " + What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) + " may still read it"
              : "the stage of " + Name(F.First) + " that the " +
                    What(F.First) + " at line " +
                    Line(K->Events[F.First].Loc) + " read " +
                    std::to_string(F.Laps) +
                    (F.Laps == 1 ? " pass" : " passes") +
                    " earlier (a ring of " + std::to_string(F.Laps) +
                    (F.Laps == 1 ? " stage" : " stages") +
                    ") and may still read";
      std::string Msg =
          "generic store overwrites " + Target + ": the wait at line " +
          Line(K->Events[*F.Wait].Loc) +
          " waits only in the thread that issued the copy, and no thread "
          "barrier after it makes the others wait (BULK-WAITGROUP-SCOPE)";
      if (Warn(K->Events[F.Second].Loc, Msg))
        NoteOp(F.First, "the " + What(F.First) + " reads " + Name(F.First) +
                            " here, issued by the threads of this branch "
                            "only");
      break;
    }

    case ord::OrderingForm::AcquireAfterCopy: {
      int M = K->Seq[F.First].Map;
      std::string Msg =
          std::string(K->Seq[F.First].Kind == ord::EventKind::Load
                          ? LoadWhat(F.First)
                          : What(F.First)) +
          " reads the tensor map '" + K->Names[M] +
          "' before its acquire fence at line " +
          Line(K->Events[F.Second].Loc) +
          ": the fence must precede the copy "
          "(TMAP-PLACE-GLOBAL-FENCE)";
      if (Warn(K->Events[F.First].Loc, Msg))
        NoteOp(F.Second, "fence.proxy.tensormap::generic.acquire here");
      break;
    }

    case ord::OrderingForm::MapRewriteInFlight: {
      const ord::Event &Cp = K->Seq[F.First];
      std::string Copy = Cp.Kind == ord::EventKind::Load ? LoadWhat(F.First)
                                                         : What(F.First);
      std::string Msg = "tensor map '" + K->Names[Cp.Map] +
                        "' is rewritten while the " + Copy + " at line " +
                        Line(K->Events[F.First].Loc) +
                        " may still read it: " + Shortfall(F) +
                        " (TMAP-INFLIGHT-IMMUTABLE)";
      if (!Warn(K->Events[F.Second].Loc, Msg, DepthFix(F)))
        break;
      NoteOp(F.First, "the " + Copy + " reads the tensor map here");
      NoteDepth(F);
      break;
    }
    }
  }

  checkUninit(*Fn, *K, SM, Why);
  if (ExplainModel)
    explainModel(*Fn, K, SM, Silences);
}

void OrderingCheck::checkUninit(const FunctionDecl &Kernel,
                                const KernelSequence &K,
                                const SourceManager &SM, ord::Silences *Why) {
  const LangOptions &LO = Kernel.getASTContext().getLangOpts();
  ord::UninitFacts Facts =
      uninitFacts(Kernel, K, *Model, *Finder, SM,
                  [&](const Stmt *Body) { return bodyRuns(Body, SM, LO); });
  for (const ord::UninitViolation &V : ord::checkUninit(Facts, Why)) {
    if (V.FirstRun) {
      reportUninitMember(V, Facts, K, SM);
      continue;
    }
    std::string Msg = "'" + V.Name +
                      "' is used here but no mbarrier.init in this kernel "
                      "initialises it (MBAR-UNINIT)";
    // An array's barrier that other inits of the array leave out: those.
    int Obj = K.Seq[V.Event].Object;
    if (Report.warnOnce(SM.getFileLoc(K.Events[V.Event].Loc), Msg, SM) &&
        Obj >= 0 && !K.Objects[Obj]->hasExternalStorage())
      uninitInits(V, Facts, K, SM);
  }
}

void OrderingCheck::reportUninitMember(const ord::UninitViolation &V,
                                       const ord::UninitFacts &Facts,
                                       const KernelSequence &K,
                                       const SourceManager &SM) {
  const KernelEvent &E = K.Events[V.Event];
  if (!E.IndexVar)
    return;
  std::string Var = E.IndexVar->getName().str();
  const ord::Event &U = K.Seq[V.Event];
  std::string What = U.Kind == ord::EventKind::BarrierWait ? "wait"
                     : U.Role == ord::UseRole::Arrive      ? "arrive"
                     : U.Role == ord::UseRole::Expect      ? "expect-tx"
                                                           : "use";
  std::string Msg = "'" + V.Name + "' is never initialised: the " + What +
                    " here reaches it the first time it runs, when '" + Var +
                    "' is " + std::to_string(E.IndexStart) + " (MBAR-UNINIT)";
  if (!Report.warnOnce(SM.getFileLoc(E.Loc), Msg, SM))
    return;
  Report.note(SM.getFileLoc(E.IndexVar->getLocation()),
              "'" + Var + "' starts at " + std::to_string(E.IndexStart) +
                  " here, and no write of it can run before the " + What +
                  " first does; it names '" + V.Name + "' of '" +
                  K.Names[K.Seq[V.Event].Object] + "'");
  uninitInits(V, Facts, K, SM);
}

void OrderingCheck::uninitInits(const ord::UninitViolation &V,
                                const ord::UninitFacts &Facts,
                                const KernelSequence &K,
                                const SourceManager &SM) {
  const ord::PoolBarrierFacts *Slots = nullptr;
  for (const ord::UninitGroupFacts &G : Facts.Groups)
    if (G.Slots) {
      for (const ord::PoolBarrierFacts::MemberUse &M : G.Slots->Slots.Members)
        if (M.Event == V.Event)
          Slots = &G.Slots->Slots;
      for (const ord::PoolBarrierFacts::Use &U : G.Slots->Slots.Uses)
        if (U.Event == V.Event)
          Slots = &G.Slots->Slots;
    }
  if (!Slots)
    return;
  constexpr std::size_t MaxInits = 4;
  for (std::size_t I = 0; I < Slots->InitEvents.size() && I < MaxInits; ++I) {
    std::size_t At = Slots->InitEvents[I];
    bool Pool = K.Objects[K.Seq[At].Object]->hasExternalStorage();
    Report.noteEvent(K.Events[At],
                     std::string(Pool ? "the pool's " : "the ") +
                         "mbarrier.init of '" + Slots->InitNames[I] +
                         "' does not cover '" + V.Name + "'",
                     SM);
  }
}

} // namespace clang::tidy::tma
