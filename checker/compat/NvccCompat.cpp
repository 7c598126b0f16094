//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The action's consumer sees every inline function definition as it is
// parsed (ASTConsumer::HandleInlineFunctionDefinition), before any kernel
// that declares a barrier: dropping the body there is what makes Sema's
// check of the later `__shared__` declaration (SemaCUDA's
// checkAllowedInitializer: empty constructor and destructor) pass, so the
// declaration is valid and its uses are ordinary expressions instead of
// RecoveryExprs. The body is not restored: in tma-clangd the class comes
// from the preamble, parsed once (with function bodies skipped, which this
// consumer vetoes for these destructors) for many main-file parses.
//
//===----------------------------------------------------------------------===//

#include "compat/NvccCompat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/PreprocessorOptions.h"

namespace clang::tidy::tma {

bool nvccCompatEnabled(
    const std::vector<std::pair<std::string, bool>> &Macros) {
  bool Enabled = true;
  for (const auto &[Spelling, IsUndef] : Macros) {
    llvm::StringRef Name = llvm::StringRef(Spelling).split('=').first;
    if (Name != "TMA_NVCC_COMPAT")
      continue;
    Enabled = IsUndef || llvm::StringRef(Spelling) != "TMA_NVCC_COMPAT=0";
  }
  return Enabled;
}

bool isLibcuxxBarrierDestructor(const CXXDestructorDecl &D) {
  const CXXRecordDecl *RD = D.getParent();
  if (!RD || !RD->getIdentifier() || RD->getName() != "barrier")
    return false;
  // The outermost named namespace is `cuda` (cuda::barrier,
  // cuda::std::barrier, with or without libcu++'s inline ABI namespace).
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isAnonymousNamespace() && !NS->isInline())
        Outer = NS;
  if (!Outer || Outer->getName() != "cuda")
    return false;
  const SourceManager &SM = D.getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D.getLocation()));
}

namespace {

class NvccCompatConsumer : public ASTConsumer {
public:
  /// tma-clangd's preamble skips function bodies; a skipped destructor body
  /// is not empty for Sema either, so these are parsed (and then dropped).
  bool shouldSkipFunctionBody(Decl *D) override {
    const auto *Dtor = dyn_cast<CXXDestructorDecl>(D);
    return !Dtor || !isLibcuxxBarrierDestructor(*Dtor);
  }
  void HandleInlineFunctionDefinition(FunctionDecl *D) override {
    auto *Dtor = dyn_cast<CXXDestructorDecl>(D);
    if (!Dtor || !Dtor->doesThisDeclarationHaveABody() ||
        !isLibcuxxBarrierDestructor(*Dtor))
      return;
    ASTContext &Ctx = Dtor->getASTContext();
    Stmt *Body = Dtor->getBody();
    Dtor->setBody(CompoundStmt::Create(Ctx, {}, FPOptionsOverride(),
                                       Body->getBeginLoc(),
                                       Body->getEndLoc()));
  }
};

/// Before the main action, in CUDA translation units only.
class NvccCompatAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) override {
    LangOptions &LO = CI.getLangOpts();
    if (!LO.CUDA || !nvccCompatEnabled(CI.getPreprocessorOpts().Macros))
      return std::make_unique<ASTConsumer>();
    // Read by Sema only (extern __shared__ of a non-array type); the
    // preprocessor has already defined its macros, so __CLANG_RDC__ stays
    // as the command line set it.
    LO.GPURelocatableDeviceCode = true;
    return std::make_unique<NvccCompatConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<NvccCompatAction>
    X("tma-nvcc-compat", "Accepts nvcc-only CUDA declarations for tma- checks");

} // namespace clang::tidy::tma
