//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/BulkCopyCheck.h"
#include "api/OpAddressFacts.h"
#include "api/CudaTarget.h"
#include "api/LaunchCluster.h"
#include "api/DeviceOpFacts.h"
#include "api/OpFormFacts.h"
#include "api/TensorCopyFacts.h"
#include "checks/SharedMatchers.h"
#include "rules/ArchRules.h"
#include "checks/Explain.h"
#include "rules/DeviceRules.h"
#include "rules/FormRules.h"
#include "rules/OpFormSite.h"
#include "rules/SmemRules.h"
#include "rules/TensorCopySite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include <type_traits>
#include <utility>
#include <vector>

using namespace clang::ast_matchers;
using ::tma::rules::DeviceViolation;

namespace clang::tidy::tma {

BulkCopyCheck::BulkCopyCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      CallSiteContexts(Options.get("CallSiteContexts", true)),
      CoverageReport(Options.get("CoverageReport", false)),
      ExplainDescriptors(Options.get("ExplainDescriptors", false)),
      ExplainSilence(Options.get("ExplainSilence", false)) {}

void BulkCopyCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallSiteContexts", CallSiteContexts);
  Options.store(Opts, "CoverageReport", CoverageReport);
  Options.store(Opts, "ExplainDescriptors", ExplainDescriptors);
  Options.store(Opts, "ExplainSilence", ExplainSilence);
}

void BulkCopyCheck::explainSilence(SourceLocation Loc, const std::string &Rules,
                                   const std::string &Why,
                                   const CallContext *Context) {
  if (!ExplainSilence)
    return;
  std::string Text = "silent: " + Rules + ": " + Why;
  // A helper's op: the reasons may differ from caller to caller. Named by
  // the kernel the calls start from, else the outermost caller.
  const FunctionDecl *Kernel = CurrentFn && CurrentFn->hasAttr<CUDAGlobalAttr>()
                                   ? CurrentFn
                                   : nullptr;
  for (; Context; Context = Context->Parent) {
    if (Context->Callee && Context->Callee->hasAttr<CUDAGlobalAttr>())
      Kernel = Context->Callee;
    if (!Context->Parent)
      break;
  }
  if (Kernel)
    Text += " (in kernel '" + Kernel->getNameAsString() + "')";
  else if (Context)
    if (const FunctionDecl *From = Folder->enclosingFunction(Context->Call))
      Text += " (called from '" + From->getNameAsString() + "')";
  if (Report.record(Loc, Text))
    Report.aid(Loc, Text);
}

/// Why the address \p E is not traced to a `__shared__` variable.
static std::string untraced(const Expr *E) {
  std::string Why = "the address is not traced to a __shared__ variable";
  if (E && E->IgnoreParenImpCasts()->getType()->isIntegerType())
    Why += " (an integer shared-window address that is not "
           "__cvta_generic_to_shared of one plus offsets)";
  return Why;
}

/// Why the proven alignment of the address \p B describes is unknown, or
/// "" when it is known.
static std::string alignmentUnknown(const SharedBuffer &B) {
  if (addressAlignOf(B))
    return "";
  std::string Name = "'" + B.Var->getNameAsString() + "'";
  if (!B.BaseAlign)
    return "the alignment of " + Name + " is not known";
  std::string Declared = std::to_string(*B.BaseAlign) + " bytes";
  if (B.Extern)
    return Name + " is dynamic shared memory, whose start may be aligned to "
                  "more than the " + Declared +
           " the code declares: only an offset that breaks " + Declared +
           " is proven";
  if (B.RoundedTo)
    return "the address is rounded to " + Declared +
           " at run time: only an offset that breaks it is proven";
  return "the offset of the address into " + Name +
         " is not known (a run-time index)";
}

void BulkCopyCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // Device code only: the function bodies are walked here (rather than
  // matching each asm statement and call) so that the function whose
  // call-site contexts apply is known without a TU-wide parent map.
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

void BulkCopyCheck::onEndOfTranslationUnit() {
  Linker.reset();
  Buffers.reset();
  Finder.reset();
  Folder.reset();
  Report.clear();
  Stubs = LibraryStubs();
  PassToolkit.reset();
  AsmArchTarget.reset();
  AsmFindings.clear();
}

namespace {
/// A statement that may issue device ops, and the function whose parameters
/// its operands read.
struct OpStmt {
  const Stmt *S;
  const FunctionDecl *Owner;
};
} // namespace

