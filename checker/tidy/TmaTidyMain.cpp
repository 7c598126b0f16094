//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-tidy: the installed clang-tidy (libclangTidyMain.a, every stock module)
// with the tma- checks linked in. Same command line as clang-tidy; before
// handing it to clangTidyMain, tma-tidy rewrites the compile commands of the
// files it is given:
//
// * nvcc commands (compile_commands.json from CMake with nvcc as the CUDA
//   compiler) become clang commands: tidy/NvccFlags.h.
//
// * A CUDA command becomes one command per CUDA pass: the device pass of each
//   GPU architecture and the host pass. clang-tidy analyses only one
//   compilation of a command (the device pass of the first architecture), so
//   host-only code (#ifndef __CUDA_ARCH__) and the code of other architectures
//   would go unseen.
//
// The rewritten commands go into a compile_commands.json in a temporary
// directory, which clang-tidy gets as `-p` (in place of the user's -p or
// the flags after `--`). clang-tidy runs every command of a file and keeps
// one copy of identical diagnostics (same file, offset, message and check),
// so each diagnostic is printed once and --export-fixes and --fix see one
// merged set.
//
// Commands that need neither rewrite reach clang-tidy untouched. tma-tidy
// also passes the resource directory of the Clang it was built against
// (the builtin and CUDA wrapper headers): clang-tidy derives one from its
// executable's path, which is wrong for build/bin.
//
// tma-tidy's own options: --tma-show-commands prints the commands it ran;
// --tma-export-sarif=<file> writes the diagnostics as SARIF 2.1.0
// (tidy/Sarif.h), converted from clang-tidy's --export-fixes YAML (the
// user's, or one in a temporary file).
//
//===----------------------------------------------------------------------===//

#include "tidy/CompileCommands.h"
#include "tidy/NvccFlags.h"
#include "tidy/Sarif.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "clang-tidy/tool/ClangTidyMain.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

// Keeps the module's registration (TmaTidyModule.cpp) in the link.
extern volatile int TmaModuleAnchorSource;
[[maybe_unused]] static int TmaModuleAnchorDestination = TmaModuleAnchorSource;

namespace {

using namespace tma::driver;
namespace tooling = clang::tooling;

/// What tma-tidy needs from its command line. The rest is clang-tidy's.
struct TidyArgs {
  /// The arguments, response files expanded.
  std::vector<std::string> Args;
  std::optional<std::string> BuildPath;
  std::vector<std::string> Sources;
  /// The index of `--`: the flags of a fixed compilation database follow.
  std::optional<std::size_t> DoubleDash;
  /// --extra-arg values that choose CUDA architectures or passes.
  std::vector<std::string> ExtraPassArgs;
  /// --extra-arg-before values (they may say -x cuda).
  std::vector<std::string> ExtraArgsBefore;
  /// Indexes that a rewritten command line leaves out: -p and its value,
  /// the --extra-args of ExtraPassArgs, tma-tidy's own options.
  std::set<std::size_t> Rewritten;
  /// Indexes of tma-tidy's own options, which clang-tidy never sees.
  std::set<std::size_t> Own;
  bool UserResourceDir = false;
  bool ShowCommands = false;
  /// --tma-require-database: a file with no entry, or an empty database, is
  /// an error.
  bool RequireDatabase = false;
  /// --tma-rule-docs-url's base of SARIF helpUri.
  std::string RuleDocsUrl = TMA_RULE_DOCS_URL;
  /// --checks given.
  bool CommandLineChecks = false;
  /// --config's and --config-file's values.
  std::optional<std::string> Config;
  std::optional<std::string> ConfigFile;
  /// An option that needs no source file (--list-checks, --dump-config,
  /// --verify-config, --help, --version, ...).
  bool NeedsNoInput = false;
  /// `-` among the files (run-clang-tidy's probe).
  bool Stdin = false;
  bool WarningsAsErrors = false;
  bool Quiet = false;
  /// --tma-export-sarif's file.
  std::optional<std::string> SarifFile;
  /// --export-fixes's file.
  std::optional<std::string> ExportFixes;
};

/// Whether a clang-tidy option takes its value from the next argument
/// (`-checks foo`), as llvm::cl parses it.
bool takesSeparateValue(llvm::StringRef Name) {
  const auto &Options = llvm::cl::getRegisteredOptions();
  auto It = Options.find(Name);
  return It != Options.end() &&
         It->second->getValueExpectedFlag() == llvm::cl::ValueRequired;
}

TidyArgs scanArgs(int Argc, const char **Argv) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Expanded(Argv, Argv + Argc);
  // As clang-tidy does (llvm::cl): @file arguments, GNU quoting.
  if (!llvm::cl::ExpandResponseFiles(Saver, llvm::cl::TokenizeGNUCommandLine,
                                     Expanded))
    Expanded.assign(Argv, Argv + Argc);

