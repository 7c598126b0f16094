//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// What the parts of ConstantFolder share (ConstantFolder.cpp: bodies and
// integers; FoldArrays.cpp: arrays; CallContexts.cpp: contexts): the
// budgets, and the conversions and origins every part applies. Private to
// folding/.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_FOLDING_FOLDCOMMON_H
#define TMA_TIDY_FOLDING_FOLDCOMMON_H

#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <initializer_list>
#include <optional>

namespace clang::tidy::tma::foldcommon {

/// Bounds the recursion through variables, operators and arrays.
inline constexpr unsigned MaxDepth = 24;
/// Pointer offsets beyond this are not followed (the arrays we fold hold at
/// most five meaningful elements).
inline constexpr uint64_t MaxOffset = 64;
/// Folding steps allowed per context of one call site: a budget, so that
/// pathological code costs a bounded time and is left unknown.
inline constexpr unsigned MaxSteps = 100000;

inline bool isUsable(const Expr *E) {
  return E && !E->isValueDependent() && !E->isTypeDependent() &&
         !E->containsErrors();
}

/// \p V converted to the integer or enumeration type \p T, as C++ does.
inline std::optional<llvm::APSInt> convertTo(const llvm::APSInt &V, QualType T,
                                             const ASTContext &Ctx) {
  if (T.isNull() || !T->isIntegralOrEnumerationType())
    return std::nullopt;
  if (T->isBooleanType())
    return llvm::APSInt(llvm::APInt(Ctx.getIntWidth(T), V != 0),
                        /*isUnsigned=*/true);
  llvm::APSInt R = V.extOrTrunc(Ctx.getIntWidth(T));
  R.setIsUnsigned(T->isUnsignedIntegerOrEnumerationType());
  return R;
}

inline Origin originOf(const Expr *E) {
  Origin O{E->getSourceRange(), nullptr, E, {}};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const Expr *Init = VD->getAnyInitializer())
        O = Origin{Init->getSourceRange(), VD, Init, {}};
  return O;
}

/// The origin of a value computed by \p E from \p Operands: E itself, and
/// every parameter the operands were read through.
inline Origin
computedOrigin(const Expr *E,
               std::initializer_list<const FoldedInt *> Operands) {
  Origin O{E->getSourceRange(), nullptr, E, {}};
  for (const FoldedInt *Op : Operands)
    O.Through.append(Op->From.Through.begin(), Op->From.Through.end());
  return O;
}

} // namespace clang::tidy::tma::foldcommon

#endif // TMA_TIDY_FOLDING_FOLDCOMMON_H
