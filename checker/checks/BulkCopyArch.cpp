//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-bulk-copy's target rules (tma-rules.md section 7, rules/ArchRules.h):
// every instruction of inline PTX by its opcode, the library ops by the
// forms they select, and a library wrapper by what its header compiles it to
// on this pass's target; and every instruction of inline PTX against the
// PTX ISA of the toolkit (TMA-PTX-ISA, rules/PtxIsaRules.h; the library
// wrappers need no such check: CCCL declares each only when its
// __cccl_ptx_isa has the form). Only for code this pass emits: a kernel, or
// a helper a kernel calls (an uncalled helper is never compiled for the
// target, so ptxas never sees it).
//
//===----------------------------------------------------------------------===//

#include "api/CudaTarget.h"
#include "api/DeviceOpsFinder.h"
#include "api/PtxParser.h"
#include "checks/BulkCopyCheck.h"
#include "rules/ArchRules.h"
#include "rules/FormRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang::ast_matchers;
using ::tma::rules::DeviceFeature;
using ::tma::rules::DeviceViolation;

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

/// A form of the PTX instruction itself (no qualifier names it): the
/// message names the whole opcode.
static bool isInstructionFeature(DeviceFeature F) {
  return ::tma::rules::deviceFeatureName(F)[0] != '.';
}

/// The instruction of \p Opcode without its state spaces, types and
/// completion qualifiers: "cp.async.bulk.tensor", "mbarrier.try_wait".
static std::string instructionOf(llvm::StringRef Opcode) {
  static const char *const Words[] = {
      "cp",          "async",      "bulk",       "reduce",    "tensor",
      "prefetch",    "mbarrier",   "init",       "arrive",    "expect_tx",
      "complete_tx", "try_wait",   "test_wait",  "inval",     "arrive_drop",
      "fence",       "proxy",      "tensormap",  "replace",   "cp_fenceproxy",
      "st",          "mbarrier_init", "commit_group", "wait_group"};
  llvm::SmallVector<llvm::StringRef, 12> Parts;
  Opcode.split(Parts, '.');
  std::string Name;
  for (llvm::StringRef P : Parts) {
    if (!llvm::is_contained(Words, P))
      break;
    Name += Name.empty() ? P.str() : "." + P.str();
  }
  return Name.empty() ? Opcode.str() : Name;
}

/// The load mode an opcode's qualifiers name.
static ::tma::rules::CopyMode modeOfOpcode(llvm::StringRef Opcode) {
  using ::tma::rules::CopyMode;
  llvm::SmallVector<llvm::StringRef, 12> Parts;
  Opcode.split(Parts, '.');
  for (llvm::StringRef P : Parts) {
    if (P == "tile::gather4")
      return CopyMode::Gather4;
    if (P == "tile::scatter4")
      return CopyMode::Scatter4;
    if (P == "im2col")
      return CopyMode::Im2col;
    if (P == "im2col_no_offs")
      return CopyMode::Im2colNoOffs;
    if (P == "im2col::w")
      return CopyMode::Im2colW;
    if (P == "im2col::w::128")
      return CopyMode::Im2colW128;
  }
  return CopyMode::Tile;
}

/// The opcodes of \p Asm, whose text is \p Text, with the "n" operands
/// named in modifiers substituted (`.cta_group::%6`).
static std::vector<::tma::ptx::Opcode>
opcodesOfAsm(const GCCAsmStmt &Asm, const StringLiteral &Text,
             const ASTContext &Ctx) {
  StringRef S = Text.getString();
  if (Asm.isSimple() || (!S.contains(":%") && !S.contains(".%")))
    return ::tma::ptx::opcodesOf(S, !Asm.isSimple());
  return ::tma::ptx::opcodesOf(substituteModifierImmediates(Asm, S, Ctx),
                               true);
}

