//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// MBAR-UNINIT: what a kernel's events (api/KernelModel) show of a group of
// barriers (its uses, inits, buffer events), an init of a barrier the model
// cannot name, and which barriers of the dynamic shared-memory pool, named
// by byte offset, no init covers; and the rule's entry point, checkUninit,
// which judges a kernel's UninitFacts (built by api/UninitFacts, which reads
// the AST: whether every reference to a barrier is known, the struct laid
// over the pool, whether code elsewhere names the pool) as a whole. The
// verdict on a group is uninitialised() of rules/OrderingRules.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_UNINITSITE_H
#define TMA_TIDY_RULES_UNINITSITE_H

#include "rules/OrderingRules.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules::ordering {

// PoolSlot (rules/OrderingRules.h): where a barrier of a pool or array lies.

/// Whether an init of the pool's barriers at \p Init may initialise a
/// barrier at \p Use: the same offset, a member of the init loop's family,
/// or (a family used) some member of it, up to its Members where bounded.
/// Unknown extents count as reaching.
bool mayCover(const PoolSlot &Init, const PoolSlot &Use);

/// Whether an init at \p Init surely initialises the barrier that a use at
/// \p Use names the first time it runs: the use's fixed element, or the
/// member \p FirstMember of its family (-1: unknown), is the init's own
/// element or a member of an init loop known to reach every one of its
/// members (MBAR-INIT-VISIBLE matches the parts of one array by it).
bool surelyCovers(const PoolSlot &Init, const PoolSlot &Use,
                  long long FirstMember);

/// The pool's barriers of one kernel, once every init of them is known
/// (the check stays silent otherwise: a call the model does not follow,
/// another name of the pool, an init at an offset that does not fold).
struct PoolBarrierFacts {
  /// Every init of the pool's barriers.
  std::vector<PoolSlot> Inits;
  struct Use {
    std::size_t Event = 0;
    PoolSlot Slot;
    /// The barrier's name in messages.
    std::string Name = {};
  };
  /// The first use of each barrier the model names apart.
  std::vector<Use> Uses;
  /// The event of each init, and the name in messages of what it
  /// initialises (parallel to Inits).
  std::vector<std::size_t> InitEvents;
  std::vector<std::string> InitNames;
  /// A use of a family whose run-time index is proven to name one member
  /// the first time the use runs (Event::FirstMember): that member.
  struct MemberUse {
    std::size_t Event = 0;
    /// The member: a fixed offset (Stride 0).
    PoolSlot Member;
    /// The member's name in messages (`smem + 120`), and its family's
    /// (`smem + 120 + 8 * s`).
    std::string Name = {};
    std::string Family = {};
  };
  std::vector<MemberUse> Members;
};

/// The uses of \p F (their events, in order) that no init may cover.
std::vector<std::size_t> uninitialisedPoolBarriers(const PoolBarrierFacts &F);

/// The members of \p F.Members (their indices, in order) that no init may
/// cover: the use reaches an uninitialised barrier on its first run,
/// whatever else the family's other members are. A member the index names
/// only on a later run (a ring's `s = 1` on the second pass of a loop of
/// unknown passes) is never one: the use may not run that often.
std::vector<std::size_t> uninitialisedPoolMembers(const PoolBarrierFacts &F);

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

/// MBAR-UNINIT's facts of the barriers of a kernel's own dynamic
/// shared-memory pool named by their byte offsets (PoolSlot), read in
/// order, each only when those before it let the rule go on; or of a
/// `__shared__` array of the kernel with inits, its barriers named by
/// their elements (the array seen as one dimension).
struct PoolSlotFacts {
  /// The pool's first use (none: nothing to judge).
  std::optional<std::size_t> First;
  /// Code the kernel may run elsewhere names the pool: what (an init there
  /// may be any barrier's). None: the pool is the kernel's own.
  std::optional<std::string> SharedWith;
  /// The first event that may hide an init of the pool's barriers.
  enum class Hider {
    None,
    /// A call or instruction the model does not follow, at HiderLine.
    Opaque,
    /// Another extern __shared__ variable (the same pool).
    OtherName,
    /// An init at an offset that does not fold.
    UnknownOffset,
    /// A reference to the array (no pool) that no event accounts for.
    UnknownReference,
  };
  Hider Hidden = Hider::None;
  unsigned HiderLine = 0;
  /// Every init and the first use of each barrier (with no Hider).
  PoolBarrierFacts Slots;
};

/// MBAR-UNINIT's facts of one group of barriers: the objects of one
/// variable, or of one field of a struct laid over the kernel's own dynamic
/// shared-memory pool. Each fact is read only when those before it (in the
/// order below) let the rule go on; the others keep their defaults.
struct UninitGroupFacts {
  /// The group's name in messages.
  std::string Name;
  BarrierGroupEvents Events;
  /// The variable is not declared in the kernel (nor the kernel's pool):
  /// code elsewhere may initialise it.
  bool Foreign = false;
  /// The group is the pool itself, its barriers named by offset; or an
  /// array with inits of which some use may reach an element no init
  /// covers, its barriers named by element.
  std::optional<PoolSlotFacts> Slots;
  /// The variable has several members (a shared struct) of which the
  /// barrier is one.
  bool SeveralMembers = false;
  /// A field of a struct laid over the pool: code elsewhere names the pool
  /// (what); none when no code does.
  std::optional<std::string> PoolSharedWith;
  /// A field of a struct laid over the pool used in a way whose effect on
  /// the barrier is not known (why); none when every use is known.
  std::optional<std::string> PoolUnknownUse;
  /// Every reference to the barrier in the kernel is known (a recognised
  /// op's operand, or a helper or local that only passes it to those).
  bool AllKnown = false;
};

/// MBAR-UNINIT's facts of a kernel.
struct UninitFacts {
  /// An init of a barrier the model cannot name (unnamedInit).
  std::optional<std::size_t> UnnamedInit;
  /// With one: the first use of each variable used as a barrier.
  std::vector<std::size_t> FirstUses;
  std::vector<UninitGroupFacts> Groups;
};

/// A barrier used with no init of it anywhere in the kernel.
struct UninitViolation {
  /// The use reported (an event of the kernel).
  std::size_t Event = 0;
  /// The barrier's name.
  std::string Name;
  /// A member of a family of the pool that the use reaches the first time
  /// it runs (PoolBarrierFacts::Members), not the whole family.
  bool FirstRun = false;
};

/// MBAR-UNINIT's entry point: every barrier of \p F used and never
/// initialised, in the order of its groups; with \p Why, why the rule stays
/// silent on the others.
std::vector<UninitViolation> checkUninit(const UninitFacts &F,
                                         Silences *Why = nullptr);

} // namespace tma::rules::ordering

#endif // TMA_TIDY_RULES_UNINITSITE_H
