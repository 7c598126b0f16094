//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingFlow.h"

#include <algorithm>
#include <utility>

namespace tma::rules::ordering {

std::size_t Flow::node() {
  Nodes.emplace_back();
  LogAtNode.push_back(EdgeLog.size());
  return Nodes.size() - 1;
}

void Flow::event(std::size_t N, std::size_t E) {
  if (NodeOf.size() <= E) {
    NodeOf.resize(E + 1, 0);
    PosOf.resize(E + 1, 0);
  }
  NodeOf[E] = N;
  PosOf[E] = Nodes[N].Events.size();
  Nodes[N].Events.push_back(E);
}

void Flow::edge(std::size_t From, std::size_t To) {
  auto &S = Nodes[From].Succ;
  if (std::find(S.begin(), S.end(), To) == S.end()) {
    S.push_back(To);
    EdgeLog.emplace_back(From, To);
  }
}

void Flow::rollback(std::size_t N) {
  if (N >= Nodes.size())
    return;
  // Every edge into a node from N on was added after node N was made.
  std::size_t Keep = LogAtNode[N];
  for (std::size_t I = Keep; I < EdgeLog.size(); ++I) {
    auto [From, To] = EdgeLog[I];
    if (From >= N)
      continue;
    if (To < N) {
      EdgeLog[Keep++] = EdgeLog[I];
      continue;
    }
    auto &S = Nodes[From].Succ;
    S.erase(std::remove(S.begin(), S.end(), To), S.end());
  }
  EdgeLog.resize(Keep);
  Nodes.resize(N);
  LogAtNode.resize(N);
}

void Flow::exit(std::size_t N, bool Early) {
  (Early ? Nodes[N].EarlyExit : Nodes[N].Exit) = true;
}

Flow Flow::straight(std::size_t N) {
  Flow F;
  for (std::size_t I = 0; I < N; ++I) {
    F.event(F.node(), I);
    if (I)
      F.edge(I - 1, I);
  }
  if (N == 0)
    F.node();
  F.exit(F.nodes() - 1);
  F.finish();
  return F;
}

bool Flow::isBack(std::size_t From, std::size_t To) const {
  return std::binary_search(BackEdges.begin(), BackEdges.end(),
                            std::make_pair(From, To));
}

void Flow::buildTree(Tree &T, bool Post) const {
  // Cooper, Harvey and Kennedy's iterative algorithm over a reverse
  // post-order; with Post, on the reversed graph from a virtual exit
  // (number N) whose predecessors are the exit nodes.
  const std::size_t N = Nodes.size(), Root = Post ? N : 0, None = N + 1;
  auto Succs = [&](std::size_t X, std::vector<std::size_t> &Out) {
    Out.clear();
    if (!Post) {
      Out = Nodes[X].Succ;
    } else if (X == N) {
      for (std::size_t I = 0; I < N; ++I)
        if (Nodes[I].Exit || Nodes[I].EarlyExit)
          Out.push_back(I);
    } else {
      Out = Nodes[X].Pred;
    }
  };
  auto Preds = [&](std::size_t X, std::vector<std::size_t> &Out) {
    Out.clear();
    if (!Post) {
      Out = Nodes[X].Pred;
      return;
    }
    Out = Nodes[X].Succ;
    if (Nodes[X].Exit || Nodes[X].EarlyExit)
      Out.push_back(N);
  };
  std::vector<std::size_t> Order, Num(N + 1, None);
  {
    std::vector<char> Seen(N + 1, 0);
    std::vector<std::pair<std::size_t, std::size_t>> Stack{{Root, 0}};
    std::vector<std::size_t> Next;
    Seen[Root] = 1;
    while (!Stack.empty()) {
      auto &[X, I] = Stack.back();
      Succs(X, Next);
      if (I < Next.size()) {
        std::size_t Y = Next[I++];
        if (!Seen[Y]) {
          Seen[Y] = 1;
          Stack.push_back({Y, 0});
        }
        continue;
      }
      Order.push_back(X);
      Stack.pop_back();
    }
    std::reverse(Order.begin(), Order.end());
    for (std::size_t I = 0; I < Order.size(); ++I)
      Num[Order[I]] = I;
  }
  T.Idom.assign(N + 1, None);
  T.Idom[Root] = Root;
  std::vector<std::size_t> P;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (std::size_t X : Order) {
      if (X == Root)
        continue;
      std::size_t New = None;
      Preds(X, P);
      for (std::size_t Y : P) {
        if (Num[Y] == None || T.Idom[Y] == None)
          continue;
        if (New == None) {
          New = Y;
          continue;
        }
        std::size_t A = Y, B = New;
        while (A != B) {
          while (Num[A] > Num[B])
            A = T.Idom[A];
          while (Num[B] > Num[A])
            B = T.Idom[B];
        }
        New = A;
      }
      if (New != None && T.Idom[X] != New) {
        T.Idom[X] = New;
        Changed = true;
      }
    }
  }
  // DFS intervals of the tree (0: not in it).
  std::vector<std::vector<std::size_t>> Kids(N + 1);
  for (std::size_t X : Order)
    if (X != Root && T.Idom[X] != None)
      Kids[T.Idom[X]].push_back(X);
  T.In.assign(N + 1, 0);
  T.Out.assign(N + 1, 0);
  std::size_t Clock = 0;
  std::vector<std::pair<std::size_t, std::size_t>> Stack{{Root, 0}};
  T.In[Root] = ++Clock;
  while (!Stack.empty()) {
    auto &[X, I] = Stack.back();
    if (I < Kids[X].size()) {
      std::size_t Y = Kids[X][I++];
      T.In[Y] = ++Clock;
      Stack.push_back({Y, 0});
      continue;
    }
    T.Out[X] = ++Clock;
    Stack.pop_back();
  }
}

