//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Test helper: one CUDA pass of a snippet parsed against
// the stub headers of tests/checkers/Inputs/Headers, the way the lit tests
// run clang-tidy on them (sm_90a, no CUDA installation, C++17).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_TESTS_UNIT_STUBAST_H
#define TMA_TIDY_TESTS_UNIT_STUBAST_H

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace tma_test {

/// Parses \p Code for one pass (\p Pass: --cuda-device-only or
/// --cuda-host-only) with \p Extra arguments after the usual ones.
inline std::unique_ptr<clang::ASTUnit>
buildStubAST(llvm::StringRef Code, const char *Pass = "--cuda-device-only",
             const std::vector<std::string> &Extra = {}) {
  std::vector<std::string> Args = {
      "-x", "cuda", Pass, "--cuda-gpu-arch=sm_90a", "-nocudainc",
      "-nocudalib", "-nostdinc++", "-std=c++17",
      "--cuda-path=" TMA_TEST_HEADERS, "-isystem", TMA_TEST_HEADERS,
      "-resource-dir", TMA_CLANG_RESOURCE_DIR};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

} // namespace tma_test

#endif // TMA_TIDY_TESTS_UNIT_STUBAST_H
