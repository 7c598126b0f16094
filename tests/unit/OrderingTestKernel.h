//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Test helpers for the ordering rules: a kernel's events
// and their control flow (rules/OrderingFlow), built from a straight list or
// from a small structured program (ifs, loops, early returns, breaks) the
// way api/KernelModel builds them from Clang's CFG: nodes in reverse
// post-order, events in a branch marked Guarded.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_TESTS_UNIT_ORDERINGTESTKERNEL_H
#define TMA_TIDY_TESTS_UNIT_ORDERINGTESTKERNEL_H

#include "rules/OrderingRules.h"

#include <functional>
#include <initializer_list>
#include <vector>

namespace tma::rules::ordering::test {

/// Events and flow of one kernel.
struct Kern {
  std::vector<Event> Seq;
  Flow G;
  Kern(std::vector<Event> S, Flow F) : Seq(std::move(S)), G(std::move(F)) {}
  /// A straight line of events.
  Kern(std::vector<Event> S)
      : Seq(std::move(S)), G(Flow::straight(Seq.size())) {}
  Kern(std::initializer_list<Event> S) : Kern(std::vector<Event>(S)) {}
};

/// A structured program: `P << e` appends an event; ifElse, loop, ret and
/// brk shape the flow around the events they add.
class Prog {
public:
  using Body = std::function<void(Prog &)>;
  Prog() { Cur = G.node(); }

  Prog &operator<<(Event E) {
    E.Guarded |= Under;
    G.event(Cur, Seq.size());
    Seq.push_back(std::move(E));
    return *this;
  }
  /// `if (c) Then else Else`; Guarded marks the events of both branches
  /// (false: a branch on a uniform condition the test does not care for).
  Prog &ifElse(const Body &Then, const Body &Else = nullptr) {
    std::size_t Cond = Cur;
    bool Saved = Under;
    bool ThenEnds = arm(Cond, Then), ElseEnds = false;
    std::size_t ThenEnd = Cur;
    std::size_t ElseEnd = Cond;
    if (Else) {
      ElseEnds = arm(Cond, Else);
      ElseEnd = Cur;
    }
    Under = Saved || ThenEnds || ElseEnds;
    Cur = G.node();
    if (!ThenEnds)
      G.edge(ThenEnd, Cur);
    if (!ElseEnds)
      G.edge(ElseEnd, Cur);
    return *this;
  }
  /// `while (c) Body`: a header, the body, the back edge, the exit.
  Prog &loop(const Body &B) {
    std::size_t Header = G.node();
    G.edge(Cur, Header);
    Cur = G.node();
    G.edge(Header, Cur);
    Breaks.emplace_back();
    B(*this);
    if (!Ended)
      G.edge(Cur, Header);
    Ended = false;
    std::size_t After = G.node();
    G.edge(Header, After);
    for (std::size_t N : Breaks.back())
      G.edge(N, After);
    Breaks.pop_back();
    Cur = After;
    return *this;
  }
  /// An early return: the kernel ends here.
  Prog &ret() {
    G.exit(Cur, /*Early=*/true);
    Ended = true;
    Cur = G.node();
    return *this;
  }
  /// A break out of the innermost loop.
  Prog &brk() {
    Breaks.back().push_back(Cur);
    Ended = true;
    Cur = G.node();
    return *this;
  }
  Kern done() {
    G.exit(Cur);
    G.finish();
    return Kern(Seq, G);
  }

private:
  /// One arm of an if from \p Cond; whether it ended in a jump.
  bool arm(std::size_t Cond, const Body &B) {
    Cur = G.node();
    G.edge(Cond, Cur);
    Under = true;
    Ended = false;
    B(*this);
    bool E = Ended;
    Ended = false;
    return E;
  }

  std::vector<Event> Seq;
  Flow G;
  std::size_t Cur = 0;
  bool Under = false, Ended = false;
  std::vector<std::vector<std::size_t>> Breaks;
};

// The rules over a Kern.
inline std::vector<Finding> fenceBeforeStore(const Kern &K,
                                             threads::BlockSize B = {}) {
  return ordering::fenceBeforeStore(K.Seq, K.G, B);
}
inline std::vector<Finding> waitBeforeExit(const Kern &K) {
  return ordering::waitBeforeExit(K.Seq, K.G);
}
inline std::vector<Finding> waitBeforeReuse(const Kern &K) {
  return ordering::waitBeforeReuse(K.Seq, K.G);
}
inline std::vector<Finding> initVisible(const Kern &K,
                                        threads::BlockSize B = {}) {
  return ordering::initVisible(K.Seq, K.G, B);
}
inline std::vector<Finding> reinitInLoop(const Kern &K) {
  return ordering::reinitInLoop(K.Seq, K.G);
}
inline std::vector<Finding> loadWaitBeforeRead(const Kern &K) {
  return ordering::loadWaitBeforeRead(K.Seq, K.G);
}
inline std::vector<Finding> asyncWarFence(const Kern &K) {
  return ordering::asyncWarFence(K.Seq, K.G);
}
inline std::vector<Finding> expectAfterArrive(const Kern &K) {
  return ordering::expectAfterArrive(K.Seq, K.G);
}
inline std::vector<Finding> waitByOtherThreads(const Kern &K,
                                               threads::BlockSize B = {}) {
  return ordering::waitByOtherThreads(K.Seq, K.G, B);
}
inline std::vector<Finding> acquireAfterCopy(const Kern &K) {
  return ordering::acquireAfterCopy(K.Seq, K.G);
}
inline std::vector<Finding> mapRewriteInFlight(const Kern &K) {
  return ordering::mapRewriteInFlight(K.Seq, K.G);
}

} // namespace tma::rules::ordering::test

#endif // TMA_TIDY_TESTS_UNIT_ORDERINGTESTKERNEL_H
