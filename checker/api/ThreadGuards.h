//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The guards of device code as conditions on the thread (rules/ThreadSets):
// `threadIdx.x == 0`, `warp_idx == 0 && lane == 0` with `warp_idx =
// threadIdx.x / 32` (also through `__shfl_sync(~0u, x, 0)` and one-return
// helpers such as `canonical_warp_idx_sync()`), `elect_one_sync()` and
// helpers wrapping `elect.sync`, helpers that return such a condition (a
// one return past `if constexpr` branches: `tl_shuffle_elect<N>()`); conditions that have one value in every
// thread of the block (kernel parameters, constants, blockIdx, gridDim,
// blockDim, loop counters written only with such values) are no guard at
// all. Anything else is unknown, and so are the threads of what it guards.
// The one place that reads guards: the kernel model and tma-expect-tx
// (MBAR-TX-ISSUERS) both ask here. The thread is its linear rank in the
// block (`cg::this_thread_block().thread_rank()`); threadIdx.x is that rank
// unless the kernel's launches give a 2-D or 3-D block, whose dimensions
// then spell threadIdx.x, .y and .z (unknown without launches). Locals
// keep their initial value where every write to them follows the use.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_THREADGUARDS_H
#define TMA_TIDY_API_THREADGUARDS_H

#include "folding/ConstantFolder.h"
#include "rules/ThreadSets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::tma {

