//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_ENCODERESULTCHECK_H
#define TMA_TIDY_CHECKS_ENCODERESULTCHECK_H

#include "folding/ConstantFolder.h"

#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <optional>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// Finds tensor-map encode calls (cuTensorMapEncodeTiled, Im2col, Im2colWide,
/// cuTensorMapReplaceAddress) whose CUresult is discarded, so a rejected
/// descriptor goes unnoticed (TMAP-ENC-RESULT-CHECKED), and run-time lookups
/// of these functions that return a null or unversioned function pointer
/// (TMAP-ENTRY-NULL, TMAP-ENTRY-UNVERSIONED).
///
/// For the user-facing documentation see: docs/checks/tma-encode-result.md
class EncodeResultCheck : public ClangTidyCheck {
public:
  EncodeResultCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                           Preprocessor *) override {
    this->PP = PP;
  }
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Report.clear();
    Folder.reset();
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Every diagnostic goes through it (checks/SiteReporter.h); every site
  /// may report (a host call runs where it is written).
  SiteReporter Report{*this, Rules, [] { return true; }};
  void checkLookup(const CallExpr &Call,
                   const ast_matchers::MatchFinder::MatchResult &Result);

  Preprocessor *PP = nullptr;
  /// For its call index and per-body parent maps.
  std::shared_ptr<ConstantFolder> Folder;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_ENCODERESULTCHECK_H
