//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the ordering rules (rules/OrderingRules).
//
//===----------------------------------------------------------------------===//
//
// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE, BULK-S2G-WAIT-BEFORE-REUSE /
// TMA-STORE-WAIT (exit and reuse, wait depth against commits),
// MBAR-INIT-VISIBLE, MBAR-REINIT-INVAL and MBAR-UNINIT over small event
// sequences, each with the step that makes it correct, and the unknowns that
// make it silent.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
using namespace tma::rules::ordering::test;

namespace {

using K = EventKind;

Event ev(K Kind, int Object = -1) {
  Event E;
  E.Kind = Kind;
  E.Object = Object;
  return E;
}
Event store(int Object, bool Tensor = true) {
  Event E = ev(K::Store, Object);
  E.WholeObject = true;
  E.Tensor = Tensor;
  return E;
}
Event waitRead(std::uint64_t N) {
  Event E = ev(K::WaitGroup);
  E.Depth = N;
  return E;
}
/// `if (c) { E }` after \p Before.
Kern guarded(std::vector<Event> Before, Event E,
             std::vector<Event> After = {}) {
  Prog P;
  for (Event &B : Before)
    P << B;
  P.ifElse([&](Prog &Q) { Q << E; });
  for (Event &A : After)
    P << A;
  return P.done();
}
/// `while (c) { Body }` after \p Before.
Kern looped(std::vector<Event> Body, std::vector<Event> Before = {},
            std::vector<Event> After = {}) {
  Prog P;
  for (Event &B : Before)
    P << B;
  P.loop([&](Prog &Q) {
    for (Event &E : Body)
      Q << E;
  });
  for (Event &A : After)
    P << A;
  return P.done();
}

//===----------------------------------------------------------------------===//
// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE
//===----------------------------------------------------------------------===//

TEST(FenceBeforeStore, WriteThenStoreWithoutFence) {
  Kern Seq = guarded({ev(K::GenericWrite, 0), ev(K::ThreadSync)}, store(0));
  auto F = fenceBeforeStore(Seq);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMA-STORE-FENCE");
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 2u);
  Seq.Seq[2].Tensor = false;
  EXPECT_STREQ(fenceBeforeStore(Seq)[0].Rule, "BULK-S2G-FENCE-BEFORE");
}

TEST(FenceBeforeStore, FenceInBetween) {
  EXPECT_TRUE(fenceBeforeStore(guarded({ev(K::GenericWrite, 0),
                                        ev(K::ProxyFence), ev(K::ThreadSync)},
                                       store(0)))
                  .empty());
  // A fence in a branch on the way: silent (not proven missing).
  Prog P;
  P << ev(K::GenericWrite, 0);
  P.ifElse([](Prog &Q) { Q << ev(K::ProxyFence); });
  P << ev(K::ThreadSync) << store(0);
  EXPECT_TRUE(fenceBeforeStore(P.done()).empty());
}

TEST(FenceBeforeStore, OtherBufferOrUnknownOrOtherBranch) {
  EXPECT_TRUE(fenceBeforeStore({ev(K::GenericWrite, 1), store(0)}).empty());
  EXPECT_TRUE(fenceBeforeStore({ev(K::GenericWrite, 0), ev(K::Opaque),
                                store(0)})
                  .empty());
  // then-branch write, else-branch store: never on one path.
  Prog P;
  P.ifElse([](Prog &Q) { Q << ev(K::GenericWrite, 0); },
           [](Prog &Q) { Q << store(0); });
  EXPECT_TRUE(fenceBeforeStore(P.done()).empty());
  // A write after the store in a loop is not before it (this rule does not
  // look through the back edge).
  EXPECT_TRUE(
      fenceBeforeStore(looped({store(0), ev(K::GenericWrite, 0)})).empty());
  // Store with no known buffer.
  EXPECT_TRUE(fenceBeforeStore({ev(K::GenericWrite, 0), store(-1)}).empty());
}

TEST(FenceBeforeStore, FencedOldWriteUnfencedNewWrite) {
  std::vector<Event> Seq = {ev(K::GenericWrite, 0), ev(K::ProxyFence),
                            ev(K::GenericWrite, 0), store(0)};
  auto F = fenceBeforeStore(Seq);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 2u);
}

