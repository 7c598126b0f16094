//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the target model (rules/Target.h) and of
// TMAP-ENC-ARCH, the encode rule that depends on it.
//
//===----------------------------------------------------------------------===//
//
// The limits come from tma-rules.md section 7 (compute capability 10.0 for
// Im2colWide, the packed types and the 128B_ATOM swizzles), never from the
// model itself.
//
//===----------------------------------------------------------------------===//

#include "rules/Im2colRules.h"
#include "rules/Target.h"
#include "rules/TiledRules.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

std::vector<std::string> ids(const std::vector<Violation> &Vs,
                             const char *Only = "TMAP-ENC-ARCH") {
  std::vector<std::string> Out;
  for (const Violation &V : Vs)
    if (std::string(V.RuleId) == Only)
      Out.push_back(std::string(paramName(V.Parameter)) + ": " + V.Message);
  return Out;
}

KnownArray known(std::vector<std::uint64_t> Elems) {
  KnownArray A;
  for (std::uint64_t E : Elems)
    A.Elems.push_back(E);
  A.Provided = Elems.size();
  return A;
}

/// A valid 2-D map of \p DataType (the packed types with their 128-element
/// box) with swizzle \p Swizzle.
TiledDescriptor tiled(std::uint64_t DataType, std::uint64_t Swizzle,
                      std::optional<GpuTarget> T) {
  TiledDescriptor D;
  D.DataType = DataType;
  D.Rank = 2;
  D.GlobalDim = known({4096, 4096});
  D.GlobalStrides = known({8192});
  D.BoxDim = known({isPacked16BType(DataType) ? 128u : 64u, 64});
  D.ElementStrides = known({1, 1});
  D.Interleave = interleave::None;
  D.Swizzle = Swizzle;
  D.L2Promotion = 0;
  D.OobFill = oobfill::None;
  D.Target = T;
  return D;
}

GpuTarget target(const char *Name) { return *parseGpuTarget(Name); }

TEST(GpuTarget, ParsesClangSpellings) {
  EXPECT_EQ(target("sm_90a").Cc, 90u);
  EXPECT_EQ(target("sm_90a").Suffix, 'a');
  EXPECT_EQ(target("sm_90").Suffix, 0);
  EXPECT_EQ(target("sm_100f").Cc, 100u);
  EXPECT_EQ(target("sm_100f").Suffix, 'f');
  EXPECT_EQ(target("sm_120a").name(), "sm_120a");
  EXPECT_EQ(target("sm_80").name(), "sm_80");
  for (const char *Bad : {"", "sm_", "sm_9", "compute_90", "gfx90a", "sm_90x",
                          "sm_90aa", "sm_a", "sm_99999999"})
    EXPECT_FALSE(parseGpuTarget(Bad)) << Bad;
}

TEST(GpuTarget, OnlyArchSpecificTargetsBoundTheGpu) {
  EXPECT_TRUE(target("sm_90a").isNewestGpu());
  EXPECT_FALSE(target("sm_90").isNewestGpu());
  EXPECT_FALSE(target("sm_100f").isNewestGpu());
}

TEST(NewestEncodeTarget, TheDevicePassOfTheNewestArchSpecificTarget) {
  auto Sm90a = parseGpuTarget("sm_90a");
  auto Sm90 = parseGpuTarget("sm_90");
  auto Sm80 = parseGpuTarget("sm_80");
  ASSERT_TRUE(newestEncodeTarget("900", Sm90a));
  EXPECT_EQ(newestEncodeTarget("900", Sm90a)->name(), "sm_90a");
  EXPECT_EQ(newestEncodeTarget("800,900", Sm90a)->name(), "sm_90a");
  EXPECT_EQ(newestEncodeTarget("900,800", Sm90a)->name(), "sm_90a");
  // Not the newest: the other pass answers.
  EXPECT_FALSE(newestEncodeTarget("900,1000", Sm90a));
  EXPECT_FALSE(newestEncodeTarget("800,900", Sm80));
  // Plain targets, the host pass, malformed lists.
  EXPECT_FALSE(newestEncodeTarget("900", Sm90));
  EXPECT_FALSE(newestEncodeTarget("900", std::nullopt));
  EXPECT_FALSE(newestEncodeTarget("", Sm90a));
  EXPECT_FALSE(newestEncodeTarget("900,", Sm90a));
  EXPECT_FALSE(newestEncodeTarget("90a", Sm90a));
  EXPECT_FALSE(newestEncodeTarget("905", Sm90a));
  EXPECT_FALSE(newestEncodeTarget("900;1000", Sm90a));
}

