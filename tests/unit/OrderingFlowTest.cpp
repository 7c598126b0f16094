//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the control flow between ordering events
// (rules/OrderingFlow): searches that stop at events, the events between
// two events in path order (through a back edge too), dominance (by one
// event and by a set), post-dominance, natural loops, exits.
//
//===----------------------------------------------------------------------===//

#include "OrderingTestKernel.h"

#include "gtest/gtest.h"

using namespace tma::rules::ordering;
using namespace tma::rules::ordering::test;

namespace {

Event ev() { return Event(); }

// e0; if (c) { e1 } else { e2 } e3
Kern diamond() {
  Prog P;
  P << ev();
  P.ifElse([](Prog &Q) { Q << ev(); }, [](Prog &Q) { Q << ev(); });
  P << ev();
  return P.done();
}

TEST(Flow, StraightLine) {
  Flow G = Flow::straight(3);
  EXPECT_TRUE(G.reaches(0, 2, false));
  EXPECT_FALSE(G.reaches(2, 0, true));
  EXPECT_EQ(G.between(0, 2, false), std::vector<std::size_t>({1}));
  EXPECT_TRUE(G.dominates(0, 2));
  EXPECT_TRUE(G.postDominates(2, 0));
  EXPECT_FALSE(G.postDominates(0, 2));
  EXPECT_EQ(G.loopOf(1), nullptr);
  EXPECT_TRUE(G.reachesExit(0, false));
  EXPECT_FALSE(G.reachesExit(0, false, [](std::size_t E) { return E == 1; }));
}

TEST(Flow, Branches) {
  Kern K = diamond();
  const Flow &G = K.G;
  EXPECT_FALSE(G.reaches(1, 2, true)); // then and else: never one path
  EXPECT_TRUE(G.reaches(1, 3, false));
  EXPECT_EQ(G.between(0, 3, false), std::vector<std::size_t>({1, 2}));
  EXPECT_TRUE(G.between(1, 2, false).empty());
  EXPECT_TRUE(G.dominates(0, 3));
  EXPECT_FALSE(G.dominates(1, 3));
  EXPECT_TRUE(G.postDominates(3, 1));
  EXPECT_FALSE(G.postDominates(1, 0));
  EXPECT_TRUE(K.Seq[1].Guarded && K.Seq[2].Guarded);
  EXPECT_FALSE(K.Seq[0].Guarded || K.Seq[3].Guarded);
  // A search that stops at e1 still reaches e3 through e2.
  auto S = G.search(0, true, false, [](std::size_t E) { return E == 1; });
  EXPECT_TRUE(S[1] && S[2] && S[3]);
  auto B = G.search(3, false, false, [](std::size_t E) { return E != 0; });
  EXPECT_FALSE(B[0]); // both ways to e0 stop before it
}

TEST(Flow, LoopAndBackEdge) {
  // e0; while (c) { e1; e2; } e3
  Prog P;
  P << ev();
  P.loop([](Prog &Q) { Q << ev() << ev(); });
  P << ev();
  Kern K = P.done();
  const Flow &G = K.G;
  EXPECT_FALSE(G.reaches(2, 1, false));
  EXPECT_TRUE(G.reaches(2, 1, true));
  // Out of the loop through its header, not round it again; into it from
  // before, and back to the loop's events from after it.
  EXPECT_TRUE(G.reaches(2, 3, false));
  EXPECT_TRUE(G.reaches(0, 2, false));
  EXPECT_TRUE(G.search(3, false, false)[2]);
  EXPECT_FALSE(G.search(1, false, false)[2]);
  EXPECT_EQ(G.between(0, 3, false), std::vector<std::size_t>({1, 2}));
  EXPECT_TRUE(G.reaches(1, 1, true, G.loopOf(1)));
  ASSERT_NE(G.loopOf(1), nullptr);
  EXPECT_EQ(G.loopOf(0), nullptr);
  EXPECT_EQ(G.loopOf(3), nullptr);
  EXPECT_EQ(G.loopOf(1), G.loopOf(2));
  // Through the back edge, in path order: none between e2 and e1; from e2
  // back to e2: e1.
  EXPECT_TRUE(G.between(2, 1, true).empty());
  EXPECT_EQ(G.between(2, 2, true), std::vector<std::size_t>({1}));
  EXPECT_TRUE(G.dominates(0, 3));
  EXPECT_FALSE(G.postDominates(1, 0)); // the loop may run no pass
  EXPECT_TRUE(G.postDominates(3, 1));
}

TEST(Flow, DominatedByASet) {
  // e0; if (c) { e1 } else { e2 } e3; while (c) { e4; e5; } e6
  Prog P;
  P << ev();
  P.ifElse([](Prog &Q) { Q << ev(); }, [](Prog &Q) { Q << ev(); });
  P << ev();
  P.loop([](Prog &Q) { Q << ev() << ev(); });
  P << ev();
  Kern K = P.done();
  const Flow &G = K.G;
  // One event: the same as dominates(), strictly (not itself).
  for (std::size_t A = 0; A < G.events(); ++A) {
    Flow::Set D = G.dominatedBy({A});
    for (std::size_t B = 0; B < G.events(); ++B)
      EXPECT_EQ(D[B], A != B && G.dominates(A, B)) << A << " " << B;
  }
  // Neither arm dominates e3, nor does the set of both: a set dominates
  // where one of its events does, not where all paths pass some of them.
  Flow::Set Arms = G.dominatedBy({1, 2});
  EXPECT_FALSE(Arms[3]);
  EXPECT_FALSE(Arms[0]);
  // e4 dominates e5 and nothing after the loop (it may run no pass).
  Flow::Set Body = G.dominatedBy({4});
  EXPECT_TRUE(Body[5]);
  EXPECT_FALSE(Body[6]);
  Flow::Set Both = G.dominatedBy({3, 5});
  EXPECT_TRUE(Both[4] && Both[5] && Both[6]);
  EXPECT_TRUE(G.dominatedBy({}) == Flow::Set(G.events(), false));
}

TEST(Flow, NestedLoopsInnermostFirst) {
  Prog P;
  P.loop([](Prog &Q) {
    Q << ev();
    Q.loop([](Prog &R) { R << ev(); });
  });
  Kern K = P.done();
  auto Around = K.G.loopsAround(1);
  ASSERT_EQ(Around.size(), 2u);
  EXPECT_FALSE((*Around[0])[K.G.nodeOf(0)]);
  EXPECT_TRUE((*Around[1])[K.G.nodeOf(0)]);
  EXPECT_EQ(K.G.loopsAround(0).size(), 1u);
}

TEST(Flow, EarlyReturnAndBreak) {
  // if (c) return; e0   -- e0 is guarded, the return is an early exit.
  Prog P;
  P << ev();
  P.ifElse([](Prog &Q) { Q.ret(); });
  P << ev();
  Kern K = P.done();
  EXPECT_TRUE(K.Seq[1].Guarded);
  EXPECT_TRUE(K.G.reachesExit(0, true));
  EXPECT_FALSE(K.G.reachesExit(1, true));
  EXPECT_FALSE(K.G.postDominates(1, 0));
  // while (c) { e0; break; } e1: no cycle.
  Prog L;
  L.loop([](Prog &Q) {
    Q << ev();
    Q.brk();
  });
  L << ev();
  Kern B = L.done();
  EXPECT_FALSE(B.G.reaches(0, 0, true));
  EXPECT_TRUE(B.G.reaches(0, 1, false));
}

TEST(Flow, GotoLoopHasABackEdge) {
  // e0; L: e1; if (c) goto L; e2  -- nodes built by hand, as from a CFG.
  Flow G;
  std::size_t A = G.node(), B = G.node(), C = G.node(), D = G.node();
  G.event(A, 0);
  G.event(B, 1);
  G.event(D, 2);
  G.edge(A, B);
  G.edge(B, C);
  G.edge(C, B);
  G.edge(C, D);
  G.exit(D);
  G.finish();
  EXPECT_TRUE(G.reaches(1, 1, true));
  EXPECT_FALSE(G.reaches(1, 1, false));
  EXPECT_TRUE(G.reaches(1, 2, false));
  ASSERT_NE(G.loopOf(1), nullptr);
  EXPECT_EQ(G.loopOf(2), nullptr);
  EXPECT_TRUE(G.postDominates(2, 1));
}

} // namespace