//===----------------------------------------------------------------------===//
// Waits at exit
//===----------------------------------------------------------------------===//

TEST(WaitBeforeExit, NoWaitAfterStore) {
  auto F = waitBeforeExit({store(0), ev(K::Commit)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMA-STORE-WAIT");
  EXPECT_STREQ(waitBeforeExit({store(0, false)})[0].Rule,
               "BULK-S2G-WAIT-BEFORE-REUSE");
}

TEST(WaitBeforeExit, WaitOrUnknownAfterStore) {
  EXPECT_TRUE(waitBeforeExit({store(0), ev(K::Commit), waitRead(0)}).empty());
  EXPECT_TRUE(waitBeforeExit({store(0), ev(K::Opaque)}).empty());
  // More groups committed since the copy than the wait leaves pending.
  EXPECT_TRUE(waitBeforeExit({store(0), ev(K::Commit), ev(K::Commit),
                              waitRead(1)})
                  .empty());
}

TEST(WaitBeforeExit, LastWaitTooShallow) {
  // wait_group.read 3 after one commit leaves the copy's group pending.
  auto F = waitBeforeExit({store(0), ev(K::Commit), waitRead(3)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(2));
  EXPECT_EQ(F[0].Commits, 1u);
  // Two stores, two groups, wait_group.read 1: only the second is pending.
  F = waitBeforeExit({store(0), ev(K::Commit), store(1), ev(K::Commit),
                      waitRead(1)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 2u);
  // for (...) { store; commit; } wait_group.read 1: the last pass's group.
  EXPECT_EQ(
      waitBeforeExit(looped({store(0), ev(K::Commit)}, {}, {waitRead(1)}))
          .size(),
      1u);
  // No commit before the wait: unjudged (one the model misses may be).
  EXPECT_TRUE(waitBeforeExit({store(0), waitRead(1)}).empty());
  // A commit in a loop after the copy may be passed any number of times.
  Prog P;
  P << store(0) << ev(K::Commit);
  P.loop([](Prog &Q) { Q << ev(K::Commit); });
  P << waitRead(1);
  EXPECT_TRUE(waitBeforeExit(P.done()).empty());
}

TEST(WaitBeforeExit, WaitOnlyBeforeTheStoreInTheLoop) {
  // for (...) { wait_group.read 0; store; commit; }  -- the last one is not
  // waited for before exit.
  auto F = waitBeforeExit(looped({waitRead(0), store(0), ev(K::Commit)}));
  EXPECT_EQ(F.size(), 1u);
  // ... and is when a wait follows the loop.
  EXPECT_TRUE(waitBeforeExit(looped({waitRead(0), store(0), ev(K::Commit)},
                                    {}, {waitRead(0)}))
                  .empty());
}

//===----------------------------------------------------------------------===//
// Waits before reuse
//===----------------------------------------------------------------------===//

TEST(WaitBeforeReuse, CopyIntoTheSource) {
  // A bulk or TMA load refilling the store's source overwrites it too.
  Event Refill = ev(K::Load, 0);
  auto F = waitBeforeReuse({store(0), ev(K::Commit), waitRead(1), Refill});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Second, 3u);
  EXPECT_TRUE(
      waitBeforeReuse({store(0), ev(K::Commit), waitRead(0), Refill}).empty());
  // A load into another buffer overwrites nothing the store reads.
  EXPECT_TRUE(
      waitBeforeReuse({store(0), ev(K::Commit), ev(K::Load, 1)}).empty());
}

TEST(WaitBeforeReuse, ForwardWithoutWait) {
  auto F = waitBeforeReuse(
      {store(0), ev(K::Commit), ev(K::ThreadSync), ev(K::GenericWrite, 0)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 3u);
  EXPECT_FALSE(F[0].Wait);
}

TEST(WaitBeforeReuse, DepthAgainstCommits) {
  // One group since the copy: wait_group.read 0 covers it, 1 does not.
  EXPECT_TRUE(waitBeforeReuse({store(0), ev(K::Commit), waitRead(0),
                               ev(K::GenericWrite, 0)})
                  .empty());
  auto F = waitBeforeReuse(
      {store(0), ev(K::Commit), waitRead(1), ev(K::GenericWrite, 0)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(2));
  EXPECT_EQ(F[0].Commits, 1u);
  // Two groups since the copy: wait_group.read 1 covers it.
  EXPECT_TRUE(waitBeforeReuse({store(0), ev(K::Commit), ev(K::Commit),
                               waitRead(1), ev(K::GenericWrite, 0)})
                  .empty());
  // Not committed: no wait covers it.
  EXPECT_EQ(
      waitBeforeReuse({store(0), waitRead(0), ev(K::GenericWrite, 0)}).size(),
      1u);
}

TEST(WaitBeforeReuse, UnknownDepthOrOpaque) {
  Event Unknown = ev(K::WaitGroup);
  EXPECT_TRUE(waitBeforeReuse({store(0), ev(K::Commit), Unknown,
                               ev(K::GenericWrite, 0)})
                  .empty());
  EXPECT_TRUE(waitBeforeReuse({store(0), ev(K::Opaque),
                               ev(K::GenericWrite, 0)})
                  .empty());
}

TEST(WaitBeforeReuse, PartOfTheBufferIsNotProven) {
  Event S = store(0);
  S.WholeObject = false;
  EXPECT_TRUE(waitBeforeReuse({S, ev(K::GenericWrite, 0)}).empty());
}

TEST(WaitBeforeReuse, ThroughTheBackEdge) {
  // for (...) { write; fence; sync; store; commit; [wait N] }
  std::vector<Event> Body = {ev(K::GenericWrite, 0), ev(K::ProxyFence),
                             ev(K::ThreadSync), store(0), ev(K::Commit)};
  auto F = waitBeforeReuse(looped(Body));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 3u);
  EXPECT_EQ(F[0].Second, 0u);
  // wait_group.read 0 at the top of the body covers it.
  Body.insert(Body.begin(), waitRead(0));
  EXPECT_TRUE(waitBeforeReuse(looped(Body)).empty());
  // wait_group.read 1 there does not.
  Body[0].Depth = 1;
  EXPECT_EQ(waitBeforeReuse(looped(Body)).size(), 1u);
}

/// A stage of buffer 0 (Event::Slice 7) in a ring of \p Period.
Event staged(Event E, unsigned Period) {
  E.WholeObject = false;
  E.Slice = 7;
  E.Period = Period;
  return E;
}

TEST(WaitBeforeReuse, StageLaterInThePass) {
  // store(stage); commit; wait N; load(stage): the same stage.
  Event St = staged(store(0, false), 2), Ld = staged(ev(K::Load, 0), 2);
  auto F = waitBeforeReuse({St, ev(K::Commit), waitRead(1), Ld});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Laps, 0u);
  EXPECT_EQ(F[0].Commits, 1u);
  EXPECT_TRUE(waitBeforeReuse({St, ev(K::Commit), waitRead(0), Ld}).empty());
  // Another stage (or an unknown one) is no overwrite.
  Event Other = Ld;
  Other.Slice = 8;
  EXPECT_TRUE(waitBeforeReuse({St, ev(K::Commit), waitRead(1), Other}).empty());
  Other.Slice = -1;
  EXPECT_TRUE(waitBeforeReuse({St, ev(K::Commit), waitRead(1), Other}).empty());
}

TEST(WaitBeforeReuse, StageLapsLater) {
  // for (...) { wait N; load(stage k % 2); store(stage); commit }: the
  // stage comes back two passes later, after two commits.
  auto Body = [](std::uint64_t N, unsigned Period) {
    return std::vector<Event>{waitRead(N), staged(ev(K::Load, 0), Period),
                              staged(store(0, false), Period), ev(K::Commit)};
  };
  auto F = waitBeforeReuse(looped(Body(2, 2)));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 2u);
  EXPECT_EQ(F[0].Second, 1u);
  EXPECT_EQ(F[0].Laps, 2u);
  EXPECT_EQ(F[0].Commits, 2u);
  EXPECT_TRUE(waitBeforeReuse(looped(Body(1, 2))).empty());
  // A ring of 3: wait_group.read 2 covers it.
  EXPECT_TRUE(waitBeforeReuse(looped(Body(2, 3))).empty());
  EXPECT_EQ(waitBeforeReuse(looped(Body(3, 3))).size(), 1u);
  // The same stage every pass: one pass later.
  EXPECT_EQ(waitBeforeReuse(looped(Body(1, 1))).size(), 1u);
  EXPECT_TRUE(waitBeforeReuse(looped(Body(0, 1))).empty());
  // No period known: only the same pass counts.
  EXPECT_TRUE(waitBeforeReuse(looped(Body(5, 0))).empty());
  // A generic write into the stage overwrites a store of all of it only.
  Event W = staged(ev(K::GenericWrite, 0), 2);
  W.SliceWrite = true;
  Event St = staged(store(0, false), 2);
  std::vector<Event> Epi = {waitRead(2), W, St, ev(K::Commit)};
  EXPECT_TRUE(waitBeforeReuse(looped(Epi)).empty());
  Epi[2].WholeSlice = true;
  EXPECT_EQ(waitBeforeReuse(looped(Epi)).size(), 1u);
}

TEST(WaitBeforeReuse, StageOfTheThread) {
  // for (...) { write(sOut[warp]); store(sOut[warp]) by lane 0; commit }:
  // the stage is the thread's own, the same every pass in that thread.
  namespace th = tma::rules::threads;
  auto Set = [](std::vector<std::pair<th::Cond, bool>> Guards) {
    th::ThreadSet S;
    S.Guards = std::move(Guards);
    return std::make_shared<const th::ThreadSet>(std::move(S));
  };
  th::Cond Lane0 = th::Cond::atom({{th::Step::Mod, 32}}, th::Cmp::EQ, 0);
  th::Cond Warp1 = th::Cond::atom({{th::Step::Div, 32}}, th::Cmp::EQ, 1);
  Event W = staged(ev(K::GenericWrite, 0), 1);
  W.SliceWrite = true;
  W.PerThread = true;
  Event St = staged(store(0, true), 1);
  St.WholeSlice = true;
  St.PerThread = true;
  St.Threads = Set({{Lane0, true}});
  St.Guarded = true;
  // Written by every thread: the issuing lanes rewrite their own stage.
  W.Threads = Set({});
  EXPECT_EQ(waitBeforeReuse(looped({W, St, ev(K::Commit)})).size(), 1u);
  EXPECT_TRUE(
      waitBeforeReuse(looped({waitRead(0), W, St, ev(K::Commit)})).empty());
  // Written by warp 1 only: lane 0 of warp 0 stores a stage no writer names.
  W.Threads = Set({{Warp1, true}});
  EXPECT_TRUE(waitBeforeReuse(looped({W, St, ev(K::Commit)})).empty());
  // Threads unknown: unproven.
  W.Threads = nullptr;
  EXPECT_TRUE(waitBeforeReuse(looped({W, St, ev(K::Commit)})).empty());
}

//===----------------------------------------------------------------------===//
// MBAR-INIT-VISIBLE
//===----------------------------------------------------------------------===//

TEST(InitVisible, GuardedInitThenUseByAll) {
  auto Make = [](std::vector<Event> After) {
    Prog P;
    P.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0) << ev(K::ProxyFence); });
    for (Event &E : After)
      P << E;
    return P.done();
  };
  auto F = initVisible(Make({ev(K::BarrierWait, 0)}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "MBAR-INIT-VISIBLE");
  EXPECT_EQ(F[0].Second, 2u);
  EXPECT_TRUE(
      initVisible(Make({ev(K::ThreadSync), ev(K::BarrierWait, 0)})).empty());
  // A thread barrier on one path in between: the other path reaches the use
  // past none; the note points at the barrier it skips.
  Prog P;
  P.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0); });
  P.ifElse([](Prog &Q) { Q << ev(K::ThreadSync); });
  P << ev(K::BarrierWait, 0);
  Kern Run = P.done();
  F = initVisible(Run);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "MBAR-INIT-VISIBLE");
  ASSERT_TRUE(F[0].Other.has_value());
  EXPECT_EQ(Run.Seq[*F[0].Other].Kind, K::ThreadSync);
}

