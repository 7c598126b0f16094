//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// MBAR-WAIT-PARITY over a kernel's events (rules/OrderingRules.h): a wait
// names the parity of the phase it waits for; the phase a ring's barrier
// is in flips every lap. api/WaitParity proves what a wait's parity is on
// each lap (Event::Parity); this decides which phase it must be.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingRules.h"

namespace tma::rules::ordering {

std::vector<Finding> waitParity(const std::vector<Event> &Seq, const Flow &G,
                                Silences *Why) {
  const char *Rule = "MBAR-WAIT-PARITY";
  std::vector<Finding> Out;
  auto Silent = [&](std::size_t Site, std::string Text,
                    std::optional<std::size_t> At = std::nullopt) {
    if (Why)
      Why->push_back({Rule, Site, std::move(Text), At});
  };
  auto IsWait = [&](std::size_t J) {
    return Seq[J].Kind == EventKind::BarrierWait;
  };
  std::vector<std::size_t> Waits;
  for (std::size_t J = 0; J < Seq.size(); ++J)
    if (IsWait(J))
      Waits.push_back(J);
  // An arrive that no wait (on any barrier) comes before: a round of
  // arrivals before the ring starts, not a hand-off after a stage's use.
  auto BeforeAnyWait = [&](std::size_t A) {
    for (std::size_t W : Waits)
      if (G.reaches(W, A, /*Back=*/true))
        return false;
    return true;
  };

  for (std::size_t I : Waits) {
    const Event &W = Seq[I];
    if (W.ParityUnknown) {
      Silent(I, "its parity is no constant, no counter's lap `(k / S) & 1` "
                "with the member `k % S` and no phase bit flipped exactly "
                "where its stage wraps: the model cannot tell which phase it "
                "names");
      continue;
    }
    if (W.Parity == ParityForm::Unknown || W.Family < 0)
      continue;
    int F = W.Family;
    auto InFamily = [&](const Event &E) { return E.Family == F; };

    if (W.Parity == ParityForm::Constant || W.Parity == ParityForm::StageBit) {
      std::vector<const Flow::Set *> Around = G.loopsAround(I);
      auto InAround = [&](std::size_t J) {
        for (const Flow::Set *L : Around)
          if ((*L)[G.nodeOf(J)])
            return true;
        return false;
      };
      std::optional<std::size_t> Completes, Reinit, Other;
      for (std::size_t J = 0; J < Seq.size(); ++J) {
        const Event &E = Seq[J];
        if (!InFamily(E))
          continue;
        if (E.Kind == EventKind::BarrierUse && G.loopOf(J) && !Completes)
          Completes = J;
        if ((E.Kind == EventKind::BarrierInit ||
             E.Kind == EventKind::BarrierInval) &&
            InAround(J))
          Reinit = J;
        if (J != I && E.Kind == EventKind::BarrierWait && InAround(J) &&
            (E.Parity != W.Parity || E.ParityBit != W.ParityBit))
          Other = J;
      }
      if (Reinit)
        Silent(I, "the barrier is initialised or invalidated again in a loop "
                  "around the wait",
               Reinit);
      else if (Other)
        Silent(I, "another wait on the barrier in its loop names another "
                  "parity",
               Other);
      else if (!Completes)
        Silent(I, "no copy, expect-tx or arrive on the barrier lies in a "
                  "loop: it may complete only once");
      else
        Out.push_back({Rule, I, *Completes, std::nullopt, 0});
      continue;
    }

    // Ring: only a first lap of parity 1 is judged.
    if (W.Parity != ParityForm::Ring)
      continue;
    if (W.ParityBit != 1) {
      Silent(I, "parity 0 on the ring's first lap waits for the barrier's "
                "first phase: whether its arrivals can come before this wait "
                "returns (a producer waiting on its consumers) is not judged");
      continue;
    }
    std::optional<std::size_t> Tx, PreAll, Pre, NotRing;
    for (std::size_t J = 0; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (!InFamily(E))
        continue;
      if (E.Kind == EventKind::BarrierUse && E.Role != UseRole::Arrive &&
          !Tx)
        Tx = J;
      if (E.Kind == EventKind::BarrierWait && E.Parity != ParityForm::Ring)
        NotRing = J;
      if (E.Kind == EventKind::BarrierUse && E.Role == UseRole::Arrive &&
          BeforeAnyWait(J)) {
        Pre = J;
        if (E.AllMembers || E.FixedObject)
          PreAll = J;
      }
    }
    if (NotRing) {
      Silent(I, "another wait on the barrier names a phase the model does "
                "not follow around the ring",
             NotRing);
      continue;
    }
    if (Tx) {
      if (Pre)
        Silent(I, "an arrive before any wait may complete the barrier's "
                  "first phase: parity 1 on the first lap may be right",
               Pre);
      else
        Out.push_back({Rule, I, *Tx, std::nullopt, 0});
      continue;
    }
    if (PreAll)
      Out.push_back({Rule, I, *PreAll, std::nullopt, 0});
    else if (Pre)
      Silent(I, "the arrives before any wait do not provably reach every "
                "member of the barrier array",
             Pre);
  }
  return Out;
}

} // namespace tma::rules::ordering