  TidyArgs Result;
  for (const char *Arg : Expanded)
    Result.Args.emplace_back(Arg);
  const std::vector<std::string> &Args = Result.Args;
  for (std::size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      Result.DoubleDash = I;
      break;
    }
    if (Arg == "-") {
      // run-clang-tidy probes `<binary> -list-checks ... -`: not a file.
      Result.Stdin = true;
      continue;
    }
    if (Arg.size() < 2 || Arg[0] != '-') {
      Result.Sources.push_back(Args[I]);
      continue;
    }
    llvm::StringRef Body = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Name, Value] = Body.split('=');
    bool HasValue = Body.contains('=');
    if (Name == "tma-show-commands" || Name == "tma-require-database") {
      (Name == "tma-show-commands" ? Result.ShowCommands
                                   : Result.RequireDatabase) = true;
      Result.Rewritten.insert(I);
      Result.Own.insert(I);
      continue;
    }
    if (Name == "tma-rule-docs-url") {
      Result.Rewritten.insert(I);
      Result.Own.insert(I);
      if (!HasValue && I + 1 < Args.size()) {
        Result.RuleDocsUrl = Args[++I];
        Result.Rewritten.insert(I);
        Result.Own.insert(I);
      } else {
        Result.RuleDocsUrl = Value.str();
      }
      continue;
    }
    if (Name == "checks")
      Result.CommandLineChecks = true;
    if (Name == "config" || Name == "config-file") {
      std::string OptionValue = Value.str();
      if (!HasValue && I + 1 < Args.size())
        OptionValue = Args[++I];
      (Name == "config" ? Result.Config : Result.ConfigFile) = OptionValue;
      continue;
    }
    if (Name == "list-checks" || Name == "dump-config" ||
        Name == "explain-config" || Name == "verify-config" ||
        Name.starts_with("help") || Name == "version" ||
        Name.starts_with("print-"))
      Result.NeedsNoInput = true;
    if (Name == "warnings-as-errors")
      Result.WarningsAsErrors = true;
    if (Name == "quiet")
      Result.Quiet = true;
    if (Name == "tma-export-sarif") {
      Result.Rewritten.insert(I);
      Result.Own.insert(I);
      // The separate form is kept (llvm::cl accepts it), but checkSarifTarget
      // refuses a value that is an existing non-SARIF file (a source given
      // after `--tma-export-sarif ` by mistake).
      if (!HasValue && I + 1 < Args.size()) {
        Result.SarifFile = Args[++I];
        Result.Rewritten.insert(I);
        Result.Own.insert(I);
      } else {
        Result.SarifFile = Value.str();
      }
      continue;
    }
    if (Name == "export-fixes") {
      if (HasValue)
        Result.ExportFixes = Value.str();
      else if (I + 1 < Args.size())
        Result.ExportFixes = Args[++I];
      continue;
    }
    if (Name == "p" || Name == "extra-arg" || Name == "extra-arg-before") {
      std::size_t First = I;
      std::string OptionValue = Value.str();
      if (!HasValue && I + 1 < Args.size())
        OptionValue = Args[++I];
      if (llvm::StringRef(OptionValue).contains("-resource-dir"))
        Result.UserResourceDir = true;
      if (Name == "p") {
        Result.BuildPath = OptionValue;
      } else if (isCudaPassArg(OptionValue)) {
        Result.ExtraPassArgs.push_back(OptionValue);
      } else {
        if (Name == "extra-arg-before")
          Result.ExtraArgsBefore.push_back(OptionValue);
        continue;
      }
      for (std::size_t J = First; J <= I; ++J)
        Result.Rewritten.insert(J);
      continue;
    }
    if (!HasValue && takesSeparateValue(Name))
      ++I;
  }
  return Result;
}

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  if (llvm::sys::fs::make_absolute(Absolute))
    return Path.str();
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

/// A command to run, and the CUDA pass it is (empty if none).
struct PassCommand {
  tooling::CompileCommand Command;
  std::string Pass;
};

