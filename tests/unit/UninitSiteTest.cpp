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
// covering twin; the entry point checkUninit on a kernel's fact record,
// one boundary at a time (each fact that keeps the rule silent, with the
// silence it records, and the reported twin).
//
//===----------------------------------------------------------------------===//

#include "rules/UninitSite.h"
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
  EXPECT_FALSE(
      mayBeUninitialised(barrierGroupEvents({ev(K::BarrierInit, 2)}, Group)));
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

/// A group used at event 4 and never initialised, every reference known:
/// reported as it stands.
UninitGroupFacts usedGroup(std::string Name = "bar") {
  UninitGroupFacts G;
  G.Name = std::move(Name);
  G.Events.First = 4;
  G.Events.Uses = 2;
  G.AllKnown = true;
  return G;
}

/// The silences recorded for a kernel of the one group \p G, and its
/// violations in \p Out.
Silences judge(UninitGroupFacts G, std::vector<UninitViolation> &Out) {
  UninitFacts F;
  F.Groups.push_back(std::move(G));
  Silences Why;
  Out = checkUninit(F, &Why);
  return Why;
}

TEST(UninitSite, EntryPointReportsUsedNeverInitialised) {
  std::vector<UninitViolation> V;
  Silences Why = judge(usedGroup("full"), V);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Event, 4u);
  EXPECT_EQ(V[0].Name, "full");
  EXPECT_TRUE(Why.empty());
  // The correct twin: an init of the group anywhere.
  UninitGroupFacts G = usedGroup();
  G.Events.Inits = 1;
  Why = judge(G, V);
  EXPECT_TRUE(V.empty());
  EXPECT_TRUE(Why.empty());
  // No use: nothing to judge.
  G = usedGroup();
  G.Events.First.reset();
  G.Events.Uses = 0;
  EXPECT_TRUE(judge(G, V).empty());
  EXPECT_TRUE(V.empty());
  // Null Why records nothing and reports the same.
  UninitFacts F;
  F.Groups = {usedGroup(), usedGroup("empty")};
  EXPECT_EQ(checkUninit(F).size(), 2u);
}

TEST(UninitSite, EntryPointSilentBoundaries) {
  struct Case {
    const char *What;
    void (*Set)(UninitGroupFacts &);
    const char *Says;
  };
  const Case Cases[] = {
      {"foreign", [](UninitGroupFacts &G) { G.Foreign = true; },
       "not declared in this kernel"},
      {"struct", [](UninitGroupFacts &G) { G.SeveralMembers = true; },
       "variable of several members"},
      {"buffer", [](UninitGroupFacts &G) { G.Events.Buffer = true; },
       "also holds buffers"},
      {"pool shared",
       [](UninitGroupFacts &G) { G.PoolSharedWith = "a helper names it"; },
       "pool, and a helper names it: code there"},
      {"pool use", [](UninitGroupFacts &G) { G.PoolUnknownUse = "it escapes"; },
       "struct laid over the dynamic shared-memory pool, and it escapes"},
      {"unknown reference", [](UninitGroupFacts &G) { G.AllKnown = false; },
       "no event accounts for"},
  };
  for (const Case &C : Cases) {
    UninitGroupFacts G = usedGroup();
    C.Set(G);
    std::vector<UninitViolation> V;
    Silences Why = judge(G, V);
    EXPECT_TRUE(V.empty()) << C.What;
    ASSERT_EQ(Why.size(), 1u) << C.What;
    EXPECT_STREQ(Why[0].Rule, "MBAR-UNINIT");
    EXPECT_EQ(Why[0].Site, 4u) << C.What;
    EXPECT_NE(Why[0].Why.find(C.Says), std::string::npos)
        << C.What << ": " << Why[0].Why;
  }
}

TEST(UninitSite, EntryPointUnnamedInit) {
  UninitFacts F;
  F.UnnamedInit = 2;
  F.FirstUses = {4, 7};
  F.Groups = {usedGroup()};
  Silences Why;
  EXPECT_TRUE(checkUninit(F, &Why).empty());
  ASSERT_EQ(Why.size(), 2u);
  EXPECT_EQ(Why[0].Site, 4u);
  EXPECT_EQ(Why[1].Site, 7u);
  EXPECT_EQ(Why[1].At, std::optional<std::size_t>(2));
  // The reported twin: no such init.
  F.UnnamedInit.reset();
  EXPECT_EQ(checkUninit(F, &Why).size(), 1u);
}

