//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the instruction-form rules.
//
//===----------------------------------------------------------------------===//
//
// Every rule of rules/FormRules.h on both sides of each boundary, and the
// map-side rules added with them to rules/TensorCopyRules.h
// (TMA-STORE-COORD-ALIGN, TMA-GATHER4, TMA-REDUCE-OP-TYPE,
// TMA-SMEM-ELEMTYPE). Limits come from tma-rules.md (sections 2, 3, 11.B)
// and the PTX ISA text it cites, never from the model itself.
//
//===----------------------------------------------------------------------===//

#include "rules/DataTypes.h"
#include "rules/FormRules.h"
#include "rules/TensorCopyRules.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>

using namespace tma::rules;

namespace {

//===----------------------------------------------------------------------===//
// BULK-IGNORE-OOB
//===----------------------------------------------------------------------===//

TEST(BulkIgnoreOob, ZeroToFifteenIsSilent) {
  EXPECT_FALSE(checkBulkIgnoreOob(std::nullopt, false));
  for (std::uint64_t B = 0; B <= 15; ++B) {
    EXPECT_FALSE(checkBulkIgnoreOob(B, false)) << B;
    EXPECT_FALSE(checkBulkIgnoreOob(B, true)) << B;
  }
}

TEST(BulkIgnoreOob, SixteenAndAboveAreReported) {
  for (std::uint64_t B : {16ull, 17ull, 255ull, 0xffffffffull}) {
    auto V = checkBulkIgnoreOob(B, B % 2);
    ASSERT_TRUE(V) << B;
    EXPECT_STREQ(V->RuleId, "BULK-IGNORE-OOB");
    EXPECT_EQ(V->Value, B);
    EXPECT_EQ(V->Limit, 15u);
  }
  auto V = checkBulkIgnoreOob(16, true);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Parameter, DeviceParam::IgnoreBytesRight);
  EXPECT_EQ(V->Message, "ignoreBytesRight is 16 bytes, outside the valid "
                        "range [0, 15] of .ignore_oob");
  // A negative count is a huge 32-bit one.
  V = checkBulkIgnoreOob(0xffffffffffffffffull, false);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 0xffffffffu);
  EXPECT_EQ(V->Parameter, DeviceParam::IgnoreBytesLeft);
}

//===----------------------------------------------------------------------===//
// MBAR-INIT-COUNT-LAYOUT
//===----------------------------------------------------------------------===//

TEST(MbarInitCountLayout, Boundaries) {
  EXPECT_FALSE(checkMbarInitCountLayout(std::nullopt));
  EXPECT_FALSE(checkMbarInitCountLayout(1));
  EXPECT_FALSE(checkMbarInitCountLayout(128));
  EXPECT_FALSE(checkMbarInitCountLayout(511));
  for (std::uint64_t C : {0ull, 512ull, 1048575ull}) {
    auto V = checkMbarInitCountLayout(C);
    ASSERT_TRUE(V) << C;
    EXPECT_STREQ(V->RuleId, "MBAR-INIT-COUNT-LAYOUT");
    EXPECT_EQ(V->Parameter, DeviceParam::InitCount);
    EXPECT_EQ(V->Limit, C == 0 ? 1u : 511u);
  }
  EXPECT_EQ(checkMbarInitCountLayout(512)->Message,
            "count is 512 arrivals, outside the range [1, 511] of a "
            ".layout::v1 barrier");
}

//===----------------------------------------------------------------------===//
// BULK-ST-SIZE
//===----------------------------------------------------------------------===//

TEST(BulkStSize, MultiplesOf8UpTo16MiBAreSilent) {
  EXPECT_FALSE(checkBulkStSize(std::nullopt, std::nullopt));
  EXPECT_FALSE(checkBulkStSize(std::nullopt, 0));
  for (std::uint64_t S : {8ull, 16ull, 4096ull, 16777216ull})
    EXPECT_FALSE(checkBulkStSize(S, 0)) << S;
}