/// The builtin variable and field a `threadIdx.x`-like expression reads
/// (clang's __clang_cuda_builtin_vars.h: a property whose getter is
/// `__cuda_builtin_threadIdx_t::__fetch_builtin_x`): ("threadIdx", 'x').
/// Its value never changes in a thread.
inline std::optional<std::pair<llvm::StringRef, char>> cudaBuiltinVar(const Expr *E) {
  if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
    E = P->getResultExpr();
  if (!E)
    return std::nullopt;
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const auto *MD =
      Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  if (!MD || !MD->getIdentifier() || !MD->getParent()->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = MD->getName(), Record = MD->getParent()->getName();
  if (!Name.consume_front("__fetch_builtin_") || Name.size() != 1 ||
      !Record.consume_front("__cuda_builtin_") || !Record.consume_back("_t"))
    return std::nullopt;
  return std::make_pair(Record, Name[0]);
}

class ThreadGuards {
public:
  /// The argument a helper's parameter stands for at the call being walked
  /// (null: unknown).
  using Resolver = llvm::function_ref<const Expr *(const ParmVarDecl *)>;

  ThreadGuards(ASTContext &Ctx, std::shared_ptr<ConstantFolder> Folder)
      : Ctx(Ctx), Folder(std::move(Folder)) {}

  /// \p C as a condition on the thread: Cond::True when it has one value in
  /// every thread of the block; std::nullopt when unknown.
  std::optional<::tma::rules::threads::Cond> condition(const Expr *C,
                                                       Resolver R = nullptr);

  /// Whether \p E has one value in every thread of the block.
  bool uniform(const Expr *E, Resolver R = nullptr);

  /// Whether \p F is a thread-strided loop, `for (int i = f(t); i < N; i
  /// += S)` with f(t) a thread expression (threadIdx.x, a lane or a rank
  /// derived from it) and N and S the same in every thread: its body runs
  /// in every thread that reaches the loop (the threads share the work),
  /// not in a subset chosen by the condition.
  bool threadStrided(const ForStmt &F);
  /// Whether the body of the `for` loop \p F runs at least once in every
  /// thread of a block of \p Block threads that reaches it: a counter
  /// declared by the loop whose first value, a constant or a thread
  /// expression (`i = threadIdx.x`), is below a constant bound (`i < N`,
  /// `i <= N`) in every thread. The loop then has no zero-trip path.
  bool firstPassRuns(const ForStmt &F, ::tma::rules::threads::BlockSize Block);
  /// Whether \p C is a condition on the thread alone: known, and with no
  /// part that is the same in every thread (such a part decides whether
  /// the guarded code runs at all, not in which threads).
  bool threadOnly(const Expr *C);

  /// The threads that run \p S, a statement of the body of \p Fn: the
  /// guards from Fn's body down to S. Unknown (std::nullopt) under a guard
  /// or loop the model cannot read, after a jump under a guard other than
  /// a top-level `if (c) { ...; return; }` (whose condition then guards
  /// what follows), and in code that is not a kernel.
  std::optional<::tma::rules::threads::ThreadSet>
  threadsAt(const Stmt *S, const FunctionDecl *Fn);

  /// The block sizes \p Kernel may run with: the block dimensions of its
  /// launches in this translation unit when all fold to one shape, else at
  /// most its `__launch_bounds__`. Also makes \p Kernel the kernel whose
  /// block shape spells threadIdx.y and .z in the conditions asked next.
  ::tma::rules::threads::BlockSize blockOf(const FunctionDecl *Kernel);

private:
  std::optional<::tma::rules::threads::ThreadExpr>
  threadExpr(const Expr *E, Resolver R, unsigned Depth);
  std::optional<std::int64_t> constant(const Expr *E);
  /// threadIdx.{x,y,z} as a function of the rank, in the current kernel.
  std::optional<::tma::rules::threads::ThreadExpr> threadIndex(char Dim);
  /// Whether \p Use of the local \p VD reads its initial value: every write
  /// (any reference that is not a read) follows it, outside the loops
  /// around it.
  bool initialValueAt(const VarDecl *VD, const Expr *Use);
  bool uniformImpl(const Expr *E, Resolver R, unsigned Depth);
  bool uniformVar(const VarDecl *VD, unsigned Depth);
  // Uniform objects (ThreadGuardsObjects.cpp).
  /// Whether the member call \p MC returns one value in every thread that
  /// makes it: on `this` of the object being proven, or on a kernel local
  /// whose state is alike in every thread that reaches the call.
  bool uniformMemberCall(const CXXMemberCallExpr &MC, Resolver R,
                         unsigned Depth);
  /// Whether the kernel local \p V has one state in every thread that
  /// reaches \p At.
  bool objectAlikeAt(const VarDecl *V, const Expr &At, unsigned Depth);
  bool alikeAt(const VarDecl *V, const Expr &At, unsigned Depth);
  /// The calls on \p V that write its fields, when it starts alike in every
  /// thread and every use is a field read or a member call that writes
  /// uniform values under uniform control; std::nullopt otherwise.
  std::optional<std::vector<const CXXMemberCallExpr *>>
  objectWrites(const VarDecl *V, unsigned Depth);
  /// Whether the method \p MD, its parameters standing for \p R, writes
  /// only uniform values to the fields of its object, under uniform
  /// control, lets no field escape and (\p Returns) returns uniform values.
  bool fieldsKept(const FunctionDecl *MD, Resolver R, unsigned Depth,
                  bool Returns);
  bool methodBody(const FunctionDecl *Def, Resolver R, unsigned Depth,
                  bool Returns);
  /// Whether the statement \p P, the parent of \p Prev, runs Prev under a
  /// uniform condition (or none).
  bool controlUniform(const Stmt *P, const Stmt *Prev, unsigned Depth);
  /// Drops the cached answers given since \p Mark in Assumed.
  void forgetSince(std::size_t Mark);
  bool isElect(const Expr *E, unsigned Depth = 0);
  /// The parameter whose lane-0 value the asm `shfl.sync.idx` wrapper \p FD
  /// returns (`make_warp_uniform(x)`), or null.
  const ParmVarDecl *laneZeroShuffle(const FunctionDecl *FD);
  /// The expression a one-return helper returns, or null.
  const Expr *returnedBy(const FunctionDecl *FD);

  ASTContext &Ctx;
  std::shared_ptr<ConstantFolder> Folder;
  /// Locals known uniform (true) or not; true while being decided (the
  /// hypothesis of an induction over the run).
  llvm::DenseMap<const VarDecl *, bool> UniformVars;
  /// Kernel locals of class type: uniform objects, as UniformVars; and the
  /// calls that write the fields of those proven.
  llvm::DenseMap<const VarDecl *, bool> UniformObjects;
  llvm::DenseMap<const VarDecl *, std::vector<const CXXMemberCallExpr *>>
      ObjectSites;
  /// The locals and objects decided, in order: an answer given while an
  /// earlier one was assumed is dropped when that one is refuted.
  std::vector<std::pair<const VarDecl *, const VarDecl *>> Assumed;
  /// The class whose method is being read: the fields of `*this` are
  /// uniform there (null outside such a method).
  const CXXRecordDecl *ThisObject = nullptr;
  /// The uses of objects being decided by objectAlikeAt.
  llvm::SmallPtrSet<const Expr *, 8> AlikeAsked;
  /// Set when a method read by fieldsKept writes a field.
  bool WroteField = false;
  llvm::DenseMap<const FunctionDecl *, ::tma::rules::threads::BlockSize> Blocks;
  /// Per kernel: the block's x, y, z when all its launches fold to one.
  struct Dim3 {
    unsigned X = 1, Y = 1, Z = 1;
  };
  llvm::DenseMap<const FunctionDecl *, std::optional<Dim3>> Shapes;
  /// The shape of the kernel being asked about (blockOf, threadsAt).
  std::optional<Dim3> Shape;
  /// The nesting of condition() through flags.
  unsigned CondDepth = 0;
  /// Per local: the references that may write it.
  llvm::DenseMap<const VarDecl *, std::vector<const Stmt *>> Writes;
  /// The jumps of each body, collected once.
  llvm::DenseMap<const Stmt *, std::vector<const Stmt *>> Jumps;
  const std::vector<const Stmt *> &jumpsOf(const Stmt *Body);
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_THREADGUARDS_H
