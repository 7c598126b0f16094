//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/ArchRules.h"
#include "rules/PtxWords.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>

namespace tma::rules {

namespace {

/// Which targets have a form: every target from PlainCc on (0: none), the
/// 'a' targets of ArchCcs, and the 'a' and 'f' targets of the families
/// (major versions) of Families.
struct Availability {
  unsigned PlainCc = 0;
  /// Zero entries are unused.
  std::array<unsigned, 3> ArchCcs;
  std::array<unsigned, 3> Families;
  /// What the message says the form needs.
  const char *Needs;
  /// The target the fix suggests.
  const char *BuildFor;
};

/// The Blackwell data-centre forms: sm_100a, sm_101a (= sm_110a), sm_103a
/// and the sm_100f / sm_110f families. The PTX ISA names sm_100a (and
/// sm_100f from PTX 8.8) for some of them, sm_101a for others; the family
/// 11 targets are counted as having all of them (silence over guesses).
constexpr const char *BlackwellNeeds =
    "an arch- or family-specific target of compute capability 10.x or 11.x "
    "(sm_100a, sm_103a, sm_110a, sm_100f, sm_110f)";

Availability availability(DeviceFeature F) {
  switch (F) {
  case DeviceFeature::BulkAsync:
  case DeviceFeature::MbarrierTx:
  case DeviceFeature::ProxyFence:
    return {90, {}, {}, "sm_90 or newer", "sm_90a"};
  case DeviceFeature::MbarrierBasic:
    return {80, {}, {}, "sm_80 or newer", "sm_80"};
  case DeviceFeature::TensormapReplace:
    return {0,
            {90},
            {10, 11, 12},
            "an arch-specific target (sm_90a, sm_100a, sm_103a, sm_110a, "
            "sm_120a) or a family target (sm_100f, sm_110f, sm_120f); no "
            "plain target has it",
            "sm_90a"};
  case DeviceFeature::CpMask:
  case DeviceFeature::StBulk:
  case DeviceFeature::Gather4Cta:
  case DeviceFeature::Im2colWCta:
    return {100, {}, {}, "sm_100 or newer", "sm_100"};
  case DeviceFeature::Gather4Cluster:
  case DeviceFeature::Scatter4:
  case DeviceFeature::Im2colWCluster:
  case DeviceFeature::Im2colW128:
  case DeviceFeature::PrefetchGather4:
  case DeviceFeature::PrefetchIm2colW:
  case DeviceFeature::CtaGroup:
    return {0, {}, {10, 11}, BlackwellNeeds, "sm_100a"};
  case DeviceFeature::MulticastAdvised:
    break;
  }
  return {0, {}, {}, "", ""};
}

bool contains(const std::array<unsigned, 3> &L, unsigned V) {
  return V && std::find(L.begin(), L.end(), V) != L.end();
}

} // namespace

const char *deviceFeatureName(DeviceFeature F) {
  switch (F) {
  case DeviceFeature::BulkAsync:
    return "cp.async.bulk";
  case DeviceFeature::MbarrierBasic:
    return "mbarrier";
  case DeviceFeature::MbarrierTx:
    return "mbarrier transaction counts and cluster scope";
  case DeviceFeature::ProxyFence:
    return "the async-proxy and tensormap fences";
  case DeviceFeature::TensormapReplace:
    return "tensormap.replace";
  case DeviceFeature::CpMask:
    return ".cp_mask";
  case DeviceFeature::StBulk:
    return "st.bulk";
  case DeviceFeature::Gather4Cta:
    return ".tile::gather4 into .shared::cta";
  case DeviceFeature::Gather4Cluster:
    return ".tile::gather4 into .shared::cluster";
  case DeviceFeature::Scatter4:
    return ".tile::scatter4";
  case DeviceFeature::Im2colWCta:
    return ".im2col::w into .shared::cta";
  case DeviceFeature::Im2colWCluster:
    return ".im2col::w into .shared::cluster";
  case DeviceFeature::Im2colW128:
    return ".im2col::w::128";
  case DeviceFeature::PrefetchGather4:
    return ".tile::gather4 prefetch";
  case DeviceFeature::PrefetchIm2colW:
    return ".im2col::w prefetch";
  case DeviceFeature::CtaGroup:
    return ".cta_group";
  case DeviceFeature::MulticastAdvised:
    return ".multicast::cluster";
  }
  return "?";
}

const char *deviceFeatureRule(DeviceFeature F) {
  switch (F) {
  case DeviceFeature::CpMask:
    return "BULK-CPMASK";
  case DeviceFeature::Gather4Cta:
  case DeviceFeature::Gather4Cluster:
  case DeviceFeature::Scatter4:
  case DeviceFeature::PrefetchGather4:
    return "TMA-GATHER4";
  case DeviceFeature::CtaGroup:
    return "TMA-CTA-GROUP";
  default:
    return "TMA-ARCH";
  }
}

bool targetHasFeature(DeviceFeature F, const GpuTarget &T) {
  // ptxas 13.0 on sm_90: "Advisory: '.multicast::cluster' modifier ...
  // should be used on .target 'sm_90a/sm_100a/...' instead of .target
  // 'sm_90'". Other plain targets are not confirmed: they count as having
  // it.
  if (F == DeviceFeature::MulticastAdvised)
    return !(T.Cc == 90 && T.Suffix == 0);
  Availability A = availability(F);
  if (A.PlainCc && T.Cc >= A.PlainCc)
    return true;
  if (!T.Suffix)
    return false;
  if (T.Suffix == 'a' && contains(A.ArchCcs, T.Cc))
    return true;
  // A family target sm_100f has the family's forms; an 'a' target has its
  // family's too (sm_103a includes sm_103f, which includes sm_100f).
  return contains(A.Families, T.Cc / 10);
}

std::optional<DeviceViolation>
checkDeviceFeatureArch(DeviceFeature F, const std::optional<GpuTarget> &T,
                       std::string_view Form) {
  if (!T || targetHasFeature(F, *T))
    return std::nullopt;
  const std::string Target = T->name();
  if (F == DeviceFeature::MulticastAdvised)
    return DeviceViolation{
        deviceFeatureRule(F), DeviceParam::LoadMode, T->Cc, T->Cc,
        ".multicast::cluster on " + Target +
            ", the target of this device pass: ptxas advises using it on "
            "sm_90a, sm_100a, sm_100f, sm_103a, sm_103f, sm_110a or sm_110f "
            "instead",
        "build this kernel for sm_90a"};
  Availability A = availability(F);
  std::string Guard =
      A.PlainCc ? "#if __CUDA_ARCH__ >= " + std::to_string(A.PlainCc * 10)
      : F == DeviceFeature::TensormapReplace
          ? std::string("#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || "
                        "defined(__CUDA_ARCH_FEAT_SM100_ALL)")
          : std::string("#if defined(__CUDA_ARCH_FEAT_SM100_ALL)");
  return DeviceViolation{deviceFeatureRule(F),
                         DeviceParam::LoadMode,
                         T->Cc,
                         A.PlainCc ? A.PlainCc : 100,
                         (Form.empty() ? std::string(deviceFeatureName(F))
                                       : std::string(Form)) +
                             " is not supported on " + Target +
                             ", the target of this device pass; it needs " +
                             A.Needs,
                         "build this kernel for " + std::string(A.BuildFor) +
                             ", or guard the code with " + Guard};
}

std::optional<GpuTarget>
mapEncodeTarget(const std::optional<GpuTarget> &UnitTarget,
                bool ReadByOwnKernel) {
  if (!ReadByOwnKernel)
    return std::nullopt;
  return UnitTarget;
}

std::vector<DeviceFeature> featuresOfOpcode(std::string_view Opcode) {
  std::vector<std::string_view> P = splitDots(Opcode);
  std::vector<DeviceFeature> F;
  auto Has = [&](std::string_view Q) {
    return std::find(P.begin() + 1, P.end(), Q) != P.end();
  };
  auto StartsWith = [&](std::initializer_list<std::string_view> Prefix) {
    if (P.size() < Prefix.size())
      return false;
    return std::equal(Prefix.begin(), Prefix.end(), P.begin());
  };
  if (P.empty())
    return F;
  if (StartsWith({"cp", "async", "bulk"}) ||
      StartsWith({"cp", "reduce", "async", "bulk"})) {
    F.push_back(DeviceFeature::BulkAsync);
    const bool Prefetch = Has("prefetch");
    // The destination is the first state space written.
    bool DstCta = false;
    for (std::string_view Q : P)
      if (Q == "shared::cta" || Q == "shared::cluster" || Q == "global") {
        DstCta = Q == "shared::cta";
        break;
      }
    if (Has("cp_mask"))
      F.push_back(DeviceFeature::CpMask);
    if (Has("tile::gather4"))
      F.push_back(Prefetch ? DeviceFeature::PrefetchGather4
                  : DstCta ? DeviceFeature::Gather4Cta
                           : DeviceFeature::Gather4Cluster);
    if (Has("tile::scatter4"))
      F.push_back(DeviceFeature::Scatter4);
    if (Has("im2col::w"))
      F.push_back(Prefetch ? DeviceFeature::PrefetchIm2colW
                  : DstCta ? DeviceFeature::Im2colWCta
                           : DeviceFeature::Im2colWCluster);
    if (Has("im2col::w::128"))
      F.push_back(Prefetch ? DeviceFeature::PrefetchIm2colW
                           : DeviceFeature::Im2colW128);
    if (Has("cta_group::1") || Has("cta_group::2"))
      F.push_back(DeviceFeature::CtaGroup);
    if (Has("multicast::cluster"))
      F.push_back(DeviceFeature::MulticastAdvised);
    return F;
  }
  if (P[0] == "mbarrier" && P.size() >= 2) {
    const bool Tx = P[1] == "try_wait" || P[1] == "expect_tx" ||
                    P[1] == "complete_tx" || Has("expect_tx") ||
                    Has("cluster") || Has("shared::cluster") ||
                    Has("relaxed");
    F.push_back(Tx ? DeviceFeature::MbarrierTx : DeviceFeature::MbarrierBasic);
    return F;
  }
  if (StartsWith({"fence", "proxy", "async"}) ||
      StartsWith({"fence", "mbarrier_init"}) ||
      StartsWith({"fence", "proxy", "tensormap::generic"}) ||
      StartsWith({"tensormap", "cp_fenceproxy"}) ||
      (P[0] == "prefetch" && Has("tensormap"))) {
    F.push_back(DeviceFeature::ProxyFence);
    return F;
  }
  if (StartsWith({"tensormap", "replace"}))
    F.push_back(DeviceFeature::TensormapReplace);
  else if (StartsWith({"st", "bulk"}))
    F.push_back(DeviceFeature::StBulk);
  return F;
}

/// "SM_90a_SM_100a_SM_101a" of a stub's name as "sm_90a, sm_100a, sm_101a".
static std::string stubTargets(std::string_view Name) {
  const std::string_view Before = "_is_not_supported_before_";
  std::size_t At = Name.find(Before);
  if (At == std::string_view::npos)
    return "";
  std::string_view List = Name.substr(At + Before.size());
  while (!List.empty() && List.back() == '_')
    List.remove_suffix(1);
  std::string Text;
  for (;;) {
    std::size_t Sep = List.find("_SM_");
    std::string_view P = List.substr(0, Sep);
    if (P.substr(0, 3) == "SM_")
      P.remove_prefix(3);
    if (!P.empty())
      Text += (Text.empty() ? "sm_" : ", sm_") + std::string(P);
    if (Sep == std::string_view::npos)
      return Text;
    List.remove_prefix(Sep + 4);
  }
}

DeviceViolation checkLibraryStubArch(std::string_view Library,
                                     std::string_view Stub,
                                     const GpuTarget &T) {
  std::string Supported = stubTargets(Stub);
  return DeviceViolation{
      "TMA-ARCH", DeviceParam::LoadMode, T.Cc, 0,
      std::string(Library) + " is not supported on " + T.name() +
          ", the target of this device pass: its header compiles it to a "
          "call of '" +
          std::string(Stub) + "', which no library defines, and the link fails" +
          (Supported.empty() ? ""
                             : " (the header has it for " + Supported + ")"),
      Supported.empty()
          ? std::string("guard the call with #if for the targets that have it")
          : "build this kernel for " + Supported.substr(0, Supported.find(',')) +
                ", or guard the call with #if for the targets that have it"};
}

} // namespace tma::rules
