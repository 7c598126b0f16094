//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/TargetSite.h"
#include "rules/FormRules.h"

#include <algorithm>
#include <iterator>

namespace tma::rules {

namespace {

/// The dot-separated parts of \p Opcode.
std::vector<std::string_view> partsOf(std::string_view Opcode) {
  std::vector<std::string_view> Parts;
  for (;;) {
    std::size_t Dot = Opcode.find('.');
    Parts.push_back(Opcode.substr(0, Dot));
    if (Dot == std::string_view::npos)
      return Parts;
    Opcode.remove_prefix(Dot + 1);
  }
}

bool contains(const std::vector<std::string_view> &Parts,
              std::string_view P) {
  return std::find(Parts.begin(), Parts.end(), P) != Parts.end();
}

/// The load mode an opcode's qualifiers name.
CopyMode modeOf(const std::vector<std::string_view> &Parts) {
  for (std::string_view P : Parts) {
    if (P == "tile::gather4")
      return CopyMode::Gather4;
    if (P == "tile::scatter4")
      return CopyMode::Scatter4;
    if (P == "im2col")
      return CopyMode::Im2col;
    if (P == "im2col_no_offs")
      return CopyMode::Im2colNoOffs;
    if (P == "im2col::w")
      return CopyMode::Im2colW;
    if (P == "im2col::w::128")
      return CopyMode::Im2colW128;
  }
  return CopyMode::Tile;
}

/// A form of the PTX instruction itself (no qualifier names it): the
/// message names the whole opcode.
bool isInstructionFeature(DeviceFeature F) {
  return deviceFeatureName(F)[0] != '.';
}

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

} // namespace

std::string instructionOf(std::string_view Opcode) {
  static const char *const Words[] = {
      "cp",          "async",      "bulk",       "reduce",    "tensor",
      "prefetch",    "mbarrier",   "init",       "arrive",    "expect_tx",
      "complete_tx", "try_wait",   "test_wait",  "inval",     "arrive_drop",
      "fence",       "proxy",      "tensormap",  "replace",   "cp_fenceproxy",
      "st",          "mbarrier_init", "commit_group", "wait_group"};
  std::string Name;
  for (std::string_view P : partsOf(Opcode)) {
    if (std::none_of(std::begin(Words), std::end(Words),
                     [&](const char *W) { return P == W; }))
      break;
    Name += Name.empty() ? std::string(P) : "." + std::string(P);
  }
  return Name.empty() ? std::string(Opcode) : Name;
}

std::vector<TargetViolation> checkAsmStatement(const AsmFacts &F) {
  std::vector<TargetViolation> R;
  if (F.JudgeTarget)
    for (std::size_t I = 0; I < F.Opcodes.size(); ++I) {
      const std::string &Op = F.Opcodes[I];
      if (F.Target)
        for (DeviceFeature Feature : featuresOfOpcode(Op)) {
          if (targetHasFeature(Feature, *F.Target))
            continue;
          // A form of the instruction itself is named by its whole opcode;
          // a qualifier after the instruction's name.
          const bool Whole = isInstructionFeature(Feature);
          std::optional<DeviceViolation> V = checkDeviceFeatureArch(
              Feature, F.Target,
              Whole ? std::string_view(Op) : std::string_view());
          R.push_back({std::move(*V), TargetFact::Feature, I,
                       Whole ? std::string() : instructionOf(Op)});
        }
      if (std::optional<DeviceViolation> V = checkOpcodePtxIsa(Op, F.Toolkit))
        R.push_back({std::move(*V), TargetFact::PtxIsa, I, std::string()});
    }
  if (F.JudgeForms)
    for (std::size_t I = 0; I < F.Opcodes.size(); ++I) {
      const std::string &Op = F.Opcodes[I];
      if (!startsWith(Op, "cp.async.bulk") && !startsWith(Op, "cp.reduce.async"))
        continue;
      std::vector<std::string_view> Parts = partsOf(Op);
      if (auto V = checkTmaOverrideForm(
              contains(Parts, "override_attribute"),
              contains(Parts, "override::global_address"), modeOf(Parts)))
        R.push_back(
            {std::move(*V), TargetFact::OverrideForm, I, instructionOf(Op)});
    }
  return R;
}

std::vector<TargetViolation> checkLibraryTarget(const LibraryTargetFacts &F) {
  std::vector<TargetViolation> R;
  for (DeviceFeature Feature : F.Features)
    if (auto V = checkDeviceFeatureArch(Feature, F.Target)) {
      R.push_back({std::move(*V), TargetFact::Feature, 0, std::string()});
      return R;
    }
  if (F.Stub && F.Target)
    R.push_back({checkLibraryStubArch(F.Stub->Library, F.Stub->Stub,
                                      *F.Target),
                 TargetFact::LibraryStub, 0, std::string()});
  return R;
}

} // namespace tma::rules
