//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// <tma/validate.h>: the operands of the three encoders read as the driver
// reads them, the checker's ids and messages, the address rules that only
// run time can see, and the text of encode_* failures (with a stand-in for
// the driver: these tests run without a GPU).
//
//===----------------------------------------------------------------------===//

#include "tma/validate.h"

#include "gtest/gtest.h"
#include <string>
#include <vector>

namespace {

alignas(256) char Memory[1024];

/// A valid bf16 2-D descriptor; tests change one operand at a time.
struct Tiled {
  CUtensorMap Map;
  CUtensorMap *MapPtr = &Map;
  CUtensorMapDataType DataType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  cuuint32_t Rank = 2;
  void *Address = Memory;
  cuuint64_t Dims[5] = {4096, 4096, 1, 1, 1};
  cuuint64_t Strides[4] = {8192, 0, 0, 0};
  cuuint32_t Box[5] = {64, 64, 1, 1, 1};
  cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave Interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle Swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  CUtensorMapL2promotion L2 = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill Oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;

  tma::violations check() {
    return tma::check_tiled(MapPtr, DataType, Rank, Address, Dims, Strides, Box,
                            ElemStrides, Interleave, Swizzle, L2, Oob);
  }
  tma::encode_result encode(tma::encode_tiled_fn Driver) {
    return tma::encode_tiled_with(Driver, MapPtr, DataType, Rank, Address, Dims,
                                  Strides, Box, ElemStrides, Interleave,
                                  Swizzle, L2, Oob);
  }
};

std::vector<std::string> ids(const tma::violations &Vs) {
  std::vector<std::string> Out;
  for (const tma::violation &V : Vs)
    Out.push_back(V.rule);
  return Out;
}

using Ids = std::vector<std::string>;

CUresult acceptAll(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                   const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                   const cuuint32_t *, CUtensorMapInterleave,
                   CUtensorMapSwizzle, CUtensorMapL2promotion,
                   CUtensorMapFloatOOBfill) {
  return CUDA_SUCCESS;
}

CUresult rejectAll(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                   const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                   const cuuint32_t *, CUtensorMapInterleave,
                   CUtensorMapSwizzle, CUtensorMapL2promotion,
                   CUtensorMapFloatOOBfill) {
  return CUDA_ERROR_INVALID_VALUE;
}

TEST(CheckTiled, ValidDescriptorIsSilent) {
  Tiled T;
  EXPECT_TRUE(T.check().empty());
}

TEST(CheckTiled, FieldsAreTheCheckers) {
  Tiled T;
  T.Strides[0] = 8200;
  tma::violations Vs = T.check();
  ASSERT_EQ(Vs.size(), 1u);
  const tma::violation &V = Vs[0];
  EXPECT_EQ(V.rule, "TMAP-ENC-GSTRIDE-ALIGN");
  EXPECT_EQ(V.message, "globalStrides[0] is 8200 bytes, not a multiple of 16");
  EXPECT_EQ(V.parameter, "globalStrides");
  EXPECT_EQ(V.index, 0);
  EXPECT_EQ(V.operand(), "globalStrides[0]");
  EXPECT_EQ(V.value, 8200u);
  EXPECT_EQ(V.limit, 16u);
  EXPECT_EQ(V.suggestion, "pad the row to 8208 bytes");
  // The same text as the checker's diagnostic, from the same function.
  tma::rules::Violation Model{"TMAP-ENC-GSTRIDE-ALIGN",
                              tma::rules::Param::GlobalStrides,
                              0,
                              8200,
                              16,
                              V.message,
                              std::nullopt,
                              {}};
  EXPECT_EQ(V.text(), tma::rules::withRuleId(Model));
}

TEST(CheckTiled, SeveralRulesInTheCheckersOrder) {
  Tiled T;
  T.Swizzle = CUtensorMapSwizzle(128);
  T.Box[0] = 300;
  T.ElemStrides[1] = 0;
  EXPECT_EQ(ids(T.check()),
            (Ids{"TMAP-TILED-BOX-RANGE", "TMAP-ENC-ESTRIDE-RANGE",
                 "TMAP-ENC-ENUM-RANGE"}));
  EXPECT_EQ(T.check()[2].suggestion, "use CU_TENSOR_MAP_SWIZZLE_128B");
}

TEST(CheckTiled, ReadsOnlyWhatTheDriverReads) {
  // Rank 1: no element of globalStrides is read, and only element 0 of the
  // others; but the driver rejects a null globalStrides even then
  // (TMAP-ENC-GSTRIDES-NULL, recorded in bench/driver/recorded.tsv).
  Tiled T;
  T.Rank = 1;
  T.Dims[1] = 0;
  T.Box[1] = 0;
  cuuint64_t *NoStrides = nullptr;
  EXPECT_TRUE(tma::check_tiled(T.MapPtr, T.DataType, 1, T.Address, T.Dims,
                               T.Strides, T.Box, T.ElemStrides, T.Interleave,
                               T.Swizzle, T.L2, T.Oob)
                  .empty());
  EXPECT_EQ(ids(tma::check_tiled(T.MapPtr, T.DataType, 1, T.Address, T.Dims,
                                 NoStrides, T.Box, T.ElemStrides,
                                 T.Interleave, T.Swizzle, T.L2, T.Oob)),
            (Ids{"TMAP-ENC-GSTRIDES-NULL"}));
  // An invalid rank: element 0 only, like the model.
  cuuint64_t Dim = 0;
  cuuint32_t Box = 64, Es = 1;
  EXPECT_EQ(
      ids(tma::check_tiled(T.MapPtr, T.DataType, 9, T.Address, &Dim, nullptr,
                           &Box, &Es, T.Interleave, T.Swizzle, T.L2, T.Oob)),
      (Ids{"TMAP-TILED-RANK", "TMAP-ENC-GDIM-RANGE"}));
}

// Null arrays are unknown, except globalStrides, which the driver rejects
// as null (TMAP-ENC-GSTRIDES-NULL).
TEST(CheckTiled, NullArraysAreUnknown) {
  Tiled T;
  EXPECT_TRUE(tma::check_tiled(T.MapPtr, T.DataType, 2, T.Address, nullptr,
                               T.Strides, nullptr, nullptr, T.Interleave,
                               T.Swizzle, T.L2, T.Oob)
                  .empty());
  EXPECT_EQ(ids(tma::check_tiled(T.MapPtr, T.DataType, 2, T.Address, nullptr,
                                 nullptr, nullptr, nullptr, T.Interleave,
                                 T.Swizzle, T.L2, T.Oob)),
            (Ids{"TMAP-ENC-GSTRIDES-NULL"}));
}

// TMAP-ENC-GADDR-ALIGN: known only at run time.
TEST(CheckTiled, GlobalAddressAlignment) {
  Tiled T;
  T.Address = Memory + 8;
  tma::violations Vs = T.check();
  ASSERT_EQ(ids(Vs), Ids{"TMAP-ENC-GADDR-ALIGN"});
  EXPECT_EQ(Vs[0].parameter, "globalAddress");
  EXPECT_EQ(Vs[0].value, 8u);
  EXPECT_EQ(Vs[0].limit, 16u);
  EXPECT_NE(Vs[0].message.find("8 bytes past a 16-byte boundary"),
            std::string::npos)
      << Vs[0].message;
  T.Address = Memory + 16;
  EXPECT_TRUE(T.check().empty());
  // 32 bytes for INTERLEAVE_32B (with its 32B swizzle, rank 3) ...
  T.Interleave = CU_TENSOR_MAP_INTERLEAVE_32B;
  T.Swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  T.Rank = 3;
  T.Strides[1] = 8192 * 4096;
  EXPECT_EQ(ids(T.check()), Ids{"TMAP-ENC-GADDR-ALIGN"});
  T.Address = Memory + 32;
  EXPECT_TRUE(T.check().empty());
  // ... and for the 16-byte-aligned packed types.
  Tiled P;
  P.DataType = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B;
  P.Dims[0] = 4096;
  P.Box[0] = 128;
  P.Strides[0] = 2048;
  P.Address = Memory + 16;
  tma::violations PV = P.check();
  ASSERT_EQ(ids(PV), Ids{"TMAP-ENC-GADDR-ALIGN"});
  EXPECT_EQ(PV[0].limit, 32u);
  // A null address is accepted (template maps).
  P.Address = nullptr;
  EXPECT_TRUE(P.check().empty());
}

// Every offset from an aligned base: the rule fires exactly off the
// boundary, with the offset as its value.
TEST(CheckTiled, AddressAlignmentBoundaries) {
  alignas(256) static char Storage[512];
  for (unsigned Offset = 0; Offset < 128; ++Offset) {
    Tiled T;
    T.Address = Storage + Offset;
    tma::violations Vs = T.check();
    if (Offset % 16 == 0) {
      EXPECT_TRUE(Vs.empty()) << Offset;
      continue;
    }
    ASSERT_EQ(ids(Vs), Ids{"TMAP-ENC-GADDR-ALIGN"}) << Offset;
    EXPECT_EQ(Vs[0].value, Offset % 16);
  }
  for (unsigned Offset = 0; Offset < 256; Offset += 8) {
    Tiled T;
    T.MapPtr = reinterpret_cast<CUtensorMap *>(Storage + Offset);
    tma::violations Vs = T.check();
    if (Offset % 64 == 0) {
      EXPECT_TRUE(Vs.empty()) << Offset;
      continue;
    }
    ASSERT_EQ(ids(Vs), Ids{"TMAP-ENC-OUT-ALIGN64"}) << Offset;
    EXPECT_EQ(Vs[0].value, Offset % 64);
  }
}

// TMAP-ENC-OUT-ALIGN64
TEST(CheckTiled, TensorMapAlignment) {
  Tiled T;
  alignas(128) static char Storage[256];
  T.MapPtr = reinterpret_cast<CUtensorMap *>(Storage + 32);
  tma::violations Vs = T.check();
  ASSERT_EQ(ids(Vs), Ids{"TMAP-ENC-OUT-ALIGN64"});
  EXPECT_EQ(Vs[0].parameter, "tensorMap");
  EXPECT_EQ(Vs[0].value, 32u);
  T.MapPtr = reinterpret_cast<CUtensorMap *>(Storage + 64);
  EXPECT_TRUE(T.check().empty());
}

TEST(CheckTiled, HeuristicsCanBeSwitchedOff) {
  Tiled T;
  T.Strides[0] = 4096; // globalDim[0] elements, not bytes
  EXPECT_EQ(ids(T.check()), Ids{"TMAP-ENC-GSTRIDE-UNITS"});
  tma::check_options Off;
  Off.stride_unit_heuristics = false;
  EXPECT_TRUE(tma::check_tiled(T.MapPtr, T.DataType, T.Rank, T.Address, T.Dims,
                               T.Strides, T.Box, T.ElemStrides, T.Interleave,
                               T.Swizzle, T.L2, T.Oob, Off)
                  .empty());
}

TEST(EncodeTiled, SuccessHasNoText) {
  Tiled T;
  tma::encode_result R = T.encode(acceptAll);
  EXPECT_TRUE(R);
  EXPECT_EQ(R.result, CUDA_SUCCESS);
  EXPECT_TRUE(R.text.empty());
}

TEST(EncodeTiled, FailureListsTheViolations) {
  Tiled T;
  T.Strides[0] = 8200;
  tma::encode_result R = T.encode(rejectAll);
  EXPECT_FALSE(R);
  EXPECT_EQ(R.result, CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(ids(R.found), Ids{"TMAP-ENC-GSTRIDE-ALIGN"});
  EXPECT_EQ(R.text.rfind("cuTensorMapEncodeTiled returned "
                         "CUDA_ERROR_INVALID_VALUE; the operands break 1 "
                         "rule:\n  globalStrides[0] is 8200 bytes, not a "
                         "multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN)\n"
                         "    suggestion: pad the row to 8208 bytes\n",
                         0),
            0u)
      << R.text;
}

TEST(EncodeTiled, FailureWithoutViolationPrintsTheOperands) {
  Tiled T;
  tma::encode_result R = T.encode(rejectAll);
  EXPECT_FALSE(R);
  EXPECT_TRUE(R.found.empty());
  EXPECT_NE(R.text.find("rule model finds no broken rule"), std::string::npos)
      << R.text;
  EXPECT_NE(R.text.find("tensorDataType=CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 (9) "
                        "tensorRank=2"),
            std::string::npos)
      << R.text;
  EXPECT_NE(R.text.find("globalDim={4096, 4096} globalStrides={8192} "
                        "boxDim={64, 64} elementStrides={1, 1}"),
            std::string::npos)
      << R.text;
  EXPECT_NE(R.text.find("swizzle=CU_TENSOR_MAP_SWIZZLE_128B (3)"),
            std::string::npos)
      << R.text;
}

TEST(EncodeTiled, AcceptedButWrongIsAFailure) {
  // The driver accepts strides written in elements when they happen to be
  // aligned; the map then reads the wrong rows.
  Tiled T;
  T.Strides[0] = 4096;
  tma::encode_result R = T.encode(acceptAll);
  EXPECT_FALSE(R);
  EXPECT_EQ(R.result, CUDA_SUCCESS);
  EXPECT_NE(R.text.find("returned CUDA_SUCCESS, but the operands break 1 rule"),
            std::string::npos)
      << R.text;
}

TEST(EncodeTiled, ErrorCarriesTheResult) {
  Tiled T;
  T.Box[0] = 0;
  tma::encode_result R = T.encode(rejectAll);
  tma::encode_error E(R);
  EXPECT_EQ(std::string(E.what()), R.text);
  EXPECT_EQ(ids(E.result().found), Ids{"TMAP-TILED-BOX-RANGE"});
}

/// A valid fp16 NHWC im2col descriptor (64 channels, 32 x 32, batch 8).
struct Im2col {
  CUtensorMap Map;
  CUtensorMapDataType DataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  cuuint32_t Rank = 4;
  void *Address = Memory;
  cuuint64_t Dims[5] = {64, 32, 32, 8, 1};
  cuuint64_t Strides[4] = {128, 128 * 32, 128 * 32 * 32, 0};
  int Lower[3] = {-1, -1, 0};
  int Upper[3] = {-1, -1, 0};
  cuuint32_t Channels = 64, Pixels = 128;
  cuuint32_t ElemStrides[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave Interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle Swizzle = CU_TENSOR_MAP_SWIZZLE_128B;

  tma::violations check() {
    return tma::check_im2col(
        &Map, DataType, Rank, Address, Dims, Strides, Lower, Upper, Channels,
        Pixels, ElemStrides, Interleave, Swizzle,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
  tma::encode_result encode(tma::encode_im2col_fn Driver) {
    return tma::encode_im2col_with(
        Driver, &Map, DataType, Rank, Address, Dims, Strides, Lower, Upper,
        Channels, Pixels, ElemStrides, Interleave, Swizzle,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
};

CUresult rejectIm2col(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                      const cuuint64_t *, const cuuint64_t *, const int *,
                      const int *, cuuint32_t, cuuint32_t, const cuuint32_t *,
                      CUtensorMapInterleave, CUtensorMapSwizzle,
                      CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  return CUDA_ERROR_INVALID_VALUE;
}

TEST(CheckIm2col, ValidDescriptorIsSilent) {
  Im2col I;
  EXPECT_TRUE(I.check().empty());
}

TEST(CheckIm2col, TheModelsRules) {
  Im2col I;
  I.Swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  I.Channels = 300;
  tma::violations Vs = I.check();
  ASSERT_EQ(ids(Vs), Ids{"TMAP-I2C-CHANNELS"});
  EXPECT_EQ(Vs[0].parameter, "channelsPerPixel");
  EXPECT_NE(Vs[0].message.find("300, above the limit of 256"),
            std::string::npos)
      << Vs[0].message;
  Im2col R;
  R.Rank = 2;
  EXPECT_EQ(ids(R.check()), Ids{"TMAP-I2C-RANK"});
}

TEST(CheckIm2col, ReadsRankMinusTwoCorners) {
  // Rank 3 reads one corner of each array: the second element is not read.
  Im2col I;
  I.Rank = 3;
  I.Dims[2] = 8;
  I.Strides[1] = 128 * 32;
  I.Lower[1] = 1000;
  I.Upper[1] = -1000;
  EXPECT_TRUE(I.check().empty());
  I.Rank = 4;
  I.Dims[2] = 32;
  I.Dims[3] = 8;
  I.Strides[1] = 128 * 32;
  EXPECT_FALSE(I.check().empty());
}

TEST(CheckIm2col, AddressRulesOfEveryEncoder) {
  Im2col I;
  I.Address = Memory + 8;
  EXPECT_EQ(ids(I.check()), Ids{"TMAP-ENC-GADDR-ALIGN"});
}

TEST(EncodeIm2col, FailurePrintsTheCorners) {
  Im2col I;
  I.Channels = 0;
  tma::encode_result R = I.encode(rejectIm2col);
  EXPECT_FALSE(R);
  EXPECT_EQ(ids(R.found), Ids{"TMAP-I2C-CHANNELS"});
  EXPECT_EQ(R.text.rfind("cuTensorMapEncodeIm2col returned "
                         "CUDA_ERROR_INVALID_VALUE; the operands break 1 rule",
                         0),
            0u)
      << R.text;
  EXPECT_NE(R.text.find("pixelBoxLowerCorner={-1, -1} pixelBoxUpperCorner={-1, "
                        "-1} channelsPerPixel=0 pixelsPerColumn=128"),
            std::string::npos)
      << R.text;
}

#if CUDA_VERSION >= 12080
TEST(CheckIm2colWide, TheModelsRules) {
  CUtensorMap Map;
  cuuint64_t Dims[4] = {64, 32, 32, 8};
  cuuint64_t Strides[3] = {128, 128 * 32, 128 * 32 * 32};
  cuuint32_t Es[4] = {1, 1, 1, 1};
  auto Check = [&](CUtensorMapSwizzle S, CUtensorMapIm2ColWideMode M) {
    return ids(tma::check_im2col_wide(
        &Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, Memory, Dims, Strides, -1, -1,
        64, 128, Es, CU_TENSOR_MAP_INTERLEAVE_NONE, M, S,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  };
  EXPECT_EQ(Check(CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W),
            Ids{});
  EXPECT_EQ(Check(CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W),
            Ids{"TMAP-I2CW-SWIZZLE"});
  EXPECT_EQ(Check(CU_TENSOR_MAP_SWIZZLE_128B, CUtensorMapIm2ColWideMode(2)),
            Ids{"TMAP-ENC-ENUM-RANGE"});
}
#endif

} // namespace
