//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The values an integer expression of a kernel may take, as a closed
// interval: constants, thread indices, counted `for` counters around the
// statement, never-written locals (through the caller's substitution) and
// the bounds the `if`s around the statement put on them. StageSlices asks
// whether an offset stays inside one stage of a ring (issue 24 items 3/4).
// Anything it cannot bound is std::nullopt: the caller stays silent.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_INTRANGES_H
#define TMA_TIDY_API_INTRANGES_H

#include "api/KernelEvents.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace clang::tidy::tma {

/// [first, second], both included.
using IntRange = std::pair<std::int64_t, std::int64_t>;
/// Magnitudes beyond this are not followed (no overflow in the sums).
constexpr std::int64_t RangeCap = std::int64_t(1) << 40;

/// The value of the integer expression \p E, signed, when it folds.
std::optional<std::int64_t> foldSigned(const Expr *E, const ASTContext &Ctx);

/// Bounds on never-written locals, by the conditions around a statement.
using RangeGuards = llvm::DenseMap<const VarDecl *, IntRange>;

/// The bounds that the conditions of the `if`s whose then-branch holds
/// \p At put on the locals \p Fixed accepts (`warp >= 4 && warp <= 7`):
/// conjunctions of comparisons with constants.
RangeGuards guardsOf(const Stmt *At, const ParentMap &PM, const ASTContext &Ctx,
                     llvm::function_ref<bool(const VarDecl *)> Fixed);

/// The values \p E may take: \p Subst gives what never-written locals and
/// helper parameters stand for, \p Fors are the `for` loops around the
/// statement whose counter only their increment steps, \p G the bounds of
/// guardsOf.
std::optional<IntRange> rangeOf(const Expr *E, const ASTContext &Ctx,
                                events::Substitution Subst,
                                llvm::ArrayRef<const ForStmt *> Fors,
                                const RangeGuards &G);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_INTRANGES_H
