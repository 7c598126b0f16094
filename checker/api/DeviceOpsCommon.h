//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// What the device-op finder's parts (DeviceOpsFinder.cpp and the
// recognisers per API surface, DeviceOpsAsm/Library/Cutlass.cpp) share.
// Internal to the finder.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPSCOMMON_H
#define TMA_TIDY_API_DEVICEOPSCOMMON_H

#include "api/DeviceOps.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::tma {

/// How many conversions, helper calls and locals lookThrough follows.
constexpr unsigned MaxLookThrough = 16;

/// An op of kind \p Op issued at \p Site.
template <typename Op> Op at(const OpSite &Site) {
  Op Result;
  static_cast<OpSite &>(Result) = Site;
  return Result;
}

/// True when \p D is declared in the namespace \p Path (outermost first),
/// inline (ABI-versioning) namespaces aside.
inline bool isInNamespace(const Decl *D, llvm::ArrayRef<llvm::StringRef> Path) {
  const DeclContext *DC = D->getDeclContext();
  for (llvm::StringRef Name : llvm::reverse(Path)) {
    while (DC && (DC->isInlineNamespace() || isa<LinkageSpecDecl>(DC)))
      DC = DC->getParent();
    const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
    if (!NS || NS->getName() != Name)
      return false;
    DC = NS->getParent();
  }
  while (DC && (DC->isInlineNamespace() || isa<LinkageSpecDecl>(DC)))
    DC = DC->getParent();
  return DC && DC->isTranslationUnit();
}

/// \p S and the statements below it, in pre-order.
template <typename Fn> void forEachStmt(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, F);
}

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_DEVICEOPSCOMMON_H
