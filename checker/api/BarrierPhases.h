//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Which barrier, and which phase of it, a device op addresses: the barrier's
// identity (same variable, same array element with the same index
// expression, same pointer once the address conversions are stripped) and
// the phase region (the innermost loop body, or the function body). A first,
// deliberately narrow model for MBAR-TX-EQUALS-BYTES: everything it cannot
// place says so, and callers stay silent.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_BARRIERPHASES_H
#define TMA_TIDY_API_BARRIERPHASES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::tma {

class ConstantFolder;
class DeviceOpsFinder;
struct Wait;

/// The barrier a device op's barrier operand designates.
struct BarrierIdentity {
  /// The barrier object's expression: X of `&X`, the pointer P of `*P` or of
  /// a pointer operand, the lvalue of a `cuda::barrier &` operand.
  const Expr *Object = nullptr;
  /// Object is a pointer to the barrier rather than the barrier itself.
  bool ThroughPointer = false;
  /// The variable Object is rooted at (the array, the object, the pointer).
  const VarDecl *Root = nullptr;
  /// Object is an element or field of Root, a local or parameter of object
  /// or array type, reached without a pointer: two solid identities with
  /// different roots never designate the same barrier.
  bool Solid = false;
  /// The path from Root to the barrier: the root, each field and index
  /// expression (by profile), and ThroughPointer. A barrier reached through a
  /// method of its object (`bar.expect(n)` on `this->b`) gets the same key as
  /// `&bar.b`.
  llvm::FoldingSetNodeID Key;
  /// The fields a method of Object follows from `this` (".b"), for
  /// messages; empty otherwise.
  std::string Member;
  /// The path reads a pointer stored in Root (`pipe.bar`, `pipe.bar->b`,
  /// `ptrs[i]` as the barrier's pointer): a write of Root may redirect it.
  bool ReadsPointer = false;
  /// A barrier of an `extern __shared__` byte pool at an integer
  /// shared-window address (`bars + 40 + s * 8`): its offset in the pool,
  /// and the pool with the run-time term (WindowFamily). Two barriers of
  /// one family at different offsets are different barriers.
  std::optional<std::int64_t> WindowOffset;
  llvm::FoldingSetNodeID WindowFamily;
  /// Its name in messages, as the ordering model's ('smem + 40 + 8 * s').
  std::string WindowName;
  /// Every index on the path folds to a constant (`bar[1]`, `s.full[0]`):
  /// the path's steps, a field or an index's value each. Two solid
  /// identities of one root whose paths are constant and equally long
  /// designate the same barrier exactly when these are equal.
  std::optional<llvm::SmallVector<std::pair<const void *, int64_t>, 2>>
      ConstantPath;
};

/// The identity of the barrier operand \p E (already looked through by
/// DeviceOpsFinder), or std::nullopt when it has no root variable.
std::optional<BarrierIdentity> barrierIdentity(const Expr *E,
                                               const ASTContext &Ctx);

/// The fields from `this` down to \p E (`b`, `this->full`, `st.bars.b`),
/// outermost first: E designates a field of a method's own object. False
/// when E is no such chain (an index or a pointer on the way; with
/// \p PointerFields, `this->bar->b` through a pointer field is a chain).
bool thisFieldPath(const Expr *E,
                   llvm::SmallVectorImpl<const FieldDecl *> &Path,
                   bool PointerFields = false);

/// The identity of the barrier at field path \p Path of \p Object, the
/// implicit object argument of a method call (`bar` of `bar.expect(n)`, `p`
/// of `p->expect(n)`), or std::nullopt when Object has no root variable. A
/// step after a pointer field is an arrow (`pipe.bar->b`); \p Pointer: the
/// path's last field is the pointer to the barrier (`uint64_t *bar`).
std::optional<BarrierIdentity>
memberBarrierIdentity(const Expr *Object,
                      llvm::ArrayRef<const FieldDecl *> Path,
                      const ASTContext &Ctx, bool Pointer = false);

/// Whether two identities with different keys may still designate the same
/// barrier (an alias, or an index expression that may take the same value).
bool mayAlias(const BarrierIdentity &A, const BarrierIdentity &B);

/// A list of barrier identities (the ops of a body, its waits, its inits),
/// indexed by what phasesOf asks of each barrier: the items with its key,
/// and those with another key that may alias it (mayAlias). Keys are
/// bucketed by hash; the may-alias candidates of an identity are the
/// identities that are not solid and the solid ones of its root, less the
/// other constant paths of its own shape (`bar[1]` is never `bar[2]`): a
/// kernel's N constant barriers cost N, not N squared.
class BarrierIndex {
public:
  /// Adds \p Id (kept by address: it must outlive the index) as item
  /// \p Item; items are added in increasing order.
  void add(unsigned Item, const BarrierIdentity &Id);
  /// The items whose key is \p Id's, in increasing order.
  llvm::ArrayRef<unsigned> sameKey(const BarrierIdentity &Id) const;
  /// Calls \p F on each item whose key is not \p Id's but which may alias
  /// it, in no particular order, until F returns true; returns whether it
  /// did.
  bool anyAlias(const BarrierIdentity &Id,
                llvm::function_ref<bool(unsigned)> F) const;

private:
  struct Group {
    const BarrierIdentity *Id;
    llvm::SmallVector<unsigned, 2> Items;
  };
  /// An identity added, and its item.
  struct Entry {
    unsigned Item;
    const BarrierIdentity *Id;
  };
  /// The entries (their positions) of one solid root: by the shape of a
  /// constant path (twice its length, plus one through a pointer), and the
  /// rest.
  struct Root {
    llvm::DenseMap<unsigned, std::vector<unsigned>> Constant;
    std::vector<unsigned> Other;
  };
  std::vector<Entry> Entries;
  std::vector<Group> Groups;
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 1>> GroupsByHash;
  /// The positions of the entries that are not solid.
  std::vector<unsigned> NotSolid;
  llvm::DenseMap<const VarDecl *, Root> Solid;
  std::optional<unsigned> groupOf(const BarrierIdentity &Id) const;
};

