//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// clangd builds the preamble (the headers at the top of a file, parsed once
// and reused for every edit) without function bodies: its callbacks answer
// shouldSkipFunctionBody with true. The tma- checks need the bodies of the
// helpers a kernel calls (PTX wrappers, barrier classes, encode helpers),
// which live in the project's headers: with them skipped, a kernel that
// calls its wrappers from include/tma_ptx.cuh issued no op that the checks
// could see.
//
// The link wraps clang::PrecompiledPreamble::Build (-Wl,--wrap, see
// CMakeLists.txt) and hands it clangd's callbacks behind a forwarder that
// keeps the bodies outside system headers, and those of CUTLASS and CuTe
// (whose barriers and TMA atoms the checks read) wherever they are. The
// bodies of system headers (the C++ library, CUDA's own) stay skipped.
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Serialization/PCHContainerOperations.h"

namespace {

using namespace clang;

/// Whether \p D is declared in namespace cutlass or cute (at any depth).
bool inCutlassOrCute(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (const IdentifierInfo *II = NS->getIdentifier();
          II && (II->isStr("cutlass") || II->isStr("cute")))
        return true;
  return false;
}

/// clangd's preamble callbacks, keeping the bodies the checks read.
class KeepUserBodies : public PreambleCallbacks {
public:
  explicit KeepUserBodies(PreambleCallbacks &Inner) : Inner(Inner) {}

  void BeforeExecute(CompilerInstance &CI) override { Inner.BeforeExecute(CI); }
  void AfterExecute(CompilerInstance &CI) override { Inner.AfterExecute(CI); }
  void AfterPCHEmitted(ASTWriter &Writer) override {
    Inner.AfterPCHEmitted(Writer);
  }
  void HandleTopLevelDecl(DeclGroupRef DG) override {
    Inner.HandleTopLevelDecl(DG);
  }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return Inner.createPPCallbacks();
  }
  CommentHandler *getCommentHandler() override {
    return Inner.getCommentHandler();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    if (!Inner.shouldSkipFunctionBody(D))
      return false;
    const SourceManager &SM = D->getASTContext().getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    return Loc.isValid() && SM.isInSystemHeader(Loc) && !inCutlassOrCute(D);
  }

private:
  PreambleCallbacks &Inner;
};

} // namespace

using BuildResult = llvm::ErrorOr<clang::PrecompiledPreamble>;

// clang's PrecompiledPreamble::Build, renamed by the linker's --wrap, and
// ours, which clangd's buildPreamble reaches instead.
BuildResult clangPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) __asm__(
    "__real__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN"
    "4llvm12MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"
    "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"
    "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");
// NOLINTNEXTLINE(misc-use-internal-linkage)
BuildResult tmaPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) __asm__(
    "__wrap__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN"
    "4llvm12MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"
    "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"
    "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");

BuildResult tmaPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) {
  KeepUserBodies Keep(Callbacks);
  return clangPreambleBuild(Invocation, MainFileBuffer, Bounds,
                            std::move(Diagnostics), std::move(VFS),
                            std::move(PCHContainerOps), StoreInMemory,
                            StoragePath, Keep);
}
