//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
#define TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H

#include "api/DeviceOpsFinder.h"

#include "checks/RuleFilter.h"
#include "rules/DeviceRules.h"
#include "rules/TensorMapRules.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <set>
#include <string>
#include <utility>

namespace clang::tidy::tma {

class SharedMatchers;
namespace placement {
class PlacementBodies;
}
using placement::PlacementBodies;

/// What the pre-scan of a __device__ function (mayHoldSite) found, per
/// declaration context (outside and inside a lambda) and per body.
struct PlacementScanMemo {
  llvm::DenseMap<const DeclContext *, bool> Declares[2];
  llvm::DenseMap<const Stmt *, bool> Replaces;
};

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
    ReplaceReported.clear();
    Fenced.clear();
    OpsFinder.reset();
    Folder.reset();
    Bodies.reset();
    ScanMemo = PlacementScanMemo();
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
  /// tensormap.replace values already reported (TMAP-DEV-REPLACE-ENCODING).
  std::set<std::pair<SourceLocation::UIntTy, std::string>> ReplaceReported;
  /// Whether a function may execute a tensormap acquire fence (memoised).
  llvm::DenseMap<const FunctionDecl *, bool> Fenced;
  std::shared_ptr<DeviceOpsFinder> OpsFinder;
  std::shared_ptr<ConstantFolder> Folder;
  /// Each body's nodes, walked once for all rules (memoised per TU).
  std::shared_ptr<PlacementBodies> Bodies;
  PlacementBodies &bodies();
  /// The pre-scan's answers of mayHoldSite (per TU).
  PlacementScanMemo ScanMemo;

  void checkGlobalMaps(const FunctionDecl &Kernel, ASTContext &Ctx,
                       const SourceManager &SM);
  /// TMA-MAP-STATE-SPACE: locals and __shared__ variables of \p FD that hold
  /// a map, and (for a __device__ function) its by-value map parameters,
  /// whose address reaches a TMA operation.
  void checkMapCopies(const FunctionDecl &FD, ASTContext &Ctx,
                      const SourceManager &SM);
  bool mayFence(const FunctionDecl &FD, const SourceManager &SM,
                unsigned Depth);
  /// TMAP-DEV-READONLY-PARAM: __grid_constant__ map parameters of \p Kernel
  /// whose address reaches the map operand of a tensormap.replace or
  /// tensormap.cp_fenceproxy.
  void checkReadonlyParams(const FunctionDecl &Kernel, ASTContext &Ctx,
                           const SourceManager &SM);
  /// TMAP-DEV-REPLACE-ENCODING: the new values that \p FD's
  /// tensormap.replace instructions and cuda::ptx::tensormap_replace_* calls
  /// write.
  void checkReplaceValues(const FunctionDecl &FD, const SourceManager &SM);
  /// The new value of field \p F written at \p Site of \p FD: the
  /// immediate \p Imm (written as \p E, when there is one), or \p E folded
  /// under each context of FD.
  void checkReplaceValue(const Stmt &Site, const FunctionDecl &FD,
                         ::tma::rules::ReplaceField F, const Expr *E,
                         ::tma::rules::Known Imm, const SourceManager &SM);
  /// Where a reported tensormap.replace value came from, for notes.
  struct ReplaceOrigin {
    ::tma::rules::ReplaceField Field;
    /// The value folded from an expression, and the context it was folded
    /// in; none for an immediate.
    std::optional<FoldedInt> Value = std::nullopt;
    const CallContext *Context = nullptr;
    /// The value is a helper's parameter, reported at a caller.
    bool Forwarded = false;
    /// The template instantiation whose argument the value is.
    const FunctionDecl *Instantiation = nullptr;
  };
  /// Reports one TMAP-DEV-REPLACE-ENCODING finding at \p Written (or at
  /// \p Loc, the instruction, when there is no expression).
  void reportReplace(SourceLocation Loc, const Expr *Written,
                     const ::tma::rules::DeviceViolation &V,
                     const SourceManager &SM, const ReplaceOrigin &From);
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_TENSORMAPPLACEMENTCHECK_H
