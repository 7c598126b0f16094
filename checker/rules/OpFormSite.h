//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One device op's form as a whole, independent of any context: the
// qualifiers api/ reads from the op (a bulk reduction's .redOp/.type pair
// and .noftz, a tensor reduction's load mode, an inline-PTX tensor copy's
// coordinate list against its .Nd) go in, every violation comes out,
// naming the fact it is about. A new rule of an op's form is one function
// in rules/ plus its line in checkOpForm.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_OPFORMSITE_H
#define TMA_TIDY_RULES_OPFORMSITE_H

#include "rules/DeviceRules.h"
#include "rules/FormRules.h"

#include <optional>
#include <string>
#include <vector>

namespace tma::rules {

/// The fact of an op's form that a violation is about.
enum class FormFact {
  ReduceOpType, ///< a bulk reduction's .redOp/.type (BULK-REDUCE-OP-TYPE)
  ReduceMode,   ///< a tensor reduction's load mode (TMA-REDUCE-MODE)
  CoordCount,   ///< a tensor copy's coordinate count (TMA-COORD-COUNT)
};

/// The form of one device op. A fact the op does not have, or that is not
/// judged (a library wrapper whose overloads fix it), is std::nullopt.
struct OpFormFacts {
  /// A bulk reduction that names its type: the destination, .redOp and
  /// .type in PTX's spelling without the dot, and .noftz.
  struct BulkReduce {
    BulkReduceDst Dst = BulkReduceDst::Global;
    std::string Op, Type;
    bool NoFtz = false;
  };
  std::optional<BulkReduce> Reduce;
  /// A tensor reduction's load mode.
  std::optional<CopyMode> ReduceMode;
  /// An inline-PTX tensor copy's coordinate list: its `.Nd`, how many
  /// coordinates it writes, and the shape the mode asks for.
  struct Coords {
    Known Dims;
    Known Count;
    CoordShape Shape = CoordShape::PerDimension;
  };
  std::optional<Coords> CoordCount;
};

/// A violation of an op's form, and which fact it is about.
struct FormViolation {
  DeviceViolation Violation;
  FormFact Fact;
};

/// Every rule of an op's form, in this order: the bulk reduction's
/// .redOp/.type, the tensor reduction's mode, the coordinate count.
std::vector<FormViolation> checkOpForm(const OpFormFacts &F);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_OPFORMSITE_H
