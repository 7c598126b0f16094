//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The use walks the wait-parity proofs share (WaitParity.h): the ring
// recognisers (WaitParityRings.cpp) and the loop questions
// (WaitParity.cpp) ask the same things of a local: is it one, is this
// reference only a read, which references name it, is this `v + 1` or a
// flip of `v`. Internal to those two files.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_WAITPARITYWALKS_H
#define TMA_TIDY_API_WAITPARITYWALKS_H

#include "api/LoopParts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include <cstdint>
#include <functional>
#include <optional>

namespace clang::tidy::tma::waitparity {

using FoldFn = std::function<std::optional<std::int64_t>(const Expr *)>;

/// The variable \p E names (through parentheses and casts), else null.
const VarDecl *varOf(const Expr *E);

/// A local integer of a function body: not static, not a parameter.
bool isLocalInt(const VarDecl *VD);

/// Whether the reference \p C, whose parent is \p P, only reads the
/// local: an rvalue, or an argument bound to a reference to const.
bool readsOnly(const ParentMap &PM, const Stmt *P, const Stmt *C);

/// `V + 1` (either order).
bool isPlusOne(const Expr *E, const VarDecl *V, const FoldFn &Fold);

/// `V ^ 1`, `1 ^ V`, `!V`, `1 - V`.
bool isFlipOf(const Expr *E, const VarDecl *V, const FoldFn &Fold);

/// `X & 1` or `X % 2`: X, else null.
const Expr *lowBit(const Expr *E, const FoldFn &Fold);

/// Calls \p F on every reference to \p VD (every variable: null) in \p S.
template <typename Fn>
void forEachRef(const Stmt *S, const VarDecl *VD, Fn &&F) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    if (!VD || D->getDecl() == VD)
      F(D);
  for (const Stmt *C : S->children())
    forEachRef(C, VD, F);
}

} // namespace clang::tidy::tma::waitparity

#endif // TMA_TIDY_API_WAITPARITYWALKS_H
