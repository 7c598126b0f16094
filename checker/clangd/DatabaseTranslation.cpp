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
// What the translation leaves out is logged once per command.
//
//===----------------------------------------------------------------------===//

#include "clangd/DatabaseTranslation.h"
#include "tidy/CompileCommands.h"
#include "tidy/NvccFlags.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
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

/// Rewrites \p Command for clangd; true when it changed.
bool translateForClangd(clang::tooling::CompileCommand &Command) {
  using namespace tma::driver;
  bool Changed = false, FromNvcc = false;
  std::vector<std::string> Notes;
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

} // namespace
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

LoadResult tmaLoadFromBuffer(llvm::StringRef DatabaseString,
                             std::string &ErrorMessage,
                             clang::tooling::JSONCommandLineSyntax Syntax) {
  LoadResult Database =
      clangLoadFromBuffer(DatabaseString, ErrorMessage, Syntax);
  if (!Database)
    return Database;
  bool Changed = false;
  llvm::json::Array Entries;
  for (clang::tooling::CompileCommand &Command :
       Database->getAllCompileCommands()) {
    Changed |= tma::clangd::translateForClangd(Command);
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
  if (!Changed)
    return Database;
  std::string Translated =
      llvm::formatv("{0}", llvm::json::Value(std::move(Entries))).str();
  LoadResult Result = clangLoadFromBuffer(
      Translated, ErrorMessage, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  return Result ? std::move(Result) : std::move(Database);
}