void BulkCopyCheck::checkAsmForms(const GCCAsmStmt &Asm,
                                  const MatchFinder::MatchResult &Result) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(Asm.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1 ||
      !Text->getString().contains("override_attribute"))
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Asm.getBeginLoc());
  for (const ::tma::ptx::Opcode &Op :
       opcodesOfAsm(Asm, *Text, *Result.Context)) {
    llvm::StringRef O = Op.Text;
    if (!O.starts_with("cp.async.bulk") && !O.starts_with("cp.reduce.async"))
      continue;
    llvm::SmallVector<llvm::StringRef, 12> Parts;
    O.split(Parts, '.');
    if (auto V = ::tma::rules::checkTmaOverrideForm(
            llvm::is_contained(Parts, "override_attribute"),
            llvm::is_contained(Parts, "override::global_address"),
            modeOfOpcode(O)))
      if (warnOnce(Loc,
                   instructionOf(O) + " " + V->Message + " (" + V->RuleId +
                       ")",
                   SM))
        diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
  }
}

const std::vector<BulkCopyCheck::AsmArchFinding> &
BulkCopyCheck::asmArchFindings(const GCCAsmStmt &Asm, const StringLiteral &Text,
                               const ASTContext &Ctx) {
  // The key is the text the opcodes are read from: the "n" operands named
  // in modifiers are substituted first, which only a text with a `:%` or
  // `.%` needs (the same test as opcodesOfAsm's).
  StringRef S = Text.getString();
  std::string Key = Asm.isSimple() ? "s" : "e";
  if (Asm.isSimple() || (!S.contains(":%") && !S.contains(".%")))
    Key += S;
  else
    Key += substituteModifierImmediates(Asm, S, Ctx);
  auto [It, New] = AsmArch.try_emplace(Key);
  if (!New)
    return It->second;
  const std::optional<::tma::rules::GpuTarget> &Target = *AsmArchTarget;
  const std::optional<::tma::rules::Toolkit> &Toolkit = *PassToolkit;
  std::vector<AsmArchFinding> &Out = It->second;
  for (const ::tma::ptx::Opcode &Op :
       ::tma::ptx::opcodesOf(StringRef(Key).drop_front(), !Asm.isSimple())) {
    if (Target)
      for (DeviceFeature F : ::tma::rules::featuresOfOpcode(Op.Text)) {
        if (::tma::rules::targetHasFeature(F, *Target))
          continue;
        // A form of the instruction itself is named by its whole opcode; a
        // qualifier after the instruction's name.
        const bool Whole = isInstructionFeature(F);
        std::optional<DeviceViolation> V =
            ::tma::rules::checkDeviceFeatureArch(
                F, Target,
                Whole ? std::string_view(Op.Text) : std::string_view());
        std::string Message =
            Whole ? V->Message : instructionOf(Op.Text) + " " + V->Message;
        Out.push_back({Message + " (" + V->RuleId + ")", V->Suggestion,
                       /*PtxIsa=*/false});
      }
    if (std::optional<DeviceViolation> V =
            ::tma::rules::checkOpcodePtxIsa(Op.Text, Toolkit))
      Out.push_back({V->Message + " (" + V->RuleId + ")", V->Suggestion,
                     /*PtxIsa=*/true});
  }
  return Out;
}

