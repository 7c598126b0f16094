//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the target rules as a whole per site:
// rules::checkAsmStatement and rules::checkLibraryTarget on fact records,
// no Clang.
//
//===----------------------------------------------------------------------===//
//
// One test per rule boundary of each entry point, each naming the fact (and
// opcode) the check reports; facts not judged are silent; the order of the
// violations; the wording the check puts before the message.
//
//===----------------------------------------------------------------------===//

#include "rules/TargetSite.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tma::rules;

namespace {

const char *const Gather4 =
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4"
    ".mbarrier::complete_tx::bytes";
const char *const Tile =
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile"
    ".mbarrier::complete_tx::bytes";
const char *const IgnoreOob = "cp.async.bulk.shared::cta.global.ignore_oob"
                              ".mbarrier::complete_tx::bytes";

AsmFacts asmOn(std::vector<std::string> Opcodes, const char *Target,
               unsigned CudaVersion = 13000) {
  AsmFacts F;
  F.Opcodes = std::move(Opcodes);
  F.JudgeTarget = true;
  F.Target = parseGpuTarget(Target);
  F.Toolkit = toolkitOfCudaVersion(CudaVersion);
  return F;
}

} // namespace

TEST(TargetSite, NothingJudgedIsSilent) {
  AsmFacts F;
  F.Opcodes = {Gather4, IgnoreOob};
  EXPECT_TRUE(checkAsmStatement(F).empty());
  EXPECT_TRUE(checkLibraryTarget(LibraryTargetFacts()).empty());
}

TEST(TargetSite, AsmFeatureByTarget) {
  EXPECT_TRUE(checkAsmStatement(asmOn({Gather4}, "sm_100a")).empty());
  auto V = checkAsmStatement(asmOn({Tile, Gather4}, "sm_90a"));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fact, TargetFact::Feature);
  EXPECT_EQ(V[0].Opcode, 1u);
  EXPECT_STREQ(V[0].Violation.RuleId, "TMA-GATHER4");
  // A qualifier: the warning names the instruction first.
  EXPECT_EQ(V[0].Subject, "cp.async.bulk.tensor");
}

TEST(TargetSite, AsmUnknownTargetJudgesOnlyTheToolkit) {
  AsmFacts F = asmOn({Gather4}, "gfx90a");
  ASSERT_FALSE(F.Target);
  EXPECT_TRUE(checkAsmStatement(F).empty());
}

TEST(TargetSite, AsmPtxIsaByToolkit) {
  // .ignore_oob needs PTX ISA 9.2 (CUDA 13.2).
  EXPECT_TRUE(checkAsmStatement(asmOn({IgnoreOob}, "sm_90a", 13020)).empty());
  auto V = checkAsmStatement(asmOn({IgnoreOob}, "sm_90a", 13010));
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fact, TargetFact::PtxIsa);
  EXPECT_STREQ(V[0].Violation.RuleId, "TMA-PTX-ISA");
  EXPECT_EQ(V[0].Subject, "");
}

TEST(TargetSite, AsmOverrideForm) {
  AsmFacts F;
  F.JudgeForms = true;
  F.Opcodes = {"cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".override_attribute.override::global_address"
               ".mbarrier::complete_tx::bytes"};
  EXPECT_TRUE(checkAsmStatement(F).empty());
  F.Opcodes = {"cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".override_attribute.mbarrier::complete_tx::bytes",
               "cp.async.bulk.tensor.3d.shared::cluster.global.im2col"
               ".override_attribute.override::global_address"
               ".mbarrier::complete_tx::bytes"};
  auto V = checkAsmStatement(F);
  ASSERT_EQ(V.size(), 2u);
  for (std::size_t I = 0; I < 2; ++I) {
    EXPECT_EQ(V[I].Fact, TargetFact::OverrideForm);
    EXPECT_EQ(V[I].Opcode, I);
    EXPECT_STREQ(V[I].Violation.RuleId, "TMA-OVERRIDE-ATTR");
    EXPECT_EQ(V[I].Subject, "cp.async.bulk.tensor");
  }
  // Only the copies: another opcode with the word is no copy's form.
  F.Opcodes = {"mbarrier.init.override_attribute"};
  EXPECT_TRUE(checkAsmStatement(F).empty());
}

