//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of tma-ordering's entry point
// (rules/OrderingSite): a kernel's fact record in, every violation out.
//
//===----------------------------------------------------------------------===//
//
// What checkKernelOrdering adds to the rule functions, one boundary each:
// the form and order of its violations; the late fence and where the
// missing one goes (BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE); the option
// WaitBeforeExit, and the silences it records when off; the bulk-group
// shortfall, the completing depth and its fix (not for a ring's stage laps
// later); the thread that runs no init and the __syncthreads() fix that a
// lone cluster wait does not get (MBAR-INIT-VISIBLE); the three cases of
// MBAR-WAIT-PARITY; a load's map rewritten with no mbarrier wait.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"
#include "rules/OrderingSite.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
using namespace tma::rules::ordering::test;
namespace th = tma::rules::threads;

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
Event mapped(Event E, int Map) {
  E.Map = Map;
  return E;
}
Event barrier(K Kind, int Family, UseRole Role = UseRole::Other) {
  Event E = ev(Kind, Family);
  E.Family = Family;
  E.Role = Role;
  return E;
}
Event waitWith(int Family, ParityForm Form, unsigned Bit = 0) {
  Event E = barrier(K::BarrierWait, Family);
  E.Parity = Form;
  E.ParityBit = Bit;
  return E;
}
std::shared_ptr<const th::ThreadSet> below(std::int64_t N) {
  return std::make_shared<const th::ThreadSet>(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::LT, N), true));
}

std::vector<OrderingViolation> judge(const Kern &Kn, bool WaitBeforeExit = false,
                                     th::BlockSize Block = {},
                                     Silences *Why = nullptr) {
  return checkKernelOrdering({Kn.Seq, Kn.G, Block, WaitBeforeExit}, Why);
}

TEST(OrderingSite, EveryRuleInTheEntryPointsOrder) {
  // A guarded init used by all (MBAR-INIT-VISIBLE) after a write read by a
  // store with no fence (TMA-STORE-FENCE), then the store's map rewritten
  // in flight (TMAP-INFLIGHT-IMMUTABLE).
  Prog P;
  P << ev(K::GenericWrite, 0) << mapped(store(0), 7);
  P.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 1); });
  P << ev(K::BarrierWait, 1) << ev(K::MapWrite);
  Kern Kn = P.done();
  Kn.Seq[4].Map = 7;
  auto V = judge(Kn);
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(V[0].Form, OrderingForm::FenceBeforeStore);
  EXPECT_STREQ(V[0].Rule, "TMA-STORE-FENCE");
  EXPECT_EQ(V[1].Form, OrderingForm::InitVisible);
  EXPECT_STREQ(V[1].Rule, "MBAR-INIT-VISIBLE");
  EXPECT_EQ(V[2].Form, OrderingForm::MapRewriteInFlight);
  EXPECT_STREQ(V[2].Rule, "TMAP-INFLIGHT-IMMUTABLE");
  // The correct twin: fenced, synchronised, waited for.
  Prog C;
  C << ev(K::GenericWrite, 0) << ev(K::ProxyFence) << mapped(store(0), 7)
    << ev(K::Commit) << waitRead(0);
  C.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 1); });
  C << ev(K::ThreadSync) << ev(K::BarrierWait, 1) << mapped(ev(K::MapWrite), 7);
  EXPECT_TRUE(judge(C.done()).empty());
}

TEST(OrderingSite, FenceGoesBeforeTheCopyOfTheWritingThreads) {
  // write; store by the same threads: the fence goes before the store.
  auto V = judge(Kern({ev(K::GenericWrite, 0), store(0)}));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fix, OrderingFix::Fence);
  EXPECT_EQ(V[0].FixAt, std::optional<std::size_t>(1));
  EXPECT_FALSE(V[0].LateFence);
  // write; if (c) store: other threads copy, a thread barrier is missing
  // too: no fix.
  Prog P;
  P << ev(K::GenericWrite, 0);
  P.ifElse([](Prog &Q) { Q << store(0); });
  V = judge(P.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fix, OrderingFix::None);
  EXPECT_FALSE(V[0].FixAt);
}

