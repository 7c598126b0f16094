//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the shared-memory rules (rules/SmemRules).
//
//===----------------------------------------------------------------------===//
//
// BULK-ADDR-ALIGN16, TMA-SMEM-ALIGN-128, TMA-SMEM-ALIGN-SWIZZLE and
// TMA-SMEM-FOOTPRINT on both sides of each boundary, and the guaranteed
// address alignment they read. Limits come from tma-rules.md sections 3
// and 4.
//
//===----------------------------------------------------------------------===//

#include "rules/SmemRules.h"
#include "rules/DataTypes.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <optional>

using namespace tma::rules;

namespace {

//===----------------------------------------------------------------------===//
// addressAlign
//===----------------------------------------------------------------------===//

TEST(AddressAlign, LowestPowerOfTwo) {
  EXPECT_EQ(lowestPowerOfTwo(0), 0u);
  EXPECT_EQ(lowestPowerOfTwo(1), 1u);
  EXPECT_EQ(lowestPowerOfTwo(24), 8u);
  EXPECT_EQ(lowestPowerOfTwo(1024), 1024u);
  EXPECT_EQ(lowestPowerOfTwo(-16), 16u);
  EXPECT_EQ(lowestPowerOfTwo(-8), 8u);
}

TEST(AddressAlign, UnknownInputs) {
  EXPECT_FALSE(addressAlign(std::nullopt, 0, true));
  EXPECT_FALSE(addressAlign(128, std::nullopt, true));
  EXPECT_FALSE(addressAlign(0, 0, true));
}

TEST(AddressAlign, OffsetBelowTheBaseIsExact) {
  // base + offset has the offset's lowest bit when it is below the base's.
  EXPECT_EQ(addressAlign(128, 64, true), Known(64));
  EXPECT_EQ(addressAlign(128, 64, false), Known(64));
  EXPECT_EQ(addressAlign(16, 4, false), Known(4));
  EXPECT_EQ(addressAlign(1024, 128 + 256, false), Known(128));
  EXPECT_EQ(addressAlign(16, -8, false), Known(8));
}

TEST(AddressAlign, OffsetAtOrAboveTheBase) {
  // The base is the guarantee of a static buffer...
  EXPECT_EQ(addressAlign(128, 0, true), Known(128));
  EXPECT_EQ(addressAlign(128, 128, true), Known(128));
  EXPECT_EQ(addressAlign(128, 4096, true), Known(128));
  EXPECT_EQ(addressAlign(4, 0, true), Known(4));
  // ...but an extern pool's start may be more aligned than declared.
  EXPECT_FALSE(addressAlign(16, 0, false));
  EXPECT_FALSE(addressAlign(16, 16, false));
  EXPECT_FALSE(addressAlign(1, 3, false));
}

//===----------------------------------------------------------------------===//
// BULK-ADDR-ALIGN16
//===----------------------------------------------------------------------===//

TEST(BulkAddrAlign16, UnknownIsSilent) {
  EXPECT_FALSE(checkBulkAddrAlign16(std::nullopt));
}

TEST(BulkAddrAlign16, Boundary) {
  for (std::uint64_t A : {16ull, 32ull, 128ull, 1024ull})
    EXPECT_FALSE(checkBulkAddrAlign16(A)) << A;
  for (std::uint64_t A : {1ull, 2ull, 4ull, 8ull}) {
    auto V = checkBulkAddrAlign16(A);
    ASSERT_TRUE(V) << A;
    EXPECT_STREQ(V->RuleId, "BULK-ADDR-ALIGN16");
    EXPECT_EQ(V->Parameter, DeviceParam::SmemAddress);
    EXPECT_EQ(V->Value, A);
    EXPECT_EQ(V->Limit, 16u);
  }
}

TEST(BulkAddrAlign16, GlobalOperand) {
  for (std::uint64_t A : {16ull, 256ull})
    EXPECT_FALSE(checkBulkAddrAlign16(A, DeviceParam::GlobalAddress)) << A;
  EXPECT_FALSE(checkBulkAddrAlign16(std::nullopt, DeviceParam::GlobalAddress));
  auto V = checkBulkAddrAlign16(4, DeviceParam::GlobalAddress);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "BULK-ADDR-ALIGN16");
  EXPECT_EQ(V->Parameter, DeviceParam::GlobalAddress);
  EXPECT_EQ(V->Limit, 16u);
  EXPECT_EQ(V->Message, "global address is guaranteed only 4-byte alignment, "
                        "not the 16 bytes that a bulk copy needs");
  EXPECT_EQ(V->Suggestion,
            "keep the offset from the allocation a multiple of 16 bytes");
  EXPECT_STREQ(deviceParamName(DeviceParam::GlobalAddress), "global address");
}