TEST(UninitSite, EntryPointPoolSlots) {
  PoolSlotFacts P;
  P.First = 3;
  P.Slots.Inits = {slot(0, 8, 2)};
  P.Slots.Uses = {{3, slot(0), "smem + 0"}, {7, slot(16), "smem + 16"}};
  UninitGroupFacts G;
  G.Name = "smem";
  G.Events.First = 3;
  G.Slots = P;
  std::vector<UninitViolation> V;
  Silences Why = judge(G, V);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Event, 7u);
  EXPECT_EQ(V[0].Name, "smem + 16");
  EXPECT_TRUE(Why.empty());
  // The correct twin: the init loop covers both.
  G.Slots->Slots.Inits = {slot(0, 8, 3)};
  judge(G, V);
  EXPECT_TRUE(V.empty());
  // Each fact that may hide an init keeps it silent, and says so.
  const std::pair<PoolSlotFacts::Hider, const char *> Hiders[] = {
      {PoolSlotFacts::Hider::Opaque, "does not follow (line 12)"},
      {PoolSlotFacts::Hider::OtherName, "names the same pool"},
      {PoolSlotFacts::Hider::UnknownOffset, "cannot fold"},
      {PoolSlotFacts::Hider::UnknownReference, "no event accounts for"},
  };
  for (const auto &[H, Says] : Hiders) {
    G.Slots = P;
    G.Slots->Hidden = H;
    G.Slots->HiderLine = 12;
    Why = judge(G, V);
    EXPECT_TRUE(V.empty()) << Says;
    ASSERT_EQ(Why.size(), 1u) << Says;
    EXPECT_EQ(Why[0].Site, 3u);
    EXPECT_NE(Why[0].Why.find(Says), std::string::npos) << Why[0].Why;
  }
  G.Slots = P;
  G.Slots->SharedWith = "a helper names it";
  Why = judge(G, V);
  EXPECT_TRUE(V.empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_NE(Why[0].Why.find("a helper names it"), std::string::npos);
  // A pool never used: nothing to judge.
  G.Slots = P;
  G.Slots->First.reset();
  EXPECT_TRUE(judge(G, V).empty());
  EXPECT_TRUE(V.empty());
}

/// A pool of a ring's full barriers (`smem + 0 + 8 * s`, 4 stages) used at
/// event 5, its stage proven 0 the first time (FirstMember), and the inits
/// \p Inits: the fact record of ordering-uninit-pool-members.cu's kernels.
UninitGroupFacts ringMembers(std::vector<PoolSlot> Inits) {
  PoolSlotFacts P;
  P.First = 5;
  P.Slots.Inits = std::move(Inits);
  for (std::size_t I = 0; I < P.Slots.Inits.size(); ++I)
    P.Slots.InitEvents.push_back(I);
  P.Slots.Uses = {{5, slot(0, 8), "smem + 0 + 8 * s"}};
  P.Slots.Members = {{5, slot(0), "smem", "smem + 0 + 8 * s"},
                     {9, slot(0), "smem", "smem + 0 + 8 * s"}};
  UninitGroupFacts G;
  G.Name = "smem";
  G.Events.First = 5;
  G.Slots = P;
  return G;
}

TEST(UninitSite, PoolMembersFirstRun) {
  PoolBarrierFacts F;
  // Unrolled inits of stages 1..3: the family may be covered, member 0
  // is not.
  F.Inits = {slot(8), slot(16), slot(24)};
  F.Members = {{5, slot(0)}, {9, slot(8)}};
  EXPECT_EQ(uninitialisedPoolBarriers(F), (std::vector<std::size_t>{}));
  EXPECT_EQ(uninitialisedPoolMembers(F), (std::vector<std::size_t>{0}));
  // The twin: stage 0's init too.
  F.Inits.push_back(slot(0));
  EXPECT_TRUE(uninitialisedPoolMembers(F).empty());
  // The empty family's init loop right after the full family's (its init
  // dropped): no member of the full family below 32 is one of its
  // members, whatever its member count.
  F.Inits = {slot(32, 8, 4)};
  EXPECT_EQ(uninitialisedPoolMembers(F), (std::vector<std::size_t>{0, 1}));
  F.Inits = {slot(32, 8, 0, false)};
  EXPECT_EQ(uninitialisedPoolMembers(F), (std::vector<std::size_t>{0, 1}));
  // An init loop from 0 of unknown members may cover both.
  F.Inits = {slot(0, 8, 0, false)};
  EXPECT_TRUE(uninitialisedPoolMembers(F).empty());
}

