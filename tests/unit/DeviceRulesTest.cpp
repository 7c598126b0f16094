//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the device-op rule model.
//
//===----------------------------------------------------------------------===//
//
// Every rule of rules/DeviceRules.h on both sides of each boundary. Limits
// come from tma-rules.md (sections 2, 3, 4), never from the model itself.
//
//===----------------------------------------------------------------------===//

#include "rules/DeviceRules.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <optional>
#include <string>

using namespace tma::rules;

namespace {

constexpr std::uint64_t TwoTo20Minus1 = 1048575;

//===----------------------------------------------------------------------===//
// BULK-SIZE-MUL16
//===----------------------------------------------------------------------===//

TEST(BulkSizeMul16, UnknownIsSilent) {
  EXPECT_FALSE(checkBulkSizeMul16(std::nullopt));
}

TEST(BulkSizeMul16, MultiplesOf16AreSilent) {
  for (std::uint64_t S : {16ull, 32ull, 48ull, 4096ull, 65536ull, 227ull * 1024,
                          0xfffffff0ull})
    EXPECT_FALSE(checkBulkSizeMul16(S)) << S;
}

TEST(BulkSizeMul16, EitherSideOfTheGranule) {
  for (std::uint64_t S : {1ull, 8ull, 12ull, 15ull, 17ull, 20ull, 24ull, 31ull,
                          33ull, 4100ull}) {
    auto V = checkBulkSizeMul16(S);
    ASSERT_TRUE(V) << S;
    EXPECT_STREQ(V->RuleId, "BULK-SIZE-MUL16");
    EXPECT_EQ(V->Parameter, DeviceParam::Size);
    EXPECT_EQ(V->Value, S);
    EXPECT_EQ(V->Limit, 16u);
  }
}

TEST(BulkSizeMul16, Message) {
  auto V = checkBulkSizeMul16(20);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "size is 20 bytes, not a multiple of 16 bytes");
  EXPECT_EQ(V->Suggestion, "pad the transfer to 32 bytes");
  V = checkBulkSizeMul16(1);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "size is 1 byte, not a multiple of 16 bytes");
  EXPECT_EQ(V->Suggestion, "pad the transfer to 16 bytes");
}

TEST(BulkSizeMul16, ZeroSize) {
  auto V = checkBulkSizeMul16(0);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 0u);
  EXPECT_EQ(V->Message,
            "size is 0 bytes; a bulk copy moves a non-zero multiple of 16 "
            "bytes");
  EXPECT_TRUE(V->Suggestion.empty());
}

TEST(BulkSizeMul16, ThirtyTwoBitOperand) {
  // The operand is a 32-bit register: 2^32 + 16 is 16 there, 2^32 is 0.
  EXPECT_FALSE(checkBulkSizeMul16((1ull << 32) + 16));
  auto V = checkBulkSizeMul16(1ull << 32);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 0u);
  // -4 as a 32-bit operand: 0xfffffffc.
  V = checkBulkSizeMul16(static_cast<std::uint64_t>(-4));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 0xfffffffcu);
}

//===----------------------------------------------------------------------===//
// MBAR-TX-RANGE
//===----------------------------------------------------------------------===//

TEST(MbarTxRange, UnknownIsSilent) {
  EXPECT_FALSE(checkMbarTxRange(std::nullopt));
}

TEST(MbarTxRange, Boundary) {
  EXPECT_FALSE(checkMbarTxRange(0));
  EXPECT_FALSE(checkMbarTxRange(1));
  EXPECT_FALSE(checkMbarTxRange(49152));
  EXPECT_FALSE(checkMbarTxRange(227 * 1024));
  EXPECT_FALSE(checkMbarTxRange(TwoTo20Minus1));
  auto V = checkMbarTxRange(TwoTo20Minus1 + 1);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-TX-RANGE");
  EXPECT_EQ(V->Parameter, DeviceParam::TxCount);
  EXPECT_EQ(V->Value, TwoTo20Minus1 + 1);
  EXPECT_EQ(V->Limit, TwoTo20Minus1);
  EXPECT_TRUE(checkMbarTxRange(2000000));
  EXPECT_TRUE(checkMbarTxRange(0xffffffffu));
}

TEST(MbarTxRange, Message) {
  // tma-rules.md: 128*256*sizeof(float)*8, a count of bits.
  auto V = checkMbarTxRange(128 * 256 * 4 * 8);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "txCount is 1048576 bytes, above 2^20-1 = 1048575 "
                        "bytes");
  EXPECT_EQ(V->Suggestion,
            "if the count is in bits, the byte count is 131072 bytes");
  V = checkMbarTxRange(2000001);
  ASSERT_TRUE(V);
  EXPECT_TRUE(V->Suggestion.empty());
}

