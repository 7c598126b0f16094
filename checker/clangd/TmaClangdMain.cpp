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
// * nvcc compile databases. clangd rejects nvcc command lines ("Unknown
//   argument") and does not find CCCL (<cuda/barrier>). Every database that
//   clangd loads, wherever it finds it and whenever it reloads it, is
//   translated in memory (DatabaseTranslation.cpp), one CUDA pass per .cu
//   file: the device pass of the first architecture by default,
//   --tma-cuda-pass=host for the host pass. Nothing is written.
//
// * The tma- checks are on by default, on top of the project's .clang-tidy
//   (DefaultChecks.cpp); the preamble keeps the bodies of the project's
//   headers (PreambleBodies.cpp); TMA_CLANGD_LATE_BODIES=1 keeps most as
//   tokens, parsed when the checks reach them (LateBodies.cpp). The main
//   file's instantiations of those headers' templates wait for the checks'
//   walk (DeferredInstantiations.cpp).
//
// * A compile command that could not be used as the database has it (an
//   nvcc flag the translation left out, an unreadable entry) gets one
//   diagnostic at the top of its file, added to publishDiagnostics.
//
// * Links. clangd links a clang-tidy diagnostic to
//   clang.llvm.org/extra/clang-tidy/checks/<module>/<check>.html, which does
//   not exist for tma- checks. tma-clangd rewrites the link of each tma-
//   diagnostic (codeDescription.href) to its rule's page of the rule
//   reference, <TMA_RULE_DOCS_URL>/<RULE-ID>.md (--tma-rule-docs-url=<base>
//   to change it), wrapping the serialisation of publishDiagnostics.
//
//===----------------------------------------------------------------------===//

#include "clangd/DatabaseTranslation.h"
#include "clangd/DeferredInstantiations.h"
#include "rules/RuleReference.h"

#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Version.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
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

/// tma-clangd's options, after clangd's in --help (clangd hides options of
/// other categories; tma-clangd takes these off the command line itself).
llvm::cl::extrahelp TmaHelp(R"(
tma-clangd options (clangd 22 with the tma- checks built in):

  --tma-cuda-pass=device|host  The CUDA pass clangd analyses for each CUDA
                               file: the device pass of its first GPU
                               architecture (default) or the host pass.
  --tma-rule-docs-url=<url>    Base of each tma- diagnostic's link to its
                               rule (<url>/<RULE-ID>.md). Default:
                               )" TMA_RULE_DOCS_URL R"(

  The tma- checks run on top of what the project's .clang-tidy and .clangd
  enable; `.clangd` `Diagnostics: ClangTidy: Remove: [tma-*]` turns them
  off. Compile databases are found as clangd finds them
  (--compile-commands-dir, .clangd CompileFlags.CompilationDatabase, the
  first compile_commands.json or build/compile_commands.json above a file)
  and their nvcc commands translated in memory; nothing is written. A
  command that cannot be used as it is (a flag clang does not know, an
  unreadable entry) gets one warning at the top of its file.
)");

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

/// Whether the user gave clangd's option \p Name: on the command line, or
/// in CLANGD_FLAGS, which clangd parses before the command line.
bool userSetOption(int Argc, char *Argv[], llvm::StringRef Name) {
  for (int I = 1; I < Argc; ++I) {
    if (llvm::StringRef(Argv[I]) == "--")
      break;
    if (isOption(Argv[I], Name))
      return true;
  }
  if (std::optional<std::string> Env =
          llvm::sys::Process::GetEnv("CLANGD_FLAGS")) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(*Env).split(Words, ' ', /*MaxSplit=*/-1,
                                /*KeepEmpty=*/false);
    for (llvm::StringRef Word : Words)
      if (isOption(Word.trim(), Name))
        return true;
  }
  return false;
}

/// --tma-rule-docs-url's value (or the build's default).
std::string &ruleDocsUrl() {
  static std::string Url = TMA_RULE_DOCS_URL;
  return Url;
}