TEST(BulkAddrAlign16, Message) {
  auto V = checkBulkAddrAlign16(8);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "shared-memory address is guaranteed only 8-byte "
                        "alignment, not the 16 bytes that a bulk copy needs");
  EXPECT_EQ(V->Suggestion, "declare the buffer alignas(16) and keep the offset "
                           "into it a multiple of 16 bytes");
  EXPECT_STREQ(deviceParamName(DeviceParam::SmemAddress),
               "shared-memory address");
}

//===----------------------------------------------------------------------===//
// TMA-SMEM-ALIGN-128
//===----------------------------------------------------------------------===//

TEST(TmaSmemAlign128, UnknownIsSilent) {
  EXPECT_FALSE(checkTmaSmemAlign128(std::nullopt));
}

TEST(TmaSmemAlign128, Boundary) {
  for (std::uint64_t A : {128ull, 256ull, 1024ull})
    EXPECT_FALSE(checkTmaSmemAlign128(A)) << A;
  for (std::uint64_t A : {1ull, 4ull, 16ull, 32ull, 64ull}) {
    auto V = checkTmaSmemAlign128(A);
    ASSERT_TRUE(V) << A;
    EXPECT_STREQ(V->RuleId, "TMA-SMEM-ALIGN-128");
    EXPECT_EQ(V->Value, A);
    EXPECT_EQ(V->Limit, 128u);
  }
  EXPECT_EQ(checkTmaSmemAlign128(64)->Message,
            "shared-memory address is guaranteed only 64-byte alignment, not "
            "the 128 bytes that a tensor copy's box needs");
}

//===----------------------------------------------------------------------===//
// TMA-SMEM-ALIGN-SWIZZLE
//===----------------------------------------------------------------------===//

TEST(TmaSmemAlignSwizzle, RepeatPerMode) {
  EXPECT_FALSE(swizzleRepeatBytes(swizzle::None));
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B32), 256u);
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B64), 512u);
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B128), 1024u);
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B128Atom32B), 1024u);
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B128Atom32BFlip8B), 1024u);
  EXPECT_EQ(swizzleRepeatBytes(swizzle::B128Atom64B), 1024u);
  EXPECT_FALSE(swizzleRepeatBytes(7));
}

TEST(TmaSmemAlignSwizzle, UnknownOrNoneIsSilent) {
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(std::nullopt, swizzle::B128));
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(128, std::nullopt));
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(128, swizzle::None));
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(128, 7));
}

TEST(TmaSmemAlignSwizzle, Boundaries) {
  struct Case {
    std::uint64_t Swizzle, Repeat;
  };
  for (Case C : {Case{swizzle::B32, 256}, Case{swizzle::B64, 512},
                 Case{swizzle::B128, 1024}, Case{swizzle::B128Atom32B, 1024},
                 Case{swizzle::B128Atom64B, 1024}}) {
    EXPECT_FALSE(checkTmaSmemAlignSwizzle(C.Repeat, C.Swizzle)) << C.Swizzle;
    EXPECT_FALSE(checkTmaSmemAlignSwizzle(C.Repeat * 2, C.Swizzle));
    auto V = checkTmaSmemAlignSwizzle(C.Repeat / 2, C.Swizzle);
    ASSERT_TRUE(V) << C.Swizzle;
    EXPECT_STREQ(V->RuleId, "TMA-SMEM-ALIGN-SWIZZLE");
    EXPECT_EQ(V->Value, C.Repeat / 2);
    EXPECT_EQ(V->Limit, C.Repeat);
  }
}

