//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "tidy/CompileCommands.h"
#include "tidy/NvccFlags.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <set>

namespace tma::driver {

namespace tooling = clang::tooling;

namespace {

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

/// Drops the arguments the clang driver does not know (nvcc options missing
/// from NvccFlags.cpp's table): clang-tidy would stop at them.
void dropUnknownArgs(std::vector<std::string> &Args,
                     std::vector<std::string> &Notes) {
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
    Notes.push_back("left out '" + std::string(A->getSpelling()) +
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

} // namespace

std::optional<std::vector<std::string>>
translateCommand(const tooling::CompileCommand &Command,
                 llvm::StringRef ClangExecutable,
                 std::vector<std::string> &Notes) {
  const std::vector<std::string> &Args = Command.CommandLine;
  std::optional<std::size_t> Nvcc = findNvcc(Args);
  if (!Nvcc)
    return std::nullopt;
  const Toolkit &Kit = toolkitOf(Args[*Nvcc], Command.Directory);
  NvccContext Context;
  Context.ClangExecutable = ClangExecutable.str();
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
  llvm::append_range(Notes, Translated.Notes);
  dropUnknownArgs(Translated.Args, Notes);
  return std::move(Translated.Args);
}

std::string fileKey(const tooling::CompileCommand &Command) {
  llvm::SmallString<256> Path(Command.Filename);
  llvm::sys::path::make_absolute(Command.Directory, Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::sys::path::native(Path);
  return Path.str().str();
}

namespace {

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

} // namespace

std::unique_ptr<tooling::CompilationDatabase>
translateDatabase(const tooling::CompilationDatabase &Database,
                  llvm::StringRef ClangExecutable, TranslationNotes *Notes) {
  std::vector<tooling::CompileCommand> Commands =
      Database.getAllCompileCommands();
  bool Translated = false;
  for (tooling::CompileCommand &Command : Commands) {
    std::vector<std::string> CommandNotes;
    if (std::optional<std::vector<std::string>> Args =
            translateCommand(Command, ClangExecutable, CommandNotes)) {
      Command.CommandLine = std::move(*Args);
      Translated = true;
      if (Notes && !CommandNotes.empty())
        Notes->ByFile[fileKey(Command)][Command.CommandLine] =
            std::move(CommandNotes);
    }
  }
  if (!Translated)
    return nullptr;
  return tooling::inferMissingCompileCommands(
      std::make_unique<TranslatedDatabase>(std::move(Commands)));
}


bool addToolkitIncludes(std::vector<std::string> &Args) {
  std::string CudaPath = "/usr/local/cuda";
  bool NoCudaInc = false;
  for (std::size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.consume_front("--cuda-path="))
      CudaPath = Arg.str();
    else if (Arg == "--cuda-path" && I + 1 < Args.size())
      CudaPath = Args[I + 1];
    else if (Arg == "-nocudainc")
      NoCudaInc = true;
    // Any include/cccl, however given (-isystem, -I, -isystem=...).
    if (Arg.contains("include/cccl"))
      return false;
  }
  // -nocudainc: the user wants no toolkit header (hermetic tests).
  if (NoCudaInc)
    return false;
  llvm::SmallString<256> Cccl(CudaPath);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (!llvm::sys::fs::is_directory(Cccl))
    return false;
  // Before the file and anything after `--` would be wrong only for
  // ill-formed commands; at the end it is simplest and always parsed.
  Args.push_back("-isystem");
  Args.push_back(Cccl.str().str());
  return true;
}

} // namespace tma::driver
