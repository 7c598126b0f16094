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
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

/// Whether \p Call produces the executing CTA's rank in its cluster: a
/// call without arguments of `cute::block_rank_in_cluster`,
/// `cuda::ptx::get_sreg_cluster_ctarank`, `cooperative_groups`'
/// `block_rank()`, or of a helper whose asm reads `%cluster_ctarank` into
/// the one variable it returns. The same value in every thread of a CTA.
bool readsClusterRank(const CallExpr *Call);

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

  ConstantFolder &Folder;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_CLUSTERRANK_H