void Flow::finish() {
  const std::size_t N = Nodes.size();
  for (Node &X : Nodes)
    X.Pred.clear();
  for (std::size_t I = 0; I < N; ++I)
    for (std::size_t S : Nodes[I].Succ)
      Nodes[S].Pred.push_back(I);
  // Back edges: retreating edges of a DFS from the entry.
  BackEdges.clear();
  std::vector<char> State(N, 0); // 1: on the stack, 2: done
  if (N) {
    std::vector<std::pair<std::size_t, std::size_t>> Stack{{0, 0}};
    State[0] = 1;
    while (!Stack.empty()) {
      auto &[X, I] = Stack.back();
      if (I < Nodes[X].Succ.size()) {
        std::size_t Y = Nodes[X].Succ[I++];
        if (State[Y] == 1)
          BackEdges.push_back({X, Y});
        else if (!State[Y]) {
          State[Y] = 1;
          Stack.push_back({Y, 0});
        }
        continue;
      }
      State[X] = 2;
      Stack.pop_back();
    }
  }
  std::sort(BackEdges.begin(), BackEdges.end());
  HasDom = HasPostDom = false;
  // Natural loops, one per header; each loop's nodes also as a list, so
  // that the loops of each node are found without a pass over every node
  // per loop.
  Loops.clear();
  std::vector<std::vector<std::size_t>> Members;
  for (const auto &[T, H] : BackEdges) {
    auto It = std::find_if(Loops.begin(), Loops.end(),
                           [&, H = H](const Loop &L) { return L.Header == H; });
    if (It == Loops.end()) {
      Loops.push_back({H, Set(N, false), 0});
      Members.push_back({H});
      It = Loops.end() - 1;
      It->Body[H] = true;
    }
    std::vector<std::size_t> &In = Members[It - Loops.begin()];
    std::vector<std::size_t> Work;
    if (!It->Body[T]) {
      It->Body[T] = true;
      In.push_back(T);
      Work.push_back(T);
    }
    while (!Work.empty()) {
      std::size_t X = Work.back();
      Work.pop_back();
      for (std::size_t P : Nodes[X].Pred)
        // Only nodes the entry reaches (those of the dominator tree).
        if (!It->Body[P] && State[P]) {
          It->Body[P] = true;
          In.push_back(P);
          Work.push_back(P);
        }
    }
  }
  LoopsOfNode.assign(N, {});
  for (std::size_t I = 0; I < Loops.size(); ++I) {
    Loops[I].Size = Members[I].size();
    for (std::size_t X : Members[I])
      LoopsOfNode[X].push_back(I);
  }
  for (auto &Ls : LoopsOfNode)
    std::sort(Ls.begin(), Ls.end(), [&](std::size_t A, std::size_t B) {
      return Loops[A].Size < Loops[B].Size;
    });
}

