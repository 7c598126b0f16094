//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Addresses of a peer CTA's shared memory made by `mapa.shared::cluster`:
// the same variable, in the CTA of a given rank of the cluster. A copy whose
// barrier operand is such an address completes its bytes on that CTA's
// barrier (a DSMEM push, `.cta_group::2`), and an expect-tx on it counts
// there; the expect-tx accounting of a cluster asks here which barrier and
// which rank. Recognised: an asm statement that holds only
// `mapa.shared::cluster.{u32,b32,u64,b64} %0, %1, %2;` writing a local that
// nothing else writes, a helper that returns such a local (`map_to_cta(p,
// rank)`, `cute::set_block_rank`), and never-written locals initialised
// from either.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_PEERADDRESS_H
#define TMA_TIDY_API_PEERADDRESS_H

#include "api/DeviceOpsFinder.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang::tidy::tma {

/// `mapa` of \p Local (an address of this CTA's shared memory, as the code
/// wrote it) to the CTA of rank \p Rank.
struct PeerAddress {
  const Expr *Local = nullptr;
  const Expr *Rank = nullptr;
};

/// The operands of an asm statement that holds only one `mapa` into
/// shared::cluster: output, address, rank; std::nullopt for other asm.
struct MapaAsm {
  const Expr *Out = nullptr, *Addr = nullptr, *Rank = nullptr;
};
std::optional<MapaAsm> mapaAsm(const GCCAsmStmt &S);

class PeerAddresses {
public:
  PeerAddresses(DeviceOpsFinder &Finder, ConstantFolder &Folder)
      : Finder(Finder), Folder(Folder) {}

  /// \p E as a peer address, or std::nullopt.
  std::optional<PeerAddress> peerOf(const Expr *E, unsigned Depth = 0);

  /// For a call of a mapa helper, the argument it maps (keeps the
  /// variable's identity, like an address helper); otherwise null.
  const Expr *mappedArgument(const CallExpr &Call);

private:
  /// For a helper returning a mapa of its parameters: the indexes of the
  /// address and rank parameters.
  std::optional<std::pair<unsigned, unsigned>> helperParams(
      const FunctionDecl *FD);
  /// The mapa that writes the local \p VD, when it is its only write.
  std::optional<MapaAsm> onlyWriter(const VarDecl *VD);

  DeviceOpsFinder &Finder;
  ConstantFolder &Folder;
  llvm::DenseMap<const FunctionDecl *,
                 std::optional<std::pair<unsigned, unsigned>>>
      Helpers;
  llvm::DenseMap<const VarDecl *, std::optional<MapaAsm>> Writers;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_PEERADDRESS_H
