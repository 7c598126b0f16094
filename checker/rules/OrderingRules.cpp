//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The ordering rules over a kernel's event sequence and flow graph: one
// function per rule id (OrderingRules.h), with the path queries they share
// (first, scan, nextWrite) at the top.
//
// Above 1,000 lines for a reason: the rules are short and use the same
// file-local path queries; splitting them by family would export those
// queries into a header for no reader's gain.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingRules.h"
#include "rules/UninitSite.h"

#include <algorithm>
#include <memory>

namespace tma::rules::ordering {

namespace {

bool isStore(const Event &E) { return E.Kind == EventKind::Store; }

/// Records why \p Rule stays silent on event \p Site (ExplainModel).
void silent(Silences *Why, const char *Rule, std::size_t Site,
            const char *Text, std::optional<std::size_t> At = std::nullopt) {
  if (Why)
    Why->push_back({Rule, Site, Text, At});
}
bool unknown(const Event &E) { return E.Kind == EventKind::Opaque; }
bool writes(const Event &E, int Object) {
  return E.Kind == EventKind::GenericWrite && E.Object == Object;
}

/// What overwrites a copy's source: a generic store, or a copy into it (a
/// TMA or bulk load refilling the buffer a store still reads).
bool overwrites(const Event &E, int Object) {
  return writes(E, Object) || (E.Kind == EventKind::Load && E.Object == Object);
}

/// The first event (smallest id) of \p Marked where \p P holds, after
/// \p From when given.
template <typename Pred>
std::optional<std::size_t> first(const Flow::Set &Marked, Pred P,
                                 std::size_t From = 0) {
  for (std::size_t J = From; J < Marked.size(); ++J)
    if (Marked[J] && P(J))
      return J;
  return std::nullopt;
}

/// What the events on the paths between a copy and a write say about the
/// copy's bulk group.
struct Verdict {
  enum { Covered, Uncovered, Unknown } State = Uncovered;
  std::optional<std::size_t> Wait;
  unsigned Commits = 0;
  /// The event that covered the group or made the verdict unknown.
  std::optional<std::size_t> By;
};

/// Feeds the events \p Path (in path order) into \p V.
void scan(const std::vector<Event> &Seq, const std::vector<std::size_t> &Path,
          Verdict &V) {
  unsigned Commits = 0;
  for (std::size_t J : Path) {
    if (V.State != Verdict::Uncovered)
      return;
    const Event &E = Seq[J];
    if (unknown(E)) {
      V.State = Verdict::Unknown;
      V.By = J;
    } else if (E.Kind == EventKind::Commit) {
      ++Commits;
    } else if (E.Kind == EventKind::WaitGroup) {
      V.By = J;
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

/// The write that a copy \p C is overwritten by, first on some path from
/// it (\p IsWrite), and the events in between: later in the code on a
/// forward path, else earlier in the innermost loop around C that has
/// one, through its back edge.
template <typename Pred>
std::optional<std::size_t> nextWrite(const Flow &G, std::size_t C, Pred IsWrite,
                                     std::vector<std::size_t> &Path) {
  Flow::Stop Stop = [&](std::size_t J) { return IsWrite(J); };
  if (auto W = first(G.search(C, true, false, Stop), IsWrite)) {
    Path = G.between(C, *W, false);
    return W;
  }
  for (const Flow::Set *L : G.loopsAround(C)) {
    Flow::Set Reached = G.search(C, true, true, Stop, L);
    if (auto W = first(Reached,
                       [&](std::size_t J) { return J < C && IsWrite(J); })) {
      Path = G.between(C, *W, true, L);
      return W;
    }
  }
  return std::nullopt;
}

/// The events of kind \p K, by the object they name (ids ascending): a
/// rule that pairs a copy with a read of its buffer asks only the reads
/// of that buffer (a kernel of N copies and no read of them cost N
/// searches of N events).
class ByObject {
public:
  /// \p GenericOnly: no MMA read (Event::Mma).
  ByObject(const std::vector<Event> &Seq, EventKind K,
           bool GenericOnly = false) {
    for (std::size_t J = 0; J < Seq.size(); ++J)
      if (Seq[J].Kind == K && Seq[J].Object >= 0 &&
          !(GenericOnly && Seq[J].Mma)) {
        if (Of.size() <= static_cast<std::size_t>(Seq[J].Object))
          Of.resize(Seq[J].Object + 1);
        Of[Seq[J].Object].push_back(J);
      }
  }
  const std::vector<std::size_t> &operator[](int Object) const {
    static const std::vector<std::size_t> None;
    return Object >= 0 && static_cast<std::size_t>(Object) < Of.size()
               ? Of[Object]
               : None;
  }

private:
  std::vector<std::vector<std::size_t>> Of;
};

const char *waitRule(const Event &Store) {
  return Store.Tensor ? "TMA-STORE-WAIT" : "BULK-S2G-WAIT-BEFORE-REUSE";
}

} // namespace

std::vector<Finding> fenceBeforeStore(const std::vector<Event> &Seq,
                                      const Flow &G, threads::BlockSize Block,
                                      Silences *Why) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    if (!isStore(Seq[S]))
      continue;
    const char *Rule =
        Seq[S].Tensor ? "TMA-STORE-FENCE" : "BULK-S2G-FENCE-BEFORE";
    if (Seq[S].Object < 0) {
      silent(Why, Rule, S, "buffer unknown: the model cannot name the copy's "
                           "source");
      continue;
    }
    // The latest writes of the buffer on the paths to the copy, nearest
    // first; an unknown on the way makes a pair unproven, and so does a
    // fence on the way unless its threads are known: it counts only if it
    // runs in the writing threads.
    auto IsWrite = [&](std::size_t J) { return writes(Seq[J], Seq[S].Object); };
    Flow::Set Near = G.search(S, false, false, IsWrite);
    // Why the nearest write made no finding, when none did.
    std::optional<Silence> First;
    bool Found = false;
    auto Quiet = [&](const char *Text, std::optional<std::size_t> At) {
      if (Why && !First)
        First = Silence{Rule, S, Text, At};
    };
    for (std::size_t W = S; W-- > 0;) {
      if (!Near[W] || !IsWrite(W))
        continue;
      std::vector<const threads::ThreadSet *> Fences;
      bool Silent = false;
      std::optional<std::size_t> SilentAt, FenceAt;
      // When some writing thread does not issue the copy, the buffer is
      // handed over by a thread barrier: a fence that every path from the
      // write reaches only through a thread barrier comes after the
      // hand-off and orders nothing for the issuing thread.
      bool HandedOver =
          Seq[W].Threads && Seq[S].Threads &&
          threads::provenOutside(*Seq[W].Threads, {Seq[S].Threads.get()},
                                 Block);
      Flow::Set BeforeSync;
      if (HandedOver)
        BeforeSync = G.search(W, true, false, [&](std::size_t J) {
          return Seq[J].Kind == EventKind::ThreadSync && !Seq[J].Warp;
        });
      for (std::size_t J : G.between(W, S, false)) {
        const Event &E = Seq[J];
        if (unknown(E) || (E.Kind == EventKind::ProxyFence && !E.Threads)) {
          if (!Silent)
            SilentAt = J;
          Silent = true;
        } else if (E.Kind == EventKind::ProxyFence &&
                   (!HandedOver || BeforeSync[J])) {
          Fences.push_back(E.Threads.get());
          if (!FenceAt)
            FenceAt = J;
        }
      }
      if (Silent) {
        Quiet(unknown(Seq[*SilentAt])
                  ? "an opaque event lies between the nearest generic write "
                    "and the copy"
                  : "a fence.proxy.async whose threads are not known lies "
                    "between the nearest generic write and the copy",
              SilentAt);
        continue;
      }
      // A writing thread that runs none of the fences on the way.
      if (!Fences.empty() &&
          !(Seq[W].Threads &&
            threads::provenOutside(*Seq[W].Threads, Fences, Block))) {
        Quiet("a fence.proxy.async lies between the nearest generic write and "
              "the copy, and no writing thread is proven to skip it",
              FenceAt);
        continue;
      }
      Out.push_back({Rule, W, S, std::nullopt, 0});
      Found = true;
      break;
    }
    if (Why && !Found) {
      if (!First)
        First = Silence{Rule, S,
                        "no generic write of the buffer on a path to the copy",
                        std::nullopt};
      Why->push_back(*First);
    }
  }
  return Out;
}

/// The most commits that a path from \p S to \p W may pass (\p Later: the
/// events reached from S); std::nullopt when a commit on the way may be
/// passed again and again (a loop around it that is not around S).
static std::optional<unsigned> commitsBetween(const std::vector<Event> &Seq,
                                              const Flow &G, std::size_t S,
                                              std::size_t W,
                                              const Flow::Set &Later) {
  Flow::Set Before = G.search(W, false, false);
  std::vector<const Flow::Set *> AroundS = G.loopsAround(S);
  unsigned N = 0;
  for (std::size_t C = 0; C < Seq.size(); ++C) {
    if (Seq[C].Kind != EventKind::Commit || !Later[C] || !Before[C])
      continue;
    for (const Flow::Set *L : G.loopsAround(C))
      if (std::find(AroundS.begin(), AroundS.end(), L) == AroundS.end())
        return std::nullopt;
    ++N;
  }
  return N;
}

std::vector<Finding> waitBeforeExit(const std::vector<Event> &Seq,
                                    const Flow &G, Silences *Why) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    if (!isStore(Seq[S]))
      continue;
    // No wait_group later on any path (a wait on one path may be guarded
    // as the copy is) that may complete the copy's group, nor an unknown,
    // and a way to the kernel's end; an early return with no wait before
    // it may be taken by other threads than the copy's: unproven.
    Flow::Stop Stop = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::WaitGroup;
    };
    Flow::Set Later = G.search(S, true, false);
    bool Early = G.reachesExit(S, true, Stop);
    auto Opaque = first(Later, [&](std::size_t J) { return unknown(Seq[J]); });
    // A wait that may complete the group: of unknown depth, or with more
    // groups committed since the copy on some path than it leaves pending.
    // wait_group N with at most N commits since the copy on every path
    // leaves its group pending (the last wait before exit at a depth above
    // 0, of the last pass of the copy's loops). A wait before any commit
    // stays unjudged: a commit the model does not see may precede it.
    std::optional<std::size_t> Covering, Shallow;
    unsigned Commits = 0;
    for (std::size_t J = 0; J < Seq.size() && !Covering; ++J) {
      if (!Later[J] || !Stop(J))
        continue;
      std::optional<unsigned> N =
          Seq[J].Depth ? commitsBetween(Seq, G, S, J, Later) : std::nullopt;
      if (!N || *N == 0 || *N > *Seq[J].Depth)
        Covering = J;
      else if (!Shallow || J > *Shallow) {
        Shallow = J;
        Commits = *N;
      }
    }
    if (Early)
      silent(Why, waitRule(Seq[S]), S,
             "an early return is reached from the copy with no wait_group "
             "before it (other threads may take it)");
    else if (Opaque)
      silent(Why, waitRule(Seq[S]), S, "an opaque event follows the copy",
             Opaque);
    else if (Covering)
      silent(Why, waitRule(Seq[S]), S,
             Seq[*Covering].Depth
                 ? "a cp.async.bulk.wait_group that may complete its group "
                   "follows the copy on some path"
                 : "a cp.async.bulk.wait_group of unknown depth follows the "
                   "copy on some path",
             Covering);
    else if (!G.reachesExit(S, false))
      silent(Why, waitRule(Seq[S]), S, "no path from the copy ends the kernel");
    else
      Out.push_back({waitRule(Seq[S]), S, S, Shallow, Commits});
  }
  return Out;
}