/// The asm statements and calls of \p Body, with the lambda call operator
/// or \p Owner they belong to: the finder's list of the body (its walk is
/// shared with the other checks), into the lambdas that the matcher does not
/// hand to check() itself, without the parts of an `if constexpr` that are
/// never compiled (nor run).
static void collect(DeviceOpsFinder &Finder, const Stmt *Body,
                    const FunctionDecl *Owner, std::vector<OpStmt> &Out) {
  for (const DeviceOpsFinder::OpStmt &OS : Finder.opStmtsOf(Body)) {
    if (OS.Discarded)
      continue;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(OS.S)) {
      if (!matchedOnItsOwn(*Lambda))
        collect(Finder, Lambda->getBody(), Lambda->getCallOperator(), Out);
      continue;
    }
    Out.push_back({OS.S, Owner});
  }
}

void BulkCopyCheck::check(const MatchFinder::MatchResult &Result) {
  // Templates are checked per instantiation (the shared matcher hands over
  // no dependent function); system headers (the cuda::ptx wrappers are
  // themselves asm) not at all.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  if (!M.UserBody)
    return;
  const FunctionDecl *Fn = M.Fn;
  const SourceManager &SM = *Result.SourceManager;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(*Result.Context);
  if (!Linker)
    Linker = std::make_unique<MapLinker>(*Folder, *Result.Context);
  if (!Buffers)
    Buffers = std::make_unique<SharedBuffers>(*Result.Context, *Folder);

  std::vector<OpStmt> Stmts;
  collect(*Finder, Fn->getBody(), Fn, Stmts);
  // checkLibraryArch needs the device pass's target.
  const bool Device = Result.Context->getLangOpts().CUDAIsDevice;
  for (const OpStmt &OS : Stmts) {
    const auto *Asm = dyn_cast<GCCAsmStmt>(OS.S);
    std::optional<DeviceOp> CallOp;
    if (!Asm) {
      // Most calls are no op: nothing to check (asked before the location,
      // which costs more; the finder's answer is memoised for all checks).
      CallOp = Finder->opOf(*cast<CallExpr>(OS.S));
      if (!CallOp && !Device)
        continue;
    }
    SourceLocation Loc = SM.getFileLoc(OS.S->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    if (Asm) {
      checkAsm(*Asm, OS.Owner, Result);
      for (const DeviceOp &Op : Finder->opsOf(*Asm))
        checkOp(Op, OS.Owner, Result);
    } else {
      const auto &Call = *cast<CallExpr>(OS.S);
      if (CallOp)
        checkOp(*CallOp, OS.Owner, Result);
      checkLibraryArch(Call, OS.Owner, Result);
    }
  }
}

/// What the diagnostics call the op: the PTX instruction of an asm
/// statement, the qualified name of a library call.
static std::string opName(const DeviceOp &Op) {
  const OpSite &Site = siteOf(Op);
  if (Site.Api != OpApi::InlinePtx) {
    const auto *Call = dyn_cast_or_null<CallExpr>(Site.Site);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    std::string Name = FD && FD->getIdentifier() ? FD->getName().str() : "?";
    // CUTLASS and CuTe functions are members: name their class too.
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
        MD && MD->getParent()->getIdentifier())
      Name = MD->getParent()->getName().str() + "::" + Name;
    switch (Site.Api) {
    case OpApi::CudaPtx:
      return "cuda::ptx::" + Name;
    case OpApi::Cde:
      return "cde::" + Name;
    case OpApi::CudaDevice:
      return "cuda::device::" + Name;
    case OpApi::Libcudacxx:
      return "cuda::" + Name;
    case OpApi::Cutlass:
      return "cutlass::arch::" + Name;
    case OpApi::Cute:
      return "cute::" + Name;
    case OpApi::InlinePtx:
      break;
    }
  }
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (B->Direction == device::BulkDirection::GlobalToL2)
      return "cp.async.bulk.prefetch";
    return B->Reduce != device::ReduceOp::None ? "cp.reduce.async.bulk"
                                               : "cp.async.bulk";
  }
  if (const auto *T = std::get_if<TensorCopy>(&Op)) {
    if (T->Direction == device::TensorDirection::Prefetch)
      return "cp.async.bulk.prefetch.tensor";
    return T->Direction == device::TensorDirection::Reduce
               ? "cp.reduce.async.bulk.tensor"
               : "cp.async.bulk.tensor";
  }
  if (const auto *E = std::get_if<ExpectTx>(&Op))
    return E->WithArrive ? "mbarrier.arrive.expect_tx" : "mbarrier.expect_tx";
  if (std::holds_alternative<BarrierInit>(Op))
    return "mbarrier.init";
  if (std::holds_alternative<Arrive>(Op))
    return "mbarrier.arrive";
  if (const auto *W = std::get_if<Wait>(&Op))
    return W->TryWait ? "mbarrier.try_wait" : "mbarrier.test_wait";
  if (std::holds_alternative<StBulk>(Op))
    return "st.bulk";
  return "fence";
}

