//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rules of device ops that need only the op's own operands
// (tma-rules.md sections 2, 3 and 4): bulk-copy sizes, coordinate counts of
// tensor copies, mbarrier transaction counts and init counts. One function per
// rule id; each reads only known values and stays silent otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_DEVICERULES_H
#define TMA_TIDY_RULES_DEVICERULES_H

#include "rules/Violation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// The operands of device ops that the rules below read, in PTX's spelling.
enum class DeviceParam {
  /// cp.async.bulk / cp.reduce.async.bulk / cp.async.bulk.prefetch `size`.
  Size,
  /// mbarrier.expect_tx / mbarrier.arrive.expect_tx `txCount`.
  TxCount,
  /// mbarrier.init `count`.
  InitCount,
  /// The coordinate vector of cp.async.bulk.tensor.
  Coords,
  /// The N of cp.async.bulk.tensor.Nd.
  Dims,
  /// The load mode of cp.async.bulk.tensor (.tile, .im2col, ...).
  LoadMode,
  /// The direction of cp.async.bulk.tensor (load, store, reduction).
  Direction,
  /// The shared-memory address of a bulk or tensor copy (dstMem of loads,
  /// srcMem of stores).
  SmemAddress,
  /// cp.async.bulk.ignore_oob `ignoreBytesLeft` / `ignoreBytesRight`.
  IgnoreBytesLeft,
  IgnoreBytesRight,
  /// st.bulk `initval`.
  InitValue,
  /// The .redOp/.type of a reduction.
  ReduceOp,
  /// The im2colInfo vector of an im2col tensor copy.
  Im2colInfo,
  /// The 16-bit ctaMask of a multicast copy.
  CtaMask,
  /// The element type of a shared-memory buffer against the map's.
  ElementType,
  /// The tensorMap operand of a tensor copy.
  TensorMap,
  /// The global-memory address of a 1-D bulk copy (srcMem of loads and
  /// prefetches, dstMem of stores).
  GlobalAddress,
  /// The mbarrier operand of a copy or an mbarrier instruction.
  Mbar,
  /// The new_val operand of tensormap.replace.
  NewValue,
};

/// PTX's name of \p P, e.g. "size", "txCount".
const char *deviceParamName(DeviceParam P);

/// One broken device rule.
struct DeviceViolation {
  /// The rule id from tma-rules.md, e.g. "BULK-SIZE-MUL16".
  const char *RuleId;
  DeviceParam Parameter;
  /// The value found, in the operand's own unit (bytes, arrivals,
  /// coordinates).
  std::uint64_t Value;
  /// The limit it breaks (the granule, the maximum, the expected count).
  std::uint64_t Limit;
  /// The complete message without the rule id, e.g.
  /// "size is 20 bytes, not a multiple of 16 bytes".
  std::string Message;
  /// A value that satisfies the rule, for a note; empty when there is none
  /// to propose.
  std::string Suggestion;
};

namespace detail {
/// "1 byte", "20 bytes": the unit every device message uses.
std::string bytes(std::uint64_t N);

/// A DeviceViolation, for the rule functions of DeviceRules and FormRules.
DeviceViolation make(const char *Id, DeviceParam P, std::uint64_t Value,
                     std::uint64_t Limit, std::string Message,
                     std::string Suggestion = {});
} // namespace detail

/// The largest mbarrier transaction count and expected arrival count: 2^20-1.
constexpr std::uint64_t MaxMbarrierCount = (std::uint64_t{1} << 20) - 1;
/// The granule of every bulk copy size, in bytes.
constexpr std::uint64_t BulkSizeGranule = 16;

/// BULK-SIZE-MUL16: the byte count of a 1-D bulk copy, reduction or prefetch
/// is a non-zero multiple of 16. \p Size as the instruction sees it (a
/// 32-bit unsigned operand).
std::optional<DeviceViolation> checkBulkSizeMul16(Known Size);

/// MBAR-TX-RANGE: an expect-tx byte count is at most 2^20-1. \p Bytes as
/// the instruction sees it (a 32-bit unsigned operand: a negative count is a
/// huge one).
std::optional<DeviceViolation> checkMbarTxRange(Known Bytes);

/// MBAR-INIT-COUNT: an mbarrier's expected arrival count is in [1, 2^20-1].
std::optional<DeviceViolation> checkMbarInitCount(Known Count);

/// The coordinate shape a tensor copy expects.
enum class CoordShape {
  /// .tile and .im2col modes: one coordinate per dimension of .Nd.
  PerDimension,
  /// .tile::gather4 / .tile::scatter4: {col, row0, row1, row2, row3}.
  Gather4,
};

/// TMA-COORD-COUNT: a tensor copy `.Nd` passes exactly N coordinates (5 for
/// gather4/scatter4). \p Dims is N; \p Coords the number of coordinates.
std::optional<DeviceViolation> checkTmaCoordCount(Known Dims, Known Coords,
                                                  CoordShape Shape);

/// MBAR-TX-EQUALS-BYTES: in one phase of one barrier, the expect-tx counts
/// \p Expected add up to the bytes \p Delivered by the copies that complete
/// on it. \p Barrier names the barrier for the message. \p SelfExpected:
/// bytes of copies that expect them themselves (cuda::memcpy_async,
/// MEMCPY-ASYNC-TX-OWNED), already in both lists; the violation's Limit is
/// then what the explicit expect-tx should count. Silent when either list is
/// empty or holds an unknown value.
std::optional<DeviceViolation>
checkMbarTxEqualsBytes(const std::vector<Known> &Expected,
                       const std::vector<Known> &Delivered,
                       const std::string &Barrier,
                       std::uint64_t SelfExpected = 0);

/// MBAR-TX-EQUALS-BYTES in a cluster: in the CTA of rank \p Rank of a
/// cluster of \p Ctas, the expect-tx counts \p Expected of this CTA add up
/// to the bytes \p Delivered by the copies of the whole cluster that complete
/// on this CTA's barrier (a multicast completes its bytes on the barrier at
/// the same offset in every CTA of its mask). An empty \p Delivered with a
/// non-zero count: no copy of the cluster sends the bytes, the phase never
/// completes. Silent on an unknown value and when nothing is expected.
std::optional<DeviceViolation>
checkMbarTxClusterBytes(const std::vector<Known> &Expected,
                        const std::vector<Known> &Delivered,
                        const std::string &Barrier, std::uint64_t Rank,
                        std::uint64_t Ctas);

/// MBAR-TX-ISSUERS (tma-rules.md 11.A): MBAR-TX-EQUALS-BYTES with each op
/// counted once per thread that issues it: \p ExpectIssuers[i] threads run
/// the expect-tx of \p Expected[i] bytes, \p CopyIssuers[j] threads the
/// copy of \p Delivered[j] bytes. Only when the issuer counts differ
/// between the ops (equal counts compare thread by thread, the other
/// rule's case); silent on an unknown value.
std::optional<DeviceViolation>
checkMbarTxIssuers(const std::vector<Known> &Expected,
                   const std::vector<unsigned> &ExpectIssuers,
                   const std::vector<Known> &Delivered,
                   const std::vector<unsigned> &CopyIssuers,
                   const std::string &Barrier);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_DEVICERULES_H
