//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of TMAP-ENC-GADDR-ALIGN and
// TMAP-ENC-OUT-ALIGN64 with a proven alignment instead of an address (what
// the checker knows: a cudaMalloc base or an aligned variable plus a
// constant offset), at every boundary.
//
//===----------------------------------------------------------------------===//

#include "rules/Im2colRules.h"
#include "rules/TiledRules.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

std::vector<std::string> messages(const std::vector<Violation> &Vs,
                                  const char *Id) {
  std::vector<std::string> Out;
  for (const Violation &V : Vs)
    if (std::string(V.RuleId) == Id)
      Out.push_back(V.Message);
  return Out;
}

TiledDescriptor withAlign(Known GlobalAlign, Known MapAlign) {
  TiledDescriptor D;
  D.DataType = dtype::Float32;
  D.Interleave = interleave::None;
  D.GlobalAddressAlign = GlobalAlign;
  D.TensorMapAlign = MapAlign;
  return D;
}

TEST(GaddrAlignProven, SixteenBytes) {
  for (std::uint64_t A : {1, 2, 4, 8}) {
    auto M = messages(checkTiled(withAlign(A, std::nullopt)),
                      "TMAP-ENC-GADDR-ALIGN");
    ASSERT_EQ(M.size(), 1u) << A;
    EXPECT_EQ(M[0], "globalAddress is only " + std::to_string(A) +
                        "-byte aligned; it must be 16-byte aligned");
  }
  for (std::uint64_t A : {16, 32, 256})
    EXPECT_TRUE(messages(checkTiled(withAlign(A, std::nullopt)),
                         "TMAP-ENC-GADDR-ALIGN")
                    .empty())
        << A;
  EXPECT_TRUE(messages(checkTiled(withAlign(std::nullopt, std::nullopt)),
                       "TMAP-ENC-GADDR-ALIGN")
                  .empty());
  EXPECT_TRUE(
      messages(checkTiled(withAlign(0, std::nullopt)), "TMAP-ENC-GADDR-ALIGN")
          .empty());
}

TEST(GaddrAlignProven, ThirtyTwoBytesForInterleave32AndPacked16B) {
  TiledDescriptor D = withAlign(16, std::nullopt);
  D.Interleave = interleave::B32;
  auto M = messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN");
  ASSERT_EQ(M.size(), 1u);
  EXPECT_EQ(M[0], "globalAddress is only 16-byte aligned; "
                  "CU_TENSOR_MAP_INTERLEAVE_32B requires 32-byte alignment");
  D.GlobalAddressAlign = 32;
  EXPECT_TRUE(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").empty());
  D = withAlign(16, std::nullopt);
  D.DataType = dtype::U6Align16B;
  EXPECT_EQ(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").size(), 1u);
  D.DataType = dtype::U4Align8B;
  EXPECT_TRUE(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").empty());
  // Unknown interleave and data type: only 16 bytes are certain to be
  // needed.
  D.DataType = std::nullopt;
  D.Interleave = std::nullopt;
  EXPECT_TRUE(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").empty());
}

TEST(GaddrAlignProven, TheExactAddressDecides) {
  TiledDescriptor D = withAlign(2, std::nullopt);
  D.GlobalAddress = 0x7f0000000100;
  EXPECT_TRUE(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").empty());
  D.GlobalAddress = 0;
  EXPECT_TRUE(messages(checkTiled(D), "TMAP-ENC-GADDR-ALIGN").empty());
}

TEST(OutAlign64Proven, SixtyFourBytes) {
  for (std::uint64_t A : {1, 8, 16, 32}) {
    auto M = messages(checkTiled(withAlign(std::nullopt, A)),
                      "TMAP-ENC-OUT-ALIGN64");
    ASSERT_EQ(M.size(), 1u) << A;
    EXPECT_EQ(M[0], "tensorMap is only " + std::to_string(A) +
                        "-byte aligned; the map must be 64-byte aligned");
  }
  for (Known A : {Known(64), Known(128), Known()})
    EXPECT_TRUE(messages(checkTiled(withAlign(std::nullopt, A)),
                         "TMAP-ENC-OUT-ALIGN64")
                    .empty());
}

TEST(OutAlign64Proven, EveryEncoder) {
  Im2colDescriptor I;
  I.TensorMapAlign = 32;
  I.GlobalAddressAlign = 4;
  auto Vs = checkIm2col(I);
  EXPECT_EQ(messages(Vs, "TMAP-ENC-OUT-ALIGN64").size(), 1u);
  EXPECT_EQ(messages(Vs, "TMAP-ENC-GADDR-ALIGN").size(), 1u);
  Im2colWideDescriptor W;
  W.TensorMapAlign = 16;
  W.GlobalAddressAlign = 8;
  Vs = checkIm2colWide(W);
  EXPECT_EQ(messages(Vs, "TMAP-ENC-OUT-ALIGN64").size(), 1u);
  EXPECT_EQ(messages(Vs, "TMAP-ENC-GADDR-ALIGN").size(), 1u);
}

} // namespace
