//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// CuTe's algorithms on tensors: `copy(tma.with(bar), src, dst)` with a TMA
// load atom, and `gemm(mma, A, B, C)`. What they name: the barrier the copy
// completes on, and the addresses a tensor view is built from (through the
// locals, partitions and slices that make it), for the kernel model.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_CUTETENSORS_H
#define TMA_TIDY_API_CUTETENSORS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma::cute {

/// Whether \p C is `with(...)` of a CuTe TMA load atom or its traits
/// (`Copy_Atom<Copy_Traits<SM90_TMA_LOAD, ...>>`, a TiledCopy of one): the
/// executable copy that completes on the barrier it is given.
bool isTmaLoadWith(const CXXMemberCallExpr &C);

/// Whether \p C is `with(...)` of a CuTe TMA load atom whose operation is
/// exactly SM90_TMA_LOAD: a tile load into this CTA alone (no multicast,
/// no im2col, no pair of CTAs).
bool isPlainTmaLoadWith(const CXXMemberCallExpr &C);

/// The elements of a CuTe tensor whose layout's shape is static (every
/// extent a `cute::C<N>`), and its element type when that type has a byte
/// size of its own (no sub-byte type).
struct StaticTensorSize {
  uint64_t Elements = 0;
  QualType Element;
  uint64_t ElementBytes = 0;
  uint64_t bytes() const { return Elements * ElementBytes; }
};
std::optional<StaticTensorSize> staticTensorSize(QualType T,
                                                 const ASTContext &Ctx);

/// `cute::copy(tma.with(bar, ...), src, dst)` with a TMA load atom: its
/// barrier (`bar`) and destination tensor (`dst`).
struct TmaLoadCopy {
  const CXXMemberCallExpr *With = nullptr;
  const Expr *Barrier = nullptr;
  const Expr *Dst = nullptr;
};
std::optional<TmaLoadCopy> tmaLoadCopy(const CallExpr &C);

/// The tensors `cute::gemm(mma, A, B, C)` reads from memory (A and B; C is
/// the accumulator), none for another call.
llvm::SmallVector<const Expr *, 2> gemmOperands(const CallExpr &C);

/// The addresses the tensor view \p E may be built from: the pointers (and
/// the objects of `x.begin()` / `x.data()`) met walking back through the
/// locals that hold it, structured bindings, slices `t(_, i)` and the CuTe
/// functions that make, partition and regroup views. The caller keeps those
/// it can name; one named buffer is the tensor's.
void tensorSources(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out);

} // namespace clang::tidy::tma::cute

#endif
