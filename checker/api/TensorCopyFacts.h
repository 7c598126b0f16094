//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of a tensor copy site for the rule model: the copy's operands
// folded under the folder's current context, the map its launch passes and
// the shared-memory buffer of its box, gathered once into the plain record
// that rules/TensorCopySite.h judges as a whole.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_TENSORCOPYFACTS_H
#define TMA_TIDY_API_TENSORCOPYFACTS_H

#include "api/DeviceOps.h"
#include "api/MapLink.h"
#include "api/SharedBuffers.h"
#include "folding/ConstantFolder.h"
#include "rules/TensorCopySite.h"

#include <optional>
#include <string>

namespace clang::tidy::tma {

/// PTX's spelling of a reduction operator ("add", ...); empty for None.
std::string reduceOpName(::tma::device::ReduceOp Op);

/// The rule model's name of a tensor copy's direction.
::tma::rules::CopyDirection
copyDirectionOf(::tma::device::TensorDirection D);

/// The first coordinate of \p T folded under \p Folder's current context.
::tma::rules::Known firstCoordinate(const TensorCopy &T,
                                    ConstantFolder &Folder);

/// The element size of a static `__shared__` array (or scalar) of a
/// builtin arithmetic type; unknown for extern pools, whose declared type
/// is often only storage, and for class types (vector types, __half).
::tma::rules::Known elementBytesOf(const SharedBuffer &B);

/// A linked tensor copy's facts, and the buffer they read, for notes.
struct LinkedCopySite {
  ::tma::rules::LinkedCopyFacts Facts;
  std::optional<SharedBuffer> Buffer;
};

/// The facts of tensor copy \p T against the map \p Map that its launch
/// passes, under the folder's current context (the copy's call-site
/// context); the buffer resolved by \p Buffers.
LinkedCopySite linkedCopySite(const TensorCopy &T, const KnownMap &Map,
                              ConstantFolder &Folder, SharedBuffers &Buffers);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_TENSORCOPYFACTS_H