/// The commands to run for one command of the database: one per CUDA pass
/// for a CUDA command, else the command itself.
std::vector<PassCommand> passCommands(const tooling::CompileCommand &Command,
                                      const TidyArgs &Tidy, bool FromNvcc) {
  // An -x cuda from --extra-arg-before counts too.
  std::vector<std::string> Probe = Command.CommandLine;
  if (!Probe.empty())
    Probe.insert(Probe.begin() + 1, Tidy.ExtraArgsBefore.begin(),
                 Tidy.ExtraArgsBefore.end());
  if (!isCudaCompile(Probe, Command.Filename))
    return {{Command, ""}};

  CudaPassOptions Options;
  Options.NvccArchMacros = FromNvcc;
  Options.ExtraPassArgs = Tidy.ExtraPassArgs;
  std::vector<std::string> Args = Command.CommandLine;
  // nvcc finds <cuda/barrier> in include/cccl; clang needs to be told.
  addToolkitIncludes(Args);
  std::vector<PassCommand> Passes;
  for (CudaPass &Pass : splitCudaPasses(Args, Options)) {
    Passes.push_back({Command, Pass.Name});
    Passes.back().Command.CommandLine = std::move(Pass.Args);
  }
  return Passes;
}

/// Where the rewritten compile_commands.json lives; removed at exit.
std::string &tempDirectory() {
  static std::string Directory;
  return Directory;
}

void removeTempDirectory() {
  if (tempDirectory().empty())
    return;
  // Nothing to do about a failure at exit.
  std::error_code Ignored = llvm::sys::fs::remove_directories(tempDirectory());
  (void)Ignored;
}

/// Writes Commands into a new compile_commands.json; its directory, or
/// nullopt (with a message) if it cannot.
std::optional<std::string>
writeDatabase(const std::vector<PassCommand> &Commands) {
  llvm::SmallString<256> Directory;
  if (std::error_code Error =
          llvm::sys::fs::createUniqueDirectory("tma-tidy", Directory)) {
    llvm::errs() << "tma-tidy: cannot create a temporary directory: "
                 << Error.message() << "\n";
    return std::nullopt;
  }
  tempDirectory() = Directory.str().str();
  std::atexit(removeTempDirectory);

  llvm::SmallString<256> File(Directory);
  llvm::sys::path::append(File, "compile_commands.json");
  llvm::sys::RemoveFileOnSignal(File);
  llvm::json::Array Entries;
  for (const auto &[Command, Pass] : Commands) {
    llvm::json::Array Arguments;
    for (const std::string &Arg : Command.CommandLine)
      Arguments.push_back(Arg);
    Entries.push_back(llvm::json::Object{
        {"directory", Command.Directory},
        {"file", Command.Filename},
        {"arguments", std::move(Arguments)},
    });
  }
  std::error_code Error;
  llvm::raw_fd_ostream Out(File, Error);
  if (Error) {
    llvm::errs() << "tma-tidy: cannot write " << File << ": " << Error.message()
                 << "\n";
    return std::nullopt;
  }
  Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries)));
  return tempDirectory();
}

/// The database clang-tidy would use: the flags after `--`, else -p, else
/// the one found above the first source file.
std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const TidyArgs &Tidy, std::string &Error) {
  if (Tidy.DoubleDash) {
    std::vector<const char *> Pointers;
    Pointers.reserve(Tidy.Args.size());
    for (const std::string &Arg : Tidy.Args)
      Pointers.push_back(Arg.c_str());
    int Argc = static_cast<int>(Pointers.size());
    llvm::SmallString<256> Cwd;
    if (llvm::sys::fs::current_path(Cwd))
      Cwd = ".";
    return tooling::FixedCompilationDatabase::loadFromCommandLine(
        Argc, Pointers.data(), Error, Cwd);
  }
  if (Tidy.BuildPath)
    return tooling::CompilationDatabase::autoDetectFromDirectory(
        *Tidy.BuildPath, Error);
  if (!Tidy.Sources.empty())
    return tooling::CompilationDatabase::autoDetectFromSource(
        Tidy.Sources.front(), Error);
  return nullptr;
}

/// The modification time and size of a file, to tell whether clang-tidy
/// wrote it; nullopt when there is none.
std::optional<std::pair<llvm::sys::TimePoint<>, uint64_t>>
fileStamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) || !llvm::sys::fs::exists(Status))
    return std::nullopt;
  return std::make_pair(Status.getLastModificationTime(), Status.getSize());
}

/// Where --tma-export-sarif reads clang-tidy's YAML from: the user's
/// --export-fixes, or a temporary file that clang-tidy gets as
/// --export-fixes (Args) and that is removed at exit.
struct SarifExport {
  std::string SarifFile;
  std::string FixesFile;
  bool TemporaryFixes = false;
  /// The user's file as it was before clang-tidy ran: unchanged after, it
  /// is stale (clang-tidy writes it only when there are diagnostics).
  std::optional<std::pair<llvm::sys::TimePoint<>, uint64_t>> StampBefore;
};

