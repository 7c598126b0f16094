//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of MBAR-WAIT-PARITY (rules/WaitParityRule).
//
//===----------------------------------------------------------------------===//
//
// The five findings of waitParity over small event sequences (a constant
// parity on a barrier completed in a loop; parity 1 on the first lap of a
// full barrier; parity 1 on the first lap of an empty barrier released
// before the ring; parity 0 on the first lap of an empty barrier whose
// arrivals wait for this side; a parity whose lap is not the ring's), each
// with the change that makes it right, and the cases that keep it silent.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
using namespace tma::rules::ordering::test;

namespace {

using K = EventKind;

Event barrier(K Kind, int Family, UseRole Role = UseRole::Other) {
  Event E;
  E.Kind = Kind;
  E.Object = Family;
  E.Family = Family;
  // Each family its own __shared__ array: barriers apart.
  E.Region = Family;
  E.Role = Role;
  return E;
}
Event waitWith(int Family, ParityForm Form, unsigned Bit = 0) {
  Event E = barrier(K::BarrierWait, Family);
  E.Parity = Form;
  E.ParityBit = Bit;
  return E;
}
std::vector<Finding> run(const Kern &Kn, Silences *Why = nullptr,
                         bool UnseenArrives = false) {
  return waitParity(Kn.Seq, Kn.G, Why, UnseenArrives);
}

constexpr int Full = 0, Empty = 1;

TEST(WaitParity, ConstantOnABarrierCompletedInTheLoop) {
  Prog P;
  P.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Constant);
  });
  auto F = run(P.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "MBAR-WAIT-PARITY");
  EXPECT_EQ(F[0].First, 1u);
  EXPECT_EQ(F[0].Second, 0u);
  // The stage's own bit is as constant.
  Prog B;
  B.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::StageBit);
  });
  EXPECT_EQ(run(B.done()).size(), 1u);
  // A ring's phase: right.
  Prog R;
  R.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 0);
  });
  EXPECT_TRUE(run(R.done()).empty());
}

TEST(WaitParity, ConstantSilentCases) {
  // Completed once, before the loop: later waits on phase 0 return at once
  // as they should.
  Prog Once;
  Once << barrier(K::BarrierUse, Full);
  Once.loop([](Prog &Q) { Q << waitWith(Full, ParityForm::Constant); });
  Silences Why;
  EXPECT_TRUE(run(Once.done(), &Why).empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0].Site, 1u);
  // Initialised again in the loop.
  Prog Reinit;
  Reinit.loop([](Prog &Q) {
    Q << barrier(K::BarrierInit, Full) << barrier(K::BarrierUse, Full)
      << waitWith(Full, ParityForm::Constant);
  });
  EXPECT_TRUE(run(Reinit.done()).empty());
  // Unrolled by two: the other wait names the other parity.
  Prog Two;
  Two.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Constant, 0)
      << barrier(K::BarrierUse, Full)
      << waitWith(Full, ParityForm::Constant, 1);
  });
  EXPECT_TRUE(run(Two.done()).empty());
  // Another family completes in the loop.
  Prog Other;
  Other.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Empty) << waitWith(Full, ParityForm::Constant);
  });
  EXPECT_TRUE(run(Other.done()).empty());
}

TEST(WaitParity, FirstLapOfAFullBarrier) {
  Prog P;
  P.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 1);
  });
  auto F = run(P.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Second, 0u);
  // Starting at 0: right.
  Prog Z;
  Z.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 0);
  });
  EXPECT_TRUE(run(Z.done()).empty());
  // A plain arrive before any wait may complete phase 0.
  Prog Pre;
  Pre << barrier(K::BarrierUse, Full, UseRole::Arrive);
  Pre.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 1);
  });
  EXPECT_TRUE(run(Pre.done()).empty());
  // Another wait on it names a phase the model does not follow.
  Prog Unknown;
  Unknown << waitWith(Full, ParityForm::Unknown);
  Unknown.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << waitWith(Full, ParityForm::Ring, 1);
  });
  EXPECT_TRUE(run(Unknown.done()).empty());
}