/// waitBeforeReuse for a copy of one stage (Event::Slice): the first write
/// of the same stage later in the same pass; else, in a ring of period P
/// around the copy's innermost loop, a write of the stage expression in
/// that loop, which meets the same stage P passes later: the events of the
/// rest of the copy's pass, of P - 1 whole passes and of the last pass up
/// to the write, in order.
static std::optional<Finding> stageReuse(const std::vector<Event> &Seq,
                                         const Flow &G, std::size_t S,
                                         threads::BlockSize Block) {
  const Event &St = Seq[S];
  // A stage of the thread's own (`buf[warp]`): the write names the
  // copy's stage in the threads that issued the copy, so every one of
  // them must run it.
  auto SameThreads = [&](const Event &E) {
    return !St.PerThread ||
           (St.Threads && E.Threads &&
            threads::includedIn(*St.Threads, *E.Threads, Block));
  };
  auto IsWrite = [&](std::size_t J) {
    const Event &E = Seq[J];
    return E.Object == St.Object && E.Slice == St.Slice &&
           (E.Kind == EventKind::Load ||
            (E.Kind == EventKind::GenericWrite && E.SliceWrite &&
             St.WholeSlice)) &&
           SameThreads(E);
  };
  Verdict V;
  auto Found = [&](std::size_t W, unsigned Laps) -> std::optional<Finding> {
    if (V.State != Verdict::Uncovered)
      return std::nullopt;
    return Finding{waitRule(St), S, W, V.Wait, V.Commits, Laps};
  };
  Flow::Stop Stop = [&](std::size_t J) { return IsWrite(J); };
  if (auto W = first(G.search(S, true, false, Stop), IsWrite)) {
    scan(Seq, G.between(S, *W, false), V);
    return Found(*W, 0);
  }
  const Flow::Set *L = G.loopOf(S);
  if (St.Period == 0 || !L)
    return std::nullopt;
  // The same key names the same stage in one pass of L, in a loop nested
  // in it too (`out[k % S][i]` in `for (i ...)`).
  auto W = first(G.search(S, true, true, Stop, L), [&](std::size_t J) {
    return IsWrite(J) && (*L)[G.nodeOf(J)];
  });
  if (!W)
    return std::nullopt;
  std::vector<std::size_t> Path, Pass = G.between(S, S, true, L);
  for (unsigned P = 1; P < St.Period; ++P)
    Path.insert(Path.end(), Pass.begin(), Pass.end());
  std::vector<std::size_t> Last = G.between(S, *W, true, L);
  Path.insert(Path.end(), Last.begin(), Last.end());
  scan(Seq, Path, V);
  return Found(*W, St.Period);
}

