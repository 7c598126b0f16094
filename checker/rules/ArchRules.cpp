//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/ArchRules.h"

#include <string>

namespace tma::rules {

/// The compute capability every form of DeviceFeature needs.
static constexpr unsigned BlackwellCc = 100;

const char *deviceFeatureName(DeviceFeature F) {
  switch (F) {
  case DeviceFeature::CpMask:
    return ".cp_mask";
  case DeviceFeature::Im2colW:
    return ".im2col::w";
  case DeviceFeature::Im2colW128:
    return ".im2col::w::128";
  }
  return "?";
}

std::optional<DeviceViolation>
checkDeviceFeatureArch(DeviceFeature F, const std::optional<GpuTarget> &T) {
  if (!T || T->Cc >= BlackwellCc)
    return std::nullopt;
  const char *Id = F == DeviceFeature::CpMask ? "BULK-CPMASK" : "TMA-ARCH";
  // PTX ISA: .cp_mask needs sm_100; the others sm_100a / sm_100f and the
  // arch- or family-specific targets after it.
  std::string Needs = F == DeviceFeature::CpMask
                          ? "sm_100 or newer"
                          : "an arch- or family-specific target of compute "
                            "capability 10.0 or newer (sm_100a, sm_100f, "
                            "sm_110a, ...)";
  return DeviceViolation{Id,
                         DeviceParam::LoadMode,
                         T->Cc,
                         BlackwellCc,
                         std::string(deviceFeatureName(F)) +
                             " is not supported on " + T->name() +
                             ", the target of this device pass; it needs " +
                             Needs,
                         "build this kernel for " +
                             std::string(F == DeviceFeature::CpMask
                                             ? "sm_100"
                                             : "sm_100a") +
                             ", or guard the code with #if __CUDA_ARCH__ >= "
                             "1000"};
}

} // namespace tma::rules
