//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Which maps of a translation unit its own kernels read: the encode calls
// (each in the context of its function it runs in) that a launch of this
// translation unit passes to a kernel this translation unit compiles, as the
// tensor copies of its device code prove them (MapLinker::mapOf from each
// copy's map operand). A map no such link reaches may be read by kernels of
// another translation unit, built for other GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_OWNKERNELMAPS_H
#define TMA_TIDY_API_OWNKERNELMAPS_H

#include "api/DeviceOpsFinder.h"
#include "api/MapLink.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace clang::tidy::tma {

class OwnKernelMaps {
public:
  OwnKernelMaps(ASTContext &Ctx, ConstantFolder &Folder,
                DeviceOpsFinder &Finder, MapLinker &Linker)
      : Ctx(Ctx), Folder(Folder), Finder(Finder), Linker(Linker) {}

  /// Whether the map that \p Encode writes when its function runs in
  /// \p Context (a context of the folder's contextsOf) is read by a kernel
  /// of this translation unit launched by it. Links are computed once, on
  /// the first question; the folder's current context is left as it was.
  bool readByOwnKernel(const CallExpr *Encode, const CallContext *Context);

private:
  void build();
  void collect(const Stmt *Body, const FunctionDecl *Owner);

  ASTContext &Ctx;
  ConstantFolder &Folder;
  DeviceOpsFinder &Finder;
  MapLinker &Linker;
  bool Built = false;
  /// The linked encode calls with the call chain they run in.
  std::vector<LinkedMap> Links;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_OWNKERNELMAPS_H
