//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Function bodies of the preamble kept as tokens (PreambleBodies.cpp writes
// them, LateBodies.cpp parses those the main file reaches).
//
// The preamble's Sema holds one late-parsed-template entry (which the
// preamble serialises with its tokens) whose stream starts with the
// identifier below, then for each body an eof token at the function's
// name, then the body's tokens, macros expanded, from `{` to `}`. Nothing
// marks the functions themselves: they are skipped bodies, as in stock
// clangd, until the checks reach one (checks/TraversalScope.h).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CLANGD_LATEBODIES_H
#define TMA_TIDY_CLANGD_LATEBODIES_H

#include "checks/TraversalScope.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace clang::tidy::tma::clangd {

inline constexpr llvm::StringLiteral LateBodiesMarker =
    "__tma_clangd_late_bodies";

/// The main file's provider of the bodies kept as tokens
/// (checks/TraversalScope.h); null when the preamble kept none.
std::unique_ptr<BodyProvider> makeLateBodies(ASTContext &Ctx);

} // namespace clang::tidy::tma::clangd

#endif // TMA_TIDY_CLANGD_LATEBODIES_H
