//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
#define TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H

#include "api/PlacementFacts.h"
#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"
#include "rules/PlacementSite.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::tma {

class SharedMatchers;

/// Finds __global__ kernel parameters that hold a CUtensorMap by value
/// without 'const __grid_constant__' while their address reaches a TMA
/// operation: the address is that of a local copy, which TMA cannot read
/// (TMAP-PLACE-GRID-CONSTANT). With GlobalFence, also finds maps read from
/// global memory (a `const CUtensorMap *` kernel parameter, a `__device__`
/// map) by a TMA operation of a kernel that executes no
/// fence.proxy.tensormap::generic.acquire (TMAP-PLACE-GLOBAL-FENCE).
/// Also TMA-MAP-STATE-SPACE (maps copied where TMA cannot read them),
/// TMAP-DEV-READONLY-PARAM (a __grid_constant__ map modified in place) and
/// TMAP-DEV-REPLACE-ENCODING (tensormap.replace values in the driver's
/// numbering, or outside a field's codes).
///
/// For the user-facing documentation see:
/// docs/checks/tma-tensor-map-placement.md
class TensorMapPlacementCheck : public ClangTidyCheck {
public:
  TensorMapPlacementCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override {
    Reported.clear();
    Report.clear();
    Facts.reset();
    Folder.reset();
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// How many levels of device functions the address is followed into.
  const unsigned CallDepth;
  /// Report TMAP-PLACE-GLOBAL-FENCE.
  const bool GlobalFence;
  /// Placement sites already reported, by location: template
  /// instantiations repeat a kernel, and a __device__ map is reported once
  /// per statement whichever kernel reads it.
  std::set<SourceLocation::UIntTy> Reported;
  /// Every warning goes through it; the check's sites always may run.
  SiteReporter Report{*this, Rules, [] { return true; }};
  std::shared_ptr<ConstantFolder> Folder;
  /// The facts of the translation unit's sites (api/PlacementFacts).
  std::unique_ptr<placement::PlacementFacts> Facts;

  /// Facts, rules, report for each site of \p Sites, variables of \p FD
  /// (\p Kernel: FD, or the kernel whose map in global memory it is).
  void checkSites(const FunctionDecl &FD, const FunctionDecl &Kernel,
                  const std::vector<placement::MapSite> &Sites,
                  ASTContext &Ctx);
  /// One violation of a placement site, at the fact it names.
  void report(const placement::MapSite &S, const placement::MapPlacement &P,
              const ::tma::rules::PlacementViolation &V,
              const FunctionDecl &Kernel, ASTContext &Ctx);
  /// The notes of the address's path: its first statement (unless it is
  /// at \p SkipAt) and the TMA operation.
  void notePath(const VarDecl &Var, llvm::ArrayRef<const Stmt *> Path,
                SourceLocation SkipAt, const ASTContext &Ctx);
  /// TMAP-DEV-REPLACE-ENCODING: the new values that \p FD's
  /// tensormap.replace instructions and cuda::ptx::tensormap_replace_* calls
  /// write, an expression under each context of FD.
  void checkReplaceValues(const FunctionDecl &FD, ASTContext &Ctx);
  void reportReplace(const placement::ReplaceSite &R,
                     const placement::ReplaceValue &Value,
                     const ::tma::rules::DeviceViolation &V,
                     const CallContext *Context,
                     const FunctionDecl *Instantiation, ASTContext &Ctx);
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
