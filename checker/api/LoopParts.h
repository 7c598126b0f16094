//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The parts of a loop statement that the walks over a body ask for, so that
// the switch over the four loop kinds is written once, and where in a block
// (a loop's body) a statement sits.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_LOOPPARTS_H
#define TMA_TIDY_API_LOOPPARTS_H

#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include <optional>

namespace clang::tidy::tma {

/// Whether \p S is a `for`, range `for`, `while` or `do` loop.
inline bool isLoop(const Stmt *S) {
  return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The body of a `for`, range `for`, `while` or `do` loop; null for any
/// other statement.
inline const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    return R->getBody();
  return nullptr;
}

/// The condition of a `for`, `while` or `do` loop (null when a `for` has
/// none); null for any other statement, a range `for` included.
inline const Expr *loopCond(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getCond();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getCond();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getCond();
  return nullptr;
}

/// The index in \p Scope of the statement that holds \p S; none when \p S
/// is not under it.
inline std::optional<unsigned> indexIn(const CompoundStmt *Scope,
                                       const Stmt *S, const ParentMap &PM) {
  const Stmt *Cur = S;
  for (const Stmt *P = PM.getParent(Cur); P; Cur = P, P = PM.getParent(P))
    if (P == Scope) {
      unsigned I = 0;
      for (const Stmt *Child : Scope->body()) {
        if (Child == Cur)
          return I;
        ++I;
      }
      return std::nullopt;
    }
  return std::nullopt;
}

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_LOOPPARTS_H
