//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/OrderingSite.h"

namespace tma::rules::ordering {

namespace {

bool blockBarrier(const Event &E) {
  return E.Kind == EventKind::ThreadSync && !E.Warp;
}

/// Whether every loop around event \p Outer is around \p Inner too.
bool loopsAround(const Flow &G, std::size_t Outer, std::size_t Inner) {
  for (const Flow::Set *L : G.loopsAround(Outer))
    if (!(*L)[G.nodeOf(Inner)])
      return false;
  return true;
}

/// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: a fence on the way from the
/// write to the copy that comes after the hand-off (every path from the
/// write to it passes a thread barrier).
std::optional<std::size_t> lateFence(const KernelFacts &K, const Finding &F) {
  Flow::Set BeforeSync = K.G.search(
      F.First, true, false, [&](std::size_t J) { return blockBarrier(K.Seq[J]); });
  for (std::size_t J : K.G.between(F.First, F.Second, false))
    if (K.Seq[J].Kind == EventKind::ProxyFence && !BeforeSync[J])
      return J;
  return std::nullopt;
}

/// Where the missing fence goes: before the first thread barrier on the
/// way from the write to the copy that every writing thread runs after it
/// (it post-dominates the write, in the same or an outer loop), or, with
/// no thread barrier in between, before the copy when the same threads
/// write and copy (each dominates or post-dominates the other).
std::optional<std::size_t> fenceAt(const KernelFacts &K, const Finding &F) {
  const Flow &G = K.G;
  for (std::size_t J : G.between(F.First, F.Second, false))
    if (blockBarrier(K.Seq[J])) {
      if (!G.postDominates(J, F.First) || !loopsAround(G, J, F.First))
        return std::nullopt;
      return J;
    }
  if (!G.dominates(F.First, F.Second) || !G.postDominates(F.Second, F.First))
    return std::nullopt; // other threads copy: a thread barrier is missing too
  return F.Second;
}

/// The bulk-group wait's shortfall and the depth that would complete the
/// group (BULK-S2G-WAIT-BEFORE-REUSE, TMAP-INFLIGHT-IMMUTABLE).
void groupWait(OrderingViolation &V) {
  if (!V.Wait)
    V.Shortfall = WaitShortfall::NoWait;
  else if (V.Commits == 0)
    V.Shortfall = WaitShortfall::NotCommitted;
  else
    V.Shortfall = WaitShortfall::TooShallow;
  if (V.Wait && V.Commits > 0)
    V.CompletingDepth = V.Commits - 1;
}

} // namespace

std::vector<OrderingViolation> checkKernelOrdering(const KernelFacts &K,
                                                   Silences *Why) {
  const std::vector<Event> &Seq = K.Seq;
  const Flow &G = K.G;
  std::vector<OrderingViolation> R;
  auto Add = [&](const Finding &F, OrderingForm Form) -> OrderingViolation & {
    OrderingViolation V;
    static_cast<Finding &>(V) = F;
    V.Form = Form;
    R.push_back(std::move(V));
    return R.back();
  };

  for (const Finding &F : fenceBeforeStore(Seq, G, K.Block, Why)) {
    OrderingViolation &V = Add(F, OrderingForm::FenceBeforeStore);
    V.LateFence = lateFence(K, F);
    if ((V.FixAt = fenceAt(K, F)))
      V.Fix = OrderingFix::Fence;
  }

  if (Why && !K.WaitBeforeExit)
    for (std::size_t S = 0; S < Seq.size(); ++S)
      if (Seq[S].Kind == EventKind::Store)
        Why->push_back({Seq[S].Tensor ? "TMA-STORE-WAIT"
                                      : "BULK-S2G-WAIT-BEFORE-REUSE",
                        S,
                        "option WaitBeforeExit is off: a copy not waited for "
                        "before the kernel exits is not reported",
                        std::nullopt});
  if (K.WaitBeforeExit)
    for (const Finding &F : waitBeforeExit(Seq, G, Why)) {
      // The last wait is too shallow: the depth that would complete it.
      OrderingViolation &V = Add(F, OrderingForm::WaitBeforeExit);
      if (V.Wait && V.Commits > 0)
        V.CompletingDepth = V.Commits - 1;
    }

  for (const Finding &F : waitBeforeReuse(Seq, G, Why, K.Block)) {
    OrderingViolation &V = Add(F, OrderingForm::WaitBeforeReuse);
    groupWait(V);
    // A ring's stage overwritten laps later: the depth that completes the
    // group in this pass is not the one that would.
    if (V.CompletingDepth && V.Laps == 0) {
      V.Fix = OrderingFix::WaitDepth;
      V.FixDepth = *V.CompletingDepth;
    }
  }

  for (const Finding &F : initVisible(Seq, G, K.Block, Why, K.Slots)) {
    OrderingViolation &V = Add(F, OrderingForm::InitVisible);
    // A role's use: a thread of it that runs no init.
    const Event &Init = Seq[F.First], &Use = Seq[F.Second];
    if (Use.Guarded && Use.Threads && Init.Threads)
      V.Thread = threads::firstOutside(*Use.Threads, *Init.Threads, K.Block);
    else if (Use.Guarded && Use.ThreadsAtMost)
      if (auto Span = threads::span(*Use.ThreadsAtMost, K.Block.Max)) {
        V.Thread = Span->first;
        V.ThreadLast = Span->second;
      }
    // Where a cluster wait stands alone, the missing arrive is the fix,
    // not a __syncthreads().
    if (!F.Wait)
      V.Fix = OrderingFix::Sync;
  }

  for (const Finding &F : reinitInLoop(Seq, G))
    Add(F, OrderingForm::ReinitInLoop);

  for (const Finding &F : waitParity(Seq, G, Why, K.UnseenArrives)) {
    OrderingViolation &V = Add(F, OrderingForm::WaitParity);
    const Event &W = Seq[F.First];
    V.Parity = W.Parity == ParityForm::Period ? ParityMistake::Period
               : W.Parity == ParityForm::Constant ||
                       W.Parity == ParityForm::StageBit
                   ? ParityMistake::Repeated
               : W.ParityBit == 0 ? ParityMistake::FirstLapHang
               : Seq[F.Second].Role != UseRole::Arrive
                   ? ParityMistake::BeforeFirstCopy
                   : ParityMistake::AfterRelease;
  }

  for (const Finding &F : loadWaitBeforeRead(Seq, G, Why))
    Add(F, OrderingForm::LoadWaitBeforeRead);
  for (const Finding &F : loadWaitAcrossRoles(Seq, G))
    Add(F, OrderingForm::LoadWaitAcrossRoles);
  for (const Finding &F : asyncWarFence(Seq, G, Why))
    Add(F, OrderingForm::AsyncWarFence);
  for (const Finding &F : asyncWarHandOff(Seq, G))
    Add(F, OrderingForm::AsyncWarHandOff);
  for (const Finding &F : reuseBeforeRelease(Seq, G, Why))
    Add(F, OrderingForm::ReuseBeforeRelease);
  for (const Finding &F : expectAfterArrive(Seq, G))
    Add(F, OrderingForm::ExpectAfterArrive);
  for (const Finding &F : waitByOtherThreads(Seq, G, K.Block))
    Add(F, OrderingForm::WaitByOtherThreads);
  for (const Finding &F : acquireAfterCopy(Seq, G))
    Add(F, OrderingForm::AcquireAfterCopy);

  for (const Finding &F : mapRewriteInFlight(Seq, G, Why)) {
    OrderingViolation &V = Add(F, OrderingForm::MapRewriteInFlight);
    groupWait(V);
    if (Seq[F.First].Kind == EventKind::Load)
      V.Shortfall = WaitShortfall::NoBarrierWait;
    if (V.CompletingDepth) {
      V.Fix = OrderingFix::WaitDepth;
      V.FixDepth = *V.CompletingDepth;
    }
  }
  return R;
}

} // namespace tma::rules::ordering
