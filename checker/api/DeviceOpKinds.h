//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The vocabulary of the device-op model: what kind of operation, which state
// spaces, which tensor mode. Shared by the PTX text parser (pure, unit-tested
// without Clang) and the Clang-side model of api/DeviceOps.h, so that both
// describe an instruction in the same words.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPKINDS_H
#define TMA_TIDY_API_DEVICEOPKINDS_H

namespace tma::device {

/// The kinds of device operation the checker models.
enum class OpKind {
  BulkCopy,    ///< cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.prefetch
  TensorCopy,  ///< cp{.reduce}.async.bulk{.prefetch}.tensor
  ExpectTx,    ///< mbarrier.{arrive.}expect_tx, barrier_{arrive,expect}_tx
  Arrive,      ///< mbarrier.arrive without a transaction count
  BarrierInit, ///< mbarrier.init
  Wait,        ///< mbarrier.try_wait / test_wait
  Fence,       ///< fence.proxy.async, fence.proxy.tensormap, mbarrier_init
  StBulk,      ///< st.bulk: a zero fill of shared memory (PTX 8.6, sm_100)
};

/// A PTX state space, as an instruction qualifier or a cuda::ptx tag names
/// it. Generic: no state space given (generic addressing).
enum class Space { Generic, Global, SharedCta, SharedCluster };

/// The state-space pair of a 1-D bulk copy (tma-rules.md BULK-DIRECTION).
enum class BulkDirection {
  GlobalToShared,  ///< .shared::{cta,cluster}.global, mbarrier completion
  SharedToCluster, ///< .shared::cluster.shared::cta, mbarrier completion
  SharedToGlobal,  ///< .global.shared::cta, bulk async-group completion
  GlobalToL2,      ///< cp.async.bulk.prefetch.L2.global
};

/// What a tensor copy does.
enum class TensorDirection { Load, Store, Reduce, Prefetch };

/// The load (or store) mode qualifier of a tensor copy; Tile when none is
/// written.
enum class TensorMode {
  Tile,
  TileGather4,
  TileScatter4,
  Im2col,
  Im2colW,
  Im2colW128,
  Im2colNoOffs,
};

/// The reduction of cp.reduce.async.bulk{.tensor}; None for plain copies.
enum class ReduceOp { None, Add, Min, Max, Inc, Dec, And, Or, Xor };

/// A memory-consistency scope qualifier; None when none is written.
enum class Scope { None, Cta, Cluster, Gpu, Sys };

/// The fences that order TMA operations.
enum class FenceKind {
  ProxyAsync,       ///< fence.proxy.async{.space}
  TensormapRelease, ///< fence.proxy.tensormap::generic.release.scope
  TensormapAcquire, ///< fence.proxy.tensormap::generic.acquire.scope [a], n
  MbarrierInit,     ///< fence.mbarrier_init.release.cluster
};

} // namespace tma::device

#endif // TMA_TIDY_API_DEVICEOPKINDS_H