TEST(OrderingSite, FenceAfterTheHandOffIsLate) {
  // write (all); sync; fence; if (t < 1) store: the fence comes after the
  // barrier that hands the buffer over; the missing one goes before it.
  auto Make = [](bool Before) {
    std::vector<Event> Top = {ev(K::GenericWrite, 0)};
    if (Before)
      Top.push_back(ev(K::ProxyFence));
    Top.push_back(ev(K::ThreadSync));
    if (!Before)
      Top.push_back(ev(K::ProxyFence));
    Prog P;
    for (Event &E : Top) {
      E.Threads = std::make_shared<const th::ThreadSet>();
      P << E;
    }
    Event St = store(0);
    St.Threads = below(1);
    P.ifElse([&](Prog &Q) { Q << St; });
    return P.done();
  };
  auto V = judge(Make(false), false, th::BlockSize{128, 128});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].LateFence, std::optional<std::size_t>(2));
  EXPECT_EQ(V[0].Fix, OrderingFix::Fence);
  EXPECT_EQ(V[0].FixAt, std::optional<std::size_t>(1));
  EXPECT_TRUE(judge(Make(true), false, th::BlockSize{128, 128}).empty());
}

TEST(OrderingSite, WaitBeforeExitOnlyWithTheOption) {
  Kern Kn({store(0), ev(K::Commit)});
  Silences Why;
  auto Off = [](const Silences &W) {
    std::vector<Silence> R;
    for (const Silence &S : W)
      if (S.Why.find("WaitBeforeExit is off") != std::string::npos)
        R.push_back(S);
    return R;
  };
  EXPECT_TRUE(judge(Kn, false, {}, &Why).empty());
  auto O = Off(Why);
  ASSERT_EQ(O.size(), 1u);
  EXPECT_STREQ(O[0].Rule, "TMA-STORE-WAIT");
  EXPECT_EQ(O[0].Site, 0u);
  auto V = judge(Kn, true);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Form, OrderingForm::WaitBeforeExit);
  EXPECT_STREQ(V[0].Rule, "TMA-STORE-WAIT");
  // Waited for: silent either way, and no option silence with it on.
  Why.clear();
  EXPECT_TRUE(
      judge(Kern({store(0), ev(K::Commit), waitRead(0)}), true, {}, &Why)
          .empty());
  EXPECT_TRUE(Off(Why).empty());
}

TEST(OrderingSite, ReuseShortfallDepthAndFix) {
  auto Reuse = [](std::vector<Event> Mid) {
    std::vector<Event> S = {store(0)};
    S.insert(S.end(), Mid.begin(), Mid.end());
    S.push_back(ev(K::GenericWrite, 0));
    return judge(Kern(S));
  };
  auto V = Reuse({ev(K::Commit), ev(K::ThreadSync)});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Form, OrderingForm::WaitBeforeReuse);
  EXPECT_EQ(V[0].Shortfall, WaitShortfall::NoWait);
  EXPECT_FALSE(V[0].CompletingDepth);
  EXPECT_EQ(V[0].Fix, OrderingFix::None);
  V = Reuse({waitRead(0)});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Shortfall, WaitShortfall::NotCommitted);
  EXPECT_EQ(V[0].Fix, OrderingFix::None);
  V = Reuse({ev(K::Commit), ev(K::Commit), waitRead(2)});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Shortfall, WaitShortfall::TooShallow);
  EXPECT_EQ(V[0].CompletingDepth, std::optional<unsigned>(1));
  EXPECT_EQ(V[0].Fix, OrderingFix::WaitDepth);
  EXPECT_EQ(V[0].FixDepth, 1u);
  EXPECT_TRUE(Reuse({ev(K::Commit), ev(K::Commit), waitRead(1)}).empty());
}

TEST(OrderingSite, StageLapsLaterHasNoDepthFix) {
  // for (...) { wait 2; load(stage k % 2); store(stage); commit }: the
  // depth that would complete the group is named, but not written in.
  auto Staged = [](Event E) {
    E.WholeObject = false;
    E.Slice = 7;
    E.Period = 2;
    return E;
  };
  Prog P;
  P.loop([&](Prog &Q) {
    Q << waitRead(2) << Staged(ev(K::Load, 0)) << Staged(store(0, false))
      << ev(K::Commit);
  });
  auto V = judge(P.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Laps, 2u);
  EXPECT_EQ(V[0].CompletingDepth, std::optional<unsigned>(1));
  EXPECT_EQ(V[0].Fix, OrderingFix::None);
}