std::vector<Finding> waitBeforeReuse(const std::vector<Event> &Seq,
                                     const Flow &G, Silences *Why,
                                     threads::BlockSize Block) {
  std::vector<Finding> Out;
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    const Event &St = Seq[S];
    if (!isStore(St))
      continue;
    if (St.Object < 0) {
      silent(Why, waitRule(St), S,
             "buffer unknown: the model cannot name the copy's source");
      continue;
    }
    if (!St.WholeObject && St.Slice >= 0) {
      if (auto F = stageReuse(Seq, G, S, Block))
        Out.push_back(*F);
      else
        silent(Why, waitRule(St), S,
               "the copy reads one stage of the buffer: no write that the "
               "model proves of the same stage (the same index expression, "
               "where the ring comes back to it, in the copy's threads) "
               "follows it without a wait_group.read that completes its "
               "group");
      continue;
    }
    if (!St.WholeObject) {
      silent(Why, waitRule(St), S,
             "the copy reads a part of the buffer chosen by an index: a later "
             "write may be of another part");
      continue;
    }
    std::vector<std::size_t> Path;
    auto W = nextWrite(
        G, S, [&](std::size_t J) { return overwrites(Seq[J], St.Object); },
        Path);
    Verdict V;
    scan(Seq, Path, V);
    if (!W)
      silent(Why, waitRule(St), S,
             "no write of the buffer after the copy (nor round its loop)");
    else if (V.State == Verdict::Covered)
      silent(Why, waitRule(St), S,
             "a wait_group.read completes its group before the next write",
             V.By);
    else if (V.State == Verdict::Unknown)
      silent(Why, waitRule(St), S,
             unknown(Seq[*V.By]) ? "an opaque event lies between the copy and "
                                   "the next write"
                                 : "a wait_group of unknown depth lies between "
                                   "the copy and the next write",
             V.By);
    else
      Out.push_back({waitRule(St), S, *W, V.Wait, V.Commits});
  }
  return Out;
}

std::vector<Finding>
initVisible(const std::vector<Event> &Seq, const Flow &G,
            threads::BlockSize Block, Silences *Why,
            const std::vector<std::optional<PoolSlot>> *Slots) {
  const char *Rule = "MBAR-INIT-VISIBLE";
  std::vector<Finding> Out;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    const Event &Init = Seq[I];
    if (Init.Kind != EventKind::BarrierInit)
      continue;
    if (Init.Object < 0) {
      silent(Why, Rule, I, "barrier unknown: the model cannot name it");
      continue;
    }
    if (!Init.Guarded) {
      silent(Why, Rule, I,
             "the init runs under no condition: every thread initialises it");
      continue;
    }
    // An unknown before the init may leave only the initialising threads.
    Flow::Set Before = G.search(I, false, false);
    if (auto U = first(Before, [&](std::size_t J) { return unknown(Seq[J]); })) {
      silent(Why, Rule, I,
             "an opaque event before the init may leave only the "
             "initialising threads",
             U);
      continue;
    }
    // The barriers the init makes: its own, every member of its family,
    // or, in one `__shared__` array placed by element, the element or
    // first-run member of a use that the init (its object's only one)
    // surely covers.
    auto SlotOf = [&](int Obj) -> const PoolSlot * {
      if (!Slots || Obj < 0 || static_cast<std::size_t>(Obj) >= Slots->size() ||
          !(*Slots)[Obj])
        return nullptr;
      return &*(*Slots)[Obj];
    };
    const PoolSlot *InitSlot = Init.Region >= 0 ? SlotOf(Init.Object) : nullptr;
    if (InitSlot && std::count_if(Seq.begin(), Seq.end(), [&](const Event &E) {
          return E.Kind == EventKind::BarrierInit && E.Object == Init.Object;
        }) != 1)
      InitSlot = nullptr;
    auto Made = [&](const Event &E) {
      if (E.Object == Init.Object ||
          (Init.AllMembers && Init.Family >= 0 && E.Family == Init.Family))
        return true;
      const PoolSlot *UseSlot = InitSlot ? SlotOf(E.Object) : nullptr;
      return UseSlot && E.Region == Init.Region && E.Part == Init.Part &&
             surelyCovers(*InitSlot, *UseSlot, E.FirstMember);
    };
    // Some thread that uses the barrier runs no init: any, for a use by
    // all threads; for a role's use, one of its threads that the thread
    // sets prove runs no init, in a block of the largest size the kernel
    // may run with (a role's branch is taken to run: the kernel is written
    // for blocks that have the role).
    // A use whose threads are some unknown subset of a known set (a
    // consumer loop bounded by a scheduler, `while (sched.next(...))`)
    // counts where every thread of that set runs no init: whichever of
    // them run it are outsiders.
    auto Outsider = [&](const Event &E) {
      if (!E.Guarded)
        return true;
      if (!Init.Threads)
        return false;
      if (E.Threads)
        return threads::firstOutside(*E.Threads, *Init.Threads, Block)
            .has_value();
      return E.ThreadsAtMost &&
             threads::allOutside(*E.ThreadsAtMost, *Init.Threads, Block);
    };
    // The first such use after it; a thread barrier, an unknown or a wait
    // on a barrier it does not make (which may order the threads) on a path
    // in between silences it.
    auto IsUse = [&](std::size_t J) {
      const Event &E = Seq[J];
      return (E.Kind == EventKind::BarrierUse ||
              E.Kind == EventKind::BarrierWait) &&
             Made(E);
    };
    Flow::Set After = G.search(I, true, false);
    auto Use = first(After, [&](std::size_t J) {
      return IsUse(J) && Outsider(Seq[J]);
    });
    if (!Use) {
      auto Any = first(After, IsUse);
      if (!Any)
        silent(Why, Rule, I,
               "no use of this barrier after the init (the model may name it "
               "differently at its uses)");
      else if (!Seq[*Any].Threads || !Init.Threads)
        silent(Why, Rule, I,
               "every later use runs under a condition, and the threads of "
               "the init or of the use are not known",
               Any);
      else
        silent(Why, Rule, I,
               "every later use runs under a condition, in threads that also "
               "run the init",
               Any);
      continue;
    }
    // A cluster barrier's wait synchronises the threads that arrived
    // before it: with no arrive (nor any other thread barrier) on a path
    // to it, it orders nothing.
    auto Syncs = [&](std::size_t J) {
      // An arrive alone lets its threads run on: the wait that follows it
      // orders them, not the arrive.
      if (Seq[J].SyncHalf == Event::Half::Arrive)
        return false;
      if (Seq[J].SyncHalf != Event::Half::Wait)
        return true;
      for (std::size_t A = 0; A < Seq.size(); ++A)
        if (Seq[A].Kind == EventKind::ThreadSync &&
            Seq[A].SyncHalf != Event::Half::Wait && G.reaches(A, J, false))
          return true;
      return false;
    };
    // A warp barrier orders the init with the use only where the use's
    // threads share a warp with an initialising thread (threads unknown:
    // taken to). A role's threads are taken to exist (as for Outsider); a
    // use by all threads reaches past the init's warps only in a block
    // that surely has more threads.
    const Event &U = Seq[*Use];
    bool WarpOrders = true;
    if (Init.Threads && !U.Guarded)
      WarpOrders = threads::inWarpsOf({}, *Init.Threads,
                                      threads::BlockSize{Block.Min, Block.Min});
    else if (Init.Threads && U.Threads)
      WarpOrders = threads::inWarpsOf(*U.Threads, *Init.Threads, Block);
    // A subset of known threads may lie in the init's warps wherever one
    // of those threads does.
    else if (Init.Threads && U.ThreadsAtMost)
      WarpOrders =
          threads::shareAWarp(*U.ThreadsAtMost, *Init.Threads, Block);
    std::optional<std::size_t> Ordered;
    for (std::size_t J : G.between(I, *Use, false)) {
      const Event &E = Seq[J];
      if (!Ordered &&
          ((E.Kind == EventKind::ThreadSync && Syncs(J) &&
            (!E.Warp || WarpOrders)) ||
           unknown(E) ||
           (E.Kind == EventKind::BarrierWait && !Made(E))))
        Ordered = J;
    }
    // A cluster wait with no arrive before it on the way, for the note.
    std::optional<std::size_t> LoneWait;
    if (!Ordered)
      for (std::size_t J : G.between(I, *Use, false))
        if (!LoneWait && Seq[J].Kind == EventKind::ThreadSync &&
            Seq[J].SyncHalf == Event::Half::Wait)
          LoneWait = J;
    // The first use on some path may pass a thread barrier that another
    // path to a use by other threads skips (a barrier only in a loop that
    // may run no pass, or only in another branch): a use that a path from
    // the init reaches past no thread barrier (a warp's counted as one), no
    // unknown and no wait on another barrier is reported.
    std::optional<std::size_t> Skipped;
    if (Ordered) {
      Flow::Set Free = G.search(I, true, false, [&](std::size_t J) {
        const Event &E = Seq[J];
        return (E.Kind == EventKind::ThreadSync && Syncs(J)) || unknown(E) ||
               (E.Kind == EventKind::BarrierWait && !Made(E));
      });
      for (std::size_t J = 0; J < Seq.size() && Ordered; ++J)
        if (Free[J] && IsUse(J) && Outsider(Seq[J]) &&
            !(Seq[J].Kind == EventKind::BarrierWait && !Made(Seq[J]))) {
          Skipped = Ordered;
          Ordered.reset();
          Use = J;
        }
    }
    if (Ordered)
      silent(Why, Rule, I,
             Seq[*Ordered].Kind == EventKind::ThreadSync
                 ? "a thread barrier lies between the init and the first use "
                   "by other threads"
             : unknown(Seq[*Ordered])
                 ? "an opaque event lies between the init and the first use "
                   "by other threads"
                 : "a wait on another barrier lies between the init and the "
                   "first use by other threads",
             Ordered);
    else {
      Finding F{Rule, I, *Use, LoneWait, 0};
      F.Other = Skipped;
      Out.push_back(F);
    }
  }
  return Out;
}

