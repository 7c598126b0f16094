//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of TMA-PTX-ISA (rules/PtxIsaRules.h): the
// CUDA toolkit to PTX ISA table at each release, the toolkit a pass takes
// from CUDA_VERSION and the driver, every form's PTX ISA version, and each
// form against the toolkit just below, at and above the version that
// introduced it. An unknown or lower-bound toolkit never reports.
//
//===----------------------------------------------------------------------===//

#include "rules/PtxIsaRules.h"

#include "gtest/gtest.h"

#include <string>

using namespace tma::rules;

namespace {

std::optional<Toolkit> macro(unsigned V) { return toolkitOfCudaVersion(V); }

/// The PTX ISA the newest form of \p Opcode needs, 0 for none.
unsigned newestForm(const char *Opcode) {
  unsigned N = 0;
  for (const PtxForm &F : ptxFormsOfOpcode(Opcode))
    N = F.PtxIsa > N ? F.PtxIsa : N;
  return N;
}

TEST(PtxIsaRules, ToolkitTable) {
  // The PTX ISA release history.
  const std::pair<unsigned, unsigned> Rows[] = {
      {11000, 70}, {11080, 78}, {12000, 80}, {12010, 81}, {12020, 82},
      {12030, 83}, {12040, 84}, {12050, 85}, {12060, 85}, {12070, 86},
      {12080, 87}, {12090, 88}, {13000, 90}, {13010, 91}, {13020, 92},
      {13030, 93}, {13040, 94}};
  for (auto [Cuda, Ptx] : Rows)
    EXPECT_EQ(ptxIsaOfToolkit(Cuda), Ptx) << Cuda;
  // A patch level in CUDA_VERSION's last digit does not matter.
  EXPECT_EQ(ptxIsaOfToolkit(12085), 87u);
  // Unknown: before CUDA 11, CUDA 14 on, impossible minors.
  EXPECT_FALSE(ptxIsaOfToolkit(10020));
  EXPECT_FALSE(ptxIsaOfToolkit(14000));
  EXPECT_FALSE(ptxIsaOfToolkit(11090));
  EXPECT_FALSE(ptxIsaOfToolkit(12100));
  EXPECT_FALSE(ptxIsaOfToolkit(0));
}

TEST(PtxIsaRules, FirstToolkitOfPtxIsa) {
  EXPECT_EQ(toolkitOfPtxIsa(78), 11080u);
  EXPECT_EQ(toolkitOfPtxIsa(80), 12000u);
  EXPECT_EQ(toolkitOfPtxIsa(85), 12050u);
  EXPECT_EQ(toolkitOfPtxIsa(86), 12070u);
  EXPECT_EQ(toolkitOfPtxIsa(88), 12090u);
  EXPECT_EQ(toolkitOfPtxIsa(90), 13000u);
  EXPECT_EQ(toolkitOfPtxIsa(92), 13020u);
  EXPECT_EQ(toolkitOfPtxIsa(94), 13040u);
  EXPECT_FALSE(toolkitOfPtxIsa(89));
  EXPECT_FALSE(toolkitOfPtxIsa(79));
  EXPECT_FALSE(toolkitOfPtxIsa(100));
  // Round trip: the first toolkit of each version has it.
  for (unsigned P : {78u, 80u, 83u, 85u, 86u, 87u, 88u, 90u, 91u, 92u, 93u,
                     94u})
    EXPECT_EQ(ptxIsaOfToolkit(*toolkitOfPtxIsa(P)), P) << P;
  EXPECT_EQ(toolkitText(13020), "13.2");
  EXPECT_EQ(ptxIsaText(86), "8.6");
}

TEST(PtxIsaRules, PassToolkit) {
  EXPECT_EQ(macro(13000)->PtxIsa, 90u);
  EXPECT_EQ(macro(13000)->CudaVersion, 13000u);
  EXPECT_FALSE(macro(14000));
  EXPECT_FALSE(macro(0));
  // The driver's +ptxNN: +ptx42 (no installation) is none; clang's newest
  // (88 for clang 22) is a lower bound.
  EXPECT_FALSE(toolkitOfDriver(42, 88));
  EXPECT_FALSE(toolkitOfDriver(85, 88)->AtLeast);
  EXPECT_TRUE(toolkitOfDriver(88, 88)->AtLeast);
  EXPECT_FALSE(toolkitOfDriver(88, 0)->AtLeast);
  const auto Exact = toolkitOfDriver(85, 88);
  const auto Bound = toolkitOfDriver(88, 88);
  EXPECT_FALSE(passToolkit(std::nullopt, std::nullopt));
  // CUDA_VERSION alone, the driver alone.
  EXPECT_EQ(passToolkit(macro(13000), std::nullopt)->PtxIsa, 90u);
  EXPECT_EQ(passToolkit(std::nullopt, Exact)->Source, ToolkitSource::Driver);
  // Both: the newer PTX ISA; CUDA_VERSION on a tie (12.6 and +ptx85).
  EXPECT_EQ(passToolkit(macro(13000), Bound)->Source,
            ToolkitSource::CudaVersionMacro);
  EXPECT_EQ(passToolkit(macro(12060), Exact)->Source,
            ToolkitSource::CudaVersionMacro);
  auto T = passToolkit(macro(12040), Exact);
  EXPECT_EQ(T->Source, ToolkitSource::Driver);
  EXPECT_EQ(T->PtxIsa, 85u);
  EXPECT_TRUE(passToolkit(macro(12040), Bound)->AtLeast);
}

TEST(PtxIsaRules, FormsOfOpcodes) {
  // The 8.0 instructions.
  EXPECT_EQ(newestForm("cp.async.bulk.shared::cluster.global.mbarrier::"
                       "complete_tx::bytes"),
            80u);
  EXPECT_EQ(newestForm("cp.async.bulk.global.shared::cta.bulk_group"), 80u);
  EXPECT_EQ(newestForm("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
                       "complete_tx::bytes"),
            80u);
  EXPECT_EQ(newestForm("cp.async.bulk.prefetch.L2.global"), 80u);
  EXPECT_EQ(newestForm("cp.async.bulk.commit_group"), 80u);
  EXPECT_EQ(newestForm("cp.reduce.async.bulk.tensor.2d.global.shared::cta."
                       "add.tile.bulk_group"),
            80u);
  EXPECT_EQ(newestForm("fence.proxy.async.shared::cta"), 80u);
  EXPECT_EQ(newestForm("fence.mbarrier_init.release.cluster"), 80u);
  EXPECT_EQ(newestForm("prefetch.tensormap"), 80u);
  EXPECT_EQ(newestForm("mbarrier.try_wait.parity.shared::cta.b64"), 78u);
  EXPECT_EQ(newestForm("mbarrier.arrive.expect_tx.shared::cta.b64"), 80u);
  EXPECT_EQ(newestForm("mbarrier.arrive.release.cluster.shared::cluster.b64"),
            80u);
  EXPECT_EQ(newestForm("mbarrier.expect_tx.relaxed.cta.shared::cta.b64"), 86u);
  // 8.3.
  EXPECT_EQ(newestForm("fence.proxy.tensormap::generic.release.gpu"), 83u);
  EXPECT_EQ(newestForm("tensormap.cp_fenceproxy.global.shared::cta."
                       "tensormap::generic.release.gpu.sync.aligned"),
            83u);
  EXPECT_EQ(newestForm("tensormap.replace.tile.global_address.global.b1024."
                       "b64"),
            83u);
  // 8.6: the .shared::cta destination (not a source), the Blackwell forms.
  EXPECT_EQ(newestForm("cp.async.bulk.shared::cta.global.mbarrier::"
                       "complete_tx::bytes"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                       "mbarrier::complete_tx::bytes"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.global.shared::cta.bulk_group.cp_mask"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.2d.shared::cluster.global."
                       "tile::gather4.mbarrier::complete_tx::bytes"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.2d.global.shared::cta."
                       "tile::scatter4.bulk_group"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.3d.shared::cluster.global."
                       "im2col::w::128.mbarrier::complete_tx::bytes"),
            86u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                       "mbarrier::complete_tx::bytes.cta_group::2"),
            86u);
  EXPECT_EQ(newestForm("st.bulk.weak.shared::cta"), 86u);
  EXPECT_EQ(newestForm("mbarrier.try_wait.relaxed.cluster.shared::cta.b64"),
            86u);
  EXPECT_EQ(newestForm("tensormap.replace.tile.swizzle_atomicity.shared::cta."
                       "b1024.b32"),
            86u);
  // 9.x.
  EXPECT_EQ(newestForm("multimem.cp.async.bulk.global.shared::cta."
                       "bulk_group"),
            91u);
  EXPECT_EQ(newestForm("cp.async.bulk.shared::cta.global.mbarrier::"
                       "complete_tx::bytes.ignore_oob"),
            92u);
  EXPECT_EQ(newestForm("mbarrier.init.shared::cta.layout::v1.b64"), 93u);
  EXPECT_EQ(newestForm("mbarrier.check_layout.layout::v0.shared::cta.b64"),
            93u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.1d.shared::cta.global.tile."
                       "mbarrier::complete_tx::bytes.override::global_address"),
            94u);
  EXPECT_EQ(newestForm("cp.async.bulk.tensor.1d.shared::cta.global.tile."
                       "mbarrier::complete_tx::bytes.override_attribute"),
            94u);
  // Not TMA: nothing.
  EXPECT_EQ(newestForm("mbarrier.init.shared::cta.b64"), 0u);
  EXPECT_EQ(newestForm("ld.shared.b32"), 0u);
  EXPECT_EQ(newestForm("cp.async.ca.shared.global"), 0u);
  EXPECT_EQ(newestForm(""), 0u);
}

