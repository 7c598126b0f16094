//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingRules.h"

#include <algorithm>

namespace tma::rules::ordering {

bool onePath(const Event &A, const Event &B) {
  std::size_t N = std::min(A.Branches.size(), B.Branches.size());
  for (std::size_t I = 0; I < N; ++I) {
    if (A.Branches[I] == B.Branches[I])
      continue;
    // The first difference: the same if, other branch, excludes.
    return A.Branches[I].first != B.Branches[I].first;
  }
  return true;
}

static bool isStore(const Event &E) { return E.Kind == EventKind::Store; }

static bool divertsOrUnknown(const Event &E) {
  return E.Kind == EventKind::Opaque || E.Kind == EventKind::Jump;
}

std::vector<Finding> fenceBeforeStore(const std::vector<Event> &Seq,
                                      threads::BlockSize Block) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    if (!isStore(Seq[S]) || Seq[S].Object < 0)
      continue;
    // The latest write of the buffer on a path to the copy; an unknown or
    // a jump on the way makes it unproven, and so does a fence (in any
    // branch) unless its threads are known: it counts only if it runs in
    // the writing threads.
    std::vector<const threads::ThreadSet *> Fences;
    for (std::size_t J = S; J-- > 0;) {
      const Event &E = Seq[J];
      if (divertsOrUnknown(E))
        break;
      if (E.Kind == EventKind::ProxyFence) {
        if (!E.Threads)
          break;
        Fences.push_back(E.Threads.get());
        continue;
      }
      if (E.Kind == EventKind::GenericWrite && E.Object == Seq[S].Object &&
          onePath(E, Seq[S])) {
        // A writing thread that runs none of the fences on the way.
        if (!Fences.empty() &&
            !(E.Threads && threads::provenOutside(*E.Threads, Fences, Block)))
          break;
        Out.push_back({Seq[S].Tensor ? "TMA-STORE-FENCE"
                                     : "BULK-S2G-FENCE-BEFORE",
                       J, S, std::nullopt, 0});
        break;
      }
    }
  }
  return Out;
}

static const char *waitRule(const Event &Store) {
  return Store.Tensor ? "TMA-STORE-WAIT" : "BULK-S2G-WAIT-BEFORE-REUSE";
}

std::vector<Finding> waitBeforeExit(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    if (!isStore(Seq[S]))
      continue;
    bool Silent = false;
    for (std::size_t J = S + 1; J < Seq.size() && !Silent; ++J)
      Silent = Seq[J].Kind == EventKind::WaitGroup || divertsOrUnknown(Seq[J]);
    if (!Silent)
      Out.push_back({waitRule(Seq[S]), S, S, std::nullopt, 0});
  }
  return Out;
}

namespace {
/// What the events on one path between a copy and a write say about the
/// copy's bulk group.
struct Verdict {
  enum { Covered, Uncovered, Unknown } State = Uncovered;
  std::optional<std::size_t> Wait;
  unsigned Commits = 0;
};

/// Feeds the events of \p Range, in order, into \p V.
void scan(const std::vector<Event> &Seq, std::size_t From, std::size_t To,
          unsigned &Commits, Verdict &V) {
  for (std::size_t J = From; J < To && V.State == Verdict::Uncovered; ++J) {
    const Event &E = Seq[J];
    if (divertsOrUnknown(E)) {
      V.State = Verdict::Unknown;
    } else if (E.Kind == EventKind::Commit) {
      ++Commits;
    } else if (E.Kind == EventKind::WaitGroup) {
      if (!E.Depth)
        V.State = Verdict::Unknown;
      // wait_group N leaves at most N of the latest groups pending: the
      // copy's group (the oldest of the Commits since it) is done when
      // more than N groups were committed since.
      else if (Commits > *E.Depth)
        V.State = Verdict::Covered;
      else {
        V.Wait = J;
        V.Commits = Commits;
      }
    }
  }
}

bool inLoop(const Event &E, std::uintptr_t Loop) {
  return std::find(E.Loops.begin(), E.Loops.end(), Loop) != E.Loops.end();
}

/// The events of \p Loop: a contiguous range around \p At.
std::pair<std::size_t, std::size_t>
loopRange(const std::vector<Event> &Seq, std::size_t At, std::uintptr_t Loop) {
  std::size_t B = At, E = At + 1;
  while (B > 0 && inLoop(Seq[B - 1], Loop))
    --B;
  while (E < Seq.size() && inLoop(Seq[E], Loop))
    ++E;
  return {B, E};
}

bool writes(const Event &E, int Object) {
  return E.Kind == EventKind::GenericWrite && E.Object == Object;
}
} // namespace

