//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// Header-only: the checker and <tma/validate.h> compile the same rules.
//
//===----------------------------------------------------------------------===//
//
// GPU targets as clang's --cuda-gpu-arch spells them (sm_90a), and which of
// them a TMA feature needs (tma-rules.md section 7). The rules that depend on
// the target take one as an input; an unknown target reports nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_RULES_TARGET_H
#define TMA_RULES_TARGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tma::rules {

/// A GPU target: sm_90a is compute capability 90 with the arch-specific
/// suffix 'a'; sm_100f is 100 with the family suffix 'f'.
struct GpuTarget {
  /// major * 10 + minor: 90, 100, 103, 120.
  unsigned Cc = 0;
  /// 0, 'a' (arch-specific: runs on this compute capability only) or 'f'
  /// (family-specific: runs on this major version only).
  char Suffix = 0;

  /// "sm_90a".
  std::string name() const {
    std::string S = "sm_" + std::to_string(Cc);
    if (Suffix)
      S += Suffix;
    return S;
  }
  /// "9.0".
  static std::string ccText(unsigned Cc) {
    return std::to_string(Cc / 10) + "." + std::to_string(Cc % 10);
  }
  /// True when code built for this target runs on no GPU of a newer compute
  /// capability: an arch-specific target (sm_90a). A plain target (sm_90)
  /// embeds PTX that the driver can compile for newer GPUs, and a family
  /// target (sm_100f) runs on the family's newer members.
  bool isNewestGpu() const { return Suffix == 'a'; }
};

/// The target \p Name designates ("sm_90a", "sm_100f", "sm_120"), or
/// std::nullopt for anything else (gfx targets, "compute_90", "").
inline std::optional<GpuTarget> parseGpuTarget(std::string_view Name) {
  if (Name.size() < 5 || Name.substr(0, 3) != "sm_")
    return std::nullopt;
  GpuTarget T;
  std::size_t I = 3;
  for (; I < Name.size() && Name[I] >= '0' && Name[I] <= '9'; ++I) {
    T.Cc = T.Cc * 10 + static_cast<unsigned>(Name[I] - '0');
    if (T.Cc > 10000)
      return std::nullopt;
  }
  if (I == 3 || T.Cc < 10)
    return std::nullopt;
  if (I + 1 == Name.size() && (Name[I] == 'a' || Name[I] == 'f'))
    T.Suffix = Name[I++];
  if (I != Name.size())
    return std::nullopt;
  return T;
}

/// The newest GPU a descriptor can be used on, from what a compilation
/// builds device code for: \p ArchList is `__CUDA_ARCH_LIST__` ("900,1000",
/// clang and nvcc define it in every pass, without suffixes), \p Pass the
/// device pass's own target (clang's -target-cpu), when there is one.
///
/// A descriptor encoded in host code is read by a kernel of the same
/// program, on the GPU it runs on: when the newest listed architecture is
/// arch-specific (sm_90a), no kernel of the compilation runs on a newer GPU.
/// Only the device pass of that architecture knows its suffix, so only that
/// pass gets an answer (one pass reports; the host pass and plain targets,
/// whose PTX the driver can compile for newer GPUs, get std::nullopt).
inline std::optional<GpuTarget>
newestEncodeTarget(std::string_view ArchList,
                   const std::optional<GpuTarget> &Pass) {
  if (!Pass || !Pass->isNewestGpu() || ArchList.empty())
    return std::nullopt;
  unsigned Newest = 0;
  std::size_t I = 0;
  while (I < ArchList.size()) {
    unsigned V = 0;
    std::size_t Start = I;
    for (; I < ArchList.size() && ArchList[I] >= '0' && ArchList[I] <= '9';
         ++I) {
      V = V * 10 + static_cast<unsigned>(ArchList[I] - '0');
      if (V > 100000)
        return std::nullopt;
    }
    if (I == Start)
      return std::nullopt;
    // __CUDA_ARCH_LIST__ counts major * 100 + minor * 10.
    if (V % 10)
      return std::nullopt;
    Newest = V / 10 > Newest ? V / 10 : Newest;
    if (I < ArchList.size() &&
        (ArchList[I++] != ',' || I == ArchList.size()))
      return std::nullopt;
  }
  if (Newest != Pass->Cc)
    return std::nullopt;
  return Pass;
}

} // namespace tma::rules

#endif // TMA_RULES_TARGET_H
