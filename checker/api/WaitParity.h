//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The phase a ring's barrier is in, as a wait's parity operand names it
// (issue 24 item 1, MBAR-WAIT-PARITY). A wait on member m of a ring of S
// barriers, on the n-th time the ring comes back to m (its lap n), must
// name parity (first ^ n) & 1: the api proves one of three forms from the
// source and hands the rule (rules/OrderingRules::waitParity) the parity of
// the first lap:
//   - a counter: member `k % S`, parity `(k / S) & 1`, k a local that
//     starts at 0 and is only ever incremented by one;
//   - a stage and a phase bit: member `stage`, parity `phase`, two locals
//     that start at constants and are only ever changed by `++stage` and a
//     wrap `if (stage == S) { stage = 0; phase ^= 1; }` (or `stage = (stage
//     + 1) % S; if (stage == 0) phase ^= 1;`): the bit flips exactly when
//     the stage wraps, wherever the updates lie (flow-insensitive); also
//     through helpers taking both by reference, lambdas capturing them by
//     reference, and strides (api/RingSteps.h);
//   - a constant parity, or a parity of the member alone (`s & 1`, `(qidx /
//     2) & 1` with the member `qidx`: api/ParityExpr), on a wait that comes
//     back to the same barrier in a later pass of its loop;
//   - one barrier a pass: a barrier the same on every pass of the wait's
//     loop (a fixed one, or a member whose index that loop never writes:
//     `tc[wg_idx]`), waited once a pass with a phase bit flipped once a
//     pass (`tcp ^= 1` in the loop, under no condition that may change
//     between passes): a ring of one stage, its lap a pass;
//   - a stage and a phase bit that count two things: `stage = (stage +
//     1) % S` and a flip of the phase, each once a pass: a lap of one
//     step (case 5), with the two writes for the notes;
//   - a lap of another period (case 5): member `k % S` with parity `(k / T)
//     & 1` (or `k & 1`), T != S, k stepping once a pass; or one barrier
//     waited each pass with the phase of a ring of T > 1 stages (`(k / T) &
//     1`, a stage's phase bit, a PipelineState's `phase()`) whose count
//     steps at most once a pass.
// Anything else is unknown, and the rule stays silent.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_WAITPARITY_H
#define TMA_TIDY_API_WAITPARITY_H

#include "rules/OrderingRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

class ConstantFolder;

struct WaitParity {
  ::tma::rules::ordering::ParityForm Form =
      ::tma::rules::ordering::ParityForm::Unknown;
  /// Constant: the parity; Ring: the parity of the first lap.
  unsigned Bit = 0;
  /// The operand folds to a constant (whatever Form says).
  bool Folds = false;
  /// The model follows the parity, though Form is Unknown: a lap count of
  /// another period on a wait the model does not see come back often
  /// enough (no reason to stay silent about "a parity it cannot follow").
  bool Followed = false;
  /// Period: the steps after which the wait comes back to its member (1:
  /// one barrier, each pass) and the steps after which the parity flips.
  /// Ring: Stages 1 for one barrier waited once a pass with a bit flipped
  /// once a pass (its lap is a pass), else 0.
  std::uint64_t Stages = 0, Period = 0;
  /// Unknown: the barrier's index is a ring the model reads, of RingStages
  /// stages, on an array of another extent (the cross-ring case).
  std::uint64_t RingStages = 0;
  /// Period of a stage and a phase bit that count different things
  /// (stepAndFlip): the write that steps the stage and the one that flips
  /// the phase, for the notes.
  const Stmt *Step = nullptr, *Flip = nullptr;
  /// Ring: a stride steps the ring (api/RingSteps.h), maybe before the
  /// wait's first pass, which may then lie on a later lap than the first.
  bool LaterLaps = false;
};

class WaitParities {
public:
  WaitParities(ASTContext &Ctx, ConstantFolder &Folder)
      : Ctx(Ctx), Folder(Folder) {}

