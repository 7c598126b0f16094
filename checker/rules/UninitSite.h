//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// MBAR-UNINIT, the events' part: what a kernel's events (api/KernelModel)
// show of a group of barriers (its uses, inits, buffer events), an init of
// a barrier the model cannot name, and which barriers of the dynamic
// shared-memory pool, named by byte offset, no init covers. Whether every
// reference to a barrier is known is the check's to tell
// (checks/OrderingUninit reads the AST); the verdict is uninitialised()
// of rules/OrderingRules.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_UNINITSITE_H
#define TMA_TIDY_RULES_UNINITSITE_H

#include "rules/OrderingRules.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tma::rules::ordering {

/// Where a barrier of an `extern __shared__` byte pool lies (MBAR-UNINIT
/// tells the pool's barriers apart by it): its offset in bytes, the bytes
/// per member of its family (0: one barrier), and for the family of an
/// init loop the members it initialises (0: unknown, any number).
struct PoolSlot {
  std::int64_t Offset = 0;
  std::int64_t Stride = 0;
  std::uint64_t InitMembers = 0;
  bool InitsKnown = true;
};

/// Whether an init of the pool's barriers at \p Init may initialise a
/// barrier at \p Use: the same offset, a member of the init loop's family,
/// or (a family used) some member of it. Unknown extents count as
/// reaching.
bool mayCover(const PoolSlot &Init, const PoolSlot &Use);

/// The pool's barriers of one kernel, once every init of them is known
/// (the check stays silent otherwise: a call the model does not follow,
/// another name of the pool, an init at an offset that does not fold).
struct PoolBarrierFacts {
  /// Every init of the pool's barriers.
  std::vector<PoolSlot> Inits;
  struct Use {
    std::size_t Event = 0;
    PoolSlot Slot;
  };
  /// The first use of each barrier the model names apart.
  std::vector<Use> Uses;
};

/// The uses of \p F (their events, in order) that no init may cover.
std::vector<std::size_t> uninitialisedPoolBarriers(const PoolBarrierFacts &F);

/// What the events show of a group of barriers (the objects of one
/// variable, or of one field of a struct laid over the pool).
struct BarrierGroupEvents {
  /// The group's first use (a BarrierUse or BarrierWait).
  std::optional<std::size_t> First;
  unsigned Uses = 0, Inits = 0;
  /// Some event treats the group as a buffer (a byte array carved into
  /// barriers and tiles): its barriers are not told apart.
  bool Buffer = false;
};

/// The events on the objects \p InGroup marks (by object id; ids past its
/// end are not in the group).
BarrierGroupEvents barrierGroupEvents(const std::vector<Event> &Seq,
                                      const std::vector<bool> &InGroup);

/// Whether the group may be reported, before its references are read: a
/// group of barriers only, used, and initialised nowhere in the events.
bool mayBeUninitialised(const BarrierGroupEvents &G);

/// An init whose barrier the model cannot name: it may be any barrier's,
/// so MBAR-UNINIT stays silent on the kernel.
std::optional<std::size_t> unnamedInit(const std::vector<Event> &Seq);

} // namespace tma::rules::ordering

#endif // TMA_TIDY_RULES_UNINITSITE_H