/// Whether a rule of checkOp's loop over the contexts can report on \p Op:
/// not on a fence (no operand the loop reads, no library form checkArch
/// names), nor on an arrive or wait without a barrier expression (the
/// barrier is all the loop reads of them).
static bool readsContext(const DeviceOp &Op) {
  if (std::holds_alternative<Fence>(Op))
    return false;
  if (std::holds_alternative<Arrive>(Op) || std::holds_alternative<Wait>(Op)) {
    const OpValue *Bar = barrierOperand(Op);
    return Bar && Bar->E;
  }
  return true;
}

void BulkCopyCheck::checkOp(const DeviceOp &Op, const FunctionDecl *Fn,
                            const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  std::string Name = opName(Op);
  const OpSite &Site = siteOf(Op);
  CurrentFn = Fn;

  checkForm(Op, Name, SM);
  // No rule below reads a fence, nor an arrive or wait whose barrier has no
  // expression: their function's contexts are not asked for (they walk the
  // TU's calls and the callers' guards).
  if (!CoverageReport && !readsContext(Op))
    return;

  auto Contexts = Folder->contextsOf(CallSiteContexts ? Fn : nullptr);
  if (CoverageReport) {
    // Which operand the rules read, and in how many contexts it folds.
    const OpValue *V = nullptr;
    if (const auto *B = std::get_if<BulkCopy>(&Op))
      V = &B->Size;
    else if (const auto *E = std::get_if<ExpectTx>(&Op))
      V = &E->Bytes;
    else if (const auto *I = std::get_if<BarrierInit>(&Op))
      V = &I->Count;
    unsigned Known = 0;
    for (const CallContext *Context : Contexts) {
      Folder->enterContext(Context);
      Known += V && V->Present &&
               (V->Imm || (V->Written && Folder->foldInt(V->Written)));
    }
    Folder->enterContext(nullptr);
    SourceLocation Loc = SM.getFileLoc(Site.Loc);
    std::string Message =
        V ? Name + ": operand folded in " + std::to_string(Known) + " of " +
                std::to_string(Contexts.size()) + " context(s)"
          : Name + ": no value operand";
    if (Report.record(Loc, Message))
      Report.aid(Loc, "coverage: " + Message);
  }
  for (const CallContext *Context : Contexts) {
    // Nothing to report where a guard leaves before the op (§11.C): the
    // first report of the context asks (feasible()).
    Pending = {Site.Site, Fn, Context, std::nullopt};
    Folder->enterContext(Context);
    // Facts, then rules, then report: the op's own value operands, each
    // violation reported at the operand it names.
    DeviceOpSite Operands = deviceOpSite(Op, Fn, Context, *Folder);
    for (const ::tma::rules::OperandViolation &V :
         ::tma::rules::checkDeviceOpOperands(Operands.Facts))
      reportOperand(Op, Name, Operands, V, Context, Result);
    if (const auto *T = std::get_if<TensorCopy>(&Op))
      checkLinkedMap(*T, Name, Context, SM);
    // Facts, then rules, then report: the op's addresses. A tensor copy's
    // box needs the swizzle repeat of its map in the end: the suggestion
    // says so at once.
    ::tma::rules::Known Swizzle;
    if (const auto *T = std::get_if<TensorCopy>(&Op); T && smemOperand(Op)) {
      if (auto Map = Linker->mapOf(T->Map.E, Context))
        Swizzle = Map->Desc.Swizzle;
      Folder->enterContext(Context);
    }
    OpAddressSite Addresses =
        opAddressSite(Op, Site.Api, Context, *Folder, *Buffers, Swizzle);
    std::vector<::tma::rules::AddressViolation> AddressViolations =
        ::tma::rules::checkOpAddresses(Addresses.Facts);
    explainAddressSilence(Site, Addresses, AddressViolations, Context,
                          *Result.SourceManager);
    for (const ::tma::rules::AddressViolation &V : AddressViolations)
      reportAddress(Op, Site, Addresses, V, Name, Context, Result);
    checkArch(Op, Name, Fn, Context, Result);
  }
  Pending = {};
  Folder->enterContext(nullptr);
}

