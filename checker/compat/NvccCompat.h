//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Accepts, in CUDA translation units, declarations that nvcc compiles and
// clang rejects, so that the checks see the kernels that contain them
// (docs/nvcc-compat.md). A frontend plugin action that runs before the main
// action in every tool that loads or links the module: stock clang-tidy with
// --load, tma-tidy and tma-clangd.
//
//   * `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` (the CUDA
//     Programming Guide's form) and `__shared__ cuda::pipeline_shared_state`:
//     clang requires an empty destructor for a __shared__ variable, and
//     libcu++'s block-scope barrier invalidates its mbarrier in its
//     destructor. nvcc never destroys __shared__ variables (it warns
//     static_var_with_dynamic_init), so that destructor's body is dropped.
//   * `extern __shared__ SMem s;` (dynamic shared memory of a struct type):
//     clang accepts a non-array extern __shared__ variable only with
//     relocatable device code; nvcc always does. The action sets
//     -fgpu-rdc's language option.
//
// `-DTMA_NVCC_COMPAT=0` turns both off.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_COMPAT_NVCCCOMPAT_H
#define TMA_TIDY_COMPAT_NVCCCOMPAT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <utility>
#include <vector>

namespace clang {
class CXXDestructorDecl;
} // namespace clang

namespace clang::tidy::tma {

/// Whether the command line's macro definitions (PreprocessorOptions::Macros:
/// the spelling, and whether it was -U) leave the compatibility on: off only
/// for a last `-DTMA_NVCC_COMPAT=0`.
bool nvccCompatEnabled(
    const std::vector<std::pair<std::string, bool>> &Macros);

/// Whether \p D is the destructor of a libcu++ barrier (a class named
/// `barrier` in namespace `cuda` or one nested in it, declared in a system
/// header) whose body the compatibility drops.
bool isLibcuxxBarrierDestructor(const CXXDestructorDecl &D);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_COMPAT_NVCCCOMPAT_H
