//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the ordering rules that read the threads
// of each event (rules/OrderingRules with rules/ThreadSets).
//
//===----------------------------------------------------------------------===//
//
// BULK-WAITGROUP-SCOPE decided by thread sets where they are known (the
// same thread in two blocks, a warp waiting for one thread), the guards'
// control flow where they are not; TMA-STORE-FENCE with fences that do or do
// not run in the writing threads; MBAR-INIT-VISIBLE for barriers used by
// a role (a producer or consumer branch) and for families initialised in
// a loop.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
using namespace tma::rules::ordering::test;
namespace th = tma::rules::threads;

namespace {

using K = EventKind;

std::shared_ptr<const th::ThreadSet> set(th::ThreadSet S) {
  return std::make_shared<const th::ThreadSet>(std::move(S));
}
std::shared_ptr<const th::ThreadSet> thread0() {
  return set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::EQ, 0), true));
}
std::shared_ptr<const th::ThreadSet> below(std::int64_t N) {
  return set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::LT, N), true));
}
std::shared_ptr<const th::ThreadSet> everyone() { return set(th::ThreadSet()); }

Event ev(K Kind, int Object, std::shared_ptr<const th::ThreadSet> T) {
  Event E;
  E.Kind = Kind;
  E.Object = Object;
  E.Threads = std::move(T);
  return E;
}
Event store(std::shared_ptr<const th::ThreadSet> T) {
  Event E = ev(K::Store, 0, std::move(T));
  E.WholeObject = true;
  E.Tensor = true;
  return E;
}
Event wait0(std::shared_ptr<const th::ThreadSet> T) {
  Event E = ev(K::WaitGroup, -1, std::move(T));
  E.Depth = 0;
  return E;
}

/// Each group of events in its own `if (c) { ... }` (an empty group: at
/// the top level).
Kern blocks(std::vector<std::vector<Event>> Groups, std::vector<bool> Guarded) {
  Prog P;
  for (std::size_t I = 0; I < Groups.size(); ++I) {
    if (!Guarded[I]) {
      for (Event &E : Groups[I])
        P << E;
      continue;
    }
    P.ifElse([&](Prog &Q) {
      for (Event &E : Groups[I])
        Q << E;
    });
  }
  return P.done();
}

TEST(WaitByOtherThreads, SameThreadInTwoBlocks) {
  // if (t == 0) { store; commit; }  if (t == 0) wait;  if (t == 0) write;
  auto Make = [](bool Sets) {
    auto T = [&] { return Sets ? thread0() : nullptr; };
    return blocks({{store(T()), ev(K::Commit, -1, T())},
                   {wait0(T())},
                   {ev(K::GenericWrite, 0, T())}},
                  {true, true, true});
  };
  EXPECT_TRUE(waitByOtherThreads(Make(true)).empty());
  // Without thread sets the control flow decides (and reports: the copy
  // does not dominate the wait).
  EXPECT_EQ(waitByOtherThreads(Make(false)).size(), 1u);
}

TEST(WaitByOtherThreads, ThroughTheBackEdge) {
  // while (c) { mbar wait; wait 0; write; sync; if (t == 0) { store;
  // commit; } }: the next pass's wait and write run in threads that never
  // committed.
  auto Make = [](std::shared_ptr<const th::ThreadSet> Writer, bool Sync) {
    Prog P;
    P.loop([&](Prog &Q) {
      Q << ev(K::BarrierWait, 1, everyone()) << wait0(everyone());
      if (Sync)
        Q << ev(K::ThreadSync, -1, everyone());
      Q << ev(K::GenericWrite, 0, Writer) << ev(K::ThreadSync, -1, everyone());
      Q.ifElse([](Prog &R) {
        R << store(thread0()) << ev(K::Commit, -1, thread0());
      });
    });
    return P.done();
  };
  Kern Wrong = Make(everyone(), false);
  auto F = waitByOtherThreads(Wrong, th::BlockSize{128, 128});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 4u);
  EXPECT_EQ(F[0].Second, 2u);
  EXPECT_EQ(F[0].Wait, 1u);
  // A thread barrier between the wait and the write: silent.
  EXPECT_TRUE(
      waitByOtherThreads(Make(everyone(), true), th::BlockSize{128, 128})
          .empty());
  // The issuing thread alone rewrites: silent; unknown writers too (round
  // the loop, only thread sets tell threads apart).
  EXPECT_TRUE(
      waitByOtherThreads(Make(thread0(), false), th::BlockSize{128, 128})
          .empty());
  EXPECT_TRUE(waitByOtherThreads(Make(nullptr, false), th::BlockSize{128, 128})
                  .empty());
}

