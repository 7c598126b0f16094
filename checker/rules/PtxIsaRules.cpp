//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/PtxIsaRules.h"
#include "rules/PtxWords.h"

#include <algorithm>
#include <initializer_list>

namespace tma::rules {

std::optional<unsigned> ptxIsaOfToolkit(unsigned CudaVersion) {
  const unsigned Major = CudaVersion / 1000, Minor = CudaVersion % 1000 / 10;
  switch (Major) {
  case 11:
    if (Minor <= 8)
      return 70 + Minor;
    break;
  case 12:
    // CUDA 12.6 kept PTX ISA 8.5; 12.7 (not released on its own) has 8.6.
    if (Minor <= 5)
      return 80 + Minor;
    if (Minor <= 9)
      return 79 + Minor;
    break;
  case 13:
    return 90 + Minor;
  default:
    break;
  }
  return std::nullopt;
}

std::optional<unsigned> toolkitOfPtxIsa(unsigned PtxIsa) {
  if (PtxIsa >= 70 && PtxIsa <= 78)
    return 11000 + (PtxIsa - 70) * 10;
  if (PtxIsa >= 80 && PtxIsa <= 85)
    return 12000 + (PtxIsa - 80) * 10;
  if (PtxIsa >= 86 && PtxIsa <= 88)
    return 12000 + (PtxIsa - 79) * 10;
  if (PtxIsa >= 90 && PtxIsa <= 99)
    return 13000 + (PtxIsa - 90) * 10;
  return std::nullopt;
}

std::string toolkitText(unsigned CudaVersion) {
  return std::to_string(CudaVersion / 1000) + "." +
         std::to_string(CudaVersion % 1000 / 10);
}

std::string ptxIsaText(unsigned PtxIsa) {
  return std::to_string(PtxIsa / 10) + "." + std::to_string(PtxIsa % 10);
}

std::optional<Toolkit> toolkitOfCudaVersion(unsigned CudaVersion) {
  std::optional<unsigned> Ptx = ptxIsaOfToolkit(CudaVersion);
  if (!Ptx)
    return std::nullopt;
  return Toolkit{*Ptx, CudaVersion, ToolkitSource::CudaVersionMacro, false};
}

std::optional<Toolkit> toolkitOfDriver(unsigned PtxIsa,
                                       unsigned NewestPtxIsa) {
  if (PtxIsa < 70)
    return std::nullopt;
  return Toolkit{PtxIsa, 0, ToolkitSource::Driver,
                 NewestPtxIsa && PtxIsa >= NewestPtxIsa};
}

std::optional<Toolkit> passToolkit(std::optional<Toolkit> Macro,
                                   std::optional<Toolkit> Driver) {
  if (!Macro)
    return Driver;
  if (!Driver || Driver->PtxIsa <= Macro->PtxIsa)
    return Macro;
  return Driver;
}

namespace {

/// "cp.async.bulk.tensor": the instruction's leading words.
std::string instructionName(const std::vector<std::string_view> &P) {
  static constexpr std::string_view Words[] = {
      "multimem", "cp",           "async",      "bulk",     "reduce",
      "tensor",   "prefetch",     "commit_group", "wait_group", "mbarrier",
      "init",     "arrive",       "expect_tx",  "complete_tx", "try_wait",
      "test_wait", "check_layout", "fence",     "proxy",    "mbarrier_init",
      "tensormap::generic", "tensormap", "replace", "cp_fenceproxy", "st"};
  std::string Name;
  for (std::string_view Part : P) {
    if (std::find(std::begin(Words), std::end(Words), Part) == std::end(Words))
      break;
    Name += (Name.empty() ? "" : ".") + std::string(Part);
  }
  return Name;
}

} // namespace

std::vector<PtxForm> ptxFormsOfOpcode(std::string_view Opcode) {
  const std::vector<std::string_view> P = splitDots(Opcode);
  std::vector<PtxForm> F;
  if (P.empty())
    return F;
  auto Has = [&](std::string_view Q) {
    return std::find(P.begin() + 1, P.end(), Q) != P.end();
  };
  auto StartsWith = [&](std::initializer_list<std::string_view> Prefix) {
    return P.size() >= Prefix.size() &&
           std::equal(Prefix.begin(), Prefix.end(), P.begin());
  };
  const std::string Instruction =
      P[0] == "mbarrier" && P.size() >= 2 ? "mbarrier." + std::string(P[1])
                                          : instructionName(P);
  auto Add = [&](std::string Name, unsigned PtxIsa) {
    F.push_back({std::move(Name), PtxIsa});
  };
  // The whole instruction: "'cp.async.bulk.tensor'".
  auto Whole = [&](unsigned PtxIsa) { Add("'" + Instruction + "'", PtxIsa); };
  // One qualifier: "cp.async.bulk '.ignore_oob'".
  auto Qualifier = [&](std::string_view Q, unsigned PtxIsa) {
    if (Has(Q))
      Add(Instruction + " '." + std::string(Q) + "'", PtxIsa);
  };

  // PTX ISA 9.1: the multimem bulk copies.
  if (StartsWith({"multimem", "cp", "async", "bulk"}) ||
      StartsWith({"multimem", "cp", "reduce", "async", "bulk"})) {
    Whole(91);
    return F;
  }
  if (StartsWith({"cp", "async", "bulk"}) ||
      StartsWith({"cp", "reduce", "async", "bulk"})) {
    Whole(80);
    // The destination is the first state space written; a .shared::cta
    // destination came with PTX ISA 8.6 (copies, not reductions).
    if (P[1] == "async" && !Has("prefetch"))
      for (std::string_view Q : P)
        if (Q == "shared::cta" || Q == "shared::cluster" || Q == "global") {
          if (Q == "shared::cta")
            Add(Instruction + " into '.shared::cta'", 86);
          break;
        }
    for (std::string_view Q : {"cp_mask", "tile::gather4", "tile::scatter4",
                               "im2col::w", "im2col::w::128"})
      Qualifier(Q, 86);
    for (std::string_view Q : P)
      if (Q.substr(0, 11) == "cta_group::") {
        Add(Instruction + " '.cta_group'", 86);
        break;
      }
    Qualifier("ignore_oob", 92);
    Qualifier("override::global_address", 94);
    Qualifier("override_attribute", 94);
    return F;
  }
  if (P[0] == "mbarrier" && P.size() >= 2) {
    if (P[1] == "try_wait")
      Whole(78);
    if (P[1] == "expect_tx" || P[1] == "complete_tx")
      Whole(80);
    else
      Qualifier("expect_tx", 80);
    // Scopes on mbarrier operations.
    Qualifier("cta", 80);
    Qualifier("cluster", 80);
    Qualifier("shared::cluster", 80);
    Qualifier("acquire", 80);
    Qualifier("release", 80);
    Qualifier("relaxed", 86);
    // PTX ISA 9.3: barrier layouts.
    if (P[1] == "check_layout")
      Whole(93);
    else
      Qualifier("layout::v1", 93);
    return F;
  }
  if (StartsWith({"fence", "proxy", "async"}) ||
      StartsWith({"fence", "mbarrier_init"}))
    Whole(80);
  else if (StartsWith({"fence", "proxy", "tensormap::generic"}) ||
           StartsWith({"tensormap", "cp_fenceproxy"}))
    Whole(83);
  else if (P[0] == "prefetch" && Has("tensormap"))
    Add("'prefetch.tensormap'", 80);
  else if (StartsWith({"tensormap", "replace"})) {
    Add("'tensormap.replace'", 83);
    Qualifier("swizzle_atomicity", 86);
  } else if (StartsWith({"st", "bulk"}))
    Add("'st.bulk'", 86);
  return F;
}

std::optional<DeviceViolation> checkPtxIsa(const PtxForm &F,
                                           const std::optional<Toolkit> &T) {
  // An unknown or lower-bound toolkit proves nothing about newer forms.
  if (!T || !T->PtxIsa || T->PtxIsa >= F.PtxIsa || T->AtLeast)
    return std::nullopt;
  std::optional<unsigned> Needs = toolkitOfPtxIsa(F.PtxIsa);
  if (!Needs)
    return std::nullopt;
  const std::string Uses =
      T->CudaVersion ? "CUDA " + toolkitText(T->CudaVersion) + " (PTX ISA " +
                           ptxIsaText(T->PtxIsa) + ")"
                     : "PTX ISA " + ptxIsaText(T->PtxIsa);
  return DeviceViolation{
      "TMA-PTX-ISA", DeviceParam::LoadMode, T->PtxIsa, F.PtxIsa,
      F.Name + " needs PTX ISA " + ptxIsaText(F.PtxIsa) + " (CUDA " +
          toolkitText(*Needs) + "); this translation unit uses " + Uses,
      "build with CUDA " + toolkitText(*Needs) +
          " or newer, or guard the code with #if CUDA_VERSION >= " +
          std::to_string(*Needs)};
}

std::optional<DeviceViolation>
checkOpcodePtxIsa(std::string_view Opcode, const std::optional<Toolkit> &T) {
  if (!T)
    return std::nullopt;
  // The form that needs the newest PTX ISA, the first of them on a tie:
  // one report per instruction.
  std::optional<PtxForm> Newest;
  for (PtxForm &F : ptxFormsOfOpcode(Opcode))
    if (!Newest || F.PtxIsa > Newest->PtxIsa)
      Newest = std::move(F);
  return Newest ? checkPtxIsa(*Newest, T) : std::nullopt;
}


std::string toolkitOrigin(const Toolkit &T) {
  if (T.Source == ToolkitSource::CudaVersionMacro)
    return "this translation unit's CUDA_VERSION is " +
           std::to_string(T.CudaVersion) + " (CUDA " +
           toolkitText(T.CudaVersion) + ")";
  return "clang's driver compiles this pass for PTX ISA " +
         ptxIsaText(T.PtxIsa) + " (-target-feature +ptx" +
         std::to_string(T.PtxIsa) +
         ", from the CUDA installation it found); no CUDA_VERSION says newer";
}

} // namespace tma::rules
