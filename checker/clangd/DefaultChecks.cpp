//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-clangd runs the tma- checks without any configuration: a user installs
// it to get them. clangd computes each file's clang-tidy options from a
// chain of providers: the environment, the project's .clang-tidy files,
// .clangd's Diagnostics.ClangTidy (Add, then Remove), and clangd's default
// checks when nothing chose any. The link wraps the provider of the
// .clang-tidy files (-Wl,--wrap, see CMakeLists.txt) and appends `tma-*` to
// what they enable (clangd's defaults when they enable nothing, so a project
// without a .clang-tidy keeps them): .clangd's Remove, which comes later,
// still turns the checks off (`Remove: [tma-*]`).
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"

// Not installed (clangd/TidyProvider.h): declared here as clangd does.
namespace clang::clangd {
class ThreadsafeFS;
using TidyProvider =
    llvm::unique_function<void(tidy::ClangTidyOptions &,
                               /*Filename=*/llvm::StringRef) const>;
TidyProvider provideDefaultChecks();
} // namespace clang::clangd

using clang::clangd::TidyProvider;

// clangd's provideClangTidyFiles, renamed by the linker's --wrap, and ours,
// which ClangdMain reaches instead.
TidyProvider clangdProvideClangTidyFiles(clang::clangd::ThreadsafeFS &TFS) __asm__(
    "__real__ZN5clang6clangd21provideClangTidyFilesERNS0_12ThreadsafeFSE");
// NOLINTNEXTLINE(misc-use-internal-linkage)
TidyProvider tmaProvideClangTidyFiles(clang::clangd::ThreadsafeFS &TFS) __asm__(
    "__wrap__ZN5clang6clangd21provideClangTidyFilesERNS0_12ThreadsafeFSE");

TidyProvider tmaProvideClangTidyFiles(clang::clangd::ThreadsafeFS &TFS) {
  return [Files = clangdProvideClangTidyFiles(TFS),
          Defaults = clang::clangd::provideDefaultChecks()](
             clang::tidy::ClangTidyOptions &Opts, llvm::StringRef Filename) {
    Files(Opts, Filename);
    if (!Opts.Checks || Opts.Checks->empty())
      Defaults(Opts, Filename);
    std::string Checks = Opts.Checks ? *Opts.Checks : std::string();
    Opts.Checks = Checks.empty() ? std::string("tma-*") : Checks + ",tma-*";
  };
}
