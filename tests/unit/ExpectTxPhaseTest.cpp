//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of tma-expect-tx's sites as a whole:
// rules::checkExpectTxPhase, checkExpectTxClusterPhase and
// checkBarrierPairing on fact records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of each entry point: equal and unequal sums,
// a count off by one either way, an unknown count, the issuers of
// MBAR-TX-ISSUERS, a self-expecting cuda::memcpy_async, the op the
// violation is at; the first CTA of a cluster whose counts differ, an
// unknown CTA before or after it; a barrier with expect-tx and no copy or
// copies and no expect-tx.
//
//===----------------------------------------------------------------------===//

#include "rules/ExpectTxPhase.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

PhaseOpFacts expect(Known Bytes, unsigned Issuers = 0) {
  PhaseOpFacts O;
  O.IsExpect = true;
  O.Bytes = Bytes;
  O.Issuers = Issuers;
  return O;
}

PhaseOpFacts copy(Known Bytes, unsigned Issuers = 0, bool Owns = false) {
  PhaseOpFacts O;
  O.Bytes = Bytes;
  O.Issuers = Issuers;
  O.OwnsExpectTx = Owns;
  return O;
}

PhaseFacts phase(std::vector<PhaseOpFacts> Ops) {
  PhaseFacts F;
  F.Barrier = "bar";
  F.Ops = std::move(Ops);
  return F;
}

} // namespace

//===----------------------------------------------------------------------===//
// A phase of one CTA
//===----------------------------------------------------------------------===//