std::vector<Finding> reinitInLoop(const std::vector<Event> &Seq,
                                  const Flow &G) {
  std::vector<Finding> Out;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    const Event &Init = Seq[I];
    const Flow::Set *L = G.loopOf(I);
    if (Init.Kind != EventKind::BarrierInit || !Init.FixedObject ||
        Init.Object < 0 || !L)
      continue;
    // The loop must come back to the init (a break may end it after one
    // pass); an inval in it makes it legal.
    if (!G.reaches(I, I, true, L))
      continue;
    std::optional<std::size_t> Use;
    bool Silent = false;
    for (std::size_t J = 0; J < Seq.size() && !Silent; ++J) {
      const Event &X = Seq[J];
      if (!(*L)[G.nodeOf(J)])
        continue;
      Silent = X.Kind == EventKind::BarrierInval &&
               (X.Object == Init.Object || X.Object < 0);
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

bool mayBeSameBarrier(const Event &A, const Event &B) {
  if (A.Region < 0 || B.Region < 0)
    return true;
  if (A.Region != B.Region)
    return false;
  return A.Part < 0 || B.Part < 0 || A.Part == B.Part;
}

bool windowsApart(const Event &A, const Event &B) {
  if (A.Window < 0 || A.Window != B.Window || A.WindowFixed != B.WindowFixed)
    return false;
  long long D = A.WindowOffset - B.WindowOffset;
  if (D < 8 && D > -8)
    return false;
  return A.WindowFixed || (A.WindowEpoch >= 0 && A.WindowEpoch == B.WindowEpoch);
}

std::vector<Finding> loadWaitBeforeRead(const std::vector<Event> &Seq,
                                        const Flow &G, Silences *Why) {
  const char *Rule = "TMA-LOAD-WAIT-BEFORE-READ";
  std::vector<Finding> Out;
  ByObject Reads(Seq, EventKind::GenericRead);
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    if (Seq[L].Kind != EventKind::Load)
      continue;
    if (Seq[L].Object < 0) {
      silent(Why, Rule, L,
             "buffer unknown: the model cannot name the copy's destination");
      continue;
    }
    const auto &Candidates = Reads[Seq[L].Object];
    if (Candidates.empty()) {
      silent(Why, Rule, L,
             "no read of the buffer in the model (reads in helpers it "
             "cannot follow are none)");
      continue;
    }
    // The first read of the buffer on a path from the copy; any mbarrier
    // wait or unknown on a path in between silences it.
    Flow::Set Reached = G.search(L, true, false);
    std::optional<std::size_t> Read;
    for (std::size_t J : Candidates)
      if (Reached[J]) {
        Read = J;
        break;
      }
    if (!Read) {
      bool Round = Why && std::any_of(Candidates.begin(), Candidates.end(),
                               [&](std::size_t R) {
                                 return G.reaches(L, R, true);
                               });
      silent(Why, Rule, L,
             Round ? "the generic reads of the buffer follow the copy only "
                     "round a loop (the next pass's reads are not paired)"
                   : "the reads of the buffer lie on no path from the copy "
                     "(another role's branch: judged by the check across "
                     "roles)");
      continue;
    }
    // A wait on a barrier proven other than the copy's orders nothing
    // for it (barA's copy, barB's wait); one that may be the copy's does.
    std::optional<std::size_t> GroupWait, SilentAt, OtherWait;
    for (std::size_t J : G.between(L, *Read, false)) {
      const Event &E = Seq[J];
      // On the path from the copy, one thread: pool windows of one family
      // at different offsets with one index value are different barriers.
      // A cp.async.wait_group completes no cp.async.bulk.
      bool Other = E.Kind == EventKind::BarrierWait &&
                   (!mayBeSameBarrier(Seq[L], E) || windowsApart(Seq[L], E) ||
                    (E.CpAsyncGroups && Seq[L].BulkOnly));
      if (Other && !OtherWait)
        OtherWait = J;
      if (!SilentAt && ((E.Kind == EventKind::BarrierWait && !Other) ||
                        unknown(E)))
        SilentAt = J;
      if (E.Kind == EventKind::WaitGroup && (!GroupWait || J < *GroupWait))
        GroupWait = J;
    }
    if (SilentAt)
      silent(Why, Rule, L,
             unknown(Seq[*SilentAt])
                 ? "an opaque event lies between the copy and the first read"
                 : Seq[L].Region < 0 || Seq[*SilentAt].Region < 0
                       ? "an mbarrier wait lies between the copy and the "
                         "first read (the barriers are not told apart: "
                         "any barrier's wait counts)"
                       : "a wait on the copy's barrier lies between the "
                         "copy and the first read",
             SilentAt);
    else
    {
      Finding F{GroupWait ? "BULK-WAITGROUP-SCOPE"
                          : "TMA-LOAD-WAIT-BEFORE-READ",
                L, *Read, GroupWait, 0};
      F.Other = OtherWait;
      Out.push_back(F);
    }
  }
  return Out;
}

std::vector<Finding> loadWaitAcrossRoles(const std::vector<Event> &Seq,
                                         const Flow &G) {
  std::vector<Finding> Out;
  ByObject Reads(Seq, EventKind::GenericRead);
  ByObject Loads(Seq, EventKind::Load);
  ByObject Writes(Seq, EventKind::GenericWrite);
  // What may make the read wait: any barrier's wait (it may alias), a
  // thread barrier (the producer may wait before it), an unknown.
  std::vector<std::size_t> Orders;
  for (std::size_t J = 0; J < Seq.size(); ++J) {
    EventKind K = Seq[J].Kind;
    if (K == EventKind::BarrierWait || K == EventKind::ThreadSync ||
        unknown(Seq[J]))
      Orders.push_back(J);
  }
  auto Silences = [&](std::size_t J, int Object) {
    EventKind K = Seq[J].Kind;
    return K == EventKind::BarrierWait || K == EventKind::ThreadSync ||
           unknown(Seq[J]) || writes(Seq[J], Object);
  };
  // Per copy, computed on first need: what it reaches, what reaches it
  // (round loops), and what comes before it in its pass.
  struct Reach {
    Flow::Set After, Before, Earlier;
  };
  std::vector<std::unique_ptr<Reach>> Of(Seq.size());
  auto reach = [&](std::size_t L) -> const Reach & {
    if (!Of[L])
      Of[L] = std::make_unique<Reach>(Reach{G.search(L, true, true),
                                            G.search(L, false, true),
                                            G.search(L, false, false)});
    return *Of[L];
  };
  // A wait on member s of a family, outside a loop around the read that
  // moves s on every pass (Event::StageSteps), orders the read of one pass
  // at most: every other pass reads another stage, or the next fill of
  // the same one. It does not count when nothing else in that loop may
  // order the read (a wait on the next stage, a thread barrier, an
  // unknown, a write of the buffer), on any path round it.
  auto Stale = [&](std::size_t J, std::size_t R) {
    const Event &W = Seq[J];
    if (W.Kind != EventKind::BarrierWait || W.StageVar < 0)
      return false;
    for (const auto &[Var, Depth] : Seq[R].StageSteps) {
      if (Var != W.StageVar)
        continue;
      std::vector<const Flow::Set *> Loops = G.loopsAround(R);
      if (Depth >= Loops.size() || (*Loops[Depth])[G.nodeOf(J)])
        return false;
      Flow::Set In = G.search(
          R, false, true,
          [&](std::size_t K) { return Silences(K, Seq[R].Object); },
          Loops[Depth]);
      for (std::size_t K = 0; K < Seq.size(); ++K)
        if (In[K] && Silences(K, Seq[R].Object))
          return false;
      return true;
    }
    return false;
  };
  std::vector<bool> Reported(Seq.size(), false);
  for (std::size_t R = 0; R < Seq.size(); ++R) {
    const Event &Rd = Seq[R];
    if (Rd.Kind != EventKind::GenericRead || Rd.Object < 0 ||
        Loads[Rd.Object].empty())
      continue;
    // A generic write of the buffer before it on every path gives it other
    // data.
    const auto &Ws = Writes[Rd.Object];
    if (std::any_of(Ws.begin(), Ws.end(),
                    [&](std::size_t W) { return G.dominates(W, R); }))
      continue;
    // Backwards in the innermost loop around the read, round its back
    // edge: a wait there orders the read from the second pass on, and a
    // wait under a guard (one lane) before a warp barrier the model does
    // not see.
    if (const Flow::Set *Loop = G.loopOf(R)) {
      Flow::Set Before =
          G.search(R, false, true,
                   [&](std::size_t J) { return Silences(J, Rd.Object); },
                   Loop);
      bool Silent = false;
      for (std::size_t J = 0; J < Seq.size() && !Silent; ++J)
        Silent = Before[J] && Silences(J, Rd.Object);
      if (Silent)
        continue;
    }
    for (std::size_t L : Loads[Rd.Object]) {
      if (Reported[L])
        continue;
      const Reach &RL = reach(L);
      // A path between them: loadWaitBeforeRead's, or a read before the
      // copy.
      if (RL.After[R] || RL.Before[R])
        continue;
      // An ordering event before the read on every path that does not
      // also come before the copy (which it cannot wait for); an unknown
      // anywhere before the read.
      std::optional<std::size_t> StaleWait;
      if (std::any_of(Orders.begin(), Orders.end(), [&](std::size_t J) {
            if (!G.dominates(J, R) || (!unknown(Seq[J]) && RL.Earlier[J]))
              return false;
            if (!Stale(J, R))
              return true;
            StaleWait = J;
            return false;
          }))
        continue;
      Reported[L] = true;
      Finding F{"TMA-LOAD-WAIT-BEFORE-READ", L, R, std::nullopt, 0};
      F.Other = StaleWait;
      Out.push_back(F);
      break;
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
    return true;
  default:
    return false;
  }
}

std::vector<Finding> asyncWarFence(const std::vector<Event> &Seq,
                                   const Flow &G, Silences *Why) {
  const char *Rule = "ASYNC-WAR-FENCE";
  std::vector<Finding> Out;
  // An MMA's read orders with a later copy through the async proxy itself.
  ByObject Reads(Seq, EventKind::GenericRead, /*GenericOnly=*/true);
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    const Event &Ld = Seq[L];
    if (Ld.Kind != EventKind::Load)
      continue;
    if (Ld.Object < 0) {
      silent(Why, Rule, L,
             "buffer unknown: the model cannot name the copy's destination");
      continue;
    }
    const auto &Candidates = Reads[Ld.Object];
    if (Candidates.empty()) {
      silent(Why, Rule, L, "no generic read of the buffer in the model");
      continue;
    }
    auto IsRead = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::GenericRead && !Seq[J].Mma &&
             Seq[J].Object == Ld.Object;
    };
    // Backwards from the copy: in the innermost loop around it (through
    // its back edge), else to the kernel's entry; the nearest read first
    // (descending ids from L, then round from the last one).
    const Flow::Set *Loop = G.loopOf(L);
    Flow::Set Reached = G.search(
        L, false, Loop != nullptr,
        [&](std::size_t J) { return ordersWar(Seq[J]) || IsRead(J); }, Loop);
    std::optional<std::size_t> Read;
    auto Split = std::lower_bound(Candidates.begin(), Candidates.end(), L);
    for (auto It = Split; It != Candidates.begin() && !Read;)
      if (Reached[*--It])
        Read = *It;
    for (auto It = Candidates.end(); It != Split && !Read;)
      if (Reached[*--It])
        Read = *It;
    if (!Read) {
      silent(Why, Rule, L,
             "no generic read of the buffer before the copy (or round its "
             "loop) without a fence, thread barrier, mbarrier wait or arrive "
             "or an opaque event in between (a hand-off across roles is "
             "judged apart)");
      continue;
    }
    std::optional<std::size_t> Ordered;
    for (std::size_t J : G.between(*Read, L, Loop != nullptr, Loop))
      if (!Ordered && ordersWar(Seq[J]))
        Ordered = J;
    if (!Ordered)
      Out.push_back({"ASYNC-WAR-FENCE", *Read, L, std::nullopt, 0});
    else
      silent(Why, Rule, L,
             "a fence, thread barrier, mbarrier wait or arrive or an opaque "
             "event lies on a path between the nearest generic read and the "
             "copy (the policy counts a thread barrier as a hand-off)",
             Ordered);
  }
  return Out;
}

