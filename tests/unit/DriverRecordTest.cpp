//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Replays what a real driver said about cuTensorMapEncodeTiled descriptors
// (bench/driver/recorded.tsv, recorded on a GPU by bench/driver/run.sh)
// against the rule model. The model may miss a rejection (silence), but must
// not report a descriptor the driver accepted, except where the difference
// is deliberate and listed here.
//
//===----------------------------------------------------------------------===//

#include "rules/TiledRules.h"

#include "gtest/gtest.h"
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace tma::rules;

namespace {

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::stringstream In(S);
  std::string Item;
  while (std::getline(In, Item, Sep))
    Out.push_back(Item);
  if (!S.empty() && S.back() == Sep)
    Out.emplace_back();
  return Out;
}

KnownArray numbers(const std::string &S) {
  KnownArray A;
  for (const std::string &N : split(S, ','))
    if (!N.empty())
      A.Elems.push_back(std::stoull(N));
  A.Provided = A.Elems.size();
  return A;
}

// Rules reported on descriptors the driver accepts, on purpose:
// - TMAP-ENC-GSTRIDE-UNITS is a heuristic for strides written in elements,
//   which the driver cannot see (the map then reads the wrong rows);
// - TMAP-ENC-INTERLEAVE32-SWIZZLE32 is documented by the driver header, but
//   driver 580 accepts INTERLEAVE_32B with other swizzles.
const std::set<std::string> Deliberate = {"TMAP-ENC-GSTRIDE-UNITS",
                                          "TMAP-ENC-INTERLEAVE32-SWIZZLE32"};

TEST(DriverRecord, ModelNeverRejectsWhatTheDriverAccepts) {
  std::ifstream In(TMA_DRIVER_RECORD);
  ASSERT_TRUE(In) << "cannot read " << TMA_DRIVER_RECORD;
  std::string Line;
  unsigned Rows = 0, Rejected = 0, Caught = 0;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#' || Line.rfind("name\t", 0) == 0)
      continue;
    std::vector<std::string> F = split(Line, '\t');
    ASSERT_EQ(F.size(), 13u) << Line;
    TiledDescriptor D;
    D.DataType = std::stoull(F[1]);
    D.Rank = std::stoull(F[2]);
    D.GlobalDim = numbers(F[3]);
    D.GlobalStrides = numbers(F[4]);
    D.BoxDim = numbers(F[5]);
    D.ElementStrides = numbers(F[6]);
    D.Interleave = std::stoull(F[7]);
    D.Swizzle = std::stoull(F[8]);
    D.L2Promotion = std::stoull(F[9]);
    D.OobFill = std::stoull(F[10]);
    bool DriverAccepts = F[11] == "0";
    ++Rows;
    std::vector<Violation> Vs = checkTiled(D);
    if (!DriverAccepts) {
      ++Rejected;
      Caught += !Vs.empty();
    }
    for (const Violation &V : Vs)
      if (DriverAccepts)
        EXPECT_TRUE(Deliberate.count(V.RuleId))
            << F[0] << ": the driver accepts it, the model reports "
            << V.RuleId << ": " << V.Message;
  }
  EXPECT_GT(Rows, 40u);
  // Misses are allowed (rank 1 with a null strides pointer, packed types on
  // a CC 9.0 device), but the model catches most rejections.
  EXPECT_GE(Caught * 10, Rejected * 8) << Caught << " of " << Rejected;
}

} // namespace
