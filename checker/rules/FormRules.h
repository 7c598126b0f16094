//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of one device instruction's own form and operands that need no
// tensor map (tma-rules.md sections 2, 3 and 11.B): the PTX 9.2-9.4 operands
// (.ignore_oob counts, .layout::v1 init counts, st.bulk), reduction
// operators against element types and modes, tensor-store coordinates,
// im2col operands, and multicast masks against the cluster. One function per
// rule id; each reads only known values and stays silent otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_FORMRULES_H
#define TMA_TIDY_RULES_FORMRULES_H

#include "rules/DeviceRules.h"
#include "rules/TensorCopyRules.h"
#include "rules/Target.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tma::rules {

/// The largest .ignore_oob byte count (PTX 9.2).
constexpr std::uint64_t MaxIgnoreOobBytes = 15;
/// The largest arrival count of a .layout::v1 mbarrier (PTX 9.3).
constexpr std::uint64_t MaxLayoutV1Count = 511;
/// The largest st.bulk size, in bytes (16 MiB).
constexpr std::uint64_t MaxStBulkBytes = std::uint64_t{1} << 24;

/// BULK-IGNORE-OOB: ignoreBytesLeft (\p Right false) or ignoreBytesRight
/// of cp.async.bulk.ignore_oob is in [0, 15].
std::optional<DeviceViolation> checkBulkIgnoreOob(Known Bytes, bool Right);

/// MBAR-INIT-COUNT-LAYOUT: the arrival count of mbarrier.init.layout::v1 is
/// in [1, 511].
std::optional<DeviceViolation> checkMbarInitCountLayout(Known Count);

/// BULK-ST-SIZE: st.bulk's size is a non-zero multiple of 8 bytes, at most
/// 16 MiB, and its initval is 0. \p Size is a 64-bit operand.
std::optional<DeviceViolation> checkBulkStSize(Known Size, Known InitValue);

/// Where a 1-D bulk reduction writes.
enum class BulkReduceDst { SharedCluster, Global };

/// BULK-REDUCE-OP-TYPE: the .redOp / .type pair of cp.reduce.async.bulk is
/// one that PTX defines for the destination \p Dst, and .add.f16/.add.bf16
/// carry .noftz. \p Op and \p Type in PTX's spelling without the dot ("add",
/// "f32"); an empty Type (a wrapper that does not name it) is unknown.
std::optional<DeviceViolation> checkBulkReduceOpType(BulkReduceDst Dst,
                                                     const std::string &Op,
                                                     const std::string &Type,
                                                     bool NoFtz);

/// TMA-REDUCE-MODE: a tensor reduction is never .tile::scatter4.
std::optional<DeviceViolation> checkTmaReduceMode(CopyMode M);

/// TMA-STORE-NONNEG: coordinate \p Index of a tensor store or reduction is
/// non-negative. \p Coord is the 32-bit operand's bit pattern.
std::optional<DeviceViolation> checkTmaStoreNonneg(std::size_t Index,
                                                   Known Coord);

/// TMA-IM2COL-INFO: an .im2col load or prefetch is at least .3d and passes
/// dim-2 offsets, each in [0, 2^16-1] (3d), [0, 2^8-1] (4d) or [0, 2^5-1]
/// (5d); an .im2col::w / .im2col::w::128 one passes {wHalo, wOffset} with
/// wHalo < 512 (w) or < 32 (w::128) and wOffset < 32. \p Info holds the
/// operands as written (16-bit values); other modes are silent.
std::optional<DeviceViolation>
checkTmaIm2colInfo(CopyMode M, Known Dims, const std::vector<Known> &Info);

/// BULK-MULTICAST: every bit set in the 16-bit ctaMask names a CTA of the
/// cluster: bit i < \p ClusterSize (the product of __cluster_dims__).
std::optional<DeviceViolation> checkBulkMulticast(Known CtaMask,
                                                  Known ClusterSize);

/// TMA-OVERRIDE-ATTR (the address): gAddrToOverride of a tensor copy with
/// .override::global_address (PTX 9.4) is 16-byte aligned. \p AddressAlign
/// is its proven alignment (a device allocation plus a constant offset).
std::optional<DeviceViolation> checkTmaOverrideAddrAlign(Known AddressAlign);

/// TMA-OVERRIDE-ATTR (the form): .override_attribute is written together
/// with .override::global_address, and only in tile mode.
std::optional<DeviceViolation>
checkTmaOverrideForm(bool AttributeOverride, bool AddressOverride, CopyMode M);

/// Where the tensor map that a tensor copy's tensorMap operand points to is
/// stored.
enum class MapStorage {
  GridConstantParam, ///< a const __grid_constant__ kernel parameter (.param)
  Constant,          ///< a __constant__ variable (.const)
  Global,            ///< global memory
  KernelParamCopy,   ///< a by-value kernel parameter without
                     ///< __grid_constant__ (TMAP-PLACE-GRID-CONSTANT)
  Local,             ///< a local variable: a copy in local memory
  DeviceParamCopy,   ///< a by-value parameter of a __device__ function
  Shared,            ///< a __shared__ variable
};

/// TMA-MAP-STATE-SPACE: the map a tensor copy reads is in .param, .const or
/// .global memory: not a local copy, not a by-value __device__ parameter,
/// not shared memory. (A by-value kernel parameter is
/// TMAP-PLACE-GRID-CONSTANT's.)
std::optional<DeviceViolation> checkTmaMapStateSpace(MapStorage S);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_FORMRULES_H