/// \p Opcode against the toolkit just below, at and above its PTX ISA.
void expectBoundary(const char *Opcode, unsigned Below, unsigned At,
                    unsigned Above) {
  EXPECT_TRUE(checkOpcodePtxIsa(Opcode, macro(Below))) << Opcode << Below;
  EXPECT_FALSE(checkOpcodePtxIsa(Opcode, macro(At))) << Opcode << At;
  EXPECT_FALSE(checkOpcodePtxIsa(Opcode, macro(Above))) << Opcode << Above;
}

TEST(PtxIsaRules, Boundaries) {
  expectBoundary("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes",
                 11080, 12000, 12010);
  expectBoundary("mbarrier.try_wait.parity.shared::cta.b64", 11070, 11080,
                 12000);
  expectBoundary("tensormap.replace.tile.global_address.global.b1024.b64",
                 12020, 12030, 12040);
  // 8.6: CUDA 12.6 still has 8.5.
  expectBoundary("st.bulk.weak.shared::cta", 12060, 12070, 12080);
  expectBoundary("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                 "bytes",
                 12060, 12070, 13000);
  expectBoundary("multimem.cp.async.bulk.global.shared::cta.bulk_group",
                 13000, 13010, 13020);
  expectBoundary("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                 "bytes.ignore_oob",
                 13010, 13020, 13030);
  expectBoundary("mbarrier.init.shared::cta.layout::v1.b64", 13020, 13030,
                 13040);
  expectBoundary("cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
                 "complete_tx::bytes.override::global_address",
                 13030, 13040, 13050);
}

