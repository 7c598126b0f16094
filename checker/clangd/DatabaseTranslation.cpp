//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// clangd finds a file's compile_commands.json itself: --compile-commands-dir,
// .clangd's CompileFlags.CompilationDatabase (relative to the .clangd), or
// the first compile_commands.json or build/compile_commands.json above the
// file; it reads it again when it changes. Each time, it parses the file's
// text with clang::tooling::JSONCompilationDatabase::loadFromBuffer. The link
// wraps that function (-Wl,--wrap, see CMakeLists.txt): the database it
// returns holds every command as tma-tidy translates it (tidy/
// CompileCommands.h: nvcc flags to clang's, the toolkit, include/cccl), with
// one CUDA pass per CUDA file (the device pass of the first architecture, or
// the host pass with --tma-cuda-pass=host). Wherever clangd finds a database,
// and whenever it reloads it, the translation follows; nothing is written.
// What the translation leaves out is logged once per command, and kept per
// file for commandProblems (tma-clangd's one diagnostic at the top of the
// file). A database that clang's loader rejects for one bad entry keeps its
// other entries; the bad entry's file is told why.
//
//===----------------------------------------------------------------------===//

#include "clangd/DatabaseTranslation.h"
#include "tidy/CompileCommands.h"
#include "tidy/NvccFlags.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace tma::clangd {

std::string &cudaPassChoice() {
  static std::string Pass = "device";
  return Pass;
}

namespace {

/// commandProblems' answers: by fileKey, from the last load that listed the
/// file.
struct Problems {
  std::mutex Lock;
  llvm::StringMap<std::vector<std::string>> ByFile;
};

Problems &problems() {
  static Problems Instance;
  return Instance;
}

/// Rewrites \p Command for clangd; true when it changed. Notes gets what the
/// translation left out.
bool translateForClangd(clang::tooling::CompileCommand &Command,
                        std::vector<std::string> &Notes) {
  using namespace tma::driver;
  bool Changed = false, FromNvcc = false;
  if (std::optional<std::vector<std::string>> Translated =
          translateCommand(Command, TMA_CLANG_EXECUTABLE, Notes)) {
    // Several databases (and reloads) may translate the same command.
    static std::mutex Lock;
    static std::set<std::pair<std::string, std::vector<std::string>>> Noted;
    std::lock_guard<std::mutex> Guard(Lock);
    if (Noted.insert({Command.Filename, *Translated}).second)
      for (const std::string &Note : Notes)
        llvm::errs() << "tma-clangd: note: " << Command.Filename << ": "
                     << Note << "\n";
    Command.CommandLine = std::move(*Translated);
    FromNvcc = Changed = true;
  }
  if (!isCudaCompile(Command.CommandLine, Command.Filename))
    return Changed;
  Changed |= addToolkitIncludes(Command.CommandLine);
  CudaPassOptions Options;
  Options.NvccArchMacros = FromNvcc;
  const bool Host = cudaPassChoice() == "host";
  // splitCudaPasses lists the device passes first, the host pass last. A
  // clang command keeps its own pass choice unless the host pass is asked.
  if (!FromNvcc && !Host)
    return Changed;
  for (const CudaPass &Pass : splitCudaPasses(Command.CommandLine, Options))
    if ((Pass.Name == "host") == Host) {
      Command.CommandLine = Pass.Args;
      return true;
    }
  return Changed;
}

/// The fileKey of a database entry, when it names its file and directory.
std::optional<std::string> entryFile(const llvm::json::Value &Entry) {
  const llvm::json::Object *Object = Entry.getAsObject();
  if (!Object)
    return std::nullopt;
  std::optional<llvm::StringRef> File = Object->getString("file");
  std::optional<llvm::StringRef> Directory = Object->getString("directory");
  if (!File || !Directory)
    return std::nullopt;
  clang::tooling::CompileCommand Command;
  Command.Filename = File->str();
  Command.Directory = Directory->str();
  return tma::driver::fileKey(Command);
}

} // namespace

std::vector<std::string> commandProblems(llvm::StringRef File) {
  llvm::SmallString<256> Key(File);
  llvm::sys::path::remove_dots(Key, /*remove_dot_dot=*/true);
  llvm::sys::path::native(Key);
  Problems &P = problems();
  std::lock_guard<std::mutex> Guard(P.Lock);
  auto It = P.ByFile.find(Key);
  return It == P.ByFile.end() ? std::vector<std::string>() : It->second;
}

} // namespace tma::clangd

using LoadResult = std::unique_ptr<clang::tooling::JSONCompilationDatabase>;

