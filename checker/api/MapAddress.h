//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The identity of a tensor map in global memory inside a kernel, for the
// ordering rules that pair a copy reading a map with a write of it
// (TMAP-INFLIGHT-IMMUTABLE, TMAP-PLACE-GLOBAL-FENCE): a pointer whose value
// is the same wherever the kernel reads it, and a constant byte offset.
// The pointer is a never-written pointer parameter of the kernel, or a
// never-written local pointer of the kernel, declared outside every loop,
// that a run-time offset derives from one (`workspace + blockIdx.x`).
// Pointer arithmetic, subscripts and fields with constant operands add to
// the offset, so `p + 1`, `&p[1]` and `&w->b` name the map they point to
// whichever way they are spelt. Two equal addresses are the same map; two
// different ones may still be (an unproven relation is no finding).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_MAPADDRESS_H
#define TMA_TIDY_API_MAPADDRESS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

class LocalAliases;

struct MapAddress {
  /// The pointer the address starts from.
  const VarDecl *Root = nullptr;
  /// Bytes from Root's value.
  std::int64_t Offset = 0;
  bool operator==(const MapAddress &O) const {
    return Root == O.Root && Offset == O.Offset;
  }
};

class MapAddresses {
public:
  /// What a helper's parameter stands for at the call being walked (null
  /// when it is not bound).
  using Binding = llvm::function_ref<const Expr *(const ParmVarDecl *)>;

  MapAddresses(ASTContext &Ctx, LocalAliases &Aliases)
      : Ctx(Ctx), Aliases(Aliases) {}

  /// The address that \p E (a pointer to the map, or an lvalue of it) has in
  /// \p Kernel; std::nullopt when it is not proven.
  std::optional<MapAddress> of(const Expr *E, const FunctionDecl *Kernel,
                               Binding Bound);

private:
  std::optional<MapAddress> resolve(const Expr *E, const FunctionDecl *Kernel,
                                    Binding Bound, bool Loose,
                                    unsigned &Budget);
  /// A local of \p Kernel whose value holds for the whole kernel.
  bool steadyLocal(const VarDecl *VD, const FunctionDecl *Kernel);
  std::optional<std::int64_t> constant(const Expr *E, Binding Bound);
  std::optional<std::int64_t> sizeOf(QualType T);

  ASTContext &Ctx;
  LocalAliases &Aliases;
  /// Per kernel: the locals it declares inside a loop.
  llvm::DenseMap<const FunctionDecl *, llvm::DenseSet<const VarDecl *>>
      LoopLocals;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_MAPADDRESS_H
