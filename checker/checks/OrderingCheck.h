//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_ORDERINGCHECK_H
#define TMA_TIDY_CHECKS_ORDERINGCHECK_H

#include "api/DeviceOpsFinder.h"
#include "api/KernelModel.h"
#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <set>
#include <vector>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// The ordering rules of tma-rules.md 11.A over the kernel model: the
/// fence.proxy.async before a copy reads what threads wrote
/// (BULK-S2G-FENCE-BEFORE, TMA-STORE-FENCE), the bulk-group wait before the
/// source is overwritten or the kernel exits (BULK-S2G-WAIT-BEFORE-REUSE,
/// TMA-STORE-WAIT), the thread barrier between an mbarrier.init and its use
/// by other threads (MBAR-INIT-VISIBLE), no re-init in a loop
/// (MBAR-REINIT-INVAL), no use without init (MBAR-UNINIT) and no rewrite of
/// a tensor map that a copy may still read (TMAP-INFLIGHT-IMMUTABLE). Silent
/// across anything the model cannot follow.
///
/// For the user-facing documentation see: docs/checks/tma-ordering.md
class OrderingCheck : public ClangTidyCheck {
public:
  OrderingCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context),
        WaitBeforeExit(Options.get("WaitBeforeExit", false)),
        ExplainModel(Options.get("ExplainModel", false)) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "WaitBeforeExit", WaitBeforeExit);
    Options.store(Opts, "ExplainModel", ExplainModel);
    Options.store(Opts, "DisabledRules", Rules.option());
  }
  /// What the preprocessor left out of this TU (`#if` branches not taken)
  /// and the files it read: MBAR-UNINIT reads a helper's host-pass body as
  /// the code that runs only when nothing in it was compiled out.
  struct Preprocessed {
    std::vector<SourceRange> Skipped;
    llvm::DenseSet<unsigned> Files;
  };
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus && LangOpts.CUDA;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  /// MBAR-UNINIT: builds the kernel's facts (api/UninitFacts), calls the
  /// rule's entry point once and words its violations; with \p Why, the
  /// rule records why it stays silent on a barrier.
  void checkUninit(const FunctionDecl &Kernel, const KernelSequence &K,
                   const SourceManager &SM,
                   ::tma::rules::ordering::Silences *Why = nullptr);
  /// An MBAR-UNINIT violation on the member of a pool's or an array's
  /// family that a use reaches the first time it runs, with notes: where
  /// its index starts, the inits that do not cover it.
  void reportUninitMember(const ::tma::rules::ordering::UninitViolation &V,
                          const ::tma::rules::ordering::UninitFacts &Facts,
                          const KernelSequence &K, const SourceManager &SM);
  /// Notes on the inits of the group of \p V's barrier (an array's or the
  /// pool's) that do not cover it.
  void uninitInits(const ::tma::rules::ordering::UninitViolation &V,
                   const ::tma::rules::ordering::UninitFacts &Facts,
                   const KernelSequence &K, const SourceManager &SM);
  /// ExplainModel: the kernel's model, or why it has none, and why each
  /// rule stayed silent on the events it looked at (\p Why, recorded by
  /// the rules themselves; checks/OrderingExplain.cpp).
  void explainModel(const FunctionDecl &Kernel, const KernelSequence *K,
                    const SourceManager &SM,
                    const ::tma::rules::ordering::Silences &Why = {});
  /// ExplainModel: a `model: discarded:` warning per `if constexpr` branch
  /// that no resolution of its statement in the TU keeps
  /// (checks/DiscardedBranches.h; bench/mutate calls a mutant inside one
  /// equivalent).
  void explainDiscarded(ASTContext &Ctx);
  /// Also report copies not waited for before the kernel exits (the
  /// catalogue marks the outcome of that UNCONFIRMED; real pipelines skip
  /// the final wait), not only before their source is overwritten.
  const bool WaitBeforeExit;
  /// A debugging aid: a warning per kernel with the model the rules saw,
  /// a note per event (what it names, which threads run it).
  const bool ExplainModel;
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Every warning and note of a violation goes through it
  /// (checks/SiteReporter.h): once per (location, message), through
  /// DisabledRules, a fix-it once per place, an event's notes.
  SiteReporter Report{*this, Rules, [] { return true; }};
  std::shared_ptr<KernelModel> Model;
  std::shared_ptr<Preprocessed> PPInfo = std::make_shared<Preprocessed>();
  /// Whether \p Body is the code that runs: the device pass, or a body in a
  /// file this TU preprocessed with no `#if` branch left out inside it.
  bool bodyRuns(const Stmt *Body, const SourceManager &SM,
                const LangOptions &LO) const;
  /// The TU's finder (the model's): checkUninit looks through address
  /// conversions with it.
  std::shared_ptr<DeviceOpsFinder> Finder;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_ORDERINGCHECK_H