std::string &temporaryFixesFile() {
  static std::string File;
  return File;
}

void removeTemporaryFixesFile() {
  if (temporaryFixesFile().empty())
    return;
  std::error_code Ignored = llvm::sys::fs::remove(temporaryFixesFile());
  (void)Ignored;
}

/// The fixes YAML of the run, for the SARIF log (Tidy.SarifFile) and for the
/// summary line (Summary: several CUDA passes report the same diagnostics).
std::optional<SarifExport> prepareSarif(const TidyArgs &Tidy,
                                        std::vector<std::string> &Args,
                                        bool Summary) {
  if (!Tidy.SarifFile && !Summary)
    return std::nullopt;
  SarifExport Export;
  Export.SarifFile = Tidy.SarifFile.value_or("");
  if (Tidy.ExportFixes) {
    Export.FixesFile = *Tidy.ExportFixes;
    Export.StampBefore = fileStamp(Export.FixesFile);
    return Export;
  }
  llvm::SmallString<256> File;
  if (std::error_code Error = llvm::sys::fs::createTemporaryFile(
          "tma-tidy-fixes", "yaml", File)) {
    llvm::errs() << "tma-tidy: cannot create a temporary file: "
                 << Error.message() << "\n";
    return std::nullopt;
  }
  // clang-tidy writes it only when there are diagnostics.
  std::error_code Ignored = llvm::sys::fs::remove(File);
  (void)Ignored;
  temporaryFixesFile() = File.str().str();
  std::atexit(removeTemporaryFixesFile);
  llvm::sys::RemoveFileOnSignal(File);
  Export.FixesFile = File.str().str();
  Export.TemporaryFixes = true;
  Args.insert(Args.begin() + 1, "--export-fixes=" + Export.FixesFile);
  return Export;
}

/// Writes the SARIF report; false (with a message) if it cannot.
bool writeSarif(const SarifExport &Export, const TidyArgs &Tidy,
                tma::sarif::SarifOptions::Invocation Run) {
  tma::sarif::SarifOptions Options;
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    Options.RootDirectory = Cwd.str().str();
  Options.ToolVersion = TMA_TIDY_VERSION;
  Options.InformationUri = TMA_SARIF_INFORMATION_URI;
  Options.HelpUriBase = Tidy.RuleDocsUrl;
  Options.InputFiles = Tidy.Sources;
  Run.WarningsAsErrors = Tidy.WarningsAsErrors;
  Options.Run = std::move(Run);
  std::string Fixes = Export.FixesFile;
  // The user's --export-fixes file from an earlier run: no diagnostics now.
  // An empty name reads as no diagnostics.
  if (!Export.TemporaryFixes && Export.StampBefore &&
      fileStamp(Fixes) == Export.StampBefore)
    Fixes.clear();
  if (llvm::Error Error = tma::sarif::convertFixesFile(
          Fixes, Export.SarifFile, Options)) {
    llvm::errs() << "tma-tidy: error: " << llvm::toString(std::move(Error))
                 << "\n";
    return false;
  }
  return true;
}

/// "N warnings and M errors generated.", each diagnostic once.
void printSummary(const SarifExport &Export) {
  if (!Export.TemporaryFixes && Export.StampBefore &&
      fileStamp(Export.FixesFile) == Export.StampBefore)
    return; // clang-tidy wrote nothing: no diagnostics.
  auto Buffer = llvm::MemoryBuffer::getFile(Export.FixesFile);
  if (!Buffer)
    return;
  llvm::Expected<tma::sarif::DiagnosticCounts> Counts =
      tma::sarif::countDiagnostics((*Buffer)->getBuffer());
  if (!Counts) {
    llvm::consumeError(Counts.takeError());
    return;
  }
  if (!Counts->Warnings && !Counts->Errors)
    return;
  auto Plural = [](unsigned N, llvm::StringRef What) {
    return std::to_string(N) + " " + What.str() + (N == 1 ? "" : "s");
  };
  llvm::errs() << (Counts->Warnings ? Plural(Counts->Warnings, "warning") : "")
               << (Counts->Warnings && Counts->Errors ? " and " : "")
               << (Counts->Errors ? Plural(Counts->Errors, "error") : "")
               << " generated (each once across the CUDA passes).\n";
}

bool samePath(llvm::StringRef A, llvm::StringRef B) {
  if (absolutePath(A) == absolutePath(B))
    return true;
  llvm::sys::fs::UniqueID IdA, IdB;
  return !llvm::sys::fs::getUniqueID(A, IdA) &&
         !llvm::sys::fs::getUniqueID(B, IdB) && IdA == IdB;
}

