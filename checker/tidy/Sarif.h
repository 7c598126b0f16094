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
// One run; tool.driver is tma-tidy with one rule per rule id. Each
// diagnostic is a result: ruleId (the TMA rule id its message ends with, e.g.
// TMAP-TILED-BOX-RANGE, else the check name: clang errors, stock checks),
// level (warning, error; a remark is a note), message.text (clang-tidy's
// message), a physical location (line and column computed from the file's
// bytes; line 1 of its file for a diagnostic without one, and a
// notification of the run when no file is known), its notes as relatedLocations and the fix-its of the diagnostic and
// its notes as fixes. Paths under the root directory are relative URIs with
// uriBaseId %SRCROOT%; others are absolute file:// URIs. A TMA rule carries
// the summary and condition of its page of the rule reference
// (docs/rules/<RULE-ID>.md) and a helpUri to it.
//
// The run has one invocation: executionSuccessful is false when clang-tidy
// failed for any reason other than --warnings-as-errors, or tma-tidy itself
// reported an error (a file with no compile command), so that a reader never
// takes a failed run for a clean one.
//
// The output is written to a temporary file beside it and renamed, and never
// over an existing file that is not a SARIF log (checkSarifTarget).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_SARIF_H
#define TMA_TIDY_SARIF_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

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
  /// The files of the run, as given: a diagnostic without a location (a
  /// missing file, "too many errors emitted") is reported on the one its
  /// message names, else on the only one, else on its YAML document's
  /// MainSourceFile.
  std::vector<std::string> InputFiles;
  /// Where the rule reference's pages are: helpUri is <HelpUriBase>/<ID>.md.
  /// Empty: no helpUri.
  std::string HelpUriBase;

  /// How the run went (invocations[0]).
  struct Invocation {
    /// clang-tidy's exit status.
    int ExitCode = 0;
    /// --warnings-as-errors was given: exit status 1 with only check
    /// diagnostics (no clang error) is a successful run that found problems.
    bool WarningsAsErrors = false;
    /// tma-tidy's own errors and warnings (toolExecutionNotifications). An
    /// error makes the run unsuccessful.
    std::vector<std::string> Errors;
    std::vector<std::string> Warnings;
  } Run;
};

/// How many distinct diagnostics (check, file, offset, message) a fixes YAML
/// holds, by level: what tma-tidy's summary line counts, once however many
/// CUDA passes reported each.
struct DiagnosticCounts {
  unsigned Warnings = 0;
  unsigned Errors = 0;
};
llvm::Expected<DiagnosticCounts> countDiagnostics(llvm::StringRef Yaml);

/// Whether Content is a SARIF log: a JSON object with a "version" and a
/// "runs" array.
bool isSarifLog(llvm::StringRef Content);

/// An error unless tma-tidy may write its SARIF log to Path: Path does not
/// exist, is an empty regular file, or is a SARIF log.
llvm::Error checkSarifTarget(llvm::StringRef Path);

/// Whether Content is clang-tidy's --export-fixes YAML: every document a
/// TranslationUnitDiagnostics (MainSourceFile, Diagnostics).
bool isFixesYaml(llvm::StringRef Content);

/// An error unless clang-tidy may write its fixes to Path (--export-fixes):
/// Path does not exist, is an empty regular file, or is a fixes YAML. A
/// source file after `--export-fixes ` (a space for `=`) is refused.
llvm::Error checkFixesTarget(llvm::StringRef Path);

/// Writes the SARIF log of the diagnostics in Yaml (as fixesYamlToSarif) to
/// OS, pretty-printed; results are rendered as they are read.
llvm::Error writeSarifLog(llvm::StringRef Yaml, const SarifOptions &Options,
                          llvm::raw_ostream &OS);

/// The SARIF log of the diagnostics in Yaml: the output of clang-tidy
/// --export-fixes, one or more YAML documents (empty: no results). Identical
/// diagnostics (check, file, offset, message) are kept once.
llvm::Expected<llvm::json::Value> fixesYamlToSarif(llvm::StringRef Yaml,
                                                   const SarifOptions &Options);

/// Writes the SARIF log of the YAML file FixesFile (absent: no results) to
/// SarifFile, through a temporary file in its directory that is renamed;
/// refuses a SarifFile that checkSarifTarget refuses.
llvm::Error convertFixesFile(llvm::StringRef FixesFile,
                             llvm::StringRef SarifFile,
                             const SarifOptions &Options);

} // namespace tma::sarif

#endif // TMA_TIDY_SARIF_H
