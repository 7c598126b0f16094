//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of a device op's addresses as a whole:
// rules::checkOpAddresses on fact records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of the entry point, each naming the operand
// the check reports at: a bulk copy's shared-memory and global addresses at
// 16 bytes, a tensor copy's box at 128 (and its suggestion with the map's
// swizzle), gAddrToOverride (TMA-OVERRIDE-ATTR), an mbarrier at 8 bytes and in a state space
// other than shared memory, a stage family's first bad stage, the
// suggestion of an extern pool; untraced operands and unknown alignments
// are silent; the order of the violations.
//
//===----------------------------------------------------------------------===//

#include "rules/AddressSite.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

SmemAddressFacts aligned(std::uint64_t A) {
  SmemAddressFacts F;
  F.Align = A;
  return F;
}

AddressViolation only(const OpAddressFacts &F) {
  auto V = checkOpAddresses(F);
  EXPECT_EQ(V.size(), 1u);
  return V.empty() ? AddressViolation{{}, AddressOperand::Global, std::nullopt}
                   : V.front();
}

} // namespace

TEST(OpAddresses, NothingTracedIsSilent) {
  for (AddressedOp Op :
       {AddressedOp::Bulk, AddressedOp::Tensor, AddressedOp::Other}) {
    OpAddressFacts F;
    F.Op = Op;
    EXPECT_TRUE(checkOpAddresses(F).empty());
  }
}

TEST(OpAddresses, UnknownAlignmentsAreSilent) {
  OpAddressFacts F;
  F.Op = AddressedOp::Tensor;
  F.Smem = SmemAddressFacts();
  F.Barrier = SmemAddressFacts();
  F.GlobalAlign = Known();
  EXPECT_TRUE(checkOpAddresses(F).empty());
}

TEST(OpAddresses, BulkSmemAt16) {
  OpAddressFacts F;
  F.Op = AddressedOp::Bulk;
  F.Smem = aligned(16);
  EXPECT_TRUE(checkOpAddresses(F).empty());
  F.Smem = aligned(8);
  AddressViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-ADDR-ALIGN16");
  EXPECT_EQ(V.Operand, AddressOperand::Smem);
  EXPECT_EQ(V.Violation.Parameter, DeviceParam::SmemAddress);
  EXPECT_FALSE(V.Member);
}

TEST(OpAddresses, TensorBoxAt128WithTheSwizzleRepeat) {
  OpAddressFacts F;
  F.Op = AddressedOp::Tensor;
  F.Smem = aligned(128);
  EXPECT_TRUE(checkOpAddresses(F).empty());
  F.Smem = aligned(64);
  AddressViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-SMEM-ALIGN-128");
  EXPECT_EQ(V.Violation.Suggestion, tmaSmemAlignSuggestion(std::nullopt));
  // CU_TENSOR_MAP_SWIZZLE_128B (3): the box needs 1024 bytes in the end.
  F.Swizzle = 3;
  EXPECT_EQ(only(F).Violation.Suggestion, tmaSmemAlignSuggestion(3));
  EXPECT_NE(tmaSmemAlignSuggestion(3), tmaSmemAlignSuggestion(std::nullopt));
}

TEST(OpAddresses, ExternPoolAsksForTheOffset) {
  OpAddressFacts F;
  F.Op = AddressedOp::Tensor;
  F.Smem = aligned(64);
  F.Smem->OffsetOnly = true;
  F.Swizzle = 3;
  EXPECT_EQ(only(F).Violation.Suggestion,
            "keep the offset into it a multiple of 1024 bytes");
  F.Op = AddressedOp::Bulk;
  F.Smem = aligned(8);
  F.Smem->OffsetOnly = true;
  EXPECT_EQ(only(F).Violation.Suggestion,
            "keep the offset into it a multiple of 16 bytes");
}

