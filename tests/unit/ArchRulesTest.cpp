//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the device rows of tma-rules.md section 7
// (rules/ArchRules.h): for every form, the targets just below and at its
// boundary (compute capability, 'a' and 'f' suffix, family), the rule id,
// the message naming the target, and the opcode decoder. An unknown target
// (the host pass) never reports.
//
//===----------------------------------------------------------------------===//

#include "rules/ArchRules.h"

#include "gtest/gtest.h"

#include <string>

using namespace tma::rules;

namespace {

bool has(DeviceFeature F, const char *Target) {
  auto T = parseGpuTarget(Target);
  EXPECT_TRUE(T) << Target;
  return targetHasFeature(F, *T);
}

void expectTargets(DeviceFeature F, std::initializer_list<const char *> Has,
                   std::initializer_list<const char *> Lacks) {
  for (const char *T : Has) {
    EXPECT_TRUE(has(F, T)) << deviceFeatureName(F) << " on " << T;
    EXPECT_FALSE(checkDeviceFeatureArch(F, parseGpuTarget(T))) << T;
  }
  for (const char *T : Lacks) {
    EXPECT_FALSE(has(F, T)) << deviceFeatureName(F) << " on " << T;
    auto V = checkDeviceFeatureArch(F, parseGpuTarget(T));
    ASSERT_TRUE(V) << T;
    EXPECT_STREQ(V->RuleId, deviceFeatureRule(F));
    EXPECT_NE(V->Message.find(std::string(" on ") + T), std::string::npos)
        << V->Message;
  }
  EXPECT_FALSE(checkDeviceFeatureArch(F, std::nullopt));
}

TEST(DeviceFeatureArch, HopperPlainForms) {
  for (DeviceFeature F : {DeviceFeature::BulkAsync, DeviceFeature::MbarrierTx,
                          DeviceFeature::ProxyFence})
    expectTargets(F, {"sm_90", "sm_90a", "sm_100", "sm_120a"},
                  {"sm_89", "sm_86", "sm_80", "sm_75"});
  expectTargets(DeviceFeature::MbarrierBasic, {"sm_80", "sm_86", "sm_90"},
                {"sm_75", "sm_70"});
}

TEST(DeviceFeatureArch, BlackwellPlainForms) {
  for (DeviceFeature F : {DeviceFeature::CpMask, DeviceFeature::StBulk,
                          DeviceFeature::Gather4Cta, DeviceFeature::Im2colWCta})
    expectTargets(F, {"sm_100", "sm_100a", "sm_100f", "sm_103", "sm_120"},
                  {"sm_90a", "sm_90", "sm_89", "sm_80"});
}

TEST(DeviceFeatureArch, BlackwellSpecificForms) {
  for (DeviceFeature F :
       {DeviceFeature::Gather4Cluster, DeviceFeature::Scatter4,
        DeviceFeature::Im2colWCluster, DeviceFeature::Im2colW128,
        DeviceFeature::PrefetchGather4, DeviceFeature::PrefetchIm2colW,
        DeviceFeature::CtaGroup})
    expectTargets(F,
                  {"sm_100a", "sm_100f", "sm_101a", "sm_103a", "sm_103f",
                   "sm_110a", "sm_110f"},
                  // Plain Blackwell targets have no arch-specific form; the
                  // sm_120 family has none of these.
                  {"sm_100", "sm_103", "sm_110", "sm_120", "sm_120a",
                   "sm_120f", "sm_121a", "sm_90a", "sm_90", "sm_80"});
}

TEST(DeviceFeatureArch, TensormapReplace) {
  expectTargets(DeviceFeature::TensormapReplace,
                {"sm_90a", "sm_100a", "sm_103a", "sm_110a", "sm_120a",
                 "sm_121a", "sm_100f", "sm_110f", "sm_120f"},
                // No plain target; sm_89a is no target with the form.
                {"sm_90", "sm_100", "sm_120", "sm_80", "sm_89"});
}

TEST(DeviceFeatureArch, MulticastAdvisedOnPlainSm90Only) {
  expectTargets(DeviceFeature::MulticastAdvised,
                {"sm_90a", "sm_100a", "sm_100f", "sm_100"}, {"sm_90"});
  auto V = checkDeviceFeatureArch(DeviceFeature::MulticastAdvised,
                                  parseGpuTarget("sm_90"));
  EXPECT_EQ(V->Message,
            ".multicast::cluster on sm_90, the target of this device pass: "
            "ptxas advises using it on sm_90a, sm_100a, sm_100f, sm_103a, "
            "sm_103f, sm_110a or sm_110f instead");
}

TEST(DeviceFeatureArch, RuleIds) {
  EXPECT_STREQ(deviceFeatureRule(DeviceFeature::CpMask), "BULK-CPMASK");
  for (DeviceFeature F :
       {DeviceFeature::Gather4Cta, DeviceFeature::Gather4Cluster,
        DeviceFeature::Scatter4, DeviceFeature::PrefetchGather4})
    EXPECT_STREQ(deviceFeatureRule(F), "TMA-GATHER4");
  EXPECT_STREQ(deviceFeatureRule(DeviceFeature::CtaGroup), "TMA-CTA-GROUP");
  for (DeviceFeature F :
       {DeviceFeature::BulkAsync, DeviceFeature::MbarrierTx,
        DeviceFeature::TensormapReplace, DeviceFeature::Im2colW128,
        DeviceFeature::MulticastAdvised, DeviceFeature::StBulk})
    EXPECT_STREQ(deviceFeatureRule(F), "TMA-ARCH");
}

TEST(DeviceFeatureArch, Messages) {
  auto T = parseGpuTarget("sm_90a");
  EXPECT_EQ(checkDeviceFeatureArch(DeviceFeature::CpMask, T)->Message,
            ".cp_mask is not supported on sm_90a, the target of this device "
            "pass; it needs sm_100 or newer");
  EXPECT_EQ(checkDeviceFeatureArch(DeviceFeature::CpMask, T)->Suggestion,
            "build this kernel for sm_100, or guard the code with #if "
            "__CUDA_ARCH__ >= 1000");
  auto V = checkDeviceFeatureArch(DeviceFeature::TensormapReplace,
                                  parseGpuTarget("sm_90"));
  EXPECT_EQ(V->Message,
            "tensormap.replace is not supported on sm_90, the target of this "
            "device pass; it needs an arch-specific target (sm_90a, sm_100a, "
            "sm_103a, sm_110a, sm_120a) or a family target (sm_100f, "
            "sm_110f, sm_120f); no plain target has it");
  V = checkDeviceFeatureArch(DeviceFeature::MbarrierTx, parseGpuTarget("sm_80"));
  EXPECT_EQ(V->Limit, 90u);
  EXPECT_EQ(V->Value, 80u);
}

std::vector<DeviceFeature> of(const char *Opcode) {
  return featuresOfOpcode(Opcode);
}

TEST(FeaturesOfOpcode, BulkCopies) {
  using F = DeviceFeature;
  EXPECT_EQ(of("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes"),
            std::vector<F>{F::BulkAsync});
  EXPECT_EQ(of("cp.async.bulk.commit_group"), std::vector<F>{F::BulkAsync});
  EXPECT_EQ(of("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32"),
            std::vector<F>{F::BulkAsync});
  EXPECT_EQ(of("cp.async.bulk.global.shared::cta.bulk_group.cp_mask"),
            (std::vector<F>{F::BulkAsync, F::CpMask}));
  EXPECT_EQ(of("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster"),
            (std::vector<F>{F::BulkAsync, F::MulticastAdvised}));
  // Not a bulk copy: the sm_80 cp.async.
  EXPECT_TRUE(of("cp.async.ca.shared.global").empty());
}

TEST(FeaturesOfOpcode, TensorModesByDestination) {
  using F = DeviceFeature;
  EXPECT_EQ(of("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4."
               "mbarrier::complete_tx::bytes"),
            (std::vector<F>{F::BulkAsync, F::Gather4Cta}));
  EXPECT_EQ(of("cp.async.bulk.tensor.2d.shared::cluster.global.tile::"
               "gather4.mbarrier::complete_tx::bytes"),
            (std::vector<F>{F::BulkAsync, F::Gather4Cluster}));
  EXPECT_EQ(of("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4."
               "bulk_group"),
            (std::vector<F>{F::BulkAsync, F::Scatter4}));
  EXPECT_EQ(of("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w."
               "mbarrier::complete_tx::bytes"),
            (std::vector<F>{F::BulkAsync, F::Im2colWCta}));
  EXPECT_EQ(of("cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w."
               "mbarrier::complete_tx::bytes"),
            (std::vector<F>{F::BulkAsync, F::Im2colWCluster}));
  EXPECT_EQ(of("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w::128."
               "mbarrier::complete_tx::bytes"),
            (std::vector<F>{F::BulkAsync, F::Im2colW128}));
  EXPECT_EQ(of("cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4"),
            (std::vector<F>{F::BulkAsync, F::PrefetchGather4}));
  EXPECT_EQ(of("cp.async.bulk.prefetch.tensor.3d.L2.global.im2col::w::128"),
            (std::vector<F>{F::BulkAsync, F::PrefetchIm2colW}));
  EXPECT_EQ(of("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes.cta_group::2"),
            (std::vector<F>{F::BulkAsync, F::CtaGroup}));
  EXPECT_EQ(of("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
               "complete_tx::bytes.multicast::cluster"),
            (std::vector<F>{F::BulkAsync, F::MulticastAdvised}));
}

TEST(FeaturesOfOpcode, BarriersFencesMaps) {
  using F = DeviceFeature;
  EXPECT_EQ(of("mbarrier.init.shared::cta.b64"),
            std::vector<F>{F::MbarrierBasic});
  EXPECT_EQ(of("mbarrier.arrive.shared::cta.b64"),
            std::vector<F>{F::MbarrierBasic});
  EXPECT_EQ(of("mbarrier.test_wait.parity.shared::cta.b64"),
            std::vector<F>{F::MbarrierBasic});
  EXPECT_EQ(of("mbarrier.try_wait.parity.shared::cta.b64"),
            std::vector<F>{F::MbarrierTx});
  EXPECT_EQ(of("mbarrier.arrive.expect_tx.shared::cta.b64"),
            std::vector<F>{F::MbarrierTx});
  EXPECT_EQ(of("mbarrier.expect_tx.relaxed.cta.shared::cta.b64"),
            std::vector<F>{F::MbarrierTx});
  EXPECT_EQ(of("mbarrier.arrive.release.cluster.shared::cluster.b64"),
            std::vector<F>{F::MbarrierTx});
  EXPECT_EQ(of("fence.proxy.async.shared::cta"), std::vector<F>{F::ProxyFence});
  EXPECT_EQ(of("fence.mbarrier_init.release.cluster"),
            std::vector<F>{F::ProxyFence});
  EXPECT_EQ(of("fence.proxy.tensormap::generic.acquire.gpu"),
            std::vector<F>{F::ProxyFence});
  EXPECT_EQ(of("tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
               "generic.release.gpu.sync.aligned"),
            std::vector<F>{F::ProxyFence});
  EXPECT_EQ(of("prefetch.param.tensormap"), std::vector<F>{F::ProxyFence});
  EXPECT_EQ(of("tensormap.replace.tile.global_address.global.b1024.b64"),
            std::vector<F>{F::TensormapReplace});
  EXPECT_EQ(of("st.bulk.weak.shared::cta"), std::vector<F>{F::StBulk});
  // Outside section 7.
  EXPECT_TRUE(of("fence.acq_rel.gpu").empty());
  EXPECT_TRUE(of("st.global.b32").empty());
  EXPECT_TRUE(of("prefetch.global.L2").empty());
  EXPECT_TRUE(of("").empty());
}

} // namespace
