//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/EncodeSite.h"
#include "rules/ArchRules.h"
#include "rules/TensorMapRules.h"

#include <algorithm>
#include <string_view>

namespace tma::rules {

/// The rules of the entry point \p S was folded for.
static std::vector<Violation> checkEntry(const EncodeSite &S,
                                         const EncodeRuleOptions &Opts) {
  switch (S.Entry) {
  case EncodeEntry::Tiled:
    return checkTiled(S.Desc, Opts);
  case EncodeEntry::Im2col:
    return checkIm2col(S.Im2col, Opts);
  case EncodeEntry::Im2colWide:
    return checkIm2colWide(S.Wide, Opts);
  case EncodeEntry::ReplaceAddress:
    return checkReplaceAddressAlign(S.Desc.GlobalAddressAlign,
                                    S.Desc.Interleave, S.Desc.DataType);
  }
  return {};
}

std::vector<Violation>
checkEncodeSite(const EncodeSite &S, const EncodeRuleOptions &Opts,
                LazyAnswer ReadByOwnKernel) {
  std::vector<Violation> Out = checkEntry(S, Opts);
  // TMAP-ENC-ARCH: the unit's target applies only to a map its own kernels
  // read (mapEncodeTarget); asked only when it matters.
  if (!ReadByOwnKernel ||
      std::none_of(Out.begin(), Out.end(), [](const Violation &V) {
        return V.RuleId == std::string_view("TMAP-ENC-ARCH");
      }))
    return Out;
  const std::optional<GpuTarget> &UnitTarget =
      S.Entry == EncodeEntry::Im2col       ? S.Im2col.Target
      : S.Entry == EncodeEntry::Im2colWide ? S.Wide.Target
                                           : S.Desc.Target;
  if (mapEncodeTarget(UnitTarget, ReadByOwnKernel()))
    return Out;
  EncodeSite Untargeted = S;
  Untargeted.Desc.Target = std::nullopt;
  Untargeted.Im2col.Target = std::nullopt;
  Untargeted.Wide.Target = std::nullopt;
  return checkEntry(Untargeted, Opts);
}

} // namespace tma::rules