TEST(WaitByOtherThreads, WarpWaitsForOneThread) {
  // if (t == 0) { store; commit; }  if (t < 32) { wait; write; }
  auto Make = [](std::shared_ptr<const th::ThreadSet> Writer) {
    return blocks({{store(thread0()), ev(K::Commit, -1, thread0())},
                   {wait0(below(32)), ev(K::GenericWrite, 0, Writer)}},
                  {true, true});
  };
  auto F = waitByOtherThreads(Make(below(32)));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "BULK-WAITGROUP-SCOPE");
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 3u);
  EXPECT_EQ(F[0].Wait, 2u);
  // Only the issuing thread writes: no scope error.
  EXPECT_TRUE(waitByOtherThreads(Make(thread0())).empty());
  // A writer set not proven to hold another thread (threads 64 and up may
  // not exist): silent.
  auto High = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::GE, 64), true));
  EXPECT_TRUE(waitByOtherThreads(Make(High)).empty());
  // ... unless the block is known to have them.
  EXPECT_EQ(waitByOtherThreads(Make(High), th::BlockSize{128, 128}).size(), 1u);
}

TEST(FenceBeforeStore, FenceInTheWritingThreads) {
  // all write; if (t == 0) fence; sync; if (t == 0) store
  auto Make = [](std::shared_ptr<const th::ThreadSet> Writer,
                 std::shared_ptr<const th::ThreadSet> Fencer) {
    return blocks({{ev(K::GenericWrite, 0, Writer)},
                   {ev(K::ProxyFence, -1, Fencer)},
                   {ev(K::ThreadSync, -1, everyone())},
                   {store(thread0())}},
                  {false, true, false, true});
  };
  auto F = fenceBeforeStore(Make(everyone(), thread0()));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMA-STORE-FENCE");
  EXPECT_EQ(F[0].First, 0u);
  // Every thread fences: correct.
  EXPECT_TRUE(fenceBeforeStore(Make(everyone(), everyone())).empty());
  // The writers are thread 0 only: its fence covers them.
  EXPECT_TRUE(fenceBeforeStore(Make(thread0(), thread0())).empty());
  // A fence whose threads are unknown silences the pair.
  EXPECT_TRUE(fenceBeforeStore(Make(everyone(), nullptr)).empty());
  // So do writers whose threads are unknown.
  EXPECT_TRUE(fenceBeforeStore(Make(nullptr, thread0())).empty());
}

TEST(FenceBeforeStore, FencesInTwoBranches) {
  auto Low = below(64);
  auto High = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::LT, 64), false));
  // if (t < 64) { write; fence; } else { write; fence; } sync; store
  Prog P;
  P.ifElse(
      [&](Prog &Q) {
        Q << ev(K::GenericWrite, 0, Low) << ev(K::ProxyFence, -1, Low);
      },
      [&](Prog &Q) {
        Q << ev(K::GenericWrite, 0, High) << ev(K::ProxyFence, -1, High);
      });
  P << ev(K::ThreadSync, -1, everyone());
  P.ifElse([&](Prog &Q) { Q << store(thread0()); });
  EXPECT_TRUE(fenceBeforeStore(P.done()).empty());
  // Every thread writes, the lower half fences: threads 64 and up are not
  // covered, in a block known to have them.
  Kern Half = blocks({{ev(K::GenericWrite, 0, everyone())},
                      {ev(K::ProxyFence, -1, Low)},
                      {ev(K::ThreadSync, -1, everyone())},
                      {store(thread0())}},
                     {false, true, false, true});
  auto F = fenceBeforeStore(Half, th::BlockSize{128, 128});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  // With an unknown block size threads 64 and up may not exist.
  EXPECT_TRUE(fenceBeforeStore(Half).empty());
  // The upper half writes without a fence on its path: reported.
  Prog Upper;
  Upper.ifElse(
      [&](Prog &Q) {
        Q << ev(K::GenericWrite, 0, Low) << ev(K::ProxyFence, -1, Low);
      },
      [&](Prog &Q) { Q << ev(K::GenericWrite, 0, High); });
  Upper << ev(K::ThreadSync, -1, everyone());
  Upper.ifElse([&](Prog &Q) { Q << store(thread0()); });
  auto U = fenceBeforeStore(Upper.done());
  ASSERT_EQ(U.size(), 1u);
  EXPECT_EQ(U[0].First, 2u);
}

/// A barrier event on member \p Object of family \p Family.
Event member(K Kind, int Object, int Family,
             std::shared_ptr<const th::ThreadSet> T) {
  Event E = ev(Kind, Object, std::move(T));
  E.Family = Family;
  return E;
}

