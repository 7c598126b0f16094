//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The kernel model (design.md, "The kernel model"): a kernel's ordering
// events and the control flow between them, built on Clang's CFG. The
// kernel's body and each __device__ helper it calls get one CFG each (every
// expression an element, in evaluation order; built once per function of
// the TU); the kernel's blocks become the nodes of a rules/OrderingFlow in
// reverse post-order, and a helper's blocks are spliced in at its call, its
// returns leading back to the call's block; a helper that provably shows
// no event (showsNothing: no op, no asm instruction the model reads, no
// `__shared__` variable named, no parameter bound to a shared buffer or a
// kernel's tensor map, the same for what it calls) gets neither CFG nor
// walk. Events attach to the node of the element that issues them. The device ops come from
// api/DeviceOpsFinder (each op is recognised there and nowhere else); this
// file adds what orders them: generic stores to __shared__ buffers,
// __syncthreads and the PTX thread barriers, bulk-group commits and waits
// (with their depth), mbarrier.inval, and everything it cannot follow (an
// unknown call, an unrecognised fence, a helper without a CFG), which it
// records as an opaque event so that rules stay silent across it. A body
// with an indirect goto, asm goto or try makes the kernel unknown, and so
// does a budget of events or nodes exceeded.
//
// The threads that run a block follow from its immediate dominator: the
// same threads when the block post-dominates it, those where the
// dominator's branch condition took the one edge that leads to the block
// otherwise (rules/ThreadSets; `f(t) == V` into a switch's `case V:`),
// unknown where paths under different guards join. Built once per kernel, on first request, and shared.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_KERNELMODEL_H
#define TMA_TIDY_API_KERNELMODEL_H

#include "api/DeviceOpsFinder.h"
#include "api/StageSlices.h"
#include "api/UnseenArrives.h"
#include "api/WaitParity.h"
#include "api/ThreadGuards.h"
#include "rules/OrderingRules.h"
#include "rules/UninitSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tma {

/// Where an event of the kernel model comes from.
struct KernelEvent {
  /// The statement in the kernel's own body: the op, or the call of the
  /// helper that holds it.
  SourceLocation Loc;
  /// The op itself (Loc when it is in the kernel's body).
  SourceLocation OpLoc;
  /// The device op, for op events.
  std::optional<DeviceOp> Op;
  /// The buffer or barrier variable the event names (Object >= 0).
  const VarDecl *Var = nullptr;
  /// The barrier operand of an event read from a call that is no device
  /// op (cuda::barrier's arrive and wait members): a known use of it.
  const Expr *Operand = nullptr;
  /// The event lies in the kernel's own body, not in a helper.
  bool InBody = true;
  /// For an event of a helper that a helper calls: the calls in helper
  /// bodies between Loc and the op, outermost first (ExplainModel's
  /// "through here" notes: which helpers a kernel reaches).
  llvm::SmallVector<SourceLocation, 2> Through;
  /// A barrier use with a FirstMember: the local its index reads, and the
  /// value that local starts at.
  const VarDecl *IndexVar = nullptr;
  long long IndexStart = 0;
  /// A copy whose buffer the model cannot name (Object < 0): what the
  /// address is rooted at instead, for the rules' silences; empty otherwise.
  std::string Unnamed;
  /// An opaque event that is an inline PTX instruction the model lacks,
  /// none of the mbarrier ones, or a toolkit intrinsic (a fence, an
  /// atomic) not named for barriers: it initialises no barrier.
  bool NoInit = false;
  /// A wait whose stage and phase bit count two different things
  /// (MBAR-WAIT-PARITY): the write that steps the stage and the one that
  /// flips the phase, for the notes; invalid otherwise.
  SourceLocation ParityStep, ParityFlip;
};

/// Where a barrier of an `extern __shared__` byte pool lies (rules/
/// UninitSite, MBAR-UNINIT).
using PoolSlot = ::tma::rules::ordering::PoolSlot;

