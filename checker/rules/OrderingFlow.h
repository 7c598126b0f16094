//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The control flow between a kernel's ordering events, for the pure rules of
// rules/OrderingRules: nodes are basic blocks (api/KernelModel builds them
// from Clang's CFG of the kernel, with each inlined helper's CFG spliced in
// at its call), each holding its events in order, with successor lists.
// Node 0 is the entry. The path questions the rules ask are answered here:
// which events a search reaches from an event (stopping at some), the events
// on the paths between two events, dominance and post-dominance, and the
// natural loops (a back edge is a retreating edge of a depth-first search
// from the entry; the loop of a back edge t -> h is h and every node that
// reaches t without passing h).
//
// Event ids are indices into the kernel's event sequence; the builder
// numbers events along a reverse post-order of the nodes, so that an event
// with a smaller id comes first on every path that avoids back edges.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ORDERINGFLOW_H
#define TMA_TIDY_RULES_ORDERINGFLOW_H

#include <cstddef>
#include <functional>
#include <vector>

namespace tma::rules::ordering {

class Flow {
public:
  /// Whether a search stops at an event (it is reached, not passed).
  using Stop = std::function<bool(std::size_t)>;
  /// A set of events or of nodes, by id.
  using Set = std::vector<bool>;

  /// A new node; the first one is the entry.
  std::size_t node();
  /// Appends event \p E to node \p N.
  void event(std::size_t N, std::size_t E);
  void edge(std::size_t From, std::size_t To);
  /// \p N may end the kernel: at its end (\p Early false) or through an
  /// early `return` (true).
  void exit(std::size_t N, bool Early = false);
  /// Drops the nodes from \p N on (they hold no event) and the edges into
  /// them: a spliced body that showed nothing.
  void rollback(std::size_t N);
  /// Computes what the queries need (the dominator trees wait for the first
  /// dominance question); call after the last edge.
  void finish();

  /// A straight line of \p N events, one node each (unit tests, and
  /// callers that have no control flow).
  static Flow straight(std::size_t N);

  std::size_t nodes() const { return Nodes.size(); }
  std::size_t events() const { return NodeOf.size(); }
  std::size_t nodeOf(std::size_t E) const { return NodeOf[E]; }

  /// The events reached from event \p A (after it), forwards or backwards.
  /// Unless \p Back, no path goes round a loop around A once more: forwards,
  /// its back edge leads to its header and out of the loop (a `for` loop's
  /// exit is its header's), backwards it is not taken; the back edges of
  /// other loops are (a loop before or after A). The search marks an event
  /// where \p S holds but does not pass it, and enters no node outside
  /// \p Within (a node set) when given. \p A itself is marked when a cycle
  /// leads back to it.
  Set search(std::size_t A, bool Forward, bool Back, const Stop &S = nullptr,
             const Set *Within = nullptr) const;
  /// Whether a search from \p A reaches a node that ends the kernel
  /// (\p Early: through an early return), stopping as search() does.
  bool reachesExit(std::size_t A, bool Early, const Stop &S = nullptr) const;
  /// Whether some path leads from \p A to \p B (as search() goes).
  bool reaches(std::size_t A, std::size_t B, bool Back,
               const Set *Within = nullptr) const;
  /// The events on some path from \p A to \p B that passes neither again,
  /// in path order: ids after A first, then (through a back edge) the ids
  /// up to A. Empty when B is not reached.
  std::vector<std::size_t> between(std::size_t A, std::size_t B, bool Back,
                                   const Set *Within = nullptr) const;

  /// Every path from the entry to \p B passes \p A (A comes first).
  bool dominates(std::size_t A, std::size_t B) const;
  /// Every path from \p B to an exit passes \p A (A comes later).
  bool postDominates(std::size_t A, std::size_t B) const;
  /// The events that some event of \p From dominates (every path from the
  /// entry to them passes it first), in one pass over the dominator tree:
  /// linear in the nodes and events, however many events \p From holds.
  /// An event of a node the entry does not reach is not in the set.
  Set dominatedBy(const std::vector<std::size_t> &From) const;

  /// The nodes of the innermost loop around event \p E; null when none.
  const Set *loopOf(std::size_t E) const;
  /// The loops around event \p E, innermost first.
  std::vector<const Set *> loopsAround(std::size_t E) const;

private:
  struct Node {
    std::vector<std::size_t> Events, Succ, Pred;
    bool Exit = false, EarlyExit = false;
  };
  bool isBack(std::size_t From, std::size_t To) const;
  /// Dominator tree of the nodes (or, with Post, of the reversed graph from
  /// a virtual exit): Idom, then DFS intervals for O(1) queries.
  struct Tree {
    std::vector<std::size_t> Idom, In, Out;
    bool has(std::size_t N) const { return In[N] != 0; }
    /// \p A is \p B or an ancestor of it.
    bool under(std::size_t A, std::size_t B) const {
      return has(A) && has(B) && In[A] <= In[B] && Out[B] <= Out[A];
    }
  };
  void buildTree(Tree &T, bool Post) const;
  /// The trees, built on the first dominance question (most kernels' rules
  /// ask none).
  const Tree &dom() const;
  const Tree &postDom() const;

  std::vector<Node> Nodes;
  /// The edges in the order they were added, and per node the length of
  /// that log when it was made: an edge into a node added later than it,
  /// so rollback() scans only the edges added since its first dropped node
  /// (it scanned every node's successors: N spliced helpers that show
  /// nothing, N^2).
  std::vector<std::pair<std::size_t, std::size_t>> EdgeLog;
  std::vector<std::size_t> LogAtNode;
  std::vector<std::size_t> NodeOf, PosOf;
  /// Back edges, as (from, to) pairs, kept sorted.
  std::vector<std::pair<std::size_t, std::size_t>> BackEdges;
  mutable Tree Dom, PostDom;
  mutable bool HasDom = false, HasPostDom = false;
  struct Loop {
    std::size_t Header;
    Set Body;
    std::size_t Size;
  };
  std::vector<Loop> Loops;
  /// Per node: the loops around it, innermost first.
  std::vector<std::vector<std::size_t>> LoopsOfNode;
};

} // namespace tma::rules::ordering

#endif // TMA_TIDY_RULES_ORDERINGFLOW_H