TEST(MbarTxRange, NegativeCountIsHuge) {
  // A negative int passed to the 32-bit operand.
  auto V = checkMbarTxRange(static_cast<std::uint64_t>(-1));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 0xffffffffu);
  // Only the low 32 bits reach the instruction.
  EXPECT_FALSE(checkMbarTxRange((1ull << 32) + 64));
}

//===----------------------------------------------------------------------===//
// MBAR-INIT-COUNT
//===----------------------------------------------------------------------===//

TEST(MbarInitCount, UnknownIsSilent) {
  EXPECT_FALSE(checkMbarInitCount(std::nullopt));
}

TEST(MbarInitCount, Boundaries) {
  auto Zero = checkMbarInitCount(0);
  ASSERT_TRUE(Zero);
  EXPECT_STREQ(Zero->RuleId, "MBAR-INIT-COUNT");
  EXPECT_EQ(Zero->Parameter, DeviceParam::InitCount);
  EXPECT_EQ(Zero->Value, 0u);
  EXPECT_EQ(Zero->Limit, 1u);
  EXPECT_FALSE(checkMbarInitCount(1));
  EXPECT_FALSE(checkMbarInitCount(128));
  EXPECT_FALSE(checkMbarInitCount(TwoTo20Minus1));
  auto Over = checkMbarInitCount(TwoTo20Minus1 + 1);
  ASSERT_TRUE(Over);
  EXPECT_EQ(Over->Value, TwoTo20Minus1 + 1);
  EXPECT_EQ(Over->Limit, TwoTo20Minus1);
}

TEST(MbarInitCount, Message) {
  EXPECT_EQ(checkMbarInitCount(0)->Message,
            "count is 0 arrivals, outside the valid range [1, 1048575]");
  EXPECT_EQ(checkMbarInitCount(1048576)->Message,
            "count is 1048576 arrivals, outside the valid range [1, 1048575]");
  // -1 as a 32-bit operand.
  EXPECT_EQ(checkMbarInitCount(static_cast<std::uint64_t>(-1))->Value,
            0xffffffffu);
}

//===----------------------------------------------------------------------===//
// TMA-COORD-COUNT
//===----------------------------------------------------------------------===//

TEST(TmaCoordCount, UnknownIsSilent) {
  EXPECT_FALSE(
      checkTmaCoordCount(std::nullopt, 3, CoordShape::PerDimension));
  EXPECT_FALSE(
      checkTmaCoordCount(2, std::nullopt, CoordShape::PerDimension));
  // .0d and .6d do not exist: the instruction was not understood.
  EXPECT_FALSE(checkTmaCoordCount(0, 1, CoordShape::PerDimension));
  EXPECT_FALSE(checkTmaCoordCount(6, 5, CoordShape::PerDimension));
}

TEST(TmaCoordCount, PerDimension) {
  for (std::uint64_t N = 1; N <= 5; ++N) {
    EXPECT_FALSE(checkTmaCoordCount(N, N, CoordShape::PerDimension)) << N;
    for (std::uint64_t C : {N - 1, N + 1}) {
      auto V = checkTmaCoordCount(N, C, CoordShape::PerDimension);
      ASSERT_TRUE(V) << N << " " << C;
      EXPECT_STREQ(V->RuleId, "TMA-COORD-COUNT");
      EXPECT_EQ(V->Parameter, DeviceParam::Coords);
      EXPECT_EQ(V->Value, C);
      EXPECT_EQ(V->Limit, N);
    }
  }
}

TEST(TmaCoordCount, Gather4TakesFive) {
  EXPECT_FALSE(checkTmaCoordCount(2, 5, CoordShape::Gather4));
  EXPECT_TRUE(checkTmaCoordCount(2, 2, CoordShape::Gather4));
  EXPECT_TRUE(checkTmaCoordCount(2, 4, CoordShape::Gather4));
  EXPECT_TRUE(checkTmaCoordCount(2, 6, CoordShape::Gather4));
  EXPECT_EQ(checkTmaCoordCount(2, 4, CoordShape::Gather4)->Limit, 5u);
}

