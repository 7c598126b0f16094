//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Recognises device ops: the instructions of inline `asm` statements (parsed
// by api/PtxParser, each operand bound to its C++ expression) and calls of
// the library wrappers of tma-rules.md section 8 (cuda::ptx, the cde
// wrappers of cuda::device::experimental, cuda::device::barrier_*_tx).
// Both produce the model of api/DeviceOps.h.
//
// The wrappers are themselves written with inline asm: a check that looks at
// both a wrapper call and asm statements should skip the asm inside the
// wrapper (a system header) so that one operation is not seen twice.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPSFINDER_H
#define TMA_TIDY_API_DEVICEOPSFINDER_H

#include "api/DeviceOps.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::tma {

/// Finds the device ops of asm statements and library calls of one
/// translation unit. Mutation analyses of function bodies are memoised, so
/// one finder should serve a whole TU.
class DeviceOpsFinder {
public:
  explicit DeviceOpsFinder(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The ops of the recognised instructions of \p S, in text order; empty
  /// when the text holds none (or is not a plain string literal).
  std::vector<DeviceOp> opsOf(const GCCAsmStmt &S);

  /// The op of \p Call when it calls a recognised library wrapper.
  std::optional<DeviceOp> opOf(const CallExpr &Call);

  /// \p E without the conversions that only turn a pointer into a PTX
  /// address: parentheses, implicit and explicit integer or pointer casts,
  /// __cvta_generic_to_{shared,global}, calls of one-line helpers that return
  /// such a conversion of a parameter, and locals that are never modified
  /// after such an initialisation.
  const Expr *lookThrough(const Expr *E);

private:
  const Expr *lookThrough(const Expr *E, unsigned Depth);
  const Expr *helperArgument(const CallExpr *Call, unsigned Depth);
  bool isNeverModified(const VarDecl *VD);

  ASTContext &Ctx;
  llvm::DenseMap<const Stmt *, std::unique_ptr<ExprMutationAnalyzer>> Analyzers;
  llvm::DenseMap<const VarDecl *, bool> NeverModified;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_DEVICEOPSFINDER_H
