//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Looking up the tensor-map driver functions at run time (tma-rules.md
// section 8.1 TMAP-ENTRY-NULL, section 11.B TMAP-ENTRY-UNVERSIONED).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ENTRYPOINTRULES_H
#define TMA_TIDY_RULES_ENTRYPOINTRULES_H

#include "rules/Violation.h"

#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// The runtime or driver function that looks a driver symbol up.
enum class EntryLookup {
  /// cudaGetDriverEntryPoint(symbol, &fn, flags, &status): no version.
  Unversioned,
  /// cudaGetDriverEntryPointByVersion(symbol, &fn, cudaVersion, ...).
  ByVersion,
  /// cuGetProcAddress(symbol, &fn, cudaVersion, ...).
  ProcAddress,
};

/// One lookup: its symbol string and version operand, and the CUDA_VERSION
/// of the toolkit the translation unit was compiled against.
struct EntryPointQuery {
  EntryLookup Lookup = EntryLookup::Unversioned;
  std::string Symbol;
  Known Version;
  Known Toolkit;
};

/// Which operand of the lookup a violation is about.
enum class EntryOperand { Symbol, Version };

struct EntryViolation {
  const char *RuleId;
  EntryOperand Operand;
  /// The complete message without the rule id.
  std::string Message;
};

/// The CUDA version that introduced the tensor-map driver function
/// \p Symbol (12000, or 12080 for cuTensorMapEncodeIm2colWide), or
/// std::nullopt for any other symbol.
Known tensorMapSymbolVersion(const std::string &Symbol);

/// The PFN typedef of cudaTypedefs.h for \p Symbol, e.g.
/// "PFN_cuTensorMapEncodeTiled_v12000"; empty for other symbols.
std::string tensorMapPfnName(const std::string &Symbol);

/// Every rule that \p Q provably breaks. Only lookups of the tensor-map
/// functions (names starting with "cuTensorMap") are judged.
std::vector<EntryViolation> checkEntryPoint(const EntryPointQuery &Q);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ENTRYPOINTRULES_H