std::vector<Finding> asyncWarHandOff(const std::vector<Event> &Seq,
                                     const Flow &G) {
  std::vector<Finding> Out;
  ByObject Reads(Seq, EventKind::GenericRead, /*GenericOnly=*/true);
  auto Fences = [&](std::size_t J) {
    EventKind K = Seq[J].Kind;
    return K == EventKind::ProxyFence || K == EventKind::ThreadSync ||
           unknown(Seq[J]);
  };
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    const Event &Ld = Seq[L];
    if (Ld.Kind != EventKind::Load || Ld.Object < 0 ||
        Reads[Ld.Object].empty())
      continue;
    // The families whose waits come last before the copy (in its loop,
    // through the back edge).
    const Flow::Set *Loop = G.loopOf(L);
    Flow::Set Before = G.search(
        L, false, Loop != nullptr,
        [&](std::size_t J) { return Seq[J].Kind == EventKind::BarrierWait; },
        Loop);
    std::vector<int> Released;
    for (std::size_t J = 0; J < Seq.size(); ++J)
      if (Before[J] && Seq[J].Kind == EventKind::BarrierWait &&
          Seq[J].Family >= 0)
        Released.push_back(Seq[J].Family);
    if (Released.empty())
      continue;
    auto HandsBack = [&](std::size_t J) {
      const Event &E = Seq[J];
      return E.Kind == EventKind::BarrierUse && E.Role == UseRole::Arrive &&
             std::find(Released.begin(), Released.end(), E.Family) !=
                 Released.end();
    };
    for (std::size_t R : Reads[Ld.Object]) {
      // Reads with a path to the copy are asyncWarFence's.
      if (G.reaches(R, L, true))
        continue;
      auto A = first(G.search(R, true, false,
                              [&](std::size_t J) {
                                return Fences(J) || HandsBack(J);
                              }),
                     HandsBack);
      if (!A)
        continue;
      std::vector<std::size_t> Path = G.between(R, *A, false);
      if (std::any_of(Path.begin(), Path.end(), Fences))
        continue;
      Out.push_back({"ASYNC-WAR-FENCE", R, L, *A, 0});
      break;
    }
  }
  return Out;
}

