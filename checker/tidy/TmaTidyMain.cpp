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

#include "tidy/NvccFlags.h"
#include "tidy/Sarif.h"

#include "clang-tidy/tool/ClangTidyMain.h"
#include "clang/Options/Options.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
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
    if (Arg.size() < 2 || Arg[0] != '-') {
      Result.Sources.push_back(Args[I]);
      continue;
    }
    llvm::StringRef Body = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Name, Value] = Body.split('=');
    bool HasValue = Body.contains('=');
    if (Name == "tma-show-commands") {
      Result.ShowCommands = true;
      Result.Rewritten.insert(I);
      Result.Own.insert(I);
      continue;
    }
    if (Name == "tma-export-sarif") {
      Result.Rewritten.insert(I);
      Result.Own.insert(I);
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

/// The CUDA toolkit of an nvcc: its root (<root>/bin/nvcc), version and
/// include/cccl. Looked up once per nvcc.
struct Toolkit {
  std::string Root;
  std::optional<CudaVersion> Version;
  std::vector<std::string> ImplicitSystemIncludes;
};

const Toolkit &toolkitOf(llvm::StringRef Nvcc, llvm::StringRef Directory) {
  static llvm::StringMap<Toolkit> Cache;
  std::string Key = (Directory + "\n" + Nvcc).str();
  auto [It, Inserted] = Cache.try_emplace(Key);
  Toolkit &Kit = It->second;
  if (!Inserted)
    return Kit;

  llvm::SmallString<256> Path;
  if (!Nvcc.contains('/')) {
    if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Nvcc))
      Path = *Found;
  } else {
    Path = Nvcc;
    llvm::sys::path::make_absolute(Directory, Path);
  }
  // <root>/bin/nvcc, as named or with its links resolved (/usr/bin/nvcc).
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  if (!Path.empty() && llvm::sys::fs::real_path(Path, Real))
    Real.clear();
  for (llvm::StringRef Candidate : {Path.str(), Real.str()}) {
    if (Candidate.empty() || !Kit.Root.empty())
      continue;
    llvm::StringRef Root =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Candidate));
    llvm::SmallString<256> Header(Root);
    llvm::sys::path::append(Header, "include", "cuda.h");
    if (llvm::sys::fs::exists(Header))
      Kit.Root = Root.str();
  }
  if (Kit.Root.empty() &&
      llvm::sys::fs::exists("/usr/local/cuda/include/cuda.h"))
    Kit.Root = "/usr/local/cuda";
  if (Kit.Root.empty())
    return Kit;

  llvm::SmallString<256> Header(Kit.Root);
  llvm::sys::path::append(Header, "include", "cuda.h");
  if (auto Buffer = llvm::MemoryBuffer::getFile(Header))
    Kit.Version = parseCudaHeaderVersion((*Buffer)->getBuffer().str());
  llvm::SmallString<256> Cccl(Kit.Root);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl))
    Kit.ImplicitSystemIncludes.push_back(Cccl.str().str());
  return Kit;
}

/// Prints a note once per run.
void note(llvm::StringRef Message) {
  static llvm::StringSet<> Printed;
  if (Printed.insert(Message).second)
    llvm::errs() << "tma-tidy: note: " << Message << "\n";
}

/// Drops the arguments the clang driver does not know (nvcc options missing
/// from NvccFlags.cpp's table): clang-tidy would stop at them.
void dropUnknownArgs(std::vector<std::string> &Args) {
  if (Args.size() < 2)
    return;
  std::vector<const char *> Pointers;
  for (std::size_t I = 1; I < Args.size(); ++I)
    Pointers.push_back(Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = clang::getDriverOptTable().ParseArgs(
      Pointers, MissingIndex, MissingCount);
  std::set<std::size_t> Unknown;
  for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_UNKNOWN)) {
    Unknown.insert(A->getIndex() + 1);
    note("left out '" + std::string(A->getSpelling()) +
         "', which clang does not know");
  }
  if (Unknown.empty())
    return;
  std::vector<std::string> Kept;
  for (std::size_t I = 0; I < Args.size(); ++I)
    if (!Unknown.count(I))
      Kept.push_back(std::move(Args[I]));
  Args = std::move(Kept);
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

/// The clang command of an nvcc command (NvccFlags.h), or nullopt when the
/// command is not nvcc's.
std::optional<std::vector<std::string>>
translateCommand(const tooling::CompileCommand &Command) {
  const std::vector<std::string> &Args = Command.CommandLine;
  std::optional<std::size_t> Nvcc = findNvcc(Args);
  if (!Nvcc)
    return std::nullopt;
  const Toolkit &Kit = toolkitOf(Args[*Nvcc], Command.Directory);
  NvccContext Context;
  Context.ClangExecutable = TMA_CLANG_EXECUTABLE;
  Context.CudaPath = Kit.Root;
  Context.Version = Kit.Version;
  Context.ImplicitSystemIncludes = Kit.ImplicitSystemIncludes;
  std::string Directory = Command.Directory;
  Context.ReadFile =
      [Directory](const std::string &File) -> std::optional<std::string> {
    llvm::SmallString<256> Path(File);
    llvm::sys::path::make_absolute(Directory, Path);
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return std::nullopt;
    return (*Buffer)->getBuffer().str();
  };
  NvccTranslation Translated = translateNvccCommand(Args, Context);
  for (const std::string &Message : Translated.Notes)
    note(Message);
  dropUnknownArgs(Translated.Args);
  return std::move(Translated.Args);
}