  /// The parity of a wait: \p Parity its operand and \p Index its barrier's
  /// run-time index (null for a barrier named without one; \p Fixed then
  /// says it is one barrier), both as the function that computes them
  /// spells them (helper parameters already replaced by their arguments);
  /// \p Members: the barrier array's extent (0: unknown). \p Kernel and
  /// \p At: the kernel and its body's statement the wait is issued from.
  WaitParity of(const Expr *Parity, const Expr *Index, bool Fixed,
                std::uint64_t Members, const FunctionDecl *Kernel,
                const Stmt *At);

  /// Whether the arrive on a member indexed by \p Index reaches every one
  /// of \p Members: the index is the counter of a `for (int s = 0; s <
  /// Members; ++s)` around it that nothing else writes, under no condition
  /// that may change between passes (a thread guard may stand around it).
  bool everyMember(const Expr *Index, std::uint64_t Members);

  /// What a barrier's run-time index is the first time a kernel statement
  /// runs (MBAR-UNINIT names the member it reaches then).
  struct FirstValue {
    /// The local the index reads, and its initial value.
    const VarDecl *Var = nullptr;
    std::int64_t Start = 0;
    /// The index: Start, or Start % S for `v % S`.
    std::int64_t Value = 0;
  };
  /// The index \p Index (`v`, `v % S`, or a never-written local holding
  /// either) the first time \p At, a statement of \p Kernel's body, runs:
  /// v is a local of the kernel with a constant initialiser, only read or
  /// plainly written (`++v`, `v = ...`, not in a lambda, not bound to a
  /// reference), and no write of it may run before At's first run: each
  /// lies after At in the text (or in the increment of a `for` whose body
  /// holds At), and where a loop holds both, At runs on the first pass of
  /// the innermost one: no loop between them, only conditions that hold
  /// the same way on every pass (thread guards), no `continue` before At.
  /// \p Through, when given, reads a parameter of the helper or lambda
  /// being walked as its argument (`i % S` with `i` a lambda's parameter
  /// that the kernel's counter is passed to).
  std::optional<FirstValue>
  firstValue(const Expr *Index, const FunctionDecl *Kernel, const Stmt *At,
             llvm::function_ref<const Expr *(const Expr *)> Through = {});

private:
  /// Whether no run of the write \p W of a local may precede the first run
  /// of \p At (firstValue).
  bool afterFirstRun(const Stmt *At, const Stmt *W, const ParentMap &PM);
  /// Whether the condition \p S holds the same way on every pass.
  bool invariant(const Stmt *S);
  /// Whether \p P, met going up from its child \p C, runs C alike on
  /// every pass: a condition of P (if, ?:, && or ||) that does not hold C
  /// is invariant.
  bool invariantGuard(const Stmt *P, const Stmt *C);
  /// A ring's index: `k % S` of a counter k, or a stage variable that
  /// wraps at S with a phase bit (Phase).
  struct Ring {
    const VarDecl *Var = nullptr;
    std::uint64_t Stages = 0;
    bool Counter = false;
    const VarDecl *Phase = nullptr;
    unsigned FirstPhase = 0;
    /// A stride steps it.
    bool Strides = false;
  };
  std::optional<Ring> ringIndex(const Expr *Index, const VarDecl *Phase);
  /// Whether \p K is a local that starts at 0 and is only incremented by
  /// one, declared outside any loop of its function (but the `for` whose
  /// init declares it).
  bool counter(const VarDecl *K);
  /// Whether \p St and \p Ph are a stage and its phase bit (see the file
  /// comment); sets the wrap size and Ph's initial value.
  bool stageAndPhase(const VarDecl *St, const VarDecl *Ph,
                     std::uint64_t &Stages, unsigned &FirstPhase);
  /// Whether \p St is a local PipelineState-like object (CUTLASS): getters
  /// `index()` and `phase()` of two fields, a default construction that
  /// starts the index at 0 and the phase at a constant, and a prefix `++`
  /// that steps the index and, where it reaches S, sets it to 0 and flips
  /// the phase; the kernel only calls its const members and `++` on it.
  /// Sets the wrap size and the first phase.
  bool pipelineState(const VarDecl *St, std::uint64_t &Stages,
                     unsigned &FirstPhase);
  /// Whether the kernel statement \p At runs on every pass of a loop of
  /// \p Kernel (not a spin loop around the wait, under no condition that
  /// may change between passes) that may run more than \p Period passes.
  bool repeats(const FunctionDecl *Kernel, const Stmt *At,
               std::uint64_t Period) {
    return repeatingLoop(Kernel, At, Period) != nullptr;
  }
  /// The loop repeats() finds, else null.
  const Stmt *repeatingLoop(const FunctionDecl *Kernel, const Stmt *At,
                            std::uint64_t Period);
  /// Whether \p V, a local of \p Kernel, is stepped in one statement only
  /// (`++v`, `v += 1`, `v = (v + 1) % S`, a state's `++`; a ring's reset
  /// `v = 0` in its wrap is no step), which lies in \p Loop and in no loop
  /// or lambda inside it: at most one step between two passes of Loop;
  /// with \p Every, under no condition that may change between passes
  /// either: exactly one a pass.
  bool stepsOnceAPass(const VarDecl *V, const FunctionDecl *Kernel,
                      const Stmt *Loop, bool Every);
  /// The stage whose wrap flips the phase bit \p Ph (stageAndPhase), if
  /// any; sets the wrap size.
  const VarDecl *stageOfPhase(const VarDecl *Ph, std::uint64_t &Stages);
  /// Case 5 of MBAR-WAIT-PARITY (api side): a wait at step k of \p Step
  /// (a local of \p Kernel) on member k % \p Stages, or on one barrier
  /// (Stages 1), whose parity, \p Bit at step 0, flips every \p Period
  /// steps. A ring's member follows Step, so Step must step exactly once a
  /// pass of the wait's loop; for one barrier at most once (the flips are
  /// then at most one every Period passes). Form Period where the wait
  /// comes back often enough to show it, else Unknown but Followed.
  WaitParity period(std::uint64_t Stages, std::uint64_t Period, unsigned Bit,
                    const VarDecl *Step, const FunctionDecl *Kernel,
                    const Stmt *At);
  /// One barrier a pass (the file comment): \p Ph a local of \p Kernel
  /// that starts at a constant, declared outside every loop, written only
  /// by one flip (`Ph ^= 1`, `Ph = !Ph`), which runs once on every pass
  /// of the loop the wait at \p At runs in on every pass, a loop no
  /// `continue` or `goto` leaves a pass of early; the barrier the same on
  /// every pass of it (\p Fixed, or an \p Index whose variables it never
  /// writes). The parity of the wait's first pass: Ph's first value,
  /// flipped where the flip comes before the wait in the pass.
  std::optional<unsigned> passPhase(const VarDecl *Ph, const Expr *Index,
                                    bool Fixed, const FunctionDecl *Kernel,
                                    const Stmt *At);
  /// The statement that flips \p Ph (`Ph ^= 1`, `Ph = !Ph`), a local of
  /// \p Kernel that starts at a constant (\p First), declared outside
  /// every loop (but a `for`'s init), written by that flip only, which runs
  /// once on every pass of \p Loop; else null.
  const Stmt *passFlip(const VarDecl *Ph, const FunctionDecl *Kernel,
                       const Stmt *Loop, unsigned &First);
  /// The one write of \p V, a local of \p Kernel, when every reference
  /// to it reads it or is a write \p IsWrite takes (given the reference's
  /// parent and the reference), there is one such write, and V is declared
  /// outside every loop (but a `for`'s init); else null.
  const Stmt *soleWrite(const VarDecl *V, const FunctionDecl *Kernel,
                        llvm::function_ref<bool(const Stmt *, const Stmt *)>
                            IsWrite);
  /// Whether every reference to \p V, a local of \p Kernel, reads it or
  /// is a write \p IsWrite takes (collected in \p Writes, in the text's
  /// order), and V is declared outside every loop (but a `for`'s init).
  bool acceptedWrites(const VarDecl *V, const FunctionDecl *Kernel,
                      llvm::function_ref<bool(const Stmt *, const Stmt *)>
                          IsWrite,
                      llvm::SmallVectorImpl<const Stmt *> &Writes);
  /// Whether the declaration \p Declared lies in no loop but as the init
  /// of a `for`: it runs once.
  static bool declaredOnce(const DeclStmt *Declared, const ParentMap &PM);
  /// Which statement of \p Loop's body holds \p S (its position), when no
  /// `continue` of Loop or `goto` may end a pass early; else none.
  std::optional<unsigned> passSlot(const Stmt *S, const Stmt *Loop,
                                   const FunctionDecl *Kernel);
  /// A stage and a phase bit that count two different things (issue 24
  /// item 1, the contradicting step forms): \p St written only by one `St
  /// = (St + 1) % S` and \p Ph only by one flip, both once on every pass
  /// of the loop the wait at \p At runs in, S the array's \p Members
  /// (when known): the member is the step's k % S, the parity flips every
  /// step, a lap of period 1 (case 5: period()), with the two writes.
  WaitParity stepAndFlip(const VarDecl *St, const VarDecl *Ph,
                         std::uint64_t Members, const FunctionDecl *Kernel,
                         const Stmt *At);
  /// Whether \p Step, a statement of \p Kernel in \p Loop, runs at most
  /// once a pass of it: in no loop, lambda or switch inside it; with \p
  /// Every, under no condition that may change between passes either.
  bool onceAPass(const Stmt *Step, const FunctionDecl *Kernel, const Stmt *Loop,
                 bool Every);
  /// Whether \p Index names the same value on every pass of \p Loop: its
  /// variables are locals or parameters that \p Loop never writes (and
  /// whose address nothing takes), read through no call, subscript or
  /// pointer; `threadIdx.x` and constants are fine.
  bool fixedIn(const Expr *Index, const FunctionDecl *Kernel, const Stmt *Loop);
  /// The passes of a loop, where they fold (`do ... while (0)`: 1).
  std::optional<std::uint64_t> trips(const Stmt *Loop);
  std::optional<std::int64_t> fold(const Expr *E);
  const Expr *localInit(const Expr *E);
  /// The references to \p VD in \p Body, in the order a walk of it meets
  /// them (forEachRef's): one walk of each body indexes all its variables,
  /// instead of a walk of the whole kernel per question.
  llvm::ArrayRef<const DeclRefExpr *> refsIn(const Stmt *Body,
                                             const VarDecl *VD);
  template <typename Fn>
  void eachRef(const Stmt *Body, const VarDecl *VD, Fn &&F) {
    for (const DeclRefExpr *D : refsIn(Body, VD))
      F(D);
  }

  ASTContext &Ctx;
  ConstantFolder &Folder;
  llvm::DenseMap<const VarDecl *, bool> Counters;
  llvm::DenseMap<std::pair<const VarDecl *, const VarDecl *>,
                 std::optional<std::pair<std::uint64_t, unsigned>>>
      Rings;
  /// The stage and phase pairs of Rings that a stride steps.
  llvm::DenseSet<std::pair<const VarDecl *, const VarDecl *>> Strided;
  llvm::DenseMap<const VarDecl *,
                 std::optional<std::pair<std::uint64_t, unsigned>>>
      States;
  /// firstValue's index locals: every write of one (increments and
  /// assignments), none when some reference may write it otherwise. Found
  /// once per local, not once per use.
  llvm::DenseMap<const VarDecl *,
                 std::optional<llvm::SmallVector<const Stmt *, 4>>>
      IndexWrites;
  /// refsIn's index: per body, the references to each variable.
  llvm::DenseMap<const Stmt *,
                 llvm::DenseMap<const VarDecl *,
                                llvm::SmallVector<const DeclRefExpr *, 4>>>
      Refs;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_WAITPARITY_H