void BulkCopyCheck::checkForm(const DeviceOp &Op, const std::string &OpName,
                              const SourceManager &SM) {
  // Facts, then rules, then report: the op's form, each violation at the
  // op (the form is the op's own spelling).
  SourceLocation Loc = SM.getFileLoc(siteOf(Op).Loc);
  for (const ::tma::rules::FormViolation &V :
       ::tma::rules::checkOpForm(opFormFacts(Op)))
    warnOnce(Loc, SiteReporter::message(OpName, " ", V.Violation), SM);
}

void BulkCopyCheck::reportOperand(const DeviceOp &Op,
                                  const std::string &OpName,
                                  const DeviceOpSite &S,
                                  const ::tma::rules::OperandViolation &V,
                                  const CallContext *Context,
                                  const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const OpSite &Site = siteOf(Op);
  const DeviceOpSite::Origin *O = S.originOf(V.Operand, V.Index);
  if (!O) {
    // Facts folded as a whole (a coordinate array, im2col offsets): at
    // the op.
    warnOnce(SM.getFileLoc(Site.Loc),
             SiteReporter::message(OpName, " ", V.Violation), SM);
    return;
  }
  if (V.Operand == ::tma::rules::OpOperand::CtaMask && S.Cluster)
    ExtraNote = {S.Cluster->From,
                 "the cluster has " + std::to_string(S.Cluster->Ctas) +
                     (S.Cluster->Ctas == 1 ? " CTA: " : " CTAs: ") +
                     S.Cluster->How};
  reportValue(Site, *O->V, O->Folded, V.Violation, OpName, Context, Result);
  ExtraNote.reset();
}

bool BulkCopyCheck::feasible() {
  if (!Pending.Site)
    return true;
  if (!Pending.MayRun)
    Pending.MayRun =
        Folder->mayRun(Pending.Site, Pending.Fn, Pending.Context);
  return *Pending.MayRun;
}

bool BulkCopyCheck::warnOnce(SourceLocation Loc, const std::string &Message,
                             const SourceManager &SM) {
  return Report.warnOnce(Loc, Message, SM);
}

void BulkCopyCheck::checkLinkedMap(const TensorCopy &T,
                                   const std::string &OpName,
                                   const CallContext *Context,
                                   const SourceManager &SM) {
  auto Map = Linker->mapOf(T.Map.E, Context);
  if (ExplainDescriptors) {
    SourceLocation Loc = SM.getFileLoc(T.Loc);
    std::string Text =
        Map ? OpName + " reads the map encoded at line " +
                  std::to_string(SM.getPresumedLineNumber(
                      SM.getFileLoc(Map->Link.Encode->getBeginLoc()))) +
                  ": " + explainMap(Map->Desc)
            : OpName + " reads a map that is not linked to an encode call "
                       "(none of this translation unit reaches it through a "
                       "kernel launch or cudaMemcpyToSymbol): map rules stay "
                       "silent";
    if (Report.firstTime(Loc, "explain: " + Text, SM))
      Report.aid(Loc, "explain: " + Text);
  }
  if (!Map) {
    explainSilence(SM.getFileLoc(T.Loc),
                   "TMA-DIM-EQ-RANK, TMA-SMEM-ALIGN-SWIZZLE, "
                   "TMA-SMEM-FOOTPRINT and the other rules against the map",
                   "the tensor map is not linked to a host encode call (no "
                   "launch or cudaMemcpyToSymbol of this translation unit "
                   "passes it)",
                   Context);
    return;
  }
  // Facts, then rules, then report: the site's record once, every violation
  // of it, each reported at the fact it names.
  LinkedCopySite Site = linkedCopySite(T, *Map, *Folder, *Buffers);
  for (const ::tma::rules::LinkedCopyViolation &V :
       ::tma::rules::checkLinkedTensorCopy(Site.Facts))
    reportLinked(T, OpName, V, *Map, Context, SM,
                 V.AboutBuffer && Site.Buffer ? &*Site.Buffer : nullptr);
  if (ExplainSilence)
    for (const ::tma::rules::SilentRule &R :
         ::tma::rules::silentLinkedRules(Site.Facts)) {
      std::string Why = R.Why;
      // The buffer says why its alignment is not proven.
      if (Site.Buffer && R.Rules == "TMA-SMEM-ALIGN-SWIZZLE")
        if (std::string More = alignmentUnknown(*Site.Buffer); !More.empty())
          Why += ": " + More;
      if (!Site.Buffer && T.Smem.E &&
          T.Smem.E->IgnoreParenImpCasts()->getType()->isIntegerType())
        Why += " (an integer shared-window address)";
      explainSilence(SM.getFileLoc(T.Loc), R.Rules, Why, Context);
    }
}

