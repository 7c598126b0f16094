//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The device rows of tma-rules.md section 7: instruction forms that a target
// below compute capability 10.0 does not have. The target is the device
// pass's own (each CUDA pass its own); an unknown target reports nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ARCHRULES_H
#define TMA_TIDY_RULES_ARCHRULES_H

#include "rules/DeviceRules.h"
#include "tma/rules/Target.h"

#include <optional>

namespace tma::rules {

/// Device-op forms of section 7 that need a Blackwell target and have no
/// rule of their own (TMA-GATHER4 and TMA-CTA-GROUP check their target
/// parts in rules/FormRules.h).
enum class DeviceFeature {
  /// cp.async.bulk ... .cp_mask (BULK-CPMASK): sm_100 or newer.
  CpMask,
  /// cp.async.bulk{.prefetch}.tensor .im2col::w / .im2col::w::128
  /// (TMA-ARCH).
  Im2colW,
  Im2colW128,
};

/// The PTX spelling of \p F, e.g. ".tile::gather4".
const char *deviceFeatureName(DeviceFeature F);

/// The section 7 rule for \p F on target \p T: a violation when T is known
/// and below compute capability 10.0, where none of these forms exists. On
/// sm_100 and newer the finer rules (which of sm_100a, sm_100f, sm_110a,
/// sm_120a has which form and destination) are not modelled: silent.
std::optional<DeviceViolation>
checkDeviceFeatureArch(DeviceFeature F, const std::optional<GpuTarget> &T);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ARCHRULES_H