/// One kernel's events; Events[i] describes Seq[i].
struct KernelSequence {
  std::vector<::tma::rules::ordering::Event> Seq;
  /// The control flow between them: blocks of the kernel's CFG, with each
  /// helper's CFG spliced in at its call.
  ::tma::rules::ordering::Flow G;
  std::vector<KernelEvent> Events;
  /// The variable of each object id (several ids may share one: fields of
  /// a struct, barriers with different index expressions), and its name in
  /// messages.
  std::vector<const VarDecl *> Objects;
  std::vector<std::string> Names;
  /// Per object id (absent past its end): the slot of a pool's barrier.
  std::vector<std::optional<PoolSlot>> PoolSlots;
  /// The block sizes the kernel may run with (its launches,
  /// `__launch_bounds__`), for the events' thread sets.
  ::tma::rules::threads::BlockSize Block;
  /// Something the events do not show may arrive on a barrier (api/
  /// UnseenArrives, or an opaque event that may be an mbarrier op); asked
  /// only of kernels with a wait on a ring's phase (MBAR-WAIT-PARITY).
  bool UnseenArrives = false;
};

/// Local pointers and references that stand for their initialiser (`T *sC
/// = smem + off;`, `SMem &s = *reinterpret_cast<SMem *>(smem);`): a
/// reference, or a pointer that is never written nor has its address taken
/// after its initialisation; likewise integer locals (`uint32_t addr =
/// base + off;`), for the shared addresses of inline PTX; a const local
/// even when a lambda captures it by reference; a local declared without
/// an initialiser and assigned by the next statement, never written again
/// (`int smem; smem = cvta(buf);`). Memoised per function.
class LocalAliases {
public:
  /// The pointer an address helper call converts (`smem_u32(p)`,
  /// `__cvta_generic_to_shared(p)`), as DeviceOpsFinder knows them; null
  /// for any other call.
  const Expr *helperArgument(const CallExpr &C) const {
    return Finder ? Finder->addressHelperArgument(C) : nullptr;
  }
  DeviceOpsFinder *Finder = nullptr;
  /// The TU's context (integer address arithmetic folds its offsets).
  const ASTContext *Ctx = nullptr;

  /// The initialiser \p VD stands for, or null.
  const Expr *initOf(const VarDecl *VD);
  /// initOf, or the initialiser of a pointer or integer local that is
  /// written only by `+=`, `-=`, `++` and `--` (an address moved within the
  /// buffer it points into: `a += 16` in a loop over a tile): the buffer's
  /// root, not its offset.
  const Expr *rootInitOf(const VarDecl *VD);
  /// Whether no use of the pointer or integer \p VD (a local or a
  /// parameter) may write it.
  bool neverWritten(const VarDecl *VD);

private:
  struct FunctionInfo {
    /// The pointer and integer locals that some use may write.
    llvm::DenseSet<const VarDecl *> Written;
    /// Locals declared without an initialiser and assigned by the next
    /// statement (`int a; a = cvta(buf);`): that assignment.
    llvm::DenseMap<const VarDecl *, const BinaryOperator *> Once;
    /// Locals written only by `+=`, `-=`, `++`, `--`.
    llvm::DenseSet<const VarDecl *> OnlyMoved;
  };
  const FunctionInfo *infoOf(const VarDecl *VD);
  /// Per function.
  llvm::DenseMap<const FunctionDecl *, FunctionInfo> Functions;
};

/// Builds and memoises kernel sequences for one translation unit.
class KernelModel {
public:
  KernelModel(ASTContext &Ctx, std::shared_ptr<DeviceOpsFinder> Finder)
      : Ctx(Ctx), Finder(std::move(Finder)),
        Folder(ConstantFolder::forTranslationUnit(Ctx)), Guards(Ctx, Folder),
        Slices(Ctx, *Folder, Aliases), Parities(Ctx, *Folder) {
    Aliases.Finder = this->Finder.get();
    Aliases.Ctx = &Ctx;
  }
  ~KernelModel();

  /// What the waits' parities are (MBAR-WAIT-PARITY).
  WaitParities &parities() { return Parities; }

