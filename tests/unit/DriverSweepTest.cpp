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
// (except the deliberate rules listed below) and prints, per encoder, the
// rejections the model misses. Until that file exists, the replay is
// skipped by design; driver-record-unit keeps replaying the recorded Tiled
// boundary set. Every generated descriptor is also replayed through the
// public header <tma/validate.h>, which must agree with the model.
//
//===----------------------------------------------------------------------===//

#include "sweep_cases.h"
#include "tma/validate.h"

#include "gtest/gtest.h"
#include <cstdio>
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

TEST(DriverSweep, GeneratorProbesEveryOperandLimit) {
  std::set<std::string> Ids;
  for (const Case &C : generateCases())
    for (const tma::rules::Violation &V : modelVerdict(C))
      Ids.insert(V.RuleId);
  for (const char *Id :
       {"TMAP-ENC-DTYPE-ENUM", "TMAP-ENC-ENUM-RANGE", "TMAP-ENC-GDIM-RANGE",
        "TMAP-ENC-GDIM-PACKED", "TMAP-ENC-GSTRIDE-ALIGN", "TMAP-ENC-GSTRIDE-MAX",
        "TMAP-ENC-ESTRIDE-RANGE", "TMAP-ENC-OOBFILL-FLOAT",
        "TMAP-ENC-INTERLEAVE-RANK", "TMAP-ENC-PACKED-INTERLEAVE",
        "TMAP-ENC-PACKED-SWIZZLE", "TMAP-ENC-GSTRIDES-NULL", "TMAP-TILED-RANK",
        "TMAP-TILED-BOX-RANGE", "TMAP-TILED-BOX-INNER-16B",
        "TMAP-TILED-BOX-PACKED", "TMAP-TILED-SWIZZLE-INNER", "TMAP-I2C-RANK",
        "TMAP-I2C-CORNER-RANGE", "TMAP-I2C-CORNER-AREA", "TMAP-I2C-CHANNELS",
        "TMAP-I2C-PIXELS", "TMAP-I2CW-RANK", "TMAP-I2CW-CORNER",
        "TMAP-I2CW-SWIZZLE", "TMAP-I2CW-INTERLEAVE", "TMAP-I2CW-MODE"})
    EXPECT_TRUE(Ids.count(Id)) << Id << " is never probed";
}

// The generated descriptors through <tma/validate.h>, as the recorder passes
// them to the driver (aligned map and address): the same rule ids in the
// same order as the model. Ranks the driver reads as valid only: the header
// reads tensorRank elements of each array.
TEST(DriverSweep, HeaderAgreesWithTheModel) {
  alignas(256) static char Memory[256];
  alignas(128) CUtensorMap Map;
  unsigned Rows = 0;
  for (const Case &C : generateCases()) {
    bool Tiled = C.K == Kind::Tiled;
    if (C.Rank < (Tiled ? 1u : 3u) || C.Rank > 5)
      continue;
    // As the recorder: an empty stride list is a pointer to nothing read,
    // not a null pointer.
    std::vector<cuuint64_t> S(C.Strides.begin(), C.Strides.end());
    S.push_back(0);
    const cuuint64_t *Strides = C.NullStrides ? nullptr : S.data();
    auto DT = CUtensorMapDataType(C.DataType);
    auto Il = CUtensorMapInterleave(C.Interleave);
    auto Sw = CUtensorMapSwizzle(C.Swizzle);
    auto L2 = CUtensorMapL2promotion(C.L2);
    auto Oob = CUtensorMapFloatOOBfill(C.Oob);
    tma::violations Vs;
    switch (C.K) {
    case Kind::Tiled:
      Vs = tma::check_tiled(&Map, DT, C.Rank, Memory, C.Dims.data(), Strides,
                            C.Box.data(), C.ElemStrides.data(), Il, Sw, L2,
                            Oob);
      break;
    case Kind::Im2col:
      Vs = tma::check_im2col(&Map, DT, C.Rank, Memory, C.Dims.data(), Strides,
                             C.Lower.data(), C.Upper.data(), C.Channels,
                             C.Pixels, C.ElemStrides.data(), Il, Sw, L2, Oob);
      break;
    case Kind::Im2colWide:
      Vs = tma::check_im2col_wide(
          &Map, DT, C.Rank, Memory, C.Dims.data(), Strides, C.LowerW,
          C.UpperW, C.Channels, C.Pixels, C.ElemStrides.data(), Il,
          CUtensorMapIm2ColWideMode(C.Mode), Sw, L2, Oob);
      break;
    }
    std::string Header;
    for (const tma::violation &V : Vs)
      Header += (Header.empty() ? "" : ",") + V.rule;
    EXPECT_EQ(Header == "" ? "-" : Header, verdictText(modelVerdict(C)))
        << describe(C);
    ++Rows;
  }
  EXPECT_GT(Rows, 10000u);
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
  // Rejections the model does not report (silence is allowed), per encoder
  // and data type, for the closing note.
  std::map<std::string, unsigned> Missed;
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
    if (Driver != "0") {
      if (modelVerdict(C).empty())
        ++Missed[std::string(kindName(C.K)) + " dtype " +
                 std::to_string(C.DataType) + " CUresult " + Driver];
      continue;
    }
    ++Accepted;
    for (const tma::rules::Violation &V : modelVerdict(C))
      EXPECT_TRUE(Deliberate.count(V.RuleId))
          << Operands << ": the driver accepts it, the model reports "
          << V.RuleId << ": " << V.Message;
  }
  EXPECT_EQ(Row, Cases.size()) << "fewer rows than cases: re-record";
  EXPECT_GT(Accepted, 0u);
  for (const auto &[Where, N] : Missed)
    std::printf("driver rejects, model silent: %s: %u\n", Where.c_str(), N);
}

} // namespace
