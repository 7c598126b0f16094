//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// SARIF 2.1.0 from clang-tidy's --export-fixes YAML
// (clang::tooling::TranslationUnitDiagnostics), for GitHub code scanning and
// other SARIF readers. tma-tidy writes it with --tma-export-sarif=<file>.
//
// One run; tool.driver is tma-tidy with one rule per check name. Each
// diagnostic is a result: ruleId (the check), level (warning, error; a remark
// is a note), message.text (clang-tidy's message, with the TMA rule id it
// names), a physical location (line and column computed from the file's
// bytes), its notes as relatedLocations and the fix-its of the diagnostic and
// its notes as fixes. Paths under the root directory are relative URIs with
// uriBaseId %SRCROOT%; others are absolute file:// URIs.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_SARIF_H
#define TMA_TIDY_SARIF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <optional>
#include <string>

namespace tma::sarif {

struct SarifOptions {
  /// Absolute directory that relative URIs are relative to (%SRCROOT%);
  /// empty: every URI is absolute.
  std::string RootDirectory;
  /// The contents of a file (absolute path), to turn byte offsets into lines
  /// and columns; nullopt when it cannot be read. Defaults to reading the
  /// file system.
  std::function<std::optional<std::string>(llvm::StringRef)> ReadFile;
  /// tool.driver.version and informationUri, left out when empty.
  std::string ToolVersion;
  std::string InformationUri;
};

/// The SARIF log of the diagnostics in Yaml: the output of clang-tidy
/// --export-fixes, one or more YAML documents (empty: no results). Identical
/// diagnostics (check, file, offset, message) are kept once.
llvm::Expected<llvm::json::Value> fixesYamlToSarif(llvm::StringRef Yaml,
                                                   const SarifOptions &Options);

/// Writes the SARIF log of the YAML file FixesFile (absent: no results) to
/// SarifFile.
llvm::Error convertFixesFile(llvm::StringRef FixesFile,
                             llvm::StringRef SarifFile,
                             const SarifOptions &Options);

} // namespace tma::sarif

#endif // TMA_TIDY_SARIF_H
