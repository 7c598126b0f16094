//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// What the kernel model's two parts share: its construction
// (KernelModelBuilder.h's Builder, the walk of a kernel's CFG into events) and
// its queries (KernelModel.cpp: reach, silent helpers, CFGs and dominators,
// barrier families, the memoised sequences). Internal to the model.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_KERNELMODELBUILD_H
#define TMA_TIDY_API_KERNELMODELBUILD_H

#include "api/KernelModel.h"
#include "api/LoopParts.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <vector>

namespace clang::tidy::tma {

/// Clang's CFG of one body, with what the model asks of it for every
/// inlining: the reachable blocks in reverse post-order and, per block, its
/// immediate dominator and how it hangs off it.
struct KernelModel::BodyGraph {
  /// ConstantFolder::cfgOf's.
  const CFG *Graph = nullptr;
  /// Reachable blocks, entry first; a successor's first edge comes first.
  std::vector<const CFGBlock *> Order;
  struct Info {
    /// The immediate dominator (null for the entry).
    const CFGBlock *Idom = nullptr;
    /// The block post-dominates its immediate dominator: every thread that
    /// runs the dominator runs it.
    bool Joins = false;
    /// Otherwise, the successor edge of the dominator that every path to
    /// the block takes (-1: none).
    int Edge = -1;
    /// A predecessor of the exit that leaves through a return that is not
    /// the body's last statement, or a call that does not return.
    bool EarlyExit = false;
  };
  std::vector<Info> Blocks;
};

/// Builds the events of \p Kernel's body (helpers spliced in at their
/// calls) into \p Out; false when the model cannot follow the body.
bool buildSequence(ASTContext &Ctx, KernelModel &Model, DeviceOpsFinder &Finder,
                   KernelSequence &Out,
                   llvm::DenseSet<const FunctionDecl *> &Quiet,
                   LocalAliases &Aliases, ThreadGuards &Guards,
                   StageSlices &Slices, bool Threads,
                   const FunctionDecl *Kernel);

namespace kmodel {

constexpr unsigned MaxDepth = 6;
/// How deep the proof that a helper shows nothing goes (CuTe's layout and
/// tuple algebra nests far deeper than the walk follows; a helper proven to
/// show nothing is left out at any depth, as above MaxDepth).
constexpr unsigned MaxSilentDepth = 40;
constexpr std::size_t MaxEvents = 4096;
constexpr std::size_t MaxNodes = 1 << 15;

inline std::optional<std::uint64_t> foldInt(const Expr *E,
                                            const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().isNegative())
    return std::nullopt;
  return R.Val.getInt().getZExtValue();
}

/// The N of a template argument list: its first integral argument.
inline std::optional<std::uint64_t>
firstIntegral(const TemplateArgumentList *Args) {
  if (!Args)
    return std::nullopt;
  for (const TemplateArgument &A : Args->asArray())
    if (A.getKind() == TemplateArgument::Integral)
      return A.getAsIntegral().getZExtValue();
  return std::nullopt;
}

/// Library functions that stand for a bulk-group commit or wait by their
/// name (Builder::namedEvent), unless their body holds the asm
/// (events::groupBodyDecides).
inline bool isCommitName(llvm::StringRef Name) {
  return Name == "cp_async_bulk_commit_group" || Name == "tma_store_arrive";
}
inline bool isWaitGroupName(llvm::StringRef Name) {
  return Name == "cp_async_bulk_wait_group_read" ||
         Name == "cp_async_bulk_wait_group" || Name == "tma_store_wait";
}
/// cuda::ptx's writes of a tensor map (Builder::tensorMapWrite).
inline bool isMapWriteName(llvm::StringRef Name) {
  return Name.starts_with("tensormap_replace_") ||
         Name == "tensormap_cp_fenceproxy";
}

} // namespace kmodel

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_KERNELMODELBUILD_H
