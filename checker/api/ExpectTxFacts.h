//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of tma-expect-tx's sites for the rule model
// (rules/ExpectTxPhase.h): the phases of a body's transaction ops (one
// barrier in one phase region, with why the model cannot count it, when it
// cannot), each folded in a call-site context into the plain record the
// rules judge as a whole; the same phase counted CTA by CTA of the kernel's
// cluster; and a kernel's barriers as a whole (expect-tx with no copy,
// copies with no expect-tx).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_EXPECTTXFACTS_H
#define TMA_TIDY_API_EXPECTTXFACTS_H

#include "api/BarrierFieldUses.h"
#include "api/LaunchCluster.h"
#include "api/MapLink.h"
#include "api/ThreadGuards.h"
#include "api/TxOps.h"
#include "rules/ExpectTxPhase.h"

#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tma {

/// The ops of one barrier in one phase region that holds an expect-tx.
struct TxPhase {
  /// Indices into TxOps::Ops, in source order.
  std::vector<unsigned> Group;
  /// The barrier, for messages.
  std::string Name;
  /// Why the model cannot count the phase; empty when it can.
  std::string Why;
  /// Every reason in Why is one that counting CTA by CTA of the cluster
  /// answers (multicast, a peer's barrier).
  bool Lifted = true;
  /// A multicast or an op on a peer CTA's barrier is in the group.
  bool HasMulticast = false;
  /// How many threads issue each op of Group (MBAR-TX-ISSUERS); empty when
  /// not counted.
  std::vector<unsigned> Issuers;
  /// The kernel's block size (exact or bounded), for notes.
  ::tma::rules::threads::BlockSize Block;
  /// A helper's phase on a barrier field of its parameter that no code
  /// outside the helper completes bytes on: the field (for notes).
  const FieldDecl *HelperField = nullptr;
};

/// A kernel's `__shared__` barrier over all its phases, and where to report.
struct TxPairing {
  ::tma::rules::BarrierPairingFacts Facts;
  const TxOp *FirstExpect = nullptr, *FirstCopy = nullptr;
};

/// What a phase counted CTA by CTA of the cluster needs beyond the
/// folder's context: the cluster, the block, which CTAs run each op of the
/// group and how many threads of a CTA issue it.
struct ClusterCount {
  ClusterSize Cluster;
  ::tma::rules::threads::BlockSize Block;
  std::vector<llvm::SmallVector<bool, 16>> In;
  std::vector<unsigned> Issuers;
};

/// An op of another CTA (or a multicast) among what one CTA receives: for
/// notes.
struct ClusterArrival {
  unsigned Op;
  uint64_t From, Mask;
  bool Remote;
  unsigned Issuers;
};

class ExpectTxFacts {
public:
  ExpectTxFacts(ASTContext &Ctx, std::shared_ptr<ConstantFolder> Folder,
                std::shared_ptr<DeviceOpsFinder> Finder);

  /// The transaction ops of \p Body.
  TxOps opsOf(const Stmt *Body, const SourceManager &SM) {
    return Collector.collect(Body, SM);
  }

  /// The kernel-wide facts of each `__shared__` barrier of kernel \p Fn
  /// whose every use is a recognised op, when every op's barrier is
  /// identified. ExpectsBytes is folded (in the contexts of \p Fn,
  /// \p Contexts) only for a barrier with no copy.
  std::vector<TxPairing> pairingsOf(const FunctionDecl *Fn, const TxOps &T,
                                    bool Contexts);

  /// The phases of \p T in \p Fn that hold an expect-tx (counted or not),
  /// in the order of their regions and leaders.
  std::vector<TxPhase> phasesOf(const FunctionDecl *Fn, bool Kernel,
                                const TxOps &T, const SourceManager &SM);

  /// Phase \p P folded in \p Context (the folder is left in it).
  ::tma::rules::PhaseFacts phaseFactsIn(const TxPhase &P, const TxOps &T,
                                        const CallContext *Context,
                                        const ParentMap &PM);

