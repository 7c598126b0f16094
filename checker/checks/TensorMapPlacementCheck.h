//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
#define TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H

#include "api/DeviceOpsFinder.h"

#include "checks/RuleFilter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <set>

namespace clang::tidy::tma {

class SharedMatchers;

/// Finds __global__ kernel parameters that hold a CUtensorMap by value
/// without 'const __grid_constant__' while their address reaches a TMA
/// operation: the address is that of a local copy, which TMA cannot read
/// (TMAP-PLACE-GRID-CONSTANT). With GlobalFence, also finds maps read from
/// global memory (a `const CUtensorMap *` kernel parameter, a `__device__`
/// map) by a TMA operation of a kernel that executes no
/// fence.proxy.tensormap::generic.acquire (TMAP-PLACE-GLOBAL-FENCE).
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
    Fenced.clear();
    OpsFinder.reset();
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
  /// Parameters already reported: template instantiations repeat a kernel.
  std::set<SourceLocation::UIntTy> Reported;
  /// Whether a function may execute a tensormap acquire fence (memoised).
  llvm::DenseMap<const FunctionDecl *, bool> Fenced;
  std::shared_ptr<DeviceOpsFinder> OpsFinder;
  std::shared_ptr<ConstantFolder> Folder;

  void checkGlobalMaps(const FunctionDecl &Kernel, ASTContext &Ctx,
                       const SourceManager &SM);
  /// TMA-MAP-STATE-SPACE: locals and __shared__ variables of \p FD that hold
  /// a map, and (for a __device__ function) its by-value map parameters,
  /// whose address reaches a TMA operation.
  void checkMapCopies(const FunctionDecl &FD, ASTContext &Ctx,
                      const SourceManager &SM);
  bool mayFence(const FunctionDecl &FD, const SourceManager &SM,
                unsigned Depth);
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
