//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_EXPECTTXCHECK_H
#define TMA_TIDY_CHECKS_EXPECTTXCHECK_H

#include "api/DeviceOpsFinder.h"
#include "api/MapLink.h"
#include "api/ClusterRank.h"
#include "api/PeerAddress.h"
#include "api/ThreadGuards.h"
#include "folding/ConstantFolder.h"

#include "checks/RuleFilter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <memory>
#include <set>
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
  /// The value of an operand in the current context.
  rules::Known foldOperand(const OpValue &V);
  /// The bytes a counted copy delivers in the current context.
  rules::Known delivered(const DeviceOp &Op);
  /// Notes on a copy of a mismatched phase: its bytes, and for a tensor
  /// copy the encode call of its map.
  void noteCopy(const DeviceOp &Op, SourceLocation Loc,
                const std::string &Barrier, const SourceManager &SM);

  /// Evaluate ops under each call of their function (parameters folded).
  const bool CallSiteContexts;
  /// Debugging aid: a warning per expect-tx saying whether its phase was
  /// proven equal, or why it is unknown.
  const bool CoverageReport;
  std::shared_ptr<ConstantFolder> Folder;
  std::shared_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<MapLinker> Linker;
  /// The threads that issue each op (MBAR-TX-ISSUERS).
  std::unique_ptr<ThreadGuards> Guards;
  /// Values that depend on the CTA's rank in its cluster (multicast).
  std::unique_ptr<ClusterRank> Ranks;
  /// Barrier addresses mapped to a peer CTA (`mapa`).
  std::unique_ptr<PeerAddresses> Peers;
  /// (location, message) pairs already reported in this translation unit.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
  /// The references under a function body (ExpectTxCheck.cpp's
  /// collectRefs), once per body: a helper's were collected again at every
  /// call and for every parameter. A std::map keeps them in place while
  /// others are added.
  const std::vector<const DeclRefExpr *> &refsOf(const Stmt *Body);
  std::map<const Stmt *, std::vector<const DeclRefExpr *>> RefsOfBody;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_EXPECTTXCHECK_H