TEST(TmaCoordCount, Message) {
  EXPECT_EQ(checkTmaCoordCount(2, 3, CoordShape::PerDimension)->Message,
            "coordinates has 3 elements, but .2d takes exactly 2");
  EXPECT_EQ(checkTmaCoordCount(3, 1, CoordShape::PerDimension)->Message,
            "coordinates has 1 element, but .3d takes exactly 3");
  EXPECT_EQ(checkTmaCoordCount(2, 4, CoordShape::Gather4)->Message,
            "coordinates has 4 elements, but .2d .tile::gather4/scatter4 "
            "takes exactly 5");
}

TEST(DeviceParamName, PtxSpelling) {
  EXPECT_STREQ(deviceParamName(DeviceParam::Size), "size");
  EXPECT_STREQ(deviceParamName(DeviceParam::TxCount), "txCount");
  EXPECT_STREQ(deviceParamName(DeviceParam::InitCount), "count");
  EXPECT_STREQ(deviceParamName(DeviceParam::Coords), "coordinates");
}

} // namespace

//===----------------------------------------------------------------------===//
// MBAR-TX-EQUALS-BYTES
//===----------------------------------------------------------------------===//

namespace {

TEST(MbarTxEqualsBytes, EqualSumsAreSilent) {
  EXPECT_FALSE(checkMbarTxEqualsBytes({1024}, {1024}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({1024}, {512, 512}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({512, 512}, {1024}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({256, 768}, {512, 256, 256}, "bar"));
}

TEST(MbarTxEqualsBytes, UnknownOrEmptyIsSilent) {
  EXPECT_FALSE(checkMbarTxEqualsBytes({std::nullopt}, {16}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({16}, {16, std::nullopt}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({}, {16}, "bar"));
  EXPECT_FALSE(checkMbarTxEqualsBytes({16}, {}, "bar"));
}

TEST(MbarTxEqualsBytes, Mismatch) {
  auto V = checkMbarTxEqualsBytes({1024}, {1040}, "full[stage]");
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-TX-EQUALS-BYTES");
  EXPECT_EQ(V->Parameter, DeviceParam::TxCount);
  EXPECT_EQ(V->Value, 1024u);
  EXPECT_EQ(V->Limit, 1040u);
  EXPECT_EQ(V->Message,
            "expect-tx of 1024 bytes on 'full[stage]' but the copies "
            "completing on it in this phase deliver 1040 bytes");
  EXPECT_EQ(V->Suggestion, "expect 1040 bytes");
}

TEST(MbarTxClusterBytes, PerCta) {
  // Equal, unknown, or nothing expected: silent.
  EXPECT_FALSE(checkMbarTxClusterBytes({3072}, {1024, 2048}, "bar", 1, 2));
  EXPECT_FALSE(checkMbarTxClusterBytes({1024}, {std::nullopt}, "bar", 0, 2));
  EXPECT_FALSE(checkMbarTxClusterBytes({}, {2048}, "bar", 0, 2));
  // A multicast of another CTA that this CTA's expect-tx leaves out.
  auto V = checkMbarTxClusterBytes({1024}, {1024, 2048}, "bar", 1, 2);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "MBAR-TX-EQUALS-BYTES");
  EXPECT_EQ(V->Value, 1024u);
  EXPECT_EQ(V->Limit, 3072u);
  EXPECT_EQ(V->Message,
            "in CTA 1 of the cluster of 2, expect-tx of 1024 bytes on 'bar' "
            "but the copies of the cluster completing on it in this phase "
            "deliver 3072 bytes");
  EXPECT_EQ(V->Suggestion, "expect 3072 bytes in CTA 1");
  // No copy of the cluster sends this CTA anything.
  V = checkMbarTxClusterBytes({2048}, {}, "bar", 1, 2);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Limit, 0u);
  EXPECT_EQ(V->Message, "expect-tx of 2048 bytes on 'bar' in CTA 1 of the "
                        "cluster of 2, but no copy of the cluster completes "
                        "on it there: its phase never completes");
}

TEST(MbarTxEqualsBytes, SumsBothSides) {
  auto V = checkMbarTxEqualsBytes({1000}, {512, 512}, "bar");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 1000u);
  EXPECT_EQ(V->Limit, 1024u);
  V = checkMbarTxEqualsBytes({512, 256}, {1024}, "bar");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 768u);
}

TEST(MbarTxEqualsBytes, ThirtyTwoBitOperands) {
  // Operands are 32-bit: 2^32 + 16 is 16.
  EXPECT_FALSE(checkMbarTxEqualsBytes({(1ull << 32) + 16}, {16}, "bar"));
}

} // namespace
