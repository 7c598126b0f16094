//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The instantiations of the headers' templates wait for the checks' walk
// (DeferredInstantiations.cpp), and the main file's providers of bodies
// (checks/TraversalScope.h) are installed.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CLANGD_DEFERREDINSTANTIATIONS_H
#define TMA_TIDY_CLANGD_DEFERREDINSTANTIATIONS_H

namespace clang::tidy::tma::clangd {

/// Installs the providers of the bodies the main file's AST left out: the
/// instantiations that wait (unless \p Defer is false: every instantiation
/// is done at the end of the file, as before) and the bodies kept as tokens.
void installBodyProviders(bool Defer);

} // namespace clang::tidy::tma::clangd

#endif // TMA_TIDY_CLANGD_DEFERREDINSTANTIATIONS_H
