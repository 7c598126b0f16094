//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_EXPECTTXCHECK_H
#define TMA_TIDY_CHECKS_EXPECTTXCHECK_H

#include "api/DeviceOpsFinder.h"
#include "api/ExpectTxFacts.h"
#include "folding/ConstantFolder.h"

#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// MBAR-TX-EQUALS-BYTES for the phases whose every copy is a 1-D bulk copy
/// of known size or a tensor load whose map is linked to its encode call: the
/// expect-tx counts on one barrier in one phase region (the innermost loop
/// body, or the function body) must add up to the bytes of the copies
/// completing on it there; in a known cluster, CTA by CTA of it (multicast,
/// copies and expect-tx on a peer CTA's barrier through `mapa`). Silent
/// wherever the model is unsure (reductions, unknown sizes or ranks, the
/// barrier passed to an unknown function, possible aliases, nested loops).
///
/// For the user-facing documentation see: docs/checks/tma-expect-tx.md
class ExpectTxCheck : public ClangTidyCheck {
public:
  ExpectTxCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus && LangOpts.CUDA;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Every diagnostic goes through it (checks/SiteReporter.h). The
  /// contexts under which an op of a phase may not run are left out before.
  SiteReporter Report{*this, Rules, [] { return true; }};
  /// Notes on a copy of a mismatched phase: its bytes, and for a tensor
  /// copy the encode call of its map.
  void noteCopy(const DeviceOp &Op, SourceLocation Loc,
                const std::string &Barrier, const ASTContext &Ctx);
  /// Counts the phase of \p Group CTA by CTA of \p Fn's cluster and reports
  /// the first CTA whose counts differ; the coverage line, or "" when
  /// something is unknown.
  std::string clusterPhase(const FunctionDecl *Fn, const TxOps &Tx,
                           const std::vector<unsigned> &Group,
                           const std::string &Name, const SourceManager &SM);

  /// Evaluate ops under each call of their function (parameters folded).
  const bool CallSiteContexts;
  /// Debugging aid: a warning per expect-tx saying whether its phase was
  /// proven equal, or why it is unknown.
  const bool CoverageReport;
  /// ExplainSilence: a `silent: MBAR-TX-EQUALS-BYTES: ...` warning at an
  /// expect-tx whose phase the rules could not compare, naming the fact
  /// that is missing (issue 28 item 1).
  const bool ExplainSilence;
  std::shared_ptr<ConstantFolder> Folder;
  std::shared_ptr<DeviceOpsFinder> Finder;
  /// The facts of the sites (api/ExpectTxFacts.h), per translation unit.
  std::unique_ptr<ExpectTxFacts> Facts;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_EXPECTTXCHECK_H