/// The rule id of a clangd message: clangd capitalises it, may append
/// " (fix available)" and the notes after a blank line.
std::string_view ruleIdOfClangdMessage(llvm::StringRef Message) {
  Message = Message.split('\n').first.rtrim();
  Message.consume_back(" (fix available)");
  return tma::rules::ruleIdOfMessage(
      std::string_view(Message.data(), Message.size()));
}

/// Points the link of each tma- diagnostic of a publishDiagnostics at its
/// page of the rule reference.
void rewriteDocLinks(llvm::json::Value &Params) {
  llvm::json::Object *Object = Params.getAsObject();
  llvm::json::Array *Diagnostics =
      Object ? Object->getArray("diagnostics") : nullptr;
  if (!Diagnostics)
    return;
  std::string Base = ruleDocsUrl();
  while (!Base.empty() && Base.back() == '/')
    Base.pop_back();
  for (llvm::json::Value &Value : *Diagnostics) {
    llvm::json::Object *Diag = Value.getAsObject();
    if (!Diag)
      continue;
    std::optional<llvm::StringRef> Code = Diag->getString("code");
    std::optional<llvm::StringRef> Message = Diag->getString("message");
    if (!Code || !Message || !tmaCheckNames().contains(*Code))
      continue;
    std::string_view Id = ruleIdOfClangdMessage(*Message);
    // No rule id (coverage reports): the check's page.
    std::string Href =
        !Id.empty() && tma::rules::findRuleDoc(Id)
            ? Base + "/" + std::string(Id) + ".md"
            : Base + "/../checks/" + Code->str() + ".md";
    (*Diag)["codeDescription"] = llvm::json::Object{{"href", std::move(Href)}};
  }
}

/// The path of a file: URI (clangd percent-encodes what is not plain).
std::optional<std::string> pathOfUri(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  std::string Path;
  for (std::size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte = 0;
    if (Uri[I] == '%' && I + 2 < Uri.size() &&
        !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Path.push_back(static_cast<char>(Byte));
      I += 2;
    } else {
      Path.push_back(Uri[I]);
    }
  }
  return Path;
}

/// When the compile command of the file could not be used as the database
/// has it (an nvcc flag left out, an unreadable entry), one diagnostic at
/// the top of the file says so, in place of a screen of driver errors.
void addCommandProblem(llvm::json::Value &Params) {
  llvm::json::Object *Object = Params.getAsObject();
  llvm::json::Array *Diagnostics =
      Object ? Object->getArray("diagnostics") : nullptr;
  std::optional<llvm::StringRef> Uri =
      Object ? Object->getString("uri") : std::nullopt;
  std::optional<std::string> Path = Uri ? pathOfUri(*Uri) : std::nullopt;
  if (!Diagnostics || !Path)
    return;
  std::vector<std::string> Problems = tma::clangd::commandProblems(*Path);
  if (Problems.empty())
    return;
  // A few are enough to act on; the log lists them all.
  constexpr std::size_t Shown = 3;
  std::string Message =
      "tma-clangd could not use this file's compile command as it is: ";
  for (std::size_t I = 0; I < Problems.size() && I < Shown; ++I)
    Message += (I ? "; " : "") + Problems[I];
  if (Problems.size() > Shown)
    Message += "; and " + std::to_string(Problems.size() - Shown) +
               " more (clangd's log lists them)";
  llvm::json::Object Start{{"line", 0}, {"character", 0}};
  llvm::json::Object Diag{
      {"range", llvm::json::Object{{"start", llvm::json::Object(Start)},
                                   {"end", llvm::json::Object(Start)}}},
      {"severity", 2},
      {"source", "tma-clangd"},
      {"message", std::move(Message)}};
  Diagnostics->insert(Diagnostics->begin(), std::move(Diag));
}

/// What tma-clangd takes out of the command line before clangd sees it.
struct ClangdArgs {
  std::vector<std::string> Args;
};

