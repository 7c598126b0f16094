//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Who may complete bytes on a barrier that a helper reaches through a field
// of its parameter (`sram.bar_full[stage]` of `SramT &sram`): the uses of
// the field across the translation unit. When every use outside the
// helper's own instantiations is an init, a wait or a plain arrive, the
// helper's phases are the barrier's whole phases, and tma-expect-tx counts
// them in each caller's context (flashinfer mamba's producer helpers).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_BARRIERFIELDUSES_H
#define TMA_TIDY_API_BARRIERFIELDUSES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::tma {

/// The field whose element is the barrier \p Object designates (array
/// subscripts looked through: `bar_full` of `sram.bar_full[stage]`), when
/// its element type is a `cuda::barrier` or CUTLASS's ClusterBarrier /
/// ClusterTransactionBarrier; null otherwise.
const FieldDecl *barrierField(const Expr *Object);

/// A use of a barrier field that may complete bytes or let its address
/// escape, outside the instantiations of one function.
struct OtherFieldUse {
  const MemberExpr *Use = nullptr;
};

/// The uses of barrier fields in one translation unit, gathered once.
class BarrierFieldUses {
public:
  explicit BarrierFieldUses(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The first use of \p FD outside the instantiations of \p Fn's pattern
  /// (and outside lambdas in them) that is no libcu++ `init(&x, n)`, no
  /// wait and no plain arrive (`x.wait(t)`, `x.arrive()`); std::nullopt
  /// when there is none. Its Use is null under clangd's restricted
  /// traversal scope for a field of a record declared outside the main
  /// file (the headers' bodies may be left out of the preamble).
  std::optional<OtherFieldUse> otherUse(const FieldDecl *FD,
                                        const FunctionDecl *Fn);

private:
  struct Use {
    const MemberExpr *E;
    /// The function whose body holds it; null inside a lambda or outside
    /// any function.
    const FunctionDecl *In;
    /// An init, a wait or a plain arrive.
    bool Harmless;
  };
  void gather();
  ASTContext &Ctx;
  bool Gathered = false, Restricted = false;
  llvm::DenseMap<const FieldDecl *, llvm::SmallVector<Use, 8>> Uses;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_BARRIERFIELDUSES_H