TEST(WaitParity, FirstLapOfAnEmptyBarrierReleasedEarly) {
  Event Release = barrier(K::BarrierUse, Empty, UseRole::Arrive);
  Event EarlyAll = Release;
  EarlyAll.AllMembers = true;
  auto Kernel = [&](unsigned Bit, const Event &Early) {
    Prog P;
    P.ifElse(
        [&](Prog &Producer) {
          Producer.loop([&](Prog &Q) {
            Q << waitWith(Empty, ParityForm::Ring, Bit)
              << barrier(K::BarrierUse, Full);
          });
        },
        [&](Prog &Consumer) {
          Consumer << Early;
          Consumer.loop([&](Prog &Q) {
            Q << waitWith(Full, ParityForm::Ring, 0) << Release;
          });
        });
    return P.done();
  };
  auto F = run(Kernel(1, EarlyAll));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 2u);
  // Starting at 0 after the early release: right.
  EXPECT_TRUE(run(Kernel(0, EarlyAll)).empty());
  // An early release not proven to reach every member: silent.
  EXPECT_TRUE(run(Kernel(1, Release)).empty());
  // No early release (the CUTLASS convention): parity 1 first is right.
  Prog Cutlass;
  Cutlass.ifElse(
      [&](Prog &Producer) {
        Producer.loop([&](Prog &Q) {
          Q << waitWith(Empty, ParityForm::Ring, 1)
            << barrier(K::BarrierUse, Full);
        });
      },
      [&](Prog &Consumer) {
        Consumer.loop([&](Prog &Q) {
          Q << waitWith(Full, ParityForm::Ring, 0) << Release;
        });
      });
  EXPECT_TRUE(run(Cutlass.done()).empty());
}