TEST(BulkStSize, OtherSizesAreReported) {
  for (std::uint64_t S : {0ull, 1ull, 7ull, 9ull, 12ull, 16777217ull,
                          16777224ull}) {
    auto V = checkBulkStSize(S, 0);
    ASSERT_TRUE(V) << S;
    EXPECT_STREQ(V->RuleId, "BULK-ST-SIZE");
    EXPECT_EQ(V->Parameter, DeviceParam::Size);
  }
  EXPECT_EQ(checkBulkStSize(12, std::nullopt)->Suggestion, "fill 16 bytes");
  EXPECT_EQ(checkBulkStSize(16777224, 0)->Limit, 16777216u);
}

TEST(BulkStSize, InitValueIsZero) {
  auto V = checkBulkStSize(64, 1);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Parameter, DeviceParam::InitValue);
  EXPECT_EQ(V->Message, "initval is 1; st.bulk only fills with 0");
}

//===----------------------------------------------------------------------===//
// BULK-REDUCE-OP-TYPE
//===----------------------------------------------------------------------===//

TEST(BulkReduceOpType, TheTableOfPtx) {
  const auto G = BulkReduceDst::Global, C = BulkReduceDst::SharedCluster;
  // Valid everywhere.
  for (auto D : {G, C}) {
    EXPECT_FALSE(checkBulkReduceOpType(D, "add", "u32", false));
    EXPECT_FALSE(checkBulkReduceOpType(D, "add", "s32", false));
    EXPECT_FALSE(checkBulkReduceOpType(D, "add", "u64", false));
    EXPECT_FALSE(checkBulkReduceOpType(D, "min", "s32", false));
    EXPECT_FALSE(checkBulkReduceOpType(D, "inc", "u32", false));
    EXPECT_FALSE(checkBulkReduceOpType(D, "xor", "b32", false));
  }
  // Global only.
  for (const char *T : {"f32", "f64"}) {
    EXPECT_FALSE(checkBulkReduceOpType(G, "add", T, false)) << T;
    EXPECT_TRUE(checkBulkReduceOpType(C, "add", T, false)) << T;
  }
  EXPECT_FALSE(checkBulkReduceOpType(G, "max", "s64", false));
  EXPECT_TRUE(checkBulkReduceOpType(C, "max", "s64", false));
  EXPECT_FALSE(checkBulkReduceOpType(G, "and", "b64", false));
  EXPECT_TRUE(checkBulkReduceOpType(C, "and", "b64", false));
  // Nowhere.
  for (auto D : {G, C}) {
    EXPECT_TRUE(checkBulkReduceOpType(D, "min", "f32", false));
    EXPECT_TRUE(checkBulkReduceOpType(D, "inc", "s32", false));
    EXPECT_TRUE(checkBulkReduceOpType(D, "and", "u32", false));
    EXPECT_TRUE(checkBulkReduceOpType(D, "add", "b32", false));
  }
  // Unknown type: silent.
  EXPECT_FALSE(checkBulkReduceOpType(C, "add", "", false));
}

TEST(BulkReduceOpType, HalfAddNeedsNoFtz) {
  const auto G = BulkReduceDst::Global;
  EXPECT_FALSE(checkBulkReduceOpType(G, "add", "f16", true));
  EXPECT_FALSE(checkBulkReduceOpType(G, "add", "bf16", true));
  EXPECT_FALSE(checkBulkReduceOpType(G, "min", "f16", false));
  auto V = checkBulkReduceOpType(G, "add", "bf16", false);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "BULK-REDUCE-OP-TYPE");
  EXPECT_EQ(V->Message, ".add.bf16 requires the .noftz qualifier");
  V = checkBulkReduceOpType(BulkReduceDst::SharedCluster, "max", "u64",
                            false);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, ".max.u64 is not a reduction PTX defines for a "
                        ".shared::cluster destination");
}

//===----------------------------------------------------------------------===//
// TMA-REDUCE-MODE, TMA-STORE-NONNEG
//===----------------------------------------------------------------------===//

