//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the encode site's entry point
// (rules/EncodeSite.h): a fact record per driver entry point judged as a
// whole, one test per boundary of the entry point (which encoder's rules,
// whether the unit's target applies to TMAP-ENC-ARCH). The rules
// themselves are tested in TiledRulesTest, Im2colRulesTest,
// TargetRulesTest and TensorMapRulesTest.
//
//===----------------------------------------------------------------------===//

#include "rules/EncodeSite.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

std::vector<std::string> ids(const std::vector<Violation> &Vs) {
  std::vector<std::string> Out;
  for (const Violation &V : Vs)
    Out.push_back(std::string(V.RuleId) + " " + paramName(V.Parameter));
  return Out;
}

KnownArray known(std::vector<std::uint64_t> Elems) {
  KnownArray A;
  for (std::uint64_t E : Elems)
    A.Elems.push_back(E);
  A.Provided = Elems.size();
  return A;
}

GpuTarget sm90a() { return *parseGpuTarget("sm_90a"); }

/// A valid 2-D tiled map with a 128B_ATOM_32B swizzle: right on a GPU of
/// compute capability 10.0, TMAP-ENC-ARCH below it.
EncodeSite atomSwizzleMap(std::optional<GpuTarget> T) {
  EncodeSite S;
  S.Entry = EncodeEntry::Tiled;
  TiledDescriptor &D = S.Desc;
  D.DataType = dtype::Float16;
  D.Rank = 2;
  D.GlobalDim = known({4096, 4096});
  D.GlobalStrides = known({8192});
  D.BoxDim = known({64, 64});
  D.ElementStrides = known({1, 1});
  D.Interleave = interleave::None;
  D.Swizzle = swizzle::B128Atom32B;
  D.L2Promotion = 0;
  D.OobFill = oobfill::None;
  D.Target = T;
  return S;
}

} // namespace

TEST(EncodeSite, ValidMapHasNoViolation) {
  EXPECT_TRUE(checkEncodeSite(atomSwizzleMap(std::nullopt), {}).empty());
}

// The entry point judges the descriptor of its encoder only: the other two
// stay empty and are not read.
TEST(EncodeSite, EachEntryReadsItsOwnDescriptor) {
  EncodeSite S = atomSwizzleMap(std::nullopt);
  S.Desc.BoxDim = known({512, 64});
  EXPECT_EQ(ids(checkEncodeSite(S, {})),
            std::vector<std::string>{"TMAP-TILED-BOX-RANGE boxDim"});
  // The same broken Desc under the im2col entry: its (empty) Im2col
  // descriptor is judged, which knows nothing and says nothing.
  S.Entry = EncodeEntry::Im2col;
  EXPECT_TRUE(checkEncodeSite(S, {}).empty());
  S.Entry = EncodeEntry::Im2colWide;
  EXPECT_TRUE(checkEncodeSite(S, {}).empty());
}

// cuTensorMapReplaceAddress: the new address's alignment against the
// linked map's interleave (16 bytes unlinked, 32 for INTERLEAVE_32B).
TEST(EncodeSite, ReplaceAddressReadsAlignmentAndLinkedMap) {
  EncodeSite S;
  S.Entry = EncodeEntry::ReplaceAddress;
  S.Desc.GlobalAddressAlign = 16;
  EXPECT_TRUE(checkEncodeSite(S, {}).empty());
  S.Desc.Interleave = interleave::B32;
  EXPECT_EQ(ids(checkEncodeSite(S, {})),
            std::vector<std::string>{"TMAP-REPLACE-ADDR-ALIGN globalAddress"});
  S.Desc.GlobalAddressAlign = 32;
  EXPECT_TRUE(checkEncodeSite(S, {}).empty());
}

// TMAP-ENC-ARCH: the unit's target binds a map its own kernels read, and
// no other; the question is asked only when the rule fires.
TEST(EncodeSite, EncArchOnlyForMapsOwnKernelsRead) {
  const std::vector<std::string> Arch = {"TMAP-ENC-ARCH swizzle"};
  unsigned Asked = 0;
  auto Own = [&] {
    ++Asked;
    return true;
  };
  auto Foreign = [&] {
    ++Asked;
    return false;
  };
  EXPECT_EQ(ids(checkEncodeSite(atomSwizzleMap(sm90a()), {}, Own)), Arch);
  EXPECT_EQ(Asked, 1u);
  EXPECT_TRUE(checkEncodeSite(atomSwizzleMap(sm90a()), {}, Foreign).empty());
  EXPECT_EQ(Asked, 2u);
  // No callback: the map is taken as the unit's own.
  EXPECT_EQ(ids(checkEncodeSite(atomSwizzleMap(sm90a()), {})), Arch);
  // No target, or a target that has the swizzle: not asked.
  EXPECT_TRUE(checkEncodeSite(atomSwizzleMap(std::nullopt), {}, Own).empty());
  EXPECT_TRUE(
      checkEncodeSite(atomSwizzleMap(*parseGpuTarget("sm_100a")), {}, Own)
          .empty());
  EXPECT_EQ(Asked, 2u);
}

// The other rules of a foreign map still hold without the target.
TEST(EncodeSite, ForeignMapKeepsItsOtherViolations) {
  EncodeSite S = atomSwizzleMap(sm90a());
  S.Desc.BoxDim = known({512, 64});
  EXPECT_EQ(ids(checkEncodeSite(S, {}, [] { return false; })),
            std::vector<std::string>{"TMAP-TILED-BOX-RANGE boxDim"});
  auto Own = ids(checkEncodeSite(S, {}, [] { return true; }));
  EXPECT_EQ(Own.size(), 2u);
}

// Im2colWide keeps the unit's target in its own descriptor.
TEST(EncodeSite, Im2colWideTargetIsItsOwn) {
  EncodeSite S;
  S.Entry = EncodeEntry::Im2colWide;
  S.Wide.DataType = dtype::Float16;
  S.Wide.Rank = 3;
  S.Wide.Target = sm90a();
  EXPECT_EQ(ids(checkEncodeSite(S, {}, [] { return true; })),
            std::vector<std::string>{"TMAP-ENC-ARCH encoder"});
  EXPECT_TRUE(checkEncodeSite(S, {}, [] { return false; }).empty());
}
