//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the inline-PTX parser (api/PtxParser).
//
//===----------------------------------------------------------------------===//
//
// The asm strings are written for these tests in the shapes real TMA code
// uses (fast.cu helpers, CUTLASS copy_sm90_tma.hpp, ThunderKittens, tilelang
// and DeepGEMM wrappers, CCCL cuda::ptx), with the PTX forms of tma-rules.md
// sections 8.2-8.4.
//
// Layout: helpers; lexical shapes (scopes, labels, predicates, escapes,
// comments, immediates); one suite per instruction family; text that must
// yield nothing.
//
//===----------------------------------------------------------------------===//

#include "api/PtxParser.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace tma::ptx;
using namespace tma::device;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::vector<Instruction> parse(std::string_view Text) {
  return parseAsm(Text, /*Extended=*/true);
}

/// The single instruction recognised in \p Text (a failed expectation, and
/// a default instruction, when there is not exactly one).
Instruction one(std::string_view Text, bool Extended = true) {
  std::vector<Instruction> Is = parseAsm(Text, Extended);
  EXPECT_EQ(Is.size(), 1u) << Text;
  return Is.empty() ? Instruction() : Is.front();
}

::testing::AssertionResult isRef(const std::optional<Value> &V, unsigned N,
                                 std::int64_t Offset = 0) {
  if (!V)
    return ::testing::AssertionFailure() << "no operand";
  if (V->Kind != Value::Ref || V->Index != std::optional<unsigned>(N))
    return ::testing::AssertionFailure() << "not %" << N;
  if (V->Offset != Offset)
    return ::testing::AssertionFailure() << "offset " << V->Offset;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult isImm(const std::optional<Value> &V,
                                 std::uint64_t N) {
  if (!V || V->Kind != Value::Immediate)
    return ::testing::AssertionFailure() << "not an immediate";
  if (V->Imm != N)
    return ::testing::AssertionFailure() << "immediate " << V->Imm;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult isReg(const std::optional<Value> &V,
                                 const std::string &Name) {
  if (!V || V->Kind != Value::Register || V->Name != Name)
    return ::testing::AssertionFailure() << "not register " << Name;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult isSink(const std::optional<Value> &V) {
  if (!V || V->Kind != Value::Sink)
    return ::testing::AssertionFailure() << "not _";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult areRefs(const std::vector<Value> &Vs,
                                   std::vector<unsigned> Ns) {
  if (Vs.size() != Ns.size())
    return ::testing::AssertionFailure() << Vs.size() << " elements";
  for (std::size_t I = 0; I < Vs.size(); ++I)
    if (!isRef(Vs[I], Ns[I]))
      return ::testing::AssertionFailure() << "element " << I;
  return ::testing::AssertionSuccess();
}

//===----------------------------------------------------------------------===//
// Lexical shapes
//===----------------------------------------------------------------------===//

TEST(PtxLexical, OpcodeNameAndQualifiers) {
  Instruction I = one("cp.async.bulk.tensor.3d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], "
                      "[%2];");
  EXPECT_EQ(I.Name, "cp.async.bulk.tensor");
  EXPECT_EQ(I.Qualifiers,
            (std::vector<std::string>{"3d", "shared::cluster", "global", "tile",
                                      "mbarrier::complete_tx::bytes"}));
  EXPECT_TRUE(I.hasQualifier("shared::cluster"));
  EXPECT_TRUE(I.hasQualifier("mbarrier::complete_tx::bytes"));
  EXPECT_FALSE(I.hasQualifier("shared::cta"));
  EXPECT_FALSE(I.hasQualifier("cp"));
  EXPECT_EQ(I.Pos, 0u);
}

TEST(PtxLexical, ScopesRegDeclarationsLabelsAndBranches) {
  // fast.cu's wait(): a scope, a predicate register, a loop of labels.
  std::vector<Instruction> Is =
      parse("{\n"
            ".reg .pred                P1;\n"
            "LAB_WAIT:\n"
            "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
            "@P1                       bra.uni DONE;\n"
            "bra.uni                   LAB_WAIT;\n"
            "DONE:\n"
            "}\n");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].Kind, OpKind::Wait);
  EXPECT_TRUE(isReg(Is[0].Result, "P1"));
  EXPECT_EQ(Is[0].Pos, 42u);
}

TEST(PtxLexical, UniqueLabelsOfExtendedAsm) {
  std::vector<Instruction> Is =
      parse("{\n.reg .pred P1;\nWAIT_BAR_%=:\n"
            "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
            "@P1 bra.uni DONE_BAR_%=;\nbra.uni WAIT_BAR_%=;\nDONE_BAR_%=:\n}");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].Kind, OpKind::Wait);
}

TEST(PtxLexical, SeveralInstructionsInTextOrder) {
  // tilelang's tma_store_cluster issues these back to back.
  std::vector<Instruction> Is =
      parse("mbarrier.arrive.expect_tx.shared::cluster.b64 _, [%0], %1;\n"
            "fence.proxy.async.shared::cta;\n"
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_"
            "tx::bytes [%2], [%3], %1, [%0];\n");
  ASSERT_EQ(Is.size(), 3u);
  EXPECT_EQ(Is[0].Kind, OpKind::ExpectTx);
  EXPECT_EQ(Is[1].Kind, OpKind::Fence);
  EXPECT_EQ(Is[2].Kind, OpKind::BulkCopy);
  EXPECT_LT(Is[0].Pos, Is[1].Pos);
  EXPECT_LT(Is[1].Pos, Is[2].Pos);
}

TEST(PtxLexical, Predicates) {
  Instruction I = one("@p mbarrier.arrive.shared::cta.b64 _, [%0];");
  ASSERT_TRUE(I.Predicate);
  EXPECT_EQ(I.Predicate->Name, "p");
  EXPECT_FALSE(I.Predicate->Negated);
  I = one("@!P2 mbarrier.test_wait.parity.shared::cta.b64 P1, [%1], %2;");
  ASSERT_TRUE(I.Predicate);
  EXPECT_EQ(I.Predicate->Name, "P2");
  EXPECT_TRUE(I.Predicate->Negated);
  EXPECT_FALSE(one("fence.proxy.async;").Predicate);
}

