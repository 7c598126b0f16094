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

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace tma::rules::ordering {

namespace {

/// Whether the first pass of the wait \p E names parity 0: it returns only
/// once phase 0 of its barrier has completed (not on a ring a stride may
/// step past its first lap before the wait's first pass).
bool firstPassZero(const Event &E) {
  return E.Kind == EventKind::BarrierWait && E.Family >= 0 &&
         !E.ParityUnknown && E.ParityBit == 0 && !E.ParityLaterLaps &&
         (E.Parity == ParityForm::Ring || E.Parity == ParityForm::Constant);
}

/// The families no phase 0 of which can ever complete (waitParity's
/// comment, the set Z): the greatest set of candidate families (those
/// with a wait whose first pass names parity 0) such that every use of a
/// member of the set comes, on every path from the entry, after such a
/// wait on a family of the set. Each round of the fixed point is one pass
/// over the dominator tree and the events; a round that removes nothing
/// ends it, so there are at most MaxFamilies + 1.
struct Stuck {
  static constexpr std::size_t MaxFamilies = 16;
  /// Per family: in the set.
  std::vector<char> In;
  /// Per family left out: the event that left it out (a use no such wait
  /// precedes, an init in a loop, a use that may be on the same barrier).
  std::vector<std::optional<std::size_t>> Left;
  /// A use on a barrier the model cannot name: nothing is in the set.
  std::optional<std::size_t> Unnamed;
  /// The waits of the set (first pass parity 0 on a family in it).
  std::vector<std::size_t> Waits;

  /// \p Families: the number of families of \p Seq (one more than its
  /// highest Family).
  Stuck(const std::vector<Event> &Seq, const Flow &G, int Families) {
    In.assign(Families, 0);
    Left.assign(Families, std::nullopt);
    std::vector<std::optional<std::size_t>> Rep(Families);
    std::size_t Candidates = 0;
    for (std::size_t J = 0; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Kind == EventKind::BarrierUse && E.Family < 0 && !Unnamed)
        Unnamed = J;
      if (E.Family < 0)
        continue;
      if (!Rep[E.Family])
        Rep[E.Family] = J;
      if (firstPassZero(E) && !In[E.Family] && Candidates < MaxFamilies) {
        In[E.Family] = 1;
        ++Candidates;
      }
    }
    if (Unnamed) {
      std::fill(In.begin(), In.end(), 0);
      return;
    }
    auto Drop = [&](int F, std::size_t J) {
      if (In[F]) {
        In[F] = 0;
        Left[F] = J;
      }
    };
    // Initialised or invalidated in a loop that also waits on or uses the
    // family (an init loop over the members is fine); a use of another
    // family that may be the same barrier (its arrivals are not this
    // family's). Loops are keyed by their node sets, per family.
    std::set<std::pair<const Flow::Set *, int>> InitLoops;
    std::vector<std::optional<std::size_t>> InitAt(Families);
    for (std::size_t J = 0; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Family >= 0 && (E.Kind == EventKind::BarrierInit ||
                            E.Kind == EventKind::BarrierInval))
        for (const Flow::Set *L : G.loopsAround(J)) {
          InitLoops.insert({L, E.Family});
          InitAt[E.Family] = J;
        }
    }
    std::vector<int> Members;
    for (int F = 0; F < Families; ++F)
      if (In[F])
        Members.push_back(F);
    for (std::size_t J = 0; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Family < 0)
        continue;
      if (!InitLoops.empty() && (E.Kind == EventKind::BarrierUse ||
                                 E.Kind == EventKind::BarrierWait))
        for (const Flow::Set *L : G.loopsAround(J))
          if (InitLoops.count({L, E.Family}))
            Drop(E.Family, *InitAt[E.Family]);
      if (E.Kind == EventKind::BarrierUse)
        for (int F : Members)
          if (F != E.Family && mayBeSameBarrier(E, Seq[*Rep[F]]))
            Drop(F, J);
    }
    for (bool Changed = true; Changed;) {
      Changed = false;
      Waits.clear();
      for (std::size_t J = 0; J < Seq.size(); ++J)
        if (firstPassZero(Seq[J]) && In[Seq[J].Family])
          Waits.push_back(J);
      Flow::Set After = G.dominatedBy(Waits);
      for (std::size_t J = 0; J < Seq.size(); ++J) {
        const Event &E = Seq[J];
        if (E.Kind == EventKind::BarrierUse && In[E.Family] && !After[J]) {
          Drop(E.Family, J);
          Changed = true;
        }
      }
    }
    Waits.erase(std::remove_if(Waits.begin(), Waits.end(),
                               [&](std::size_t J) {
                                 return !In[Seq[J].Family];
                               }),
                Waits.end());
  }
};