TEST(InitVisible, RoleUsesOutsideTheInitialisingThreads) {
  auto High = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::GE, 32), true));
  // if (t == 0) init(b); if (t >= 32) wait(b);
  auto Make = [&](std::shared_ptr<const th::ThreadSet> User, bool Sync) {
    std::vector<std::vector<Event>> G = {{ev(K::BarrierInit, 0, thread0())},
                                         {},
                                         {ev(K::BarrierWait, 0, User)}};
    if (Sync)
      G[1].push_back(ev(K::ThreadSync, -1, everyone()));
    return blocks(G, {true, false, true});
  };
  auto F = initVisible(Make(High, false), th::BlockSize{1, 256});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 1u);
  EXPECT_TRUE(initVisible(Make(High, true), th::BlockSize{1, 256}).empty());
  // The initialising thread itself uses it (a producer that initialised).
  EXPECT_TRUE(initVisible(Make(thread0(), false), th::BlockSize{1, 256})
                  .empty());
  // Threads 32 and up do not exist in blocks of at most 32 threads.
  EXPECT_TRUE(initVisible(Make(High, false), th::BlockSize{1, 32}).empty());
  // An unknown set for the role: silent.
  EXPECT_TRUE(initVisible(Make(nullptr, false), th::BlockSize{1, 256})
                  .empty());
}

TEST(InitVisible, SubsetOfARoleWhoseConditionIsUnread) {
  auto High = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::GE, 128), true));
  // if (t == 0) init(b); if (t >= 128) while (sched.next()) wait(b);
  // the wait's threads unknown, at most the role's.
  auto Make = [&](std::shared_ptr<const th::ThreadSet> Most) {
    Event W = ev(K::BarrierWait, 0, nullptr);
    W.ThreadsAtMost = std::move(Most);
    return blocks({{ev(K::BarrierInit, 0, thread0())}, {W}}, {true, true});
  };
  auto F = initVisible(Make(High), th::BlockSize{1, 256});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Second, 1u);
  // A subset of all threads may be thread 0 alone: silent.
  EXPECT_TRUE(initVisible(Make(everyone()), th::BlockSize{1, 256}).empty());
  // Not even a bound: silent.
  EXPECT_TRUE(initVisible(Make(nullptr), th::BlockSize{1, 256}).empty());
  // No thread 128 in a block of at most 128 threads: silent.
  EXPECT_TRUE(initVisible(Make(High), th::BlockSize{1, 128}).empty());
}

TEST(InitVisible, InitLoopMakesEveryMember) {
  // if (t == 0) for (s...) init(&full[s]); wait(&full[k % S]);
  auto Make = [&](bool All, bool Sync) {
    Prog P;
    P.ifElse([&](Prog &Q) {
      Q.loop([&](Prog &R) {
        Event Init = member(K::BarrierInit, 0, 7, thread0());
        Init.AllMembers = All;
        R << Init;
      });
    });
    if (Sync)
      P << ev(K::ThreadSync, -1, everyone());
    P << member(K::BarrierWait, 1, 7, everyone());
    return P.done();
  };
  auto F = initVisible(Make(true, false));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Second, 1u);
  EXPECT_TRUE(initVisible(Make(true, true)).empty());
  // An init of some members only says nothing of member 1.
  EXPECT_TRUE(initVisible(Make(false, false)).empty());
  // Another family's member, and a wait on another family in between.
  Prog Other;
  Other.ifElse([&](Prog &Q) {
    Event Init = member(K::BarrierInit, 0, 7, thread0());
    Init.AllMembers = true;
    Q << Init;
  });
  Other << member(K::BarrierWait, 2, 8, everyone())
        << member(K::BarrierWait, 1, 7, everyone());
  EXPECT_TRUE(initVisible(Other.done()).empty());
  // A wait on another member of the family it makes orders nothing.
  Prog Same;
  Same.ifElse([&](Prog &Q) {
    Event Init = member(K::BarrierInit, 0, 7, thread0());
    Init.AllMembers = true;
    Q << Init;
  });
  Same.ifElse([&](Prog &Q) { Q << member(K::BarrierWait, 3, 7, thread0()); });
  Same << member(K::BarrierWait, 1, 7, everyone());
  auto S = initVisible(Same.done());
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Second, 2u);
}

