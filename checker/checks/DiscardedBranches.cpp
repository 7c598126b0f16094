//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The `if constexpr` branches that no code of the TU compiles (issue 24
// item 5): a template's statement appears once per instantiation (and once
// in the pattern), each with its condition folded; a branch that every
// folded copy drops is dead in this TU, and an edit inside it changes
// nothing the compiler keeps. Keyed by the statement's `if` location, which
// the instantiations share with the pattern.
//
//===----------------------------------------------------------------------===//

#include "checks/DiscardedBranches.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>

namespace clang::tidy::tma {

namespace {

struct Branches {
  const IfStmt *Pattern = nullptr; // the copy whose branches span widest
  unsigned Instances = 0;
  bool ThenKept = false, ElseKept = false;
  bool InKernel = true; // every copy lies in a kernel's body
};

bool deviceOnly(const FunctionDecl &F) {
  return F.hasAttr<CUDADeviceAttr>() && !F.hasAttr<CUDAHostAttr>() &&
         !F.hasAttr<CUDAGlobalAttr>();
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(ASTContext &Ctx) : Ctx(Ctx) {}
  // Every instantiation is a copy to count; lambda classes hold the
  // specialisations of generic lambdas.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F)
      return RecursiveASTVisitor::TraverseDecl(D);
    Kernels += F->hasAttr<CUDAGlobalAttr>();
    Fns.push_back(F);
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    Fns.pop_back();
    Kernels -= F->hasAttr<CUDAGlobalAttr>();
    return R;
  }

  // A kernel named in device code (a launch, its address): a failed
  // device instantiation could have held another instantiation of it.
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *) { return kernelRef(); }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *F = dyn_cast<FunctionDecl>(E->getDecl());
    return F && F->hasAttr<CUDAGlobalAttr>() ? kernelRef() : true;
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (const NamedDecl *D : E->decls())
      if (const FunctionDecl *F = D->getAsFunction();
          F && F->hasAttr<CUDAGlobalAttr>())
        return kernelRef();
    return true;
  }

  bool VisitDecl(Decl *D) {
    if (!D->isInvalidDecl())
      return true;

    const auto *F = dyn_cast<FunctionDecl>(D);
    if (F && deviceOnly(*F))
      ++FailedDevice;
    else
      ++FailedOther;
    return true;
  }

  bool VisitIfStmt(IfStmt *S) {
    if (!S->isConstexpr())
      return true;
    SourceLocation L = S->getIfLoc();
    const SourceManager &SM = Ctx.getSourceManager();
    if (L.isInvalid() || L.isMacroID() || SM.isInSystemHeader(L))
      return true;
    Branches &B = Seen[L.getRawEncoding()];
    B.InKernel &= Kernels > 0;
    if (!B.Pattern || extent(S) > extent(B.Pattern))
      B.Pattern = S;
    const Expr *Cond = S->getCond();
    if (!Cond || Cond->isValueDependent() || Cond->isInstantiationDependent())
      return true; // a pattern: resolved in its instantiations
    ++B.Instances;
    bool Value = false;
    if (!Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
      // Unknown: both may be compiled.
      B.ThenKept = B.ElseKept = true;
      return true;
    }
    (Value ? B.ThenKept : B.ElseKept) = true;
    return true;
  }

  llvm::DenseMap<SourceLocation::UIntTy, Branches> Seen;
  /// Invalid declarations: device-only functions (a failed instantiation
  /// of a device helper) and others.
  unsigned FailedDevice = 0, FailedOther = 0;
  /// Kernels named outside host-only functions.
  unsigned KernelRefs = 0;

private:
  unsigned Kernels = 0; // kernels on the traversal's stack
  std::vector<const FunctionDecl *> Fns; // the functions around the node
  bool kernelRef() {
    const FunctionDecl *F = Fns.empty() ? nullptr : Fns.back();
    if (!F || F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAGlobalAttr>())
      ++KernelRefs;
    return true;
  }

  /// The source length of the branches (a folded copy may hold an empty
  /// statement for the branch it dropped).
  unsigned extent(const IfStmt *S) const {
    const SourceManager &SM = Ctx.getSourceManager();
    unsigned N = 0;
    for (const Stmt *B : {S->getThen(), S->getElse()})
      if (B && B->getBeginLoc().isFileID() && B->getEndLoc().isFileID())
        N += SM.getFileOffset(B->getEndLoc()) -
             SM.getFileOffset(B->getBeginLoc()) + 1;
    return N;
  }
  ASTContext &Ctx;
};

} // namespace

std::vector<DiscardedBranch> discardedBranches(ASTContext &Ctx) {
  std::vector<DiscardedBranch> Out;
  Collector C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  // A TU with errors may have lost an instantiation that keeps a branch.
  // One kind of error is accounted for: each error a failed instantiation
  // of a device-only helper (no other invalid declaration, as many such
  // helpers as errors) in a TU whose device code names no kernel (no
  // launch, no address). Such a helper instantiates no kernel, so the
  // kernels' instantiations are whole: only branches in kernel bodies are
  // listed then.
  unsigned Errors = Ctx.getDiagnostics().getNumErrors();
  bool KernelsOnly = Errors > 0;
  if (KernelsOnly &&
      (C.FailedOther || C.FailedDevice != Errors || C.KernelRefs))
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  for (const auto &[Key, B] : C.Seen) {
    if (!B.Instances || !B.Pattern || (KernelsOnly && !B.InKernel))
      continue;
    for (auto [Branch, Kept] : {std::pair{B.Pattern->getThen(), B.ThenKept},
                                std::pair{B.Pattern->getElse(), B.ElseKept}}) {
      if (Kept || !Branch)
        continue;
      SourceLocation Begin = Branch->getBeginLoc(), Last = Branch->getEndLoc();
      if (Begin.isInvalid() || !Begin.isFileID() || !Last.isFileID() ||
          SM.getFileID(Begin) != SM.getFileID(Last))
        continue;
      SourceLocation End = Lexer::getLocForEndOfToken(Last, 0, SM, LO);
      if (End.isInvalid())
        continue;
      bool Alone = Branch == B.Pattern->getThen() && !B.Pattern->getElse() &&
                   !B.Pattern->getInit() && !B.Pattern->getConditionVariable();
      Out.push_back({Begin, End, Alone ? B.Pattern->getIfLoc() : SourceLocation(),
                     B.Instances});
    }
  }
  std::sort(Out.begin(), Out.end(),
            [&](const DiscardedBranch &A, const DiscardedBranch &B) {
              return SM.isBeforeInTranslationUnit(A.Begin, B.Begin);
            });
  return Out;
}

} // namespace clang::tidy::tma