TEST(UninitSite, EntryPointPoolMembers) {
  std::vector<UninitViolation> V;
  // Stage 0's init dropped: reported once, at its first use, as the
  // member the use reaches on its first run.
  Silences Why = judge(ringMembers({slot(8), slot(16), slot(24)}), V);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Event, 5u);
  EXPECT_EQ(V[0].Name, "smem");
  EXPECT_TRUE(V[0].FirstRun);
  EXPECT_TRUE(Why.empty());
  // The twin: every stage initialised.
  Why = judge(ringMembers({slot(0), slot(8), slot(16), slot(24)}), V);
  EXPECT_TRUE(V.empty());
  EXPECT_TRUE(Why.empty());
  // Stage 1's dropped: the index names it only on a later run, whose
  // count is not known: silent, and the Why names the member.
  Why = judge(ringMembers({slot(0), slot(16), slot(24)}), V);
  EXPECT_TRUE(V.empty());
  ASSERT_EQ(Why.size(), 1u);
  EXPECT_EQ(Why[0].Site, 5u);
  EXPECT_NE(Why[0].Why.find("member 1 of 'smem + 0 + 8 * s' (offset 8) has "
                            "no init"),
            std::string::npos)
      << Why[0].Why;
  EXPECT_NE(Why[0].Why.find("only on a later run"), std::string::npos);
  // No init in the pool at all: the family itself, not the member.
  Why = judge(ringMembers({}), V);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_FALSE(V[0].FirstRun);
  EXPECT_EQ(V[0].Name, "smem + 0 + 8 * s");
}

TEST(UninitSite, ArrayPartsByElement) {
  // `__shared__ uint64_t bars[2 * 4 + 1]` named by element: an init loop
  // over the empty barriers (elements 4..7) and the done barrier (8); the
  // full barriers' loop dropped. A use of the full family whose stage is 0
  // the first time reaches element 0, which neither covers.
  PoolBarrierFacts F;
  F.Inits = {slot(4, 1, 4), slot(8)};
  F.Uses = {{3, slot(0, 1), "bars[s]"}, {6, slot(4, 1), "bars[4 + s]"}};
  F.Members = {{3, slot(0), "bars[0]", "bars[s]"},
               {6, slot(4), "bars[4]", "bars[4 + s]"}};
  EXPECT_TRUE(uninitialisedPoolBarriers(F).empty());
  EXPECT_EQ(uninitialisedPoolMembers(F), (std::vector<std::size_t>{0}));
  // The twin: the full barriers' loop too.
  F.Inits.push_back(slot(0, 1, 4));
  EXPECT_TRUE(uninitialisedPoolMembers(F).empty());
  // The done barrier's init dropped: its fixed use is covered by none.
  F.Inits = {slot(0, 1, 4), slot(4, 1, 4)};
  F.Uses.push_back({9, slot(8), "bars[8]"});
  EXPECT_EQ(uninitialisedPoolBarriers(F), (std::vector<std::size_t>{9}));
  // Rows of `pingpong[2][2]`: row 1's init loop; a use of row 0 by a
  // per-thread index lies in its row (Members 2), which neither the loop
  // nor a fixed init of row 1 reaches.
  PoolSlot Row0 = slot(0, 1);
  Row0.Members = 2;
  EXPECT_FALSE(mayCover(slot(2, 1, 2), Row0));
  EXPECT_FALSE(mayCover(slot(2), Row0));
  EXPECT_TRUE(mayCover(slot(0, 1, 2), Row0));
  EXPECT_TRUE(mayCover(slot(1), Row0));
  // Unbounded, the family may reach row 1.
  Row0.Members = 0;
  EXPECT_TRUE(mayCover(slot(2, 1, 2), Row0));
  EXPECT_TRUE(mayCover(slot(2), Row0));
}

} // namespace