TEST(TmaReduceMode, OnlyScatter4) {
  for (CopyMode M : {CopyMode::Tile, CopyMode::Im2colNoOffs})
    EXPECT_FALSE(checkTmaReduceMode(M));
  auto V = checkTmaReduceMode(CopyMode::Scatter4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-REDUCE-MODE");
}

TEST(TmaStoreNonneg, SignedBoundary) {
  EXPECT_FALSE(checkTmaStoreNonneg(0, std::nullopt));
  EXPECT_FALSE(checkTmaStoreNonneg(0, 0));
  EXPECT_FALSE(checkTmaStoreNonneg(1, 0x7fffffff));
  // -1 as a 32-bit operand, and as a sign-extended 64-bit fold.
  for (std::uint64_t C : {0xffffffffull, 0xffffffffffffffffull,
                          0x80000000ull}) {
    auto V = checkTmaStoreNonneg(2, C);
    ASSERT_TRUE(V) << C;
    EXPECT_STREQ(V->RuleId, "TMA-STORE-NONNEG");
    EXPECT_EQ(V->Parameter, DeviceParam::Coords);
  }
  EXPECT_EQ(checkTmaStoreNonneg(1, 0xfffffff8ull)->Message,
            "coordinate 1 is -8; a tensor store or reduction starts its box "
            "at non-negative coordinates");
}

//===----------------------------------------------------------------------===//
// TMA-IM2COL-INFO
//===----------------------------------------------------------------------===//

TEST(TmaIm2colInfo, OtherModesAndUnknownAreSilent) {
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Tile, 2, {}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, std::nullopt, {}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 4,
                                  {std::nullopt, std::nullopt}));
}

TEST(TmaIm2colInfo, AtLeastThreeDimensions) {
  for (std::uint64_t D : {1ull, 2ull}) {
    auto V = checkTmaIm2colInfo(CopyMode::Im2col, D, {});
    ASSERT_TRUE(V) << D;
    EXPECT_STREQ(V->RuleId, "TMA-IM2COL-INFO");
    EXPECT_EQ(V->Parameter, DeviceParam::Dims);
  }
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2colW, 2, {0, 0}));
}

TEST(TmaIm2colInfo, OffsetCountIsDimMinusTwo) {
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 3, {0}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 4, {0, 0}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 5, {0, 0, 0}));
  auto V = checkTmaIm2colInfo(CopyMode::Im2col, 4, {0});
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 1u);
  EXPECT_EQ(V->Limit, 2u);
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2col, 3, {}));
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2col, 5, {0, 0}));
  // The wide modes: {wHalo, wOffset}, whatever the dimension.
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2colW, 5, {0, 0}));
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2colW128, 3, {0}));
}

TEST(TmaIm2colInfo, OffsetRangesPerDimension) {
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 3, {65535}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 4, {255, 0}));
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2col, 4, {0, 256}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2col, 5, {31, 31, 31}));
  auto V = checkTmaIm2colInfo(CopyMode::Im2col, 5, {31, 32, 0});
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Value, 32u);
  EXPECT_EQ(V->Limit, 31u);
  EXPECT_EQ(V->Message, "im2colInfo offset 1 is 32, outside the range [0, "
                        "31] of .5d .im2col");
}

TEST(TmaIm2colInfo, WideHaloAndOffset) {
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2colW, 4, {511, 31}));
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2colW, 4, {512, 0}));
  EXPECT_TRUE(checkTmaIm2colInfo(CopyMode::Im2colW, 4, {0, 32}));
  EXPECT_FALSE(checkTmaIm2colInfo(CopyMode::Im2colW128, 4, {31, 31}));
  auto V = checkTmaIm2colInfo(CopyMode::Im2colW128, 4, {32, 0});
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Limit, 31u);
}

//===----------------------------------------------------------------------===//
// BULK-MULTICAST
//===----------------------------------------------------------------------===//

