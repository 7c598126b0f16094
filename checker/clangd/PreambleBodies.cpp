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
// keeps the bodies outside system headers, and those of CUTLASS, CuTe and
// CCCL's cuda:: (whose barriers, TMA atoms and memcpy_async the checks read)
// wherever they are. The other bodies of system headers (the C++ library,
// cuda::std, the CUDA runtime) stay skipped.
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Serialization/PCHContainerOperations.h"

namespace {

using namespace clang;

/// Whether \p D is declared in a library whose bodies the checks read
/// where they are system headers: CUTLASS and CuTe (barriers, TMA atoms),
/// CCCL's cuda:: and cuda::device:: (memcpy_async's TMA path), not the
/// standard library of cuda::std.
bool inReadLibrary(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  auto Name = [](const NamespaceDecl *NS) {
    const IdentifierInfo *II = NS ? NS->getIdentifier() : nullptr;
    return II ? II->getName() : llvm::StringRef();
  };
  if (!Outer)
    return false;
  if (Name(Outer) == "cutlass" || Name(Outer) == "cute")
    return true;
  if (Name(Outer) != "cuda")
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS != Outer && Name(NS) == "std")
      return false;
  return true;
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
    // Device functions of system headers too: the model reads what a
    // type's operators do (cuda_bf16.hpp's operator* reads its operands).
    return Loc.isValid() && SM.isInSystemHeader(Loc) && !inReadLibrary(D) &&
           !(D->hasAttrs() && D->hasAttr<CUDADeviceAttr>());
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
