//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The one place where a check turns the rule model's violations into
// diagnostics: a warning once per (location, message) and translation unit,
// through DisabledRules, outside system headers and only where the site may
// run; then the notes that map the facts a violation is about to the source
// (where a folded value came from, the calls that bound it, the operand of
// the op it was passed to, the instantiation, the encode operand of a
// linked map, where a helper issues a kernel's event) and the suggestion.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_SITEREPORTER_H
#define TMA_TIDY_CHECKS_SITEREPORTER_H

#include "api/KernelModel.h"
#include "api/MapLink.h"
#include "api/SharedBuffers.h"
#include "checks/RuleFilter.h"
#include "folding/ConstantFolder.h"
#include "rules/DeviceRules.h"
#include "rules/PtxIsaRules.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/FunctionExtras.h"
#include <optional>
#include <set>
#include <string>

namespace clang::tidy::tma {

class SiteReporter {
public:
  /// \p MayReport is asked once a warning would be emitted (and only then:
  /// the feasibility of a call-site context folds every branch on the way
  /// to the site); false keeps it silent.
  SiteReporter(ClangTidyCheck &Check, const RuleFilter &Rules,
               llvm::unique_function<bool()> MayReport)
      : Check(Check), Rules(Rules), MayReport(std::move(MayReport)) {}

  /// "OP<Sep>message (RULE-ID)": a device violation's warning text.
  static std::string message(llvm::StringRef OpName, llvm::StringRef Sep,
                             const ::tma::rules::DeviceViolation &V);

  /// Warns \p Message at \p Loc once per translation unit, outside system
  /// headers, when DisabledRules allows it and the site may run; false when
  /// nothing was reported.
  bool warnOnce(SourceLocation Loc, const std::string &Message,
                const SourceManager &SM, llvm::ArrayRef<FixItHint> Fixes = {});

  /// Whether a warning \p Message at \p Loc would be reported now
  /// (warnOnce's conditions but the site's MayReport); records nothing. For
  /// a check that gathers a site's findings before it reports them.
  bool admits(SourceLocation Loc, const std::string &Message,
              const SourceManager &SM) const;

  /// warnOnce of \p Message keyed by \p Key instead of the message: one
  /// warning of a kind at a place (a barrier's pairing, whichever barrier
  /// it names). DisabledRules still reads the message.
  bool warnOnceAs(SourceLocation Loc, const std::string &Key,
                  const std::string &Message, const SourceManager &SM);

  /// warnOnce with \p Fix, which is attached unless an earlier warning of
  /// the translation unit got a fix-it at the same place (two findings that
  /// need the same fence or wait depth get one fix).
  bool warnFixOnce(SourceLocation Loc, const std::string &Message,
                   const SourceManager &SM,
                   const std::optional<FixItHint> &Fix);

  /// \p ND as a diagnostic argument spells it ('name', a template
  /// instantiation with its arguments), for a message built as a string.
  static std::string nameOf(const NamedDecl &ND, const ASTContext &Ctx);

  /// Whether \p Key (a remark, e.g. an ExplainDescriptors text) is new at
  /// \p Loc and may be reported there; records it. No DisabledRules: a remark
  /// names no rule.
  bool firstTime(SourceLocation Loc, const std::string &Key,
                 const SourceManager &SM);

  /// Records \p Key at \p Loc; whether it was new. For reports that no
  /// filter applies to (a debugging aid's).
  bool record(SourceLocation Loc, const std::string &Key) {
    return Reported.insert({Loc.getRawEncoding(), Key}).second;
  }

  /// A note "%0" with \p Text at \p Loc, carrying \p Fixes.
  void note(SourceLocation Loc, llvm::StringRef Text,
            llvm::ArrayRef<FixItHint> Fixes = {});

  /// A debugging aid's warning \p Text at \p Loc (coverage, explain,
  /// silence reasons): no rule, no filter, nothing recorded (record() says
  /// whether it is new).
  void aid(SourceLocation Loc, llvm::StringRef Text);

  /// A remark \p Text at \p Loc (a suggestion with no rule).
  void remark(SourceLocation Loc, llvm::StringRef Text);

  /// A note \p Text on the event \p E of a kernel's model: at the kernel
  /// body's statement that shows it (a helper's call), then, for an op a
  /// helper issues, "issued here" at the op (none in a system header).
  void noteEvent(const KernelEvent &E, llvm::StringRef Text,
                 const SourceManager &SM);

  /// Where the folded value \p Folded of operand \p Param came from, when
  /// not from the reported expression at \p WarnLoc ("P = V comes from
  /// here"), then the calls that bound the parameters it was read through,
  /// innermost first. Leaves \p Folder in \p Context.
  void noteOrigin(const FoldedInt &Folded, llvm::StringRef Param,
                  SourceLocation WarnLoc, ConstantFolder &Folder,
                  const CallContext *Context, const SourceManager &SM);

  /// "NAME = VALUE comes from here" at \p O, where a value of the
  /// reported site came from, when that is not \p WarnLoc nor in a system
  /// header.
  void noteValue(const Origin &O, llvm::StringRef Name, llvm::StringRef Value,
                 SourceLocation WarnLoc, const SourceManager &SM);

