//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_ENCODERESULTCHECK_H
#define TMA_TIDY_CHECKS_ENCODERESULTCHECK_H

#include "folding/ConstantFolder.h"

#include "checks/RuleFilter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>

namespace clang::tidy::tma {

/// Finds tensor-map encode calls (cuTensorMapEncodeTiled, Im2col, Im2colWide,
/// cuTensorMapReplaceAddress) whose CUresult is discarded, so a rejected
/// descriptor goes unnoticed (TMAP-ENC-RESULT-CHECKED).
///
/// For the user-facing documentation see: docs/checks/tma-encode-result.md
class EncodeResultCheck : public ClangTidyCheck {
public:
  EncodeResultCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Reported.clear();
    Folder.reset();
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

private:
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Locations already reported: template instantiations repeat a call.
  std::set<SourceLocation::UIntTy> Reported;
  /// For its call index and per-body parent maps.
  std::shared_ptr<ConstantFolder> Folder;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_ENCODERESULTCHECK_H
