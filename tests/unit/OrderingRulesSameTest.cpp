//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The copy-and-read rules of rules/OrderingRules
// (TMA-LOAD-WAIT-BEFORE-READ / BULK-WAITGROUP-SCOPE, ASYNC-WAR-FENCE) ask
// only the reads of a copy's own buffer (issue 15: N copies with no read of
// their buffer cost N searches of N events). Their findings are compared
// here with the scans of every event that they replaced, on generated
// flows: random edges (loops, irreducible ones, unreachable nodes), random
// event kinds and objects.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingRules.h"

#include "gtest/gtest.h"

#include <random>
#include <tuple>

using namespace tma::rules::ordering;

namespace {

// The rules as they were (every event scanned), the reference.
template <typename Pred>
std::optional<std::size_t> firstOf(const Flow::Set &Marked, Pred P) {
  for (std::size_t J = 0; J < Marked.size(); ++J)
    if (Marked[J] && P(J))
      return J;
  return std::nullopt;
}

bool ordersWarRef(const Event &E) {
  switch (E.Kind) {
  case EventKind::BarrierUse:
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

std::vector<Finding> loadWaitBeforeReadRef(const std::vector<Event> &Seq,
                                           const Flow &G) {
  std::vector<Finding> Out;
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    if (Seq[L].Kind != EventKind::Load || Seq[L].Object < 0)
      continue;
    auto Read = firstOf(G.search(L, true, false), [&](std::size_t J) {
      return Seq[J].Kind == EventKind::GenericRead &&
             Seq[J].Object == Seq[L].Object;
    });
    if (!Read)
      continue;
    std::optional<std::size_t> GroupWait;
    bool Silent = false;
    for (std::size_t J : G.between(L, *Read, false)) {
      const Event &E = Seq[J];
      Silent |= E.Kind == EventKind::BarrierWait || E.Kind == EventKind::Opaque;
      if (E.Kind == EventKind::WaitGroup && (!GroupWait || J < *GroupWait))
        GroupWait = J;
    }
    if (!Silent)
      Out.push_back(
          {GroupWait ? "BULK-WAITGROUP-SCOPE" : "TMA-LOAD-WAIT-BEFORE-READ", L,
           *Read, GroupWait, 0});
  }
  return Out;
}

std::vector<Finding> asyncWarFenceRef(const std::vector<Event> &Seq,
                                      const Flow &G) {
  std::vector<Finding> Out;
  for (std::size_t L = 0; L < Seq.size(); ++L) {
    const Event &Ld = Seq[L];
    if (Ld.Kind != EventKind::Load || Ld.Object < 0)
      continue;
    auto IsRead = [&](std::size_t J) {
      return Seq[J].Kind == EventKind::GenericRead &&
             Seq[J].Object == Ld.Object;
    };
    const Flow::Set *Loop = G.loopOf(L);
    Flow::Set Reached = G.search(
        L, false, Loop != nullptr,
        [&](std::size_t J) { return ordersWarRef(Seq[J]) || IsRead(J); },
        Loop);
    std::optional<std::size_t> Read;
    for (std::size_t K = 1; K <= Seq.size() && !Read; ++K) {
      std::size_t J = (L + Seq.size() - K) % Seq.size();
      if (Reached[J] && IsRead(J))
        Read = J;
    }
    if (!Read)
      continue;
    bool Ordered = false;
    for (std::size_t J : G.between(*Read, L, Loop != nullptr, Loop))
      Ordered |= ordersWarRef(Seq[J]);
    if (!Ordered)
      Out.push_back({"ASYNC-WAR-FENCE", *Read, L, std::nullopt, 0});
  }
  return Out;
}

auto key(const Finding &F) {
  return std::make_tuple(std::string(F.Rule), F.First, F.Second, F.Wait,
                         F.Commits);
}

void expectSame(const std::vector<Finding> &A, const std::vector<Finding> &B,
                unsigned Seed) {
  ASSERT_EQ(A.size(), B.size()) << "seed " << Seed;
  for (std::size_t I = 0; I < A.size(); ++I)
    EXPECT_EQ(key(A[I]), key(B[I])) << "seed " << Seed << " finding " << I;
}

// A flow of random nodes and edges; events numbered in node order. Few
// kinds and objects, so that copies, reads and what orders them meet.
void generate(std::mt19937 &Rng, std::vector<Event> &Seq, Flow &G) {
  auto Pick = [&](unsigned N) {
    return std::uniform_int_distribution<unsigned>(0, N - 1)(Rng);
  };
  const EventKind Kinds[] = {EventKind::Load,        EventKind::Load,
                             EventKind::GenericRead, EventKind::GenericRead,
                             EventKind::GenericWrite, EventKind::BarrierWait,
                             EventKind::BarrierUse,  EventKind::WaitGroup,
                             EventKind::ProxyFence,  EventKind::ThreadSync,
                             EventKind::Opaque,      EventKind::Commit};
  unsigned Nodes = 1 + Pick(12);
  for (unsigned N = 0; N < Nodes; ++N) {
    G.node();
    for (unsigned E = Pick(4); E-- > 0;) {
      Event Ev;
      Ev.Kind = Kinds[Pick(sizeof(Kinds) / sizeof(Kinds[0]))];
      Ev.Object = static_cast<int>(Pick(4)) - 1; // -1: unknown
      Ev.Role = Pick(2) ? UseRole::Arrive : UseRole::Other;
      if (Ev.Kind == EventKind::WaitGroup && Pick(3))
        Ev.Depth = Pick(2);
      G.event(N, Seq.size());
      Seq.push_back(Ev);
    }
  }
  // Mostly forward edges, some backward and some skipping ahead.
  for (unsigned N = 0; N + 1 < Nodes; ++N)
    if (Pick(6))
      G.edge(N, N + 1);
  for (unsigned I = Pick(2 * Nodes); I-- > 0;)
    G.edge(Pick(Nodes), Pick(Nodes));
  G.exit(Nodes - 1);
  if (Pick(3) == 0)
    G.exit(Pick(Nodes), true);
  G.finish();
}

TEST(OrderingRulesSame, CopyAndReadRulesMatchTheFullScans) {
  std::mt19937 Rng(15);
  unsigned Findings = 0;
  for (unsigned Seed = 0; Seed < 4000; ++Seed) {
    std::vector<Event> Seq;
    Flow G;
    generate(Rng, Seq, G);
    if (Seq.empty())
      continue;
    auto A = loadWaitBeforeRead(Seq, G), B = asyncWarFence(Seq, G);
    expectSame(A, loadWaitBeforeReadRef(Seq, G), Seed);
    expectSame(B, asyncWarFenceRef(Seq, G), Seed);
    Findings += A.size() + B.size();
  }
  // The generated flows do draw findings (the comparison is not vacuous).
  EXPECT_GT(Findings, 200u);
}

} // namespace

namespace {

// Flow::rollback drops the nodes from N on and the edges into them by the
// edges added since node N was made. A flow with a rolled-back splice
// (nodes and edges, no events) must answer as the flow built without it.
TEST(OrderingRulesSame, RollbackLeavesTheFlowWithoutTheSplice) {
  std::mt19937 Rng(11);
  auto Pick = [&](unsigned N) {
    return std::uniform_int_distribution<unsigned>(0, N - 1)(Rng);
  };
  for (unsigned Seed = 0; Seed < 2000; ++Seed) {
    // The same script twice: once with the splice, once without.
    struct Step {
      bool Splice;
      std::vector<std::pair<unsigned, unsigned>> Edges;
      unsigned Events;
    };
    unsigned Before = 1 + Pick(6), Spliced = 1 + Pick(4), After = Pick(6);
    std::vector<std::pair<unsigned, unsigned>> E1, ESplice, E2;
    for (unsigned I = Pick(2 * Before + 1); I-- > 0;)
      E1.push_back({Pick(Before), Pick(Before)});
    for (unsigned I = Pick(3 * Spliced + 2); I-- > 0;)
      ESplice.push_back({Pick(Before + Spliced), Before + Pick(Spliced)});
    for (unsigned I = Pick(2 * (Before + After) + 1); I-- > 0;)
      E2.push_back({Pick(Before + After), Pick(Before + After)});
    std::vector<unsigned> EventsAt(Before + After);
    for (unsigned &N : EventsAt)
      N = Pick(3);
    auto Build = [&](bool WithSplice) {
      Flow G;
      std::size_t Ev = 0;
      for (unsigned N = 0; N < Before; ++N) {
        G.node();
        for (unsigned K = 0; K < EventsAt[N]; ++K)
          G.event(N, Ev++);
      }
      for (auto [A, B] : E1)
        G.edge(A, B);
      if (WithSplice) {
        for (unsigned N = 0; N < Spliced; ++N)
          G.node();
        for (auto [A, B] : ESplice)
          G.edge(A, B);
        // Edges among the old nodes added inside the splice stay.
        G.edge(0, Before - 1);
        G.rollback(Before);
      } else {
        G.edge(0, Before - 1);
      }
      for (unsigned N = Before; N < Before + After; ++N) {
        G.node();
        for (unsigned K = 0; K < EventsAt[N]; ++K)
          G.event(N, Ev++);
      }
      for (auto [A, B] : E2)
        G.edge(A, B);
      G.exit(G.nodes() - 1);
      G.finish();
      return G;
    };
    Flow A = Build(true), B = Build(false);
    ASSERT_EQ(A.nodes(), B.nodes()) << "seed " << Seed;
    ASSERT_EQ(A.events(), B.events()) << "seed " << Seed;
    for (std::size_t X = 0; X < A.events(); ++X) {
      EXPECT_EQ(A.search(X, true, false), B.search(X, true, false))
          << "seed " << Seed;
      EXPECT_EQ(A.search(X, false, true), B.search(X, false, true))
          << "seed " << Seed;
      for (std::size_t Y = 0; Y < A.events(); ++Y)
        EXPECT_EQ(A.dominates(X, Y), B.dominates(X, Y)) << "seed " << Seed;
    }
  }
}

} // namespace