/// What a family's uses are.
struct Uses {
  std::optional<std::size_t> First, Tx;
};

} // namespace

std::optional<unsigned> repeatedParityMember(unsigned Stages,
                                             unsigned Period) {
  if (!Stages || !Period)
    return std::nullopt;
  // The visits of member m are k = m + n * Stages; the parity flips from
  // one to the next iff floor((k + Stages) / Period) - floor(k / Period) is
  // odd. That difference is Stages / Period for every k when Period
  // divides Stages, else it takes both floor(Stages / Period) and one more
  // (at k = 0 and at k = Period - Stages % Period, below Stages when
  // Stages > Period): the first lap's members show it.
  for (unsigned M = 0; M < Stages; ++M)
    if (((M + Stages) / Period - M / Period) % 2 == 0)
      return M;
  return std::nullopt;
}

std::vector<Finding> waitParity(const std::vector<Event> &Seq, const Flow &G,
                                Silences *Why, bool UnseenArrives) {
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

  // Parity 0 on a ring's first lap: a hang where the barrier's first
  // phase waits for this side (see the header). Judged only on families
  // that plain arrives alone complete (empty barriers): on a full barrier
  // the copy that completes phase 0 is what the wait is for.
  std::optional<Stuck> Z;
  std::vector<Uses> FamilyUses;
  std::vector<std::optional<std::size_t>> Before; // per family: Other
  int Families = 0;
  for (const Event &E : Seq)
    Families = std::max(Families, E.Family + 1);
  auto firstLapZero = [&](std::size_t I) {
    int F = Seq[I].Family;
    if (FamilyUses.empty()) {
      FamilyUses.assign(Families, {});
      Before.assign(Families, std::nullopt);
      for (std::size_t J = 0; J < Seq.size(); ++J) {
        const Event &E = Seq[J];
        if (E.Kind != EventKind::BarrierUse || E.Family < 0)
          continue;
        Uses &U = FamilyUses[E.Family];
        if (!U.First)
          U.First = J;
        if (E.Role != UseRole::Arrive && !U.Tx)
          U.Tx = J;
      }
    }
    const Uses &U = FamilyUses[F];
    if (U.Tx) {
      Silent(I, "parity 0 on the ring's first lap waits for the barrier's "
                "first phase, which a copy or expect-tx on it completes: "
                "whether that copy waits for this side is judged only on "
                "barriers that plain arrives alone complete",
             U.Tx);
      return;
    }
    if (!U.First) {
      Silent(I, "no arrive on the barrier is seen: what completes its first "
                "phase is not judged");
      return;
    }
    if (UnseenArrives) {
      Silent(I, "something the model has no event for (tcgen05.commit, "
                "cp.async.mbarrier.arrive, an unknown call) may arrive on the "
                "barrier: whether its first phase completes before this wait "
                "is not judged");
      return;
    }
    if (!Z)
      Z.emplace(Seq, G, Families);
    if (Z->Unnamed) {
      Silent(I, "an arrive or copy on a barrier the model cannot name may "
                "complete the barrier's first phase",
             Z->Unnamed);
      return;
    }
    if (!Z->In[F]) {
      Silent(I, "parity 0 on the ring's first lap waits for the barrier's "
                "first phase, and the barriers it depends on may complete "
                "theirs first: the marked event is a use that no wait with "
                "parity 0 on their first lap precedes on every path (a "
                "release before the ring), an init in a loop, or a use that "
                "may be on the same barrier",
             Z->Left[F]);
      return;
    }
    if (!Before[F]) {
      // A wait of the set before the arrive: on another family if one is.
      for (std::size_t J : Z->Waits)
        if (G.dominates(J, *U.First) &&
            (!Before[F] || Seq[*Before[F]].Family == F))
          Before[F] = J;
    }
    Finding Hang{Rule, I, *U.First, std::nullopt, 0};
    Hang.Other = Before[F];
    Out.push_back(Hang);
  };

  for (std::size_t I : Waits) {
    const Event &W = Seq[I];
    if (W.ParityRingStages) {
      Silent(I, "its barrier's index is a ring of " +
                    std::to_string(W.ParityRingStages) +
                    (W.ParityRingStages == 1 ? " stage" : " stages") +
                    ", but the barrier array has " +
                    std::to_string(W.ParityMembers) +
                    " members: the wait follows another ring than the one "
                    "that fills the array, and whether the two counts step "
                    "together, one step for one, is not proven");
      continue;
    }
    if (W.ParityUnknown) {
      Silent(I, "its parity is no constant, no counter's lap `(k / S) & 1` "
                "with the member `k % S` and no phase bit flipped exactly "
                "where its stage wraps (inline, in a helper taking both by "
                "reference, in a lambda capturing both by reference, or by a "
                "stride whose lap divides by the wrap): the model cannot tell "
                "which phase it names");
      continue;
    }
    if (W.Parity == ParityForm::Unknown || W.Family < 0)
      continue;
    int F = W.Family;
    auto InFamily = [&](const Event &E) { return E.Family == F; };

    if (W.Parity == ParityForm::Period &&
        !repeatedParityMember(W.ParityStages, W.ParityPeriod)) {
      Silent(I, "its parity flips at every lap of the ring (the member comes "
                "back every " + std::to_string(W.ParityStages) +
                " steps, an odd multiple of the parity's " +
                std::to_string(W.ParityPeriod) +
                "), but the members start at different parities: which "
                "phase each member's first lap must name is not judged");
      continue;
    }
    if (W.Parity == ParityForm::Constant || W.Parity == ParityForm::StageBit ||
        W.Parity == ParityForm::Period) {
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
            (E.Parity != W.Parity || E.ParityBit != W.ParityBit ||
             E.ParityStages != W.ParityStages ||
             E.ParityPeriod != W.ParityPeriod))
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

    if (W.Parity != ParityForm::Ring)
      continue;
    if (W.ParityBit == 0) {
      if (W.ParityLaterLaps)
        Silent(I, "a stride steps the ring, maybe past its first lap before "
                  "this wait's first pass: whether that pass waits for the "
                  "barrier's first phase is not judged");
      else
        firstLapZero(I);
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
    if (PreAll && W.ParityStages == 1)
      // One barrier waited once a pass: case 3 needs each pass to complete
      // exactly one phase of it, and the arrives that do (another role's,
      // once a pass of its own loop) are not counted against this loop.
      Silent(I,
             "one barrier waited once a pass with a bit flipped once a "
             "pass, released before the loop: whether each pass completes "
             "exactly one phase of it (the arrives of a pass, their count, "
             "the barrier's expected count, and the passes of the loops "
             "they lie in) is not proven",
             PreAll);
    else if (PreAll)
      Out.push_back({Rule, I, *PreAll, std::nullopt, 0});
    else if (Pre)
      Silent(I, "the arrives before any wait do not provably reach every "
                "member of the barrier array",
             Pre);
  }
  return Out;
}

} // namespace tma::rules::ordering