TEST(PtxLexical, NamedOperands) {
  Instruction I =
      one("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%[bar]], %[bytes];");
  ASSERT_TRUE(I.Barrier && I.TxCount);
  EXPECT_EQ(I.Barrier->Kind, Value::Ref);
  EXPECT_FALSE(I.Barrier->Index);
  EXPECT_EQ(I.Barrier->Name, "bar");
  EXPECT_EQ(I.TxCount->Name, "bytes");
}

TEST(PtxLexical, PercentEscapesOfExtendedAsm) {
  // In extended asm `%%rd1` is the register %rd1, `%1` an operand.
  std::vector<Instruction> Is =
      parse("{ .reg .b64 %%rd1;\n"
            "mbarrier.arrive.shared::cta.b64 %%rd1, [%1];\n"
            "mov.b64 %0, %%rd1; }");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_TRUE(isReg(Is[0].Result, "%rd1"));
  EXPECT_TRUE(isRef(Is[0].Barrier, 1));
}

TEST(PtxLexical, BasicAsmHasNoOperandReferences) {
  // Without operand lists `%` is an ordinary character: %r2 and even %0 are
  // register names of the text.
  Instruction I =
      one("mbarrier.arrive.shared::cta.b64 %rd1, [%r2];", /*Extended=*/false);
  EXPECT_TRUE(isReg(I.Result, "%rd1"));
  EXPECT_TRUE(isReg(I.Barrier, "%r2"));
  I = one("mbarrier.init.shared::cta.b64 [%0], 1;", /*Extended=*/false);
  EXPECT_TRUE(isReg(I.Barrier, "%0"));
  EXPECT_TRUE(isImm(I.Count, 1));
}

TEST(PtxLexical, Comments) {
  std::vector<Instruction> Is =
      parse("// init; then fence\n"
            "mbarrier.init.shared::cta.b64 [%0], %1; /* not; here */\n"
            "fence.proxy.async.shared::cta; // done;");
  ASSERT_EQ(Is.size(), 2u);
  EXPECT_EQ(Is[0].Kind, OpKind::BarrierInit);
  EXPECT_EQ(Is[1].Kind, OpKind::Fence);
}

TEST(PtxLexical, Immediates) {
  Instruction I = one("cp.async.bulk.shared::cluster.global.mbarrier::"
                      "complete_tx::bytes [%0], [%1], 0x400, [%2];");
  EXPECT_TRUE(isImm(I.Size, 1024));
  I = one("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 48U;");
  EXPECT_TRUE(isImm(I.Size, 48));
  I = one("mbarrier.init.shared::cta.b64 [%0], 0b101;");
  EXPECT_TRUE(isImm(I.Count, 5));
  I = one("mbarrier.init.shared::cta.b64 [%0], 017;");
  EXPECT_TRUE(isImm(I.Count, 15));
  // A negative coordinate keeps its bit pattern.
  I = one("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
          "complete_tx::bytes [%0], [%1, {-1, 0}], [%2];");
  ASSERT_EQ(I.Coords.size(), 2u);
  EXPECT_TRUE(isImm(I.Coords[0], ~std::uint64_t(0)));
  EXPECT_TRUE(isImm(I.Coords[1], 0));
}

TEST(PtxLexical, MemoryOperandOffsets) {
  Instruction I = one("cp.async.bulk.shared::cluster.global.mbarrier::"
                      "complete_tx::bytes [%0+16], [%1], %2, [%3 - 8];");
  EXPECT_TRUE(isRef(I.Dst, 0, 16));
  EXPECT_TRUE(isRef(I.Src, 1));
  EXPECT_TRUE(isRef(I.Barrier, 3, -8));
}

TEST(PtxLexical, AnErrorSpoilsOnlyItsStatement) {
  std::vector<Instruction> Is =
      parse("mov.f32 %%f1, 0f3F800000;\n"
            "mbarrier.init.shared::cta.b64 [%0], %c1;\n"
            "fence.proxy.async;");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].Fence, FenceKind::ProxyAsync);
}

//===----------------------------------------------------------------------===//
// Tensor copies (cp.async.bulk.tensor, .prefetch.tensor, cp.reduce...tensor)
//===----------------------------------------------------------------------===//

TEST(PtxTensorCopy, FastCuLoad) {
  Instruction I = one("cp.async.bulk.tensor.3d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%3, %4, %5}], [%2];");
  EXPECT_EQ(I.Kind, OpKind::TensorCopy);
  EXPECT_EQ(I.TensorDir, TensorDirection::Load);
  EXPECT_EQ(I.Dims, 3u);
  EXPECT_EQ(I.Mode, TensorMode::Tile);
  EXPECT_EQ(I.DstSpace, Space::SharedCluster);
  EXPECT_EQ(I.SrcSpace, Space::Global);
  EXPECT_TRUE(isRef(I.Dst, 0));
  EXPECT_TRUE(isRef(I.TensorMap, 1));
  EXPECT_TRUE(isRef(I.Barrier, 2));
  EXPECT_TRUE(areRefs(I.Coords, {3, 4, 5}));
  EXPECT_FALSE(I.Multicast);
  EXPECT_FALSE(I.CtaMask);
  EXPECT_FALSE(I.CachePolicy);
  EXPECT_FALSE(I.CtaGroup);
  EXPECT_TRUE(I.Im2colInfo.empty());
}

TEST(PtxTensorCopy, FastCuMulticast) {
  Instruction I = one("cp.async.bulk.tensor.3d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes.multicast::cluster"
                      " [%0], [%1, {%3, %4, %5}], [%2], %6;");
  EXPECT_TRUE(I.Multicast);
  EXPECT_TRUE(isRef(I.CtaMask, 6));
}

TEST(PtxTensorCopy, ImmediateCoordinates) {
  // fast.cu pads a 3-D tile to a 5-D map with literal zeros.
  Instruction I = one("cp.async.bulk.tensor.5d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%3, %4, %5, 0, 0}], [%2];");
  EXPECT_EQ(I.Dims, 5u);
  ASSERT_EQ(I.Coords.size(), 5u);
  EXPECT_TRUE(isRef(I.Coords[2], 5));
  EXPECT_TRUE(isImm(I.Coords[3], 0));
  EXPECT_TRUE(isImm(I.Coords[4], 0));
}