std::vector<Finding> reuseBeforeRelease(const std::vector<Event> &Seq,
                                        const Flow &G, Silences *Why) {
  const char *Rule = "ASYNC-REUSE-BEFORE-RELEASE";
  std::vector<Finding> Out;
  ByObject Reads(Seq, EventKind::GenericRead);
  // What reaches an event and what it reaches, round loops: the code of
  // its role (and the code before and after the roles split).
  struct Reach {
    Flow::Set After, Before;
    bool has(std::size_t J) const { return After[J] || Before[J]; }
  };
  std::vector<std::unique_ptr<Reach>> Of(Seq.size());
  auto reach = [&](std::size_t E) -> const Reach & {
    if (!Of[E])
      Of[E] = std::make_unique<Reach>(
          Reach{G.search(E, true, true), G.search(E, false, true)});
    return *Of[E];
  };
  std::vector<bool> Reported(Seq.size(), false);
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    const Event &Ld = Seq[L];
    if (Ld.Kind != EventKind::Load || Ld.Object < 0 ||
        Reads[Ld.Object].empty())
      continue;
    const Reach &RL = reach(L);
    // Only readers in another role's code are this rule's.
    const auto &Rs = Reads[Ld.Object];
    if (std::all_of(Rs.begin(), Rs.end(),
                    [&](std::size_t R) { return RL.has(R); }))
      continue;
    if (!G.loopOf(L) || Ld.Once) {
      silent(Why, Rule, L,
             Ld.Once ? "the copy's loop fills each stage of its ring once (its "
                       "trip count is at most the ring's stages): no stage is "
                       "refilled"
                     : "the copy lies in no loop: it fills its buffer once, "
                       "and a refill is what needs the release");
      continue;
    }
    bool Judged = false;
    for (std::size_t R : Reads[Ld.Object]) {
      if (RL.has(R))
        continue; // the same role: the rules on paths judge it
      const Reach &RR = reach(R);
      auto Producer = [&](std::size_t J) { return RL.has(J) && !RR.has(J); };
      auto Consumer = [&](std::size_t J) { return RR.has(J) && !RL.has(J); };
      // The readers wait for the copy: a wait before the read that may be
      // on the copy's barrier.
      std::optional<std::size_t> Full;
      for (std::size_t J = 0; J < Seq.size() && !Full; ++J)
        if (Seq[J].Kind == EventKind::BarrierWait && RR.Before[J] &&
            Consumer(J) && Seq[J].Family >= 0 && mayBeSameBarrier(Ld, Seq[J]))
          Full = J;
      if (!Full)
        continue;
      // ... and hand the stage back: the first plain arrive after the read
      // (in its pass) on a named barrier of another family.
      std::optional<std::size_t> A = first(
          G.search(R, true, false,
                   [&](std::size_t J) {
                     return Seq[J].Kind == EventKind::BarrierUse &&
                            Seq[J].Role == UseRole::Arrive;
                   }),
          [&](std::size_t J) {
            const Event &E = Seq[J];
            return E.Kind == EventKind::BarrierUse &&
                   E.Role == UseRole::Arrive && E.Family >= 0 &&
                   E.Family != Seq[*Full].Family && Consumer(J);
          });
      if (!A)
        continue;
      Judged = true;
      if (Reported[*A])
        break;
      // The copy's threads: a wait that may be on the hand-back's barrier
      // releases the stage (its parity is MBAR-WAIT-PARITY's); a thread
      // barrier may be a hand-off the model does not pair; an unknown may
      // be anything.
      // Any barrier the readers arrive on may be the one they release the
      // stage through, not only the first after the read.
      std::vector<std::size_t> Arrives;
      for (std::size_t J = 0; J < Seq.size(); ++J)
        if (Seq[J].Kind == EventKind::BarrierUse &&
            Seq[J].Role == UseRole::Arrive && Consumer(J))
          Arrives.push_back(J);
      auto MayRelease = [&](const Event &W) {
        return W.Family < 0 ||
               std::any_of(Arrives.begin(), Arrives.end(), [&](std::size_t J) {
                 const Event &E = Seq[J];
                 return E.Family < 0 || E.Family == W.Family ||
                        mayBeSameBarrier(W, E);
               });
      };
      std::optional<std::size_t> Release;
      for (std::size_t J = 0; J < Seq.size() && !Release; ++J) {
        const Event &E = Seq[J];
        if (!Producer(J))
          continue;
        if (unknown(E) || (E.Kind == EventKind::ThreadSync && !E.Warp) ||
            (E.Kind == EventKind::BarrierWait && MayRelease(E)))
          Release = J;
      }
      if (Release) {
        silent(Why, Rule, L,
               unknown(Seq[*Release])
                   ? "an opaque event lies in the copy's threads' code"
                   : Seq[*Release].Kind == EventKind::ThreadSync
                         ? "a thread barrier in the copy's threads' code may "
                           "hand the stage back"
                         : "the copy's threads wait on a barrier that may be "
                           "one the readers arrive on",
               Release);
        break;
      }
      Reported[*A] = true;
      Finding F{Rule, R, L, *A, 0};
      F.Other = *Full;
      Out.push_back(F);
      break;
    }
    if (!Judged)
      silent(Why, Rule, L,
             "no reader in other threads' code that waits on the copy's "
             "barrier and then hands the buffer back with a plain arrive on "
             "a named barrier of another family");
  }
  return Out;
}