TEST(TargetSite, AsmTargetRulesBeforeForms) {
  AsmFacts F = asmOn({"cp.async.bulk.tensor.2d.shared::cluster.global"
                      ".tile::gather4.override_attribute"
                      ".mbarrier::complete_tx::bytes"},
                     "sm_90a");
  F.JudgeForms = true;
  auto V = checkAsmStatement(F);
  ASSERT_GE(V.size(), 2u);
  EXPECT_EQ(V.front().Fact, TargetFact::Feature);
  EXPECT_EQ(V.back().Fact, TargetFact::OverrideForm);
}

TEST(TargetSite, LibraryFirstMissingFormOnly) {
  LibraryTargetFacts F;
  F.Features = {DeviceFeature::Gather4Cta, DeviceFeature::CtaGroup};
  F.Target = parseGpuTarget("sm_100a");
  EXPECT_TRUE(checkLibraryTarget(F).empty());
  F.Target = parseGpuTarget("sm_90a");
  F.Stub = LibraryStub{"cuda::ptx::cp_async_bulk_tensor",
                       "__cuda_ptx_cp_async_bulk_tensor_is_not_supported_"
                       "before_SM_100a__"};
  auto V = checkLibraryTarget(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fact, TargetFact::Feature);
  EXPECT_STREQ(V[0].Violation.RuleId, "TMA-GATHER4");
}

TEST(TargetSite, LibraryStubWhenNoFormIsMissing) {
  LibraryTargetFacts F;
  F.Target = parseGpuTarget("sm_90a");
  F.Stub = LibraryStub{"cuda::ptx::st_bulk",
                       "__cuda_ptx_st_bulk_is_not_supported_before_SM_100__"};
  auto V = checkLibraryTarget(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Fact, TargetFact::LibraryStub);
  EXPECT_STREQ(V[0].Violation.RuleId, "TMA-ARCH");
  EXPECT_EQ(V[0].Violation.Message,
            "cuda::ptx::st_bulk is not supported on sm_90a, the target of "
            "this device pass: its header compiles it to a call of "
            "'__cuda_ptx_st_bulk_is_not_supported_before_SM_100__', which no "
            "library defines, and the link fails (the header has it for "
            "sm_100)");
  EXPECT_EQ(V[0].Violation.Suggestion,
            "build this kernel for sm_100, or guard the call with #if for "
            "the targets that have it");
}

TEST(TargetSite, LibraryStubTargetsListed) {
  LibraryTargetFacts F;
  F.Target = parseGpuTarget("sm_80");
  F.Stub = LibraryStub{"cuda::ptx::f", "__cuda_ptx_f_is_not_supported_before_"
                                       "SM_90a_SM_100a_SM_101a__"};
  auto V = checkLibraryTarget(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_NE(V[0].Violation.Message.find(
                "(the header has it for sm_90a, sm_100a, sm_101a)"),
            std::string::npos);
  EXPECT_EQ(V[0].Violation.Suggestion.rfind("build this kernel for sm_90a,", 0),
            0u);
  // A stub whose name lists no target: only the guard to propose.
  F.Stub->Stub = "__cuda_ptx_f_unsupported";
  V = checkLibraryTarget(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].Violation.Suggestion,
            "guard the call with #if for the targets that have it");
}

TEST(TargetSite, InstructionOf) {
  EXPECT_EQ(instructionOf(Gather4), "cp.async.bulk.tensor");
  EXPECT_EQ(instructionOf("mbarrier.try_wait.parity.shared::cta.b64"),
            "mbarrier.try_wait");
  EXPECT_EQ(instructionOf("ld.global.b32"), "ld.global.b32");
}