void BulkCopyCheck::checkAsmArch(const GCCAsmStmt &Asm, const FunctionDecl *Fn,
                                 const MatchFinder::MatchResult &Result) {
  // Only the device pass hands its PTX to ptxas.
  if (!Fn || !Result.Context->getLangOpts().CUDAIsDevice)
    return;
  if (!AsmArchTarget)
    AsmArchTarget = passTarget(*Result.Context);
  if (!PassToolkit)
    PassToolkit = passToolkit(*Result.Context, PP, &ToolkitMacroLoc);
  const std::optional<::tma::rules::Toolkit> &Toolkit = *PassToolkit;
  if (!*AsmArchTarget && !Toolkit)
    return;
  const auto *Text = dyn_cast_or_null<StringLiteral>(Asm.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return;
  // What the text breaks depends on the text alone (the target and toolkit
  // are the pass's): found once per distinct text, reported at each
  // statement this pass emits.
  const std::vector<AsmArchFinding> &Findings =
      asmArchFindings(Asm, *Text, *Result.Context);
  if (Findings.empty() || !emittedForTarget(Fn))
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Asm.getBeginLoc());
  for (const AsmArchFinding &F : Findings) {
    if (!warnOnce(Loc, F.Message, SM))
      continue;
    if (F.PtxIsa) {
      // Where the toolkit's version came from: CUDA_VERSION's definition,
      // or the driver (no location of its own).
      const std::string Origin = ::tma::rules::toolkitOrigin(*Toolkit);
      if (Toolkit->Source == ::tma::rules::ToolkitSource::CudaVersionMacro &&
          ToolkitMacroLoc.isValid())
        diag(ToolkitMacroLoc, "%0", DiagnosticIDs::Note) << Origin;
      else
        diag(Loc, "%0", DiagnosticIDs::Note) << Origin;
    }
    diag(Loc, "%0", DiagnosticIDs::Note) << F.Suggestion;
  }
}

/// The arch-specific forms a library op selects (its overload or
/// arguments); the plain Hopper forms are left to the header's own gate.
static llvm::SmallVector<DeviceFeature, 2> libraryFeatures(const DeviceOp &Op) {
  llvm::SmallVector<DeviceFeature, 2> F;
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (B->ByteMask.Present)
      F.push_back(DeviceFeature::CpMask);
    return F;
  }
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return F;
  const bool Prefetch = T->Direction == device::TensorDirection::Prefetch;
  // An unknown destination counts as .shared::cta, the form more targets
  // have.
  const bool Cluster = T->DstSpace == device::Space::SharedCluster;
  switch (T->Mode) {
  case device::TensorMode::TileGather4:
    F.push_back(Prefetch  ? DeviceFeature::PrefetchGather4
                : Cluster ? DeviceFeature::Gather4Cluster
                          : DeviceFeature::Gather4Cta);
    break;
  case device::TensorMode::TileScatter4:
    F.push_back(DeviceFeature::Scatter4);
    break;
  case device::TensorMode::Im2colW:
    F.push_back(Prefetch  ? DeviceFeature::PrefetchIm2colW
                : Cluster ? DeviceFeature::Im2colWCluster
                          : DeviceFeature::Im2colWCta);
    break;
  case device::TensorMode::Im2colW128:
    F.push_back(Prefetch ? DeviceFeature::PrefetchIm2colW
                         : DeviceFeature::Im2colW128);
    break;
  default:
    break;
  }
  if (T->CtaGroup)
    F.push_back(DeviceFeature::CtaGroup);
  return F;
}

static bool inCudaNamespace(const FunctionDecl *FD);

static bool isUnsupportedStub(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  return Name.starts_with("__cuda_ptx_") &&
         Name.contains("_is_not_supported");
}