/// tma-tidy's output files must not be inputs, and the SARIF file must not
/// be an existing file of another kind; false (with a message) before
/// anything runs.
bool checkOutputs(const TidyArgs &Tidy) {
  auto Refuse = [](const llvm::Twine &Message) {
    llvm::errs() << "tma-tidy: error: " << Message << "\n";
    return false;
  };
  for (const std::string &Source : Tidy.Sources) {
    if (Tidy.SarifFile && samePath(*Tidy.SarifFile, Source))
      return Refuse("--tma-export-sarif names the input file '" + Source +
                    "'; not overwriting it");
    if (Tidy.ExportFixes && samePath(*Tidy.ExportFixes, Source))
      return Refuse("--export-fixes names the input file '" + Source +
                    "'; not overwriting it");
  }
  if (Tidy.SarifFile && Tidy.ExportFixes &&
      samePath(*Tidy.SarifFile, *Tidy.ExportFixes))
    return Refuse("--tma-export-sarif and --export-fixes name the same file");
  // `--export-fixes src/main.cpp src/gemm.cu` takes main.cpp as the YAML
  // file: refused as --tma-export-sarif refuses it.
  if (Tidy.ExportFixes)
    if (llvm::Error Error = tma::sarif::checkFixesTarget(*Tidy.ExportFixes))
      return Refuse(llvm::toString(std::move(Error)));
  if (Tidy.SarifFile)
    if (llvm::Error Error = tma::sarif::checkSarifTarget(*Tidy.SarifFile))
      return Refuse(llvm::toString(std::move(Error)));
  return true;
}

/// The Checks of a configuration text; nullopt when it does not parse
/// (clang-tidy reports that itself).
std::optional<std::string> checksOfConfig(llvm::StringRef Text,
                                          llvm::StringRef Name,
                                          bool &Inherit) {
  llvm::ErrorOr<clang::tidy::ClangTidyOptions> Parsed =
      clang::tidy::parseConfiguration(llvm::MemoryBufferRef(Text, Name));
  if (!Parsed)
    return std::nullopt;
  Inherit = Parsed->InheritParentConfig.value_or(false);
  return Parsed->Checks.value_or("");
}

/// The checks that the configuration of Path sets, as clang-tidy finds it:
/// --config or --config-file, else the .clang-tidy files from Path's
/// directory up (while InheritParentConfig). Empty Checks: Found is false.
std::string configuredChecks(const TidyArgs &Tidy, llvm::StringRef Path,
                             bool &Found) {
  Found = false;
  bool Inherit = false;
  if (Tidy.Config || Tidy.ConfigFile) {
    Found = true;
    if (Tidy.Config)
      return checksOfConfig(*Tidy.Config, "--config", Inherit).value_or("");
    auto Buffer = llvm::MemoryBuffer::getFile(*Tidy.ConfigFile);
    if (!Buffer)
      return "";
    return checksOfConfig((*Buffer)->getBuffer(), *Tidy.ConfigFile, Inherit)
        .value_or("");
  }
  std::string Checks;
  llvm::SmallString<256> Directory(absolutePath(Path));
  llvm::sys::path::remove_filename(Directory);
  while (!Directory.empty()) {
    for (const char *Name : {".clang-tidy", "_clang-tidy"}) {
      llvm::SmallString<256> File(Directory);
      llvm::sys::path::append(File, Name);
      if (!llvm::sys::fs::exists(File))
        continue;
      Found = true;
      auto Buffer = llvm::MemoryBuffer::getFile(File);
      Inherit = false;
      if (Buffer)
        if (std::optional<std::string> Own =
                checksOfConfig((*Buffer)->getBuffer(), File, Inherit))
          // A parent's checks come first: later globs win.
          Checks = *Own + (Checks.empty() ? "" : "," + Checks);
      if (!Inherit)
        return Checks;
      break;
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Directory);
    if (Parent == Directory)
      break;
    Directory = Parent;
  }
  return Checks;
}

