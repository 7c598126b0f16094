//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-clangd: the installed clangd (libclangdMain.a) with the tma- checks
// linked in. Two things differ from a stock clangd:
//
// * The resource directory. clangd derives it from its own executable path
//   (<exe>/../lib/clang/<major>), which is wrong for build/bin/tma-clangd, and
//   the builtin headers (stddef.h, the CUDA wrappers) would not be found. Unless
//   the user passes --resource-dir (on the command line or in CLANGD_FLAGS),
//   we pass the one of the Clang we were built against.
//
// * clangd's fast-check filter. clangd runs only the clang-tidy checks it has
//   timed as fast (Diagnostics.ClangTidy.FastCheckFilter: Strict, the
//   default), asking clang::clangd::isFastTidyCheck(Name), and silently drops
//   every check it does not know. The link wraps that function
//   (-Wl,--wrap, see CMakeLists.txt): the checks of our module count as fast,
//   every other name gets clangd's own answer. So `tma-*` in a .clang-tidy or
//   in .clangd's Diagnostics.ClangTidy.Add is enough, and FastCheckFilter keeps
//   its meaning for all other checks.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include <optional>
#include <string>
#include <vector>

// Not installed (clangd/ClangdMain.h): declared here, defined in clangdMain.
namespace clang::clangd {
int clangdMain(int Argc, char *Argv[]);
} // namespace clang::clangd

// Keeps the module's registration (TmaTidyModule.cpp) in the link.
extern volatile int TmaModuleAnchorSource;
[[maybe_unused]] static int TmaModuleAnchorDestination = TmaModuleAnchorSource;

namespace {

/// The name under which TmaTidyModule.cpp registers the module.
constexpr llvm::StringLiteral TmaModuleName = "tma-module";

/// The checks that the tma module registers, asked once from the registry.
const llvm::StringSet<> &tmaCheckNames() {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> Result;
    for (const auto &Entry :
         clang::tidy::ClangTidyModuleRegistry::entries()) {
      if (Entry.getName() != TmaModuleName)
        continue;
      clang::tidy::ClangTidyCheckFactories Factories;
      Entry.instantiate()->addCheckFactories(Factories);
      for (const auto &Factory : Factories)
        Result.insert(Factory.getKey());
    }
    return Result;
  }();
  return Names;
}

/// Whether Arg names the option Name (`-name`, `--name`, with `=value` or
/// not), as llvm::cl accepts it.
bool isOption(llvm::StringRef Arg, llvm::StringRef Name) {
  if (!Arg.consume_front("-"))
    return false;
  Arg.consume_front("-");
  return Arg == Name || (Arg.starts_with(Name) && Arg[Name.size()] == '=');
}

/// Whether the user chose a resource directory: on the command line, or in
/// CLANGD_FLAGS, which clangd parses before the command line.
bool userSetResourceDir(int Argc, char *Argv[]) {
  for (int I = 1; I < Argc; ++I) {
    if (llvm::StringRef(Argv[I]) == "--")
      break;
    if (isOption(Argv[I], "resource-dir"))
      return true;
  }
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("CLANGD_FLAGS")) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(*Env).split(Words, ' ', /*MaxSplit=*/-1,
                                /*KeepEmpty=*/false);
    for (llvm::StringRef Word : Words)
      if (isOption(Word.trim(), "resource-dir"))
        return true;
  }
  return false;
}

} // namespace

// clangd's own isFastTidyCheck, renamed by the linker's --wrap, and our
// replacement, which every caller in clangd reaches instead. The asm labels
// are the names --wrap gives; the mangled name is that of
// `std::optional<bool> clang::clangd::isFastTidyCheck(llvm::StringRef)`.
std::optional<bool> clangdIsFastTidyCheck(llvm::StringRef Check) __asm__(
    "__real__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");
// External: the linker resolves clangd's calls to it by name.
// NOLINTNEXTLINE(misc-use-internal-linkage)
std::optional<bool> tmaIsFastTidyCheck(llvm::StringRef Check) __asm__(
    "__wrap__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

// The module's checks count as fast: `tma-clangd --check=FILE
// --check-tidy-time='tma-*'` measured 0-2% of the AST build on real TMA files,
// below the 8% of clangd's TidyFastChecks.py (docs/getting-started.md).
std::optional<bool> tmaIsFastTidyCheck(llvm::StringRef Check) {
  if (tmaCheckNames().contains(Check))
    return true;
  return clangdIsFastTidyCheck(Check);
}

int main(int Argc, char *Argv[]) {
  std::vector<char *> Args(Argv, Argv + Argc);
  // TMA_CLANG_RESOURCE_DIR comes from CMakeLists.txt. If it is gone (the
  // binary moved to another machine), clangd's own guess is the best left.
  std::string ResourceDirArg =
      std::string("--resource-dir=") + TMA_CLANG_RESOURCE_DIR;
  if (Argc > 0 && !userSetResourceDir(Argc, Argv) &&
      llvm::sys::fs::is_directory(TMA_CLANG_RESOURCE_DIR))
    Args.insert(Args.begin() + 1, ResourceDirArg.data());
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
