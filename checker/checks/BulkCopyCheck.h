//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_BULKCOPYCHECK_H
#define TMA_TIDY_CHECKS_BULKCOPYCHECK_H

#include "api/DeviceOpFacts.h"
#include "api/DeviceOps.h"
#include "api/DeviceOpsFinder.h"
#include "api/MapLink.h"
#include "api/OpAddressFacts.h"
#include "api/SharedBuffers.h"
#include "api/TargetFacts.h"
#include "folding/ConstantFolder.h"
#include "rules/DeviceRules.h"
#include "rules/PtxIsaRules.h"

#include "checks/RuleFilter.h"
#include "checks/SiteReporter.h"
#include "rules/AddressSite.h"
#include "rules/TargetSite.h"
#include "rules/TensorCopySite.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
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
  void registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                           Preprocessor *) override {
    this->PP = PP;
  }
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus && LangOpts.CUDA;
  }

private:
  /// The module's shared matchers (checks/SharedMatchers.h).
  std::shared_ptr<SharedMatchers> Shared;
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// Every diagnostic goes through it (checks/SiteReporter.h); it asks
  /// feasible() before it warns.
  SiteReporter Report{*this, Rules, [this] { return feasible(); }};
  void checkOp(const DeviceOp &Op, const FunctionDecl *Fn,
               const ast_matchers::MatchFinder::MatchResult &Result);
  /// The rules of one op's own form, checked once (no value needed):
  /// TMA-COORD-COUNT, TMA-REDUCE-MODE, BULK-REDUCE-OP-TYPE.
  void checkForm(const DeviceOp &Op, const std::string &OpName,
                 const SourceManager &SM);
  /// Reports a violation of the op's own value operands
  /// (rules/DeviceOpSite.h) at the operand it names, with where its value
  /// came from (api/DeviceOpFacts.h).
  void reportOperand(const DeviceOp &Op, const std::string &OpName,
                     const DeviceOpSite &S,
                     const ::tma::rules::OperandViolation &V,
                     const CallContext *Context,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  /// Reports \p Violation of operand \p V (folded to \p Folded) where its
  /// value was written, with the notes of its origin.
  void reportValue(const OpSite &Site, const OpValue &V,
                   const std::optional<FoldedInt> &Folded,
                   ::tma::rules::DeviceViolation Violation,
                   const std::string &OpName, const CallContext *Context,
                   const ast_matchers::MatchFinder::MatchResult &Result);
  /// Warns \p Message at \p Loc once per TU, outside system headers; false
  /// when nothing was reported.
  bool warnOnce(SourceLocation Loc, const std::string &Message,
                const SourceManager &SM);
  /// Whether the op of the context being checked can run under it
  /// (ConstantFolder::mayRun, §11.C): asked only once something would be
  /// reported there, since most contexts report nothing and the answer
  /// folds every branch condition on the way to the op.
  bool feasible();
  struct PendingRun {
    const Stmt *Site = nullptr;
    const FunctionDecl *Fn = nullptr;
    const CallContext *Context = nullptr;
    std::optional<bool> MayRun;
  };
  /// The context being checked (Site null: none, everything may report).
  PendingRun Pending;
  /// The rules of a tensor copy against the map that \p Context's launch
  /// passes (rules/TensorCopySite.h), on the site's facts
  /// (api/TensorCopyFacts.h).
  void checkLinkedMap(const TensorCopy &T, const std::string &OpName,
                      const CallContext *Context, const SourceManager &SM);
  /// Reports a rule broken against a linked map, with notes at the encode
  /// operand the violation names, the map's hand-off and \p Buffer.
  void reportLinked(const TensorCopy &T, const std::string &OpName,
                    const ::tma::rules::LinkedCopyViolation &V,
                    const KnownMap &Map, const CallContext *Context,
                    const SourceManager &SM,
                    const SharedBuffer *Buffer = nullptr);
  /// The device rows of tma-rules.md section 7 (rules/ArchRules.h) on the
  /// device pass's target, for a library op (checks/BulkCopyArch.cpp): the
  /// arch-specific forms it selects.
  void checkArch(const DeviceOp &Op, const std::string &OpName,
                 const FunctionDecl *Fn, const CallContext *Context,
                 const ast_matchers::MatchFinder::MatchResult &Result);
  /// Section 7 for every instruction of an asm statement of \p Fn that
  /// this pass emits (the target's forms and the toolkit's PTX ISA), and
  /// TMA-OVERRIDE-ATTR's form rules on its opcodes (rules/TargetSite.h).
  void checkAsm(const GCCAsmStmt &Asm, const FunctionDecl *Fn,
                const ast_matchers::MatchFinder::MatchResult &Result);
  /// The violations of \p Asm's text (rules::checkAsmStatement), in the
  /// order of its opcodes, memoised per distinct text and JudgeTarget.
  const std::vector<::tma::rules::TargetViolation> &
  asmViolations(const GCCAsmStmt &Asm, const StringLiteral &Text,
                const ASTContext &Ctx, bool JudgeTarget);
  llvm::StringMap<std::vector<::tma::rules::TargetViolation>> AsmFindings;
  /// The device pass's target (api/CudaTarget.h), once per TU.
  std::optional<std::optional<::tma::rules::GpuTarget>> AsmArchTarget;
  /// Section 7 for a call of a CCCL function (cuda::ptx::, cuda::device::)
  /// that its header compiles, on this target, to an unresolved
  /// `__cuda_ptx_*_is_not_supported_*` call: the link fails.
  void checkLibraryArch(const CallExpr &Call, const FunctionDecl *Fn,
                        const ast_matchers::MatchFinder::MatchResult &Result);
  /// Whether \p Fn is a kernel, or \p Context reaches it from one.
  bool reachedFromKernel(const FunctionDecl *Fn, const CallContext *Context);
  /// Whether some call context of \p Fn reaches it from a kernel: this pass
  /// compiles its body for the target.
  bool emittedForTarget(const FunctionDecl *Fn);
  /// The stubs CCCL's wrappers call on this target (api/TargetFacts.h).
  LibraryStubs Stubs;
  /// Under ExplainSilence: why the rule of \p S's shared-memory address
  /// judged nothing (not traced to a buffer, its alignment unknown), when
  /// none of \p Violations is about it.
  void explainAddressSilence(
      const OpSite &Site, const OpAddressSite &S,
      llvm::ArrayRef<::tma::rules::AddressViolation> Violations,
      const CallContext *Context, const SourceManager &SM);
  /// Reports a violation of an op's addresses (rules/AddressSite.h) at the
  /// operand it names, with the notes of its trace (api/OpAddressFacts.h).
  void reportAddress(const DeviceOp &Op, const OpSite &Site,
                     const OpAddressSite &S,
                     const ::tma::rules::AddressViolation &V,
                     const std::string &OpName, const CallContext *Context,
                     const ast_matchers::MatchFinder::MatchResult &Result);
  /// The shared-memory address \p V (or the mbarrier) in \p Buffer: its
  /// start and offset, the call that passed it, the suggestion.
  void reportSmemAlign(const OpSite &Site, const OpValue &V,
                       const SharedBuffer &Buffer,
                       const ::tma::rules::AddressViolation &AV,
                       const std::string &OpName, const CallContext *Context,
                       const ast_matchers::MatchFinder::MatchResult &Result);
  /// MBAR-LOCATION-ALIGN's state space: the variable the barrier operand
  /// names.
  void reportBarrierSpace(const OpSite &Site, const OpAddressSite &S,
                          const ::tma::rules::DeviceViolation &Violation,
                          const std::string &OpName,
                          const ast_matchers::MatchFinder::MatchResult &Result);
  /// The global address: the allocation or variable it points into.
  void reportGlobalAlign(const DeviceOp &Op, const OpAddressSite &S,
                         const ::tma::rules::DeviceViolation &Violation,
                         const std::string &OpName, const CallContext *Context,
                         const ast_matchers::MatchFinder::MatchResult &Result);
  /// Evaluate ops under each call of their function (parameters folded).
  const bool CallSiteContexts;
  /// Debugging aid: a warning per op saying whether its value operand
  /// folded.
  const bool CoverageReport;
  /// ExplainDescriptors: a warning per tensor copy with the linked map.
  const bool ExplainDescriptors;
  /// ExplainSilence: a `silent:` warning per rule that judged nothing on an
  /// op for want of a fact, naming the fact (issue 28 item 1).
  const bool ExplainSilence;
  /// Under ExplainSilence: "silent: <Rules>: <Why>" at \p Loc, once, with
  /// the function whose call \p Context starts from.
  void explainSilence(SourceLocation Loc, const std::string &Rules,
                      const std::string &Why, const CallContext *Context);
  /// For CUDA_VERSION (TMA-PTX-ISA).
  Preprocessor *PP = nullptr;
  /// The toolkit of this translation unit and where CUDA_VERSION is
  /// defined, once per translation unit.
  std::optional<std::optional<::tma::rules::Toolkit>> PassToolkit;
  SourceLocation ToolkitMacroLoc;
  std::shared_ptr<ConstantFolder> Folder;
  std::shared_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<MapLinker> Linker;
  std::unique_ptr<SharedBuffers> Buffers;
  /// A note reportValue adds to the violation it reports: where the limit
  /// came from (the cluster size of BULK-MULTICAST).
  std::optional<std::pair<SourceLocation, std::string>> ExtraNote;
  /// The function whose op is being checked.
  const FunctionDecl *CurrentFn = nullptr;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_BULKCOPYCHECK_H
