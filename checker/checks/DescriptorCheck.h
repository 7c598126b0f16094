//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
#define TMA_TIDY_CHECKS_DESCRIPTORCHECK_H

#include "api/EncodeFacts.h"
#include "api/MapLink.h"
#include "api/OwnKernelMaps.h"
#include "folding/ConstantFolder.h"
#include "rules/Target.h"

#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// Finds cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col and
/// cuTensorMapEncodeIm2colWide calls whose folded operands break a rule of
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
  void registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                           Preprocessor *) override {
    this->PP = PP;
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  void explain(const CallExpr &Call, const EncodeFacts &Ops,
               const SourceManager &SM);
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Every diagnostic goes through it (checks/SiteReporter.h). The
  /// contexts under which the call may not run are left out before.
  SiteReporter Report{*this, Rules, [] { return true; }};
  /// A violation to report, the operands it was found with, and how many
  /// other contexts of the same call produced the same message.
  struct Finding {
    rules::Violation V;
    std::shared_ptr<const EncodeFacts> Ops;
    /// The operand as the user wrote it (past forwarding wrappers).
    const Expr *Arg;
    SourceLocation Loc;
    std::string Message;
    unsigned Others;
    /// The suggestion's fix-it would fight another fix of the call.
    bool NoFix;
  };
  /// The warning of \p F and its notes; false when it was not reported.
  bool report(const Finding &F, const SourceManager &SM,
              const LangOptions &LangOpts);
  /// The host-side map linker, built on first use.
  MapLinker &linker(ASTContext &Ctx);
  /// Whether the map \p Call writes in \p Context is read by a kernel of
  /// this translation unit that one of its launches passes it to.
  bool readByOwnKernel(const CallExpr &Call, const CallContext *Context,
                       ASTContext &Ctx);
  void suggest(const rules::Suggestion &S, const Expr *Arg,
               const EncodeFacts &Ops, bool WithFix, const SourceManager &SM,
               const LangOptions &LangOpts);

  const bool StrideUnitHeuristics;
  const bool AddressTypeCheck;
  /// Evaluate the call under each call of its function (parameters folded).
  const bool CallSiteContexts;
  /// Debugging aid: a warning per encode call saying how much was folded.
  const bool CoverageReport;
  /// On an encode call whose operands do not all fold, suggest the checked
  /// wrapper of <tma/validate.h>.
  const bool SuggestRuntimeCheck;
  /// ExplainDescriptors: a warning per encode call and context with the
  /// folded descriptor (checks/Explain.h).
  const bool ExplainDescriptors;
  std::shared_ptr<ConstantFolder> Folder;
  /// Links cuTensorMapReplaceAddress's map to its encode call (built on
  /// first use).
  std::unique_ptr<MapLinker> Linker;
  /// TMAP-ENC-ARCH: the maps this TU's kernels read (built on first use).
  std::shared_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<OwnKernelMaps> OwnMaps;
  /// For __CUDA_ARCH_LIST__ (api/CudaTarget.h).
  Preprocessor *PP = nullptr;
  /// The newest GPU the TU's maps can be used on, computed once per TU.
  std::optional<std::optional<rules::GpuTarget>> Target;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