std::vector<Finding> expectAfterArrive(const std::vector<Event> &Seq,
                                       const Flow &G) {
  std::vector<Finding> Out;
  for (std::size_t A = 0; A < Seq.size(); ++A) {
    const Event &Ar = Seq[A];
    if (Ar.Kind != EventKind::BarrierUse || Ar.Role != UseRole::Arrive ||
        Ar.Object < 0)
      continue;
    auto Blocks = [&](std::size_t J) {
      const Event &E = Seq[J];
      return E.Kind == EventKind::BarrierWait || unknown(E) ||
             (E.Kind == EventKind::BarrierInit && E.Object == Ar.Object);
    };
    auto Expect = first(G.search(A, true, false), [&](std::size_t J) {
      const Event &E = Seq[J];
      return E.Kind == EventKind::BarrierUse && E.Role == UseRole::Expect &&
             E.Object == Ar.Object;
    });
    if (!Expect)
      continue;
    auto Path = G.between(A, *Expect, false);
    if (std::none_of(Path.begin(), Path.end(), Blocks))
      Out.push_back(
          {"MBAR-EXPECT-BEFORE-LAST-ARRIVE", A, *Expect, std::nullopt, 0});
  }
  return Out;
}

std::vector<Finding> waitByOtherThreads(const std::vector<Event> &Seq,
                                        const Flow &G,
                                        threads::BlockSize Block) {
  std::vector<Finding> Out;
  // Whether a thread that runs \p E issued nothing of the copy \p S: from
  // the thread sets when both are known, else from the control flow (the
  // copy does not dominate E).
  auto Outside = [&](std::size_t E, std::size_t S) -> std::optional<bool> {
    const Event &X = Seq[E], &St = Seq[S];
    if (X.Threads && St.Threads) {
      if (threads::includedIn(*X.Threads, *St.Threads, Block))
        return false;
      if (threads::provenOutside(*X.Threads, {St.Threads.get()}, Block))
        return true;
      return std::nullopt;
    }
    return !G.dominates(S, E);
  };
  for (std::size_t S = 0; S < Seq.size(); ++S) {
    const Event &St = Seq[S];
    // The whole buffer, or all of one stage of a ring (`out[it % S]`).
    // Not a stage chosen by the thread's index: another thread's write of
    // the same expression is of another stage.
    bool Ring = !St.WholeObject && St.Slice >= 0 && St.Period > 0 &&
                St.WholeSlice && !St.PerThread;
    if (!isStore(St) || !(St.WholeObject || Ring) || St.Object < 0 ||
        (!St.Guarded && !St.Threads))
      continue;
    // Over the events of one path from the copy, in order: the wait that
    // completes the group, then the write. Before that wait nothing is
    // complete, so neither a thread barrier nor an mbarrier wait can hand a
    // completion on; after it, both may (the issuer waits, then arrives or
    // syncs).
    struct Path {
      unsigned Commits = 0;
      std::optional<std::size_t> Cover, Write;
      bool Done = false;
      /// Round the loop, the copy dominates nothing of the next pass: only
      /// known thread sets tell the threads apart.
      bool Back = false;
    };
    auto Others = [&](const Path &P, std::size_t J) -> std::optional<bool> {
      if (P.Back && !(Seq[J].Threads && St.Threads))
        return std::nullopt;
      return Outside(J, S);
    };
    auto Feed = [&](Path &P, std::size_t J) {
      const Event &E = Seq[J];
      if (unknown(E)) {
        P.Done = true;
        return;
      }
      if (!P.Cover) {
        // A commit the issuing thread surely runs after the copy.
        if (E.Kind == EventKind::Commit && G.postDominates(J, S)) {
          ++P.Commits;
        } else if (E.Kind == EventKind::WaitGroup) {
          if (!E.Depth) {
            P.Done = true;
          } else if (P.Commits > *E.Depth) {
            // Executed by the issuing threads only: no scope error.
            auto O = Others(P, J);
            if (!O || !*O)
              P.Done = true;
            else
              P.Cover = J;
          }
        }
        return;
      }
      if (E.Kind == EventKind::ThreadSync || E.Kind == EventKind::WaitGroup ||
          E.Kind == EventKind::BarrierWait) {
        P.Done = true;
        return;
      }
      if (writes(E, St.Object) && (P.Back || G.reaches(*P.Cover, J, false))) {
        auto O = Others(P, J);
        if (!O)
          P.Done = true;
        else if (*O) {
          P.Write = J;
          P.Done = true;
        }
      }
    };
    if (Ring) {
      // The same stage Period passes later (stageReuse's path): the rest
      // of the copy's pass, Period - 1 whole passes, the last pass up to
      // the write. A write of the stage expression in a pass between is of
      // another stage: only the last one counts.
      const Flow::Set *Loop = G.loopOf(S);
      auto IsWrite = [&](std::size_t J) {
        const Event &E = Seq[J];
        return writes(E, St.Object) && E.SliceWrite && E.Slice == St.Slice &&
               (*Loop)[G.nodeOf(J)];
      };
      auto W = Loop ? first(G.search(S, true, true, IsWrite, Loop), IsWrite)
                    : std::nullopt;
      if (!W)
        continue;
      std::vector<std::size_t> Ways, Pass = G.between(S, S, true, Loop);
      for (unsigned P = 1; P < St.Period; ++P)
        Ways.insert(Ways.end(), Pass.begin(), Pass.end());
      std::vector<std::size_t> Last = G.between(S, *W, true, Loop);
      Ways.insert(Ways.end(), Last.begin(), Last.end());
      Path Lap;
      Lap.Back = true;
      for (std::size_t J : Ways) {
        if (!writes(Seq[J], St.Object))
          Feed(Lap, J);
        if (Lap.Done)
          break;
      }
      if (!Lap.Done)
        Feed(Lap, *W);
      if (Lap.Write == W)
        Out.push_back({"BULK-WAITGROUP-SCOPE", S, *W, Lap.Cover, Lap.Commits,
                       St.Period});
      continue;
    }
    // Forward, not round the copy's loop again.
    Flow::Set Reached = G.search(S, true, false);
    Path Fwd;
    for (std::size_t J = S + 1; J < Seq.size() && !Fwd.Done; ++J)
      if (Reached[J])
        Feed(Fwd, J);
    if (Fwd.Write) {
      Out.push_back({"BULK-WAITGROUP-SCOPE", S, *Fwd.Write, Fwd.Cover,
                     Fwd.Commits});
      continue;
    }
    // Round the copy's innermost loop into the next pass (a persistent
    // epilogue: the wait and the rewrite come before the copy in the body):
    // the events of the path to the first such write, in order.
    const Flow::Set *Loop = G.loopOf(S);
    if (!Loop)
      continue;
    for (std::size_t W = 0; W < S; ++W) {
      if (!writes(Seq[W], St.Object) || !(*Loop)[G.nodeOf(W)] ||
          !G.reaches(S, W, true, Loop))
        continue;
      Path Back;
      Back.Back = true;
      for (std::size_t J : G.between(S, W, true, Loop)) {
        Feed(Back, J);
        if (Back.Done)
          break;
      }
      if (!Back.Done)
        Feed(Back, W);
      if (Back.Write == W)
        Out.push_back({"BULK-WAITGROUP-SCOPE", S, W, Back.Cover,
                       Back.Commits});
      break;
    }
  }
  return Out;
}