Flow::Set Flow::search(std::size_t A, bool Forward, bool Back, const Stop &S,
                       const Set *Within) const {
  Set Seen(events(), false);
  const std::size_t Home = NodeOf[A];
  // Entered[X]: 1 normally; 2 (forwards) through the back edge of a loop
  // around A, to leave it: its header runs the loop's test once more but
  // none of its body.
  std::vector<char> Entered(Nodes.size(), 0);
  std::vector<std::size_t> Work;
  // Scans node X from position From on (backwards: from From - 1 down);
  // false when a stop ends it.
  auto Scan = [&](std::size_t X, std::size_t From) {
    const auto &Ev = Nodes[X].Events;
    if (Forward) {
      for (std::size_t P = From; P < Ev.size(); ++P) {
        Seen[Ev[P]] = true;
        if (S && S(Ev[P]))
          return false;
      }
    } else {
      for (std::size_t P = From; P-- > 0;) {
        Seen[Ev[P]] = true;
        if (S && S(Ev[P]))
          return false;
      }
    }
    return true;
  };
  // The loop whose header is \p H, when it holds A's node.
  auto AroundHome = [&](std::size_t H) -> const Set * {
    for (const Loop &L : Loops)
      if (L.Header == H)
        return L.Body[Home] ? &L.Body : nullptr;
    return nullptr;
  };
  auto Expand = [&](std::size_t X) {
    const Set *Leaving = Entered[X] == 2 ? AroundHome(X) : nullptr;
    for (std::size_t Y : Forward ? Nodes[X].Succ : Nodes[X].Pred) {
      if (Within && !(*Within)[Y])
        continue;
      if (Leaving && (*Leaving)[Y])
        continue;
      char Mode = 1;
      // Without Back, no path goes round a loop around A again: forwards,
      // its back edge only leads out of it; backwards, it is not taken.
      if (!Back && (Forward ? isBack(X, Y) : isBack(Y, X))) {
        if (const Set *L = AroundHome(Forward ? Y : X)) {
          // Only a header that tests the loop (an exit leaves it) leads
          // out; a do-while's or a goto's loop leaves at its bottom.
          if (!Forward ||
              std::none_of(Nodes[Y].Succ.begin(), Nodes[Y].Succ.end(),
                           [&](std::size_t Z) { return !(*L)[Z]; }))
            continue;
          Mode = 2;
        }
      }
      if (Entered[Y] == 1 || Entered[Y] == Mode)
        continue;
      Entered[Y] = Mode;
      Work.push_back(Y);
    }
  };
  if (Scan(Home, Forward ? PosOf[A] + 1 : PosOf[A]))
    Expand(Home);
  while (!Work.empty()) {
    std::size_t X = Work.back();
    Work.pop_back();
    if (Scan(X, Forward ? 0 : Nodes[X].Events.size()))
      Expand(X);
  }
  return Seen;
}

bool Flow::reachesExit(std::size_t A, bool Early, const Stop &S) const {
  // As search(), forwards over every edge, noting the exits of the nodes
  // whose end it reaches.
  std::vector<char> Entered(Nodes.size(), 0);
  std::vector<std::size_t> Work;
  auto Ends = [&](std::size_t X, std::size_t From) {
    const auto &Ev = Nodes[X].Events;
    for (std::size_t P = From; P < Ev.size(); ++P)
      if (S && S(Ev[P]))
        return false;
    return true;
  };
  auto Visit = [&](std::size_t X, std::size_t From) {
    if (!Ends(X, From))
      return false;
    if (Early ? Nodes[X].EarlyExit : Nodes[X].Exit)
      return true;
    for (std::size_t Y : Nodes[X].Succ)
      if (!Entered[Y]) {
        Entered[Y] = 1;
        Work.push_back(Y);
      }
    return false;
  };
  if (Visit(NodeOf[A], PosOf[A] + 1))
    return true;
  while (!Work.empty()) {
    std::size_t X = Work.back();
    Work.pop_back();
    if (Visit(X, 0))
      return true;
  }
  return false;
}

