//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the ordering rules that read the threads
// of each event (rules/OrderingRules with rules/ThreadSets).
//
//===----------------------------------------------------------------------===//
//
// BULK-WAITGROUP-SCOPE decided by thread sets where they are known (the
// same thread in two blocks, a warp waiting for one thread), the guards'
// structure where they are not; TMA-STORE-FENCE with fences that do or do
// not run in the writing threads.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingRules.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
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

Event ev(K Kind, int Object, std::shared_ptr<const th::ThreadSet> T,
         std::vector<std::pair<std::uintptr_t, unsigned>> Branches = {}) {
  Event E;
  E.Kind = Kind;
  E.Object = Object;
  E.Threads = std::move(T);
  E.Branches = std::move(Branches);
  return E;
}
Event store(std::shared_ptr<const th::ThreadSet> T,
            std::vector<std::pair<std::uintptr_t, unsigned>> Branches) {
  Event E = ev(K::Store, 0, std::move(T), std::move(Branches));
  E.WholeObject = true;
  E.Tensor = true;
  return E;
}
Event wait0(std::shared_ptr<const th::ThreadSet> T,
            std::vector<std::pair<std::uintptr_t, unsigned>> Branches = {}) {
  Event E = ev(K::WaitGroup, -1, std::move(T), std::move(Branches));
  E.Depth = 0;
  return E;
}

TEST(WaitByOtherThreads, SameThreadInTwoBlocks) {
  // if (t == 0) { store; commit; }  if (t == 0) wait;  if (t == 0) write;
  std::vector<Event> Seq = {
      store(thread0(), {{1, 0}}), ev(K::Commit, -1, thread0(), {{1, 0}}),
      wait0(thread0(), {{2, 0}}), ev(K::GenericWrite, 0, thread0(), {{3, 0}})};
  EXPECT_TRUE(waitByOtherThreads(Seq).empty());
  // Without thread sets the guards' structure decides (and reports).
  for (Event &E : Seq)
    E.Threads = nullptr;
  EXPECT_EQ(waitByOtherThreads(Seq).size(), 1u);
}

TEST(WaitByOtherThreads, WarpWaitsForOneThread) {
  // if (t == 0) { store; commit; }  if (t < 32) { wait; write; }
  std::vector<Event> Seq = {
      store(thread0(), {{1, 0}}), ev(K::Commit, -1, thread0(), {{1, 0}}),
      wait0(below(32), {{2, 0}}), ev(K::GenericWrite, 0, below(32), {{2, 0}})};
  auto F = waitByOtherThreads(Seq);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "BULK-WAITGROUP-SCOPE");
  EXPECT_EQ(F[0].First, 0u);
  EXPECT_EQ(F[0].Second, 3u);
  EXPECT_EQ(F[0].Wait, 2u);
  // Only the issuing thread writes: no scope error.
  Seq[3].Threads = thread0();
  EXPECT_TRUE(waitByOtherThreads(Seq).empty());
  // A writer set not proven to hold another thread (threads 64 and up may
  // not exist): silent.
  Seq[3].Threads = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::GE, 64), true));
  EXPECT_TRUE(waitByOtherThreads(Seq).empty());
  // ... unless the block is known to have them.
  EXPECT_EQ(waitByOtherThreads(Seq, th::BlockSize{128, 128}).size(), 1u);
}

TEST(FenceBeforeStore, FenceInTheWritingThreads) {
  // all write; if (t == 0) fence; sync; if (t == 0) store
  std::vector<Event> Seq = {ev(K::GenericWrite, 0, everyone()),
                            ev(K::ProxyFence, -1, thread0(), {{1, 0}}),
                            ev(K::ThreadSync, -1, everyone()),
                            store(thread0(), {{2, 0}})};
  auto F = fenceBeforeStore(Seq);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_STREQ(F[0].Rule, "TMA-STORE-FENCE");
  EXPECT_EQ(F[0].First, 0u);
  // Every thread fences: correct.
  Seq[1].Threads = everyone();
  EXPECT_TRUE(fenceBeforeStore(Seq).empty());
  // The writers are thread 0 only: its fence covers them.
  Seq[0].Threads = thread0();
  Seq[1].Threads = thread0();
  EXPECT_TRUE(fenceBeforeStore(Seq).empty());
  // A fence whose threads are unknown silences the pair.
  Seq[0].Threads = everyone();
  Seq[1].Threads = nullptr;
  EXPECT_TRUE(fenceBeforeStore(Seq).empty());
  // So do writers whose threads are unknown.
  Seq[0].Threads = nullptr;
  Seq[1].Threads = thread0();
  EXPECT_TRUE(fenceBeforeStore(Seq).empty());
}

TEST(FenceBeforeStore, FencesInTwoBranches) {
  auto Low = below(64);
  auto High = set(th::ThreadSet().under(
      th::Cond::atom(th::ThreadExpr(), th::Cmp::LT, 64), false));
  std::vector<Event> Seq = {ev(K::GenericWrite, 0, Low, {{1, 0}}),
                            ev(K::ProxyFence, -1, Low, {{1, 0}}),
                            ev(K::GenericWrite, 0, High, {{1, 1}}),
                            ev(K::ProxyFence, -1, High, {{1, 1}}),
                            ev(K::ThreadSync, -1, everyone()),
                            store(thread0(), {{2, 0}})};
  EXPECT_TRUE(fenceBeforeStore(Seq).empty());
  // Every thread writes, the lower half fences: threads 64 and up are not
  // covered, in a block known to have them.
  std::vector<Event> Half = {
      ev(K::GenericWrite, 0, everyone()), ev(K::ProxyFence, -1, Low, {{1, 0}}),
      ev(K::ThreadSync, -1, everyone()), store(thread0(), {{2, 0}})};
  auto F = fenceBeforeStore(Half, th::BlockSize{128, 128});
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].First, 0u);
  // With an unknown block size threads 64 and up may not exist.
  EXPECT_TRUE(fenceBeforeStore(Half).empty());
}

} // namespace
