//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The device-op model: what a kernel does with TMA, whichever way it is
// spelled (inline PTX, cuda::ptx, the cde wrappers, cuda::device barriers,
// cuda::memcpy_async, CUTLASS barriers and CuTe copy atoms).
// Plain structs, no rule logic: every recogniser in api/DeviceOpsFinder
// produces these and nothing else, and rules and checks read only these.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPS_H
#define TMA_TIDY_API_DEVICEOPS_H

#include "api/DeviceOpKinds.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace clang::tidy::tma {

/// The model's vocabulary lives outside Clang's namespace (the PTX parser
/// shares it and has no Clang dependency); checks refer to it by this alias.
namespace device = ::tma::device;

/// One operand of a device op.
struct OpValue {
  /// The C++ expression that provides the operand, looked through the
  /// conversions that only turn a pointer into a PTX address
  /// (__cvta_generic_to_shared, integer and pointer casts, one-line address
  /// helpers, never-modified locals initialised by one of these): for a
  /// shared-memory address this is the generic pointer. Null when no C++
  /// expression provides the operand (an immediate or a register of the asm
  /// text).
  const Expr *E = nullptr;
  /// The asm operand or call argument as written. Fold this one for values:
  /// the look-through of E may drop integer conversions.
  const Expr *Written = nullptr;
  /// An immediate written in the asm text (its bit pattern), or the value of
  /// a cuda::ptx::n32_t<N> argument.
  std::optional<std::uint64_t> Imm;
  /// The constant byte offset of an asm memory operand, as in [%1+16].
  std::int64_t Offset = 0;
  /// The op has this operand (false for optional operands it lacks). A
  /// present operand may have neither E nor Imm: a register of the asm text.
  bool Present = false;
};

/// The API through which the code issues an op.
enum class OpApi {
  InlinePtx,  ///< an asm statement
  CudaPtx,    ///< cuda::ptx::*
  Cde,        ///< cuda::device::experimental::*
  CudaDevice, ///< cuda::device::barrier_{arrive,expect}_tx, memcpy_async_tx
  Libcudacxx, ///< cuda::memcpy_async
  Cutlass,    ///< cutlass::arch::Cluster{,Transaction}Barrier
  Cute,       ///< cute::SM90_TMA_{LOAD,LOAD_MULTICAST,STORE}_<N>D::copy
};

/// Where an op is issued.
struct OpSite {
  /// The GCCAsmStmt or the CallExpr.
  const Stmt *Site = nullptr;
  /// The asm statement or the call.
  SourceLocation Loc;
  OpApi Api = OpApi::InlinePtx;
  /// The instruction carries a guard predicate (`@p`): it may not execute.
  bool Predicated = false;
  /// The asm statement also holds TMA or mbarrier instructions the parser
  /// did not recognise (a newer PTX form): what the statement does as a
  /// whole is unknown.
  bool Incomplete = false;
};

/// cp.async.bulk, cp.reduce.async.bulk (Reduce != None) and
/// cp.async.bulk.prefetch (Direction == GlobalToL2).
struct BulkCopy : OpSite {
  device::BulkDirection Direction = device::BulkDirection::GlobalToShared;
  /// SharedCta or SharedCluster for copies into shared memory.
  device::Space DstSpace = device::Space::Generic;
  device::ReduceOp Reduce = device::ReduceOp::None;
  /// The element type of a reduction as PTX spells it ("f32"); empty when
  /// the API does not name it.
  std::string ReduceType;
  OpValue Dst, Src, Size, Barrier, CtaMask, CachePolicy, ByteMask;
  /// .ignore_oob (PTX 9.2): ignoreBytesLeft and ignoreBytesRight.
  OpValue IgnoreLeft, IgnoreRight;
  /// cp.reduce.async.bulk: .noftz is written.
  bool NoFtz = false;
  /// The call also performs expect-tx(Size) on Barrier, without arriving
  /// (cuda::memcpy_async on its cp.async.bulk path, MEMCPY-ASYNC-TX-OWNED):
  /// its bytes are expected as well as delivered, so no other expect-tx of
  /// the phase may count them again.
  bool OwnsExpectTx = false;
};