// One barrier waited once a pass with a bit flipped once a pass (Ring of
// ParityStages 1): cases 2 and 4 read its first pass alone and are judged;
// case 3 needs each pass to complete one phase, not counted: silent.
TEST(WaitParity, OneBarrierAPass) {
  auto OneBarrier = [](int Family, unsigned Bit) {
    Event W = waitWith(Family, ParityForm::Ring, Bit);
    W.ParityStages = 1;
    return W;
  };
  // Case 2: parity 1 on the first pass of a barrier a copy completes.
  Prog Copy;
  Copy.loop([&](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << OneBarrier(Full, 1);
  });
  auto F = run(Copy.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 1u);
  EXPECT_EQ(F[0].Second, 0u);
  Prog CopyZero;
  CopyZero.loop([&](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << OneBarrier(Full, 0);
  });
  EXPECT_TRUE(run(CopyZero.done()).empty());
  // Case 3 shape: released before the loop, parity 1 on the first pass.
  Event Release = barrier(K::BarrierUse, Empty, UseRole::Arrive);
  Event EarlyAll = Release;
  EarlyAll.AllMembers = true;
  Prog Turns;
  Turns.ifElse(
      [&](Prog &Producer) {
        Producer.loop([&](Prog &Q) {
          Q << OneBarrier(Empty, 1) << barrier(K::BarrierUse, Full);
        });
      },
      [&](Prog &Consumer) {
        Consumer << EarlyAll;
        Consumer.loop([&](Prog &Q) { Q << OneBarrier(Full, 0) << Release; });
      });
  Silences Why;
  EXPECT_TRUE(run(Turns.done(), &Why).empty());
  bool Said = false;
  for (const auto &S : Why)
    Said |= S.Site == 0u &&
            S.Why.find("exactly one phase of it") != std::string::npos &&
            S.At == std::optional<std::size_t>(2u);
  EXPECT_TRUE(Said);
  // Case 4: parity 0 on both first passes, each side's use after its wait.
  Prog Hang;
  Hang.ifElse(
      [&](Prog &Producer) {
        Producer.loop([&](Prog &Q) {
          Q << OneBarrier(Empty, 0) << barrier(K::BarrierUse, Full);
        });
      },
      [&](Prog &Consumer) {
        Consumer.loop([&](Prog &Q) { Q << OneBarrier(Full, 0) << Release; });
      });
  F = run(Hang.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
}

TEST(WaitParity, FirstLapZeroOfAnEmptyBarrierHangs) {
  Event Release = barrier(K::BarrierUse, Empty, UseRole::Arrive);
  // Producer: wait on empty (first lap Bit), then the copy on full;
  // consumers: (Early) wait on full with parity 0, then release empty.
  auto Kernel = [&](unsigned Bit, const std::vector<Event> &Early,
                    bool CopyFirst = false) {
    Prog P;
    P.ifElse(
        [&](Prog &Producer) {
          Producer.loop([&](Prog &Q) {
            if (CopyFirst)
              Q << barrier(K::BarrierUse, Full);
            Q << waitWith(Empty, ParityForm::Ring, Bit);
            if (!CopyFirst)
              Q << barrier(K::BarrierUse, Full);
          });
        },
        [&](Prog &Consumer) {
          for (const Event &E : Early)
            Consumer << E;
          Consumer.loop([&](Prog &Q) {
            Q << waitWith(Full, ParityForm::Ring, 0) << Release;
          });
        });
    return P.done();
  };
  auto F = run(Kernel(0, {}));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 3u);
  ASSERT_TRUE(F[0].Other.has_value());
  EXPECT_EQ(*F[0].Other, 2u);
  // Parity 1 on the first lap: right.
  EXPECT_TRUE(run(Kernel(1, {})).empty());
  // Released before the ring (fast.cu): phase 0 completes; explained at
  // the early release.
  Silences Why;
  EXPECT_TRUE(run(Kernel(0, {Release}), &Why).empty());
  // (The consumers' wait on full is explained too: copies complete it.)
  ASSERT_EQ(Why.size(), 2u);
  const Silence &OnEmpty = Why[0].Site == 0 ? Why[0] : Why[1];
  EXPECT_EQ(OnEmpty.Site, 0u);
  ASSERT_TRUE(OnEmpty.At.has_value());
  EXPECT_EQ(*OnEmpty.At, 2u);
  // The copy comes before the wait on the first pass: full's phase 0
  // completes first.
  EXPECT_TRUE(run(Kernel(0, {}, /*CopyFirst=*/true)).empty());
  // Something the events do not show may arrive.
  EXPECT_TRUE(run(Kernel(0, {}), nullptr, /*UnseenArrives=*/true).empty());
  // A use on a barrier the model cannot name.
  Event Unnamed = barrier(K::BarrierUse, -1, UseRole::Arrive);
  Unnamed.Object = -1;
  Prog U;
  U << Unnamed;
  U.ifElse(
      [&](Prog &Producer) {
        Producer.loop([&](Prog &Q) {
          Q << waitWith(Empty, ParityForm::Ring, 0)
            << barrier(K::BarrierUse, Full);
        });
      },
      [&](Prog &Consumer) {
        Consumer.loop([&](Prog &Q) {
          Q << waitWith(Full, ParityForm::Ring, 0) << Release;
        });
      });
  EXPECT_TRUE(run(U.done()).empty());
  // Barriers of the dynamic pool (no Region): the arrive on another family
  // may be on the same barrier.
  Prog Pool;
  Event PoolRelease = Release;
  PoolRelease.Region = -1;
  Pool.ifElse(
      [&](Prog &Producer) {
        Producer.loop([&](Prog &Q) {
          Q << waitWith(Empty, ParityForm::Ring, 0)
            << barrier(K::BarrierUse, Full);
        });
      },
      [&](Prog &Consumer) {
        Consumer.loop([&](Prog &Q) {
          Q << waitWith(Full, ParityForm::Ring, 0) << PoolRelease;
        });
      });
  EXPECT_TRUE(run(Pool.done()).empty());
  // A full barrier (copies complete it): parity 0 first is what the wait
  // is for.
  Prog Own;
  Own.loop([&](Prog &Q) {
    Q << waitWith(Full, ParityForm::Ring, 0) << barrier(K::BarrierUse, Full);
  });
  EXPECT_TRUE(run(Own.done()).empty());
  // One barrier whose only arrive waits for its own first phase.
  Prog Self;
  Self.loop([&](Prog &Q) {
    Q << waitWith(Empty, ParityForm::Ring, 0) << Release;
  });
  auto G = run(Self.done());
  ASSERT_EQ(G.size(), 1u);
  EXPECT_EQ(G[0].Second, 1u);
}

