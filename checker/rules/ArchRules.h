//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The device rows of tma-rules.md section 7: which instruction forms a GPU
// target has. The target is the device pass's own (each CUDA pass its own,
// clang's -target-cpu with its 'a' suffix); an unknown target (the host
// pass) reports nothing. A form is either plain (every target from a compute
// capability on: sm_90 and newer) or arch-specific (only the 'a' targets the
// PTX ISA lists and the 'f' families it lists, and the 'a' targets of those
// families, which include the family's features).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ARCHRULES_H
#define TMA_TIDY_RULES_ARCHRULES_H

#include "rules/DeviceRules.h"
#include "tma/rules/Target.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tma::rules {

/// The forms of section 7 a device instruction can use.
enum class DeviceFeature {
  /// cp.async.bulk{.tensor}, cp.reduce.async.bulk{.tensor}, their prefetch
  /// forms and the bulk-group commit / wait: sm_90.
  BulkAsync,
  /// mbarrier.init / arrive / test_wait / inval: sm_80.
  MbarrierBasic,
  /// mbarrier.try_wait, expect_tx, complete_tx, .cluster scope and
  /// .shared::cluster barriers: sm_90.
  MbarrierTx,
  /// fence.proxy.async, fence.mbarrier_init, fence.proxy.tensormap::generic,
  /// tensormap.cp_fenceproxy, prefetch.tensormap: sm_90.
  ProxyFence,
  /// tensormap.replace: sm_90a, sm_100a, sm_101a/110a, sm_120a and the
  /// families; never a plain target.
  TensormapReplace,
  /// cp.async.bulk ... .cp_mask (BULK-CPMASK): sm_100.
  CpMask,
  /// st.bulk: sm_100.
  StBulk,
  /// .tile::gather4 load into .shared::cta (TMA-GATHER4): sm_100.
  Gather4Cta,
  /// .tile::gather4 load into .shared::cluster (TMA-GATHER4): sm_100a and
  /// the sm_100 / sm_110 families.
  Gather4Cluster,
  /// .tile::scatter4 store (TMA-GATHER4): sm_100a/110a and the families.
  Scatter4,
  /// .im2col::w load into .shared::cta: sm_100.
  Im2colWCta,
  /// .im2col::w load into .shared::cluster: sm_100a and the families.
  Im2colWCluster,
  /// .im2col::w::128: sm_100a/110a and the families.
  Im2colW128,
  /// prefetch.tensor .tile::gather4 (TMA-GATHER4): sm_100a/110a, families.
  PrefetchGather4,
  /// prefetch.tensor .im2col::w / .im2col::w::128: sm_100a/110a, families.
  PrefetchIm2colW,
  /// .cta_group::1 / ::2 (TMA-CTA-GROUP): sm_100a/110a and the families.
  CtaGroup,
  /// .multicast::cluster in inline PTX: legal on sm_90, but ptxas advises
  /// an 'a' target ("should be used on .target sm_90a/sm_100a/...").
  MulticastAdvised,
};

/// The PTX spelling of \p F, e.g. ".tile::gather4 into .shared::cluster".
const char *deviceFeatureName(DeviceFeature F);

/// The rule id a violation of \p F is reported under: BULK-CPMASK,
/// TMA-GATHER4, TMA-CTA-GROUP, or TMA-ARCH (tma-tidy's own id for the rows
/// without a rule of their own).
const char *deviceFeatureRule(DeviceFeature F);

/// Whether target \p T has \p F (section 7 as the catalogue states it).
/// For the forms whose target list is uncertain beyond the catalogue's the
/// answer leans to "has" (silence over guesses).
bool targetHasFeature(DeviceFeature F, const GpuTarget &T);

/// The section 7 rule for \p F on target \p T: a violation naming the
/// target when T is known and lacks F; std::nullopt otherwise. The message
/// names the form \p Form (an opcode as written) or, when empty, F's name.
std::optional<DeviceViolation>
checkDeviceFeatureArch(DeviceFeature F, const std::optional<GpuTarget> &T,
                       std::string_view Form = {});

/// TMA-ARCH for a CCCL wrapper \p Library (`cuda::ptx::...`) that its
/// header compiles, on target \p T, to a call of the extern \p Stub
/// (`__cuda_ptx_<name>_is_not_supported_before_<SM>__`), which no library
/// defines: the link fails. The message names the targets the stub's name
/// lists.
DeviceViolation checkLibraryStubArch(std::string_view Library,
                                     std::string_view Stub,
                                     const GpuTarget &T);

/// TMAP-ENC-ARCH's target for one map encoded in host code: the newest GPU
/// the translation unit's kernels run on (\p UnitTarget, newestEncodeTarget)
/// applies only to a map that a launch of this translation unit passes to a
/// kernel it compiles (\p ReadByOwnKernel). Any other map may be read by
/// kernels built elsewhere for newer GPUs (a Hopper dispatch file encoding
/// maps for Blackwell kernels): no target, the rule is silent.
std::optional<GpuTarget> mapEncodeTarget(const std::optional<GpuTarget> &UnitTarget,
                                         bool ReadByOwnKernel);

/// The features of one PTX instruction, from its opcode with every
/// qualifier ("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4
/// .mbarrier::complete_tx::bytes"). Instructions outside section 7 have
/// none.
std::vector<DeviceFeature> featuresOfOpcode(std::string_view Opcode);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ARCHRULES_H