/// The normalised absolute path of a command's file, as a database key.
std::string fileKey(const tooling::CompileCommand &Command) {
  llvm::SmallString<256> Path(Command.Filename);
  llvm::sys::path::make_absolute(Command.Directory, Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::sys::path::native(Path);
  return Path.str().str();
}

/// The commands of a database with its nvcc commands translated. Wrapped in
/// tooling::inferMissingCompileCommands, as clang-tidy wraps a JSON database,
/// so that a header not in the database gets the clang command of a source
/// file next to it rather than an nvcc one.
class TranslatedDatabase : public tooling::CompilationDatabase {
public:
  explicit TranslatedDatabase(std::vector<tooling::CompileCommand> Commands) {
    for (tooling::CompileCommand &Command : Commands) {
      std::string Key = fileKey(Command);
      auto [It, Inserted] = ByFile.try_emplace(Key);
      if (Inserted)
        Files.push_back(Key);
      It->second.push_back(std::move(Command));
    }
  }

  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    llvm::SmallString<256> Key(FilePath);
    llvm::sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
    llvm::sys::path::native(Key);
    auto It = ByFile.find(Key);
    return It == ByFile.end() ? std::vector<tooling::CompileCommand>()
                              : It->second;
  }

  std::vector<std::string> getAllFiles() const override { return Files; }

  std::vector<tooling::CompileCommand> getAllCompileCommands() const override {
    std::vector<tooling::CompileCommand> All;
    for (const std::string &File : Files)
      llvm::append_range(All, ByFile.find(File)->second);
    return All;
  }

private:
  llvm::StringMap<std::vector<tooling::CompileCommand>> ByFile;
  std::vector<std::string> Files;
};

/// Database with its nvcc commands translated; nullptr when it has none.
std::unique_ptr<tooling::CompilationDatabase>
translateDatabase(const tooling::CompilationDatabase &Database) {
  std::vector<tooling::CompileCommand> Commands =
      Database.getAllCompileCommands();
  bool Translated = false;
  for (tooling::CompileCommand &Command : Commands)
    if (std::optional<std::vector<std::string>> Args =
            translateCommand(Command)) {
      Command.CommandLine = std::move(*Args);
      Translated = true;
    }
  if (!Translated)
    return nullptr;
  return tooling::inferMissingCompileCommands(
      std::make_unique<TranslatedDatabase>(std::move(Commands)));
}

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
  std::vector<PassCommand> Passes;
  for (CudaPass &Pass : splitCudaPasses(Command.CommandLine, Options)) {
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
loadDatabase(const TidyArgs &Tidy) {
  std::string Error;
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

std::optional<SarifExport> prepareSarif(const TidyArgs &Tidy,
                                        std::vector<std::string> &Args) {
  if (!Tidy.SarifFile)
    return std::nullopt;
  SarifExport Export;
  Export.SarifFile = *Tidy.SarifFile;
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
bool writeSarif(const SarifExport &Export) {
  tma::sarif::SarifOptions Options;
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    Options.RootDirectory = Cwd.str().str();
  Options.ToolVersion = TMA_TIDY_VERSION;
  Options.InformationUri = TMA_SARIF_INFORMATION_URI;
  std::string Fixes = Export.FixesFile;
  // The user's --export-fixes file from an earlier run: no diagnostics now.
  // An empty name reads as no diagnostics.
  if (!Export.TemporaryFixes && Export.StampBefore &&
      fileStamp(Fixes) == Export.StampBefore)
    Fixes.clear();
  if (llvm::Error Error = tma::sarif::convertFixesFile(
          Fixes, Export.SarifFile, Options)) {
    llvm::errs() << "tma-tidy: " << llvm::toString(std::move(Error)) << "\n";
    return false;
  }
  return true;
}

} // namespace

int main(int Argc, const char **Argv) {
  TidyArgs Tidy = scanArgs(Argc, Argv);

  // The commands of the files to analyse, rewritten. clang-tidy gets them in
  // a database of their own when a rewrite changed any.
  std::optional<std::string> Directory;
  std::unique_ptr<tooling::CompilationDatabase> Database;
  if (!Tidy.Sources.empty())
    Database = loadDatabase(Tidy);
  if (Database) {
    std::unique_ptr<tooling::CompilationDatabase> Translated;
    if (!Tidy.DoubleDash)
      Translated = translateDatabase(*Database);
    const tooling::CompilationDatabase &Used =
        Translated ? *Translated : *Database;
    std::vector<PassCommand> Commands;
    bool Changed = Translated != nullptr;
    for (const std::string &Source : Tidy.Sources) {
      for (const tooling::CompileCommand &Command :
           Used.getCompileCommands(absolutePath(Source))) {
        std::vector<PassCommand> Passes =
            passCommands(Command, Tidy, Translated != nullptr);
        Changed |= !Passes.front().Pass.empty();
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

  // TMA_CLANG_RESOURCE_DIR comes from CMakeLists.txt. If it is gone (the
  // binary moved to another machine), clang-tidy's own guess is the best
  // left.
  if (!Tidy.UserResourceDir &&
      llvm::sys::fs::is_directory(TMA_CLANG_RESOURCE_DIR))
    Args.insert(Args.begin() + 1,
                std::string("--extra-arg-before=-resource-dir=") +
                    TMA_CLANG_RESOURCE_DIR);

  std::optional<SarifExport> Sarif = prepareSarif(Tidy, Args);
  if (Tidy.SarifFile && !Sarif)
    return 1;

  std::vector<const char *> Pointers;
  Pointers.reserve(Args.size() + 1);
  for (const std::string &Arg : Args)
    Pointers.push_back(Arg.c_str());
  Pointers.push_back(nullptr);
  int Status = clang::tidy::clangTidyMain(
      static_cast<int>(Pointers.size()) - 1, Pointers.data());
  if (Sarif && !writeSarif(*Sarif) && Status == 0)
    Status = 1;
  return Status;
}
