//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the thread sets (rules/ThreadSets) and of
// MBAR-TX-ISSUERS (rules/DeviceRules).
//
//===----------------------------------------------------------------------===//
//
// The guards real kernels use, counted at the edges of the block sizes:
// one thread, one lane per warp, one warp, a warpgroup role, elect.sync in
// every warp or in one warp, else branches of && guards; which counts are
// proven for a range of block sizes, and which thread shows that one set
// is not inside another.
//
//===----------------------------------------------------------------------===//

#include "rules/ThreadSets.h"
#include "rules/DeviceRules.h"

#include "gtest/gtest.h"

using namespace tma::rules::threads;

namespace {

Cond eq(ThreadExpr E, std::int64_t V) { return Cond::atom(E, Cmp::EQ, V); }
const ThreadExpr T{};
const ThreadExpr Lane{{Step::Mod, 32}};
const ThreadExpr Warp{{Step::Div, 32}};
const ThreadExpr WarpGroup{{Step::Div, 128}};

ThreadSet all() { return ThreadSet(); }

TEST(ThreadSets, OneThread) {
  ThreadSet S = all().under(eq(T, 0), true);
  EXPECT_EQ(countAt(S, 1), 1u);
  EXPECT_EQ(countAt(S, 1024), 1u);
  EXPECT_EQ(issuers(S, BlockSize{}), 1u);
  // threadIdx.x == 128 needs a block of more than 128 threads.
  ThreadSet T128 = all().under(eq(T, 128), true);
  EXPECT_EQ(countAt(T128, 128), 0u);
  EXPECT_EQ(countAt(T128, 129), 1u);
  EXPECT_FALSE(issuers(T128, BlockSize{}));
  EXPECT_EQ(issuers(T128, BlockSize{384, 384}), 1u);
}

TEST(ThreadSets, OneLanePerWarp) {
  ThreadSet S = all().under(eq(Lane, 0), true);
  EXPECT_EQ(countAt(S, 384), 12u);
  EXPECT_EQ(countAt(S, 33), 2u);
  // Not proven for a block between 1 and 384 threads.
  EXPECT_FALSE(issuers(S, blockSizeOf(std::nullopt, 384)));
  EXPECT_EQ(issuers(S, blockSizeOf(384, 384)), 12u);
  EXPECT_EQ(issuers(S, blockSizeOf(256, std::nullopt)), 8u);
}

TEST(ThreadSets, WarpAndLane) {
  ThreadSet S = all().under(Cond::both(eq(Warp, 0), eq(Lane, 0)), true);
  EXPECT_EQ(issuers(S, BlockSize{}), 1u);
  EXPECT_TRUE(contains(S, 0));
  EXPECT_FALSE(contains(S, 32));
  // The else branch: everyone else.
  ThreadSet E = all().under(Cond::both(eq(Warp, 0), eq(Lane, 0)), false);
  EXPECT_EQ(countAt(E, 128), 127u);
}

TEST(ThreadSets, Elect) {
  // elect.sync with no warp guard: one thread per warp.
  ThreadSet PerWarp = all().under(Cond::elect(), true);
  EXPECT_EQ(countAt(PerWarp, 256), 8u);
  EXPECT_EQ(countAt(PerWarp, 40), 2u);
  // In warp 1 only: lane 0 of warp 1.
  ThreadSet One = all().under(eq(Warp, 1), true).under(Cond::elect(), true);
  EXPECT_EQ(countAt(One, 256), 1u);
  EXPECT_TRUE(contains(One, 32));
  EXPECT_FALSE(contains(One, 33));
  EXPECT_EQ(issuers(One, BlockSize{64, 1024}), 1u);
  // `warp == 1 && elect_one_sync()`: the same thread.
  ThreadSet And = all().under(Cond::both(eq(Warp, 1), Cond::elect()), true);
  EXPECT_TRUE(includedIn(And, One, BlockSize{}));
  EXPECT_TRUE(includedIn(One, And, BlockSize{}));
  // Elect among the threads that passed an earlier guard (lanes >= 4).
  ThreadSet Upper = all()
                        .under(Cond::atom(Lane, Cmp::GE, 4), true)
                        .under(Cond::elect(), true);
  EXPECT_TRUE(contains(Upper, 4));
  EXPECT_FALSE(contains(Upper, 0));
}

TEST(ThreadSets, WarpGroupRoles) {
  // if (warpgroup == 0) producer (warp 0, elected) else consumers.
  ThreadSet Producer = all()
                           .under(eq(WarpGroup, 0), true)
                           .under(eq(Warp, 0), true)
                           .under(Cond::elect(), true);
  ThreadSet Consumers = all().under(eq(WarpGroup, 0), false);
  EXPECT_EQ(issuers(Producer, BlockSize{384, 384}), 1u);
  EXPECT_EQ(countAt(Consumers, 384), 256u);
  EXPECT_EQ(firstOutside(Consumers, Producer, BlockSize{384, 384}), 128u);
  // Thread 128 exists only in blocks of more than 128 threads: with an
  // unknown block the consumers are not proven to exist.
  EXPECT_FALSE(provenOutside(Consumers, {&Producer}, BlockSize{}));
  EXPECT_TRUE(provenOutside(Consumers, {&Producer}, BlockSize{384, 384}));
}

TEST(ThreadSets, ProvenOutsideAssumesOneWarp) {
  ThreadSet Zero = all().under(eq(T, 0), true);
  ThreadSet Everyone = all();
  // All threads wait, thread 0 committed: thread 1 is outside, and a kernel
  // that tells its threads apart runs at least one warp.
  EXPECT_TRUE(provenOutside(all(), {&Zero}, BlockSize{}));
  EXPECT_FALSE(provenOutside(Zero, {&Everyone}, BlockSize{}));
  // ... unless __launch_bounds__ says the block has one thread.
  EXPECT_FALSE(provenOutside(all(), {&Zero}, blockSizeOf(std::nullopt, 1)));
  // A thread beyond the first warp is not proven to exist.
  ThreadSet High = all().under(Cond::atom(T, Cmp::GE, 64), true);
  EXPECT_FALSE(provenOutside(High, {&Zero}, BlockSize{}));
  // Two fences in two branches cover every writer between them.
  ThreadSet Low = all().under(Cond::atom(T, Cmp::LT, 16), true);
  ThreadSet Rest = all().under(Cond::atom(T, Cmp::LT, 16), false);
  EXPECT_FALSE(provenOutside(all(), {&Low, &Rest}, BlockSize{}));
  EXPECT_TRUE(provenOutside(all(), {&Low}, BlockSize{}));
}

TEST(ThreadSets, SubsetBounds) {
  ThreadSet Zero = all().under(eq(T, 0), true);
  ThreadSet Consumers = all().under(eq(WarpGroup, 0), false);
  ThreadSet Lanes = all()
                        .under(Cond::atom(T, Cmp::GT, 0), true)
                        .under(Cond::atom(T, Cmp::LT, 32), true);
  // Every subset of the consumers lies outside thread 0; one of all threads
  // may not.
  EXPECT_TRUE(allOutside(Consumers, Zero, BlockSize{384, 384}));
  EXPECT_FALSE(allOutside(all(), Zero, BlockSize{384, 384}));
  // No consumer in a block of 128 threads.
  EXPECT_FALSE(allOutside(Consumers, Zero, BlockSize{1, 128}));
  EXPECT_TRUE(shareAWarp(Lanes, Zero, BlockSize{}));
  EXPECT_FALSE(shareAWarp(Consumers, Zero, BlockSize{384, 384}));
  auto Span = span(Consumers, 384);
  ASSERT_TRUE(Span);
  EXPECT_EQ(Span->first, 128u);
  EXPECT_EQ(Span->second, 383u);
  EXPECT_FALSE(span(Consumers, 128));
}

TEST(ThreadSets, Expressions) {
  // (t >> 5) & 3 == 2: warp 2 of each warpgroup.
  ThreadExpr WarpInGroup{{Step::Shr, 5}, {Step::And, 3}};
  ThreadSet S = all().under(eq(WarpInGroup, 2), true);
  EXPECT_EQ(countAt(S, 256), 64u);
  EXPECT_TRUE(warpUniform(Warp));
  EXPECT_TRUE(warpUniform(WarpInGroup));
  EXPECT_FALSE(warpUniform(Lane));
  EXPECT_FALSE(warpUniform(ThreadExpr{{Step::Div, 16}}));
  // Or and Not.
  ThreadSet Or = all().under(Cond::either(eq(T, 0), eq(T, 5)), true);
  EXPECT_EQ(countAt(Or, 32), 2u);
  ThreadSet Not = all().under(Cond::negate(eq(Lane, 0)), true);
  EXPECT_EQ(countAt(Not, 64), 62u);
}

TEST(ThreadSets, BlockSizeOf) {
  EXPECT_EQ(blockSizeOf(std::nullopt, std::nullopt).Max, 1024u);
  EXPECT_EQ(blockSizeOf(std::nullopt, std::nullopt).Min, 1u);
  EXPECT_EQ(blockSizeOf(std::nullopt, 384).Max, 384u);
  EXPECT_TRUE(blockSizeOf(128, 384).exact());
  // A launch above the bound is no launch the kernel runs with.
  EXPECT_FALSE(blockSizeOf(512, 384).exact());
}

using tma::rules::checkMbarTxIssuers;

TEST(MbarTxIssuers, CopyPerWarp) {
  // One expect-tx of 4096 by one thread; the copy of 4096 by 4 warps.
  auto V = checkMbarTxIssuers({4096}, {1}, {4096}, {4}, "bar");
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-TX-ISSUERS");
  EXPECT_EQ(V->Value, 4096u);
  EXPECT_EQ(V->Limit, 16384u);
  EXPECT_NE(V->Message.find("4 threads"), std::string::npos);
}

TEST(MbarTxIssuers, CountedRight) {
  // Each of 4 lanes copies a quarter; the one expect-tx counts all four.
  EXPECT_FALSE(checkMbarTxIssuers({4096}, {1}, {1024}, {4}, "bar"));
  // Every issuer expects its own copy.
  EXPECT_FALSE(checkMbarTxIssuers({1024}, {4}, {1024}, {4}, "bar"));
}

TEST(MbarTxIssuers, SameIssuersIsNotThisRule) {
  // One thread each: MBAR-TX-EQUALS-BYTES decides, not this rule.
  EXPECT_FALSE(checkMbarTxIssuers({1024}, {1}, {2048}, {1}, "bar"));
  EXPECT_FALSE(checkMbarTxIssuers({1024}, {8}, {2048}, {8}, "bar"));
}

TEST(MbarTxIssuers, UnknownIsSilent) {
  EXPECT_FALSE(checkMbarTxIssuers({std::nullopt}, {1}, {4096}, {4}, "bar"));
  EXPECT_FALSE(checkMbarTxIssuers({4096}, {1}, {}, {}, "bar"));
}

} // namespace
