//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of a device op's own value operands for the rule model
// (rules/DeviceOpSite.h), folded under the folder's current context, and
// for each fact the operand it came from and its fold (where the value came
// from), for notes.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPFACTS_H
#define TMA_TIDY_API_DEVICEOPFACTS_H

#include "api/DeviceOps.h"
#include "api/LaunchCluster.h"
#include "folding/ConstantFolder.h"
#include "rules/DeviceOpSite.h"

#include <optional>
#include <vector>

namespace clang::tidy::tma {

struct DeviceOpSite {
  ::tma::rules::DeviceOpFacts Facts;
  /// Where a value fact came from: the op's operand and its fold (none for
  /// an immediate or a value that does not fold).
  struct Origin {
    ::tma::rules::OpOperand Operand;
    std::size_t Index;
    const OpValue *V;
    std::optional<FoldedInt> Folded;
  };
  std::vector<Origin> Origins;
  /// The kernel's cluster, when a multicast mask is judged.
  std::optional<ClusterSize> Cluster;
  /// The origin of fact (\p O, \p Index); null for the facts folded as a
  /// whole (a coordinate array, im2col offsets).
  const Origin *originOf(::tma::rules::OpOperand O, std::size_t Index) const;
};

/// The value operands of \p Op of \p Fn folded under \p Folder's current
/// context \p Context (the kernel's cluster in that context's launch).
DeviceOpSite deviceOpSite(const DeviceOp &Op, const FunctionDecl *Fn,
                          const CallContext *Context, ConstantFolder &Folder);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_DEVICEOPFACTS_H
