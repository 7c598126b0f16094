//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
#define TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include <set>

namespace clang::tidy::tma {

/// Finds __global__ kernel parameters that hold a CUtensorMap by value
/// without 'const __grid_constant__' while their address reaches a TMA
/// operation: the address is that of a local copy, which TMA cannot read
/// (TMAP-PLACE-GRID-CONSTANT).
///
/// For the user-facing documentation see:
/// docs/checks/tma-tensor-map-placement.md
class TensorMapPlacementCheck : public ClangTidyCheck {
public:
  TensorMapPlacementCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { Reported.clear(); }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// How many levels of device functions the address is followed into.
  const unsigned CallDepth;
  /// Parameters already reported: template instantiations repeat a kernel.
  std::set<SourceLocation::UIntTy> Reported;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