// clang's JSONCompilationDatabase::loadFromBuffer, renamed by the linker's
// --wrap, and ours, which clangd's database loader reaches instead.
LoadResult clangLoadFromBuffer(llvm::StringRef DatabaseString,
                               std::string &ErrorMessage,
                               clang::tooling::JSONCommandLineSyntax Syntax)
    __asm__("__real__ZN5clang7tooling23JSONCompilationDatabase14loadFromBuffer"
            "EN4llvm9StringRefERNSt7__cxx1112basic_stringIcSt11char_traitsIcES"
            "aIcEEENS0_21JSONCommandLineSyntaxE");
// NOLINTNEXTLINE(misc-use-internal-linkage)
LoadResult tmaLoadFromBuffer(llvm::StringRef DatabaseString,
                             std::string &ErrorMessage,
                             clang::tooling::JSONCommandLineSyntax Syntax)
    __asm__("__wrap__ZN5clang7tooling23JSONCompilationDatabase14loadFromBuffer"
            "EN4llvm9StringRefERNSt7__cxx1112basic_stringIcSt11char_traitsIcES"
            "aIcEEENS0_21JSONCommandLineSyntaxE");

/// The entries of a database that clang's loader rejects as a whole (one
/// entry without "file", a "command" that is not a string, ...), each
/// loaded alone: those that load, or nullptr when none does. Problems gets
/// each rejected entry's file and reason.
static LoadResult
loadReadableEntries(llvm::StringRef DatabaseString,
                    clang::tooling::JSONCommandLineSyntax Syntax,
                    std::map<std::string, std::vector<std::string>> &Problems) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(DatabaseString);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return nullptr;
  }
  const llvm::json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return nullptr;
  llvm::json::Array Kept;
  for (const llvm::json::Value &Entry : *Entries) {
    std::string Error;
    std::string Alone =
        llvm::formatv("{0}", llvm::json::Value(llvm::json::Array{Entry}))
            .str();
    if (clangLoadFromBuffer(Alone, Error, Syntax)) {
      Kept.push_back(Entry);
      continue;
    }
    std::optional<std::string> File = tma::clangd::entryFile(Entry);
    llvm::errs() << "tma-clangd: note: "
                 << (File ? *File : std::string("a compile database entry"))
                 << ": left out of the compile database: " << Error << "\n";
    if (File)
      Problems[*File].push_back(
          "its entry in the compile database cannot be read (" +
          llvm::StringRef(Error).rtrim(" .").str() +
          "), so clangd guesses its command from another entry");
  }
  if (Kept.empty())
    return nullptr;
  std::string Error;
  return clangLoadFromBuffer(
      llvm::formatv("{0}", llvm::json::Value(std::move(Kept))).str(), Error,
      Syntax);
}

LoadResult tmaLoadFromBuffer(llvm::StringRef DatabaseString,
                             std::string &ErrorMessage,
                             clang::tooling::JSONCommandLineSyntax Syntax) {
  // What went wrong with each file's command in this load; every file the
  // load lists gets an entry, so that a re-configured database clears the
  // problems of the last one.
  std::map<std::string, std::vector<std::string>> Problems;
  LoadResult Database =
      clangLoadFromBuffer(DatabaseString, ErrorMessage, Syntax);
  if (!Database)
    Database = loadReadableEntries(DatabaseString, Syntax, Problems);
  if (!Database)
    return Database;
  bool Changed = false;
  llvm::json::Array Entries;
  for (clang::tooling::CompileCommand &Command :
       Database->getAllCompileCommands()) {
    std::vector<std::string> Notes;
    std::string Key = tma::driver::fileKey(Command);
    Changed |= tma::clangd::translateForClangd(Command, Notes);
    llvm::append_range(Problems[Key], Notes);
    llvm::json::Array Arguments;
    for (const std::string &Arg : Command.CommandLine)
      Arguments.push_back(Arg);
    llvm::json::Object Entry{{"directory", Command.Directory},
                             {"file", Command.Filename},
                             {"arguments", std::move(Arguments)}};
    if (!Command.Output.empty())
      Entry["output"] = Command.Output;
    Entries.push_back(std::move(Entry));
  }
  {
    tma::clangd::Problems &P = tma::clangd::problems();
    std::lock_guard<std::mutex> Guard(P.Lock);
    for (auto &[File, Notes] : Problems)
      if (Notes.empty())
        P.ByFile.erase(File);
      else
        P.ByFile[File] = std::move(Notes);
  }
  if (!Changed)
    return Database;
  std::string Translated =
      llvm::formatv("{0}", llvm::json::Value(std::move(Entries))).str();
  LoadResult Result = clangLoadFromBuffer(
      Translated, ErrorMessage, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  return Result ? std::move(Result) : std::move(Database);
}
