//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Ordering (protocol) rules of tma-rules.md 11.A over a kernel's events and
// the control flow between them (rules/OrderingFlow): which fence, wait or
// thread barrier must lie between two operations. The caller
// (api/KernelModel) builds both from Clang's CFG of one kernel body,
// helpers inlined at their calls. A rule reasons about the paths between two
// events: an event on any of them counts (a fence on one path silences the
// pair), and anything that may order or divert a path without the model
// knowing (an unknown call, an unknown wait depth) is an Opaque event, which
// silences every pair it lies between.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ORDERINGRULES_H
#define TMA_TIDY_RULES_ORDERINGRULES_H

#include "rules/OrderingFlow.h"
#include "rules/ThreadSets.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tma::rules::ordering {

enum class EventKind {
  GenericWrite, ///< an ordinary store to a shared buffer (Object)
  GenericRead,  ///< an ordinary load from a shared buffer (Object)
  Load,         ///< a bulk or tensor copy writing a shared buffer (Object)
  Store,        ///< a bulk or tensor copy reading a shared buffer (Object)
  ProxyFence,   ///< fence.proxy.async covering shared::cta
  ThreadSync,   ///< __syncthreads, bar.sync, a cluster barrier
  Commit,       ///< cp.async.bulk.commit_group
  WaitGroup,    ///< cp.async.bulk.wait_group{.read} N
  BarrierInit,  ///< mbarrier.init of a barrier (Object)
  BarrierUse,   ///< arrive / expect-tx / a copy completing on it (Object)
  BarrierWait,  ///< try_wait / test_wait on a barrier (Object)
  BarrierInval, ///< mbarrier.inval of a barrier (Object)
  MapAcquire,   ///< fence.proxy.tensormap::generic.acquire on a map (Map)
  MapWrite,     ///< a write of a map in global memory (Map): generic
                ///< stores, tensormap.replace, tensormap.cp_fenceproxy
  Opaque,       ///< something that may order or divert the path (unknown)
};

/// What a BarrierUse does on its barrier.
enum class UseRole {
  Other,  ///< a copy completing on it, arrive.expect_tx (atomic)
  Arrive, ///< an arrive without transaction bytes
  Expect, ///< an expect-tx without arrival
};

/// What a BarrierWait's parity operand is, as the model proves it
/// (api/WaitParity). A wait on a member of a ring, the n-th time the ring
/// comes back to it, must name the parity of the phase it waits for.
enum class ParityForm {
  Unknown,  ///< no parity, or one the model does not follow
  Constant, ///< the same parity (ParityBit) on every pass of a loop that
            ///< comes back to the same barrier
  StageBit, ///< the member's own low bit (`s & 1`): constant per member
  Ring,     ///< the ring's phase: ParityBit on the first lap, flipped on
            ///< every wrap
  Period,   ///< a lap count of another period: at the k-th step of a count
            ///< the wait is on member k % ParityStages (1: one barrier) and
            ///< names parity ((k / ParityPeriod) & 1) ^ ParityBit
};