TEST(InitVisible, SilentCases) {
  // The same guard again: possibly the initialising thread only.
  Prog Again;
  Again.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0); });
  Again.ifElse([](Prog &Q) { Q << ev(K::BarrierUse, 0); });
  EXPECT_TRUE(initVisible(Again.done()).empty());
  // An unguarded init (every thread initialises).
  EXPECT_TRUE(initVisible({ev(K::BarrierInit, 0), ev(K::BarrierUse, 0)})
                  .empty());
  // An early return before: `if (threadIdx.x != 0) return;` leaves the
  // initialising thread only (what follows is guarded).
  Prog Ret;
  Ret.ifElse([](Prog &Q) { Q.ret(); });
  Ret.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0); });
  Ret << ev(K::BarrierUse, 0);
  EXPECT_TRUE(initVisible(Ret.done()).empty());
  // Another barrier's wait may synchronise; an unknown call may.
  EXPECT_TRUE(initVisible(guarded({}, ev(K::BarrierInit, 0),
                                  {ev(K::BarrierWait, 1),
                                   ev(K::BarrierUse, 0)}))
                  .empty());
  EXPECT_TRUE(initVisible(guarded({}, ev(K::BarrierInit, 0),
                                  {ev(K::Opaque), ev(K::BarrierUse, 0)}))
                  .empty());
}

