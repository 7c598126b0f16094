//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One expect-tx phase as a whole (MBAR-TX-EQUALS-BYTES, MBAR-TX-ISSUERS,
// MEMCPY-ASYNC-TX-OWNED): the facts api/ gathers for the phase of one
// barrier (the counts of its expect-tx, the bytes of its copies, the
// threads that issue each) go in, every violation comes out, each naming
// the op it is about. Three kinds of site: a phase of one CTA, a phase
// counted CTA by CTA of a cluster, and a kernel's barrier as a whole (one
// that only gets expect-tx, or only copies). A new rule of a site is one
// function in rules/ plus its line in the entry point.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_EXPECTTXPHASE_H
#define TMA_TIDY_RULES_EXPECTTXPHASE_H

#include "rules/DeviceRules.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// One op of a phase, folded in one call-site context.
struct PhaseOpFacts {
  /// An expect-tx (Bytes: its count) or a copy (Bytes: what it delivers in
  /// the phase, every iteration of an inner counted loop included).
  bool IsExpect = false;
  Known Bytes;
  /// A copy that performs the expect-tx of its own bytes
  /// (cuda::memcpy_async, MEMCPY-ASYNC-TX-OWNED).
  bool OwnsExpectTx = false;
  /// How many threads issue the op; 0 when not counted. Either every op of
  /// a phase has its count or none has.
  unsigned Issuers = 0;
};

/// The ops of one barrier in one phase region of one CTA, in source order.
struct PhaseFacts {
  /// The barrier's name for messages ("bar", "full[0]").
  std::string Barrier;
  std::vector<PhaseOpFacts> Ops;
};

/// A violation of a phase and the facts it is about.
struct PhaseViolation {
  DeviceViolation Violation;
  /// The op the diagnostic is at: the first expect-tx.
  std::size_t At = 0;
  /// Counted per issuing thread (MBAR-TX-ISSUERS): the notes name the
  /// issuers of each op.
  bool ByIssuers = false;
  /// The bytes of the copies that expect them themselves.
  std::uint64_t SelfExpected = 0;
  /// The first count of the expected side (a self-expecting copy's too).
  Known FirstExpected;
};

/// What the rules say of a phase.
struct PhaseVerdict {
  std::vector<PhaseViolation> Violations;
  /// Every count folded and the sums compared.
  bool AllKnown = false;
};

/// MBAR-TX-EQUALS-BYTES over the ops of \p F, or MBAR-TX-ISSUERS where
/// their issuer counts differ (then only when every expect-tx is explicit:
/// a self-expecting copy is not counted per thread). Silent when a count is
/// unknown or a side is empty.
PhaseVerdict checkExpectTxPhase(const PhaseFacts &F);

/// Why checkExpectTxPhase judged nothing on a phase (issue 28 item 1).
struct PhaseSilence {
  /// The first op whose count is unknown, in F.Ops.
  std::optional<std::size_t> UnknownOp;
  /// Ops issued by different numbers of threads next to a copy that
  /// expects its own bytes: compared only as per-thread totals, which a
  /// self-expecting copy has none of.
  bool MixedIssuers = false;
};

/// Why \p F leaves checkExpectTxPhase silent, or std::nullopt when it
/// compares the phase (a violation, or proven equal).
std::optional<PhaseSilence> whyPhaseSilent(const PhaseFacts &F);

/// What one CTA of a cluster expects on its barrier and what the copies of
/// the whole cluster deliver to it, each op counted once per issuing thread.
struct ClusterCtaFacts {
  std::vector<Known> Expected, Delivered;
  /// A mask or a peer rank did not fold: nothing is known of this CTA.
  bool Unknown = false;
};

/// One barrier's phase counted CTA by CTA of a cluster of \p Ctas, in rank
/// order. api/ may stop after the first CTA it cannot count.
struct ClusterPhaseFacts {
  std::string Barrier;
  std::uint64_t Ctas = 0;
  std::vector<ClusterCtaFacts> PerCta;
};

/// A violation of a cluster phase: the CTA whose counts differ.
struct ClusterViolation {
  DeviceViolation Violation;
  std::uint64_t Rank = 0;
};

struct ClusterVerdict {
  /// The first CTA whose counts differ, when the CTAs before it are known.
  std::vector<ClusterViolation> Violations;
  /// Every CTA (up to the first violation) counted.
  bool AllKnown = false;
};

/// MBAR-TX-EQUALS-BYTES in every CTA of the cluster, in rank order: the
/// first CTA whose counts differ is reported; a CTA with an unknown count
/// before it makes the phase unknown.
ClusterVerdict checkExpectTxClusterPhase(const ClusterPhaseFacts &F);

/// A kernel's `__shared__` barrier over all of its phases, when every use of
/// it is a recognised op.
struct BarrierPairingFacts {
  std::string Barrier;
  bool HasExpect = false, HasCopy = false;
  /// Some expect-tx on it counts a non-zero number of bytes in a context
  /// that may run (asked only when no copy completes on it).
  bool ExpectsBytes = false;
  /// A copy on it performs its own expect-tx (cuda::memcpy_async).
  bool SelfExpecting = false;
};

/// A violation of a barrier's pairing: at its first expect-tx, or at its
/// first copy.
struct PairingViolation {
  DeviceViolation Violation;
  bool AtFirstCopy = false;
};

/// MBAR-TX-EQUALS-BYTES across a kernel: a barrier with a non-zero expect-tx
/// and no copy never completes its phase; copies with no expect-tx (and
/// none that expects its own bytes) complete phases before the data lands.
std::vector<PairingViolation> checkBarrierPairing(const BarrierPairingFacts &F);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_EXPECTTXPHASE_H