void BulkCopyCheck::reportLinked(const TensorCopy &T, const std::string &OpName,
                                 const ::tma::rules::LinkedCopyViolation &LV,
                                 const KnownMap &Map,
                                 const CallContext *Context,
                                 const SourceManager &SM,
                                 const SharedBuffer *Buffer) {
  const DeviceViolation &V = LV.Violation;
  SourceLocation Loc = SM.getFileLoc(T.Loc);
  if (!warnOnce(Loc, SiteReporter::message(OpName, ": ", V), SM))
    return;
  if (Buffer) {
    Report.noteBufferDeclared(*Buffer->Var, SM);
    // In a helper: the call that passes the buffer (of the first context
    // reported; the op is reported once).
    Report.noteBufferCall(Buffer->Var, OpName, Loc, *Folder, Context, SM);
  }
  Report.noteLinkedMap(Map, LV.MapOperand, *Folder, Context, SM);
  if (!V.Suggestion.empty())
    Report.note(Loc, V.Suggestion);
}

void BulkCopyCheck::reportGlobalAlign(const DeviceOp &Op,
                                      const OpAddressSite &S,
                                      const DeviceViolation &Violation,
                                      const std::string &OpName,
                                      const CallContext *Context,
                                      const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const OpValue *V = S.Global;
  const PointerAlign *A = &*S.GlobalPointer;
  const bool Bulk = std::holds_alternative<BulkCopy>(Op);
  const char *What = Bulk ? "the global address" : "gAddrToOverride";
  SourceLocation OpSiteLoc =
      Bulk ? std::get<BulkCopy>(Op).Loc : std::get<TensorCopy>(Op).Loc;
  const CallContext *Outer = Context;
  const Expr *Arg = forwardedFrom(V->E, Outer);
  SourceLocation Loc = SM.getFileLoc(Arg->getBeginLoc());
  if (SM.isInSystemHeader(Loc) ||
      !warnOnce(Loc, SiteReporter::message(OpName, " ", Violation), SM))
    return;
  Report.notePointer(*A, What, Loc, *Folder, Context, SM, /*SayWhy=*/false);
  Report.notePassedTo(Arg != V->E, OpSiteLoc, Loc, What, OpName, SM);
  Report.note(Loc, Violation.Suggestion);
}

void BulkCopyCheck::reportBarrierSpace(const OpSite &Site,
                                       const OpAddressSite &S,
                                       const DeviceViolation &Violation,
                                       const std::string &OpName,
                                       const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const Expr *Arg = S.BarrierArg;
  SourceLocation Loc = SM.getFileLoc(Arg->getBeginLoc());
  if (!warnOnce(Loc, SiteReporter::message(OpName, " ", Violation), SM))
    return;
  Report.noteDeclared(*S.BarrierObject, SM, "is declared here");
  Report.notePassedTo(Arg != S.Barrier->E, Site.Loc, Loc,
                      "the mbarrier operand", OpName, SM);
  Report.note(Loc, Violation.Suggestion);
}

void BulkCopyCheck::explainAddressSilence(
    const OpSite &Site, const OpAddressSite &S,
    llvm::ArrayRef<::tma::rules::AddressViolation> Violations,
    const CallContext *Context, const SourceManager &SM) {
  const char *Id = ::tma::rules::smemAlignRuleId(S.Facts.Op);
  if (!ExplainSilence || !S.Smem || !Id ||
      llvm::any_of(Violations, [](const ::tma::rules::AddressViolation &V) {
        return V.Operand == ::tma::rules::AddressOperand::Smem;
      }))
    return;
  SourceLocation Loc = SM.getFileLoc(Site.Loc);
  if (!S.SmemBuffer)
    explainSilence(Loc, Id, untraced(S.Smem->E), Context);
  else if (std::string Why = alignmentUnknown(*S.SmemBuffer);
           !Why.empty() && !S.SmemBuffer->Members)
    explainSilence(Loc, Id, Why, Context);
}

