//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of a device op's own value operands as a
// whole: rules::checkDeviceOpOperands on fact records, no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of the entry point, each naming the operand
// (and index) the check reports at; absent operands and unknown values
// are silent; the order of the violations.
//
//===----------------------------------------------------------------------===//

#include "rules/DeviceOpSite.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

/// The single violation of \p F, or fails.
OperandViolation only(const DeviceOpFacts &F) {
  auto V = checkDeviceOpOperands(F);
  EXPECT_EQ(V.size(), 1u);
  return V.empty() ? OperandViolation{{}, OpOperand::Size, 99} : V.front();
}

} // namespace

TEST(DeviceOpSite, NothingPresentIsSilent) {
  EXPECT_TRUE(checkDeviceOpOperands(DeviceOpFacts()).empty());
}

TEST(DeviceOpSite, UnknownValuesAreSilent) {
  DeviceOpFacts F;
  F.Size = Known();
  F.TxCount = Known();
  F.InitCount = Known();
  F.IgnoreLeft = Known();
  F.CtaMask = Known();
  F.ClusterCtas = 2;
  F.StoreCoords = {Known(), Known()};
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
}

TEST(DeviceOpSite, BulkSize) {
  DeviceOpFacts F;
  F.Size = 16;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.Size = 24;
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-SIZE-MUL16");
  EXPECT_EQ(V.Operand, OpOperand::Size);
  F.Size = 0;
  EXPECT_EQ(only(F).Operand, OpOperand::Size);
}

TEST(DeviceOpSite, TxCount) {
  DeviceOpFacts F;
  F.TxCount = (1u << 20) - 1;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.TxCount = 1u << 20;
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "MBAR-TX-RANGE");
  EXPECT_EQ(V.Operand, OpOperand::TxCount);
}

TEST(DeviceOpSite, InitCountAndLayout) {
  DeviceOpFacts F;
  F.InitCount = 1;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.InitCount = 0;
  EXPECT_STREQ(only(F).Violation.RuleId, "MBAR-INIT-COUNT");
  // .layout::v1 allows at most 511 arrivals.
  F.InitLayoutV1 = true;
  F.InitCount = 511;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.InitCount = 512;
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "MBAR-INIT-COUNT-LAYOUT");
  EXPECT_EQ(V.Operand, OpOperand::InitCount);
}

TEST(DeviceOpSite, IgnoreOobNamesItsSide) {
  DeviceOpFacts F;
  F.Size = 32;
  F.IgnoreLeft = 15;
  F.IgnoreRight = 15;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.IgnoreRight = 16;
  EXPECT_EQ(only(F).Operand, OpOperand::IgnoreRight);
  F.IgnoreRight = 0;
  F.IgnoreLeft = 16;
  EXPECT_EQ(only(F).Operand, OpOperand::IgnoreLeft);
}

TEST(DeviceOpSite, MulticastMaskAgainstCluster) {
  DeviceOpFacts F;
  F.CtaMask = 0x3;
  F.ClusterCtas = 2;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.CtaMask = 0x4;
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-MULTICAST");
  EXPECT_EQ(V.Operand, OpOperand::CtaMask);
}

TEST(DeviceOpSite, StBulkSize) {
  DeviceOpFacts F;
  F.StSize = 8;
  F.StInitValue = 0;
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  F.StSize = 12;
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "BULK-ST-SIZE");
  EXPECT_EQ(V.Operand, OpOperand::StSize);
}

TEST(DeviceOpSite, StoreCoordsEachNamed) {
  DeviceOpFacts F;
  F.StoreCoords = {0, 0xffffffffu, 0xfffffffeu};
  auto V = checkDeviceOpOperands(F);
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].Operand, OpOperand::StoreCoord);
  EXPECT_EQ(V[0].Index, 1u);
  EXPECT_EQ(V[1].Index, 2u);
  EXPECT_STREQ(V[0].Violation.RuleId, "TMA-STORE-NONNEG");
}

TEST(DeviceOpSite, StoreCoordArrayFirstOnly) {
  DeviceOpFacts F;
  F.StoreCoordArray = {0, Known(), 0x80000000u, 0xffffffffu};
  OperandViolation V = only(F);
  EXPECT_EQ(V.Operand, OpOperand::StoreCoordArray);
  EXPECT_EQ(V.Index, 2u);
}

TEST(DeviceOpSite, Im2colInfo) {
  DeviceOpFacts F;
  F.Mode = CopyMode::Im2col;
  F.Dims = 3;
  F.Im2colInfo = std::vector<Known>{Known(0xffff)};
  EXPECT_TRUE(checkDeviceOpOperands(F).empty());
  // A 4d im2col load's offsets are 8-bit.
  F.Dims = 4;
  F.Im2colInfo = std::vector<Known>{Known(0x100), Known(0)};
  OperandViolation V = only(F);
  EXPECT_STREQ(V.Violation.RuleId, "TMA-IM2COL-INFO");
  EXPECT_EQ(V.Operand, OpOperand::Im2colInfo);
}

TEST(DeviceOpSite, Order) {
  DeviceOpFacts F;
  F.Size = 24;
  F.IgnoreLeft = 16;
  F.CtaMask = 0x10;
  F.ClusterCtas = 2;
  auto V = checkDeviceOpOperands(F);
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(V[0].Operand, OpOperand::Size);
  EXPECT_EQ(V[1].Operand, OpOperand::IgnoreLeft);
  EXPECT_EQ(V[2].Operand, OpOperand::CtaMask);
}