  /// "'V' <What>" at \p Var's declaration: the variable an operand names
  /// ("declared here"), the barrier object of an op ("is declared here").
  void noteDeclared(const VarDecl &Var, const SourceManager &SM,
                    llvm::StringRef What = "declared here");

  /// "the shared-memory buffer 'B' is declared here": the buffer a linked
  /// map's rule is about.
  void noteBufferDeclared(const VarDecl &Var, const SourceManager &SM);

  /// What is certain about the start of the shared-memory buffer \p B that
  /// an address points into, and the address's offset into it (a residue
  /// and a stride for a family of addresses), at B's declaration; none in
  /// a system header.
  void noteBufferStart(const SharedBuffer &B, const SourceManager &SM);

  /// In a helper: the call, of \p Context's chain, through which the
  /// shared-memory buffer \p Var reaches the op \p OpName ("'sA' is used by
  /// OP through this call of 'load'"); none at \p WarnLoc.
  void noteBufferCall(const VarDecl *Var, llvm::StringRef OpName,
                      SourceLocation WarnLoc, ConstantFolder &Folder,
                      const CallContext *Context, const SourceManager &SM);

  /// The operand of the linked map \p Map's encode call that holds the
  /// fact \p P ("the tensor map is encoded here"), the calls that bound it
  /// (folded in the map's context), then the host call that hands the map
  /// to the device. Leaves \p Folder in \p Context.
  void noteLinkedMap(const KnownMap &Map, ::tma::rules::Param P,
                     ConstantFolder &Folder, const CallContext *Context,
                     const SourceManager &SM);

  /// Where the toolkit \p T of the pass came from: CUDA_VERSION's
  /// definition at \p MacroLoc, else (the driver's version, no place of its
  /// own) at \p WarnLoc.
  void noteToolkit(const ::tma::rules::Toolkit &T, SourceLocation MacroLoc,
                   SourceLocation WarnLoc);

  /// The calls that bound the parameters a value was read through
  /// (\p Through), innermost first. Leaves \p Folder in \p Context.
  void noteCalls(llvm::ArrayRef<Binding> Through, SourceLocation WarnLoc,
                 ConstantFolder &Folder, const CallContext *Context,
                 const SourceManager &SM);

  /// At \p WarnLoc: the same value also comes from \p Others other calls
  /// of \p Callee (contexts reported once, for the first).
  void noteOtherCalls(SourceLocation WarnLoc, unsigned Others,
                      const NamedDecl *Callee);

  /// Where the proven alignment \p A of pointer operand \p Name comes
  /// from (the allocation or the variable it points into, with why the
  /// variable has its alignment when \p SayWhy), then the calls it was read
  /// through. Leaves \p Folder in \p Context.
  void notePointer(const PointerAlign &A, llvm::StringRef Name,
                   SourceLocation WarnLoc, ConstantFolder &Folder,
                   const CallContext *Context, const SourceManager &SM,
                   bool SayWhy = true);

  /// The host call that hands the linked map \p M to the device (the
  /// kernel launch, the cudaMemcpyToSymbol call).
  void noteHandoff(const KnownMap &M, const SourceManager &SM);

  /// The calls that bound the parameters \p Folded was read through,
  /// innermost first (noteOrigin without the value's own place). Leaves
  /// \p Folder in \p Context.
  void noteCalls(const FoldedInt &Folded, SourceLocation WarnLoc,
                 ConstantFolder &Folder, const CallContext *Context,
                 const SourceManager &SM);

  /// A value reported at a caller (\p Forwarded): the op at \p OpLoc that
  /// receives it, "passed to <What> of OP here".
  void notePassedTo(bool Forwarded, SourceLocation OpLoc,
                    SourceLocation WarnLoc, llvm::StringRef What,
                    llvm::StringRef OpName, const SourceManager &SM);

  /// A value of a template instantiation \p Fn: which one (none for a
  /// value reported at a caller, \p Forwarded, where it says nothing more).
  void noteInstantiation(bool Forwarded, const FunctionDecl *Fn,
                         const SourceManager &SM);

  /// Forgets the translation unit's reports.
  void clear() {
    Reported.clear();
    Fixed.clear();
  }

private:
  /// Whether a warning \p Message at \p Loc may be reported (warnOnce's
  /// conditions); records it.
  bool admit(SourceLocation Loc, const std::string &Message,
             const SourceManager &SM);

  ClangTidyCheck &Check;
  const RuleFilter &Rules;
  llvm::unique_function<bool()> MayReport;
  /// (location, message) pairs already reported in this translation unit:
  /// template instantiations and contexts repeat the same op.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
  /// Where fix-its of this translation unit start (warnOnce with a Fix).
  std::set<SourceLocation::UIntTy> Fixed;
};

/// The operand of \p Map's encode call that holds the fact \p P (a driver
/// parameter, as rules name it; Param::Encoder: the call itself; the box:
/// the operand KnownMap keeps for notes), for notes on a linked map.
const Expr *encodeOperand(const KnownMap &Map, ::tma::rules::Param P);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_SITEREPORTER_H