/// One event; its place is its node in the Flow.
struct Event {
  EventKind Kind = EventKind::Opaque;
  /// The buffer or barrier; -1 when the model cannot name it.
  int Object = -1;
  /// Store: the copy reads the whole of Object (not a part of it chosen by
  /// an index), so any later write of Object overwrites what it reads.
  bool WholeObject = false;
  /// Store: a tensor store or reduction (TMA-STORE-*), not a 1-D bulk copy.
  bool Tensor = false;
  /// GenericRead: an MMA reads the buffer through a shared-memory
  /// descriptor (wgmma.mma_async, tcgen05.mma): the async proxy reads it,
  /// so it waits for a copy's barrier as a load does but needs no proxy
  /// fence before a later copy into it (ASYNC-WAR-FENCE skips it).
  bool Mma = false;
  /// WaitGroup: N; std::nullopt when it does not fold.
  std::optional<std::uint64_t> Depth;
  /// Buffer events: the stage of Object the address names, as a key: two
  /// events with the same Slice name the same first byte in one pass of
  /// the loops around them (`buf + s * STAGE` and `buf + s * STAGE` with
  /// `s` never reassigned in that pass); -1 when unknown.
  int Slice = -1;
  /// Slice's period: the number of passes of the innermost loop around the
  /// event after which the same expression names the same bytes again
  /// (1: the same stage every pass; S: a ring index `k % S` of that loop's
  /// counter); 0 when unknown (only the same pass is known).
  unsigned Period = 0;
  /// Each pass of the innermost loop around the event names another stage
  /// of Object and none twice: Slice is its counter (`buf[k]`), or a ring
  /// index `k % S` of a loop whose trip count folds to at most S.
  bool Once = false;
  /// Store of a Slice: it reads all of the stage (a tensor store, or a 1-D
  /// copy of the stage's size), so a generic write into it (SliceWrite)
  /// overwrites what it reads; a copy into the same first byte does anyway.
  bool WholeSlice = false;
  /// GenericWrite: the Slice is the stage the written element lies in
  /// (`buf[s][i]`), not the first byte it writes.
  bool SliceWrite = false;
  /// The Slice's expression holds the thread's index (`buf[threadIdx.x /
  /// 32]`, a warp's own stage): the same key names the same stage only in
  /// the same thread, so a pair of such events is one only where every
  /// thread of the first (the copy) runs the second too.
  bool PerThread = false;
  /// BarrierInit: the barrier is named without a varying index.
  bool FixedObject = false;
  /// ThreadSync: a barrier of one warp only (`__syncwarp`, `bar.warp.sync`):
  /// the rules that a thread barrier silences stay silent across it too,
  /// but it hands nothing over to another warp (a fence after it still
  /// precedes a later block-wide hand-off).
  bool Warp = false;
  /// ThreadSync: one half of a split cluster barrier (`barrier.cluster.
  /// arrive`, `barrier.cluster.wait`); a wait orders nothing unless the
  /// threads arrived before it (MBAR-INIT-VISIBLE).
  enum class Half { Both, Arrive, Wait } SyncHalf = Half::Both;
  /// Barrier events: the family of barriers Object is a member of (an
  /// array indexed by a run-time stage, `full[k % S]`, is one family; a
  /// barrier named alone is a family of one); -1 when unknown.
  int Family = -1;
  /// BarrierInit: it initialises every member of Family (an init loop
  /// over the whole array), not only Object.
  bool AllMembers = false;
  /// BarrierUse or BarrierWait of a pool family (`base + OFF + s * 8`) or an
  /// array's (`bars[c + s]`, api/KernelEvents' ElementOffset): the
  /// member its run-time index names the first time it runs, where the
  /// model proves it (api/WaitParity's firstValue); -1 when unknown.
  long long FirstMember = -1;
  /// BarrierUse: what it does.
  UseRole Role = UseRole::Other;
  /// BarrierWait: its parity; ParityBit as ParityForm says.
  ParityForm Parity = ParityForm::Unknown;
  unsigned ParityBit = 0;
  /// BarrierWait of ParityForm::Period: the count at which the member
  /// comes back (1: one barrier waited each pass) and the count at which
  /// the parity flips. Of ParityForm::Ring: ParityStages 1 for one barrier
  /// waited once a pass with a bit flipped once a pass (its lap is a
  /// pass), else 0.
  unsigned ParityStages = 0, ParityPeriod = 0;
  /// BarrierWait of ParityForm::Unknown on a ring the model reads (a
  /// counter's lap, a stage and phase bit, a PipelineState) whose stage
  /// count is not the barrier array's extent: the ring's stages and the
  /// array's members (the cross-ring case, not judged).
  unsigned ParityRingStages = 0, ParityMembers = 0;
  /// BarrierWait: the parity operand is a value the model does not follow
  /// (not a constant, not a ring's phase); false for waits on a state.
  bool ParityUnknown = false;
  /// BarrierWait of ParityForm::Ring: a stride steps the ring, maybe before
  /// the wait's first pass: that pass may lie on a later lap than the
  /// first, so ParityBit need not be the parity it names (the parity of
  /// each lap still is).
  bool ParityLaterLaps = false;

  /// BarrierWait: the run-time index that selects its member of an array
  /// or pool family of at least two barriers, when it is a local integer
  /// of the kernel that is only read and plainly written, as a key
  /// (-1: none, fixed, or another index).
  int StageVar = -1;
  /// GenericRead: the local integers of the kernel (StageVar keys) that its
  /// address is computed from in the pass it runs in, each with the loop
  /// around it that moves it to another value on every pass (the
  /// increment of a ring's stage, `++s` or `s = (s + 1) % S`, with its
  /// wrap): that loop's place in Flow::loopsAround(read), innermost first.
  /// A wait on member s outside that loop orders the read of one pass
  /// at most.
  std::vector<std::pair<int, unsigned>> StageSteps;

