//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The text of the ExplainDescriptors option (tma-descriptor, tma-bulk-copy):
// the folded descriptor of an encode call or of the map a tensor copy reads,
// every operand as its value or "unknown" with the reason, so that a user
// can see why a check stays silent. Text only: no rule logic.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_EXPLAIN_H
#define TMA_TIDY_CHECKS_EXPLAIN_H

#include "rules/TensorCopyRules.h"
#include "rules/TiledRules.h"

#include "clang/AST/Expr.h"
#include <string>

namespace clang::tidy::tma {

/// Why the folder has no value for E, in a few words ("parameter 'rows':
/// no call site in this translation unit passes a known value").
std::string whyUnknown(const Expr *E);

/// A scalar operand: "CU_TENSOR_MAP_SWIZZLE_128B (3)", "2", or
/// "unknown (<why>)". Name gives an enumerator's name, may be null.
std::string explainScalar(const ::tma::rules::Known &K,
                          const char *(*Name)(std::uint64_t), const Expr *E);

/// An array operand: "{1024, unknown (element 1 did not fold)}", or
/// "unknown (<why>)" when the array itself did not fold.
std::string explainArray(const ::tma::rules::KnownArray &A, const Expr *E);

/// A tiled encode call's folded descriptor \p D: "cuTensorMapEncodeTiled
/// descriptor: tensorDataType = ...; tensorRank = ...; ...", each operand
/// explained from \p Call's argument.
std::string explainTiledCall(const CallExpr &Call,
                             const ::tma::rules::TiledDescriptor &D);

/// A linked map: "Tiled, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank 2, boxDim
/// {32, 32}, elementStrides {1, 1}, interleave ..., swizzle ...".
std::string explainMap(const ::tma::rules::MapDescriptor &D);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_EXPLAIN_H
