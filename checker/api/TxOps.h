//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The transaction ops of a function body for tma-expect-tx: every expect-tx
// and copy that completes bytes on an mbarrier, with its barrier's identity,
// its phase region and what the model can count of it (TxRole); the ops of
// `__device__` helpers seen at their calls (a few levels deep, the barrier
// followed from parameter to argument, or to a field of a method's object);
// and the waits and inits that separate phases across a loop boundary.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_TXOPS_H
#define TMA_TIDY_API_TXOPS_H

#include "api/BarrierPhases.h"
#include "api/ClusterRank.h"
#include "api/DeviceOpsFinder.h"
#include "api/PeerAddress.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/ParentMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::tma {

/// What a transaction op does on its barrier.
enum class TxRole {
  Expect, ///< an expect-tx the model counts
  Copy,   ///< a 1-D bulk copy the model counts
  /// A load the model counts but for its CTA mask: its bytes complete on
  /// the barrier of every CTA of the mask (counted per CTA of a cluster).
  Multicast,
  /// A counted copy or expect-tx on the barrier of the CTA that its mapa
  /// names (TxOp::PeerRank): counted per CTA of a cluster.
  Remote,
  Unknown, ///< completes bytes the model cannot count (tensor, reduce...)
};

struct TxOp {
  DeviceOp Op;
  const Stmt *Site;
  TxRole Role;
  /// Why an op of role Unknown is not counted, set where its role is: how
  /// the op is issued ("is predicated", "is a multicast", "does not run
  /// straight through its helper ..."), for the phase's explanation.
  llvm::StringRef Uncounted;
  std::optional<BarrierIdentity> Id;
  PhasePlace Place;
  SourceLocation Loc;
  /// An op in a __device__ helper: the call of the helper in this body (the
  /// op's Site) and the helper, then the calls of nested helpers down to
  /// the one that holds the op. Its operands fold in the contexts of these
  /// calls.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 1>
      Frames;
  /// A copy of an inner counted loop, counted in the region around the loop
  /// once per iteration.
  const ForStmt *Loop = nullptr;
  /// A copy in a counted loop of its helper (DeepGEMM's `for (i = 0; i <
  /// BLOCK_INNER / ATOM; ++i)` in tma::copy), whose trip count folds in the
  /// helper's call the same in every context: the loop and its trip count,
  /// the copy counted that many times per call.
  const ForStmt *HelperLoop = nullptr;
  const FunctionDecl *HelperLoopIn = nullptr;
  uint64_t Times = 1;
  /// A Remote op: the rank of the CTA whose barrier it names (in the
  /// function that holds the op: the innermost frame's).
  const Expr *PeerRank = nullptr;
  /// PeerRank is an expression of the checked body (not of a helper).
  bool PeerRankHere = false;
  const CallExpr *via() const {
    return Frames.empty() ? nullptr : Frames.front().first;
  }
};

/// The context an op of \p T folds in when its function runs in \p C.
const CallContext *opContext(ConstantFolder &Folder, const TxOp &T,
                             const CallContext *C);

/// `cute::copy(tma.with(bar), src, dst)` with the atom SM90_TMA_LOAD and a
/// dst of static size, as the 1-D copy of dst's bytes it counts as on bar;
/// std::nullopt for another call.
std::optional<BulkCopy> cuteTileLoad(const CallExpr &C, ASTContext &Ctx);

/// The transaction ops of one body, and what separates their phases.
struct TxOps {
  std::vector<TxOp> Ops;
  /// The statements of the body that issue an op (or call a helper that
  /// does): the known uses of a barrier.
  llvm::SmallPtrSet<const Stmt *, 16> OpSites;
  /// The waits that return only once their phase completes.
  std::vector<std::pair<BlockingWait, BarrierIdentity>> Waits;
  /// The barrier inits.
  std::vector<std::pair<const Stmt *, BarrierIdentity>> Inits;
};

/// Collects the transaction ops of function bodies; one per translation
/// unit (it keeps the references of each body it reads).
class TxOpCollector {
public:
  TxOpCollector(ASTContext &Ctx, ConstantFolder &Folder,
                DeviceOpsFinder &Finder, PeerAddresses &Peers)
      : Ctx(Ctx), Folder(Folder), Finder(Finder), Peers(Peers) {}

  /// The ops of \p Body (of a device function or kernel), its helpers' seen
  /// at their calls. Waits, inits and inner counted loops only when there
  /// is an op (most device functions have none).
  TxOps collect(const Stmt *Body, const SourceManager &SM);

  /// The references under a function body (collectRefs), once per body: a
  /// helper's were collected again at every call and for every parameter.
  const std::vector<const DeclRefExpr *> &refsOf(const Stmt *Body);

private:
  ASTContext &Ctx;
  ConstantFolder &Folder;
  DeviceOpsFinder &Finder;
  PeerAddresses &Peers;
  /// A std::map keeps them in place while others are added.
  std::map<const Stmt *, std::vector<const DeclRefExpr *>> RefsOfBody;
};

/// The references under \p S, lambdas' bodies and captures included.
void collectRefs(const Stmt *S, std::vector<const DeclRefExpr *> &Out);

bool sameKey(const BarrierIdentity &A, const BarrierIdentity &B);

/// Whether a use \p DRE of the barrier (or of a local holding its address)
/// only feeds recognised ops (\p OpSites), address conversions, the
/// barrier's own arrive/wait members or its init.
bool isKnownUse(const ParentMap &PM, const DeclRefExpr *DRE,
                const llvm::SmallPtrSetImpl<const Stmt *> &OpSites,
                DeviceOpsFinder &Finder, PeerAddresses &Peers);

/// The variable \p Root and the locals initialised from it (directly or
/// through other such locals): what holds the barrier's address.
llvm::SmallPtrSet<const VarDecl *, 4>
taintedBy(const VarDecl *Root, llvm::ArrayRef<const DeclRefExpr *> BodyRefs,
          const ParentMap &PM, DeviceOpsFinder &Finder, PeerAddresses &Peers);

/// The source text of the barrier expression \p E (one line, outside
/// macros), or its root variable's name.
std::string textOf(const Expr *E, const BarrierIdentity &Id,
                   const SourceManager &SM, const LangOptions &LO);

/// Whether \p Fn is, or lies in, a template instantiation.
bool isInInstantiation(const FunctionDecl *Fn);

/// Whether \p Body holds a return, break, continue, goto or throw under a
/// condition that depends on the CTA's rank in its cluster.
bool rankDependentJump(const Stmt *Body, const ParentMap &PM,
                       ClusterRank &Ranks);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_TXOPS_H
