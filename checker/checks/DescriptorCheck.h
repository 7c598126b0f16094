//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
#define TMA_TIDY_CHECKS_DESCRIPTORCHECK_H

#include "api/EncodeCall.h"
#include "api/MapLink.h"
#include "api/OwnKernelMaps.h"
#include "folding/ConstantFolder.h"
#include "rules/Im2colRules.h"
#include "rules/Target.h"
#include "rules/TiledRules.h"

#include "checks/RuleFilter.h"

#include "clang-tidy/ClangTidyCheck.h"
#include <map>
#include <memory>
#include <set>
#include <string>

namespace clang::tidy::tma {

class SharedMatchers;

/// The folded operands of one encode call under one context, with the origin
/// of each value (array elements by index; ~0U for the array variable).
struct FoldedOperands {
  EncodeKind Kind = EncodeKind::Tiled;
  /// The descriptor of Kind (the other two stay empty).
  rules::TiledDescriptor Desc;
  rules::Im2colDescriptor Im2col;
  rules::Im2colWideDescriptor Wide;
  std::map<std::pair<rules::Param, unsigned>, Origin> Origins;
  /// Each known value as the driver's parameter type prints it (the corner
  /// offsets signed), by operand and element.
  std::map<std::pair<rules::Param, unsigned>, std::string> Values;
  /// What is proven about the tensorMap and globalAddress pointers.
  std::map<rules::Param, PointerAlign> Pointers;
  /// cuTensorMapReplaceAddress: the encode call of the map it modifies,
  /// when linked (its interleave and data type are in Desc).
  const CallExpr *LinkedEncode = nullptr;
  EncodeKind LinkedKind = EncodeKind::Tiled;
};

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
  void explain(const CallExpr &Call, const FoldedOperands &Ops,
               const SourceManager &SM);
  /// DisabledRules (checks/RuleFilter.h).
  RuleFilter Rules{Options};
  /// A violation to report, the operands it was found with, and how many
  /// other contexts of the same call produced the same message.
  struct Finding {
    rules::Violation V;
    std::shared_ptr<const FoldedOperands> Ops;
    /// The operand as the user wrote it (past forwarding wrappers).
    const Expr *Arg;
    SourceLocation Loc;
    std::string Message;
    unsigned Others;
    /// The suggestion's fix-it would fight another fix of the call.
    bool NoFix;
  };
  void report(const Finding &F,
              const ast_matchers::MatchFinder::MatchResult &Result);
  /// Where a pointer's proven alignment comes from.
  void notePointer(const PointerAlign &A, rules::Param P,
                   SourceLocation WarnLoc, const SourceManager &SM);
  /// TMAP-REPLACE-ADDR-ALIGN: the map's interleave and data type, from the
  /// encode call that wrote the map cuTensorMapReplaceAddress modifies.
  void linkReplacedMap(const CallExpr &Call, const FunctionDecl *Fn,
                       const CallContext *Context, FoldedOperands &Ops,
                       ASTContext &Ctx);
  /// Whether the map \p Call writes in \p Context is read by a kernel of
  /// this translation unit that one of its launches passes it to.
  bool readByOwnKernel(const CallExpr &Call, const CallContext *Context,
                       ASTContext &Ctx);
  void suggest(const rules::Suggestion &S, const Expr *Arg,
               const FoldedOperands &Ops, bool WithFix,
               const ast_matchers::MatchFinder::MatchResult &Result);

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
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Explained;
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
  /// (location, message) pairs already reported in this translation unit:
  /// template instantiations repeat the same call.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
  /// Encode calls already given the SuggestRuntimeCheck remark.
  std::set<SourceLocation::UIntTy> Suggested;
};

/// The source range that the fix-it of \p S replaces (the literal the value
/// came from, in code the user edits, not shared with other callers), or
/// std::nullopt when its spelling is not certain: then the note says what
/// to do and carries no fix-it.
std::optional<SourceRange> certainFix(const rules::Suggestion &S,
                                      const Expr *Arg,
                                      const FoldedOperands &Ops,
                                      const SourceManager &SM);

/// The map \p Map as tma-descriptor's own fix-its on its encode call leave
/// it: every broken rule of the call has a certain fix, each fixed value
/// replaces the folded one, and the fixed call breaks no rule. Otherwise
/// std::nullopt: the map will change by hand, and a fix computed from it
/// (an expect-tx byte count) would fight that change.
std::optional<rules::MapDescriptor>
mapAfterFixes(const KnownMap &Map, ConstantFolder &Folder, ASTContext &Ctx);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_DESCRIPTORCHECK_H
