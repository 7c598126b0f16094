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
// is deliberate and listed here. The rows are replayed through the public
// header <tma/validate.h> too, which must agree with the model exactly.
//
//===----------------------------------------------------------------------===//

#include "rules/TiledRules.h"
#include "tma/validate.h"

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
    // encode_probe passes a null pointer for an empty stride list.
    if (F[4].empty()) {
      D.GlobalStrides.Null = true;
      D.GlobalStrides.Provided.reset();
    }
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
            << F[0] << ": the driver accepts it, the model reports " << V.RuleId
            << ": " << V.Message;
  }
  EXPECT_GT(Rows, 40u);
  // Misses are allowed (packed types on a CC 9.0 device), but the model
  // catches most rejections (rank 1 with a null strides pointer is
  // TMAP-ENC-GSTRIDES-NULL).
  EXPECT_GE(Caught * 10, Rejected * 8) << Caught << " of " << Rejected;
}

template <typename T> std::vector<T> values(const std::string &S) {
  std::vector<T> Out;
  for (const std::string &N : split(S, ','))
    if (!N.empty())
      Out.push_back(static_cast<T>(std::stoull(N)));
  return Out;
}

std::string ids(const std::vector<std::string> &Ids) {
  std::string S;
  for (const std::string &Id : Ids)
    S += (S.empty() ? "" : ",") + Id;
  return S;
}

// The record replayed through tma::check_tiled, with the operands as the
// probe passed them (an aligned map and address, a null empty array).
TEST(DriverRecord, HeaderAgreesWithTheModel) {
  std::ifstream In(TMA_DRIVER_RECORD);
  ASSERT_TRUE(In) << "cannot read " << TMA_DRIVER_RECORD;
  alignas(256) static char Memory[256];
  CUtensorMap Map;
  std::string Line;
  unsigned Rows = 0;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#' || Line.rfind("name\t", 0) == 0)
      continue;
    std::vector<std::string> F = split(Line, '\t');
    ASSERT_EQ(F.size(), 13u) << Line;
    auto Dims = values<cuuint64_t>(F[3]), Strides = values<cuuint64_t>(F[4]);
    auto Box = values<cuuint32_t>(F[5]), Es = values<cuuint32_t>(F[6]);
    tma::violations Vs = tma::check_tiled(
        &Map, CUtensorMapDataType(std::stoul(F[1])), std::stoul(F[2]), Memory,
        Dims.data(), Strides.empty() ? nullptr : Strides.data(), Box.data(),
        Es.data(), CUtensorMapInterleave(std::stoul(F[7])),
        CUtensorMapSwizzle(std::stoul(F[8])),
        CUtensorMapL2promotion(std::stoul(F[9])),
        CUtensorMapFloatOOBfill(std::stoul(F[10])));
    std::vector<std::string> Header;
    for (const tma::violation &V : Vs)
      Header.push_back(V.rule);
    // The model on the same values (the test above holds it to the driver).
    TiledDescriptor D;
    D.DataType = std::stoull(F[1]);
    D.Rank = std::stoull(F[2]);
    D.GlobalDim = numbers(F[3]);
    D.GlobalStrides = numbers(F[4]);
    if (F[4].empty()) {
      D.GlobalStrides.Null = true;
      D.GlobalStrides.Provided.reset();
    }
    D.BoxDim = numbers(F[5]);
    D.ElementStrides = numbers(F[6]);
    D.Interleave = std::stoull(F[7]);
    D.Swizzle = std::stoull(F[8]);
    D.L2Promotion = std::stoull(F[9]);
    D.OobFill = std::stoull(F[10]);
    std::vector<std::string> Model;
    for (const Violation &V : checkTiled(D))
      Model.push_back(V.RuleId);
    EXPECT_EQ(ids(Header), ids(Model)) << F[0];
    ++Rows;
  }
  EXPECT_GT(Rows, 40u);
}

} // namespace
