//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The sites of tma-tensor-map-placement as a whole. A placement site is a
// variable that holds a tensor map: where the map is stored and where its
// address goes (api/PlacementFacts follows it through api/MapUses) go in,
// every violation comes out, naming the fact it is about
// (TMAP-PLACE-GRID-CONSTANT, TMA-MAP-STATE-SPACE, TMAP-DEV-READONLY-PARAM,
// TMAP-PLACE-GLOBAL-FENCE). A replace site is the new value that a
// tensormap.replace writes, in one call-site context
// (TMAP-DEV-REPLACE-ENCODING). A new rule of a site is one function in
// rules/ plus its line in the entry point.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_PLACEMENTSITE_H
#define TMA_TIDY_RULES_PLACEMENTSITE_H

#include "rules/DeviceRules.h"
#include "rules/FormRules.h"
#include "rules/TensorMapRules.h"

#include <vector>

namespace tma::rules {

/// Where the address of one stored map goes. api/ follows the uses that a
/// rule of the storage reads, and leaves the others false: a by-value
/// kernel parameter and a map in global memory to any TMA operation; a
/// local, `__shared__` or by-value `__device__` parameter copy to a tensor
/// copy (tensormap.* legitimately works on such copies); a
/// `__grid_constant__` parameter to a write of the map.
struct MapPlacementFacts {
  MapStorage Storage = MapStorage::Global;
  /// The address provably reaches a TMA operation that reads the map.
  bool ReachesRead = false;
  /// That operation is a tensor copy or prefetch: it reads the map through
  /// the tensormap proxy.
  bool ReadByTensorCopy = false;
  /// The address provably reaches the map operand of tensormap.replace or
  /// the destination of tensormap.cp_fenceproxy.
  bool ReachesWrite = false;
  /// The kernel may execute fence.proxy.tensormap::generic.acquire (asked
  /// only of a map in global memory read by a tensor copy; a call the
  /// search cannot see into may).
  bool KernelMayFence = true;
};

/// The fact of a placement site a violation is about, which says where it
/// is reported: the variable (Read), the first statement of the path to
/// the write (Write), the read of a map in global memory with the kernel
/// that does not fence it (Fence).
enum class PlacementFact { Read, Write, Fence };

struct PlacementViolation {
  DeviceViolation Violation;
  PlacementFact About;
};

/// Every rule of a placement site, in this order: TMAP-PLACE-GRID-CONSTANT,
/// TMA-MAP-STATE-SPACE, TMAP-DEV-READONLY-PARAM, TMAP-PLACE-GLOBAL-FENCE.
std::vector<PlacementViolation> checkMapPlacement(const MapPlacementFacts &F);

/// The new value a tensormap.replace writes into a field, in one context.
struct ReplaceValueFacts {
  ReplaceField Field = ReplaceField::GlobalAddress;
  /// The value; unknown when it does not fold.
  Known Value;
  /// The driver enum the value was written as (its enumerator or a value
  /// of its type), or None.
  DriverEnum AsWritten = DriverEnum::None;
};

/// Every rule of a replace site (each about the new value):
/// TMAP-DEV-REPLACE-ENCODING.
std::vector<DeviceViolation> checkReplaceValue(const ReplaceValueFacts &F);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_PLACEMENTSITE_H