std::vector<Finding> acquireAfterCopy(const std::vector<Event> &Seq,
                                      const Flow &G) {
  std::vector<Finding> Out;
  for (std::size_t C = 0; C < Seq.size(); ++C) {
    const Event &Cp = Seq[C];
    if ((Cp.Kind != EventKind::Load && Cp.Kind != EventKind::Store) ||
        Cp.Map < 0)
      continue;
    auto Acquires = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::MapAcquire && Seq[J].Map == Cp.Map;
    };
    // An acquire (or an unknown) on a path to the copy: not proven.
    if (first(G.search(C, false, false),
              [&](std::size_t J) { return Acquires(J) || unknown(Seq[J]); }))
      continue;
    if (auto J = first(G.search(C, true, false), Acquires))
      Out.push_back({"TMAP-PLACE-GLOBAL-FENCE", C, *J, std::nullopt, 0});
  }
  return Out;
}

std::vector<Finding> mapRewriteInFlight(const std::vector<Event> &Seq,
                                        const Flow &G, Silences *Why) {
  const char *Rule = "TMAP-INFLIGHT-IMMUTABLE";
  std::vector<Finding> Out;
  for (std::size_t C = 0; C < Seq.size(); ++C) {
    const Event &Cp = Seq[C];
    if ((Cp.Kind != EventKind::Load && Cp.Kind != EventKind::Store) ||
        Cp.Map < 0)
      continue;
    std::vector<std::size_t> Path;
    auto W = nextWrite(
        G, C,
        [&](std::size_t J) {
          return Seq[J].Kind == EventKind::MapWrite && Seq[J].Map == Cp.Map;
        },
        Path);
    // What lies between the copy and the write: a load completes only
    // through a wait (any mbarrier wait may pass its completion on; a
    // wait_group, as kernels wait for a load's read of its map before
    // rewriting it), a store through a wait_group deep enough.
    if (!W) {
      silent(Why, Rule, C,
             "no write of the tensor map after the copy (nor round its loop)");
      continue;
    }
    Verdict V;
    if (Cp.Kind == EventKind::Store) {
      scan(Seq, Path, V);
    } else {
      for (std::size_t J : Path)
        if (V.State == Verdict::Uncovered && unknown(Seq[J])) {
          V.State = Verdict::Unknown;
          V.By = J;
        } else if (V.State == Verdict::Uncovered &&
                   (Seq[J].Kind == EventKind::BarrierWait ||
                    Seq[J].Kind == EventKind::WaitGroup)) {
          V.State = Verdict::Covered;
          V.By = J;
        }
    }
    if (V.State == Verdict::Uncovered)
      Out.push_back({Rule, C, *W, V.Wait, V.Commits});
    else
      silent(Why, Rule, C,
             V.State == Verdict::Covered
                 ? "a wait between the copy and the map's rewrite completes "
                   "the copy"
                 : "an opaque event or a wait of unknown depth lies between "
                   "the copy and the map's rewrite",
             V.By);
  }
  return Out;
}

bool uninitialised(bool AllUsesKnown, unsigned Uses, unsigned Inits) {
  return AllUsesKnown && Uses > 0 && Inits == 0;
}

} // namespace tma::rules::ordering