std::optional<ClangdArgs> scanArgs(int Argc, char *Argv[]) {
  ClangdArgs Result;
  for (int I = 0; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    llvm::StringRef Body = Arg;
    if (I > 0 && Body.consume_front("-")) {
      Body.consume_front("-");
      llvm::StringRef Name = Body.split('=').first;
      llvm::StringRef Value = Body.split('=').second;
      bool HasValue = Body.contains('=');
      auto Take = [&]() -> std::optional<std::string> {
        if (HasValue)
          return Value.str();
        if (I + 1 < Argc)
          return std::string(Argv[++I]);
        return std::nullopt;
      };
      if (Name == "tma-rule-docs-url" || Name == "tma-cuda-pass") {
        std::optional<std::string> Taken = Take();
        if (!Taken) {
          llvm::errs() << "tma-clangd: error: --" << Name
                       << " needs a value\n";
          return std::nullopt;
        }
        if (Name == "tma-rule-docs-url") {
          ruleDocsUrl() = *Taken;
        } else if (Name == "tma-cuda-pass") {
          if (*Taken != "device" && *Taken != "host") {
            llvm::errs() << "tma-clangd: error: --tma-cuda-pass is 'device' "
                            "or 'host', not '"
                         << *Taken << "'\n";
            return std::nullopt;
          }
          tma::clangd::cudaPassChoice() = *Taken;
        }
        continue;
      }
    }
    Result.Args.push_back(Arg.str());
  }
  return Result;
}

} // namespace

namespace clang::clangd {
struct PublishDiagnosticsParams;
} // namespace clang::clangd

// clangd's serialisation of publishDiagnostics, renamed by the linker's
// --wrap, and ours, which ClangdLSPServer reaches instead (see
// CMakeLists.txt): `llvm::json::Value
// clang::clangd::toJSON(const PublishDiagnosticsParams &)`.
llvm::json::Value clangdPublishToJSON(
    const clang::clangd::PublishDiagnosticsParams &Params) __asm__(
    "__real__ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE");
// NOLINTNEXTLINE(misc-use-internal-linkage)
llvm::json::Value
tmaPublishToJSON(const clang::clangd::PublishDiagnosticsParams &Params) __asm__(
    "__wrap__ZN5clang6clangd6toJSONERKNS0_24PublishDiagnosticsParamsE");

llvm::json::Value
tmaPublishToJSON(const clang::clangd::PublishDiagnosticsParams &Params) {
  llvm::json::Value Result = clangdPublishToJSON(Params);
  rewriteDocLinks(Result);
  addCommandProblem(Result);
  return Result;
}

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
  std::optional<ClangdArgs> Scanned = scanArgs(Argc, Argv);
  if (!Scanned)
    return 1;
  std::vector<std::string> Owned = std::move(Scanned->Args);
  // clangd's version printer replaces llvm::cl's, extra printers included:
  // tma-clangd answers --version itself, naming both.
  for (const std::string &Arg : llvm::ArrayRef(Owned).drop_front())
    if (Arg == "--")
      break;
    else if (Arg == "--version" || Arg == "-version") {
      llvm::outs() << "tma-clangd " << TMA_TIDY_VERSION
                   << " (the tma- checks of tma-tidy " << TMA_TIDY_VERSION
                   << ", built into "
                   << clang::getClangToolFullVersion("clangd") << ")\n";
      return 0;
    }
  // TMA_CLANG_RESOURCE_DIR comes from CMakeLists.txt. If it is gone (the
  // binary moved to another machine), clangd's own guess is the best left.
  std::vector<char *> Args;
  for (std::string &Arg : Owned)
    Args.push_back(Arg.data());
  std::string ResourceDirArg =
      std::string("--resource-dir=") + TMA_CLANG_RESOURCE_DIR;
  if (Argc > 0 && !userSetOption(Argc, Argv, "resource-dir") &&
      llvm::sys::fs::is_directory(TMA_CLANG_RESOURCE_DIR))
    Args.insert(Args.begin() + 1, ResourceDirArg.data());
  Args.push_back(nullptr);
  // With --parse-forwarding-functions stock clangd instantiates templates
  // of the preamble that the deferral cannot tell from the ones it skips:
  // every instantiation is done at the end of the file then.
  clang::tidy::tma::clangd::installBodyProviders(
      Argc > 0 && !userSetOption(Argc, Argv, "parse-forwarding-functions"));
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
