//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Stages of a shared buffer as the kernel model names them (issue 24 item
// 1): the address of one stage of a ring (`buf + s * STAGE_BYTES`,
// `&buf[s][0]`, `smem.stage[s]`) turned into a key that two events share
// exactly when they name the same first byte in one pass of the loops
// around them, and the period after which the same expression names the
// same stage again (a ring index `k % S` of the loop's counter: S passes;
// an expression that never changes in the loop: every pass). The model
// (api/KernelModel) asks it for the address of every copy and generic
// write; rules/OrderingRules::waitBeforeReuse compares the keys.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_STAGESLICES_H
#define TMA_TIDY_API_STAGESLICES_H

#include "api/KernelEvents.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::tma {

class ConstantFolder;

struct StageSlice {
  /// The address, spelled canonically: helper parameters and local
  /// pointers replaced by what they stand for, constants folded.
  std::string Key;
  /// As rules::ordering::Event::Period.
  unsigned Period = 0;
  /// The stage is an array (`buf[s]` of `float buf[S][N]`): its bytes.
  std::uint64_t Bytes = 0;
  /// As rules::ordering::Event::Once.
  bool Once = false;
  /// As rules::ordering::Event::PerThread.
  bool PerThread = false;
  /// An integer address with one ring term (`base + s * 8192`): the bytes
  /// from one member to the next (the term's multiplier); 0 otherwise.
  std::uint64_t Stride = 0;
};

class LocalAliases;

class StageSlices {
public:
  StageSlices(ASTContext &Ctx, ConstantFolder &Folder, LocalAliases &Aliases)
      : Ctx(Ctx), Folder(Folder), Aliases(Aliases) {}

  /// The stage the address \p Addr names (or, with \p Element, the stage
  /// that the written element lvalue \p Addr lies in: `buf[s][i]` lies in
  /// `buf[s]`), evaluated in \p Kernel at its statement \p At; \p Subst
  /// gives what helper parameters and local pointers stand for; \p InLoop:
  /// the op lies in a loop of a helper (the kernel's loops are not the
  /// innermost ones). std::nullopt when some part of it may change between
  /// two events of one pass (a variable written in the loop) or the model
  /// cannot spell it.
  std::optional<StageSlice> sliceOf(const Expr *Addr, bool Element,
                                    const FunctionDecl *Kernel, const Stmt *At,
                                    bool InLoop, events::Substitution Subst);

  /// The stage an integer address \p Addr of a written byte lies in:
  /// `member + off` (through never-written locals), where `member` is a
  /// stage of an integer ring address (StageSlice::Stride) and every value
  /// that `off` may take lies in [0, Stride). std::nullopt otherwise.
  std::optional<StageSlice> sliceWithin(const Expr *Addr,
                                        const FunctionDecl *Kernel,
                                        const Stmt *At, bool InLoop,
                                        events::Substitution Subst);

  /// A kernel local stepped round a ring once a pass (issue 24 item 4):
  /// its only write is one statement `s ^= 1`, `s = s ^ 1` (two members)
  /// or `s = (s + 1) % N` (N members, initialised in [0, N)) in a block of
  /// a loop, declared outside that loop, and every other use of it is a
  /// read in the loop's body before that statement.
  struct RingLocal {
    std::uint64_t Members = 0;
    const Stmt *Step = nullptr;
    const CompoundStmt *Block = nullptr;
    const Stmt *Loop = nullptr;
  };
  const RingLocal *ringLocal(const VarDecl *VD, const FunctionDecl *Kernel);

private:
  struct Walk;
  /// Whether the event at \p At runs before \p R's step in the same pass
  /// and is always followed by it: At lies in R's block before the step
  /// and no jump lies between.
  bool beforeStep(const RingLocal &R, const Stmt *At, const ParentMap &PM);
  llvm::DenseMap<const VarDecl *, std::optional<RingLocal>> RingLocals;
  /// Whether the only write of \p K in \p Body is \p F's increment.
  bool steppedOnlyBy(const VarDecl *K, const ForStmt *F, const Stmt *Body);
  /// Whether some use of the local or parameter \p VD may write it (a
  /// store, an increment, its address taken or a capture by reference; any
  /// that is no pointer or integer may).
  bool written(const VarDecl *VD);

  ASTContext &Ctx;
  ConstantFolder &Folder;
  /// The kernel model's: it answers which locals some use may write.
  LocalAliases &Aliases;
  llvm::DenseMap<const VarDecl *, bool> Stepped;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_STAGESLICES_H