/// Where an op sits in its function body.
struct PhasePlace {
  /// The innermost loop body around the op, or the function body.
  const Stmt *Region = nullptr;
  /// The branches between the op and the region: (if statement, else
  /// branch).
  llvm::SmallVector<std::pair<const IfStmt *, bool>, 4> Branches;
  /// Control the model does not follow (switch, ?:, && and ||, a loop
  /// header, a lambda) lies between the op and the region.
  bool Unclear = false;
};

/// The phase place of \p S within \p Body.
PhasePlace phasePlaceOf(const ParentMap &PM, const Stmt *S, const Stmt *Body);

/// The parameter of the helper \p H that the barrier operand \p E (looked
/// through) designates: a pointer parameter, a reference parameter or its
/// address (`&bar` of `semaphore &bar`), through never-written locals
/// initialised so (ThunderKittens' `void const *const ptr = &bar;`). Null
/// for anything else.
const ParmVarDecl *barrierParameter(const Expr *E, const FunctionDecl *H,
                                    DeviceOpsFinder &Finder,
                                    ConstantFolder &Folder);

/// The iterations of the counted loop \p F (`for (T k = A; k < B; ++k)`,
/// also `<=`, `!=`) in the folder's current context; std::nullopt when a
/// bound does not fold or F is no counted loop.
std::optional<uint64_t> tripCount(const ForStmt *F, const ParentMap &PM,
                                  ConstantFolder &Folder);

/// Whether the wait \p W (an mbarrier.try_wait / test_wait) returns only
/// once its phase has completed: its asm statement branches back to a label
/// before the wait until the wait's predicate is set (ThunderKittens' and
/// CUTLASS's `LAB_WAIT: mbarrier.try_wait... @P1 bra DONE; bra LAB_WAIT;`).
bool blocksUntilComplete(const Wait &W);

/// The statement of \p Body that blocks until the phase of the try_wait or
/// test_wait \p W completes when W does not loop itself: \p S, the call
/// that issues W (a cuda::ptx::mbarrier_try_wait* call, or a call of a
/// helper \p Helper whose result is W's predicate, see
/// returnsWaitPredicate), is the whole condition of a loop that runs while
/// it is false and does nothing else (`while (!try_wait(bar, p)) {}`, also
/// `do {} while (!...)` and `for (; !...;)`, a body without asm statements
/// nor calls that may issue ops). Returns that loop, or null.
const Stmt *waitLoopOf(const Stmt *S, const Wait &W, const FunctionDecl *Helper,
                       const ParentMap &PM, DeviceOpsFinder &Finder);

/// Whether \p Helper returns the predicate that its asm statement
/// \p W.Site sets from its try_wait / test_wait (`selp.b32 %0, 1, 0, P1;`
/// into a local returned as the body's last statement and written nowhere
/// else: ThunderKittens' and CUTLASS's try_wait).
bool returnsWaitPredicate(const FunctionDecl *Helper, const Wait &W);

/// Whether the parity \p Parity of a wait straight in the body of \p Loop
/// (at \p WaitStmt) names phase k of the barrier in iteration k (phase 0
/// completing in iteration 0, the prologue's): `k & 1` or `k % 2` of the
/// loop's counted variable from 0, or a local integer of \p Body declared
/// before the loop, flipped once per iteration (`p ^= 1`, `p = p ^ 1`,
/// `p = 1 - p`, `p = !p`) in the loop's increment or straight in its body,
/// and written nowhere else, from 0 (1 when the flip comes before the wait).
bool parityTracksIterations(const Expr *Parity, const Stmt *WaitStmt,
                            const Stmt *Loop, const Stmt *Body,
                            const ParentMap &PM, ConstantFolder &Folder);

/// A wait that returns only once a phase of its barrier has completed, at
/// statement S of the checked body (its call, asm statement or wait loop).
struct BlockingWait {
  const Stmt *S = nullptr;
  /// The parity operand in the body's terms; null with OwnPhase or when it
  /// cannot be followed out of the helpers.
  const Expr *Parity = nullptr;
  /// The wait names the current phase itself (arrive_and_wait): no parity
  /// to check.
  bool OwnPhase = false;
};

/// Whether the phase regions \p A and \p B, the body of a loop and the
/// function body \p Body around it, hold separate phases of one barrier
/// (ThunderKittens' prologue load before the k loop, whose body first
/// waits): the loop sits in Body outside other loops and branches, every
/// op on the barrier (\p Ops: their sites) outside the loop ends before
/// it, and a blocking wait on the barrier (\p Waits: their sites), straight
/// in the loop body, ends before every op on it in the body, and names the
/// phase of each iteration: its parity tracks the iterations
/// (parityTracksIterations) and an init of the barrier (\p Inits: their
/// sites) in Body comes before the loop, so that the prologue's is phase 0;
/// or it waits for the current phase itself (BlockingWait::OwnPhase).
bool separatedByLoopWait(const ParentMap &PM, const SourceManager &SM,
                         const Stmt *A, const Stmt *B, const Stmt *Body,
                         llvm::ArrayRef<const Stmt *> Ops,
                         llvm::ArrayRef<BlockingWait> Waits,
                         llvm::ArrayRef<const Stmt *> Inits,
                         ConstantFolder &Folder);

/// Whether \p Inner lies within \p Outer (or is it).
bool isWithin(const ParentMap &PM, const Stmt *Inner, const Stmt *Outer);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_BARRIERPHASES_H