  /// What counting \p Group CTA by CTA of \p Fn's cluster needs, or
  /// std::nullopt when the cluster, a rank-dependent jump, an op's issuers
  /// or the CTAs that run it are unknown.
  std::optional<ClusterCount>
  clusterCountOf(const FunctionDecl *Fn, const TxOps &T,
                 const std::vector<unsigned> &Group);

  /// The phase of \p Group counted CTA by CTA in the folder's current
  /// context, up to the first CTA that cannot be counted; \p Arrivals: per
  /// CTA, the multicasts and peer ops it receives.
  ::tma::rules::ClusterPhaseFacts
  clusterFactsIn(const ClusterCount &C, const TxOps &T,
                 const std::vector<unsigned> &Group, const std::string &Name,
                 std::vector<std::vector<ClusterArrival>> &Arrivals);

  /// Why the bytes op \p I of \p Tx counts (an expect-tx) or delivers (a
  /// copy) do not fold in \p Context: the operand, the map's link, the
  /// map's field, the loop's trip count.
  std::string unknownBytesWhy(const TxOps &Tx, unsigned I,
                              const CallContext *Context, const ParentMap &PM,
                              const SourceManager &SM);

  /// The value of operand \p V in the current context.
  ::tma::rules::Known foldOperand(const OpValue &V);
  /// The bytes a counted copy delivers in the current context.
  ::tma::rules::Known delivered(const DeviceOp &Op);
  /// The bytes \p T delivers, with its map linked in its helper's context.
  ::tma::rules::Known deliveredBy(const TxOp &T);

  MapLinker &linker() { return Linker; }
  ConstantFolder &folder() { return *Folder; }

private:
  /// Why the phase of helper \p Fn on barrier \p Id, a barrier of its
  /// callers, is not the barrier's whole phase; empty when it is: \p Id is
  /// an element of a `cuda::barrier` field of Fn's parameter and every use
  /// of that field outside Fn's instantiations is an init, a wait or a
  /// plain arrive.
  std::string helperBarrierWhy(const FunctionDecl *Fn,
                               const BarrierIdentity &Id,
                               const SourceManager &SM);
  /// What barrier \p Id is to helper \p Fn (its parameter, a reference
  /// member of one) and the first call of Fn, whose caller's phase holds
  /// the helper's ops: for the Why of a phase on its callers' barrier.
  /// The run-time values the expression \p E reads (kernel parameters,
  /// written variables, calls), for a Why; through the parameters of the
  /// helpers of \p Context and const locals.
  void runTimeInputs(const Expr *E, const CallContext *Context,
                     std::vector<std::string> &Out, unsigned Depth);
  std::string callersWhy(const FunctionDecl *Fn, const BarrierIdentity &Id,
                         const SourceManager &SM);
  /// The value of \p V, an operand of \p T, in the CTA of rank \p R.
  ::tma::rules::Known valueIn(const TxOp &T, const OpValue &V, uint64_t R);
  /// Whether \p C holds in the CTA of rank \p R.
  std::optional<bool> holds(const Expr *C, uint64_t R);
  /// Whether \p T runs in the CTA of rank \p R.
  std::optional<bool> runsIn(const TxOp &T, uint64_t R);
  /// The CTA whose barrier a Remote op issued in CTA \p From names.
  std::optional<uint64_t> targetOf(const TxOp &T, uint64_t From, uint64_t Ctas);

  ASTContext &Ctx;
  std::shared_ptr<ConstantFolder> Folder;
  std::shared_ptr<DeviceOpsFinder> Finder;
  MapLinker Linker;
  /// The threads that issue each op (MBAR-TX-ISSUERS).
  ThreadGuards Guards;
  /// Values that depend on the CTA's rank in its cluster (multicast).
  ClusterRank Ranks;
  /// Barrier addresses mapped to a peer CTA (`mapa`).
  PeerAddresses Peers;
  /// Who else uses a helper's barrier field.
  BarrierFieldUses FieldUses;
  TxOpCollector Collector;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_EXPECTTXFACTS_H
