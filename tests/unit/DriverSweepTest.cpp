//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The driver sweep (bench/driver/sweep_cases.h): the generator covers the
// three encoders and every data type with at least 10,000 descriptors, and
// the rule model judges each without crashing. When a GPU has recorded the
// driver's answers (bench/driver/run-sweep.sh -> bench/driver/sweep.tsv),
// the replay checks that the model never rejects what the driver accepted
// (except the deliberate rules listed below). Until that file exists, the
// replay is skipped by design; driver-record-unit keeps replaying the
// recorded Tiled boundary set.
//
//===----------------------------------------------------------------------===//

#include "sweep_cases.h"

#include "gtest/gtest.h"
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

using namespace tma::sweep;

namespace {

TEST(DriverSweep, GeneratorCoversEveryEncoderAndDataType) {
  std::vector<Case> Cases = generateCases();
  EXPECT_GE(Cases.size(), 10000u);
  std::set<std::pair<int, std::uint32_t>> Seen;
  std::map<int, unsigned> Rejected;
  for (const Case &C : Cases) {
    Seen.insert({static_cast<int>(C.K), C.DataType});
    Rejected[static_cast<int>(C.K)] += !modelVerdict(C).empty();
  }
  for (int K = 0; K < 3; ++K)
    for (std::uint32_t DT = 0; DT < 16; ++DT)
      EXPECT_TRUE(Seen.count({K, DT})) << kindName(Kind(K)) << " " << DT;
  // Both verdicts occur for every encoder: the sweep probes boundaries.
  for (int K = 0; K < 3; ++K) {
    EXPECT_GT(Rejected[K], 100u) << kindName(Kind(K));
  }
  // Deterministic: the recorder and the replay see the same list.
  EXPECT_EQ(describe(generateCases()[5000]), describe(Cases[5000]));
}

// Reported on descriptors a driver may accept, on purpose (see
// DriverRecordTest.cpp): heuristics and documented rules a driver relaxes.
const std::set<std::string> Deliberate = {"TMAP-ENC-GSTRIDE-UNITS",
                                          "TMAP-ENC-INTERLEAVE32-SWIZZLE32"};

TEST(DriverSweep, ModelNeverRejectsWhatTheDriverAccepts) {
  std::ifstream In(TMA_DRIVER_SWEEP);
  if (!In)
    GTEST_SKIP() << "not recorded yet: run bench/driver/run-sweep.sh on a "
                    "machine with a GPU and commit "
                 << TMA_DRIVER_SWEEP;
  std::vector<Case> Cases = generateCases();
  std::string Line;
  std::size_t Row = 0;
  unsigned Accepted = 0;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#' || Line.rfind("kind\t", 0) == 0)
      continue;
    ASSERT_LT(Row, Cases.size()) << "more rows than cases: re-record";
    const Case &C = Cases[Row++];
    std::string Operands = describe(C);
    ASSERT_EQ(Line.compare(0, Operands.size(), Operands), 0)
        << "row " << Row << " is not the generator's case: re-record";
    std::istringstream Rest(Line.substr(Operands.size() + 1));
    std::string Driver;
    std::getline(Rest, Driver, '\t');
    if (Driver != "0")
      continue;
    ++Accepted;
    for (const tma::rules::Violation &V : modelVerdict(C))
      EXPECT_TRUE(Deliberate.count(V.RuleId))
          << Operands << ": the driver accepts it, the model reports "
          << V.RuleId << ": " << V.Message;
  }
  EXPECT_EQ(Row, Cases.size()) << "fewer rows than cases: re-record";
  EXPECT_GT(Accepted, 0u);
}

} // namespace