TEST(TmaSmemAlignSwizzle, Below128IsLeftToAlign128) {
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(64, swizzle::B128));
  EXPECT_FALSE(checkTmaSmemAlignSwizzle(16, swizzle::B32));
  EXPECT_TRUE(checkTmaSmemAlignSwizzle(128, swizzle::B32));
}

TEST(TmaSmemAlignSwizzle, Message) {
  auto V = checkTmaSmemAlignSwizzle(128, swizzle::B128);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "shared-memory address is guaranteed only 128-byte "
                        "alignment, not the 1024 bytes after which "
                        "CU_TENSOR_MAP_SWIZZLE_128B repeats");
  EXPECT_EQ(V->Suggestion, "declare the buffer alignas(1024) and keep the "
                           "offset into it a multiple of 1024 bytes");
}

//===----------------------------------------------------------------------===//
// TMA-SMEM-FOOTPRINT
//===----------------------------------------------------------------------===//

TEST(TmaSmemFootprint, UnknownIsSilent) {
  EXPECT_FALSE(checkTmaSmemFootprint(std::nullopt, 16));
  EXPECT_FALSE(checkTmaSmemFootprint(16, std::nullopt));
}

TEST(TmaSmemFootprint, Boundary) {
  EXPECT_FALSE(checkTmaSmemFootprint(8192, 8192));
  EXPECT_FALSE(checkTmaSmemFootprint(8193, 8192));
  EXPECT_FALSE(checkTmaSmemFootprint(0, 0));
  auto V = checkTmaSmemFootprint(8192, 8193);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-SMEM-FOOTPRINT");
  EXPECT_EQ(V->Value, 8193u);
  EXPECT_EQ(V->Limit, 8192u);
  EXPECT_TRUE(checkTmaSmemFootprint(0, 16));
}

TEST(TmaSmemFootprint, Message) {
  auto V = checkTmaSmemFootprint(8192, 16384);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "box of 16384 bytes does not fit in the 8192 bytes "
                        "from the shared-memory address to the end of its "
                        "buffer");
  EXPECT_EQ(V->Suggestion, "enlarge the buffer by 8192 bytes");
}

} // namespace

// A stage family reports its first member that breaks the rule (issue 24).
TEST(FirstMemberViolation, NamesTheFirstBreakingStage) {
  // [2][32] halves in a 128-byte aligned buffer: stage 1 at 64 bytes.
  auto M = firstMemberViolation(128, true, 2, 0, 64, checkTmaSmemAlign128);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Member, 1u);
  EXPECT_EQ(M->Offset, 64);
  EXPECT_EQ(M->Violation.RuleId, std::string("TMA-SMEM-ALIGN-128"));
  // 128-byte stages: every stage aligned.
  EXPECT_FALSE(firstMemberViolation(128, true, 4, 0, 128, checkTmaSmemAlign128));
  // One stage only: nothing but stage 0, which is aligned.
  EXPECT_FALSE(firstMemberViolation(128, true, 1, 0, 64, checkTmaSmemAlign128));
  // Stage 0 already misaligned: stage 0 is named.
  auto Z = firstMemberViolation(128, true, 2, 16, 128, checkTmaSmemAlign128);
  ASSERT_TRUE(Z);
  EXPECT_EQ(Z->Member, 0u);
  // An unknown base alignment proves nothing.
  EXPECT_FALSE(firstMemberViolation(std::nullopt, true, 2, 0, 64,
                                    checkTmaSmemAlign128));
  // Bulk copies: 24-byte rows, stage 1 is 8-byte aligned.
  auto B = firstMemberViolation(
      128, true, 4, 0, 24,
      [](Known A) { return checkBulkAddrAlign16(A); });
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Member, 1u);
}
