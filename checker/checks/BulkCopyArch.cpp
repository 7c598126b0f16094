//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-bulk-copy's target rules (tma-rules.md section 7): facts
// (api/TargetFacts.h), then rules (rules/TargetSite.h), then report. Every
// instruction of inline PTX by its opcode against the target and the PTX
// ISA of the toolkit (the library wrappers need no ISA check: CCCL declares
// each only when its __cccl_ptx_isa has the form) and its .override form;
// the library ops by the forms they select, and a library wrapper by what
// its header compiles it to on this pass's target. The target rules only
// for code this pass emits: a kernel, or a helper a kernel calls (an
// uncalled helper is never compiled for the target, so ptxas never sees
// it).
//
//===----------------------------------------------------------------------===//

#include "api/CudaTarget.h"
#include "api/DeviceOpsFinder.h"
#include "api/TargetFacts.h"
#include "checks/BulkCopyCheck.h"
#include "rules/TargetSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang::ast_matchers;
using ::tma::rules::TargetFact;
using ::tma::rules::TargetViolation;

namespace clang::tidy::tma {

bool BulkCopyCheck::reachedFromKernel(const FunctionDecl *Fn,
                                      const CallContext *Context) {
  if (Fn->hasAttr<CUDAGlobalAttr>())
    return true;
  for (const CallContext *C = Context; C; C = C->Parent)
    if (const FunctionDecl *Caller = Folder->enclosingFunction(C->Call);
        Caller && Caller->hasAttr<CUDAGlobalAttr>())
      return true;
  return false;
}

bool BulkCopyCheck::emittedForTarget(const FunctionDecl *Fn) {
  for (const CallContext *C :
       Folder->contextsOf(CallSiteContexts ? Fn : nullptr))
    if (reachedFromKernel(Fn, C))
      return true;
  return false;
}

/// The warning's text of a target violation: what it names, the message
/// and the rule id.
static std::string targetMessage(const TargetViolation &V) {
  return (V.Subject.empty() ? std::string() : V.Subject + " ") +
         V.Violation.Message + " (" + V.Violation.RuleId + ")";
}

const std::vector<TargetViolation> &
BulkCopyCheck::asmViolations(const GCCAsmStmt &Asm, const StringLiteral &Text,
                             const ASTContext &Ctx, bool JudgeTarget) {
  // What the text breaks depends on the text alone (the target and toolkit
  // are the pass's): judged once per distinct text (instantiations and the
  // helpers that many kernels inline repeat each text). The key is the text
  // the opcodes are read from.
  std::string Key = JudgeTarget ? "t" : "f";
  Key += Asm.isSimple() ? "s" : "e";
  Key += asmOpcodeSource(Asm, Text, Ctx);
  auto [It, New] = AsmFindings.try_emplace(Key);
  if (!New)
    return It->second;
  ::tma::rules::AsmFacts F;
  F.Opcodes = asmOpcodes(StringRef(Key).drop_front(2), !Asm.isSimple());
  F.JudgeTarget = JudgeTarget;
  if (JudgeTarget) {
    F.Target = *AsmArchTarget;
    F.Toolkit = *PassToolkit;
  }
  F.JudgeForms = Text.getString().contains("override_attribute");
  It->second = ::tma::rules::checkAsmStatement(F);
  return It->second;
}

void BulkCopyCheck::checkAsm(const GCCAsmStmt &Asm, const FunctionDecl *Fn,
                             const MatchFinder::MatchResult &Result) {
  // Only the device pass hands its PTX to ptxas.
  bool JudgeTarget = false;
  if (Fn && Result.Context->getLangOpts().CUDAIsDevice) {
    if (!AsmArchTarget)
      AsmArchTarget = passTarget(*Result.Context);
    if (!PassToolkit)
      PassToolkit = passToolkit(*Result.Context, PP, &ToolkitMacroLoc);
    JudgeTarget = *AsmArchTarget || *PassToolkit;
  }
  const auto *Text = dyn_cast_or_null<StringLiteral>(Asm.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1 ||
      (!JudgeTarget && !Text->getString().contains("override_attribute")))
    return;
  // Facts, then rules, then report: the statement's opcodes, every
  // violation of them, each reported at the statement.
  const std::vector<TargetViolation> &Violations =
      asmViolations(Asm, *Text, *Result.Context, JudgeTarget);
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Asm.getBeginLoc());
  std::optional<bool> Emitted;
  for (const TargetViolation &V : Violations) {
    // The target rules, only where this pass emits the statement.
    if (V.Fact != TargetFact::OverrideForm) {
      if (!Emitted)
        Emitted = emittedForTarget(Fn);
      if (!*Emitted)
        continue;
    }
    if (!warnOnce(Loc, targetMessage(V), SM))
      continue;
    // Where the toolkit's version came from: CUDA_VERSION's definition, or
    // the driver (no location of its own).
    if (V.Fact == TargetFact::PtxIsa)
      Report.noteToolkit(**PassToolkit, ToolkitMacroLoc, Loc);
    Report.note(Loc, V.Violation.Suggestion);
  }
}

void BulkCopyCheck::checkArch(const DeviceOp &Op, const std::string &OpName,
                              const FunctionDecl *Fn,
                              const CallContext *Context,
                              const MatchFinder::MatchResult &Result) {
  const OpSite &Site = siteOf(Op);
  // Inline PTX: checkAsm, by the opcodes.
  if (Site.Api == OpApi::InlinePtx || !reachedFromKernel(Fn, Context))
    return;
  std::optional<::tma::rules::GpuTarget> Target =
      passTarget(*Result.Context);
  if (!Target)
    return;
  // Facts, then rules, then report: the forms the op selects.
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Site.Loc);
  for (const TargetViolation &V : ::tma::rules::checkLibraryTarget(
           {libraryFeatures(Op), Target, std::nullopt}))
    if (warnOnce(Loc, OpName + " " + targetMessage(V), SM))
      Report.note(Loc, V.Violation.Suggestion);
}

void BulkCopyCheck::checkLibraryArch(const CallExpr &Call,
                                     const FunctionDecl *Fn,
                                     const MatchFinder::MatchResult &Result) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  const SourceManager &SM = *Result.SourceManager;
  if (!Callee || !Fn || !inCudaNamespace(Callee) ||
      !SM.isInSystemHeader(SM.getFileLoc(Callee->getLocation())))
    return;
  std::optional<::tma::rules::GpuTarget> Target =
      passTarget(*Result.Context);
  if (!Target)
    return;
  // The wrapper as its header compiled it for this target: CCCL calls an
  // extern that no library defines where the target lacks the instruction
  // ("Unsupported architectures will have a linker error").
  const FunctionDecl *Stub = Stubs.stubOf(Callee);
  if (!Stub || !emittedForTarget(Fn))
    return;
  // Facts, then rules, then report: the forms the op selects and the stub.
  ::tma::rules::LibraryTargetFacts F;
  if (auto Op = Finder->opOf(Call))
    F.Features = libraryFeatures(*Op);
  F.Target = Target;
  F.Stub = ::tma::rules::LibraryStub{libraryName(Callee),
                                     Stub->getName().str()};
  SourceLocation Loc = SM.getFileLoc(Call.getBeginLoc());
  for (const TargetViolation &V : ::tma::rules::checkLibraryTarget(F)) {
    // A form the op itself selects is reported by checkArch, by its rule.
    if (V.Fact != TargetFact::LibraryStub)
      continue;
    if (warnOnce(Loc, targetMessage(V), SM))
      Report.note(Loc, V.Violation.Suggestion);
  }
}

} // namespace clang::tidy::tma
