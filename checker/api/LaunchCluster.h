//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The cluster a kernel runs in, for BULK-MULTICAST's masks (tma-rules.md
// section 2): the kernel's own `__cluster_dims__`, or what the launch that
// a call context names sets: `cudaFuncSetAttribute(k,
// cudaFuncAttributeRequiredCluster{Width,Height,Depth}, n)` in the launching
// function, or the `cudaLaunchAttributeClusterDimension` attribute of a
// `cudaLaunchKernelEx` configuration written field by field. Only constant,
// singly written values count; anything else (a preferred cluster
// dimension, an attribute array written through an index or a pointer) is
// unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_LAUNCHCLUSTER_H
#define TMA_TIDY_API_LAUNCHCLUSTER_H

#include "folding/ConstantFolder.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::tma {

/// A proven cluster size and where it was set.
struct ClusterSize {
  /// CTAs per cluster: x * y * z.
  std::uint64_t Ctas = 1;
  /// The attribute, the cudaFuncSetAttribute call or the attribute's
  /// .id assignment.
  SourceLocation From;
  /// How, for a note: "__cluster_dims__(2, 1, 1) of 'k'".
  std::string How;
};

/// The cluster that \p Fn (a kernel, or a device function \p Context reaches
/// from one) runs in, or std::nullopt when it is not proven. \p Folder folds
/// the values, in the context of the launching function.
std::optional<ClusterSize> clusterOf(const FunctionDecl *Fn,
                                     const CallContext *Context,
                                     ConstantFolder &Folder);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_LAUNCHCLUSTER_H
