//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Which threads of a block run an operation (tma-rules.md 11.A: "which
// threads run each one"): the guards around it as conditions on the
// thread's rank t in the block (threadIdx.x of a one-dimensional block;
// api/ThreadGuards spells threadIdx.x, .y, .z of a known 2-D or 3-D shape
// as functions of t), and how many
// threads that is for a block size. A condition is a small expression tree
// over integer functions of t (`t / 32`, `t % 128`, `(t >> 5) & 3`) and
// `elect.sync` (the lowest active lane of each warp that runs it), so that
// counts and inclusions are decided by enumerating the block's threads:
// exact for every guard the tree can spell, and nothing is guessed for the
// others (the caller has no ThreadSet then).
//
// Whether thread t runs an operation does not depend on the block size
// (given t < size), so a count grows with the block size: a count that is
// the same at the smallest and the largest size the kernel may run with is
// proven.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_THREADSETS_H
#define TMA_TIDY_RULES_THREADSETS_H

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tma::rules::threads {

/// One step of an integer function of t, applied in order.
struct Step {
  enum Op { Div, Mod, And, Shr, Shl, Add, Sub, Mul } Kind = Add;
  std::int64_t Value = 0;
};
/// f(t): the steps applied to t in order (none: t itself).
using ThreadExpr = std::vector<Step>;

enum class Cmp { EQ, NE, LT, LE, GT, GE };

/// A condition on the thread.
struct Cond {
  enum Kind {
    True,  ///< holds in every thread (a condition uniform over the block)
    Atom,  ///< Expr Op Value
    And,   ///< Kids[0] && Kids[1] (Kids[1] is evaluated where Kids[0] holds)
    Or,    ///< Kids[0] || Kids[1]
    Not,   ///< !Kids[0]
    Elect, ///< elect.sync: the lowest active lane of each warp
  } K = True;
  ThreadExpr Expr;
  Cmp Op = Cmp::EQ;
  std::int64_t Value = 0;
  std::vector<Cond> Kids;

  static Cond atom(ThreadExpr E, Cmp Op, std::int64_t V);
  static Cond both(Cond A, Cond B);
  static Cond either(Cond A, Cond B);
  static Cond negate(Cond A);
  static Cond elect();
};

/// The threads that run an operation: the guards around it, outermost
/// first, each with the branch taken (true: the condition held).
struct ThreadSet {
  std::vector<std::pair<Cond, bool>> Guards;
  /// The set of the operations under one more guard.
  ThreadSet under(Cond C, bool Holds) const;
};

/// The block sizes a kernel may run with (threads of the block).
struct BlockSize {
  unsigned Min = 1, Max = 1024;
  bool exact() const { return Min == Max; }
};

/// Bounds on the block size of a kernel: the block dimension of every
/// launch in the translation unit (\p Launch, when all agree), else at most
/// `__launch_bounds__` (\p MaxThreads) and the hardware's 1024.
BlockSize blockSizeOf(std::optional<unsigned> Launch,
                      std::optional<unsigned> MaxThreads);

/// Whether f(t) has one value across each warp (`t / 32`, `t >> 6`).
bool warpUniform(const ThreadExpr &F);

/// Whether thread \p T runs an operation of \p S in a full block.
bool contains(const ThreadSet &S, unsigned T);

/// How many threads of a block of \p Block threads run the operation.
unsigned countAt(const ThreadSet &S, unsigned Block);

/// MBAR-TX-ISSUERS: how many threads issue an operation of \p S, when the
/// same for every block size in \p B.
std::optional<unsigned> issuers(const ThreadSet &S, BlockSize B);

/// The lowest thread in \p A but not in \p B, when there is one below
/// B.Max.
std::optional<unsigned> firstOutside(const ThreadSet &A, const ThreadSet &B,
                                     BlockSize Block);

/// Every thread of \p A (below Block.Max) is in \p B.
bool includedIn(const ThreadSet &A, const ThreadSet &B, BlockSize Block);

/// Every warp that holds a thread of \p A (below Block.Max) holds one of
/// \p B too: a warp barrier (`__syncwarp`) in each warp orders what B's
/// threads did before it with what A's do after it.
bool inWarpsOf(const ThreadSet &A, const ThreadSet &B, BlockSize Block);

/// \p A has a thread below Block.Max and none of its threads there is in
/// \p B: whichever non-empty subset of A runs an operation (a loop body
/// whose condition the model cannot read), it runs in a thread outside B.
bool allOutside(const ThreadSet &A, const ThreadSet &B, BlockSize Block);

/// The lowest and the highest thread of \p S in a block of \p Block
/// threads, when it has one.
std::optional<std::pair<unsigned, unsigned>> span(const ThreadSet &S,
                                                  unsigned Block);

/// Some warp holds a thread of \p A and one of \p B (below Block.Max): a
/// warp barrier may order what B's threads did with what a subset of A's
/// does after it.
bool shareAWarp(const ThreadSet &A, const ThreadSet &B, BlockSize Block);

/// Some thread that surely exists runs \p A and none of \p B: the lowest such
/// thread lies below the block size that every launch has. A kernel whose
/// code tells its threads apart is taken to run at least one warp (the
/// block's lower bound is raised to 32) -- the policy of the ordering rules
/// that compare the threads of two operations.
bool provenOutside(const ThreadSet &A, const std::vector<const ThreadSet *> &B,
                   BlockSize Block);

} // namespace tma::rules::threads

#endif // TMA_TIDY_RULES_THREADSETS_H