TEST(PtxTensorCopy, CoordinateCountIsRecordedNotJudged) {
  // TMA-COORD-COUNT is a rule on the model, not a parse error.
  Instruction I = one("cp.async.bulk.tensor.3d.shared::cluster.global."
                      "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], "
                      "[%2];");
  EXPECT_EQ(I.Dims, 3u);
  EXPECT_EQ(I.Coords.size(), 2u);
}

TEST(PtxTensorCopy, CutlassSm120SharedCtaWithCacheHint) {
  Instruction I = one("cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::"
                      "complete_tx::bytes.L2::cache_hint"
                      " [%0], [%1, {%3}], [%2], %4;");
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  EXPECT_EQ(I.Dims, 1u);
  EXPECT_TRUE(areRefs(I.Coords, {3}));
  EXPECT_TRUE(isRef(I.CachePolicy, 4));
  EXPECT_FALSE(I.CtaMask);
}

TEST(PtxTensorCopy, CutlassMulticastWithCacheHint) {
  // The mask comes before the cache policy, whatever the operand numbers.
  Instruction I = one("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier"
                      "::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                      " [%0], [%1, {%4, %5}], [%2], %3, %6;");
  EXPECT_TRUE(isRef(I.CtaMask, 3));
  EXPECT_TRUE(isRef(I.CachePolicy, 6));
  EXPECT_TRUE(areRefs(I.Coords, {4, 5}));
}

TEST(PtxTensorCopy, CutlassIm2col) {
  Instruction I = one("cp.async.bulk.tensor.4d.shared::cluster.global.im2col."
                      "mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%3, %4, %5, %6}], [%2], {%7, %8};");
  EXPECT_EQ(I.Mode, TensorMode::Im2col);
  EXPECT_TRUE(areRefs(I.Coords, {3, 4, 5, 6}));
  EXPECT_TRUE(areRefs(I.Im2colInfo, {7, 8}));
}

TEST(PtxTensorCopy, CutlassIm2colMulticast) {
  Instruction I = one("cp.async.bulk.tensor.3d.shared::cluster.global.im2col."
                      "mbarrier::complete_tx::bytes.multicast::cluster"
                      " [%0], [%1, {%3, %4, %5}], [%2], {%6}, %7;");
  EXPECT_TRUE(areRefs(I.Im2colInfo, {6}));
  EXPECT_TRUE(isRef(I.CtaMask, 7));
}

TEST(PtxTensorCopy, QualifierOrderDoesNotMatter) {
  // PTX-manual order vs CUTLASS order of the same instruction.
  Instruction Manual =
      one("cp.async.bulk.tensor.3d.im2col.shared::cluster.global.mbarrier::"
          "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2], {%6};");
  Instruction Cutlass =
      one("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::"
          "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2], {%6};");
  for (const Instruction *I : {&Manual, &Cutlass}) {
    EXPECT_EQ(I->TensorDir, TensorDirection::Load);
    EXPECT_EQ(I->Mode, TensorMode::Im2col);
    EXPECT_EQ(I->DstSpace, Space::SharedCluster);
    EXPECT_EQ(I->SrcSpace, Space::Global);
    EXPECT_TRUE(areRefs(I->Im2colInfo, {6}));
  }
}

TEST(PtxTensorCopy, CtaGroupPair) {
  Instruction I = one("cp.async.bulk.tensor.4d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes.cta_group::2.multicast::"
                      "cluster.L2::cache_hint"
                      " [%0], [%1, {%4, %5, %6, %7}], [%2], %3, %8;");
  EXPECT_EQ(I.CtaGroup, std::optional<unsigned>(2));
  EXPECT_TRUE(isRef(I.CtaMask, 3));
  EXPECT_TRUE(isRef(I.CachePolicy, 8));
}

TEST(PtxTensorCopy, Gather4) {
  Instruction I = one("cp.async.bulk.tensor.2d.shared::cta.global.tile::"
                      "gather4.mbarrier::complete_tx::bytes"
                      " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];");
  EXPECT_EQ(I.Mode, TensorMode::TileGather4);
  EXPECT_EQ(I.Coords.size(), 5u);
}

TEST(PtxTensorCopy, FastCuStore) {
  Instruction I = one("cp.async.bulk.tensor.3d.global.shared::cta.tile."
                      "bulk_group [%0, {%2, %3, %4}], [%1];");
  EXPECT_EQ(I.TensorDir, TensorDirection::Store);
  EXPECT_EQ(I.DstSpace, Space::Global);
  EXPECT_EQ(I.SrcSpace, Space::SharedCta);
  EXPECT_TRUE(isRef(I.TensorMap, 0));
  EXPECT_TRUE(isRef(I.Src, 1));
  EXPECT_TRUE(areRefs(I.Coords, {2, 3, 4}));
  EXPECT_FALSE(I.Dst);
  EXPECT_FALSE(I.Barrier);
}

TEST(PtxTensorCopy, StoreModesAndCacheHint) {
  Instruction I = one("cp.async.bulk.tensor.5d.global.shared::cta.tile."
                      "bulk_group.L2::cache_hint"
                      " [%0, {%2, %3, %4, %5, %6}], [%1], %7;");
  EXPECT_TRUE(isRef(I.CachePolicy, 7));
  // tilelang separates the last qualifier by a space; ptxas accepts it.
  I = one("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group "
          ".L2::cache_hint [%0, {%2}], [%1], %3;");
  EXPECT_EQ(I.Opcode,
            "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.L2::"
            "cache_hint");
  EXPECT_TRUE(isRef(I.CachePolicy, 3));
  I = one("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs."
          "bulk_group [%0, {%2, %3, %4}], [%1];");
  EXPECT_EQ(I.Mode, TensorMode::Im2colNoOffs);
  EXPECT_EQ(I.TensorDir, TensorDirection::Store);
}

TEST(PtxTensorCopy, Reduce) {
  Instruction I = one("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add."
                      "bulk_group [%0, {%2, %3}], [%1];");
  EXPECT_EQ(I.Kind, OpKind::TensorCopy);
  EXPECT_EQ(I.TensorDir, TensorDirection::Reduce);
  EXPECT_EQ(I.Reduce, ReduceOp::Add);
  EXPECT_EQ(I.Dims, 2u);
  EXPECT_TRUE(isRef(I.TensorMap, 0));
  EXPECT_TRUE(isRef(I.Src, 1));
  I = one("cp.reduce.async.bulk.tensor.4d.global.shared::cta.min.tile."
          "bulk_group.L2::cache_hint [%0, {%2, %3, %4, %5}], [%1], %6;");
  EXPECT_EQ(I.Reduce, ReduceOp::Min);
  EXPECT_TRUE(isRef(I.CachePolicy, 6));
}

TEST(PtxTensorCopy, Prefetch) {
  Instruction I = one("cp.async.bulk.prefetch.tensor.5d.L2.global.tile"
                      " [%0, {%1, %2, %3, %4, %5}];");
  EXPECT_EQ(I.Kind, OpKind::TensorCopy);
  EXPECT_EQ(I.TensorDir, TensorDirection::Prefetch);
  EXPECT_EQ(I.Dims, 5u);
  EXPECT_TRUE(isRef(I.TensorMap, 0));
  EXPECT_TRUE(areRefs(I.Coords, {1, 2, 3, 4, 5}));
  I = one("cp.async.bulk.prefetch.tensor.4d.L2.global.tile.L2::cache_hint"
          " [%0, {%1, %2, %3, %4}], %5;");
  EXPECT_TRUE(isRef(I.CachePolicy, 5));
  I = one("cp.async.bulk.prefetch.tensor.3d.L2.global.im2col"
          " [%0, {%1, %2, %3}], {%4};");
  EXPECT_EQ(I.Mode, TensorMode::Im2col);
  EXPECT_TRUE(areRefs(I.Im2colInfo, {4}));
}

//===----------------------------------------------------------------------===//
// 1-D bulk copies
//===----------------------------------------------------------------------===//

TEST(PtxBulkCopy, GlobalToSharedCluster) {
  Instruction I = one("cp.async.bulk.shared::cluster.global.mbarrier::"
                      "complete_tx::bytes [%0], [%1], %2, [%3];\n");
  EXPECT_EQ(I.Kind, OpKind::BulkCopy);
  EXPECT_EQ(I.BulkDir, BulkDirection::GlobalToShared);
  EXPECT_EQ(I.DstSpace, Space::SharedCluster);
  EXPECT_TRUE(isRef(I.Dst, 0));
  EXPECT_TRUE(isRef(I.Src, 1));
  EXPECT_TRUE(isRef(I.Size, 2));
  EXPECT_TRUE(isRef(I.Barrier, 3));
  EXPECT_EQ(I.Reduce, ReduceOp::None);
}

TEST(PtxBulkCopy, TilelangSharedCtaSplitAcrossLiterals) {
  // Two C string literals, concatenated before the parser sees them.
  Instruction I = one("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                      "bytes [%0], [%1], %2, [%3]; \n");
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  EXPECT_EQ(I.BulkDir, BulkDirection::GlobalToShared);
}

TEST(PtxBulkCopy, MulticastAndCacheHint) {
  Instruction I = one("cp.async.bulk.shared::cluster.global.mbarrier::"
                      "complete_tx::bytes.multicast::cluster"
                      " [%0], [%1], %2, [%3], %4; \n");
  EXPECT_TRUE(I.Multicast);
  EXPECT_TRUE(isRef(I.CtaMask, 4));
  I = one("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes."
          "multicast::cluster.L2::cache_hint [%0], [%1], %2, [%3], %4, %5;");
  EXPECT_TRUE(isRef(I.CtaMask, 4));
  EXPECT_TRUE(isRef(I.CachePolicy, 5));
}

TEST(PtxBulkCopy, SharedToCluster) {
  Instruction I = one("cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
                      "complete_tx::bytes [%0], [%1], %2, [%3];");
  EXPECT_EQ(I.BulkDir, BulkDirection::SharedToCluster);
  EXPECT_TRUE(isRef(I.Barrier, 3));
}

TEST(PtxBulkCopy, SharedToGlobal) {
  Instruction I =
      one("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n");
  EXPECT_EQ(I.BulkDir, BulkDirection::SharedToGlobal);
  EXPECT_FALSE(I.Barrier);
  I = one("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask"
          " [%0], [%1], %2, %3, %4;");
  EXPECT_TRUE(isRef(I.CachePolicy, 3));
  EXPECT_TRUE(isRef(I.ByteMask, 4));
  // Basic asm inside a scope (ThunderKittens).
  I = one("{cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;}");
  EXPECT_TRUE(isRef(I.Size, 2));
}

TEST(PtxBulkCopy, Reduce) {
  Instruction I = one("cp.reduce.async.bulk.global.shared::cta.bulk_group."
                      "add.f32 [%0], [%1], %2;");
  EXPECT_EQ(I.Kind, OpKind::BulkCopy);
  EXPECT_EQ(I.BulkDir, BulkDirection::SharedToGlobal);
  EXPECT_EQ(I.Reduce, ReduceOp::Add);
  EXPECT_EQ(I.ElemType, "f32");
  I = one("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::"
          "complete_tx::bytes.inc.u32 [%0], [%1], %2, [%3];");
  EXPECT_EQ(I.BulkDir, BulkDirection::SharedToCluster);
  EXPECT_EQ(I.Reduce, ReduceOp::Inc);
  EXPECT_TRUE(isRef(I.Barrier, 3));
  I = one("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16"
          " [%0], [%1], %2;");
  EXPECT_EQ(I.ElemType, "bf16");
}

TEST(PtxBulkCopy, Prefetch) {
  Instruction I = one("cp.async.bulk.prefetch.L2.global [%0], %1;\n");
  EXPECT_EQ(I.BulkDir, BulkDirection::GlobalToL2);
  EXPECT_TRUE(isRef(I.Src, 0));
  EXPECT_TRUE(isRef(I.Size, 1));
  EXPECT_FALSE(I.Dst);
}

//===----------------------------------------------------------------------===//
// mbarrier
//===----------------------------------------------------------------------===//

TEST(PtxMbarrier, Init) {
  Instruction I = one("mbarrier.init.shared::cta.b64 [%0], %1;\n");
  EXPECT_EQ(I.Kind, OpKind::BarrierInit);
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  EXPECT_TRUE(isRef(I.Barrier, 0));
  EXPECT_TRUE(isRef(I.Count, 1));
  // tilelang numbers the operands the other way round.
  I = one("mbarrier.init.shared::cta.b64 [%1], %0;");
  EXPECT_TRUE(isRef(I.Barrier, 1));
  EXPECT_TRUE(isRef(I.Count, 0));
  I = one("mbarrier.init.shared.b64 [%0], %1;");
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  I = one("mbarrier.init.b64 [%0], 128;");
  EXPECT_EQ(I.DstSpace, Space::Generic);
  EXPECT_TRUE(isImm(I.Count, 128));
}

TEST(PtxMbarrier, ArriveExpectTx) {
  // fast.cu's expect_bytes().
  Instruction I =
      one("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n");
  EXPECT_EQ(I.Kind, OpKind::ExpectTx);
  EXPECT_TRUE(I.WithArrive);
  EXPECT_TRUE(isSink(I.Result));
  EXPECT_TRUE(isRef(I.Barrier, 0));
  EXPECT_TRUE(isRef(I.TxCount, 1));
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  I = one("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], "
          "%1;");
  EXPECT_EQ(I.Scope, Scope::Cta);
  I = one("mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster.b64 _, "
          "[%0], 4096;");
  EXPECT_EQ(I.DstSpace, Space::SharedCluster);
  EXPECT_EQ(I.Scope, Scope::Cluster);
  EXPECT_TRUE(isImm(I.TxCount, 4096));
}

TEST(PtxMbarrier, ExpectTx) {
  Instruction I = one("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], "
                      "%1;");
  EXPECT_EQ(I.Kind, OpKind::ExpectTx);
  EXPECT_FALSE(I.WithArrive);
  EXPECT_TRUE(isRef(I.Barrier, 0));
  EXPECT_TRUE(isRef(I.TxCount, 1));
  EXPECT_FALSE(I.Result);
  // tilelang's spelling without .sem.scope.
  I = one("mbarrier.expect_tx.shared::cta.b64 [%1], %0;");
  EXPECT_TRUE(isRef(I.Barrier, 1));
}

TEST(PtxMbarrier, Arrive) {
  Instruction I =
      one("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0], %1;\n");
  EXPECT_EQ(I.Kind, OpKind::Arrive);
  EXPECT_TRUE(isRef(I.Count, 1));
  I = one("mbarrier.arrive.shared::cta.b64 _, [%0];");
  EXPECT_FALSE(I.Count);
  I = one("mbarrier.arrive.shared::cta.b64 %1, [%0];\n");
  EXPECT_TRUE(isRef(I.Result, 1));
  // fast.cu's arrive_cluster(): the barrier is a register of the asm text.
  std::vector<Instruction> Is =
      parse("{\n\t.reg .b32 remAddr32;\n\t"
            "mapa.shared::cluster.u32  remAddr32, %0, %1;\n\t"
            "mbarrier.arrive.shared::cluster.b64  _, [remAddr32], %2;\n\t}");
  ASSERT_EQ(Is.size(), 1u);
  EXPECT_EQ(Is[0].DstSpace, Space::SharedCluster);
  EXPECT_TRUE(isReg(Is[0].Barrier, "remAddr32"));
  EXPECT_TRUE(isRef(Is[0].Count, 2));
}

TEST(PtxMbarrier, Waits) {
  Instruction I = one("mbarrier.try_wait.parity.acquire.cluster.shared::cta."
                      "b64 P1, [%0], %1;\n");
  EXPECT_EQ(I.Kind, OpKind::Wait);
  EXPECT_TRUE(I.Parity);
  EXPECT_TRUE(I.TryWait);
  EXPECT_EQ(I.Scope, Scope::Cluster);
  EXPECT_TRUE(isRef(I.Barrier, 0));
  EXPECT_TRUE(isRef(I.Phase, 1));
  EXPECT_FALSE(I.SuspendHint);
  I = one("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1,"
          " %2;");
  EXPECT_TRUE(isRef(I.SuspendHint, 2));
  I = one("mbarrier.test_wait.parity.shared::cta.b64 P1, [%1], %2;\n");
  EXPECT_FALSE(I.TryWait);
  I = one("mbarrier.try_wait.shared::cta.b64 P1, [%0], %1;\n");
  EXPECT_FALSE(I.Parity);
}

//===----------------------------------------------------------------------===//
// Fences
//===----------------------------------------------------------------------===//

TEST(PtxFence, ProxyAsync) {
  Instruction I = one("fence.proxy.async.shared::cta;", /*Extended=*/false);
  EXPECT_EQ(I.Kind, OpKind::Fence);
  EXPECT_EQ(I.Fence, FenceKind::ProxyAsync);
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  I = one("fence.proxy.async;", /*Extended=*/false);
  EXPECT_EQ(I.DstSpace, Space::Generic);
  I = one("fence.proxy.async.global;");
  EXPECT_EQ(I.DstSpace, Space::Global);
}

TEST(PtxFence, Tensormap) {
  Instruction I = one("fence.proxy.tensormap::generic.release.gpu;");
  EXPECT_EQ(I.Fence, FenceKind::TensormapRelease);
  EXPECT_EQ(I.Scope, Scope::Gpu);
  I = one("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;");
  EXPECT_EQ(I.Fence, FenceKind::TensormapAcquire);
  EXPECT_TRUE(isRef(I.Address, 0));
  EXPECT_TRUE(isImm(I.AddressSize, 128));
}

TEST(PtxFence, MbarrierInit) {
  Instruction I = one("fence.mbarrier_init.release.cluster;");
  EXPECT_EQ(I.Fence, FenceKind::MbarrierInit);
}

//===----------------------------------------------------------------------===//
// Text that yields nothing
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// PTX ISA 9.2-9.4 forms (tma-rules.md 11.B)
//===----------------------------------------------------------------------===//

TEST(PtxNewForms, IgnoreOob) {
  // The PTX ISA 9.2 example, with operands.
  Instruction I = one("cp.async.bulk.shared::cta.global.mbarrier::complete_tx"
                      "::bytes.ignore_oob [%0], [%1], %2, %3, %4, [%5];");
  EXPECT_EQ(I.Kind, OpKind::BulkCopy);
  EXPECT_EQ(I.BulkDir, BulkDirection::GlobalToShared);
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  EXPECT_TRUE(isRef(I.Size, 2));
  EXPECT_TRUE(isRef(I.IgnoreLeft, 3));
  EXPECT_TRUE(isRef(I.IgnoreRight, 4));
  EXPECT_TRUE(isRef(I.Barrier, 5));
  I = one("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes."
          "L2::cache_hint.ignore_oob [%0], [%1], 64, 0, 15, [%2], %3;");
  EXPECT_TRUE(isImm(I.IgnoreRight, 15));
  EXPECT_TRUE(isRef(I.CachePolicy, 3));
  // Only global -> shared::cta, and never without the counts.
  for (const char *Text :
       {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes."
        "ignore_oob [%0], [%1], %2, %3, %4, [%5];",
        "cp.async.bulk.global.shared::cta.bulk_group.ignore_oob [%0], [%1], "
        "%2, %3, %4;",
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes."
        "ignore_oob [%0], [%1], %2, %3, [%5];"})
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxNewForms, BulkSemanticsScopeAndType) {
  Instruction I = one("cp.async.bulk.relaxed.cluster.shared::cta.global."
                      "mbarrier::complete_tx::bytes.b128 [%0], [%1], %2, [%3];");
  EXPECT_EQ(I.Kind, OpKind::BulkCopy);
  EXPECT_TRUE(isRef(I.Barrier, 3));
  I = one("cp.async.bulk.weak.global.shared::cta.bulk_group [%0], [%1], %2;");
  EXPECT_EQ(I.BulkDir, BulkDirection::SharedToGlobal);
  for (const char *Text :
       {// .relaxed needs a scope and .b128; .weak takes neither.
        "cp.async.bulk.relaxed.shared::cta.global.mbarrier::complete_tx::"
        "bytes.b128 [%0], [%1], %2, [%3];",
        "cp.async.bulk.relaxed.gpu.shared::cta.global.mbarrier::complete_tx"
        "::bytes [%0], [%1], %2, [%3];",
        "cp.async.bulk.weak.gpu.global.shared::cta.bulk_group [%0], [%1], "
        "%2;",
        // shared::cta -> shared::cluster: scope .cta or .cluster only.
        "cp.async.bulk.relaxed.gpu.shared::cluster.shared::cta.mbarrier::"
        "complete_tx::bytes.b128 [%0], [%1], %2, [%3];",
        "cp.async.bulk.acquire.cta.shared::cta.global.mbarrier::complete_tx"
        "::bytes.b128 [%0], [%1], %2, [%3];"})
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxNewForms, InitLayout) {
  Instruction I = one("mbarrier.init.layout::v1.shared::cta.b64 [%0], %1;");
  EXPECT_EQ(I.Kind, OpKind::BarrierInit);
  EXPECT_EQ(I.Layout, std::optional<unsigned>(1));
  EXPECT_TRUE(isRef(I.Count, 1));
  I = one("mbarrier.init.layout::v0.shared::cta.b64 [%0], 512;");
  EXPECT_EQ(I.Layout, std::optional<unsigned>(0));
  I = one("mbarrier.init.shared::cta.b64 [%0], %1;");
  EXPECT_FALSE(I.Layout);
  EXPECT_TRUE(
      parse("mbarrier.init.layout::v0.layout::v1.b64 [%0], 1;").empty());
  EXPECT_TRUE(parse("mbarrier.init.layout::v2.shared.b64 [%0], 1;").empty());
}

TEST(PtxNewForms, StBulk) {
  // CCCL's cuda::ptx::st_bulk and DeepEP's helper.
  Instruction I = one("st.bulk.weak.shared::cta [%0], %1, %2;");
  EXPECT_EQ(I.Kind, OpKind::StBulk);
  EXPECT_EQ(I.DstSpace, Space::SharedCta);
  EXPECT_TRUE(isRef(I.Dst, 0));
  EXPECT_TRUE(isRef(I.Size, 1));
  EXPECT_TRUE(isRef(I.InitValue, 2));
  I = one("st.bulk [%0], 4096, 0;");
  EXPECT_EQ(I.DstSpace, Space::Generic);
  EXPECT_TRUE(isImm(I.Size, 4096));
  EXPECT_TRUE(isImm(I.InitValue, 0));
  for (const char *Text : {"st.bulk.weak.global [%0], %1, 0;",
                           "st.bulk.relaxed.shared::cta [%0], %1, 0;",
                           "st.bulk.weak.shared::cta [%0], %1;"})
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxNewForms, OverrideGlobalAddress) {
  // CCCL's PTX ISA 9.4 cp_async_bulk_tensor_override form.
  Instruction I = one(
      "cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx"
      "::bytes.cta_group::1.mbarrier::report::disabled.override::global_"
      "address [%0], [%1, %2, {%3}], [%4];");
  EXPECT_EQ(I.Kind, OpKind::TensorCopy);
  EXPECT_TRUE(isRef(I.TensorMap, 1));
  EXPECT_TRUE(isRef(I.GlobalAddress, 2));
  ASSERT_EQ(I.Coords.size(), 1u);
  EXPECT_TRUE(isRef(I.Barrier, 4));
  EXPECT_TRUE(I.Report);
  EXPECT_EQ(I.CtaGroup, std::optional<unsigned>(1));
  // A store with the address override only.
  I = one("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group."
          "override::global_address [%0, %1, {%2}], [%3];");
  EXPECT_EQ(I.TensorDir, TensorDirection::Store);
  EXPECT_TRUE(isRef(I.GlobalAddress, 1));
  for (const char *Text :
       {// The address operand without the qualifier, and the reverse.
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, %1, "
        "{%2}], [%3];",
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group.override"
        "::global_address [%0, {%2}], [%3];",
        // .override_attribute and its operands are not modelled.
        "cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::"
        "complete_tx::bytes.override::global_address.override_attribute "
        "[%0], [%1, %2, {%3}, {%4}], [%5];"})
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxNewForms, ReduceNoFtzAndScatter4) {
  Instruction I = one("cp.reduce.async.bulk.global.shared::cta.bulk_group."
                      "add.noftz.bf16 [%0], [%1], %2;");
  EXPECT_TRUE(I.NoFtz);
  EXPECT_EQ(I.ElemType, "bf16");
  // Read so that TMA-REDUCE-MODE can report it.
  I = one("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::"
          "scatter4.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];");
  EXPECT_EQ(I.Mode, TensorMode::TileScatter4);
}

TEST(PtxNewForms, UnrecognisedTmaStatementsAreCounted) {
  unsigned N = 99;
  parseAsm("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", true, &N);
  EXPECT_EQ(N, 0u);
  auto Is = parseAsm(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
      "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes."
      "report::x [%2], [%3], %4, [%0];\n"
      "@p mbarrier.inval.shared::cta.b64 [%0];\n"
      "cp.async.bulk.commit_group;\n"
      "cp.async.bulk.wait_group.read 0;\n"
      "add.u32 %5, %5, 1;",
      true, &N);
  EXPECT_EQ(Is.size(), 1u);
  EXPECT_EQ(N, 2u);
}

TEST(PtxUnknown, OtherInstructions) {
  for (const char *Text : {
           "cp.async.bulk.commit_group;",
           "cp.async.bulk.wait_group.read 0;",
           "cp.async.bulk.wait_group %0;",
           "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];",
           "mbarrier.inval.shared::cta.b64 [%0];",
           "mapa.shared::cluster.u32 %0, %1, %2;",
           "setmaxnreg.inc.sync.aligned.u32 %0;\n",
           "fence.proxy.async::generic.acquire.sync_restrict::shared::"
           "cluster.cluster;",
           "tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;",
           "",
           "{ }",
       })
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxUnknown, UnknownQualifiers) {
  for (const char *Text : {
           // Newer than the vocabulary (tma-rules.md 8.6): tolerated. (A
           // .ignore_oob without its two counts is malformed.)
           "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes."
           "ignore_oob [%0], [%1], %2, [%3];",
           "mbarrier.arrive.noComplete.shared::cta.b64 _, [%0], %1;",
           "mbarrier.try_wait.parity.nosleep.shared.b64 P3, [%1], %2;",
           // An operand substituted into the opcode (learn-cuda's sm100
           // helpers): the qualifier is not known from the text.
           "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
           "complete_tx::bytes.cta_group::%6 [%0], [%1, {%2, %3, %4}], [%5];",
           // Duplicated qualifiers.
           "cp.async.bulk.tensor.2d.shared::cluster.global.tile.tile.mbarrier"
           "::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];",
           "cp.async.bulk.tensor.2d.3d.shared::cluster.global.mbarrier::"
           "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];",
           // Qualifiers of another family.
           "mbarrier.init.relaxed.shared::cta.b64 [%0], %1;",
           "mbarrier.expect_tx.release.cta.shared::cta.b64 [%0], %1;",
           "mbarrier.init.shared::cta.b32 [%0], %1;",
       })
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxUnknown, DirectionsPtxDoesNotHave) {
  for (const char *Text : {
           "cp.async.bulk.global.global.bulk_group [%0], [%1], %2;",
           "cp.async.bulk.shared::cta.shared::cta.mbarrier::complete_tx::"
           "bytes [%0], [%1], %2, [%3];",
           // Right spaces, wrong completion mechanism.
           "cp.async.bulk.shared::cluster.global.bulk_group [%0], [%1], %2;",
           "cp.async.bulk.tensor.2d.global.shared::cta.mbarrier::complete_tx"
           "::bytes [%0, {%2, %3}], [%1];",
           // Store mode on a load, load mode on a store.
           "cp.async.bulk.tensor.3d.shared::cluster.global.im2col_no_offs."
           "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];",
           "cp.async.bulk.tensor.3d.global.shared::cta.im2col.bulk_group"
           " [%0, {%2, %3, %4}], [%1];",
       })
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

TEST(PtxUnknown, OperandsOfTheWrongShape) {
  for (const char *Text : {
           // Missing barrier; one operand too many.
           "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
           " [%0], [%1], %2;",
           "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
           " [%0], [%1], %2, [%3], %4;",
           // Multicast without its mask.
           "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
           "complete_tx::bytes.multicast::cluster [%0], [%1, {%3}], [%2];",
           // A tensor operand without coordinates, a size in brackets.
           "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
           "complete_tx::bytes [%0], [%1], [%2];",
           "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], [%2];",
           // im2col offsets on a tile load.
           "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
           "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2], {%6};",
           // Unbalanced brackets, empty operands, a missing semicolon.
           "mbarrier.init.shared::cta.b64 [%0, %1;",
           "mbarrier.init.shared::cta.b64 [%0],, %1;",
           "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1",
           // An operand modifier, an empty name, a float.
           "mbarrier.init.shared::cta.b64 [%0], %c1;",
           "mbarrier.init.shared::cta.b64 [%[]], %1;",
           "mbarrier.init.shared::cta.b64 [%0], 0f3F800000;",
           // A dotted word is no register.
           "mbarrier.init.shared::cta.b64 [%tid.x], 1;",
       })
    EXPECT_TRUE(parse(Text).empty()) << Text;
}

//===----------------------------------------------------------------------===//
// opcodesOf: every statement's opcode, recognised or not (section 7)
//===----------------------------------------------------------------------===//

TEST(PtxOpcodes, EveryStatementWithItsQualifiers) {
  auto Ops = tma::ptx::opcodesOf(
      "{\n\t.reg .pred p;\n\t"
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;\n"
      "WAIT:\n\t@!p mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
      "@!p bra WAIT;\n}",
      /*Extended=*/true);
  ASSERT_EQ(Ops.size(), 3u);
  EXPECT_EQ(Ops[0].Text, "mbarrier.arrive.expect_tx.shared::cta.b64");
  EXPECT_EQ(Ops[1].Text, "mbarrier.try_wait.parity.shared::cta.b64");
  EXPECT_EQ(Ops[2].Text, "bra");
}

TEST(PtxOpcodes, QualifiersAfterWhiteSpaceAndUnknownForms) {
  // tilelang writes qualifiers apart; a form the parser does not model
  // (tensormap.replace) still has its opcode.
  auto Ops = tma::ptx::opcodesOf(
      "cp.async.bulk.global.shared::cta.bulk_group .L2::cache_hint "
      "[%0], [%1], 16, %2; tensormap.replace.tile.global_address.global."
      "b1024.b64 [%3], %4;",
      /*Extended=*/true);
  ASSERT_EQ(Ops.size(), 2u);
  EXPECT_EQ(Ops[0].Text,
            "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint");
  EXPECT_EQ(Ops[0].Pos, 0u);
  EXPECT_EQ(Ops[1].Text,
            "tensormap.replace.tile.global_address.global.b1024.b64");
  EXPECT_TRUE(tma::ptx::opcodesOf("", false).empty());
  EXPECT_TRUE(tma::ptx::opcodesOf(".reg .b32 r; L:", false).empty());
}

//===----------------------------------------------------------------------===//
// mapasOf: the mapa statements (peer addresses, api/PeerAddress.h)
//===----------------------------------------------------------------------===//

TEST(PtxMapa, OperandsGuardsAndStatementCount) {
  unsigned Statements = 0;
  auto Ms = mapasOf("{\n\t.reg .b32 r;\n\t"
                    "mapa.shared::cluster.u32 r, %0, %1;\n\t"
                    "@p mapa.shared::cluster.b64 %%rd1, %[bar], 3;\n\t"
                    "mbarrier.arrive.shared::cluster.b64 _, [r];\n}",
                    /*Extended=*/true, &Statements);
  EXPECT_EQ(Statements, 4u);
  ASSERT_EQ(Ms.size(), 2u);
  EXPECT_EQ(Ms[0].Dst.Kind, Value::Register);
  EXPECT_EQ(Ms[0].Dst.Name, "r");
  EXPECT_EQ(Ms[0].Addr.Kind, Value::Ref);
  EXPECT_EQ(Ms[0].Addr.Index, std::optional<unsigned>(0));
  EXPECT_EQ(Ms[0].Rank.Index, std::optional<unsigned>(1));
  EXPECT_FALSE(Ms[0].Guarded);
  EXPECT_TRUE(Ms[1].Guarded);
  EXPECT_EQ(Ms[1].Dst.Name, "%rd1");
  EXPECT_EQ(Ms[1].Addr.Name, "bar");
  EXPECT_EQ(Ms[1].Rank.Kind, Value::Immediate);
}

TEST(PtxMapa, OnlyWellFormedSharedClusterForms) {
  // Its twin: the same statement, well formed.
  EXPECT_EQ(mapasOf("mapa.shared::cluster.u32 %0, %1, %2;", true).size(), 1u);
  EXPECT_TRUE(mapasOf("mapa.u32 %0, %1, %2;", true).empty());
  EXPECT_TRUE(mapasOf("mapa.shared::cluster.s32 %0, %1, %2;", true).empty());
  EXPECT_TRUE(mapasOf("mapa.shared::cluster.u32 %0, %1;", true).empty());
  EXPECT_TRUE(mapasOf("mapa.shared::cluster.u32 %0, [%1], %2;", true).empty());
  EXPECT_TRUE(mapasOf("mapa.shared::cluster.u32 %0, %1, %c2;", true).empty());
}

} // namespace

TEST(PtxUnknown, UndecodedArrives) {
  using tma::ptx::isUndecodedArrive;
  using tma::ptx::opcodesOf;
  auto Of = [](const char *Text) {
    std::vector<tma::ptx::Opcode> Ops = opcodesOf(Text, true);
    return !Ops.empty() && isUndecodedArrive(Ops.front().Text);
  };
  EXPECT_TRUE(Of("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
                 "cluster.b64 [%0];"));
  EXPECT_TRUE(Of("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];"));
  EXPECT_TRUE(Of("@p cp.async.mbarrier.arrive.b64 [%0];"));
  EXPECT_TRUE(isUndecodedArrive("tcgen05.commit"));
  // Modelled arrivals, and words that only begin the same.
  EXPECT_FALSE(Of("mbarrier.arrive.shared::cta.b64 _, [%0];"));
  EXPECT_FALSE(Of("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3;"));
  EXPECT_FALSE(isUndecodedArrive("tcgen05.commitx"));
  EXPECT_FALSE(isUndecodedArrive("cp.async.mbarrier"));
}

//===----------------------------------------------------------------------===//
// shufflesOf: shfl.sync statements (warp-uniform values, api/ThreadGuards.h)
//===----------------------------------------------------------------------===//

TEST(PtxShuffle, OperandsModeAndStatementCount) {
  using tma::ptx::shufflesOf;
  using tma::ptx::Value;
  unsigned Statements = 0;
  auto Ss = shufflesOf("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;",
                       /*Extended=*/true, &Statements);
  EXPECT_EQ(Statements, 1u);
  ASSERT_EQ(Ss.size(), 1u);
  EXPECT_EQ(Ss[0].Mode, "idx");
  EXPECT_EQ(Ss[0].Dst.Index, std::optional<unsigned>(0));
  EXPECT_EQ(Ss[0].Src.Index, std::optional<unsigned>(1));
  EXPECT_EQ(Ss[0].Lane.Kind, Value::Immediate);
  EXPECT_EQ(Ss[0].Lane.Imm, 0u);
  EXPECT_EQ(Ss[0].Mask.Imm, 0xffffffffu);
  EXPECT_FALSE(Ss[0].Guarded);
  Ss = shufflesOf("{\n .reg .pred q;\n @q shfl.sync.bfly.b32 %0, %1, 4, 0x1f, "
                  "%2;\n}",
                  true, &Statements);
  EXPECT_EQ(Statements, 2u);
  ASSERT_EQ(Ss.size(), 1u);
  EXPECT_EQ(Ss[0].Mode, "bfly");
  EXPECT_TRUE(Ss[0].Guarded);
  EXPECT_EQ(Ss[0].Mask.Kind, Value::Ref);
}

TEST(PtxShuffle, OnlyWellFormedB32Forms) {
  using tma::ptx::shufflesOf;
  // Its twin: the same statement, well formed.
  EXPECT_EQ(shufflesOf("shfl.sync.down.b32 %0, %1, 1, 0x1f, -1;", true).size(),
            1u);
  EXPECT_TRUE(shufflesOf("shfl.sync.down.b32 %0|p, %1, 1, 0x1f, -1;", true)
                  .empty());
  EXPECT_TRUE(shufflesOf("shfl.sync.rot.b32 %0, %1, 1, 0x1f, -1;", true).empty());
  EXPECT_TRUE(shufflesOf("shfl.sync.idx.b64 %0, %1, 1, 0x1f, -1;", true).empty());
  EXPECT_TRUE(shufflesOf("shfl.idx.b32 %0, %1, 1, 0x1f;", true).empty());
  EXPECT_TRUE(shufflesOf("shfl.sync.idx.b32 %0, %1, 0, 0x1f;", true).empty());
}
