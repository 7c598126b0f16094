//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The kernel model's construction, declared for the files that define it:
// Builder walks a kernel's CFG (helpers spliced in at their calls) into its
// events, with their guards, barrier and map objects, shared-memory accesses
// and stages. Its methods call each other throughout the walk, so they are
// one class, defined by job: the walk and the splicing of calls
// (KernelModelBuilder.cpp), thread guards (KernelModelGuards.cpp), barrier
// operands (KernelModelBarriers.cpp), tensor-map operands and writes
// (KernelModelMaps.cpp), device ops and asm statements with their copies
// (KernelModelOps.cpp), generic shared-memory accesses
// (KernelModelAccesses.cpp), library and CuTe calls (KernelModelLibrary.cpp).
// Internal to the model: KernelModel.h's buildSequence is its entry point.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_KERNELMODELBUILDER_H
#define TMA_TIDY_API_KERNELMODELBUILDER_H

#include "api/BarrierPhases.h"
#include "api/CuteTensors.h"
#include "api/DeviceOpsCommon.h"
#include "api/KernelEvents.h"
#include "api/KernelModel.h"
#include "api/KernelModelBuild.h"
#include "api/LoopParts.h"
#include "api/MapAddress.h"
#include "folding/Uses.h"

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clang::tidy::tma::kmodel {

using ::tma::rules::ordering::Event;
using ::tma::rules::ordering::EventKind;
using ::tma::rules::threads::Cond;
using ::tma::rules::threads::ThreadSet;

class Builder {
public:
  Builder(ASTContext &Ctx, KernelModel &Model, DeviceOpsFinder &Finder,
          KernelSequence &Out, llvm::DenseSet<const FunctionDecl *> &Quiet,
          LocalAliases &Aliases, ThreadGuards &Guards, StageSlices &Slices,
          bool Threads)
      : Ctx(Ctx), Model(Model), Finder(Finder), Out(Out), Quiet(Quiet),
        Aliases(Aliases), Guards(Guards), Slices(Slices), Threads(Threads) {}

  bool run(const FunctionDecl *Kernel);

private:
  void emit(Event E, SourceLocation OpLoc, std::optional<DeviceOp> Op = {},
            const VarDecl *Var = nullptr);
  /// Why a copy's buffer \p Buf has no name: the variable its address is
  /// rooted at, when that is no `__shared__` variable (KernelEvent::Unnamed).
  std::string unnamedWhy(const Expr *Buf);
  /// Set by copyEvent for the event emit makes next.
  std::string PendingUnnamed;
  void simple(EventKind Kind, SourceLocation Loc);

  /// A buffer: the variable, the region of a dynamic pool and the fields
  /// selected in it.
  int objectOf(const VarDecl *VD, const std::string &Path,
               const PoolRegion &Region);
  /// A barrier: its identity's structural key.
  int objectOf(const events::BarrierName &Id);
  int newObject(const VarDecl *VD, std::string Name);

  std::optional<Cond> guardOf(const Expr *C);

  /// The condition a two-way terminator branches on, as a thread condition
  /// (std::nullopt: unknown).
  std::optional<Cond> branchGuard(const CFGBlock &D);

  /// The condition under which the threads at \p D take its successor
  /// edge \p Edge, and whether it holds there: a two-way branch's condition
  /// (true into its first successor, false into its second); for a
  /// `switch` on a thread expression f(t), `f(t) == V` into `case V:`
  /// (std::nullopt: unknown, a default or a range among them).
  std::optional<std::pair<Cond, bool>> edgeGuard(const CFGBlock &D, int Edge);

  /// The condition under which the threads at \p D reach \p B, a target
  /// of an `if` whose condition is a short-circuit `&&` / `||` that D's
  /// terminator is part of (the `else` of `if (warp == 0 && elect())`,
  /// which both of the condition's blocks jump to, so that no one edge of
  /// D leads there): the whole condition, and whether it holds there.
  /// Every predecessor of B must be a block of that condition.
  std::optional<std::pair<Cond, bool>> shortCircuitGuard(const CFGBlock &D,
                                                         const CFGBlock &B);

  /// The block that the edge from \p B into \p Succ leads to: the body of
  /// a `for` loop whose first pass surely runs (Succ its condition, B
  /// before the loop, the condition shows no event), else Succ. The loop
  /// has no zero-trip path then.
  unsigned entryOf(const CFGBlock &B, const CFGBlock &Succ,
                   const std::vector<char> &HasEvents);

  /// Splices the CFG of \p FD's body in at the current node: the events of
  /// its blocks in reverse post-order, each block's threads from its
  /// immediate dominator. The kernel's exits end the flow; a helper's lead
  /// to a node after the call. False when the model cannot follow the body.
  bool body(const FunctionDecl *FD, bool Kernel);

  /// One element of a block: an expression or statement whose operands
  /// are elements before it.
  void element(const Stmt *S);

  void write(const Expr *Lhs, SourceLocation Loc);

  /// TMAP-INFLIGHT-IMMUTABLE: a store into a `CUtensorMap` that a kernel
  /// pointer parameter points to (through subscripts, members, casts).
  void mapWrite(const Expr *Lhs, SourceLocation Loc);
  /// A type that is, or holds, a `CUtensorMap`.
  static bool holdsMap(QualType T, unsigned Depth);
  /// A store into (a part of) the map a `CUtensorMap *` parameter of the
  /// kernel points to (through subscripts, members, casts).
  bool mapPartWrite(const Expr *Lhs, SourceLocation Loc);
  static bool isTensorMapPointer(QualType T);
  void mapEvent(EventKind Kind, int Map, SourceLocation Loc);
  /// The map a `tensormap.replace` / `tensormap.cp_fenceproxy` writes: its
  /// first operand `[%N]`, through the address conversion CCCL wraps it in.
  int asmMapOperand(const GCCAsmStmt &S, llvm::StringRef Operands);

  /// The object of a barrier operand; -1 when it is no `__shared__`
  /// variable of the kernel the model can name.
  /// With \p E, also its family and, for an init, whether it makes every
  /// member of it.
  /// With \p At (or \p E), also where the barrier lies (Event::Region,
  /// Part).
  int barrierObject(const OpValue &V, const VarDecl *&Var, bool &Fixed,
                    Event *E = nullptr, Event *At = nullptr);
  /// Where the barrier \p Id lies (Event::Region, Part): its `__shared__`
  /// variable, none for the dynamic pool (every `extern __shared__`
  /// variable aliases it), and the field of the variable's own type that
  /// its name selects first (none through a union, or when a cast laid
  /// another type over the variable: such a view may overlap any field).
  void regionOf(const events::BarrierName &Id, Event &E);
  /// A use of a pool family (`base + OFF + s * 8`) or of an array's
  /// (`bars[c + s]`, `base + c * 8 + s * 8`): the member its index names
  /// the first time it runs (Event::FirstMember), with the local it reads
  /// (IndexVar, IndexStart).
  void firstMember(const events::BarrierName &Id, Event &E);
  /// An array's barrier named by its element (BarrierName::ElementOffset):
  /// its PoolSlot, in elements, with the members an init loop makes.
  void elementSlot(const events::BarrierName &Id, int Obj, Event *E);
  const VarDecl *IndexVar = nullptr;
  long long IndexStart = 0;

  /// A pool barrier at a window address (Event::Window): its family (the
  /// pool, the bytes per member, the index variable), its offset and the
  /// epoch of its index.
  void windowOf(const events::BarrierName &Id, Event &E);

  /// Where the index variable \p V, read at \p D in the kernel's body, has
  /// one value: the statement of the innermost loop body around D (or of
  /// the kernel's body) that holds D, counted by the statements before it
  /// that write V; -1 when D's own statement writes V, D lies in a loop's
  /// header or a lambda, or V may change unseen (its address is taken, it
  /// is bound to a reference, it is no local of the kernel).
  int epochOf(const DeclRefExpr *D, const VarDecl *V);
  int epochKey(const Stmt *Pass, const VarDecl *V, unsigned Writes);
  /// Whether every use of the kernel's local \p V is a read or a plain
  /// write (no address taken, no reference bound to it).
  bool onlyPlainUses(const VarDecl *V);
  /// The parent map of the kernel's body (made on first need).
  const ParentMap &kernelParents();

  /// Event::StageVar of a wait on the barrier operand \p V
  /// (KernelModelStages.cpp).
  void waitStage(const OpValue &V, Event &E);
  /// Event::StageSteps of a generic read of the address \p Addr.
  void readSteps(const Expr *Addr, Event &E);
  /// The local integer of the kernel that \p E names, through the
  /// parameters of the helpers being walked, when only read and plainly
  /// written; null otherwise.
  const VarDecl *stageVarOf(const Expr *E);
  int stageKey(const VarDecl *V);
  /// The kernel's locals the address \p E is computed from: integers
  /// (\p Ints) and pointers followed through their every assignment
  /// (\p Ptrs; a pointer never written and computed from no local is left
  /// out); false when some pointer may change unseen.
  bool addressVars(const Expr *E, llvm::SmallVectorImpl<const VarDecl *> &Ints,
                   llvm::SmallVectorImpl<const VarDecl *> &Ptrs,
                   unsigned Depth);
  /// Whether the kernel's loop \p Loop moves \p V to another value on
  /// every pass: each write of V in it is a step (`++v`, `v += c`,
  /// `v = (v + c) % S`) or a wrap under a test of V (`if (v == S) v = 0`),
  /// and a step runs on every pass (its increment, or a statement of its
  /// body when no `continue` skips it).
  bool stepsEveryPass(const Stmt *Loop, const VarDecl *V);
  bool stepsEveryPassOnce(const Stmt *Loop, const VarDecl *V);
  /// The local integers of the kernel used as a wait's stage index.
  std::vector<const VarDecl *> StageKeys;
  /// addressVars of each local pointer of the kernel, found once (every
  /// read through it would walk the kernel's body again): the locals it is
  /// computed from, itself among Ptrs unless it is never written and
  /// computed from no local; Ok false while it is being found or when some
  /// pointer on the way may change unseen.
  struct PtrVars {
    bool Ok = false;
    llvm::SmallVector<const VarDecl *, 4> Ints, Ptrs;
  };
  llvm::DenseMap<const VarDecl *, PtrVars> PtrVarsOf;
  /// stepsEveryPass, once per loop and variable.
  llvm::DenseMap<std::pair<const Stmt *, const VarDecl *>, bool> StepsOf;
  static bool isRead(const ParentMap &PM, const DeclRefExpr *R);
  static bool isPlainWrite(const ParentMap &PM, const DeclRefExpr *R);
  bool writesVar(const ParentMap &PM, const Stmt *S, const VarDecl *V);

  /// The family of a barrier: its root and fields, whatever the indices.
  int familyOf(const events::BarrierName &Id);

  void read(const Expr *E, SourceLocation Loc);

  /// Names the barrier operand of an op.
  void barrierEvent(EventKind Kind, const OpValue &V, const DeviceOp &Op,
                    const OpSite &Site,
                    ::tma::rules::ordering::UseRole Role = {},
                    const Wait *W = nullptr);

  /// A wait's parity (api/WaitParity), its operand and barrier index seen
  /// through the parameters of the helpers being walked.
  void parity(const Wait &W, Event &E);

  /// The object of a tensor map operand: a pointer parameter of the kernel
  /// (global memory); -1 for anything else.
  int mapObject(const OpValue &V);
  int mapObject(const Expr *E);
  std::optional<MapAddress> mapAddress(const Expr *E);
  /// The map object at \p A, named after \p Spelt (the operand as the
  /// kernel writes it) when it is first seen.
  int mapObjectAt(const MapAddress &A, const Expr *Spelt);

  /// The part a load and a store share: \p E's kind, its map and the
  /// shared buffer \p Buf names (\p Whole: nothing selected a part of it);
  /// the buffer's variable, or null.
  const VarDecl *copyEvent(Event &E, EventKind Kind, bool Tensor,
                           const Expr *Buf, const OpValue *Map, bool &Whole,
                           PoolRegion *At = nullptr);

  /// A copy into shared memory: what it writes and where it completes.
  void loadEvent(const OpValue &Dst, const OpValue &Barrier, bool Tensor,
                 const DeviceOp &Op, const OpSite &Site,
                 const OpValue *Map = nullptr);

  /// Sets \p E's stage of its buffer (Event::Slice, Period) from the
  /// address \p Addr (with \p Element, the lvalue of a written element);
  /// the stage's bytes (0: not an array), or std::nullopt when unknown.
  std::optional<std::uint64_t> stage(const Expr *Addr, bool Element, Event &E);
  /// For a write at the integer address \p Addr: the stage it lies in
  /// (StageSlices::sliceWithin), named on \p E; false when none is proven.
  bool stageWithin(const Expr *Addr, Event &E);
  void nameStage(const StageSlice &S, Event &E);

  /// Whether \p FD's body has a loop (then the ops of a helper are not in
  /// the kernel's innermost loop only).
  bool hasLoop(const FunctionDecl *FD);
  static bool findsLoop(const Stmt *S);

  template <typename Fn> void predicated(const OpSite &Site, Fn &&F) {
    if (!Site.Predicated) {
      F();
      return;
    }
    // `@p`: the threads where p holds.
    auto SavedSet = Set;
    bool SavedGuarded = Guarded;
    Set = nullptr;
    Guarded = true;
    F();
    Set = std::move(SavedSet);
    Guarded = SavedGuarded;
  }

  void storeEvent(const OpValue &Src, const OpValue *Size, bool Tensor,
                  const DeviceOp &Op, const OpSite &Site,
                  const OpValue *Map = nullptr);

  void opEvent(const DeviceOp &Op);

  /// The depth of `cp.async.bulk.wait_group{.read} X`.
  std::optional<std::uint64_t> asmDepth(const GCCAsmStmt &S,
                                        llvm::StringRef Operand);

  /// The pointer whose shared-window address \p E computes: through
  /// `__cvta_generic_to_shared(p)` and address helpers, integer offsets
  /// added to it, casts, and locals never written after their
  /// initialisation; null when it is no such address.
  const Expr *addressedPointer(const Expr *E);

  /// `stmatrix [%n], ...` / `st.shared.* [%n], ...` (a generic write) and
  /// `ld.shared.* %r, [%n]` / `ldmatrix {...}, [%n]` (a generic read) of the
  /// buffer whose address operand %n computes.
  void asmAccess(const GCCAsmStmt &S, std::optional<unsigned> Index,
                 EventKind Kind, SourceLocation Loc);

  /// An access of \p Kind to the shared buffer that \p Ptr points into;
  /// none when the buffer is unknown.
  bool accessOf(const Expr *Ptr, EventKind Kind, bool Mma, SourceLocation Loc);

  /// The shared pointer the matrix descriptor \p E is built from: through
  /// helper parameters, locals never written after their initialisation (a
  /// descriptor object's later field writes advance its address within the
  /// buffer it starts in), a descriptor object's conversion to its integer,
  /// `|` and `+` with a part that is no address, and calls of helpers that
  /// build it from a pointer parameter (descriptorParam) or put an integer
  /// parameter in its start-address field (descriptorAddressParam); at
  /// `addr >> 4` or `(addr & 0x3FFFF) >> 4`, the 32-bit shared address
  /// `addr` itself. Null when it is none.
  const Expr *descriptorPointer(const Expr *E);

  /// `wgmma.mma_async` / `tcgen05.mma` reading the buffer that its
  /// shared-memory descriptor operand %n describes (silent when the
  /// descriptor's buffer is unknown).
  void mmaRead(const GCCAsmStmt &S, unsigned Index, SourceLocation Loc);

  void asmEvents(const GCCAsmStmt &S);

  /// The ordering events that library functions without a visible body
  /// stand for, by name.
  bool namedEvent(const FunctionDecl &FD, SourceLocation Loc);

  /// cuda::ptx::tensormap_replace_*(space_global, map, ...) and
  /// tensormap_cp_fenceproxy(sem, scope, map, src, size): writes of a map
  /// in global memory (their bodies, an asm statement, are not walked).
  bool tensorMapWrite(const FunctionDecl &FD, const CallExpr &C);

  /// cuda::barrier's arrive / wait / wait_parity / arrive_and_wait members
  /// (CCCL's bodies are NVVM builtins the model does not follow): an arrive and
  /// a wait on the barrier object, when the model can name it.
  bool libcudacxxBarrier(const FunctionDecl &FD, const CallExpr &C);

  /// libcu++'s `init(&bar, n)`: an mbarrier.init of the barrier (its body,
  /// behind target dispatch, is not walked).
  bool libcudacxxInit(const FunctionDecl &FD, const CallExpr &C);

  void intrinsicEvent(events::IntrinsicRole Role, SourceLocation Loc);

  /// The one shared buffer the CuTe tensor view \p E is built from, as an
  /// address sharedRoot names; null when there is none or more than one.
  const Expr *cuteBuffer(const Expr *E);

  /// `&E` for the object \p E (made once per expression, in the AST's
  /// memory), for the walks that name a barrier by its address.
  const Expr *addressOf(const Expr *E);

  /// CuTe's algorithms, whose bodies lie too deep for the walk: a TMA load
  /// atom's `copy(tma.with(bar), src, dst)` is a tensor load into dst's
  /// buffer completing on bar; `gemm(mma, A, B, C)` reads A's and B's
  /// buffers (an MMA's shared-memory operands).
  bool cuteAlgorithm(const CallExpr &C);

  void call(const CallExpr &C);

  const ParamBindings *bindings() const {
    return Frames.empty() ? nullptr : &AllBindings;
  }
  /// What a helper parameter or a local pointer or reference stands for;
  /// for null, what `this` stands for.
  const Expr *substitute(const VarDecl *VD);
  /// \p E, or the argument a parameter \p E names stands for.
  const Expr *bound(const Expr *E) const;

  /// Whether \p E, through the bindings, names a tensor-map pointer
  /// parameter the way mapWrite follows a store's target: a helper given
  /// it may write a kernel's map through its parameter.
  bool namesMapPointer(const Expr *E) const;

  /// \p Bound: some parameter of \p FD stands for a shared buffer or a
  /// kernel's tensor map at this call.
  void callee(const FunctionDecl *FD, SourceLocation Loc, bool Bound = false);

  ASTContext &Ctx;
  KernelModel &Model;
  DeviceOpsFinder &Finder;
  KernelSequence &Out;
  /// Helpers whose walk showed no event with no shared buffer passed (for
  /// all kernels of the TU).
  llvm::DenseSet<const FunctionDecl *> &Quiet;
  LocalAliases &Aliases;
  ThreadGuards &Guards;
  StageSlices &Slices;
  /// The stages named so far (Event::Slice), by key.
  llvm::StringMap<int> SliceIds;
  /// The kernel body's statement being walked (a helper's call).
  const Stmt *BodyStmt = nullptr;
  /// Helpers with a loop on the walk's stack.
  unsigned LoopyHelpers = 0;
  /// The statement of the innermost helper being walked, and each helper
  /// call on the stack numbered (a stage spelled with a helper's locals is
  /// one only within the same call).
  const Stmt *HelperStmt = nullptr;
  llvm::SmallVector<unsigned, 8> Calls;
  unsigned CallCount = 0;
  llvm::DenseMap<const FunctionDecl *, bool> Loopy;
  /// Whether the events get thread sets.
  const bool Threads;
  /// The node the events go to, and the threads that run them there
  /// (null: unknown); Guarded as Event::Guarded.
  std::size_t Cur = 0;
  std::shared_ptr<const ThreadSet> Set;
  /// Set when known; else the threads of the nearest dominating block
  /// whose threads are known (Event::ThreadsAtMost).
  std::shared_ptr<const ThreadSet> Most;
  bool Guarded = false;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  struct BufferKey {
    const VarDecl *VD;
    std::string Path;
    PoolRegion Region;
  };
  std::vector<BufferKey> BufferKeys;
  std::vector<int> BufferIds;
  std::vector<std::pair<llvm::FoldingSetNodeID, int>> BarrierKeys;
  std::vector<std::pair<const VarDecl *, std::string>> FamilyKeys;
  std::vector<const VarDecl *> RegionKeys;
  std::vector<const FieldDecl *> PartKeys;
  std::vector<std::tuple<const VarDecl *, std::int64_t, const VarDecl *>>
      WindowKeys;
  std::vector<std::tuple<const Stmt *, const VarDecl *, unsigned>> EpochKeys;
  std::unique_ptr<ParentMap> KernelParents;
  /// Index variables only read and plainly written in the kernel.
  llvm::DenseMap<const VarDecl *, bool> PlainVars;
  std::vector<std::pair<MapAddress, int>> MapKeys;
  MapAddresses Maps{Ctx, Aliases};
  /// Walking a helper, called (or constructed) in the body at ViaLoc.
  bool InHelper = false;
  /// Per helper being walked: its parameters' arguments.
  std::vector<ParamBindings> Frames;
  /// The parameters of every frame being walked and their arguments.
  ParamBindings AllBindings;
  /// Per frame: the object `this` stands for (events::thisObject).
  std::vector<const Expr *> This;
  SourceLocation ViaLoc;
  /// The calls of the helpers being walked, outermost (ViaLoc) first.
  llvm::SmallVector<SourceLocation, 8> CallLocs;
  /// The writes of the stage and the phase bit of the wait parity() just
  /// read, when they count two different things: for the wait emitted
  /// next (KernelEvent::ParityStep, ParityFlip).
  SourceLocation ParityStep, ParityFlip;
  bool Failed = false;
  llvm::DenseMap<const Expr *, const Expr *> AddressOf;
};

} // namespace clang::tidy::tma::kmodel

#endif // TMA_TIDY_API_KERNELMODELBUILDER_H
