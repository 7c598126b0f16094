//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Reading a wait's parity operand as an expression (issue 24 item 1,
// MBAR-WAIT-PARITY): the spellings real kernels use for a counter's lap
// (`(k / S) & 1`, `(k / S + 1) & 1`, `((k + S) / S) % 2`, `(k + 1) % 2`) and
// parities that are a function of the barrier's member alone (`s & 1`,
// `(s / 2) & 1` with the member `s`). Syntax only: whether the variables
// form a ring is api/WaitParity's question.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_PARITYEXPR_H
#define TMA_TIDY_API_PARITYEXPR_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma::parity {

/// Folds an expression to an integer where it can.
using FoldFn = llvm::function_ref<std::optional<std::int64_t>(const Expr *)>;
/// A never-written local's initialiser for a reference to it, else the
/// expression itself (parentheses and casts off).
using ResolveFn = llvm::function_ref<const Expr *(const Expr *)>;

/// The lap count \p X, the operand of `X & 1` or `X % 2`, read as `(k + c)
/// / T + d` (T = 1: `k + d`) with c a non-negative multiple of T and d >= 0:
/// for every k >= 0 its low bit is ((k / T) & 1) ^ Flip, Flip = (c / T + d)
/// & 1.
struct Lap {
  /// k, a reference to a variable (parentheses and casts off), no
  /// constant.
  const Expr *Count = nullptr;
  std::uint64_t Period = 1;
  /// Whether X divides (`k / 1` is divided, T = 1).
  bool Divided = false;
  unsigned Flip = 0;
};
std::optional<Lap> lapOf(const Expr *X, FoldFn Fold);

/// Whether \p A and \p B compute the same value wherever both are
/// evaluated at once: the same variables, constants of equal value, and the
/// same side-effect-free operators over them.
bool sameValue(const Expr *A, const Expr *B, FoldFn Fold);

/// Whether \p Parity is a function of the member index \p Index alone:
/// every variable it reads (through never-written locals, \p Resolve) is
/// read inside a subexpression of the same value as \p Index, and it calls
/// nothing and writes nothing. \p Index: resolved already.
bool memberOnly(const Expr *Parity, const Expr *Index, ResolveFn Resolve,
                FoldFn Fold);

} // namespace clang::tidy::tma::parity

#endif // TMA_TIDY_API_PARITYEXPR_H