TEST(OrderingSite, InitVisibleThreadAndFix) {
  // if (t < 1) init(b); if (t < 64) wait(b): thread 1 runs no init.
  auto Init = barrier(K::BarrierInit, 0);
  Init.Threads = below(1);
  auto Use = barrier(K::BarrierWait, 0);
  Use.Threads = below(64);
  Prog P;
  P.ifElse([&](Prog &Q) { Q << Init; });
  P.ifElse([&](Prog &Q) { Q << Use; });
  auto V = judge(P.done(), false, th::BlockSize{1, 128});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Thread, std::optional<unsigned>(1));
  EXPECT_EQ(V[0].Fix, OrderingFix::Sync);
  // Used by all: no thread to name.
  Prog All;
  All.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0); });
  All << ev(K::BarrierWait, 0);
  V = judge(All.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_FALSE(V[0].Thread);
  EXPECT_EQ(V[0].Fix, OrderingFix::Sync);
  // A lone barrier.cluster.wait in between: the missing arrive is the fix.
  Event ClusterWait = ev(K::ThreadSync);
  ClusterWait.SyncHalf = Event::Half::Wait;
  Prog Lone;
  Lone.ifElse([](Prog &Q) { Q << ev(K::BarrierInit, 0); });
  Lone << ClusterWait << ev(K::BarrierWait, 0);
  V = judge(Lone.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Wait, std::optional<std::size_t>(1));
  EXPECT_EQ(V[0].Fix, OrderingFix::None);
}

TEST(OrderingSite, WaitParityCases) {
  constexpr int Full = 0, Empty = 1;
  Prog Rep;
  Rep.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Constant);
  });
  auto V = judge(Rep.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Parity, ParityMistake::Repeated);
  Prog First;
  First.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 1);
  });
  V = judge(First.done());
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Parity, ParityMistake::BeforeFirstCopy);
  // Parity 1 on an empty barrier every member of which is released first.
  Event Release = barrier(K::BarrierUse, Empty, UseRole::Arrive);
  Event EarlyAll = Release;
  EarlyAll.AllMembers = true;
  auto Ring = [&](unsigned Bit) {
    Prog P;
    P.ifElse(
        [&](Prog &Producer) {
          Producer.loop([&](Prog &Q) {
            Q << waitWith(Empty, ParityForm::Ring, Bit)
              << barrier(K::BarrierUse, Full);
          });
        },
        [&](Prog &Consumer) {
          Consumer << EarlyAll;
          Consumer.loop([&](Prog &Q) {
            Q << waitWith(Full, ParityForm::Ring, 0) << Release;
          });
        });
    return P.done();
  };
  V = judge(Ring(1));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Parity, ParityMistake::AfterRelease);
  EXPECT_TRUE(judge(Ring(0)).empty());
}

TEST(OrderingSite, MapRewriteShortfall) {
  // A load's map: only an mbarrier wait completes it.
  Event Ld = mapped(ev(K::Load, 0), 7);
  Ld.Barrier = 1;
  Ld.Tensor = true;
  auto V = judge(Kern({Ld, ev(K::ThreadSync), mapped(ev(K::MapWrite), 7)}));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Form, OrderingForm::MapRewriteInFlight);
  EXPECT_EQ(V[0].Shortfall, WaitShortfall::NoBarrierWait);
  EXPECT_TRUE(judge(Kern({Ld, ev(K::BarrierWait, 1),
                          mapped(ev(K::MapWrite), 7)}))
                  .empty());
  // A store's: the wait depth, with its fix.
  V = judge(Kern({mapped(store(0), 7), ev(K::Commit), waitRead(1),
                  mapped(ev(K::MapWrite), 7)}));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Shortfall, WaitShortfall::TooShallow);
  EXPECT_EQ(V[0].Fix, OrderingFix::WaitDepth);
  EXPECT_EQ(V[0].FixDepth, 0u);
}

} // namespace