TEST(TmapEncArch, PackedTypesBelowComputeCapability10) {
  for (std::uint64_t DT :
       {dtype::U4Align8B, dtype::U4Align16B, dtype::U6Align16B}) {
    auto On90 = ids(checkTiled(tiled(DT, swizzle::B128, target("sm_90a"))));
    ASSERT_EQ(On90.size(), 1u) << DT;
    EXPECT_EQ(On90[0], std::string("tensorDataType: ") + dataTypeName(DT) +
                           " is not supported on sm_90a: it needs a GPU of "
                           "compute capability 10.0 or higher, and sm_90a "
                           "code runs only on 9.0");
    EXPECT_TRUE(ids(checkTiled(tiled(DT, swizzle::B128, target("sm_100a"))))
                    .empty());
    EXPECT_TRUE(ids(checkTiled(tiled(DT, swizzle::B128, std::nullopt))).empty());
  }
  // Every other type is fine on Hopper.
  for (std::uint64_t DT = 0; DT < dtype::U4Align8B; ++DT)
    EXPECT_TRUE(ids(checkTiled(tiled(DT, swizzle::B128, target("sm_90a"))))
                    .empty());
}

TEST(TmapEncArch, AtomSwizzlesBelowComputeCapability10) {
  for (std::uint64_t S = swizzle::None; S <= swizzle::Last; ++S) {
    auto On90 = ids(checkTiled(tiled(dtype::Float16, S, target("sm_90a"))));
    bool Atom = S >= swizzle::B128Atom32B;
    ASSERT_EQ(On90.size(), Atom ? 1u : 0u) << S;
    if (Atom)
      EXPECT_EQ(On90[0], std::string("swizzle: ") + swizzleName(S) +
                             " is not supported on sm_90a: it needs a GPU of "
                             "compute capability 10.0 or higher, and sm_90a "
                             "code runs only on 9.0");
    EXPECT_TRUE(
        ids(checkTiled(tiled(dtype::Float16, S, target("sm_120a")))).empty());
  }
  // Out of range is TMAP-ENC-ENUM-RANGE's alone.
  EXPECT_TRUE(ids(checkTiled(tiled(dtype::Float16, 7, target("sm_90a"))))
                  .empty());
}

TEST(TmapEncArch, Im2colWideIsReportedAloneAtTheEncoder) {
  Im2colWideDescriptor D;
  D.DataType = dtype::U4Align16B;
  D.Rank = 3;
  D.Swizzle = swizzle::B128Atom32B;
  D.Target = target("sm_90a");
  auto V = ids(checkIm2colWide(D));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0], "encoder: cuTensorMapEncodeIm2colWide is not supported on "
                  "sm_90a: it needs a GPU of compute capability 10.0 or "
                  "higher, and sm_90a code runs only on 9.0");
  D.Target = target("sm_100a");
  EXPECT_TRUE(ids(checkIm2colWide(D)).empty());
  D.Target = std::nullopt;
  EXPECT_TRUE(ids(checkIm2colWide(D)).empty());
}

TEST(TmapEncArch, Im2colSharesTheRule) {
  Im2colDescriptor D;
  D.DataType = dtype::U6Align16B;
  D.Swizzle = swizzle::B128Atom64B;
  D.Target = target("sm_90a");
  EXPECT_EQ(ids(checkIm2col(D)).size(), 2u);
  // An unknown data type and swizzle: nothing.
  Im2colDescriptor U;
  U.Target = target("sm_90a");
  EXPECT_TRUE(ids(checkIm2col(U)).empty());
}

} // namespace