/// What tma-tidy adds to clang-tidy's --checks: with no configuration,
/// `-*,tma-*` (clang-tidy's default, clang-analyzer-*, checks nothing of
/// TMA); with one, `tma-*` on top of it, followed by the configuration's
/// own globs that turn tma- checks off (`-tma-*`, `-tma-ordering`), so that
/// they still win. Nothing when --checks is on the command line.
std::optional<std::string> addedChecks(const TidyArgs &Tidy) {
  if (Tidy.CommandLineChecks)
    return std::nullopt;
  std::vector<std::string> Paths = Tidy.Sources;
  if (Paths.empty())
    Paths.push_back("tma-tidy-probe"); // In the working directory.
  bool AnyConfig = false;
  std::vector<std::string> Off;
  for (const std::string &Path : Paths) {
    bool Found = false;
    std::string Checks = configuredChecks(Tidy, Path, Found);
    AnyConfig |= Found;
    llvm::SmallVector<llvm::StringRef, 16> Globs;
    llvm::StringRef(Checks).split(Globs, ',');
    for (llvm::StringRef Glob : Globs) {
      // GlobList also splits at newlines.
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Glob.split(Parts, '\n');
      for (llvm::StringRef Part : Parts) {
        Part = Part.trim();
        if (Part.starts_with("-") && Part.drop_front().trim().starts_with("tma") &&
            llvm::find(Off, Part.str()) == Off.end())
          Off.push_back(Part.str());
      }
    }
  }
  if (!AnyConfig)
    return std::string("-*,tma-*");
  std::string Added = "tma-*";
  for (const std::string &Glob : Off)
    Added += "," + Glob;
  return Added;
}

/// The files of a database, normalised as fileKey does.
llvm::StringSet<> databaseFiles(const tooling::CompilationDatabase &Database) {
  llvm::StringSet<> Files;
  for (const std::string &File : Database.getAllFiles()) {
    llvm::SmallString<256> Key(File);
    llvm::sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
    llvm::sys::path::native(Key);
    Files.insert(Key);
  }
  return Files;
}

/// Whether a compile_commands.json is in Path's directory or one above it:
/// a database that exists but did not load is unreadable, not absent.
bool hasDatabaseFileAbove(llvm::StringRef Path) {
  llvm::SmallString<256> Directory(absolutePath(Path));
  llvm::sys::path::remove_filename(Directory);
  while (!Directory.empty()) {
    llvm::SmallString<256> File(Directory);
    llvm::sys::path::append(File, "compile_commands.json");
    if (llvm::sys::fs::exists(File))
      return true;
    llvm::StringRef Parent = llvm::sys::path::parent_path(Directory);
    if (Parent == Directory)
      break;
    Directory = Parent;
  }
  return false;
}

/// Where -p points, for messages.
std::string databaseName(const TidyArgs &Tidy) {
  if (Tidy.BuildPath)
    return "the compile database of '" + *Tidy.BuildPath + "'";
  return "the compile database found above '" + Tidy.Sources.front() + "'";
}

// `tma-tidy --help` ends with tma-tidy's own options (clang-tidy's --help
// shows only options of its own category).
llvm::cl::extrahelp TmaTidyHelp(R"(
tma-tidy options (clang-tidy 22 with the tma- checks built in):

  --tma-export-sarif=<file>  Write the diagnostics as a SARIF 2.1.0 log for
                             GitHub code scanning. Refuses to overwrite an
                             existing file that is not a SARIF log or is an
                             input. A failed run writes executionSuccessful:
                             false.
  --tma-require-database     A source file with no entry in the compile
                             database (-p) or no database at all is an error
                             (exit status 1) instead of a guess. Use it in
                             CI. (A database that cannot be read or has no
                             entries is always an error.)
  --tma-rule-docs-url=<url>  Base of the SARIF helpUri of each rule
                             (<url>/<RULE-ID>.md). Default:
                             )" TMA_RULE_DOCS_URL R"(
  --tma-show-commands        Print the compile command of every CUDA pass.

  Checks: with no configuration (no --config, --config-file, .clang-tidy
  above a source), tma-tidy runs -checks='-*,tma-*'; with one, it adds
  tma-* on top of it, unless the configuration turns them off by name
  (-tma-*, -tma-ordering: still off). --checks on the command line
  replaces both. Rule reference: docs/rules/.
)");

} // namespace

