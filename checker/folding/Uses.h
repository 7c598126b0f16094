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
#include <cstdint>
#include <deque>
#include <optional>

namespace clang::tidy::tma {

/// The argument of a call to std::forward or std::move, which forwarding
/// wrappers put around every operand; null for anything else.
const Expr *forwardedArgument(const Expr *E);

/// The references to \p VD under \p S, in source order.
void refsTo(const Stmt *S, const VarDecl *VD,
            llvm::SmallVectorImpl<const DeclRefExpr *> &Out);

/// The parent of \p S through any parentheses, with \p Child set to the
/// child on the way that the parent holds (\p S or its outermost paren).
const Stmt *parentThroughParens(const ParentMap &PM, const Stmt *S,
                                const Stmt *&Child);

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

/// The questions the folder asks of ancestors() chains (membership, the
/// top-level statement, orderOf), answered from facts memoised per node of
/// one parent map: its depth, its ancestors at power-of-two distances, the
/// nearest block, loop and statement that does not run straight into it.
/// A chain costs the nesting above its node, so D sites in D nested lambdas
/// cost D^2 walk steps; here each question costs O(1) amortised (at most
/// eight jumps). The answers are the chains' own, their 256-statement
/// budget included (tests/unit/AncestryTest.cpp compares them).
class Ancestry {
public:
  explicit Ancestry(const ParentMap &PM) : PM(PM) {}

  /// Whether \p A is in ancestors(PM, S, Body).
  bool inChain(const Stmt *S, const Stmt *A, const Stmt *Body);
  /// The statement before \p Body in ancestors(PM, S, Body) when that chain
  /// ends at Body (the statement of Body that holds S); null otherwise.
  const Stmt *topOf(const Stmt *S, const Stmt *Body);
  /// orderOf(PM, Write, UseSite, Body, &Positions).
  Order orderOf(const Stmt *Write, const Stmt *UseSite, const Stmt *Body,
                BlockPositions &Positions);
  /// The edges from \p S up to its ancestor \p A (A is S: 0), or
  /// std::nullopt when A is not an ancestor of S. From the jumps: no walk.
  std::optional<unsigned> edgesUpTo(const Stmt *S, const Stmt *A);
  /// The ancestor of \p S \p K edges above it; null above the root.
  const Stmt *ancestorOf(const Stmt *S, unsigned K);

private:
  /// ancestors() holds at most this many statements.
  static constexpr unsigned MaxChain = 256;
  /// Jumps of 1, 2, ..., 128 edges reach any ancestor in a chain.
  static constexpr unsigned Levels = 8;
  struct Node {
    const Stmt *S = nullptr;
    Node *Parent = nullptr;
    unsigned Depth = 0; // Edges up to the root of the map.
    Node *Jump[Levels] = {};
    uint8_t KnownJumps = 1; // Bit J: Jump[J] is set (Jump[0] is Parent).
    bool HaveBlock = false, HaveLoop = false, HaveStop = false;
    Node *Block = nullptr; // The nearest CompoundStmt, itself included.
    Node *Loop = nullptr;  // The nearest loop, itself included.
    /// The nearest ancestor that does not run this node's chain straight
    /// through (orderOf's Before needs none up to the common block).
    Node *Stop = nullptr;
  };
  Node *node(const Stmt *S);
  Node *jump(Node *N, unsigned Level);
  /// The ancestor \p K edges above \p N (K < MaxChain); null above the root.
  Node *up(Node *N, unsigned K);
  /// The same for any K.
  Node *upFar(Node *N, unsigned K);
  /// Edges in ancestors(PM, N, Body) (its size minus one).
  unsigned chainEdges(Node *N, const Stmt *Body);
  /// The lowest common ancestor of \p A and \p B when it lies less than
  /// MaxChain edges above both; null otherwise.
  Node *commonAncestor(Node *A, Node *B);
  Node *nearestBlock(Node *N);
  Node *nearestLoop(Node *N);
  Node *nearestStop(Node *N);

  const ParentMap &PM;
  llvm::DenseMap<const Stmt *, Node *> Nodes;
  std::deque<Node> Storage;
};

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
