//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-ordering's ExplainModel option (issue 28 item 1, first part): the
// kernel model that the ordering rules saw, printed per kernel -- its events
// in order, what each names and which threads run it -- or why a kernel has
// none. A silence is then readable: a site that is no event, a barrier the
// model cannot name, threads it cannot tell.
//
// Printed with diag directly, not through checks/SiteReporter: the printout
// is a debugging aid that names no rule and reports no violation, so
// neither DisabledRules nor once per (location, message) applies to it (each
// kernel, each instantiation, prints its own model in full).
//
//===----------------------------------------------------------------------===//

#include "checks/OrderingCheck.h"
#include "rules/OrderingRules.h"
#include "rules/ThreadSets.h"

#include <string>

namespace ord = tma::rules::ordering;
namespace thr = tma::rules::threads;

namespace clang::tidy::tma {

namespace {

const char *kindName(ord::EventKind K) {
  switch (K) {
  case ord::EventKind::GenericWrite:
    return "generic write";
  case ord::EventKind::GenericRead:
    return "generic read";
  case ord::EventKind::Load:
    return "copy into shared memory";
  case ord::EventKind::Store:
    return "copy out of shared memory";
  case ord::EventKind::ProxyFence:
    return "fence.proxy.async";
  case ord::EventKind::ThreadSync:
    return "thread barrier";
  case ord::EventKind::Commit:
    return "bulk-group commit";
  case ord::EventKind::WaitGroup:
    return "bulk-group wait";
  case ord::EventKind::BarrierInit:
    return "mbarrier init";
  case ord::EventKind::BarrierUse:
    return "mbarrier use";
  case ord::EventKind::BarrierWait:
    return "mbarrier wait";
  case ord::EventKind::BarrierInval:
    return "mbarrier inval";
  case ord::EventKind::MapAcquire:
    return "tensor-map acquire fence";
  case ord::EventKind::MapWrite:
    return "tensor-map write";
  case ord::EventKind::Opaque:
    return "opaque (the model cannot follow it: rules stay silent across it)";
  }
  return "?";
}

bool namesObject(ord::EventKind K) {
  switch (K) {
  case ord::EventKind::GenericWrite:
  case ord::EventKind::GenericRead:
  case ord::EventKind::Load:
  case ord::EventKind::Store:
  case ord::EventKind::BarrierInit:
  case ord::EventKind::BarrierUse:
  case ord::EventKind::BarrierWait:
  case ord::EventKind::BarrierInval:
    return true;
  default:
    return false;
  }
}

std::string threadsIn(const thr::ThreadSet &S, thr::BlockSize Block) {
  if (S.Guards.empty())
    return "all threads";
  if (std::optional<unsigned> N = thr::issuers(S, Block))
    return std::to_string(*N) + " thread(s)";
  return "guarded threads (count not known)";
}

std::string threadsOf(const ord::Event &E, thr::BlockSize Block) {
  if (E.Threads)
    return threadsIn(*E.Threads, Block);
  if (!E.ThreadsAtMost)
    return "threads unknown";
  // An unknown subset of known threads (a loop or branch whose condition
  // the model cannot read): the bound, by its span where it has one.
  const thr::ThreadSet &Most = *E.ThreadsAtMost;
  std::string Bound = threadsIn(Most, Block);
  if (!Most.Guards.empty())
    if (auto Span = thr::span(Most, Block.Max))
      Bound = "threads " + std::to_string(Span->first) + ".." +
              std::to_string(Span->second);
  return "threads unknown (a subset of " + Bound + ")";
}

} // namespace

void OrderingCheck::explainModel(const FunctionDecl &Kernel,
                                 const KernelSequence *K,
                                 const SourceManager &SM,
                                 const ord::Silences &Why) {
  SourceLocation KL = SM.getFileLoc(Kernel.getLocation());
  std::string Name = Kernel.getNameAsString();
  if (!K) {
    diag(KL, "model: kernel '%0' has no model: it issues no TMA or bulk "
             "copy in reach, or its body is one the model cannot follow (an "
             "indirect goto, asm goto, try, too many events): every ordering "
             "rule is silent on it")
        << Name;
    return;
  }
  // The model computes thread sets only where a rule reads them (a copy out
  // of shared memory): elsewhere every set is null, which is no "unknown".
  bool Tracked = false;
  for (const ord::Event &E : K->Seq)
    Tracked |= E.Threads != nullptr;
  diag(KL, "model: kernel '%0': %1 event(s), block size %2..%3%4")
      << Name << static_cast<unsigned>(K->Seq.size()) << K->Block.Min
      << K->Block.Max
      << (Tracked ? "" : "; threads not tracked (no copy out of shared "
                         "memory, no rule reads them)");
  for (std::size_t I = 0; I < K->Seq.size(); ++I) {
    const ord::Event &E = K->Seq[I];
    const KernelEvent &KE = K->Events[I];
    std::string Msg =
        "model: event " + std::to_string(I) + ": " +
        (E.Mma    ? "MMA read (shared-memory descriptor)"
         : E.Warp ? "warp barrier (one warp only)"
                  : kindName(E.Kind));
    if (namesObject(E.Kind))
      Msg += E.Object < 0 ? " on an object the model cannot name"
                          : " on '" + K->Names[E.Object] + "'";
    if (E.Kind == ord::EventKind::Load && E.Barrier >= 0)
      Msg += ", completing on '" + K->Names[E.Barrier] + "'";
    if (E.Kind == ord::EventKind::WaitGroup)
      Msg += E.Depth ? " " + std::to_string(*E.Depth) : " (depth unknown)";
    if (E.Kind == ord::EventKind::BarrierUse)
      Msg += E.Role == ord::UseRole::Arrive   ? " (arrive)"
             : E.Role == ord::UseRole::Expect ? " (expect-tx)"
                                              : " (copy or arrive.expect_tx)";
    if (E.Kind == ord::EventKind::BarrierWait) {
      // The parity as MBAR-WAIT-PARITY reads it (api/WaitParity).
      if (E.Parity == ord::ParityForm::Ring && E.ParityStages == 1)
        Msg += " (parity: one barrier's phase, flipped once a pass, " +
               std::to_string(E.ParityBit) + " on the first pass)";
      else if (E.Parity == ord::ParityForm::Ring)
        Msg += " (parity: the ring's phase, " + std::to_string(E.ParityBit) +
               " on the first lap)";
      else if (E.Parity == ord::ParityForm::Constant)
        Msg += " (parity: " + std::to_string(E.ParityBit) + " on every pass)";
      else if (E.Parity == ord::ParityForm::StageBit)
        Msg += " (parity: a function of the stage index alone)";
      else if (E.Parity == ord::ParityForm::Period)
        Msg +=
            " (parity: flips every " +
            (E.ParityPeriod == 1 ? std::string("step")
                                 : std::to_string(E.ParityPeriod) + " steps") +
            ", " + std::to_string(E.ParityBit) + " at the first; member: " +
            (E.ParityStages == 1
                 ? std::string("one barrier each pass")
                 : "every " + std::to_string(E.ParityStages) + " steps") +
            ")";
    }
    if (E.Guarded)
      Msg += ", under a condition";
    if (Tracked)
      Msg += "; " + threadsOf(E, K->Block);
    diag(SM.getFileLoc(KE.Loc), "%0", DiagnosticIDs::Note) << Msg;
    if (!KE.InBody && KE.OpLoc.isValid() &&
        !SM.isInSystemHeader(SM.getFileLoc(KE.OpLoc)))
      diag(SM.getFileLoc(KE.OpLoc), "model: event %0 issued here",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(I);
    // The helpers' calls on the way to it: a kernel reaches them too.
    for (SourceLocation L : KE.Through)
      if (L.isValid() && !SM.isInSystemHeader(SM.getFileLoc(L)))
        diag(SM.getFileLoc(L), "model: event %0 through here",
             DiagnosticIDs::Note)
            << static_cast<unsigned>(I);
  }
  // Why each rule stayed silent on the events it looked at, in the rules'
  // own words, at the event (and, for one in a helper, at its op).
  for (const ord::Silence &S : Why) {
    std::string Msg = "model: silent: " + std::string(S.Rule) + " on event " +
                      std::to_string(S.Site);
    int O = K->Seq[S.Site].Object;
    if (namesObject(K->Seq[S.Site].Kind) && O >= 0)
      Msg += " ('" + K->Names[O] + "')";
    Msg += ": " + S.Why;
    // What the unnamed buffer's address is rooted at.
    if (llvm::StringRef(S.Why).starts_with("buffer unknown") &&
        !K->Events[S.Site].Unnamed.empty())
      Msg += " (" + K->Events[S.Site].Unnamed + ")";
    if (S.At)
      Msg += " (event " + std::to_string(*S.At) + ", line " +
             std::to_string(
                 SM.getPresumedLineNumber(SM.getFileLoc(K->Events[*S.At].Loc))) +
             ")";
    const KernelEvent &KE = K->Events[S.Site];
    SourceLocation L = !KE.InBody && KE.OpLoc.isValid() &&
                               !SM.isInSystemHeader(SM.getFileLoc(KE.OpLoc))
                           ? KE.OpLoc
                           : KE.Loc;
    diag(SM.getFileLoc(L), "%0", DiagnosticIDs::Note) << Msg;
  }
}

} // namespace clang::tidy::tma
