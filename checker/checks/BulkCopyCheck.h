//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_BULKCOPYCHECK_H
#define TMA_TIDY_CHECKS_BULKCOPYCHECK_H

#include "api/DeviceOps.h"
#include "api/DeviceOpsFinder.h"
#include "api/MapLink.h"
#include "api/SharedBuffers.h"
#include "folding/ConstantFolder.h"
#include "rules/DeviceRules.h"

#include "checks/RuleFilter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <memory>
#include <set>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// Finds device ops whose own operands break a rule: bulk copies whose size
/// is not a non-zero multiple of 16 bytes or whose shared-memory address is
/// not guaranteed 16-byte alignment, tensor copies whose shared-memory box is
/// not guaranteed 128-byte alignment, expect-tx counts above 2^20-1,
/// mbarrier init counts outside [1, 2^20-1], and tensor copies whose
/// coordinate vector does not fit `.Nd`. Asm inside `__device__` helpers is
/// evaluated with the arguments of each call of the helper.
///
/// For the user-facing documentation see: docs/checks/tma-bulk-copy.md
class BulkCopyCheck : public ClangTidyCheck {
public:
  BulkCopyCheck(StringRef Name, ClangTidyContext *Context);
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
  void checkOp(const DeviceOp &Op, const FunctionDecl *Fn,
               const ast_matchers::MatchFinder::MatchResult &Result);
  /// The first coordinate of \p T in the current context.
  ::tma::rules::Known firstCoordinate(const TensorCopy &T);
  /// \p V folded in the current context.
  ::tma::rules::Known foldValue(const OpValue &V);
  /// The rules of one op's own form, checked once (no value needed):
  /// TMA-COORD-COUNT, TMA-REDUCE-MODE, BULK-REDUCE-OP-TYPE.
  void checkForm(const DeviceOp &Op, const std::string &OpName,
                 const FunctionDecl *Fn, const ASTContext &Ctx,
                 const SourceManager &SM);
  /// The value rules of the PTX 9.x operands, tensor-store coordinates,
  /// im2col operands and multicast masks, in the current context.
  void checkOperands(const DeviceOp &Op, const std::string &OpName,
                     const FunctionDecl *Fn, const CallContext *Context,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  /// Warns \p Message at \p Loc once per TU, outside system headers; false
  /// when nothing was reported.
  bool warnOnce(SourceLocation Loc, const std::string &Message,
                const SourceManager &SM);
  /// TMA-MODE-MATCHES-MAP and TMA-DIM-EQ-RANK against the map that
  /// \p Context's launch passes.
  void checkLinkedMap(const TensorCopy &T, const std::string &OpName,
                      const CallContext *Context, const SourceManager &SM);
  /// Reports a rule broken against a linked map, with notes at \p About (an
  /// operand of the encode call), the map's hand-off and \p Buffer.
  void reportLinked(const TensorCopy &T, const std::string &OpName,
                    const ::tma::rules::DeviceViolation &V, const Expr *About,
                    const KnownMap &Map, const CallContext *Context,
                    const SourceManager &SM,
                    const SharedBuffer *Buffer = nullptr);
  /// Folds \p V under the current context and reports \p Rule's violation.
  /// Resolves the shared-memory address \p V under the current context and
  /// reports \p Rule's violation of its guaranteed alignment.
  /// The device rows of tma-rules.md section 7 (rules/ArchRules.h) on the
  /// device pass's target.
  void checkArch(const DeviceOp &Op, const std::string &OpName,
                 const FunctionDecl *Fn, const CallContext *Context,
                 const ast_matchers::MatchFinder::MatchResult &Result);
  /// Whether \p Fn is a kernel, or \p Context reaches it from one.
  bool reachedFromKernel(const FunctionDecl *Fn, const CallContext *Context);
  /// BULK-ADDR-ALIGN16 on the global operand of a 1-D bulk copy.
  void checkGlobalAlign(const BulkCopy &B, const std::string &OpName,
                        const CallContext *Context,
                        const ast_matchers::MatchFinder::MatchResult &Result);
  /// MBAR-LOCATION-ALIGN's state space: a barrier operand that is the
  /// address of an automatic local variable.
  void checkBarrierSpace(const OpSite &Site, const OpValue &V,
                         const std::string &OpName, const CallContext *Context,
                         const ast_matchers::MatchFinder::MatchResult &Result);
  void checkSmemAlign(
      const OpSite &Site, const OpValue &V, const std::string &OpName,
      const CallContext *Context,
      std::optional<::tma::rules::DeviceViolation> (*Rule)(::tma::rules::Known),
      const ast_matchers::MatchFinder::MatchResult &Result);
  template <typename RuleFn>
  void checkValue(const OpSite &Site, const OpValue &V,
                  const std::string &OpName, const CallContext *Context,
                  RuleFn Rule,
                  const ast_matchers::MatchFinder::MatchResult &Result);

  /// Evaluate ops under each call of their function (parameters folded).
  const bool CallSiteContexts;
  /// Debugging aid: a warning per op saying whether its value operand
  /// folded.
  const bool CoverageReport;
  /// ExplainDescriptors: a warning per tensor copy with the linked map.
  const bool ExplainDescriptors;
  std::shared_ptr<ConstantFolder> Folder;
  std::shared_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<MapLinker> Linker;
  std::unique_ptr<SharedBuffers> Buffers;
  /// The function whose op is being checked.
  const FunctionDecl *CurrentFn = nullptr;
  /// (location, message) pairs already reported in this translation unit:
  /// template instantiations and contexts repeat the same op.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_BULKCOPYCHECK_H
