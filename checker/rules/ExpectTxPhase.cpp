//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/ExpectTxPhase.h"

#include <algorithm>

namespace tma::rules {

namespace {
bool allKnown(const std::vector<Known> &Counts) {
  return std::all_of(Counts.begin(), Counts.end(),
                     [](const Known &K) { return K.has_value(); });
}
} // namespace

PhaseVerdict checkExpectTxPhase(const PhaseFacts &F) {
  PhaseVerdict R;
  std::vector<Known> Expected, Delivered;
  std::vector<unsigned> ExpectIssuers, CopyIssuers;
  std::uint64_t SelfExpected = 0;
  std::size_t At = 0;
  bool SeenExpect = false;
  const bool Counted = !F.Ops.empty() && std::all_of(F.Ops.begin(), F.Ops.end(),
                                                     [](const PhaseOpFacts &O) {
                                                       return O.Issuers != 0;
                                                     });
  bool IssuersDiffer = false;
  for (std::size_t I = 0; I < F.Ops.size(); ++I) {
    const PhaseOpFacts &O = F.Ops[I];
    if (Counted) {
      (O.IsExpect ? ExpectIssuers : CopyIssuers).push_back(O.Issuers);
      IssuersDiffer |= O.Issuers != F.Ops.front().Issuers;
    }
    if (O.IsExpect) {
      Expected.push_back(O.Bytes);
      if (!SeenExpect)
        At = I;
      SeenExpect = true;
      continue;
    }
    Delivered.push_back(O.Bytes);
    // cuda::memcpy_async expects its own bytes (MEMCPY-ASYNC-TX-OWNED).
    if (O.OwnsExpectTx) {
      Expected.push_back(O.Bytes);
      SelfExpected += O.Bytes.value_or(0);
    }
  }
  // Ops issued by different numbers of threads compare only as totals
  // (MBAR-TX-ISSUERS); the thread-by-thread rule then says nothing.
  // cuda::memcpy_async's own expect-tx is not counted so.
  if (IssuersDiffer && Expected.size() != ExpectIssuers.size())
    return R;
  auto V = IssuersDiffer ? checkMbarTxIssuers(Expected, ExpectIssuers,
                                              Delivered, CopyIssuers, F.Barrier)
                         : checkMbarTxEqualsBytes(Expected, Delivered,
                                                  F.Barrier, SelfExpected);
  R.AllKnown = allKnown(Expected) && allKnown(Delivered);
  if (V)
    R.Violations.push_back({std::move(*V), At, IssuersDiffer, SelfExpected,
                            Expected.empty() ? Known() : Expected.front()});
  return R;
}

std::optional<PhaseSilence> whyPhaseSilent(const PhaseFacts &F) {
  PhaseVerdict V = checkExpectTxPhase(F);
  if (!V.Violations.empty() || V.AllKnown)
    return std::nullopt;
  PhaseSilence S;
  for (std::size_t I = 0; I < F.Ops.size(); ++I)
    if (!F.Ops[I].Bytes) {
      S.UnknownOp = I;
      return S;
    }
  // Every count known and still silent: the issuers differ around a
  // self-expecting copy.
  S.MixedIssuers = true;
  return S;
}

ClusterVerdict checkExpectTxClusterPhase(const ClusterPhaseFacts &F) {
  ClusterVerdict R;
  for (std::uint64_t Rank = 0; Rank < F.PerCta.size(); ++Rank) {
    const ClusterCtaFacts &C = F.PerCta[Rank];
    if (C.Unknown || !allKnown(C.Expected) || !allKnown(C.Delivered))
      return R;
    if (auto V = checkMbarTxClusterBytes(C.Expected, C.Delivered, F.Barrier,
                                         Rank, F.Ctas)) {
      R.Violations.push_back({std::move(*V), Rank});
      R.AllKnown = true;
      return R;
    }
  }
  R.AllKnown = F.PerCta.size() == F.Ctas;
  return R;
}

std::vector<PairingViolation>
checkBarrierPairing(const BarrierPairingFacts &F) {
  std::vector<PairingViolation> R;
  if (F.HasExpect && !F.HasCopy) {
    if (F.ExpectsBytes)
      R.push_back(
          {detail::make("MBAR-TX-EQUALS-BYTES", DeviceParam::TxCount, 0, 0,
                        "expect-tx on '" + F.Barrier +
                            "' but no copy in this kernel completes "
                            "on it: its phase never completes"),
           false});
  } else if (F.HasCopy && !F.HasExpect && !F.SelfExpecting) {
    R.push_back(
        {detail::make("MBAR-TX-EQUALS-BYTES", DeviceParam::TxCount, 0, 0,
                      "copies complete on '" + F.Barrier +
                          "' but no expect-tx in this kernel counts "
                          "their bytes: its phases complete before "
                          "the data lands, or never"),
         true});
  }
  return R;
}

} // namespace tma::rules
