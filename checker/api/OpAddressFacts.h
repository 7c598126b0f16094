//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of a device op's address operands for the rule model
// (rules/AddressSite.h), under the folder's current context: the
// shared-memory address and the mbarrier resolved to their `__shared__`
// buffers (api/SharedBuffers), the variable an mbarrier operand names when
// it is not in shared memory, and the proven alignment of the global
// address (folding's pointerAlign); for each the trace, for notes.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_OPADDRESSFACTS_H
#define TMA_TIDY_API_OPADDRESSFACTS_H

#include "api/DeviceOps.h"
#include "api/SharedBuffers.h"
#include "folding/ConstantFolder.h"
#include "rules/AddressSite.h"

#include <optional>

namespace clang::tidy::tma {

struct OpAddressSite {
  ::tma::rules::OpAddressFacts Facts;
  /// The operands with an expression (null: absent, or an immediate).
  const OpValue *Smem = nullptr;
  const OpValue *Barrier = nullptr;
  const OpValue *Global = nullptr;
  /// What they resolved to (Facts.Smem, Facts.Barrier, Facts.GlobalAlign).
  std::optional<SharedBuffer> SmemBuffer, BarrierBuffer;
  std::optional<PointerAlign> GlobalPointer;
  /// The barrier operand as its caller wrote it (a helper's parameter is
  /// the caller's argument) and the variable outside shared memory it
  /// names (Facts.Space).
  const Expr *BarrierArg = nullptr;
  const VarDecl *BarrierObject = nullptr;
};

/// The address operands of \p Op (issued through \p Api) under \p Folder's
/// current context \p Context; \p Swizzle: a tensor copy's linked map's.
OpAddressSite opAddressSite(const DeviceOp &Op, OpApi Api,
                            const CallContext *Context,
                            ConstantFolder &Folder, SharedBuffers &Buffers,
                            ::tma::rules::Known Swizzle);

/// The shared::cta operand of a bulk or tensor copy: the destination of
/// loads, the source of stores and reductions; null for others.
const OpValue *smemOperand(const DeviceOp &Op);

/// The mbarrier operand of \p Op, when it has one.
const OpValue *barrierOperand(const DeviceOp &Op);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_OPADDRESSFACTS_H
