//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One device op's own value operands as a whole, in one call-site context:
// the values api/ folds for the op (a bulk copy's size and .ignore_oob
// counts, an expect-tx count, an mbarrier init count, a multicast mask with
// the kernel's cluster, st.bulk's size, a tensor store's coordinates, an
// im2col load's offsets) go in, every violation comes out, naming the
// operand it is about. A new rule of an operand is one function in rules/
// plus its line in checkDeviceOpOperands.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_DEVICEOPSITE_H
#define TMA_TIDY_RULES_DEVICEOPSITE_H

#include "rules/DeviceRules.h"
#include "rules/TensorCopyRules.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tma::rules {

/// The operand of a device op that a violation is about.
enum class OpOperand {
  Size,        ///< a 1-D bulk copy's size (BULK-SIZE-MUL16)
  TxCount,     ///< an expect-tx count (MBAR-TX-RANGE)
  InitCount,   ///< mbarrier.init's count (MBAR-INIT-COUNT[-LAYOUT])
  IgnoreLeft,  ///< .ignore_oob's ignoreBytesLeft (BULK-IGNORE-OOB)
  IgnoreRight, ///< .ignore_oob's ignoreBytesRight (BULK-IGNORE-OOB)
  CtaMask,     ///< a multicast's ctaMask (BULK-MULTICAST)
  StSize,      ///< st.bulk's size (BULK-ST-SIZE)
  /// A tensor store's or reduction's coordinate Index, written as an
  /// operand of its own (TMA-STORE-NONNEG).
  StoreCoord,
  /// Element Index of a tensor store's coordinate array (TMA-STORE-NONNEG).
  StoreCoordArray,
  /// An im2col load's or prefetch's offsets (TMA-IM2COL-INFO).
  Im2colInfo,
};

/// The value operands of one device op folded in one context. An operand
/// the op does not have (or that is not judged) is std::nullopt; one that
/// does not fold is an unknown Known.
struct DeviceOpFacts {
  std::optional<Known> Size, TxCount, InitCount;
  /// mbarrier.init.layout::v1: its own count limit.
  bool InitLayoutV1 = false;
  std::optional<Known> IgnoreLeft, IgnoreRight;
  /// A multicast mask, judged only when the kernel's cluster is known.
  std::optional<Known> CtaMask;
  Known ClusterCtas;
  std::optional<Known> StSize;
  Known StInitValue;
  /// A tensor store's or reduction's coordinate operands, in order.
  std::vector<Known> StoreCoords;
  /// A tensor store's coordinate array, folded element by element.
  std::vector<Known> StoreCoordArray;
  /// An im2col load's or prefetch's offsets, with its mode and `.Nd`.
  std::optional<std::vector<Known>> Im2colInfo;
  CopyMode Mode = CopyMode::Tile;
  Known Dims;
};

/// A violation of a device op's operand, and which operand it is about.
struct OperandViolation {
  DeviceViolation Violation;
  OpOperand Operand;
  std::size_t Index = 0;
};

/// Every rule of a device op's own value operands, in this order: the
/// size, count or init count; .ignore_oob; the multicast mask; st.bulk's
/// size; the store coordinates (of an array: the first negative one only);
/// the im2col offsets.
std::vector<OperandViolation> checkDeviceOpOperands(const DeviceOpFacts &F);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_DEVICEOPSITE_H