//===----------------------------------------------------------------------===//
// MBAR-REINIT-INVAL
//===----------------------------------------------------------------------===//

TEST(ReinitInLoop, InitAndUseInOneLoop) {
  Event Init = ev(K::BarrierInit, 0);
  Init.FixedObject = true;
  std::vector<Event> Body = {Init, ev(K::ThreadSync), ev(K::BarrierWait, 0)};
  auto F = reinitInLoop(looped(Body));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Second, 2u);
  // Invalidated in the loop: legal.
  Body.push_back(ev(K::BarrierInval, 0));
  EXPECT_TRUE(reinitInLoop(looped(Body)).empty());
}

TEST(ReinitInLoop, SilentCases) {
  Event Init = ev(K::BarrierInit, 0);
  // bar[i] in `for (i < S) init(&bar[i])`: a different barrier each pass.
  EXPECT_TRUE(reinitInLoop(looped({Init, ev(K::BarrierUse, 0)})).empty());
  Init.FixedObject = true;
  // No use in the loop.
  EXPECT_TRUE(
      reinitInLoop(looped({Init}, {}, {ev(K::BarrierUse, 0)})).empty());
  // A break that ends every pass: the loop never comes back to the init.
  Prog Once;
  Once.loop([&](Prog &Q) { Q << Init << ev(K::BarrierUse, 0); Q.brk(); });
  EXPECT_TRUE(reinitInLoop(Once.done()).empty());
  // A break on one path only: the next pass may re-initialise it.
  Prog Maybe;
  Maybe.loop([&](Prog &Q) {
    Q << Init << ev(K::BarrierUse, 0);
    Q.ifElse([](Prog &R) { R.brk(); });
  });
  EXPECT_EQ(reinitInLoop(Maybe.done()).size(), 1u);
  // Init outside the loop.
  EXPECT_TRUE(reinitInLoop(looped({ev(K::BarrierUse, 0)}, {Init})).empty());
}