  /// Load: the barrier it completes on (-1: unknown).
  int Barrier = -1;
  /// Barrier events: where Object lies; Load: where Barrier lies. Region:
  /// the `__shared__` variable (-1: unknown, or the dynamic shared-memory
  /// pool, which every `extern __shared__` variable aliases); Part: the
  /// field of it that the barrier lies in (-1: the whole variable, or a
  /// path the variable's type does not declare). Two barriers whose
  /// Regions differ, or whose Parts differ in one Region, are distinct
  /// (mayBeSameBarrier).
  int Region = -1, Part = -1;
  /// Barrier events of the dynamic pool (Region -1) at an integer or
  /// pointer window address (`base + 40 + s * 8`), Load: of its Barrier.
  /// Window: the pool, the bytes per member and the run-time index variable
  /// (-1: none); WindowOffset: the constant byte offset; WindowEpoch: the
  /// stretch of one pass of the innermost loop around the index in which
  /// its variable is not written (-1: unknown; unused for a fixed address).
  /// Load: a cp.async.bulk for certain (not `cuda::memcpy_async`, which
  /// may fall back to cp.async): it completes on its mbarrier only.
  /// BarrierWait: a `cp.async.wait_group`, which waits for cp.async groups
  /// alone (no barrier the model names).
  bool BulkOnly = false, CpAsyncGroups = false;
  int Window = -1;
  long long WindowOffset = 0;
  int WindowEpoch = -1;
  bool WindowFixed = false;
  /// Tensor Load / Store, MapAcquire: the tensor map, when it is a kernel
  /// parameter pointing to global memory (-1: other or unknown).
  int Map = -1;
  /// It runs only where some condition held: in a branch of an if or a
  /// switch, on the right of && / ||, in an arm of ?:, after a conditional
  /// return (not merely in a loop's body).
  bool Guarded = false;
  /// The threads that run it; null when the model cannot tell (an unknown
  /// guard, a join of paths under different guards).
  std::shared_ptr<const threads::ThreadSet> Threads;
  /// Threads when known; else, where it is known, a set that holds every
  /// thread that may run it: the threads of the nearest block dominating it
  /// whose threads are known (a loop body or branch whose condition the
  /// model cannot read, `while (schedule.next(...))`, runs in some subset
  /// of them, possibly empty, possibly another each pass). Only a rule
  /// whose proof holds for every such subset may read it; null when not
  /// even that is known.
  std::shared_ptr<const threads::ThreadSet> ThreadsAtMost;
};

/// Whether the barrier of \p A and that of \p B (Load: its Barrier;
/// barrier events: Object) may be one barrier: unless their Regions and
/// Parts prove them apart.
bool mayBeSameBarrier(const Event &A, const Event &B);

/// Whether the barriers of \p A and \p B, two pool windows of one family
/// whose index has one value at both (fixed addresses, or the same index
/// variable unwritten between them in one pass of its loop), lie at
/// offsets at least a barrier apart: different barriers on a path of one
/// thread from one to the other.
bool windowsApart(const Event &A, const Event &B);

/// Where a barrier of an `extern __shared__` byte pool lies (MBAR-UNINIT
/// tells the pool's barriers apart by it): its offset in bytes, the bytes
/// per member of its family (0: one barrier), and for the family of an
/// init loop the members it initialises (0: unknown, any number).
struct PoolSlot {
  std::int64_t Offset = 0;
  std::int64_t Stride = 0;
  std::uint64_t InitMembers = 0;
  bool InitsKnown = true;
  /// The members a family has at most, wherever it is used (0: not
  /// bounded): an array's family lies in the array, and one indexed by the
  /// inner index of an array of arrays in its row.
  std::uint64_t Members = 0;
};

struct Finding {
  const char *Rule = nullptr;
  /// The two events (indices into the sequence): the earlier and the later
  /// one of the pair the rule is about; Second == First for single-event
  /// rules.
  std::size_t First = 0, Second = 0;
  /// A wait that is too shallow (WaitGroup index), when there is one.
  std::optional<std::size_t> Wait;
  /// The commits between the store and Wait (its group is one of them).
  unsigned Commits = 0;
  /// The passes of the store's loop between the copy and the overwrite of
  /// its stage (a stage ring reused one lap later); 0: the same pass, or a
  /// buffer that is not a ring's stage.
  unsigned Laps = 0;
  /// TMA-LOAD-WAIT-BEFORE-READ: a wait between the copy and the read on a
  /// barrier proven other than the copy's (it orders nothing for it); across
  /// roles, a wait on a stage before the loop that steps the read's stage.
  /// MBAR-WAIT-PARITY's first-lap hang: the wait the arrive (Second)
  /// comes after. MBAR-INIT-VISIBLE: the thread barrier (or other ordering
  /// event) that lies on some path from the init to the use but that the
  /// reported path skips.
  std::optional<std::size_t> Other = std::nullopt;
};

