//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// How a function body steps a ring's stage and its phase bit (WaitParity.h,
// the stage and phase pair): every write of the two must keep them the
// position and lap of one count g, stage = g - lap * S and phase = first ^
// (lap & 1). The body may step them inline, through a lambda capturing them
// by reference (its body is part of the function's), through a helper
// taking them by reference whose body steps its parameters so, or by a
// stride n (`phase ^= ((stage + n) / S) & 1; stage = (stage + n) % S;`,
// `stage += n; phase ^= (stage / S) & 1; stage %= S;`), which keeps the
// pair whatever n >= 0 is. Flow-insensitive: each write must be one of
// these forms, wherever it lies.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_RINGSTEPS_H
#define TMA_TIDY_API_RINGSTEPS_H

#include "api/WaitParityWalks.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>

namespace clang::tidy::tma::waitparity {

class RingSteps {
public:
  using ParentsFn = std::function<const ParentMap &(const FunctionDecl *)>;
  RingSteps(FoldFn Fold, ParentsFn Parents)
      : Fold(std::move(Fold)), Parents(std::move(Parents)) {}

  /// What stages() proves: the wrap size, and whether a stride steps the
  /// ring (then a wait's first pass may lie on a later lap than the first).
  struct Ring {
    std::uint64_t Stages = 0;
    bool Strides = false;
  };
  /// The ring, when every write of \p St and \p Ph in \p F's body (lambdas
  /// in it included) keeps them a stage and its phase bit (the file
  /// comment); \p Decls: the statements that declare them there.
  std::optional<Ring>
  stages(const FunctionDecl *F, const VarDecl *St, const VarDecl *Ph,
         llvm::SmallVectorImpl<const DeclStmt *> &Decls);

private:
  /// What the writes in one body are.
  struct Sites;
  /// A helper's parameters \p StI and \p PhI (references) stepped so by
  /// its body: the wrap size, and whether every step in it is a stride
  /// (Exact: right from a stage not yet wrapped at S too).
  struct Helper {
    std::uint64_t Stages = 0;
    bool Exact = false;
    bool Strides = false;
  };
  std::optional<Helper> helper(const FunctionDecl *FD, unsigned StI,
                               unsigned PhI, unsigned Depth);
  /// The writes of \p St and \p Ph under \p Body, judged together.
  std::optional<Helper> judge(const Stmt *Body, const ParentMap &PM,
                              const VarDecl *St, const VarDecl *Ph,
                              unsigned Depth,
                              llvm::SmallVectorImpl<const DeclStmt *> &Decls);

  FoldFn Fold;
  ParentsFn Parents;
  llvm::DenseMap<std::tuple<const FunctionDecl *, unsigned, unsigned>,
                 std::optional<Helper>>
      Helpers;
};

} // namespace clang::tidy::tma::waitparity

#endif // TMA_TIDY_API_RINGSTEPS_H