TEST(BulkMulticast, MaskWithinTheCluster) {
  EXPECT_FALSE(checkBulkMulticast(std::nullopt, 2));
  EXPECT_FALSE(checkBulkMulticast(0x3, std::nullopt));
  EXPECT_FALSE(checkBulkMulticast(0x3, 2));
  EXPECT_FALSE(checkBulkMulticast(0x1, 1));
  EXPECT_FALSE(checkBulkMulticast(0xffff, 16));
  EXPECT_FALSE(checkBulkMulticast(0xf, 4));
  auto V = checkBulkMulticast(0x4, 2);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "BULK-MULTICAST");
  EXPECT_EQ(V->Limit, 0x3u);
  EXPECT_EQ(V->Message,
            "ctaMask 0x4 selects CTA rank 2, but the cluster has 2 CTAs");
  EXPECT_TRUE(checkBulkMulticast(0x1f, 4));
  // Only the low 16 bits reach the instruction.
  EXPECT_FALSE(checkBulkMulticast(0x10003, 2));
}

//===----------------------------------------------------------------------===//
// TMA-OVERRIDE-ATTR
//===----------------------------------------------------------------------===//

TEST(TmaOverrideAttr, AddressAlignment) {
  EXPECT_FALSE(checkTmaOverrideAddrAlign(std::nullopt));
  EXPECT_FALSE(checkTmaOverrideAddrAlign(16));
  EXPECT_FALSE(checkTmaOverrideAddrAlign(256));
  for (std::uint64_t A : {1u, 2u, 4u, 8u}) {
    auto V = checkTmaOverrideAddrAlign(A);
    ASSERT_TRUE(V) << A;
    EXPECT_STREQ(V->RuleId, "TMA-OVERRIDE-ATTR");
    EXPECT_EQ(V->Value, A);
    EXPECT_EQ(V->Limit, 16u);
  }
  EXPECT_EQ(checkTmaOverrideAddrAlign(8)->Message,
            "gAddrToOverride is only 8-byte aligned, but "
            ".override::global_address needs a 16-byte aligned address");
}

TEST(TmaOverrideAttr, Form) {
  EXPECT_FALSE(checkTmaOverrideForm(false, false, CopyMode::Im2col));
  EXPECT_FALSE(checkTmaOverrideForm(false, true, CopyMode::Gather4));
  EXPECT_FALSE(checkTmaOverrideForm(true, true, CopyMode::Tile));
  auto V = checkTmaOverrideForm(true, false, CopyMode::Tile);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Message, ".override_attribute is only valid together with "
                        ".override::global_address");
  for (CopyMode M : {CopyMode::Gather4, CopyMode::Scatter4, CopyMode::Im2col,
                     CopyMode::Im2colNoOffs, CopyMode::Im2colW,
                     CopyMode::Im2colW128}) {
    auto W = checkTmaOverrideForm(true, true, M);
    ASSERT_TRUE(W) << copyModeName(M);
    EXPECT_EQ(W->Message, std::string(".override_attribute needs tile mode, "
                                      "but the copy is ") +
                              copyModeName(M));
  }
}

//===----------------------------------------------------------------------===//
// TMA-MAP-STATE-SPACE
//===----------------------------------------------------------------------===//

TEST(TmaMapStateSpace, ParamConstGlobalAreRight) {
  EXPECT_FALSE(checkTmaMapStateSpace(MapStorage::GridConstantParam));
  EXPECT_FALSE(checkTmaMapStateSpace(MapStorage::Constant));
  EXPECT_FALSE(checkTmaMapStateSpace(MapStorage::Global));
  // TMAP-PLACE-GRID-CONSTANT's.
  EXPECT_FALSE(checkTmaMapStateSpace(MapStorage::KernelParamCopy));
}