/// Why a rule stayed silent on an event it was about (issue 28 item 1,
/// tma-ordering.ExplainModel): worded by the rule's own code where it
/// decides, so that the explanation cannot drift from the decision. Site
/// is the event the rule looked at (a copy, an init); At the event that
/// silenced it, when one did.
struct Silence {
  const char *Rule = nullptr;
  std::size_t Site = 0;
  std::string Why;
  std::optional<std::size_t> At;
};
/// Where a rule records its silences; null (the default) records nothing.
using Silences = std::vector<Silence>;

/// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: a copy reading a buffer that
/// generic stores wrote before it with no fence.proxy.async in between, in
/// the writing threads: a fence that the thread sets prove some writing
/// thread (of a block of \p Block) does not run does not count, nor, when
/// some writing thread does not issue the copy, one that every path from
/// the write reaches only through a thread barrier (the fence must precede
/// the hand-off); any other fence silences the pair.
std::vector<Finding> fenceBeforeStore(const std::vector<Event> &Seq,
                                      const Flow &G,
                                      threads::BlockSize Block = {},
                                      Silences *Why = nullptr);

/// BULK-S2G-WAIT-BEFORE-REUSE / TMA-STORE-WAIT, at exit: a copy reading
/// shared memory after which the kernel can run to its end and no
/// cp.async.bulk.wait_group that may complete its group comes later on any
/// path (not round the loop again: a wait before the copy in its loop does
/// not wait for the last one). A `wait_group N` with at most N commits
/// since the copy on every path leaves the group pending (Wait: the latest
/// such wait; Commits: the most commits before it, at least one); one of
/// unknown depth, or after more commits, or after a commit that a loop may
/// repeat, or before any commit, may complete it. An early return reached with no wait silences it.
std::vector<Finding> waitBeforeExit(const std::vector<Event> &Seq,
                                    const Flow &G, Silences *Why = nullptr);

/// BULK-S2G-WAIT-BEFORE-REUSE / TMA-STORE-WAIT, on reuse: a generic store
/// (or a TMA or bulk load) overwriting a buffer that a copy read before (later in the code, or
/// earlier in the same loop body, through the back edge) with no
/// wait_group.read in between that covers the copy's group. A copy of a
/// stage (Event::Slice) is overwritten by a write of the same stage: later
/// in the same pass, or, in a ring of period S, S passes later (Laps),
/// the commits and waits of every pass in between counted. A stage chosen
/// by the thread's index (Event::PerThread) is the same stage in a write
/// that every thread of the copy runs (thread sets known, in a block of
/// \p Block).
std::vector<Finding> waitBeforeReuse(const std::vector<Event> &Seq,
                                     const Flow &G, Silences *Why = nullptr,
                                     threads::BlockSize Block = {});

/// MBAR-INIT-VISIBLE: a barrier initialised by some threads (the init is
/// guarded) and then used by threads outside that set with no thread
/// barrier in between: by all threads (no guard, no jump before it), or,
/// where both thread sets are known, by a set with a thread that runs no
/// init in a block of \p Block.Max threads (a producer or consumer role,
/// taken to exist in the blocks the kernel is written for). An
/// init of every member of a family (an init loop) is an init of each
/// member used later. A `barrier.cluster.wait` that no arrive (nor other
/// thread barrier) reaches orders nothing; Wait then holds it. A thread
/// barrier orders the use only on the paths through it: one that a path
/// from the init to such a use skips (it lies only in a loop that may run
/// no pass, or in another branch) does not count (Other then holds it).
/// \p Slots (per object id, api/KernelModel's PoolSlots) places the
/// barriers of one `__shared__` array by element: an init of a part of
/// the array makes the barrier a use of the same array names where
/// surelyCovers (rules/UninitSite) proves it, the init being the only one
/// of its object.
std::vector<Finding>
initVisible(const std::vector<Event> &Seq, const Flow &G,
            threads::BlockSize Block = {}, Silences *Why = nullptr,
            const std::vector<std::optional<PoolSlot>> *Slots = nullptr);

