//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The compile databases that tma-clangd's clangd loads, translated in memory
// (DatabaseTranslation.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CLANGD_DATABASETRANSLATION_H
#define TMA_TIDY_CLANGD_DATABASETRANSLATION_H

#include <string>

namespace tma::clangd {

/// The CUDA pass that every translated CUDA command keeps: "device" (the
/// first architecture's, the default) or "host" (--tma-cuda-pass).
std::string &cudaPassChoice();

} // namespace tma::clangd

#endif // TMA_TIDY_CLANGD_DATABASETRANSLATION_H