//===----------------------------------------------------------------------===//
// TMA-LOAD-WAIT-BEFORE-READ / BULK-WAITGROUP-SCOPE
//===----------------------------------------------------------------------===//

Event use(int Barrier, UseRole Role) {
  Event E = ev(K::BarrierUse, Barrier);
  E.Role = Role;
  return E;
}

Event load(int Buffer, int Barrier) {
  Event E = ev(K::Load, Buffer);
  E.Barrier = Barrier;
  return E;
}

TEST(LoadWaitBeforeRead, ReadWithoutWait) {
  auto F = loadWaitBeforeRead(
      guarded({}, load(0, 1), {ev(K::ThreadSync), ev(K::GenericRead, 0)}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMA-LOAD-WAIT-BEFORE-READ");
  EXPECT_EQ(F[0].Second, 2u);
  EXPECT_TRUE(loadWaitBeforeRead(guarded({}, load(0, 1),
                                         {ev(K::BarrierWait, 1),
                                          ev(K::GenericRead, 0)}))
                  .empty());
  // A wait on one path in between: silent.
  Prog P;
  P << load(0, 1);
  P.ifElse([](Prog &Q) { Q << ev(K::BarrierWait, 1); });
  P << ev(K::GenericRead, 0);
  EXPECT_TRUE(loadWaitBeforeRead(P.done()).empty());
}

TEST(LoadWaitBeforeRead, BulkGroupWaitIsNotAnMbarrierWait) {
  Prog P;
  P.ifElse([](Prog &Q) { Q << load(0, 1) << waitRead(0); });
  P << ev(K::ThreadSync) << ev(K::GenericRead, 0);
  auto F = loadWaitBeforeRead(P.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "BULK-WAITGROUP-SCOPE");
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(1));
}

TEST(LoadWaitBeforeRead, SilentCases) {
  // Another buffer, another branch (a consumer warp), an unknown call.
  EXPECT_TRUE(loadWaitBeforeRead({load(0, 1), ev(K::GenericRead, 2)}).empty());
  Prog Warps;
  Warps.ifElse([](Prog &Q) { Q << load(0, 1); },
               [](Prog &Q) { Q << ev(K::GenericRead, 0); });
  EXPECT_TRUE(loadWaitBeforeRead(Warps.done()).empty());
  EXPECT_TRUE(loadWaitBeforeRead({load(0, 1), ev(K::Opaque),
                                  ev(K::GenericRead, 0)})
                  .empty());
  // A wait on any barrier (it may alias): silent.
  EXPECT_TRUE(loadWaitBeforeRead({load(0, 1), ev(K::BarrierWait, 3),
                                  ev(K::GenericRead, 0)})
                  .empty());
}

//===----------------------------------------------------------------------===//
// ASYNC-WAR-FENCE
//===----------------------------------------------------------------------===//

TEST(AsyncWarFence, ReadThenReloadWithNothingBetween) {
  auto F = asyncWarFence(guarded({ev(K::GenericRead, 0)}, load(0, 1)));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "ASYNC-WAR-FENCE");
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 1u);
}

