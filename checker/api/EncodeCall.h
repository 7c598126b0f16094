//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Recognises tensor-map encode calls (cuTensorMapEncodeTiled, Im2col,
// Im2colWide and cuTensorMapReplaceAddress): the driver function itself,
// methods of the same name, and calls through any function pointer or
// reference whose type has the driver's signature
// (PFN_cuTensorMapEncodeTiled_v12000, decltype(&cuTensorMapEncodeTiled), the
// cast result of cudaGetDriverEntryPoint[ByVersion], cuGetProcAddress or
// dlsym).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_ENCODECALL_H
#define TMA_TIDY_API_ENCODECALL_H

#include "rules/Violation.h"

#include "clang/AST/Expr.h"
#include <optional>

namespace clang::tidy::tma {

/// The rule model lives outside Clang's namespace (it has no Clang
/// dependency); checks refer to it by this alias.
namespace rules = ::tma::rules;

/// The driver entry points that write a tensor map.
enum class EncodeKind { Tiled, Im2col, Im2colWide, ReplaceAddress };

/// The kind of encode call \p Call is, or std::nullopt.
std::optional<EncodeKind> classifyEncodeCall(const CallExpr &Call);

/// False when \p Call cannot be an encode call: an operand count no encoder
/// has, or a named callee whose name is none of theirs. A cheap filter for
/// the checks' call matcher (every two-operand call of a TU has
/// cuTensorMapReplaceAddress's count); classifyEncodeCall decides.
bool mayBeEncodeCall(const CallExpr &Call);

/// The driver's name of \p K, e.g. "cuTensorMapEncodeTiled".
llvm::StringRef encodeKindName(EncodeKind K);

/// The argument of a Tiled encode call that holds \p P.
const Expr *tiledArgument(const CallExpr &Call, rules::Param P);

/// The argument of an encode call of kind \p K that holds \p P, or null
/// when that encoder has no such operand; the callee for Param::Encoder.
const Expr *encodeArgument(const CallExpr &Call, EncodeKind K, rules::Param P);

/// Number of operands of cuTensorMapEncodeTiled.
constexpr unsigned TiledArgCount = 12;
/// Number of operands of cuTensorMapEncodeIm2col.
constexpr unsigned Im2colArgCount = 15;
/// Number of operands of cuTensorMapEncodeIm2colWide.
constexpr unsigned Im2colWideArgCount = 16;
/// Number of operands of cuTensorMapReplaceAddress.
constexpr unsigned ReplaceAddressArgCount = 2;

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_ENCODECALL_H
