//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the device rows of tma-rules.md section 7
// (rules/ArchRules.h): every form needs compute capability 10.0; below it
// each is reported under its rule id, at and above it nothing, and an
// unknown target (the host pass) never.
//
//===----------------------------------------------------------------------===//

#include "rules/ArchRules.h"

#include "gtest/gtest.h"

#include <string>

using namespace tma::rules;

namespace {

const DeviceFeature All[] = {DeviceFeature::CpMask, DeviceFeature::Im2colW,
                             DeviceFeature::Im2colW128};

TEST(DeviceFeatureArch, BelowComputeCapability10) {
  for (const char *Name : {"sm_90a", "sm_90", "sm_89", "sm_80"})
    for (DeviceFeature F : All) {
      auto V = checkDeviceFeatureArch(F, parseGpuTarget(Name));
      ASSERT_TRUE(V) << Name << " " << deviceFeatureName(F);
      EXPECT_EQ(V->Limit, 100u);
      EXPECT_EQ(V->Message.rfind(std::string(deviceFeatureName(F)) +
                                     " is not supported on " + Name +
                                     ", the target of this device pass",
                                 0),
                0u)
          << V->Message;
    }
}

TEST(DeviceFeatureArch, BlackwellAndUnknownAreSilent) {
  for (const char *Name : {"sm_100", "sm_100a", "sm_100f", "sm_103a",
                           "sm_110a", "sm_120a"})
    for (DeviceFeature F : All)
      EXPECT_FALSE(checkDeviceFeatureArch(F, parseGpuTarget(Name)))
          << Name << " " << deviceFeatureName(F);
  for (DeviceFeature F : All)
    EXPECT_FALSE(checkDeviceFeatureArch(F, std::nullopt));
}

TEST(DeviceFeatureArch, RuleIds) {
  auto T = parseGpuTarget("sm_90a");
  EXPECT_STREQ(checkDeviceFeatureArch(DeviceFeature::CpMask, T)->RuleId,
               "BULK-CPMASK");
  EXPECT_STREQ(checkDeviceFeatureArch(DeviceFeature::Im2colW, T)->RuleId,
               "TMA-ARCH");
  EXPECT_STREQ(checkDeviceFeatureArch(DeviceFeature::Im2colW128, T)->RuleId,
               "TMA-ARCH");
  EXPECT_EQ(checkDeviceFeatureArch(DeviceFeature::CpMask, T)->Message,
            ".cp_mask is not supported on sm_90a, the target of this device "
            "pass; it needs sm_100 or newer");
}

} // namespace