bool Flow::reaches(std::size_t A, std::size_t B, bool Back,
                   const Set *Within) const {
  return search(
      A, true, Back, [&](std::size_t E) { return E == B; }, Within)[B];
}

std::vector<std::size_t> Flow::between(std::size_t A, std::size_t B, bool Back,
                                       const Set *Within) const {
  auto Ends = [&](std::size_t E) { return E == A || E == B; };
  Set From = search(A, true, Back, Ends, Within);
  std::vector<std::size_t> Out;
  if (!From[B])
    return Out;
  Set To = search(B, false, Back, Ends, Within);
  for (std::size_t E = A + 1; E < events(); ++E)
    if (E != B && From[E] && To[E])
      Out.push_back(E);
  for (std::size_t E = 0; E < A; ++E)
    if (E != B && From[E] && To[E])
      Out.push_back(E);
  return Out;
}

const Flow::Tree &Flow::dom() const {
  if (!HasDom) {
    buildTree(Dom, false);
    HasDom = true;
  }
  return Dom;
}

const Flow::Tree &Flow::postDom() const {
  if (!HasPostDom) {
    buildTree(PostDom, true);
    HasPostDom = true;
  }
  return PostDom;
}

bool Flow::dominates(std::size_t A, std::size_t B) const {
  if (NodeOf[A] == NodeOf[B])
    return PosOf[A] < PosOf[B];
  return dom().under(NodeOf[A], NodeOf[B]);
}

bool Flow::postDominates(std::size_t A, std::size_t B) const {
  if (NodeOf[A] == NodeOf[B])
    return PosOf[A] > PosOf[B];
  return postDom().under(NodeOf[A], NodeOf[B]);
}

Flow::Set Flow::dominatedBy(const std::vector<std::size_t> &From) const {
  Set Out(events(), false);
  if (From.empty() || Nodes.empty())
    return Out;
  const Tree &T = dom();
  const std::size_t N = Nodes.size(), None = events();
  // Per node: the first position of an event of From in it.
  std::vector<std::size_t> First(N, None);
  for (std::size_t E : From)
    First[NodeOf[E]] = std::min(First[NodeOf[E]], PosOf[E]);
  // The nodes in the tree's preorder (by In), so that a node's immediate
  // dominator comes before it; Above: a strict ancestor holds one.
  std::vector<std::size_t> ByIn(2 * N + 3, N);
  for (std::size_t X = 0; X < N; ++X)
    if (T.has(X))
      ByIn[T.In[X]] = X;
  std::vector<char> Above(N, 0);
  for (std::size_t X : ByIn) {
    if (X == N || X == 0)
      continue;
    std::size_t D = T.Idom[X];
    Above[X] = D < N && (Above[D] || First[D] != None);
  }
  for (std::size_t E = 0; E < events(); ++E) {
    std::size_t X = NodeOf[E];
    Out[E] = T.has(X) && (Above[X] || First[X] < PosOf[E]);
  }
  return Out;
}

const Flow::Set *Flow::loopOf(std::size_t E) const {
  const auto &Ls = LoopsOfNode[NodeOf[E]];
  return Ls.empty() ? nullptr : &Loops[Ls.front()].Body;
}

std::vector<const Flow::Set *> Flow::loopsAround(std::size_t E) const {
  std::vector<const Set *> Out;
  for (std::size_t L : LoopsOfNode[NodeOf[E]])
    Out.push_back(&Loops[L].Body);
  return Out;
}

} // namespace tma::rules::ordering
