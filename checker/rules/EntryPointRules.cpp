//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/EntryPointRules.h"

namespace tma::rules {

namespace {

struct TensorMapSymbol {
  const char *Name;
  std::uint64_t Since;
};

// The tensor-map functions of cuda.h (CUDA 13.0) and the CUDA version that
// introduced each (cudaTypedefs.h: the _vNNNNN suffix of its PFN).
constexpr TensorMapSymbol Symbols[] = {
    {"cuTensorMapEncodeTiled", 12000},
    {"cuTensorMapEncodeIm2col", 12000},
    {"cuTensorMapEncodeIm2colWide", 12080},
    {"cuTensorMapReplaceAddress", 12000},
};

/// The newest toolkit whose list of tensor-map functions Symbols is: a
/// newer one may add names.
constexpr std::uint64_t KnownToolkit = 13000;

std::string versionText(std::uint64_t V) {
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

} // namespace

Known tensorMapSymbolVersion(const std::string &Symbol) {
  for (const TensorMapSymbol &S : Symbols)
    if (Symbol == S.Name)
      return S.Since;
  return std::nullopt;
}

std::string tensorMapPfnName(const std::string &Symbol) {
  Known Since = tensorMapSymbolVersion(Symbol);
  return Since ? "PFN_" + Symbol + "_v" + std::to_string(*Since)
               : std::string();
}

std::vector<EntryViolation> checkEntryPoint(const EntryPointQuery &Q) {
  std::vector<EntryViolation> Out;
  if (Q.Symbol.rfind("cuTensorMap", 0) != 0)
    return Out;
  Known Since = tensorMapSymbolVersion(Q.Symbol);
  // TMAP-ENTRY-NULL: a name the driver does not have is "not found", and
  // the lookup succeeds with a null function pointer.
  if (!Since) {
    if (Q.Toolkit && *Q.Toolkit <= KnownToolkit)
      Out.push_back(
          {"TMAP-ENTRY-NULL", EntryOperand::Symbol,
           "\"" + Q.Symbol +
               "\" is not a tensor-map function of "
               "the driver (cuTensorMapEncodeTiled, "
               "cuTensorMapEncodeIm2col, cuTensorMapEncodeIm2colWide, "
               "cuTensorMapReplaceAddress); the lookup returns a null "
               "function pointer"});
    return Out;
  }
  // TMAP-ENTRY-NULL: a version below the symbol's introduction finds no
  // version of it.
  if (Q.Lookup != EntryLookup::Unversioned && Q.Version &&
      *Q.Version < *Since) {
    Out.push_back({"TMAP-ENTRY-NULL", EntryOperand::Version,
                   "cudaVersion is " + std::to_string(*Q.Version) + ", below " +
                       std::to_string(*Since) + " (CUDA " +
                       versionText(*Since) + ") where " + Q.Symbol +
                       " was introduced; the lookup returns a null function "
                       "pointer"});
  }
  // TMAP-ENTRY-UNVERSIONED
  if (Q.Lookup == EntryLookup::Unversioned && Q.Toolkit && *Q.Toolkit >= 13000)
    Out.push_back({"TMAP-ENTRY-UNVERSIONED", EntryOperand::Symbol,
                   "cudaGetDriverEntryPoint looks \"" + Q.Symbol +
                       "\" up without a version, which CUDA " +
                       versionText(*Q.Toolkit) +
                       " deprecates and which need not return the ABI of " +
                       tensorMapPfnName(Q.Symbol) +
                       "; use cudaGetDriverEntryPointByVersion with "
                       "cudaVersion " +
                       std::to_string(*Since)});
  return Out;
}

} // namespace tma::rules
