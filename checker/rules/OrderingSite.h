//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One kernel's ordering as a whole: the kernel model api/ builds (its event
// sequence, the flow between the events, the block sizes it may run with)
// and the check's options go in; every violation of the ordering rules of
// rules/OrderingRules comes out, naming its rule id, the events it is about
// and the values its message and fix need. The check composes the message
// text from those fields and reports. A new ordering rule is one function
// in rules/OrderingRules plus its line in checkKernelOrdering.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ORDERINGSITE_H
#define TMA_TIDY_RULES_ORDERINGSITE_H

#include "rules/OrderingFlow.h"
#include "rules/OrderingRules.h"
#include "rules/ThreadSets.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace tma::rules::ordering {

/// The fact record of one kernel: what api/KernelModel builds, and the
/// options of tma-ordering that change what is judged.
struct KernelFacts {
  const std::vector<Event> &Seq;
  const Flow &G;
  threads::BlockSize Block = {};
  /// Also judge copies not waited for before the kernel exits
  /// (tma-ordering.WaitBeforeExit).
  bool WaitBeforeExit = false;
  /// Something the events do not show may arrive on a barrier
  /// (KernelSequence::UnseenArrives): MBAR-WAIT-PARITY's first-lap hang
  /// stays silent.
  bool UnseenArrives = false;
  /// Per object id, where a barrier lies in its pool or array
  /// (KernelSequence::PoolSlots); null: not known.
  const std::vector<std::optional<PoolSlot>> *Slots = nullptr;
};

/// Which rule function found a violation: several share a rule id
/// (BULK-WAITGROUP-SCOPE, ASYNC-WAR-FENCE, TMA-LOAD-WAIT-BEFORE-READ) and
/// each has its own message form.
enum class OrderingForm {
  FenceBeforeStore,   ///< fenceBeforeStore
  WaitBeforeExit,     ///< waitBeforeExit
  WaitBeforeReuse,    ///< waitBeforeReuse
  InitVisible,        ///< initVisible
  ReinitInLoop,       ///< reinitInLoop
  WaitParity,         ///< waitParity
  LoadWaitBeforeRead, ///< loadWaitBeforeRead
  LoadWaitAcrossRoles,///< loadWaitAcrossRoles
  AsyncWarFence,      ///< asyncWarFence
  AsyncWarHandOff,    ///< asyncWarHandOff
  ReuseBeforeRelease, ///< reuseBeforeRelease
  ExpectAfterArrive,  ///< expectAfterArrive
  WaitByOtherThreads, ///< waitByOtherThreads
  AcquireAfterCopy,   ///< acquireAfterCopy
  MapRewriteInFlight, ///< mapRewriteInFlight
};

/// Why a bulk group may still be pending where its source or map is
/// rewritten (WaitBeforeReuse, MapRewriteInFlight).
enum class WaitShortfall {
  None,         ///< not a bulk-group rule
  NoBarrierWait,///< a TMA load: no mbarrier wait in between completes it
  NoWait,       ///< no wait_group.read in between covers its group
  NotCommitted, ///< the group is not committed before the Wait
  TooShallow,   ///< Wait's depth lets the group stay pending
};

/// MBAR-WAIT-PARITY: which of its five cases (rules/OrderingRules.h).
enum class ParityMistake {
  None,
  Repeated,        ///< the same parity every pass or lap of a ring
  BeforeFirstCopy, ///< parity 1 on the first lap of a barrier copies complete
  AfterRelease,    ///< parity 1 on the first lap after a releasing round
  FirstLapHang,    ///< parity 0 on the first lap of a barrier whose first
                   ///< phase waits for this side (a deadlock)
  Period,          ///< a parity that flips at another count than the one
                   ///< at which the ring comes back to the member
};

/// The fix a violation's spelling is certain for, as far as the events
/// decide it; the check still needs the source to agree.
enum class OrderingFix {
  None,
  Fence,     ///< fence.proxy.async before event FixAt
  Sync,      ///< __syncthreads() before the use (Second)
  WaitDepth, ///< Wait's depth to FixDepth
};

/// One violation: the rule id and the events of the Finding (First,
/// Second, Wait, Other; Commits and Laps), and what its message and fix
/// need.
struct OrderingViolation : Finding {
  OrderingForm Form = OrderingForm::FenceBeforeStore;
  /// FenceBeforeStore: a fence between the write and the copy that comes
  /// after the thread barrier handing the buffer over (too late).
  std::optional<std::size_t> LateFence;
  /// InitVisible: a thread that uses the barrier and runs no init of it;
  /// with ThreadLast, the use runs in some subset (its condition unread)
  /// of the threads Thread..ThreadLast, none of which runs an init.
  std::optional<unsigned> Thread, ThreadLast;
  /// WaitBeforeReuse, MapRewriteInFlight.
  WaitShortfall Shortfall = WaitShortfall::None;
  /// WaitParity.
  ParityMistake Parity = ParityMistake::None;
  /// WaitBeforeReuse, MapRewriteInFlight: the wait_group.read depth that
  /// would complete the copy's group at Wait (a note names it).
  std::optional<unsigned> CompletingDepth;
  OrderingFix Fix = OrderingFix::None;
  /// Fence: the event the fence goes before.
  std::optional<std::size_t> FixAt;
  /// WaitDepth: the depth Wait becomes.
  unsigned FixDepth = 0;
};

/// Every ordering rule over one kernel, in this order: BULK-S2G-FENCE-
/// BEFORE / TMA-STORE-FENCE; the waits at exit (WaitBeforeExit only) and on
/// reuse; MBAR-INIT-VISIBLE; MBAR-REINIT-INVAL; MBAR-WAIT-PARITY;
/// TMA-LOAD-WAIT-BEFORE-READ (and its group-wait BULK-WAITGROUP-SCOPE),
/// across roles; ASYNC-WAR-FENCE, its hand-off; ASYNC-REUSE-BEFORE-RELEASE;
/// MBAR-EXPECT-BEFORE-LAST-ARRIVE; BULK-WAITGROUP-SCOPE by other threads;
/// TMAP-PLACE-GLOBAL-FENCE; TMAP-INFLIGHT-IMMUTABLE. With \p Why, records
/// why each rule stayed silent on the events it looked at.
std::vector<OrderingViolation> checkKernelOrdering(const KernelFacts &F,
                                                   Silences *Why = nullptr);

} // namespace tma::rules::ordering

#endif // TMA_TIDY_RULES_ORDERINGSITE_H
