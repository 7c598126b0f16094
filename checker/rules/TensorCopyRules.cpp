//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/TensorCopyRules.h"
#include "rules/DataTypes.h"
#include "tma/rules/CopyBytes.h"

#include <algorithm>
#include <string>

namespace tma::rules {

const char *copyModeName(CopyMode M) {
  switch (M) {
  case CopyMode::Tile:
    return ".tile";
  case CopyMode::Gather4:
    return ".tile::gather4";
  case CopyMode::Scatter4:
    return ".tile::scatter4";
  case CopyMode::Im2col:
    return ".im2col";
  case CopyMode::Im2colNoOffs:
    return ".im2col_no_offs";
  case CopyMode::Im2colW:
    return ".im2col::w";
  case CopyMode::Im2colW128:
    return ".im2col::w::128";
  }
  return "?";
}

Known tensorCopyBytes(const MapDescriptor &D, CopyMode M) {
  if (!D.DataType || !D.Rank || *D.Rank < 1 || *D.Rank > 5)
    return std::nullopt;
  // 0 for the packed types: the transaction count of a packed box is not
  // documented.
  const std::uint64_t Elem = copyElementBytes(*D.DataType);
  if (!Elem)
    return std::nullopt;
  auto Known0 = [](std::uint64_t Bytes) -> Known {
    return Bytes ? Known(Bytes) : std::nullopt;
  };
  switch (M) {
  case CopyMode::Tile:
  case CopyMode::Scatter4:
  case CopyMode::Gather4: {
    if (D.Encoder != MapEncoder::Tiled || !D.Interleave ||
        *D.Interleave != interleave::None)
      return std::nullopt;
    Known Inner = D.BoxDim.at(0);
    if (!Inner)
      return std::nullopt;
    if (M != CopyMode::Tile)
      return Known0(gather4Bytes(Elem, *Inner));
    std::uint64_t Box[5] = {*Inner}, Strides[5] = {1};
    for (std::uint64_t I = 1; I < *D.Rank; ++I) {
      Known B = D.BoxDim.at(I), S = D.ElementStrides.at(I);
      if (!B || !S)
        return std::nullopt;
      Box[I] = *B;
      Strides[I] = *S;
    }
    return Known0(tileBoxBytes(Elem, *D.Rank, Box, Strides));
  }
  case CopyMode::Im2col:
  case CopyMode::Im2colNoOffs:
    // Element strides do not change the count in im2col mode.
    if (D.Encoder != MapEncoder::Im2col || !D.ChannelsPerPixel ||
        !D.PixelsPerColumn)
      return std::nullopt;
    return *D.ChannelsPerPixel * *D.PixelsPerColumn * Elem;
  case CopyMode::Im2colW:
  case CopyMode::Im2colW128:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaDimEqRank(Known Dims, Known Rank,
                                                 CopyMode M) {
  if (!Dims || !Rank)
    return std::nullopt;
  bool Gather = M == CopyMode::Gather4 || M == CopyMode::Scatter4;
  if (Gather ? *Dims == 2 && *Rank == 2 : *Dims == *Rank)
    return std::nullopt;
  std::string N = std::to_string(*Dims), R = std::to_string(*Rank);
  std::string Message = Gather ? std::string(copyModeName(M)) +
                                     " reads a rank-2 map, but the "
                                     "tensor map it reads has tensorRank " +
                                     R
                               : "the copy is ." + N +
                                     "d, but the tensor map it reads has "
                                     "tensorRank " +
                                     R;
  std::string Suggestion =
      Gather ? "encode the map with tensorRank 2"
             : "use ." + R + "d with " + R +
                   (*Rank == 1 ? " coordinate" : " coordinates");
  return DeviceViolation{
      "TMA-DIM-EQ-RANK",  DeviceParam::Dims,  *Dims,
      Gather ? 2 : *Rank, std::move(Message), std::move(Suggestion)};
}

std::optional<DeviceViolation> checkTmaModeMatchesMap(CopyMode M, MapEncoder E,
                                                      Known WideMode) {
  std::optional<MapEncoder> Needed;
  Known NeededWide;
  switch (M) {
  case CopyMode::Tile:
  case CopyMode::Gather4:
  case CopyMode::Scatter4:
    Needed = MapEncoder::Tiled;
    break;
  case CopyMode::Im2col:
  case CopyMode::Im2colNoOffs:
    Needed = MapEncoder::Im2col;
    break;
  case CopyMode::Im2colW:
    Needed = MapEncoder::Im2colWide;
    NeededWide = widemode::W;
    break;
  case CopyMode::Im2colW128:
    Needed = MapEncoder::Im2colWide;
    NeededWide = widemode::W128;
    break;
  }
  std::string Mode = copyModeName(M);
  if (E != *Needed)
    return DeviceViolation{"TMA-MODE-MATCHES-MAP",
                           DeviceParam::LoadMode,
                           static_cast<std::uint64_t>(M),
                           static_cast<std::uint64_t>(*Needed),
                           "the copy uses " + Mode +
                               ", but the tensor map it reads was encoded "
                               "by " +
                               encoderName(E),
                           std::string("encode the map with ") +
                               encoderName(*Needed)};
  if (NeededWide && WideMode && *WideMode != *NeededWide)
    return DeviceViolation{"TMA-MODE-MATCHES-MAP",
                           DeviceParam::LoadMode,
                           *WideMode,
                           *NeededWide,
                           "the copy uses " + Mode +
                               ", but the tensor map it reads was encoded "
                               "with mode " +
                               (*WideMode == widemode::W
                                    ? "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W"
                                    : "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128"),
                           std::string("encode the map with mode ") +
                               (*NeededWide == widemode::W
                                    ? "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W"
                                    : "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128")};
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaPackedDirection(Known DataType,
                                                       CopyDirection Dir) {
  if (!DataType || !isPackedType(*DataType))
    return std::nullopt;
  const char *Type = dataTypeName(*DataType);
  if (Dir == CopyDirection::Reduce)
    return DeviceViolation{
        "TMA-PACKED-DIRECTION",
        DeviceParam::Direction,
        *DataType,
        0,
        std::string("a tensor reduction of a ") + Type +
            " map; reductions support no packed sub-byte type",
        "reduce through a map of an unpacked type"};
  if (Dir == CopyDirection::Store && *DataType == dtype::U4Align16B)
    return DeviceViolation{
        "TMA-PACKED-DIRECTION",
        DeviceParam::Direction,
        *DataType,
        0,
        std::string("a tensor store of a ") + Type +
            " map; that packed type is load-only",
        "store through a map of CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B or an "
        "unpacked type"};
  return std::nullopt;
}

std::optional<DeviceViolation>
checkTmaPackedCoord0(Known DataType, CopyDirection Dir, Known Coord0) {
  if (!DataType || !Coord0 || !isPacked16BType(*DataType))
    return std::nullopt;
  const std::uint64_t Granule =
      Dir == CopyDirection::Store && *DataType == dtype::U6Align16B ? 64 : 128;
  // The coordinate is a signed 32-bit operand.
  const auto C = static_cast<std::int32_t>(*Coord0 & 0xffffffffu);
  if (C % static_cast<std::int32_t>(Granule) == 0)
    return std::nullopt;
  return DeviceViolation{"TMA-PACKED-COORD0",
                         DeviceParam::Coords,
                         *Coord0,
                         Granule,
                         "the first coordinate is " + std::to_string(C) +
                             ", not a multiple of " + std::to_string(Granule) +
                             " as a " + dataTypeName(*DataType) +
                             " map requires",
                         "start the box at a multiple of " +
                             std::to_string(Granule) + " elements"};
}

std::optional<DeviceViolation> checkTmaStoreCoordAlign(Known DataType,
                                                       CopyMode M,
                                                       CopyDirection Dir,
                                                       Known Coord0) {
  if (!DataType || !Coord0 || M != CopyMode::Tile ||
      (Dir != CopyDirection::Store && Dir != CopyDirection::Reduce))
    return std::nullopt;
  const std::uint64_t Elem = copyElementBytes(*DataType);
  if (!Elem)
    return std::nullopt;
  const auto C = static_cast<std::int32_t>(*Coord0 & 0xffffffffu);
  const std::int64_t Bytes = static_cast<std::int64_t>(C) *
                             static_cast<std::int64_t>(Elem);
  if (Bytes % 16 == 0)
    return std::nullopt;
  const std::uint64_t Granule = 16 / std::min<std::uint64_t>(Elem, 16);
  return DeviceViolation{
      "TMA-STORE-COORD-ALIGN",
      DeviceParam::Coords,
      *Coord0,
      Granule,
      "the innermost coordinate is " + std::to_string(C) + ", " +
          std::to_string(Bytes) + " bytes of " + dataTypeName(*DataType) +
          ", not a multiple of 16 bytes",
      "start the stored box at a multiple of " + std::to_string(Granule) +
          (Granule == 1 ? " element" : " elements")};
}

std::optional<DeviceViolation> checkTmaStoreIm2colCorners(const MapDescriptor &D,
                                                          CopyMode M,
                                                          CopyDirection Dir,
                                                          bool &Upper) {
  if (M != CopyMode::Im2colNoOffs || D.Encoder != MapEncoder::Im2col ||
      (Dir != CopyDirection::Store && Dir != CopyDirection::Reduce))
    return std::nullopt;
  for (int Which = 0; Which < 2; ++Which) {
    const KnownArray &A = Which ? D.UpperCorner : D.LowerCorner;
    for (std::size_t I = 0; I < A.Elems.size(); ++I) {
      if (!A.Elems[I])
        continue;
      const auto C = static_cast<std::int32_t>(*A.Elems[I] & 0xffffffffu);
      if (Which ? C <= 0 : C >= 0)
        continue;
      Upper = Which;
      const char *Name =
          Which ? "pixelBoxUpperCorner" : "pixelBoxLowerCorner";
      return DeviceViolation{
          "TMA-STORE-NONNEG", DeviceParam::Coords, *A.Elems[I], 0,
          std::string("an im2col store keeps its box inside the tensor, but "
                      "the tensor map it writes has ") +
              Name + "[" + std::to_string(I) + "] = " + std::to_string(C),
          std::string("store through a map whose ") + Name + " is " +
              (Which ? "at most 0" : "at least 0")};
    }
  }
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaGather4(const MapDescriptor &D,
                                               CopyMode M) {
  if ((M != CopyMode::Gather4 && M != CopyMode::Scatter4) ||
      D.Encoder != MapEncoder::Tiled)
    return std::nullopt;
  const std::string Mode = copyModeName(M);
  if (D.Interleave && *D.Interleave != interleave::None)
    return DeviceViolation{"TMA-GATHER4", DeviceParam::LoadMode,
                           *D.Interleave, interleave::None,
                           Mode + " reads a map without interleave, but the "
                                  "tensor map it reads is interleaved",
                           "encode the map with "
                           "CU_TENSOR_MAP_INTERLEAVE_NONE"};
  if (Known B1 = D.BoxDim.at(1); B1 && *B1 != 1)
    return DeviceViolation{
        "TMA-GATHER4", DeviceParam::LoadMode, *B1, 1,
        Mode + " moves single rows: boxDim[1] must be 1, but the tensor map "
               "it reads has boxDim[1] = " +
            std::to_string(*B1),
        "encode the map with boxDim[1] = 1"};
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaReduceOpType(Known DataType,
                                                    const std::string &Op) {
  if (!DataType || Op.empty())
    return std::nullopt;
  const std::uint64_t T = *DataType;
  bool Valid;
  if (Op == "add")
    Valid = T == dtype::UInt32 || T == dtype::Int32 || T == dtype::UInt64 ||
            T == dtype::Float32 || T == dtype::Float32Ftz ||
            T == dtype::Float16 || T == dtype::BFloat16;
  else if (Op == "min" || Op == "max")
    Valid = T == dtype::UInt32 || T == dtype::Int32 || T == dtype::UInt64 ||
            T == dtype::Int64 || T == dtype::Float16 || T == dtype::BFloat16;
  else if (Op == "inc" || Op == "dec")
    Valid = T == dtype::UInt32;
  else if (Op == "and" || Op == "or" || Op == "xor")
    Valid = T == dtype::UInt32 || T == dtype::Int32 || T == dtype::UInt64 ||
            T == dtype::Int64;
  else
    return std::nullopt;
  // Packed types are TMA-PACKED-DIRECTION's.
  if (Valid || isPackedType(T) || T > dtype::Last)
    return std::nullopt;
  return DeviceViolation{"TMA-REDUCE-OP-TYPE", DeviceParam::ReduceOp, T, 0,
                         "a tensor ." + Op + " reduction of a " +
                             dataTypeName(T) +
                             " map; PTX defines no such reduction",
                         "reduce in an epilogue or through a map of a "
                         "supported type"};
}

std::optional<DeviceViolation> checkTmaSmemElemType(Known DataType,
                                                    Known ElemBytes) {
  if (!DataType || !ElemBytes || *ElemBytes == 1)
    return std::nullopt;
  const std::uint64_t Elem = copyElementBytes(*DataType);
  if (!Elem || Elem == *ElemBytes)
    return std::nullopt;
  return DeviceViolation{
      "TMA-SMEM-ELEMTYPE", DeviceParam::ElementType, *ElemBytes, Elem,
      "the shared-memory buffer has " + std::to_string(*ElemBytes) +
          "-byte elements, but the tensor map's " + dataTypeName(*DataType) +
          " elements are " + std::to_string(Elem) +
          (Elem == 1 ? " byte" : " bytes"),
      "declare the buffer with the map's element type (or as bytes)"};
}

} // namespace tma::rules