TEST(TmaMapStateSpace, CopiesAndSharedAreReported) {
  for (MapStorage S : {MapStorage::Local, MapStorage::DeviceParamCopy,
                       MapStorage::Shared}) {
    auto V = checkTmaMapStateSpace(S);
    ASSERT_TRUE(V);
    EXPECT_STREQ(V->RuleId, "TMA-MAP-STATE-SPACE");
    EXPECT_EQ(V->Parameter, DeviceParam::TensorMap);
    EXPECT_FALSE(V->Suggestion.empty());
  }
  EXPECT_EQ(checkTmaMapStateSpace(MapStorage::Shared)->Message,
            "is in shared memory, but TMA reads a tensor map only from a "
            "const __grid_constant__ kernel parameter, __constant__ or global "
            "memory");
}

//===----------------------------------------------------------------------===//
// Map-side rules
//===----------------------------------------------------------------------===//

TEST(TmaStoreCoordAlign, InnermostBytesMultipleOf16) {
  const auto Store = CopyDirection::Store;
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::BFloat16, CopyMode::Tile, Store,
                                       8));
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::BFloat16, CopyMode::Tile, Store,
                                       0));
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::UInt8, CopyMode::Tile, Store,
                                       16));
  auto V = checkTmaStoreCoordAlign(dtype::BFloat16, CopyMode::Tile, Store, 4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-STORE-COORD-ALIGN");
  EXPECT_EQ(V->Limit, 8u);
  EXPECT_TRUE(checkTmaStoreCoordAlign(dtype::Float32, CopyMode::Tile,
                                      CopyDirection::Reduce, 2));
  EXPECT_TRUE(checkTmaStoreCoordAlign(dtype::UInt8, CopyMode::Tile, Store,
                                      15));
  // Negative: -4 floats is -16 bytes, aligned.
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::Float32, CopyMode::Tile, Store,
                                       0xfffffffcull));
  // Loads, other modes, packed types and unknowns are silent.
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::BFloat16, CopyMode::Tile,
                                       CopyDirection::Load, 4));
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::BFloat16, CopyMode::Scatter4,
                                       Store, 4));
  EXPECT_FALSE(checkTmaStoreCoordAlign(dtype::U4Align16B, CopyMode::Tile,
                                       Store, 4));
  EXPECT_FALSE(checkTmaStoreCoordAlign(std::nullopt, CopyMode::Tile, Store,
                                       4));
}

MapDescriptor im2colMap(std::vector<Known> Lower, std::vector<Known> Upper) {
  MapDescriptor D;
  D.Encoder = MapEncoder::Im2col;
  D.DataType = dtype::Float32;
  D.Rank = 4;
  D.LowerCorner.Elems = std::move(Lower);
  D.UpperCorner.Elems = std::move(Upper);
  return D;
}

TEST(TmaStoreIm2colCorners, BoxInsideTheTensor) {
  const auto Store = CopyDirection::Store;
  const auto NoOffs = CopyMode::Im2colNoOffs;
  bool Upper = false;
  EXPECT_FALSE(checkTmaStoreIm2colCorners(im2colMap({0, 0}, {0, 0}), NoOffs,
                                          Store, Upper));
  EXPECT_FALSE(checkTmaStoreIm2colCorners(im2colMap({1, 2}, {-1, -3}),
                                          NoOffs, CopyDirection::Reduce,
                                          Upper));
  EXPECT_FALSE(checkTmaStoreIm2colCorners(
      im2colMap({std::nullopt, 0}, {std::nullopt, 0}), NoOffs, Store, Upper));
  // Loads may read outside the tensor.
  EXPECT_FALSE(checkTmaStoreIm2colCorners(im2colMap({0xffffffffu}, {1}),
                                          CopyMode::Im2col,
                                          CopyDirection::Load, Upper));
  auto V = checkTmaStoreIm2colCorners(im2colMap({0, 0xffffffffu}, {0, 0}),
                                      NoOffs, Store, Upper);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-STORE-NONNEG");
  EXPECT_FALSE(Upper);
  EXPECT_EQ(V->Message, "an im2col store keeps its box inside the tensor, "
                        "but the tensor map it writes has "
                        "pixelBoxLowerCorner[1] = -1");
  V = checkTmaStoreIm2colCorners(im2colMap({0}, {1}), NoOffs, Store, Upper);
  ASSERT_TRUE(V);
  EXPECT_TRUE(Upper);
}