TEST(ExpectTxPhase, EqualSumsAreSilentAndKnown) {
  PhaseVerdict V = checkExpectTxPhase(phase({expect(8192), copy(4096),
                                             copy(4096)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_TRUE(V.AllKnown);
}

TEST(ExpectTxPhase, OffByOneEitherWay) {
  for (std::uint64_t N : {8191u, 8193u}) {
    PhaseVerdict V = checkExpectTxPhase(phase({copy(4096), expect(N),
                                               copy(4096)}));
    ASSERT_EQ(V.Violations.size(), 1u) << N;
    const PhaseViolation &PV = V.Violations.front();
    EXPECT_STREQ(PV.Violation.RuleId, "MBAR-TX-EQUALS-BYTES");
    EXPECT_EQ(PV.Violation.Value, N);
    EXPECT_EQ(PV.Violation.Limit, 8192u);
    // At the expect-tx, not at the first op.
    EXPECT_EQ(PV.At, 1u);
    EXPECT_FALSE(PV.ByIssuers);
    EXPECT_EQ(PV.FirstExpected, Known(N));
    EXPECT_EQ(PV.Violation.Message,
              "expect-tx of " + std::to_string(N) +
                  " bytes on 'bar' but the copies completing on it in this "
                  "phase deliver 8192 bytes");
  }
}

TEST(ExpectTxPhase, UnknownCountIsSilentAndUnknown) {
  PhaseVerdict V = checkExpectTxPhase(phase({expect(1), copy(std::nullopt)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
  V = checkExpectTxPhase(phase({expect(std::nullopt), copy(16)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
}

TEST(ExpectTxPhase, NoCopyIsSilent) {
  // No counted copy: nothing to compare (the kernel-wide pairing's case).
  PhaseVerdict V = checkExpectTxPhase(phase({expect(16)}));
  EXPECT_TRUE(V.Violations.empty());
}

TEST(ExpectTxPhase, SameIssuersCompareThreadByThread) {
  // 32 threads each expecting and copying 16 bytes: equal.
  PhaseVerdict V = checkExpectTxPhase(phase({expect(16, 32), copy(16, 32)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_TRUE(V.AllKnown);
}

TEST(ExpectTxPhase, IssuersDifferCompareTotals) {
  // One thread expects 512 bytes, 32 threads copy 16 each: equal totals.
  PhaseVerdict V = checkExpectTxPhase(phase({expect(512, 1), copy(16, 32)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_TRUE(V.AllKnown);
  // One thread expects 16 bytes: 496 short.
  V = checkExpectTxPhase(phase({expect(16, 1), copy(16, 32)}));
  ASSERT_EQ(V.Violations.size(), 1u);
  EXPECT_STREQ(V.Violations[0].Violation.RuleId, "MBAR-TX-ISSUERS");
  EXPECT_TRUE(V.Violations[0].ByIssuers);
}

TEST(ExpectTxPhase, IssuersDifferWithSelfExpectingCopyIsUnknown) {
  PhaseVerdict V = checkExpectTxPhase(
      phase({expect(16, 1), copy(16, 32, /*Owns=*/true)}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
}

TEST(ExpectTxPhase, SelfExpectingCopy) {
  // cuda::memcpy_async expects its own 1024 bytes: an explicit expect-tx of
  // them counts them twice.
  PhaseVerdict V =
      checkExpectTxPhase(phase({copy(1024, 0, true), expect(1024)}));
  ASSERT_EQ(V.Violations.size(), 1u);
  const PhaseViolation &PV = V.Violations.front();
  EXPECT_EQ(PV.At, 1u);
  EXPECT_EQ(PV.SelfExpected, 1024u);
  EXPECT_EQ(PV.Violation.Limit, 0u);
  // The self-expecting copy's bytes come first on the expected side.
  EXPECT_EQ(PV.FirstExpected, Known(1024));
  // Alone it is right.
  EXPECT_TRUE(checkExpectTxPhase(phase({copy(1024, 0, true), expect(0)}))
                  .Violations.empty());
}

//===----------------------------------------------------------------------===//
// A phase counted CTA by CTA of a cluster
//===----------------------------------------------------------------------===//

namespace {
ClusterPhaseFacts cluster(std::vector<ClusterCtaFacts> PerCta) {
  ClusterPhaseFacts F;
  F.Barrier = "full";
  F.Ctas = 2;
  F.PerCta = std::move(PerCta);
  return F;
}
ClusterCtaFacts cta(std::vector<Known> E, std::vector<Known> D) {
  ClusterCtaFacts C;
  C.Expected = std::move(E);
  C.Delivered = std::move(D);
  return C;
}
} // namespace

TEST(ExpectTxClusterPhase, EveryCtaEqual) {
  ClusterVerdict V = checkExpectTxClusterPhase(
      cluster({cta({4096}, {2048, 2048}), cta({4096}, {2048, 2048})}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_TRUE(V.AllKnown);
}

TEST(ExpectTxClusterPhase, FirstCtaThatDiffers) {
  ClusterVerdict V = checkExpectTxClusterPhase(
      cluster({cta({4096}, {2048, 2048}), cta({4096}, {2048})}));
  ASSERT_EQ(V.Violations.size(), 1u);
  EXPECT_EQ(V.Violations[0].Rank, 1u);
  EXPECT_EQ(V.Violations[0].Violation.Limit, 2048u);
  // No copy of the cluster delivers to CTA 0.
  V = checkExpectTxClusterPhase(cluster({cta({4096}, {}), cta({1}, {2})}));
  ASSERT_EQ(V.Violations.size(), 1u);
  EXPECT_EQ(V.Violations[0].Rank, 0u);
}

TEST(ExpectTxClusterPhase, UnknownCtaBeforeOrAfter) {
  ClusterCtaFacts Unknown;
  Unknown.Unknown = true;
  // Unknown first: nothing is said of the CTA after it.
  ClusterVerdict V = checkExpectTxClusterPhase(
      cluster({Unknown, cta({4096}, {2048})}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
  // An unknown count, likewise.
  V = checkExpectTxClusterPhase(
      cluster({cta({std::nullopt}, {16}), cta({4096}, {2048})}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
  // A mismatch before it is reported.
  V = checkExpectTxClusterPhase(cluster({cta({4096}, {2048}), Unknown}));
  ASSERT_EQ(V.Violations.size(), 1u);
  EXPECT_EQ(V.Violations[0].Rank, 0u);
  // Facts that stop early are not a proof.
  V = checkExpectTxClusterPhase(cluster({cta({16}, {16})}));
  EXPECT_TRUE(V.Violations.empty());
  EXPECT_FALSE(V.AllKnown);
}

//===----------------------------------------------------------------------===//
// A kernel's barrier as a whole
//===----------------------------------------------------------------------===//

TEST(BarrierPairing, ExpectWithNoCopy) {
  BarrierPairingFacts F;
  F.Barrier = "bar";
  F.HasExpect = true;
  EXPECT_TRUE(checkBarrierPairing(F).empty()); // counts 0 bytes: no phase
  F.ExpectsBytes = true;
  auto V = checkBarrierPairing(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_FALSE(V[0].AtFirstCopy);
  EXPECT_STREQ(V[0].Violation.RuleId, "MBAR-TX-EQUALS-BYTES");
  EXPECT_EQ(V[0].Violation.Message,
            "expect-tx on 'bar' but no copy in this kernel completes on it: "
            "its phase never completes");
  F.HasCopy = true;
  EXPECT_TRUE(checkBarrierPairing(F).empty());
}

TEST(BarrierPairing, CopiesWithNoExpect) {
  BarrierPairingFacts F;
  F.Barrier = "bar";
  F.HasCopy = true;
  auto V = checkBarrierPairing(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_TRUE(V[0].AtFirstCopy);
  EXPECT_EQ(V[0].Violation.Message,
            "copies complete on 'bar' but no expect-tx in this kernel counts "
            "their bytes: its phases complete before the data lands, or "
            "never");
  // cuda::memcpy_async expects its own bytes.
  F.SelfExpecting = true;
  EXPECT_TRUE(checkBarrierPairing(F).empty());
}

//===----------------------------------------------------------------------===//
// whyPhaseSilent: what left a phase uncompared
//===----------------------------------------------------------------------===//

TEST(WhyPhaseSilent, ComparedPhasesAreNotSilent) {
  PhaseFacts Equal{"bar", {{true, 64}, {false, 64}}};
  PhaseFacts Wrong{"bar", {{true, 32}, {false, 64}}};
  EXPECT_FALSE(whyPhaseSilent(Equal));
  EXPECT_FALSE(whyPhaseSilent(Wrong));
}

TEST(WhyPhaseSilent, NamesTheFirstUnknownCount) {
  PhaseFacts F{"bar", {{true, 64}, {false, 64}, {false, std::nullopt}}};
  auto S = whyPhaseSilent(F);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->UnknownOp, std::optional<std::size_t>(2));
  PhaseFacts G{"bar", {{true, std::nullopt}, {false, 64}}};
  EXPECT_EQ(whyPhaseSilent(G)->UnknownOp, std::optional<std::size_t>(0));
}