/// MBAR-REINIT-INVAL: mbarrier.init of one fixed barrier inside a loop that
/// also uses it, with no mbarrier.inval in that loop.
std::vector<Finding> reinitInLoop(const std::vector<Event> &Seq, const Flow &G);

/// TMA-LOAD-WAIT-BEFORE-READ: a generic read of a buffer that a copy into
/// it (on the path before the read) may still be writing: no mbarrier wait
/// in between. BULK-WAITGROUP-SCOPE when a cp.async.bulk.wait_group lies in
/// between instead (it does not wait for mbarrier-completed copies); Wait
/// is then set to it.
std::vector<Finding> loadWaitBeforeRead(const std::vector<Event> &Seq,
                                        const Flow &G,
                                        Silences *Why = nullptr);

/// TMA-LOAD-WAIT-BEFORE-READ across roles: a read of a buffer that copies
/// into it write in code with no path to or from the read (a producer
/// branch; the read is a consumer's), where no mbarrier wait, thread
/// barrier, unknown or generic write of the buffer comes before the read
/// on every path from the kernel's entry, and none lies in the innermost
/// loop around the read (a wait by one lane, then `__syncwarp`): the
/// consumer reads the stage without waiting for its copy. A wait on the
/// member `s` of a family outside a loop around the read that steps `s`
/// on every pass (Event::StageSteps), with nothing in that loop that may
/// order the read, orders one pass at most and does not count (Finding::
/// Other then holds it).
std::vector<Finding> loadWaitAcrossRoles(const std::vector<Event> &Seq,
                                         const Flow &G);

/// ASYNC-WAR-FENCE (its blatant half): a copy into a buffer that generic
/// loads read before it (earlier in the code, or later in the same loop
/// body through the back edge) with nothing at all in between: no proxy
/// fence, no thread barrier, no mbarrier wait or plain arrive (the
/// catalogue's policy counts an mbarrier hand-off as ordering).
std::vector<Finding> asyncWarFence(const std::vector<Event> &Seq,
                                   const Flow &G, Silences *Why = nullptr);

/// ASYNC-WAR-FENCE across roles: a copy into a buffer, issued after a wait
/// on a barrier of family E (the producer waits on `empty[s]`), and generic
/// reads of that buffer by threads whose code has no path to the copy (a
/// consumer branch) that hand the buffer back with a plain arrive on a
/// member of E and no fence.proxy.async (nor a thread barrier or an
/// unknown) between the reads and the arrive. Wait holds the arrive.
std::vector<Finding> asyncWarHandOff(const std::vector<Event> &Seq,
                                     const Flow &G);

/// ASYNC-REUSE-BEFORE-RELEASE: a copy in a loop (a refill) into a buffer
/// that other threads read (their code has no path to or from the copy)
/// after a wait that may be on the copy's barrier (the consumers wait on
/// `full[s]`), then hand back with a plain arrive on a barrier of another
/// family (`empty[s]`), while the code of the copy's threads (what reaches
/// the copy or what it reaches, and not the readers') has no wait that may
/// be on a barrier the readers arrive on (the hand-back's or another), no
/// thread barrier and no unknown: the
/// refill can overwrite the stage before its reads are done. First: the
/// read; Second: the copy; Wait: the arrive; Other: the readers' wait.
/// One finding per hand-back arrive.
std::vector<Finding> reuseBeforeRelease(const std::vector<Event> &Seq,
                                        const Flow &G,
                                        Silences *Why = nullptr);

/// MBAR-EXPECT-BEFORE-LAST-ARRIVE: a plain arrive on a barrier followed on
/// one path by an expect-tx (without arrival) on the same barrier, with no
/// wait in between: the arrive may complete the phase before its bytes are
/// expected.
std::vector<Finding> expectAfterArrive(const std::vector<Event> &Seq,
                                       const Flow &G);

/// BULK-WAITGROUP-SCOPE, the other half: a copy issued under a guard, the
/// wait that covers its group executed by more threads than the guard
/// admits (only the issuing thread's wait waits), then a generic store to
/// the copy's source by those threads with no thread barrier after the wait.
/// Where the thread sets of the copy, the wait and the store are known,
/// they decide (in a block of \p Block): the wait must run in a thread that
/// issued nothing, and so must the store; otherwise the guards' structure
/// does.
std::vector<Finding> waitByOtherThreads(const std::vector<Event> &Seq,
                                        const Flow &G,
                                        threads::BlockSize Block = {});