MapDescriptor gatherMap(Known Box1, Known Interleave) {
  MapDescriptor D;
  D.Encoder = MapEncoder::Tiled;
  D.DataType = dtype::BFloat16;
  D.Rank = 2;
  D.BoxDim.Elems = {64, Box1};
  D.Interleave = Interleave;
  return D;
}

TEST(TmaGather4, RowBoxWithoutInterleave) {
  EXPECT_FALSE(checkTmaGather4(gatherMap(1, interleave::None),
                               CopyMode::Gather4));
  EXPECT_FALSE(checkTmaGather4(gatherMap(std::nullopt, std::nullopt),
                               CopyMode::Scatter4));
  // Tile copies may use any box.
  EXPECT_FALSE(checkTmaGather4(gatherMap(8, interleave::None),
                               CopyMode::Tile));
  auto V = checkTmaGather4(gatherMap(8, interleave::None), CopyMode::Gather4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-GATHER4");
  EXPECT_EQ(V->Value, 8u);
  V = checkTmaGather4(gatherMap(1, interleave::B32), CopyMode::Scatter4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-GATHER4");
}

TEST(TmaReduceOpType, MapTypeAgainstTheTable) {
  EXPECT_FALSE(checkTmaReduceOpType(std::nullopt, "add"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::Float32, "add"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::Float32Ftz, "add"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::BFloat16, "max"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::Int64, "min"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::UInt32, "inc"));
  EXPECT_FALSE(checkTmaReduceOpType(dtype::Int32, "xor"));
  for (auto [T, Op] : {std::pair{dtype::Float64, "add"},
                       std::pair{dtype::Float32, "max"},
                       std::pair{dtype::UInt8, "add"},
                       std::pair{dtype::TFloat32, "add"},
                       std::pair{dtype::Int32, "inc"},
                       std::pair{dtype::Float16, "and"},
                       std::pair{dtype::Int64, "add"}}) {
    auto V = checkTmaReduceOpType(T, Op);
    ASSERT_TRUE(V) << T << " " << Op;
    EXPECT_STREQ(V->RuleId, "TMA-REDUCE-OP-TYPE");
  }
  // Packed types are TMA-PACKED-DIRECTION's.
  EXPECT_FALSE(checkTmaReduceOpType(dtype::U4Align8B, "add"));
  EXPECT_EQ(checkTmaReduceOpType(dtype::Float32, "max")->Message,
            "a tensor .max reduction of a CU_TENSOR_MAP_DATA_TYPE_FLOAT32 "
            "map; PTX defines no such reduction");
}

TEST(TmaSmemElemType, SizesAgreeOrBytes) {
  EXPECT_FALSE(checkTmaSmemElemType(dtype::BFloat16, 2));
  EXPECT_FALSE(checkTmaSmemElemType(dtype::BFloat16, 1));
  EXPECT_FALSE(checkTmaSmemElemType(dtype::Float32, 4));
  EXPECT_FALSE(checkTmaSmemElemType(std::nullopt, 4));
  EXPECT_FALSE(checkTmaSmemElemType(dtype::BFloat16, std::nullopt));
  EXPECT_FALSE(checkTmaSmemElemType(dtype::U4Align8B, 4));
  auto V = checkTmaSmemElemType(dtype::BFloat16, 4);
  ASSERT_TRUE(V);
  EXPECT_STREQ(V->RuleId, "TMA-SMEM-ELEMTYPE");
  EXPECT_EQ(V->Value, 4u);
  EXPECT_EQ(V->Limit, 2u);
  EXPECT_TRUE(checkTmaSmemElemType(dtype::Float64, 4));
}

} // namespace