std::vector<Finding> waitBeforeReuse(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    const Event &St = Seq[S];
    if (!isStore(St) || !St.WholeObject || St.Object < 0)
      continue;
    // Forward: the first write after the copy on a path from it.
    std::optional<std::size_t> W;
    for (std::size_t J = S + 1; J < Seq.size() && !W; ++J)
      if (writes(Seq[J], St.Object) && onePath(St, Seq[J]))
        W = J;
    Verdict V;
    unsigned Commits = 0;
    if (W) {
      scan(Seq, S + 1, *W, Commits, V);
    } else {
      // Through the back edge of the innermost loop with a write before
      // the copy: the rest of the loop, then its start up to the write.
      for (auto L = St.Loops.rbegin(); L != St.Loops.rend() && !W; ++L) {
        auto [B, E] = loopRange(Seq, S, *L);
        for (std::size_t J = B; J < S && !W; ++J)
          if (writes(Seq[J], St.Object) && onePath(Seq[J], St))
            W = J;
        if (!W)
          continue;
        scan(Seq, S + 1, E, Commits, V);
        scan(Seq, B, *W, Commits, V);
      }
    }
    if (W && V.State == Verdict::Uncovered)
      Out.push_back({waitRule(St), S, *W, V.Wait, V.Commits});
  }
  return Out;
}

std::vector<Finding> initVisible(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    const Event &Init = Seq[I];
    if (Init.Kind != EventKind::BarrierInit || Init.Object < 0 ||
        Init.Branches.empty())
      continue;
    // A jump before the init may leave only the initialising threads.
    if (std::any_of(Seq.begin(), Seq.begin() + I, divertsOrUnknown))
      continue;
    for (std::size_t J = I + 1; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Kind == EventKind::ThreadSync || divertsOrUnknown(E))
        break;
      bool Uses = E.Kind == EventKind::BarrierUse ||
                  E.Kind == EventKind::BarrierWait;
      if (E.Kind == EventKind::BarrierWait && E.Object != Init.Object)
        break; // another barrier's wait may order the threads
      if (Uses && E.Object == Init.Object && E.Branches.empty()) {
        Out.push_back({"MBAR-INIT-VISIBLE", I, J, std::nullopt, 0});
        break;
      }
    }
  }
  return Out;
}

std::vector<Finding> reinitInLoop(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    const Event &Init = Seq[I];
    if (Init.Kind != EventKind::BarrierInit || !Init.FixedObject ||
        Init.Object < 0 || Init.Loops.empty())
      continue;
    auto [B, E] = loopRange(Seq, I, Init.Loops.back());
    std::optional<std::size_t> Use;
    bool Silent = false;
    for (std::size_t J = B; J < E && !Silent; ++J) {
      const Event &X = Seq[J];
      // A jump may end the loop after one pass; an inval makes it legal.
      Silent = X.Kind == EventKind::Jump ||
               (X.Kind == EventKind::BarrierInval &&
                (X.Object == Init.Object || X.Object < 0));
      if ((X.Kind == EventKind::BarrierUse ||
           X.Kind == EventKind::BarrierWait) &&
          X.Object == Init.Object && !Use)
        Use = J;
    }
    if (!Silent && Use)
      Out.push_back({"MBAR-REINIT-INVAL", I, *Use, std::nullopt, 0});
  }
  return Out;
}

std::vector<Finding> loadWaitBeforeRead(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    if (Seq[L].Kind != EventKind::Load || Seq[L].Object < 0)
      continue;
    std::optional<std::size_t> GroupWait;
    for (std::size_t J = L + 1; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Kind == EventKind::BarrierWait || divertsOrUnknown(E))
        break;
      if (E.Kind == EventKind::WaitGroup && !GroupWait)
        GroupWait = J;
      if (E.Kind == EventKind::GenericRead && E.Object == Seq[L].Object &&
          onePath(Seq[L], E)) {
        Out.push_back({GroupWait ? "BULK-WAITGROUP-SCOPE"
                                 : "TMA-LOAD-WAIT-BEFORE-READ",
                       L, J, GroupWait, 0});
        break;
      }
    }
  }
  return Out;
}

