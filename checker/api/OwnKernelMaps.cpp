//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/OwnKernelMaps.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::tma {

namespace {
/// The definitions of the TU's device functions and kernels, template
/// instantiations included (their bodies are what the device pass compiles).
struct DeviceDefinitions : DynamicRecursiveASTVisitor {
  std::vector<const FunctionDecl *> Fns;
  DeviceDefinitions() { ShouldVisitTemplateInstantiations = true; }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        (FD->hasAttr<CUDAGlobalAttr>() || FD->hasAttr<CUDADeviceAttr>()))
      Fns.push_back(FD);
    return true;
  }
};
} // namespace

/// Whether two call chains are the same calls (the linker may extend the
/// folder's contexts with objects of its own).
static bool sameChain(const CallContext *A, const CallContext *B) {
  for (; A && B; A = A->Parent, B = B->Parent)
    if (A == B)
      return true;
    else if (A->Call != B->Call)
      return false;
  return A == B;
}

void OwnKernelMaps::collect(const Stmt *Body, const FunctionDecl *Owner) {
  if (!Body)
    return;
  auto Link = [&](const DeviceOp &Op) {
    const auto *T = std::get_if<TensorCopy>(&Op);
    if (!T || !T->Map.E)
      return;
    for (const CallContext *C : Folder.contextsOf(Owner))
      if (std::optional<KnownMap> M = Linker.mapOf(T->Map.E, C))
        Links.push_back(M->Link);
  };
  for (const DeviceOpsFinder::OpStmt &OS : Finder.opStmtsOf(Body)) {
    if (OS.Discarded)
      continue;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(OS.S)) {
      collect(Lambda->getBody(), Lambda->getCallOperator());
      continue;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(OS.S)) {
      for (const DeviceOp &Op : Finder.opsOf(*Asm))
        Link(Op);
    } else if (const auto *Call = dyn_cast<CallExpr>(OS.S)) {
      if (std::optional<DeviceOp> Op = Finder.opOf(*Call))
        Link(*Op);
    }
  }
}

void OwnKernelMaps::build() {
  Built = true;
  DeviceDefinitions Defs;
  Defs.TraverseAST(Ctx);
  const CallContext *Saved = Folder.currentContext();
  for (const FunctionDecl *Fn : Defs.Fns)
    collect(Fn->getBody(), Fn);
  Folder.enterContext(Saved);
}

bool OwnKernelMaps::readByOwnKernel(const CallExpr *Encode,
                                    const CallContext *Context) {
  if (!Built)
    build();
  return llvm::any_of(Links, [&](const LinkedMap &L) {
    return L.Encode == Encode && sameChain(L.Context, Context);
  });
}

} // namespace clang::tidy::tma
