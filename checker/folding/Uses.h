//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// How a function body uses a local variable: reads, writes, stores into an
// array, escapes; and the order of two statements in straight-line code. All
// walks go up a per-body clang::ParentMap (the TU-wide parent map costs a
// traversal of the whole TU).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_FOLDING_USES_H
#define TMA_TIDY_FOLDING_USES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::tma {

/// The argument of a call to std::forward or std::move, which forwarding
/// wrappers put around every operand; null for anything else.
const Expr *forwardedArgument(const Expr *E);

/// The parent of \p N within the body that \p PM was built for.
DynTypedNode parentOf(const ParentMap &PM, const DynTypedNode &N);

/// The statements from \p S up to (and including) \p Body.
llvm::SmallVector<const Stmt *, 16> ancestors(const ParentMap &PM,
                                              const Stmt *S, const Stmt *Body);

/// How a write (or escape) of a local relates to a later use of the local.
enum class Order { Before, MaybeBefore, After };

/// The positions of statements in their blocks, computed once per block (a
/// block of N statements would otherwise be scanned once per query).
class BlockPositions {
public:
  /// The position of \p Child among the statements of \p Block.
  unsigned of(const CompoundStmt *Block, const Stmt *Child);

private:
  llvm::DenseMap<const CompoundStmt *, llvm::DenseMap<const Stmt *, unsigned>>
      Positions;
};

/// Whether \p Write runs before \p UseSite on every path that reaches it
/// (straight-line code in a common block), maybe before it (branches, loops,
/// lambdas), or only after it. \p Positions, when given, answers which of
/// two statements of a block comes first.
Order orderOf(const ParentMap &PM, const Stmt *Write, const Stmt *UseSite,
              const Stmt *Body, BlockPositions *Positions = nullptr);

/// True for a pointer-to-const type.
bool isPointerToConst(QualType T);

/// Whether the use \p DRE may write the variable (or, through its address,
/// its elements or fields).
bool mayWrite(const ParentMap &PM, const DeclRefExpr *DRE);
/// The same for the lvalue \p E of a part of an object (`this->field`).
bool mayWriteExpr(const ParentMap &PM, const Expr *E);

/// What one use of a local array does to it.
struct ArrayUse {
  enum KindType { Read, Store, ElementWrite, Escape } Kind;
  const Stmt *Where = nullptr;
  const Expr *Index = nullptr;
  const Expr *Value = nullptr;
};

/// Classifies the use \p DRE of a local array (C array or std::array).
ArrayUse classifyArrayUse(const ParentMap &PM, const DeclRefExpr *DRE);

/// The loop variable of `for (T I = A; I < B; ++I)` (also <=, !=, I++,
/// I += 1), when the body does not write it; null otherwise. \p PM is the
/// parent map of the function body that holds the loop.
const VarDecl *countedLoopVar(const ForStmt *Loop, const ParentMap &PM);

/// Whether the TU-wide parent map of \p Ctx (ParentMapContext: what
/// Ctx.getParents, the hasAncestor and hasParent matchers and
/// ExprMutationAnalyzer build, a traversal of the whole TU) has been built.
/// The module never builds it; tests assert that through
/// checkNoTuParentMap.
bool tuParentMapBuilt(ASTContext &Ctx);

/// With TMA_TIDY_ASSERT_NO_PARENT_MAP=1 in the environment (every lit test),
/// a fatal error when the TU-wide parent map of \p Ctx has been built; with
/// =selftest, builds it first (the guard's own test). Called by the folder
/// at the end of each TU.
void checkNoTuParentMap(ASTContext &Ctx);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_FOLDING_USES_H