int main(int Argc, const char **Argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "tma-tidy " << TMA_TIDY_VERSION << " (the tma- checks on clang-tidy "
       << TMA_LLVM_VERSION << ")\n";
  });
  TidyArgs Tidy = scanArgs(Argc, Argv);
  if (!checkOutputs(Tidy))
    return 1;

  tma::sarif::SarifOptions::Invocation Run;
  // An error before clang-tidy runs: the message, the failed SARIF log,
  // status 1.
  auto Fail = [&](const std::string &Problem) {
    llvm::errs() << "tma-tidy: error: " << Problem << "\n";
    Run.Errors.push_back(Problem);
    if (Tidy.SarifFile) {
      SarifExport Export;
      Export.SarifFile = *Tidy.SarifFile;
      Run.ExitCode = 1;
      writeSarif(Export, Tidy, Run);
    }
    return 1;
  };
  // clang-tidy's answer would be "no checks enabled" (no configuration
  // here) or its whole --help.
  if (Tidy.Sources.empty() && !Tidy.Stdin && !Tidy.NeedsNoInput)
    return Fail("no input files (tma-tidy -p <build directory> FILE..., or "
                "FILE... -- <compiler flags>)");

  // The commands of the files to analyse, rewritten. clang-tidy gets them in
  // a database of their own when a rewrite changed any.
  std::optional<std::string> Directory;
  std::unique_ptr<tooling::CompilationDatabase> Database;
  // Some file runs as several CUDA passes.
  bool MultiPass = false;
  std::string LoadError;
  if (!Tidy.Sources.empty())
    Database = loadDatabase(Tidy, LoadError);
  if (!Tidy.Sources.empty() && !Tidy.DoubleDash) {
    // A database named with -p, or found, that cannot be read or has no
    // entries checks nothing: clang-tidy would skip every file and exit 0.
    // clang-tidy looks for -p's database in the directories above it too:
    // a broken compile_commands.json in -p would quietly give way to the
    // one of an enclosing project.
    if (Database && Tidy.BuildPath) {
      llvm::SmallString<256> Json(*Tidy.BuildPath);
      llvm::sys::path::append(Json, "compile_commands.json");
      if (llvm::sys::fs::exists(Json) &&
          !tooling::JSONCompilationDatabase::loadFromFile(
              Json, LoadError, tooling::JSONCommandLineSyntax::AutoDetect))
        Database = nullptr;
    }
    if (!Database && (Tidy.BuildPath ||
                      hasDatabaseFileAbove(Tidy.Sources.front()))) {
      // The loader's last line says why the JSON did not load.
      llvm::StringRef Why = llvm::StringRef(LoadError).trim();
      Why = Why.substr(Why.rfind('\n') + 1);
      Why.consume_front("json-compilation-database: ");
      llvm::SmallString<256> Json(Tidy.BuildPath.value_or(""));
      llvm::sys::path::append(Json, "compile_commands.json");
      if (Tidy.BuildPath && !llvm::sys::fs::is_directory(*Tidy.BuildPath))
        Why = "no such directory";
      else if (Tidy.BuildPath && !llvm::sys::fs::exists(Json))
        Why = "it has no compile_commands.json";
      return Fail("cannot read " + databaseName(Tidy) +
                  (Why.empty() ? std::string() : ": " + Why.str()));
    }
    llvm::StringSet<> Files;
    if (Database) {
      Files = databaseFiles(*Database);
      if (Files.empty())
        return Fail(databaseName(Tidy) + " has no entries");
    }
    // clang-tidy guesses a command for a file that the database lacks (a
    // neighbour's, or no flags at all): fine for a header, a silent hole in
    // CI for a source.
    std::vector<std::string> Problems;
    if (!Database)
      Problems.push_back("no compile database found (give -p <build "
                         "directory> or flags after --)");
    else
      for (const std::string &Source : Tidy.Sources)
        if (!Files.contains(absolutePath(Source)))
          Problems.push_back("'" + Source + "' has no entry in " +
                             databaseName(Tidy));
    for (const std::string &Problem : Problems) {
      if (Tidy.RequireDatabase) {
        llvm::errs() << "tma-tidy: error: " << Problem << "\n";
        Run.Errors.push_back(Problem);
      } else if (Database) {
        llvm::errs() << "tma-tidy: warning: " << Problem
                     << "; clang-tidy guesses its command "
                        "(--tma-require-database makes this an error)\n";
        Run.Warnings.push_back(Problem);
      }
    }
  }
  if (!Run.Errors.empty()) {
    if (Tidy.SarifFile) {
      SarifExport Export;
      Export.SarifFile = *Tidy.SarifFile;
      Run.ExitCode = 1;
      writeSarif(Export, Tidy, Run);
    }
    return 1;
  }

  if (Database) {
    std::unique_ptr<tooling::CompilationDatabase> Translated;
    TranslationNotes Notes;
    if (!Tidy.DoubleDash)
      Translated = translateDatabase(*Database, TMA_CLANG_EXECUTABLE, &Notes);
    const tooling::CompilationDatabase &Used =
        Translated ? *Translated : *Database;
    std::vector<PassCommand> Commands;
    bool Changed = Translated != nullptr;
    std::size_t Files = 0;
    std::set<std::pair<std::string, std::vector<std::string>>> Noted;
    for (const std::string &Source : Tidy.Sources) {
      for (const tooling::CompileCommand &Command :
           Used.getCompileCommands(absolutePath(Source))) {
        // What the translation of this entry left out, once per command.
        auto File = Notes.ByFile.find(fileKey(Command));
        if (File != Notes.ByFile.end()) {
          auto Entry = File->second.find(Command.CommandLine);
          if (Entry != File->second.end() &&
              Noted.insert({File->first, Command.CommandLine}).second)
            for (const std::string &Note : Entry->second)
              llvm::errs() << "tma-tidy: note: " << Command.Filename << ": "
                           << Note << "\n";
        }
        std::vector<PassCommand> Passes =
            passCommands(Command, Tidy, Translated != nullptr);
        Changed |= !Passes.front().Pass.empty();
        ++Files;
        llvm::append_range(Commands, std::move(Passes));
      }
    }
    if (Tidy.ShowCommands)
      for (const auto &[Command, Pass] : Commands) {
        llvm::errs() << "tma-tidy: " << Command.Filename;
        if (!Pass.empty())
          llvm::errs() << " [" << Pass << "]";
        llvm::errs() << ":";
        for (const std::string &Arg : Command.CommandLine)
          llvm::errs() << " " << Arg;
        llvm::errs() << "\n";
      }
    if (Changed && !Commands.empty())
      Directory = writeDatabase(Commands);
    MultiPass = Commands.size() > Files;
  }

  std::vector<std::string> Args;
  if (Directory) {
    std::size_t End = Tidy.DoubleDash ? *Tidy.DoubleDash : Tidy.Args.size();
    for (std::size_t I = 0; I < End; ++I)
      if (!Tidy.Rewritten.count(I))
        Args.push_back(Tidy.Args[I]);
    Args.emplace_back("-p");
    Args.push_back(*Directory);
  } else {
    for (std::size_t I = 0; I < Tidy.Args.size(); ++I)
      if (!Tidy.Own.count(I))
        Args.push_back(Tidy.Args[I]);
  }

  // The tma- checks in any project, unless the command line chooses.
  if (std::optional<std::string> Checks = addedChecks(Tidy))
    Args.insert(Args.begin() + 1, "--checks=" + *Checks);

  // TMA_CLANG_RESOURCE_DIR comes from CMakeLists.txt. If it is gone (the
  // binary moved to another machine), clang-tidy's own guess is the best
  // left.
  if (!Tidy.UserResourceDir &&
      llvm::sys::fs::is_directory(TMA_CLANG_RESOURCE_DIR))
    Args.insert(Args.begin() + 1,
                std::string("--extra-arg-before=-resource-dir=") +
                    TMA_CLANG_RESOURCE_DIR);

  // clang prints "N warnings generated" after each compilation, counting
  // every diagnostic of the run so far and those of every pass again (18 for
  // 9 printed). With several passes, tma-tidy silences those lines and prints
  // one that counts each printed diagnostic once.
  bool Summary = MultiPass && Directory && !Tidy.Quiet;
  if (Summary)
    Args.insert(Args.begin() + 1, "--extra-arg=-fno-caret-diagnostics");
  std::optional<SarifExport> Sarif = prepareSarif(Tidy, Args, Summary);
  if ((Tidy.SarifFile || Summary) && !Sarif)
    return 1;
  // Until clang-tidy returns, the log says the run failed: clang-tidy exits
  // by itself on a bad option, and a crash writes nothing either. A stale log
  // of an earlier clean run must not survive that.
  if (Sarif && Tidy.SarifFile) {
    tma::sarif::SarifOptions::Invocation Unfinished;
    Unfinished.ExitCode = 1;
    Unfinished.Errors.push_back("tma-tidy stopped before it wrote its results "
                                "(see its standard error)");
    SarifExport Empty = *Sarif;
    Empty.FixesFile.clear();
    Empty.TemporaryFixes = true;
    if (!writeSarif(Empty, Tidy, Unfinished))
      return 1;
  }

  std::vector<const char *> Pointers;
  Pointers.reserve(Args.size() + 1);
  for (const std::string &Arg : Args)
    Pointers.push_back(Arg.c_str());
  Pointers.push_back(nullptr);
  int Status = clang::tidy::clangTidyMain(
      static_cast<int>(Pointers.size()) - 1, Pointers.data());
  Run.ExitCode = Status;
  if (Summary)
    printSummary(*Sarif);
  if (Sarif && Tidy.SarifFile && !writeSarif(*Sarif, Tidy, Run) && Status == 0)
    Status = 1;
  return Status;
}