/// TMAP-PLACE-GLOBAL-FENCE, ordering half: a tensor copy reads a map in
/// global memory for which an acquire fence follows it on one path but none
/// precedes it.
std::vector<Finding> acquireAfterCopy(const std::vector<Event> &Seq,
                                      const Flow &G);

/// TMAP-INFLIGHT-IMMUTABLE: a tensor copy reading a map in global memory,
/// then a write of that map on one path (later in the code, or earlier in
/// the same loop body through the back edge) before the copy is surely
/// complete: for a load, no mbarrier wait at all in between (any barrier's
/// wait may hand the completion on); for a store, no wait_group.read whose
/// depth completes its group (Wait and Commits as for the wait rules).
std::vector<Finding> mapRewriteInFlight(const std::vector<Event> &Seq,
                                        const Flow &G,
                                        Silences *Why = nullptr);

/// MBAR-WAIT-PARITY: a wait whose parity cannot match the phase its
/// barrier is in (First: the wait; Second: the event that shows it):
///   - a Constant or StageBit parity on a barrier whose family completes in
///     a loop (a copy, expect-tx or arrive on it lies in one), when no
///     init of the family lies in a loop around the wait and every other
///     wait on it there names the same parity: from the second lap on, the
///     wait names a phase that completed a lap ago and returns at once;
///   - a Ring parity of 1 on the first lap of a family that copies complete
///     on (a full barrier), with no arrive on it that no wait precedes: the
///     wait names the phase before the barrier's first and returns at once,
///     before the copy lands (Second: a copy or expect-tx on it);
///   - a Ring parity of 1 on the first lap of a family that no copy
///     completes on (an empty barrier) but that arrives reach, on every
///     member, before any wait (a round of arrivals that releases every
///     stage before the ring starts, Second): phase 0 completes before the
///     first lap, so from the second lap on the wait names a phase that
///     completed a lap ago and returns before the stage is released;
///   - a Ring parity of 0 on the first lap of a family that only plain
///     arrives complete (an empty barrier), when its first phase waits for
///     this wait (a deadlock, Second: an arrive on it; Other: a wait that
///     comes before that arrive): the family belongs to a set Z of
///     families, none of which any event the model does not show may
///     arrive on (\p UnseenArrives false, no use on an unnamed barrier, no
///     use of another family that may be the same barrier, no init or
///     inval in a loop), such that every use (arrive, expect-tx, copy) of a
///     member of Z comes, on every path from the entry, after a wait on a
///     family of Z whose first pass names parity 0 (Ring with first-lap bit
///     0, or Constant 0). Then no phase 0 of Z ever completes: the first
///     to complete would need a use of its barrier, which needs an earlier
///     return of a wait for some phase 0 of Z, which needs an earlier
///     completion. Threads do not matter: dominance holds for the path of
///     every thread, whatever role it runs (a wait is taken to return once
///     its phase completed, a try_wait loop).
///   - a Period parity (case 5): the count k steps once per visit of a
///     ring of S members (member k % S; S = 1: one barrier that the wait
///     comes back to each pass) and the parity is ((k / T) & 1) ^ b with
///     T != S; when some member m < S has floor((m + S) / T) - floor(m /
///     T) even (repeatedParityMember), its waits at k = m and k = m + S,
///     one lap apart, name the same parity, so the second names the phase
///     the first saw complete (returns at once) or the one after the next
///     (a lap late). Under the conditions of the first case (a use of the
///     family in a loop, Second; no init or inval in a loop around the
///     wait; every other wait on the family there names the same parity).
std::vector<Finding> waitParity(const std::vector<Event> &Seq, const Flow &G,
                                Silences *Why = nullptr,
                                bool UnseenArrives = false);

/// MBAR-WAIT-PARITY case 5: the first member m of a ring of \p Stages
/// members (1: one barrier) whose two visits m and m + Stages name the
/// same parity `(k / Period) & 1`; none when every visit flips it (Stages
/// an odd multiple of Period, or equal to it) or either count is 0.
std::optional<unsigned> repeatedParityMember(unsigned Stages,
                                             unsigned Period);

/// MBAR-UNINIT: a barrier whose every use is known (\p AllUsesKnown), used
/// \p Uses times and initialised \p Inits times.
bool uninitialised(bool AllUsesKnown, unsigned Uses, unsigned Inits);

} // namespace tma::rules::ordering

#endif // TMA_TIDY_RULES_ORDERINGRULES_H