TEST(AsyncWarFence, ThroughTheBackEdge) {
  // for (...) { if (t0) load; wait; read; }  -- the next load overtakes.
  auto Make = [](bool Sync) {
    Prog P;
    P.loop([&](Prog &Q) {
      Q.ifElse([](Prog &R) { R << load(0, 1); });
      Q << ev(K::BarrierWait, 1) << ev(K::GenericRead, 0);
      if (Sync)
        Q << ev(K::ThreadSync);
    });
    return P.done();
  };
  auto F = asyncWarFence(Make(false));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 2u);
  // __syncthreads() at the end of the body orders it (the policy).
  EXPECT_TRUE(asyncWarFence(Make(true)).empty());
}

TEST(AsyncWarFence, AnyOrderingSilences) {
  for (K Kind : {K::ProxyFence, K::ThreadSync, K::BarrierWait, K::Opaque})
    EXPECT_TRUE(
        asyncWarFence({ev(K::GenericRead, 0), ev(Kind, 4), load(0, 1)})
            .empty());
  // A plain arrive hands the buffer over; the issuer's expect-tx does not.
  EXPECT_TRUE(asyncWarFence({ev(K::GenericRead, 0), use(4, UseRole::Arrive),
                             load(0, 1)})
                  .empty());
  EXPECT_EQ(asyncWarFence({ev(K::GenericRead, 0), use(1, UseRole::Other),
                           load(0, 1)})
                .size(),
            1u);
}

//===----------------------------------------------------------------------===//
// MBAR-EXPECT-BEFORE-LAST-ARRIVE
//===----------------------------------------------------------------------===//

