//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the entry-point lookup rules.
//
//===----------------------------------------------------------------------===//
//
// TMAP-ENTRY-NULL and TMAP-ENTRY-UNVERSIONED (tma-rules.md sections 8.1 and
// 11.B): the introduction versions come from cudaTypedefs.h's PFN suffixes.
//
//===----------------------------------------------------------------------===//

#include "rules/EntryPointRules.h"

#include "gtest/gtest.h"

using namespace tma::rules;

namespace {

EntryPointQuery query(EntryLookup L, const char *Symbol, Known Version,
                      Known Toolkit = 13000) {
  EntryPointQuery Q;
  Q.Lookup = L;
  Q.Symbol = Symbol;
  Q.Version = Version;
  Q.Toolkit = Toolkit;
  return Q;
}

TEST(EntryPointRules, IntroductionVersions) {
  EXPECT_EQ(tensorMapSymbolVersion("cuTensorMapEncodeTiled"), Known(12000));
  EXPECT_EQ(tensorMapSymbolVersion("cuTensorMapEncodeIm2col"), Known(12000));
  EXPECT_EQ(tensorMapSymbolVersion("cuTensorMapEncodeIm2colWide"),
            Known(12080));
  EXPECT_EQ(tensorMapSymbolVersion("cuTensorMapReplaceAddress"), Known(12000));
  EXPECT_EQ(tensorMapSymbolVersion("cuMemAlloc"), std::nullopt);
  EXPECT_EQ(tensorMapPfnName("cuTensorMapEncodeIm2colWide"),
            "PFN_cuTensorMapEncodeIm2colWide_v12080");
}

TEST(EntryPointRules, VersionedLookupsAtTheIntroductionAreSilent) {
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::ByVersion,
                                    "cuTensorMapEncodeTiled", 12000))
                  .empty());
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::ProcAddress,
                                    "cuTensorMapEncodeIm2colWide", 12080))
                  .empty());
  // Unknown version, other symbols: silent.
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::ByVersion,
                                    "cuTensorMapEncodeTiled", std::nullopt))
                  .empty());
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::Unversioned, "cuMemAlloc", {}))
                  .empty());
}

TEST(EntryPointRules, VersionBelowIntroductionIsNull) {
  auto Vs = checkEntryPoint(
      query(EntryLookup::ByVersion, "cuTensorMapEncodeTiled", 11080));
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-ENTRY-NULL");
  EXPECT_EQ(Vs[0].Operand, EntryOperand::Version);
  EXPECT_NE(Vs[0].Message.find("11080, below 12000 (CUDA 12.0)"),
            std::string::npos);
  // Im2colWide came with 12.8: 12070 finds nothing, 12080 does.
  Vs = checkEntryPoint(
      query(EntryLookup::ProcAddress, "cuTensorMapEncodeIm2colWide", 12070));
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-ENTRY-NULL");
}

TEST(EntryPointRules, MisspelledSymbolIsNull) {
  auto Vs = checkEntryPoint(
      query(EntryLookup::ByVersion, "cuTensorMapEncodeTile", 12000));
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-ENTRY-NULL");
  EXPECT_EQ(Vs[0].Operand, EntryOperand::Symbol);
  // A newer toolkit may have more tensor-map functions; unknown: silent.
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::ByVersion,
                                    "cuTensorMapEncodeTile", 12000, 13010))
                  .empty());
  EXPECT_TRUE(
      checkEntryPoint(query(EntryLookup::ByVersion, "cuTensorMapEncodeTile",
                            12000, std::nullopt))
          .empty());
}

TEST(EntryPointRules, UnversionedLookupOnCuda13) {
  auto Vs = checkEntryPoint(
      query(EntryLookup::Unversioned, "cuTensorMapEncodeTiled", {}));
  ASSERT_EQ(Vs.size(), 1u);
  EXPECT_STREQ(Vs[0].RuleId, "TMAP-ENTRY-UNVERSIONED");
  EXPECT_NE(Vs[0].Message.find("PFN_cuTensorMapEncodeTiled_v12000"),
            std::string::npos);
  // CUDA 12.x and an unknown toolkit: silent.
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::Unversioned,
                                    "cuTensorMapEncodeTiled", {}, 12080))
                  .empty());
  EXPECT_TRUE(checkEntryPoint(query(EntryLookup::Unversioned,
                                    "cuTensorMapEncodeTiled", {}, std::nullopt))
                  .empty());
}

} // namespace