TEST(OpAddresses, StageFamilyFirstBadStage) {
  // Stages 48 bytes apart in a 128-byte aligned buffer: stage 0 at 0 is
  // fine, stage 1 at 48 breaks 128.
  OpAddressFacts F;
  F.Op = AddressedOp::Tensor;
  SmemAddressFacts S;
  S.Members = 4;
  S.BaseAlign = 128;
  S.Whole = true;
  S.Member0 = 0;
  S.MemberStride = 48;
  F.Smem = S;
  AddressViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-SMEM-ALIGN-128");
  ASSERT_TRUE(V.Member);
  EXPECT_EQ(V.Member->Member, 1u);
  EXPECT_EQ(V.Member->Offset, 48);
  // Stages 128 bytes apart: none breaks it.
  F.Smem->MemberStride = 128;
  EXPECT_TRUE(checkOpAddresses(F).empty());
}

TEST(OpAddresses, BarrierAt8) {
  OpAddressFacts F;
  F.Op = AddressedOp::Other;
  F.Barrier = aligned(8);
  EXPECT_TRUE(checkOpAddresses(F).empty());
  F.Barrier = aligned(4);
  AddressViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "MBAR-LOCATION-ALIGN");
  EXPECT_EQ(V.Operand, AddressOperand::Barrier);
}

TEST(OpAddresses, BarrierOutsideSharedMemory) {
  OpAddressFacts F;
  F.Op = AddressedOp::Other;
  for (BarrierSpace S : {BarrierSpace::Local, BarrierSpace::Global,
                         BarrierSpace::StaticLocal, BarrierSpace::Constant}) {
    F.Space = S;
    AddressViolation V = only(F);
    EXPECT_STREQ(V.Violation.RuleId, "MBAR-LOCATION-ALIGN");
    EXPECT_EQ(V.Operand, AddressOperand::BarrierSpace);
  }
  F.Space = BarrierSpace::Unknown;
  EXPECT_TRUE(checkOpAddresses(F).empty());
}

TEST(OpAddresses, GlobalAddresses) {
  OpAddressFacts F;
  F.Op = AddressedOp::Bulk;
  F.GlobalAlign = Known(16);
  EXPECT_TRUE(checkOpAddresses(F).empty());
  F.GlobalAlign = Known(8);
  AddressViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-ADDR-ALIGN16");
  EXPECT_EQ(V.Operand, AddressOperand::Global);
  EXPECT_EQ(V.Violation.Parameter, DeviceParam::GlobalAddress);
  F.Op = AddressedOp::Tensor;
  EXPECT_STREQ(only(F).Violation.RuleId, "TMA-OVERRIDE-ATTR");
  // An mbarrier instruction has no global address.
  F.Op = AddressedOp::Other;
  EXPECT_TRUE(checkOpAddresses(F).empty());
}

TEST(OpAddresses, OrderOfTheOperands) {
  OpAddressFacts F;
  F.Op = AddressedOp::Bulk;
  F.Smem = aligned(8);
  F.Barrier = aligned(4);
  F.Space = BarrierSpace::Local;
  F.GlobalAlign = Known(4);
  auto V = checkOpAddresses(F);
  ASSERT_EQ(V.size(), 4u);
  EXPECT_EQ(V[0].Operand, AddressOperand::Smem);
  EXPECT_EQ(V[1].Operand, AddressOperand::Barrier);
  EXPECT_EQ(V[2].Operand, AddressOperand::BarrierSpace);
  EXPECT_EQ(V[3].Operand, AddressOperand::Global);
}

TEST(OpAddresses, SmemRuleIds) {
  EXPECT_STREQ(smemAlignRuleId(AddressedOp::Bulk), "BULK-ADDR-ALIGN16");
  EXPECT_STREQ(smemAlignRuleId(AddressedOp::Tensor), "TMA-SMEM-ALIGN-128");
  EXPECT_EQ(smemAlignRuleId(AddressedOp::Other), nullptr);
}
