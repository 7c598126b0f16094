//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Whether a kernel may arrive on an mbarrier through something the kernel
// model has no event for (MBAR-WAIT-PARITY's first-lap hang, which needs
// every arrival on a barrier): `tcgen05.commit` and `cp.async.mbarrier.
// arrive` in inline PTX (the model reads neither, so a helper holding only
// them shows nothing), the cuda::ptx functions and builtins of the same
// name, and a call whose callee is not known. The kernel and what it calls
// (bodies followed, each function once per translation unit) are scanned.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_UNSEENARRIVES_H
#define TMA_TIDY_API_UNSEENARRIVES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::tma {

class UnseenArrives {
public:
  explicit UnseenArrives(ASTContext &Ctx) : Ctx(Ctx) {}
  /// Whether \p FD (with what it calls) may arrive unseen. Memoised.
  bool of(const FunctionDecl *FD) { return scan(FD, 0); }

private:
  bool scan(const FunctionDecl *FD, unsigned Depth);
  bool scanStmt(const Stmt *S, unsigned Depth);
  bool callee(const FunctionDecl *FD, unsigned Depth);

  ASTContext &Ctx;
  /// Per function definition: its verdict; false while it is scanned (a
  /// recursion adds nothing the first visit does not see).
  llvm::DenseMap<const FunctionDecl *, bool> Memo;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_UNSEENARRIVES_H