/// cp.async.bulk.tensor, cp.reduce.async.bulk.tensor and
/// cp.async.bulk.prefetch.tensor.
struct TensorCopy : OpSite {
  device::TensorDirection Direction = device::TensorDirection::Load;
  device::TensorMode Mode = device::TensorMode::Tile;
  /// N of .Nd (the length of a cuda::ptx coordinate array, the digit of a
  /// cde wrapper's name).
  unsigned Dims = 0;
  /// Loads: SharedCta or SharedCluster.
  device::Space DstSpace = device::Space::Generic;
  device::ReduceOp Reduce = device::ReduceOp::None;
  /// The tensor map (the `const CUtensorMap *` or its integer address).
  OpValue Map;
  /// Loads: the destination; stores and reductions: the source.
  OpValue Smem;
  /// One operand per coordinate, when the API passes them one by one.
  std::vector<OpValue> Coords;
  /// cuda::ptx passes a `const int32_t (&)[N]` array instead.
  OpValue CoordArray;
  std::vector<OpValue> Im2colInfo;
  OpValue Barrier, CtaMask, CachePolicy;
  std::optional<unsigned> CtaGroup;
  /// .override::global_address (PTX 9.4): gAddrToOverride.
  OpValue GlobalAddress;
  /// A .mbarrier::report::* qualifier (PTX 9.4): what it does to the
  /// barrier's transaction count is not modelled.
  bool Report = false;
};

/// mbarrier.expect_tx, mbarrier.arrive.expect_tx (WithArrive) and the
/// cuda::device / cuda::ptx wrappers.
struct ExpectTx : OpSite {
  bool WithArrive = false;
  /// The barrier's space (SharedCluster: a remote barrier).
  device::Space BarrierSpace = device::Space::Generic;
  OpValue Barrier, Bytes;
  /// barrier_arrive_tx's arrival count; absent with WithArrive means 1
  /// (mbarrier.arrive.expect_tx arrives once).
  OpValue ArriveCount;
};

/// mbarrier.arrive without a transaction count.
struct Arrive : OpSite {
  device::Space BarrierSpace = device::Space::Generic;
  OpValue Barrier;
  /// The arrival count; absent means 1.
  OpValue Count;
};

/// mbarrier.init.
struct BarrierInit : OpSite {
  OpValue Barrier, Count;
  /// N of .layout::vN (PTX 9.3); v0 when none is written.
  unsigned Layout = 0;
};

/// mbarrier.try_wait / test_wait.
struct Wait : OpSite {
  bool TryWait = false;
  /// Phase is a parity (.parity) rather than a state from arrive.
  bool Parity = false;
  OpValue Barrier, Phase;
};

/// fence.proxy.async, fence.proxy.tensormap::generic,
/// fence.mbarrier_init.
struct Fence : OpSite {
  device::FenceKind Kind = device::FenceKind::ProxyAsync;
  /// fence.proxy.async: the fenced space (Generic: all).
  device::Space FencedSpace = device::Space::Generic;
  device::Scope Scope = device::Scope::None;
  /// TensormapAcquire: the map's address and size.
  OpValue Address, Size;
};

/// st.bulk: fills shared memory with zeros (initval).
struct StBulk : OpSite {
  OpValue Dst, Size, InitValue;
};

/// One device op. The alternatives follow the order of device::OpKind.
using DeviceOp = std::variant<BulkCopy, TensorCopy, ExpectTx, Arrive,
                              BarrierInit, Wait, Fence, StBulk>;

/// Where \p Op is issued.
inline const OpSite &siteOf(const DeviceOp &Op) {
  return std::visit([](const auto &O) -> const OpSite & { return O; }, Op);
}

/// What \p Op is.
inline device::OpKind kindOf(const DeviceOp &Op) {
  static_assert(std::variant_size_v<DeviceOp> ==
                    static_cast<std::size_t>(device::OpKind::StBulk) + 1,
                "one alternative per OpKind");
  return static_cast<device::OpKind>(Op.index());
}

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_DEVICEOPS_H