TEST(AsyncWarHandOff, ReadersArriveOnTheFamilyTheProducerWaitsOn) {
  // if (producer) loop { wait(empty[s]); load(tile) } else loop { read(tile);
  // [fence;] arrive(empty[s]) }
  auto Make = [&](bool Fence, int ArriveFamily) {
    Prog P;
    P.ifElse(
        [&](Prog &Q) {
          Q.loop([&](Prog &R) {
            R << member(K::BarrierWait, 1, 5, thread0())
              << ev(K::Load, 0, thread0());
          });
        },
        [&](Prog &Q) {
          Q.loop([&](Prog &R) {
            R << ev(K::GenericRead, 0, nullptr);
            if (Fence)
              R << ev(K::ProxyFence, -1, nullptr);
            Event A = member(K::BarrierUse, 2, ArriveFamily, nullptr);
            A.Role = UseRole::Arrive;
            R << A;
          });
        });
    return P.done();
  };
  Kern Bad = Make(false, 5);
  auto F = asyncWarHandOff(Bad.Seq, Bad.G);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "ASYNC-WAR-FENCE");
  EXPECT_EQ(F[0].First, 2u);
  EXPECT_EQ(F[0].Second, 1u);
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(3));
  Kern Fenced = Make(true, 5);
  EXPECT_TRUE(asyncWarHandOff(Fenced.Seq, Fenced.G).empty());
  // An arrive on another family hands nothing to this producer.
  Kern Other = Make(false, 6);
  EXPECT_TRUE(asyncWarHandOff(Other.Seq, Other.G).empty());
}

TEST(ReuseBeforeRelease, ProducerWaitsOnTheBarrierTheReadersArriveOn) {
  // if (producer) loop { [wait(W)]; load(tile, full) } else loop {
  // wait(full); read(tile); arrive(empty) }; full lies in region 1, empty in
  // region 2.
  auto Make = [&](int WaitFamily, int WaitRegion) {
    Prog P;
    P.ifElse(
        [&](Prog &Q) {
          Q.loop([&](Prog &R) {
            if (WaitFamily >= 0) {
              Event W = member(K::BarrierWait, 1, WaitFamily, thread0());
              W.Region = WaitRegion;
              R << W;
            }
            Event L = ev(K::Load, 0, thread0());
            L.Region = 1;
            R << L;
          });
        },
        [&](Prog &Q) {
          Q.loop([&](Prog &R) {
            Event W = member(K::BarrierWait, 3, 4, nullptr);
            W.Region = 1;
            Event A = member(K::BarrierUse, 2, 5, nullptr);
            A.Role = UseRole::Arrive;
            A.Region = 2;
            R << W << ev(K::GenericRead, 0, nullptr) << A;
          });
        });
    return P.done();
  };
  Kern None = Make(-1, -1);
  auto F = reuseBeforeRelease(None.Seq, None.G);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "ASYNC-REUSE-BEFORE-RELEASE");
  EXPECT_EQ(F[0].First, 2u);
  EXPECT_EQ(F[0].Second, 0u);
  EXPECT_EQ(F[0].Wait, std::optional<std::size_t>(3));
  // A wait on the empty family releases the stage.
  Kern Empty = Make(5, 2);
  EXPECT_TRUE(reuseBeforeRelease(Empty.Seq, Empty.G).empty());
  // A wait on full, proven another barrier, does not.
  Kern Full = Make(4, 1);
  EXPECT_EQ(reuseBeforeRelease(Full.Seq, Full.G).size(), 1u);
  // One that the model cannot tell apart from empty does.
  Kern Pool = Make(6, -1);
  EXPECT_TRUE(reuseBeforeRelease(Pool.Seq, Pool.G).empty());
}

TEST(FenceBeforeStore, FenceAfterTheHandOffDoesNotCount) {
  // write (all); [fence;] sync; [fence;] if (t == 0) store
  auto Make = [&](bool Before) {
    std::vector<Event> Top = {ev(K::GenericWrite, 0, everyone())};
    if (Before)
      Top.push_back(ev(K::ProxyFence, -1, everyone()));
    Top.push_back(ev(K::ThreadSync, -1, everyone()));
    if (!Before)
      Top.push_back(ev(K::ProxyFence, -1, everyone()));
    return blocks({Top, {store(thread0())}}, {false, true});
  };
  auto F = fenceBeforeStore(Make(false), th::BlockSize{128, 128});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_TRUE(fenceBeforeStore(Make(true), th::BlockSize{128, 128}).empty());
  // Thread 0 writes and stores: its fence after the barrier counts.
  Kern Own = blocks({{ev(K::GenericWrite, 0, thread0())},
                     {ev(K::ThreadSync, -1, everyone()),
                      ev(K::ProxyFence, -1, everyone())},
                     {store(thread0())}},
                    {true, false, true});
  EXPECT_TRUE(fenceBeforeStore(Own, th::BlockSize{128, 128}).empty());
}

} // namespace
