//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of device-side tensor-map modification (tma-rules.md section
// 5): where a map may be rewritten in place, and what the operands of
// tensormap.replace mean. One function per rule id; each reads only known
// values and stays silent otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_TENSORMAPRULES_H
#define TMA_TIDY_RULES_TENSORMAPRULES_H

#include "rules/DeviceRules.h"
#include "rules/FormRules.h"
#include "rules/Violation.h"

#include <optional>
#include <vector>

namespace tma::rules {

/// TMAP-DEV-READONLY-PARAM: a tensormap.replace (or tensormap.cp_fenceproxy)
/// writes the map stored in \p S in place. Modifying a `__grid_constant__`
/// kernel parameter is undefined behaviour; the other storages are not this
/// rule's (TMA-MAP-STATE-SPACE and TMAP-PLACE-* judge where a map is read).
std::optional<DeviceViolation> checkDevReadonlyParam(MapStorage S);

/// TMAP-PLACE-GRID-CONSTANT: a map kept in a by-value kernel parameter
/// without `const __grid_constant__` (\p S is KernelParamCopy) is a copy
/// in local memory, which TMA cannot read: reported when its address
/// \p ReachesTma, a TMA operation. The message's subject is the parameter;
/// the fix-it is the suggestion.
std::optional<DeviceViolation> checkPlaceGridConstant(MapStorage S,
                                                      bool ReachesTma);

/// TMAP-PLACE-GLOBAL-FENCE: a map in global memory (\p S is Global) that a
/// tensor copy reads (\p ReadByTensorCopy) needs a tensormap acquire fence
/// in the kernel first; silent when the kernel \p MayFence. The message's
/// subject is the kernel ("<kernel> executes no ..."); the suggestion is
/// the fence.
std::optional<DeviceViolation>
checkPlaceGlobalFence(MapStorage S, bool ReadByTensorCopy, bool MayFence);

/// The field of tensormap.replace (PTX ISA, tensormap.replace, Table 33).
enum class ReplaceField {
  GlobalAddress,
  Rank,
  BoxDim,
  GlobalDim,
  GlobalStride,
  ElementStride,
  ElemType,
  InterleaveLayout,
  SwizzleMode,
  SwizzleAtomicity,
  FillMode,
};

/// PTX's spelling of \p F, e.g. "elemtype".
const char *replaceFieldName(ReplaceField F);

/// The driver enum whose type the new value was written with (its
/// enumerator or a value of its type), or None.
enum class DriverEnum { None, DataType, Interleave, Swizzle, FloatOobFill };

/// TMAP-DEV-REPLACE-ENCODING: \p Value, written into field \p F by
/// tensormap.replace, is a valid code of that field and, when it was written
/// as a value of the driver enum \p From, means there what the driver enum
/// means. The codes differ from CUtensorMapDataType at 8, 9 and 10 and from
/// CUtensorMapSwizzle at 4, 5 and 6; `.rank` takes the rank minus one, so it
/// is at most 4. Fields without a closed code set are never reported.
std::optional<DeviceViolation>
checkReplaceEncoding(ReplaceField F, Known Value,
                     DriverEnum From = DriverEnum::None);

/// TMAP-REPLACE-ADDR-ALIGN: the new globalAddress of
/// cuTensorMapReplaceAddress follows the encode's alignment requirement
/// (TMAP-ENC-GADDR-ALIGN): 16 bytes, and 32 when the map was encoded with
/// INTERLEAVE_32B or a 16U4/16U6_ALIGN16B type. The call does not show the
/// map's operands: \p Interleave and \p DataType are those of the encode
/// call that wrote the map, when it is linked; unknown asks for 16 bytes.
/// \p ProvenAlign: the largest power of two the address is proven to be a
/// multiple of only (folding's provenAlign); unknown is silent.
std::vector<Violation> checkReplaceAddressAlign(Known ProvenAlign,
                                                Known Interleave = std::nullopt,
                                                Known DataType = std::nullopt);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_TENSORMAPRULES_H