void BulkCopyCheck::reportAddress(const DeviceOp &Op, const OpSite &Site,
                                  const OpAddressSite &S,
                                  const ::tma::rules::AddressViolation &V,
                                  const std::string &OpName,
                                  const CallContext *Context,
                                  const MatchFinder::MatchResult &Result) {
  using ::tma::rules::AddressOperand;
  switch (V.Operand) {
  case AddressOperand::Smem:
    return reportSmemAlign(Site, *S.Smem, *S.SmemBuffer, V, OpName, Context,
                           Result);
  case AddressOperand::Barrier:
    return reportSmemAlign(Site, *S.Barrier, *S.BarrierBuffer, V, OpName,
                           Context, Result);
  case AddressOperand::BarrierSpace:
    return reportBarrierSpace(Site, S, V.Violation, OpName, Result);
  case AddressOperand::Global:
    return reportGlobalAlign(Op, S, V.Violation, OpName, Context, Result);
  }
}

void BulkCopyCheck::reportSmemAlign(const OpSite &Site, const OpValue &V,
                                    const SharedBuffer &Buffer,
                                    const ::tma::rules::AddressViolation &AV,
                                    const std::string &OpName,
                                    const CallContext *Context,
                                    const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  const SharedBuffer *B = &Buffer;
  const DeviceViolation &Violation = AV.Violation;
  // A stage family: the first stage that breaks the rule (issue 24).
  std::string Stage;
  if (AV.Member)
    Stage = ": stage " + std::to_string(AV.Member->Member) + " starts " +
            std::to_string(AV.Member->Offset) + " bytes into '" +
            B->Var->getNameAsString() + "', so its";
  // An address that only forwards a parameter of a helper is reported where
  // the caller wrote it.
  const CallContext *Outer = Context;
  const Expr *Arg = forwardedFrom(V.E, Outer);
  SourceLocation Loc = SM.getFileLoc(Arg->getBeginLoc());
  if (!warnOnce(Loc, SiteReporter::message(OpName + Stage, " ", Violation),
                SM))
    return;
  Report.noteBufferStart(*B, SM);
  const bool Forwarded = Arg != V.E;
  Report.notePassedTo(Forwarded, Site.Loc, Loc, "the shared-memory address",
                      OpName, SM);
  if (!Forwarded)
    Report.noteBufferCall(B->Var, OpName, Loc, *Folder, Context, SM);
  // The rules' suggestion: the alignment a tensor copy's box needs with its
  // map's swizzle, only the offset for an extern pool or a rounded address.
  Report.note(Loc, Violation.Suggestion);
  Report.noteInstantiation(Forwarded, CurrentFn, SM);
}

void BulkCopyCheck::reportValue(const OpSite &Site, const OpValue &V,
                                const std::optional<FoldedInt> &Folded,
                                DeviceViolation Violation,
                                const std::string &OpName,
                                const CallContext *Context,
                                const MatchFinder::MatchResult &Result) {
  const SourceManager &SM = *Result.SourceManager;
  // An operand that only forwards a parameter of a helper is reported where
  // the caller wrote it.
  const CallContext *Outer = Context;
  const Expr *Arg = V.Written ? forwardedFrom(V.Written, Outer) : nullptr;
  SourceLocation Loc = SM.getFileLoc(Arg ? Arg->getBeginLoc() : Site.Loc);
  if (!warnOnce(Loc, SiteReporter::message(OpName, " ", Violation), SM))
    return;
  const char *Param = ::tma::rules::deviceParamName(Violation.Parameter);
  // Where the value came from and the calls that bound it.
  if (Folded)
    Report.noteOrigin(*Folded, Param, Loc, *Folder, Context, SM);
  if (ExtraNote && ExtraNote->first.isValid() &&
      !SM.isInSystemHeader(SM.getFileLoc(ExtraNote->first)))
    Report.note(SM.getFileLoc(ExtraNote->first), ExtraNote->second);
  const bool Forwarded = Arg != V.Written;
  Report.notePassedTo(Forwarded, Site.Loc, Loc, std::string("the ") + Param,
                      OpName, SM);
  if (!Violation.Suggestion.empty())
    Report.note(Loc, Violation.Suggestion);
  Report.noteInstantiation(Forwarded, CurrentFn, SM);
}

} // namespace clang::tidy::tma