  /// The model of the translation unit of \p Ctx, shared by the checks
  /// that hold it (on the TU's shared DeviceOpsFinder).
  static std::shared_ptr<KernelModel> forTranslationUnit(ASTContext &Ctx);

  /// The events of \p Kernel's body; null when the model cannot follow the
  /// body (a goto, too many events) or the body issues no TMA op.
  const KernelSequence *sequenceOf(const FunctionDecl *Kernel);

  /// Clang's CFG of \p Def's body (the folder's, which mayRun reads too)
  /// and what the model reads of it, built once per function of the TU;
  /// null when there is none or the model cannot follow it (an indirect
  /// goto, asm goto, try).
  struct BodyGraph;
  const BodyGraph *graphOf(const FunctionDecl *Def);

  /// What the device ops in reach of a body can give its model: an op
  /// event that makes a kernel's sequence worth building (any op but a
  /// fence), and one whose rules read thread sets (a copy that reads shared
  /// memory, a Store event; a barrier init, for MBAR-INIT-VISIBLE's roles).
  struct Reach {
    bool Tma = false, Threads = false;
  };

  /// Whether the barrier index \p Index takes every one of \p Members
  /// values where it is evaluated: it is the counter of a loop `for (int
  /// s = 0; s < Members; ++s)` that nothing else writes, and the
  /// expression lies in that loop's body on every pass (no branch, nested
  /// loop or jump around it; a guard every pass takes alike is fine). An
  /// init there initialises the whole family.
  bool everyMember(const Expr *Index, std::uint64_t Members);
  /// Whether \p S has the same value on every pass of a loop around it.
  bool passInvariant(const Stmt *S);

  /// The number of passes the counted loop that declares the index
  /// \p Index would make from 0 (`for (int s = 0; s < N; ++s)`: N); 0 when
  /// it is no such loop's counter or N does not fold. The members of a
  /// byte pool's barrier family (`base + OFF + s * 8`) are as many as its
  /// init loop says (everyMember checks the loop itself).
  std::uint64_t loopBound(const Expr *Index);

  /// Whether the walk of \p Def's body at depth \p Depth of the model's
  /// stack (the kernel's is 1), with no parameter standing for a shared
  /// buffer or a kernel's tensor map, provably shows no event and follows
  /// every statement: no op, no asm instruction the model reads, no
  /// reference to a `__shared__` variable, no lambda, no control flow the
  /// CFG walk gives up on, and every call and construction it may follow
  /// shows none either (to the model's inlining depth). Read from the
  /// finder's lists of the body, without a CFG; memoised per function and
  /// depth. The model then neither builds the helper's CFG nor walks it.
  bool showsNothing(const FunctionDecl *Def, unsigned Depth);

  /// For a helper that builds a shared-memory matrix descriptor from one
  /// of its pointer parameters (its body converts that parameter, and no
  /// other, with `__cvta_generic_to_shared` or an address helper, and it
  /// returns an integer or a descriptor object): the parameter's index.
  /// Memoised.
  std::optional<unsigned> descriptorParam(const FunctionDecl *Def);

  /// For a helper that returns a 64-bit integer whose start-address field
  /// is one of its integer parameters, a 32-bit shared address (`return
  /// encode(addr) | (encode(lbo) << 16) | ...`, `encode(x)` being `(x &
  /// 0x3FFFF) >> 4`): the parameter's index. Its return expression is read
  /// through `|` and `+` (both sides), `>>` and `&` by a constant (their
  /// left side) and calls of such helpers; a `<<` shifts a value into
  /// another field and names no address. None when two parameters reach
  /// it or the body is more than one return. Memoised.
  std::optional<unsigned> descriptorAddressParam(const FunctionDecl *Def);