static bool ordersWar(const Event &E) {
  switch (E.Kind) {
  case EventKind::BarrierUse:
    // A plain arrive may hand the buffer over ("empty" barrier); the
    // issuer's own expect-tx and copies do not.
    return E.Role == UseRole::Arrive;
  case EventKind::ProxyFence:
  case EventKind::ThreadSync:
  case EventKind::BarrierWait:
  case EventKind::BarrierInit:
  case EventKind::BarrierInval:
  case EventKind::Opaque:
  case EventKind::Jump:
    return true;
  default:
    return false;
  }
}

std::vector<Finding> asyncWarFence(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    const Event &Ld = Seq[L];
    if (Ld.Kind != EventKind::Load || Ld.Object < 0)
      continue;
    auto IsRead = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::GenericRead &&
             Seq[J].Object == Ld.Object && onePath(Seq[J], Ld);
    };
    // Backwards from the copy: earlier in the code first.
    std::optional<std::size_t> Read;
    bool Ordered = false;
    std::size_t Start = 0;
    if (!Ld.Loops.empty())
      Start = loopRange(Seq, L, Ld.Loops.back()).first;
    for (std::size_t J = L; J-- > Start && !Read && !Ordered;) {
      Ordered = ordersWar(Seq[J]);
      if (!Ordered && IsRead(J))
        Read = J;
    }
    if (!Read && !Ordered && Ld.Loops.empty())
      continue;
    // Then the rest of the innermost loop's body, through the back edge.
    if (!Read && !Ordered) {
      std::size_t End = loopRange(Seq, L, Ld.Loops.back()).second;
      for (std::size_t J = End; J-- > L + 1 && !Read && !Ordered;) {
        Ordered = ordersWar(Seq[J]);
        if (!Ordered && IsRead(J))
          Read = J;
      }
    }
    if (Read && !Ordered)
      Out.push_back({"ASYNC-WAR-FENCE", *Read, L, std::nullopt, 0});
  }
  return Out;
}

std::vector<Finding> expectAfterArrive(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t A = 0; A < Seq.size(); ++A) {
    const Event &Ar = Seq[A];
    if (Ar.Kind != EventKind::BarrierUse || Ar.Role != UseRole::Arrive ||
        Ar.Object < 0)
      continue;
    for (std::size_t J = A + 1; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (E.Kind == EventKind::BarrierWait || divertsOrUnknown(E) ||
          (E.Kind == EventKind::BarrierInit && E.Object == Ar.Object))
        break;
      if (E.Kind == EventKind::BarrierUse && E.Role == UseRole::Expect &&
          E.Object == Ar.Object && onePath(Ar, E)) {
        Out.push_back({"MBAR-EXPECT-BEFORE-LAST-ARRIVE", A, J, std::nullopt,
                       0});
        break;
      }
    }
  }
  return Out;
}

/// \p Inner's branches extend \p Outer's: every thread that runs Inner
/// passed Outer's guards.
static bool guardedBy(const Event &Inner, const Event &Outer) {
  return Inner.Branches.size() >= Outer.Branches.size() &&
         std::equal(Outer.Branches.begin(), Outer.Branches.end(),
                    Inner.Branches.begin());
}

