//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
#define TMA_TIDY_CHECKS_DESCRIPTORCHECK_H

#include "folding/ConstantFolder.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>
#include <string>

namespace clang::tidy::tma {

/// Finds cuTensorMapEncodeTiled calls whose folded operands break a rule of
/// the driver, so the call would return CUDA_ERROR_INVALID_VALUE or encode a
/// map that reads the wrong memory.
///
/// For the user-facing documentation see: docs/checks/tma-descriptor.md
class DescriptorCheck : public ClangTidyCheck {
public:
  DescriptorCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

private:
  const bool StrideUnitHeuristics;
  const bool AddressTypeCheck;
  std::unique_ptr<ConstantFolder> Folder;
  /// (location, message) pairs already reported in this translation unit:
  /// template instantiations repeat the same call.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