  /// Whether only \p Kernel's own body may name the dynamic shared-memory
  /// pool: no function it may call (transitively, at any depth) names an
  /// `extern __shared__` variable, and every call is direct. Then a
  /// struct laid over the pool in the kernel is the kernel's alone, and
  /// its references in the body are all there is. \p Why receives the
  /// reason when not. Memoised per kernel; asked only for a finding.
  bool poolPrivate(const FunctionDecl *Kernel, std::string *Why = nullptr);

private:
  using Chain = llvm::SmallVector<const FunctionDecl *, 8>;
  bool silent(const FunctionDecl *Def, unsigned Depth, Chain &Scan,
              bool &Partial);
  /// A call or construction of \p FD in a body walked at \p Depth, as
  /// Builder::callee follows it.
  bool silentCallee(const FunctionDecl *FD, unsigned Depth, Chain &Scan,
                    bool &Partial);

  /// The ops of \p Def's body and of the helpers it calls, to the model's
  /// inlining depth (\p Depth: the callee's place on the walk's stack, the
  /// kernel's being 1), read from the AST without building a CFG: a
  /// superset of what the model's walk meets. \p Walked holds the
  /// functions of this kernel's question seen so far; \p Partial is set
  /// when an answer left out one of them (a cycle), which is then not
  /// memoised.
  Reach reachOf(const FunctionDecl *Def, unsigned Depth,
                llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> &Walked,
                bool &Partial);

  ASTContext &Ctx;
  std::shared_ptr<DeviceOpsFinder> Finder;
  /// The TU's folder: its CFGs (cfgOf) are the model's, and its guards'.
  std::shared_ptr<ConstantFolder> Folder;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, Reach> Reaches;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> Silent;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<KernelSequence>> Memo;
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<BodyGraph>> Graphs;
  llvm::DenseMap<const FunctionDecl *, std::optional<unsigned>> DescParams;
  llvm::DenseMap<const FunctionDecl *, std::optional<unsigned>> AddrParams;
  llvm::DenseMap<const FunctionDecl *, std::string> PoolNamers;
  /// Helpers that show no event unless given a shared buffer: walked once.
  llvm::DenseSet<const FunctionDecl *> QuietHelpers;
  LocalAliases Aliases;
  ThreadGuards Guards;
  StageSlices Slices;
  WaitParities Parities;
  UnseenArrives Unseen{Ctx};
};

/// The region of the dynamic shared-memory pool an address lies in: the
/// constant byte offset at which the pointer or integer-window arithmetic
/// carves it out (`smem + 16384`, `(float *)(smem + OFF)`, `base + OFF`),
/// after the last field selected; run-time terms (`s * STAGE`, a lane's
/// offset, a call) keep the region's base, as members of a family.
/// Regions at different offsets are different buffers. Known is false when
/// a term may carve any region (a kernel parameter, `c ? a : b`): such an
/// address is told apart from every region (no report pairs it with one).
struct PoolRegion {
  std::int64_t Bytes = 0;
  bool Known = true;
  /// The address is the region's start: no run-time term moved it (a
  /// tensor copy from there spans the region as one from an array does).
  /// Not part of the region's identity.
  bool Start = true;
  bool operator==(const PoolRegion &O) const {
    return Bytes == O.Bytes && Known == O.Known;
  }
};

/// The `__shared__` variable that \p E addresses or designates, through
/// subscripts, members, address-of, dereferences, casts and pointer
/// arithmetic; \p Whole is set when nothing selected a part of it. A
/// parameter found in \p Bindings stands for its argument, a local alias
/// known to \p Aliases for its initialiser.
using ParamBindings = llvm::DenseMap<const ParmVarDecl *, const Expr *>;
/// \p Path, when given, receives the fields selected on the way
/// (".a.b"), which tell apart the members of a shared struct. With
/// \p Access, \p E is an lvalue read or written: a pointer parameter read
/// or written itself (not through a subscript or dereference) is no access
/// to the buffer it points into.
/// \p Region, when given, receives where in an `extern __shared__` pool
/// the address lies (see PoolRegion); it stays at offset 0 for any other
/// variable.
const VarDecl *sharedRoot(const Expr *E, bool &Whole,
                          const ParamBindings *Bindings = nullptr,
                          std::string *Path = nullptr, bool Access = false,
                          LocalAliases *Aliases = nullptr,
                          PoolRegion *Region = nullptr);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_KERNELMODEL_H