TEST(PtxIsaRules, Message) {
  auto V = checkOpcodePtxIsa("cp.async.bulk.shared::cta.global.mbarrier::"
                             "complete_tx::bytes.ignore_oob",
                             macro(13000));
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-PTX-ISA");
  EXPECT_EQ(V->Message,
            "cp.async.bulk '.ignore_oob' needs PTX ISA 9.2 (CUDA 13.2); this "
            "translation unit uses CUDA 13.0 (PTX ISA 9.0)");
  EXPECT_EQ(V->Suggestion, "build with CUDA 13.2 or newer, or guard the code "
                           "with #if CUDA_VERSION >= 13020");
  EXPECT_EQ(V->Value, 90u);
  EXPECT_EQ(V->Limit, 92u);
  // The newest form of the instruction, once: .shared::cta (8.6) and
  // .ignore_oob (9.2) under CUDA 12.4 name .ignore_oob.
  V = checkOpcodePtxIsa("cp.async.bulk.shared::cta.global.mbarrier::"
                        "complete_tx::bytes.ignore_oob",
                        macro(12040));
  ASSERT_TRUE(V);
  EXPECT_NE(V->Message.find("'.ignore_oob' needs PTX ISA 9.2"),
            std::string::npos);
  V = checkOpcodePtxIsa("st.bulk.weak.shared::cta", macro(12040));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message.substr(0, 25), "'st.bulk' needs PTX ISA 8");
  V = checkOpcodePtxIsa("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                        "mbarrier::complete_tx::bytes",
                        macro(12050));
  ASSERT_TRUE(V);
  EXPECT_NE(V->Message.find("cp.async.bulk.tensor into '.shared::cta' needs "
                            "PTX ISA 8.6 (CUDA 12.7)"),
            std::string::npos)
      << V->Message;
  EXPECT_EQ(toolkitOrigin(*macro(13000)),
            "this translation unit's CUDA_VERSION is 13000 (CUDA 13.0)");
  EXPECT_EQ(toolkitOrigin(*toolkitOfDriver(85, 88)),
            "clang's driver compiles this pass for PTX ISA 8.5 "
            "(-target-feature +ptx85, from the CUDA installation it found); "
            "no CUDA_VERSION says newer");
  V = checkOpcodePtxIsa("st.bulk.weak.shared::cta", toolkitOfDriver(85, 88));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, "'st.bulk' needs PTX ISA 8.6 (CUDA 12.7); this "
                        "translation unit uses PTX ISA 8.5");
}

TEST(PtxIsaRules, UnknownToolkitIsSilent) {
  const char *Oob = "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                    "bytes.ignore_oob";
  EXPECT_FALSE(checkOpcodePtxIsa(Oob, std::nullopt));
  // CUDA 14 and later: not known yet.
  EXPECT_FALSE(checkOpcodePtxIsa(Oob, macro(14000)));
  // Before CUDA 11: no table.
  EXPECT_FALSE(checkOpcodePtxIsa(Oob, macro(10020)));
  // A lower bound (clang's newest known version) proves nothing.
  EXPECT_FALSE(checkOpcodePtxIsa(Oob, toolkitOfDriver(88, 88)));
  EXPECT_TRUE(checkOpcodePtxIsa(Oob, toolkitOfDriver(88, 90)));
  EXPECT_FALSE(checkOpcodePtxIsa(Oob, toolkitOfDriver(42, 88)));
}

} // namespace