TEST(WaitParity, UnknownParityIsExplained) {
  Event W = waitWith(Full, ParityForm::Unknown);
  W.ParityUnknown = true;
  Silences Why;
  EXPECT_TRUE(run(Kern({barrier(K::BarrierUse, Full), W}), &Why).empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_STREQ(Why[0].Rule, "MBAR-WAIT-PARITY");
}

Event periodWait(int Family, unsigned Stages, unsigned Period,
                 unsigned Bit = 0) {
  Event E = waitWith(Family, ParityForm::Period, Bit);
  E.ParityStages = Stages;
  E.ParityPeriod = Period;
  return E;
}

TEST(WaitParity, RepeatedParityMember) {
  // (k / 2) & 1 on k % 4: member 0 at k = 0 and 4, parity 0 both times.
  EXPECT_EQ(repeatedParityMember(4, 2), 0u);
  // (k / 8) & 1 on k % 4: no flip within the first two laps.
  EXPECT_EQ(repeatedParityMember(4, 8), 0u);
  // (k / 2) & 1 on k % 3: member 0 flips (k = 0, 3: 0, 1), member 1 does
  // not (k = 1, 4: 0, 2).
  EXPECT_EQ(repeatedParityMember(3, 2), 1u);
  // One barrier with a ring's phase of 2 stages.
  EXPECT_EQ(repeatedParityMember(1, 2), 0u);
  // k & 1 on k % 2: the stage's own bit.
  EXPECT_EQ(repeatedParityMember(2, 1), 0u);
  // Every lap flips: the ring's own lap, or an odd multiple of it.
  EXPECT_EQ(repeatedParityMember(4, 4), std::nullopt);
  EXPECT_EQ(repeatedParityMember(3, 1), std::nullopt);
  EXPECT_EQ(repeatedParityMember(6, 2), std::nullopt);
  EXPECT_EQ(repeatedParityMember(1, 1), std::nullopt);
  EXPECT_EQ(repeatedParityMember(0, 2), std::nullopt);
  EXPECT_EQ(repeatedParityMember(4, 0), std::nullopt);
}

TEST(WaitParity, PeriodOfAnotherRing) {
  Prog P;
  P.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << periodWait(Full, 4, 2);
  });
  auto F = run(P.done());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "MBAR-WAIT-PARITY");
  EXPECT_EQ(F[0].First, 1u);
  EXPECT_EQ(F[0].Second, 0u);
  // Every lap flips (6 = 3 * 2): members start apart, not judged.
  Prog Odd;
  Odd.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << periodWait(Full, 6, 2);
  });
  Silences Why;
  EXPECT_TRUE(run(Odd.done(), &Why).empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0].Site, 1u);
  // Completed only before the loop.
  Prog Once;
  Once << barrier(K::BarrierUse, Full);
  Once.loop([](Prog &Q) { Q << periodWait(Full, 1, 4); });
  EXPECT_TRUE(run(Once.done()).empty());
  // Another wait on the barrier in the loop names another period.
  Prog Two;
  Two.loop([](Prog &Q) {
    Q << barrier(K::BarrierUse, Full) << periodWait(Full, 4, 2)
      << periodWait(Full, 4, 8);
  });
  EXPECT_TRUE(run(Two.done()).empty());
  // Initialised again in the loop.
  Prog Reinit;
  Reinit.loop([](Prog &Q) {
    Q << barrier(K::BarrierInit, Full) << barrier(K::BarrierUse, Full)
      << periodWait(Full, 1, 2);
  });
  EXPECT_TRUE(run(Reinit.done()).empty());
}

// A ring of 1 stage on an array of 3 (fast.cu's consumer wrapping at
// QSIZE / 2): the cross-ring case, silent with its Why.
TEST(WaitParity, CrossRingSilent) {
  Prog P;
  P.loop([](Prog &Q) {
    Event W = waitWith(Full, ParityForm::Unknown);
    W.ParityRingStages = 1;
    W.ParityMembers = 3;
    Q << barrier(K::BarrierUse, Full) << W;
  });
  Silences Why;
  EXPECT_TRUE(run(P.done(), &Why).empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0].Site, 1u);
  EXPECT_NE(Why[0].Why.find("ring of 1 stage, but the barrier array has 3 "
                            "members"),
            std::string::npos);
}

} // namespace