const FunctionDecl *BulkCopyCheck::unsupportedStub(const FunctionDecl *Callee,
                                                   unsigned Depth) {
  if (!Callee || Depth > 3)
    return nullptr;
  auto [It, New] = Stubs.try_emplace(Callee, nullptr);
  if (!New)
    return It->second;
  const FunctionDecl *Definition = nullptr;
  const Stmt *Body = Callee->getBody(Definition);
  const FunctionDecl *Found = nullptr;
  if (Body) {
    const SourceManager &SM = Callee->getASTContext().getSourceManager();
    llvm::SmallVector<const Stmt *, 32> Work{Body};
    while (!Work.empty() && !Found) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *FD = Call->getDirectCallee();
        if (isUnsupportedStub(FD)) {
          Found = FD;
          break;
        }
        // Wrappers of wrappers (cde:: calls cuda::ptx::): the library's
        // own functions only.
        if (FD && inCudaNamespace(FD) &&
            SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
          if (const FunctionDecl *Inner = unsupportedStub(FD, Depth + 1)) {
            Found = Inner;
            break;
          }
      }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  Stubs[Callee] = Found;
  return Found;
}

/// "SM_90a_SM_100a_SM_101a" of a stub's name as "sm_90a, sm_100a, sm_101a".
static std::string stubTargets(StringRef Name) {
  size_t At = Name.find("_is_not_supported_before_");
  if (At == StringRef::npos)
    return "";
  StringRef List =
      Name.drop_front(At + strlen("_is_not_supported_before_")).rtrim('_');
  llvm::SmallVector<StringRef, 4> Parts;
  List.split(Parts, "_SM_");
  std::string Text;
  for (StringRef P : Parts) {
    P.consume_front("SM_");
    if (P.empty())
      continue;
    Text += (Text.empty() ? "sm_" : ", sm_") + P.str();
  }
  return Text;
}

void BulkCopyCheck::checkArch(const DeviceOp &Op, const std::string &OpName,
                              const FunctionDecl *Fn,
                              const CallContext *Context,
                              const MatchFinder::MatchResult &Result) {
  const OpSite &Site = siteOf(Op);
  // Inline PTX: checkAsmArch, by the opcodes.
  if (Site.Api == OpApi::InlinePtx || !reachedFromKernel(Fn, Context))
    return;
  std::optional<::tma::rules::GpuTarget> Target =
      passTarget(*Result.Context);
  if (!Target)
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = SM.getFileLoc(Site.Loc);
  for (DeviceFeature F : libraryFeatures(Op))
    if (auto V = ::tma::rules::checkDeviceFeatureArch(F, Target)) {
      if (warnOnce(Loc, OpName + " " + V->Message + " (" + V->RuleId + ")",
                   SM))
        diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
      return;
    }
}

/// Whether \p FD is a function of CCCL's `cuda` namespace (cuda::ptx,
/// cuda::device, cuda::device::experimental, ...).
static bool inCudaNamespace(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext();
  const NamespaceDecl *Outer = nullptr;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer && Outer->getName() == "cuda";
}

/// "cuda::ptx::tensormap_replace_global_address", without CCCL's inline
/// namespaces.
static std::string libraryName(const FunctionDecl *FD) {
  std::string Name;
  for (const DeclContext *DC = FD->getDeclContext();
       DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS->getIdentifier())
      Name = NS->getName().str() + "::" + Name;
  return Name + FD->getNameAsString();
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
  const FunctionDecl *Stub = unsupportedStub(Callee);
  if (!Stub || !emittedForTarget(Fn))
    return;
  // A form the op itself selects is reported by checkArch, by its rule.
  if (auto Op = Finder->opOf(Call))
    for (DeviceFeature F : libraryFeatures(*Op))
      if (!::tma::rules::targetHasFeature(F, *Target))
        return;
  std::string Supported = stubTargets(Stub->getName());
  SourceLocation Loc = SM.getFileLoc(Call.getBeginLoc());
  if (warnOnce(Loc,
               libraryName(Callee) + " is not supported on " +
                   Target->name() +
                   ", the target of this device pass: its header compiles "
                   "it to a call of '" +
                   Stub->getName().str() +
                   "', which no library defines, and the link fails" +
                   (Supported.empty() ? ""
                                      : " (the header has it for " +
                                            Supported + ")") +
                   " (TMA-ARCH)",
               SM))
    diag(Loc, "%0", DiagnosticIDs::Note)
        << (Supported.empty()
                ? std::string("guard the call with #if for the targets that "
                              "have it")
                : "build this kernel for " +
                      Supported.substr(0, Supported.find(',')) +
                      ", or guard the call with #if for the targets that "
                      "have it");
}

} // namespace clang::tidy::tma
