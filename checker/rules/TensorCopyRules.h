//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of tensor copies that need the tensor map the host encoded
// (tma-rules.md sections 3 and 4): the bytes a copy delivers, its dimension
// against the map's rank, and its load mode against the map's encoder.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_TENSORCOPYRULES_H
#define TMA_TIDY_RULES_TENSORCOPYRULES_H

#include "rules/DataTypes.h"
#include "rules/DeviceRules.h"
#include "rules/EncodeCommon.h"
#include "rules/TiledRules.h"

namespace tma::rules {

/// The driver function that encoded a map.
using MapEncoder = Encoder;

/// What a tensor copy needs to know of the map it reads: the operands of
/// the encode call, folded. Unknown values stay unknown.
struct MapDescriptor {
  MapEncoder Encoder = MapEncoder::Tiled;
  Known DataType;
  Known Rank;
  /// Tiled maps only.
  KnownArray BoxDim;
  KnownArray ElementStrides;
  Known Interleave;
  Known Swizzle;
  /// Im2col maps only: pixelBoxLowerCorner and pixelBoxUpperCorner (signed
  /// values in two's complement).
  KnownArray LowerCorner;
  KnownArray UpperCorner;
  /// Im2col and Im2colWide maps only.
  Known ChannelsPerPixel;
  Known PixelsPerColumn;
  /// Im2colWide maps only.
  Known WideMode;
};

/// The load mode of a tensor copy, as far as the rules below tell modes
/// apart.
enum class CopyMode {
  Tile,
  Gather4,
  Scatter4,
  Im2col,
  Im2colNoOffs,
  Im2colW,
  Im2colW128
};

/// The bytes one tensor copy in mode \p M delivers to shared memory (and
/// to its mbarrier's transaction count) with map \p D: the whole box, out of
/// bounds elements included. std::nullopt when a needed value is unknown,
/// and where tma-rules.md marks the count UNCONFIRMED (interleaved maps,
/// packed types, the im2col::w modes).
Known tensorCopyBytes(const MapDescriptor &D, CopyMode M);

/// TMA-DIM-EQ-RANK: the N of `.Nd` equals the map's tensorRank (and is 2
/// for gather4/scatter4).
std::optional<DeviceViolation> checkTmaDimEqRank(Known Dims, Known Rank,
                                                 CopyMode M);

/// TMA-MODE-MATCHES-MAP: tile modes read tiled maps, im2col modes im2col
/// maps, im2col::w and im2col::w::128 Im2colWide maps of that mode.
std::optional<DeviceViolation> checkTmaModeMatchesMap(CopyMode M, MapEncoder E,
                                                      Known WideMode);

/// Which way a tensor copy moves data.
enum class CopyDirection { Load, Store, Reduce, Prefetch };

/// TMA-PACKED-DIRECTION: no tensor reduction of a packed sub-byte type, and
/// no store of 16U4_ALIGN16B (.b4x16_p64 is load-only).
std::optional<DeviceViolation> checkTmaPackedDirection(Known DataType,
                                                       CopyDirection Dir);

/// TMA-PACKED-COORD0: with a 16U4_ALIGN16B or 16U6_ALIGN16B map, the first
/// coordinate is a multiple of 128 (64 for 16U6 stores, sm_103a's
/// .b6p2x16, the weaker bound).
std::optional<DeviceViolation>
checkTmaPackedCoord0(Known DataType, CopyDirection Dir, Known Coord0);

/// TMA-STORE-COORD-ALIGN: in a tile-mode tensor store or reduction, the
/// innermost coordinate \p Coord0 times the element size of \p DataType is
/// a multiple of 16 bytes. Loads, other modes and the packed types are
/// silent (tma-rules.md 11.B: confirmed for stores only).
std::optional<DeviceViolation> checkTmaStoreCoordAlign(Known DataType,
                                                       CopyMode M,
                                                       CopyDirection Dir,
                                                       Known Coord0);

/// TMA-STORE-NONNEG (the map side): an .im2col_no_offs store or reduction
/// keeps the bounding box inside the tensor, so the map's
/// pixelBoxLowerCorner is non-negative and its pixelBoxUpperCorner
/// non-positive. \p Upper tells which corner the violation names.
std::optional<DeviceViolation> checkTmaStoreIm2colCorners(const MapDescriptor &D,
                                                          CopyMode M,
                                                          CopyDirection Dir,
                                                          bool &Upper);

/// TMA-GATHER4: a .tile::gather4 / .tile::scatter4 copy reads a map without
/// interleave whose boxDim[1] is 1 (its rank is TMA-DIM-EQ-RANK's).
std::optional<DeviceViolation> checkTmaGather4(const MapDescriptor &D,
                                               CopyMode M);

/// TMA-REDUCE-OP-TYPE: the reduction \p Op (PTX's spelling: "add", "min",
/// ...) is defined for the element type of the map's \p DataType.
std::optional<DeviceViolation> checkTmaReduceOpType(Known DataType,
                                                    const std::string &Op);

/// TMA-SMEM-ELEMTYPE: the element size \p ElemBytes of the shared-memory
/// buffer a tensor copy uses is the map's element size, or 1 (a byte
/// buffer). Silent for the packed types.
std::optional<DeviceViolation> checkTmaSmemElemType(Known DataType,
                                                    Known ElemBytes);

/// The PTX spelling of \p M, e.g. ".tile::gather4".
const char *copyModeName(CopyMode M);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_TENSORCOPYRULES_H
