//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Values that depend on the executing CTA's rank in its cluster, evaluated
// for one rank at a time: the expect-tx accounting of a cluster (a multicast
// completes its bytes on the barrier of every CTA of its mask) asks, CTA by
// CTA, which ops run, how many bytes each expects and which CTAs a mask
// names. A rank is read from `%cluster_ctarank` (an asm helper returning
// it), `cooperative_groups::cluster_group::block_rank()`,
// `cute::block_rank_in_cluster()` or `cuda::ptx::get_sreg_cluster_ctarank()`,
// directly or through never-written locals. Everything else folds through
// the ConstantFolder in its current context; anything unknown is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_CLUSTERRANK_H
#define TMA_TIDY_API_CLUSTERRANK_H

#include "folding/ConstantFolder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

/// Whether \p Call produces the executing CTA's rank in its cluster: a
/// call without arguments of `cute::block_rank_in_cluster`,
/// `cuda::ptx::get_sreg_cluster_ctarank`, `cooperative_groups`'
/// `block_rank()`, or of a helper whose asm reads `%cluster_ctarank` into
/// the one variable it returns. The same value in every thread of a CTA.
bool readsClusterRank(const CallExpr *Call);

/// A local that only single-`mov` asm statements of the compound statement
/// declaring it write (`uint32_t r; asm("mov.u32 %0, %%cluster_ctarank;"
/// : "=r"(r));`), read everywhere else by value: the compound and each
/// writer with its index there.
struct AsmWrittenLocal {
  const CompoundStmt *Scope = nullptr;
  llvm::SmallVector<std::pair<unsigned, const GCCAsmStmt *>, 2> Writers;
};

/// \p VD as such a local of the body \p PM maps; std::nullopt otherwise.
std::optional<AsmWrittenLocal> asmWrittenLocal(const VarDecl &VD,
                                               const ParentMap &PM);

/// The special register (`cluster_ctarank`, `clusterid.x`) that the
/// single `mov` of \p A reads into its one output; empty otherwise.
StringRef movedSpecialRegister(const GCCAsmStmt &A);

/// The writer of \p L whose value \p D reads: the last one before the
/// statement of L's compound that holds D; null when none.
const GCCAsmStmt *reachingAsmWrite(const AsmWrittenLocal &L,
                                   const DeclRefExpr &D, const ParentMap &PM);

class ClusterRank {
public:
  explicit ClusterRank(ConstantFolder &Folder) : Folder(Folder) {}

  /// Whether \p E reads the CTA's rank in its cluster (directly, or through
  /// a never-written local initialised from it).
  bool dependsOnRank(const Expr *E, unsigned Depth = 0);

  /// The value of \p E in the CTA of rank \p Rank; std::nullopt when it
  /// does not fold.
  std::optional<std::int64_t> valueIn(const Expr *E, std::uint64_t Rank,
                                      unsigned Depth = 0);

private:
  /// The initialiser of a never-written local \p E names, else null.
  const Expr *localInit(const Expr *E);
  /// Whether \p E produces the rank: a rank call, or a local whose
  /// reaching asm write reads `%cluster_ctarank`.
  bool isRankSource(const Expr *E);
  /// A local folded through one counted loop that accumulates into it
  /// (`m = 0; for (i = 0; i < N; ++i) m |= 1 << i;`), read after the loop.
  struct Accumulation {
    const VarDecl *Counter;
    const Expr *Init, *Start, *Bound, *Step;
    BinaryOperatorKind Cmp, Op;
    /// The loop, and the block that holds it and the local's declaration.
    const ForStmt *Loop;
    const CompoundStmt *Scope;
  };
  /// The accumulation \p D reads: \p D lies after the loop in its block.
  std::optional<Accumulation> accumulationOf(const DeclRefExpr &D);
  /// The loop that accumulates into \p VD, wherever it is read.
  std::optional<Accumulation> accumulationInto(const VarDecl &VD,
                                               const Stmt *Body,
                                               const ParentMap &PM);
  std::optional<std::int64_t> accumulated(const Accumulation &A,
                                          std::uint64_t Rank, unsigned Depth);
  bool refersToBound(const Expr *E);

  ConstantFolder &Folder;
  /// Loop counters bound while an accumulation is evaluated.
  llvm::DenseMap<const VarDecl *, std::int64_t> Bound;
  llvm::DenseMap<const VarDecl *, std::optional<AsmWrittenLocal>> AsmLocals;
  /// accumulationInto, once per local (each walks the function's body).
  llvm::DenseMap<const VarDecl *, std::optional<Accumulation>> Accumulations;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_CLUSTERRANK_H