std::vector<Finding> waitByOtherThreads(const std::vector<Event> &Seq,
                                        threads::BlockSize Block) {
  std::vector<Finding> Out;
  // Whether a thread that runs \p E issued nothing of \p St: from the
  // thread sets when both are known, else from the guards' structure.
  auto Outside = [&](const Event &E, const Event &St) -> std::optional<bool> {
    if (E.Threads && St.Threads) {
      if (threads::includedIn(*E.Threads, *St.Threads, Block))
        return false;
      if (threads::provenOutside(*E.Threads, {St.Threads.get()}, Block))
        return true;
      return std::nullopt;
    }
    return !guardedBy(E, St);
  };
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    const Event &St = Seq[S];
    if (!isStore(St) || !St.WholeObject || St.Object < 0 ||
        (St.Branches.empty() && !St.Threads))
      continue;
    // Forward only: the wait that completes the group, then the write.
    unsigned Commits = 0;
    std::optional<std::size_t> Cover;
    for (std::size_t J = S + 1; J < Seq.size(); ++J) {
      const Event &E = Seq[J];
      if (divertsOrUnknown(E) || E.Kind == EventKind::BarrierWait)
        break;
      if (!Cover) {
        // A commit the issuing thread surely runs (no further guard).
        if (E.Kind == EventKind::Commit && guardedBy(St, E))
          ++Commits;
        else if (E.Kind == EventKind::WaitGroup) {
          if (!E.Depth)
            break;
          if (Commits > *E.Depth) {
            // Executed by the issuing threads only: no scope error.
            auto Others = Outside(E, St);
            if (!Others || !*Others)
              break;
            Cover = J;
          }
        }
        continue;
      }
      if (E.Kind == EventKind::ThreadSync || E.Kind == EventKind::WaitGroup)
        break;
      if (writes(E, St.Object) && onePath(St, E)) {
        auto Others = Outside(E, St);
        if (!Others)
          break;
        if (!*Others)
          continue;
        Out.push_back({"BULK-WAITGROUP-SCOPE", S, J, Cover, Commits});
        break;
      }
    }
  }
  return Out;
}

std::vector<Finding> acquireAfterCopy(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t C = 0; C < Seq.size(); ++C) {
    const Event &Cp = Seq[C];
    if ((Cp.Kind != EventKind::Load && Cp.Kind != EventKind::Store) ||
        Cp.Map < 0)
      continue;
    auto Acquires = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::MapAcquire && Seq[J].Map == Cp.Map &&
             onePath(Seq[J], Cp);
    };
    bool Before = false;
    for (std::size_t J = C; J-- > 0 && !Before;)
      Before = Acquires(J) || divertsOrUnknown(Seq[J]);
    if (Before)
      continue;
    for (std::size_t J = C + 1; J < Seq.size(); ++J)
      if (Acquires(J)) {
        Out.push_back({"TMAP-PLACE-GLOBAL-FENCE", C, J, std::nullopt, 0});
        break;
      }
  }
  return Out;
}

std::vector<Finding> mapRewriteInFlight(const std::vector<Event> &Seq) {
  std::vector<Finding> Out;
  for (std::size_t C = 0; C < Seq.size(); ++C) {
    const Event &Cp = Seq[C];
    if ((Cp.Kind != EventKind::Load && Cp.Kind != EventKind::Store) ||
        Cp.Map < 0)
      continue;
    auto Rewrites = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::MapWrite && Seq[J].Map == Cp.Map &&
             onePath(Cp, Seq[J]);
    };
    // What lies between the copy and the write: a load completes only
    // through a wait (any wait may pass its completion on), a store through
    // a wait_group deep enough.
    Verdict V;
    unsigned Commits = 0;
    auto Scan = [&](std::size_t From, std::size_t To) {
      if (Cp.Kind == EventKind::Store) {
        scan(Seq, From, To, Commits, V);
        return;
      }
      for (std::size_t J = From; J < To && V.State == Verdict::Uncovered; ++J)
        if (divertsOrUnknown(Seq[J]))
          V.State = Verdict::Unknown;
        else if (Seq[J].Kind == EventKind::BarrierWait)
          V.State = Verdict::Covered;
    };
    std::optional<std::size_t> W;
    for (std::size_t J = C + 1; J < Seq.size() && !W; ++J)
      if (Rewrites(J))
        W = J;
    if (W) {
      Scan(C + 1, *W);
    } else {
      // Through the back edge of the innermost loop that rewrites the map
      // before the copy.
      for (auto L = Cp.Loops.rbegin(); L != Cp.Loops.rend() && !W; ++L) {
        auto [B, E] = loopRange(Seq, C, *L);
        for (std::size_t J = B; J < C && !W; ++J)
          if (Seq[J].Kind == EventKind::MapWrite && Seq[J].Map == Cp.Map &&
              onePath(Seq[J], Cp))
            W = J;
        if (!W)
          continue;
        Scan(C + 1, E);
        Scan(B, *W);
      }
    }
    if (W && V.State == Verdict::Uncovered)
      Out.push_back({"TMAP-INFLIGHT-IMMUTABLE", C, *W, V.Wait, V.Commits});
  }
  return Out;
}

bool uninitialised(bool AllUsesKnown, unsigned Uses, unsigned Inits) {
  return AllUsesKnown && Uses > 0 && Inits == 0;
}

} // namespace tma::rules::ordering