TEST(ExpectAfterArrive, ArriveThenExpect) {
  auto F = expectAfterArrive(
      {use(0, UseRole::Arrive), use(0, UseRole::Other),
       use(0, UseRole::Expect)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "MBAR-EXPECT-BEFORE-LAST-ARRIVE");
  EXPECT_EQ(F[0].Second, 2u);
}

TEST(ExpectAfterArrive, SilentCases) {
  // Expect first, then arrive: the right order.
  EXPECT_TRUE(expectAfterArrive({use(0, UseRole::Expect),
                                 use(0, UseRole::Arrive)})
                  .empty());
  // Another barrier, a wait in between, other branches.
  EXPECT_TRUE(expectAfterArrive({use(0, UseRole::Arrive),
                                 use(1, UseRole::Expect)})
                  .empty());
  EXPECT_TRUE(expectAfterArrive({use(0, UseRole::Arrive),
                                 ev(K::BarrierWait, 0),
                                 use(0, UseRole::Expect)})
                  .empty());
  Prog P;
  P.ifElse([](Prog &Q) { Q << use(0, UseRole::Arrive); },
           [](Prog &Q) { Q << use(0, UseRole::Expect); });
  EXPECT_TRUE(expectAfterArrive(P.done()).empty());
}

//===----------------------------------------------------------------------===//
// BULK-WAITGROUP-SCOPE: the wait of threads that committed nothing
//===----------------------------------------------------------------------===//

TEST(WaitByOtherThreads, AllThreadsWaitThenWrite) {
  // if (t0) { store; commit; } wait_group.read 0; buf[tid] = ...;
  auto Make = [](std::vector<Event> After) {
    Prog P;
    P.ifElse([](Prog &Q) { Q << store(0) << ev(K::Commit); });
    for (Event &E : After)
      P << E;
    return P.done();
  };
  auto F = waitByOtherThreads(Make({waitRead(0), ev(K::GenericWrite, 0)}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "BULK-WAITGROUP-SCOPE");
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(2));
  EXPECT_EQ(F[0].Second, 3u);
  // __syncthreads() after the wait: the others wait for the issuer.
  EXPECT_TRUE(waitByOtherThreads(Make({waitRead(0), ev(K::ThreadSync),
                                       ev(K::GenericWrite, 0)}))
                  .empty());
}

TEST(WaitByOtherThreads, SilentCases) {
  // The issuer waits (in its own branch), or the write is the issuer's.
  Prog Own;
  Own.ifElse([](Prog &Q) { Q << store(0) << ev(K::Commit) << waitRead(0); });
  Own << ev(K::GenericWrite, 0);
  EXPECT_TRUE(waitByOtherThreads(Own.done()).empty());
  // An unguarded store: every thread issued and waits for its own.
  EXPECT_TRUE(waitByOtherThreads({store(0), ev(K::Commit), waitRead(0),
                                  ev(K::GenericWrite, 0)})
                  .empty());
  // The wait does not cover the group: waitBeforeReuse's case, not this.
  Prog Shallow;
  Shallow.ifElse([](Prog &Q) { Q << store(0) << ev(K::Commit); });
  Shallow << waitRead(1) << ev(K::GenericWrite, 0);
  EXPECT_TRUE(waitByOtherThreads(Shallow.done()).empty());
}

//===----------------------------------------------------------------------===//
// TMAP-PLACE-GLOBAL-FENCE, ordering half
//===----------------------------------------------------------------------===//

Event mapped(Event E, int Map) {
  E.Map = Map;
  return E;
}

TEST(AcquireAfterCopy, FenceOnlyAfterTheCopy) {
  auto F = acquireAfterCopy({mapped(load(0, 1), 7), mapped(ev(K::MapAcquire), 7)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMAP-PLACE-GLOBAL-FENCE");
  EXPECT_EQ(F[0].Second, 1u);
}

TEST(AcquireAfterCopy, SilentCases) {
  // Acquired before; another map; no fence at all (tma-tensor-map-placement
  // reports that); an unknown call before the copy.
  EXPECT_TRUE(acquireAfterCopy({mapped(ev(K::MapAcquire), 7),
                                mapped(load(0, 1), 7),
                                mapped(ev(K::MapAcquire), 7)})
                  .empty());
  EXPECT_TRUE(acquireAfterCopy({mapped(load(0, 1), 7),
                                mapped(ev(K::MapAcquire), 8)})
                  .empty());
  EXPECT_TRUE(acquireAfterCopy({mapped(load(0, 1), 7)}).empty());
  EXPECT_TRUE(acquireAfterCopy({ev(K::Opaque), mapped(load(0, 1), 7),
                                mapped(ev(K::MapAcquire), 7)})
                  .empty());
}

//===----------------------------------------------------------------------===//
// TMAP-INFLIGHT-IMMUTABLE
//===----------------------------------------------------------------------===//

Event mapWrite(int Map) { return mapped(ev(K::MapWrite), Map); }

TEST(MapRewriteInFlight, LoadThenRewriteWithoutWait) {
  auto F = mapRewriteInFlight({mapped(load(0, 1), 7), ev(K::ThreadSync),
                               mapWrite(7)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMAP-INFLIGHT-IMMUTABLE");
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 2u);
  // Any mbarrier wait in between: the load is complete (or handed on).
  EXPECT_TRUE(mapRewriteInFlight({mapped(load(0, 1), 7),
                                  ev(K::BarrierWait, 1), mapWrite(7)})
                  .empty());
  EXPECT_TRUE(mapRewriteInFlight({mapped(load(0, 1), 7),
                                  ev(K::BarrierWait, 5), mapWrite(7)})
                  .empty());
  // A wait_group in between: kernels wait so for a load's read of its map.
  EXPECT_TRUE(mapRewriteInFlight({mapped(load(0, 1), 7), ev(K::Commit),
                                  waitRead(0), mapWrite(7)})
                  .empty());
}

TEST(MapRewriteInFlight, StoreAgainstTheWaitDepth) {
  Event St = mapped(store(0), 7);
  // Not committed, or committed and waited one group too shallow.
  EXPECT_EQ(mapRewriteInFlight({St, waitRead(0), mapWrite(7)}).size(), 1u);
  auto F = mapRewriteInFlight({St, ev(K::Commit), waitRead(1), mapWrite(7)});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(2));
  EXPECT_EQ(F[0].Commits, 1u);
  // wait_group.read 0 after the commit completes it; N = 1 with two
  // commits since too.
  EXPECT_TRUE(
      mapRewriteInFlight({St, ev(K::Commit), waitRead(0), mapWrite(7)})
          .empty());
  EXPECT_TRUE(mapRewriteInFlight({St, ev(K::Commit), ev(K::Commit),
                                  waitRead(1), mapWrite(7)})
                  .empty());
  // A store is not completed by an mbarrier wait.
  EXPECT_EQ(mapRewriteInFlight({St, ev(K::Commit), ev(K::BarrierWait, 1),
                                mapWrite(7)})
                .size(),
            1u);
}

TEST(MapRewriteInFlight, ThroughTheBackEdge) {
  // for (...) { rewrite; load; }: the next pass rewrites the map the last
  // load may still read; a wait anywhere in the loop silences it.
  auto F = mapRewriteInFlight(looped({mapWrite(7), mapped(load(0, 1), 7)}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 1u);
  EXPECT_EQ(F[0].Second, 0u);
  EXPECT_TRUE(mapRewriteInFlight(looped({ev(K::BarrierWait, 2), mapWrite(7),
                                         mapped(load(0, 1), 7)}))
                  .empty());
  EXPECT_TRUE(mapRewriteInFlight(looped({mapWrite(7), mapped(load(0, 1), 7),
                                         ev(K::BarrierWait, 1)}))
                  .empty());
  // The rewrite before the loop is no rewrite after the copy.
  EXPECT_TRUE(
      mapRewriteInFlight(looped({mapped(load(0, 1), 7)}, {mapWrite(7)}))
          .empty());
}

TEST(MapRewriteInFlight, SilentCases) {
  // Another map, an unknown map, an unknown call or a jump in between, the
  // rewrite in the other branch, a rewrite before the copy only.
  EXPECT_TRUE(
      mapRewriteInFlight({mapped(load(0, 1), 7), mapWrite(8)}).empty());
  EXPECT_TRUE(mapRewriteInFlight({load(0, 1), mapWrite(7)}).empty());
  EXPECT_TRUE(mapRewriteInFlight({mapped(load(0, 1), 7), ev(K::Opaque),
                                  mapWrite(7)})
                  .empty());
  Prog P;
  P.ifElse([](Prog &Q) { Q << mapped(load(0, 1), 7); },
           [](Prog &Q) { Q << mapWrite(7); });
  EXPECT_TRUE(mapRewriteInFlight(P.done()).empty());
  EXPECT_TRUE(
      mapRewriteInFlight({mapWrite(7), mapped(load(0, 1), 7)}).empty());
  EXPECT_TRUE(mapRewriteInFlight({mapped(store(0), 7), waitRead(0)}).empty());
}

//===----------------------------------------------------------------------===//
// MBAR-UNINIT
//===----------------------------------------------------------------------===//

TEST(Uninitialised, Boundaries) {
  EXPECT_TRUE(uninitialised(true, 1, 0));
  EXPECT_FALSE(uninitialised(true, 1, 1));
  EXPECT_FALSE(uninitialised(false, 1, 0));
  EXPECT_FALSE(uninitialised(true, 0, 0));
}

} // namespace
