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

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace tma::clangd {

/// The CUDA pass that every translated CUDA command keeps: "device" (the
/// first architecture's, the default) or "host" (--tma-cuda-pass).
std::string &cudaPassChoice();

/// What went wrong with the compile command of File (an absolute path) in
/// the database clangd loaded last for it: what the translation of its nvcc
/// command left out, or why its entry could not be read. Empty when nothing
/// did. tma-clangd shows it as one diagnostic at the top of the file.
std::vector<std::string> commandProblems(llvm::StringRef File);

} // namespace tma::clangd

#endif // TMA_TIDY_CLANGD_DATABASETRANSLATION_H
