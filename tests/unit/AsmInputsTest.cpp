//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of folding/Uses (through
// ConstantFolder::isNeverWritten): an inline-asm input is a read, on both
// CUDA passes.
//
//===----------------------------------------------------------------------===//
//
// The host pass keeps an asm input whose constraint the host target has no
// register class for ("h") an lvalue, without the load the device pass
// puts around it. A helper's parameter read that way must still count as
// never written, or the parameter does not fold under its callers on the
// host pass (BULK-MULTICAST's ctaMask in a helper). An output, and the
// address of a variable handed to the asm, may write it.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda_runtime.h>
__device__ void inputH(unsigned short mask) {
  asm volatile("// %0" :: "h"(mask));
}
__device__ void inputR(unsigned value) {
  asm volatile("// %0" :: "r"(value));
}
__device__ void output(unsigned short mask) {
  asm volatile("mov.b16 %0, 1;" : "=h"(mask));
}
__device__ void address(unsigned value) {
  asm volatile("// %0" :: "l"(&value) : "memory");
}
)cuda";

/// Whether the first parameter of \p Function is never written, with the
/// translation unit parsed for \p Pass (--cuda-device-only or
/// --cuda-host-only).
bool neverWritten(const char *Pass, const std::string &Function) {
  std::unique_ptr<ASTUnit> AST = tma_test::buildStubAST(Code, Pass);
  EXPECT_TRUE(AST);
  if (!AST)
    return false;
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  auto Found = match(functionDecl(hasName(Function), isDefinition()).bind("f"),
                     AST->getASTContext());
  EXPECT_EQ(Found.size(), 1u) << Function;
  if (Found.empty())
    return false;
  const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
  ConstantFolder Folder(AST->getASTContext());
  return Folder.isNeverWritten(F->getParamDecl(0));
}

TEST(AsmInputs, InputsAreReadsOnBothPasses) {
  for (const char *Pass : {"--cuda-device-only", "--cuda-host-only"}) {
    EXPECT_TRUE(neverWritten(Pass, "inputH")) << Pass;
    EXPECT_TRUE(neverWritten(Pass, "inputR")) << Pass;
  }
}

TEST(AsmInputs, OutputsAndAddressesMayWrite) {
  for (const char *Pass : {"--cuda-device-only", "--cuda-host-only"}) {
    EXPECT_FALSE(neverWritten(Pass, "output")) << Pass;
    EXPECT_FALSE(neverWritten(Pass, "address")) << Pass;
  }
}

} // namespace
