//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of MBAR-UNINIT's events part
// (rules/UninitSite), no Clang.
//
//===----------------------------------------------------------------------===//
//
// A group's uses, inits and buffer events and when it may be reported; an
// init of an unnamed barrier; which pool barriers an init covers (offsets,
// init loops, unknown member counts) and which uses none covers, with the
// covering twin.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"
#include "rules/UninitSite.h"

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

TEST(UninitSite, GroupEvents) {
  // Objects 0 and 1 are one group (a variable's two index expressions),
  // object 2 another.
  std::vector<bool> Group = {true, true, false};
  Kern Kn({ev(K::BarrierInit, 2), ev(K::BarrierUse, 1), ev(K::BarrierWait, 0),
           ev(K::BarrierUse, 2)});
  BarrierGroupEvents G = barrierGroupEvents(Kn.Seq, Group);
  EXPECT_EQ(G.First, std::optional<std::size_t>(1));
  EXPECT_EQ(G.Uses, 2u);
  EXPECT_EQ(G.Inits, 0u);
  EXPECT_FALSE(G.Buffer);
  EXPECT_TRUE(mayBeUninitialised(G));
  // The other group is initialised.
  G = barrierGroupEvents(Kn.Seq, {false, false, true});
  EXPECT_EQ(G.Inits, 1u);
  EXPECT_FALSE(mayBeUninitialised(G));
  // A buffer event on the group (a byte array carved into barriers and
  // tiles): its barriers are not told apart.
  Kn.Seq.push_back(ev(K::GenericWrite, 0));
  G = barrierGroupEvents(Kn.Seq, Group);
  EXPECT_TRUE(G.Buffer);
  EXPECT_FALSE(mayBeUninitialised(G));
  // Never used: nothing to report.
  EXPECT_FALSE(mayBeUninitialised(
      barrierGroupEvents({ev(K::BarrierInit, 2)}, Group)));
  // Object ids past the membership list are not in the group.
  EXPECT_FALSE(barrierGroupEvents({ev(K::BarrierUse, 5)}, Group).First);
}

TEST(UninitSite, UnnamedInit) {
  EXPECT_EQ(unnamedInit({ev(K::BarrierInit, 0), ev(K::BarrierInit, -1)}),
            std::optional<std::size_t>(1));
  EXPECT_FALSE(unnamedInit({ev(K::BarrierInit, 0), ev(K::BarrierUse, -1)}));
}

PoolSlot slot(std::int64_t Offset, std::int64_t Stride = 0,
              std::uint64_t Members = 0, bool Known = true) {
  return PoolSlot{Offset, Stride, Members, Known};
}

TEST(UninitSite, PoolSlotCover) {
  // One barrier each: the same offset only.
  EXPECT_TRUE(mayCover(slot(40), slot(40)));
  EXPECT_FALSE(mayCover(slot(40), slot(48)));
  // An init of one barrier covers a family used that may hold it.
  EXPECT_TRUE(mayCover(slot(48), slot(40, 8)));
  EXPECT_FALSE(mayCover(slot(44), slot(40, 8)));
  EXPECT_FALSE(mayCover(slot(32), slot(40, 8)));
  // An init loop of 4 members from 40 covers 40..64, not 72.
  EXPECT_TRUE(mayCover(slot(40, 8, 4), slot(64)));
  EXPECT_FALSE(mayCover(slot(40, 8, 4), slot(72)));
  // ... unless its member count is unknown.
  EXPECT_TRUE(mayCover(slot(40, 8, 0, false), slot(72)));
  // Two families: apart only when the used one starts past the last member.
  EXPECT_TRUE(mayCover(slot(40, 8, 4), slot(64, 8)));
  EXPECT_FALSE(mayCover(slot(40, 8, 4), slot(72, 8)));
  EXPECT_TRUE(mayCover(slot(40, 8, 0, false), slot(72, 8)));
}

TEST(UninitSite, PoolBarriersNoInitCovers) {
  PoolBarrierFacts F;
  F.Inits = {slot(0, 8, 2)};
  F.Uses = {{3, slot(0)}, {5, slot(8)}, {7, slot(16)}, {9, slot(24, 8)}};
  EXPECT_EQ(uninitialisedPoolBarriers(F), (std::vector<std::size_t>{7, 9}));
  // The correct twin: the init loop covers all four stages.
  F.Inits = {slot(0, 8, 4)};
  EXPECT_EQ(uninitialisedPoolBarriers(F), (std::vector<std::size_t>{}));
  // No init at all: every use.
  F.Inits.clear();
  EXPECT_EQ(uninitialisedPoolBarriers(F).size(), 4u);
}

} // namespace
