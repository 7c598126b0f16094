//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/IntRanges: the interval an integer
// offset may take, from constants, thread indices, counted loops, locals
// standing for their initialiser and the `if`s around the statement.
//
//===----------------------------------------------------------------------===//

#include "api/IntRanges.h"

#include "StubAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"

#include <memory>
#include <optional>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda_runtime.h>
__device__ void sink(long);
__device__ void counted() {
  for (int i = 0; i < 8; ++i) sink(i * 16 + 4);
}
__device__ void countedLe() {
  for (int i = 2; i <= 5; ++i) sink(i - 2);
}
__device__ void thread() { sink(threadIdx.x % 64); }
__device__ void threadBits() { sink((threadIdx.x >> 5) & 3); }
__device__ void guarded() {
  int warp = threadIdx.x / 32;
  if (warp >= 4 && warp <= 7) sink(warp - 4);
}
__device__ void guardedReversed() {
  int warp = threadIdx.x / 32;
  if (3 < warp && 8 > warp) sink(warp * 2);
}
__device__ void guardInElse() {
  int warp = threadIdx.x / 32;
  if (warp >= 4) {} else sink(warp);
}
__device__ void parameter(int n) { sink(n % 4); }
__device__ void unsignedParameter(unsigned n) { sink(n % 4); }
__device__ void unbounded(int n) { sink(n + 1); }
__device__ void signedMul() { sink((threadIdx.x - 8) * 2); }
__device__ void narrowing(long n) {
  long big = 1L << 35;
  sink((int)(big + threadIdx.x));
}
)cuda";

class IntRangesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(Code); }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  /// The range of the argument of the `sink` call in \p Name, with the
  /// `for` loops around it and its guards.
  std::optional<IntRange> range(const std::string &Name) {
    ASTContext &Ctx = AST->getASTContext();
    auto Found = match(
        functionDecl(
            hasName(Name), isDefinition(),
            hasDescendant(
                callExpr(callee(functionDecl(hasName("sink")))).bind("c")))
            .bind("f"),
        Ctx);
    EXPECT_EQ(Found.size(), 1u) << Name;
    if (Found.empty())
      return std::nullopt;
    const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
    const auto *C = Found[0].getNodeAs<CallExpr>("c");
    ParentMap PM(F->getBody());
    llvm::SmallVector<const ForStmt *, 2> Fors;
    for (const Stmt *P = PM.getParent(C); P; P = PM.getParent(P))
      if (const auto *For = dyn_cast<ForStmt>(P))
        Fors.push_back(For);
    RangeGuards G = guardsOf(
        C, PM, Ctx, [](const VarDecl *VD) { return !isa<ParmVarDecl>(VD); });
    // What the kernel model would substitute: a local no statement writes
    // stands for its initialiser (here: every local but a loop counter).
    auto Subst = [&](const VarDecl *VD) -> const Expr * {
      for (const ForStmt *For : Fors)
        if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
            DS && DS->isSingleDecl() && DS->getSingleDecl() == VD)
          return nullptr;
      return isa<ParmVarDecl>(VD) ? nullptr : VD->getInit();
    };
    return rangeOf(C->getArg(0), Ctx, Subst, Fors, G);
  }

  static std::unique_ptr<ASTUnit> AST;
};

std::unique_ptr<ASTUnit> IntRangesTest::AST;

IntRange r(std::int64_t Lo, std::int64_t Hi) { return {Lo, Hi}; }

TEST_F(IntRangesTest, CountedLoop) {
  EXPECT_EQ(range("counted"), r(4, 116));
  EXPECT_EQ(range("countedLe"), r(0, 3));
}

TEST_F(IntRangesTest, ThreadIndex) {
  EXPECT_EQ(range("thread"), r(0, 63));
  EXPECT_EQ(range("threadBits"), r(0, 3));
}

TEST_F(IntRangesTest, GuardsOfTheThenBranch) {
  EXPECT_EQ(range("guarded"), r(0, 3));
  EXPECT_EQ(range("guardedReversed"), r(8, 14));
  // The else branch is not bounded by the condition: warp is [0, 31].
  EXPECT_EQ(range("guardInElse"), r(0, 31));
}

TEST_F(IntRangesTest, UnknownStaysUnknown) {
  EXPECT_EQ(range("parameter"), std::nullopt);
  EXPECT_EQ(range("unsignedParameter"), std::nullopt);
  EXPECT_EQ(range("unbounded"), std::nullopt);
  EXPECT_EQ(range("signedMul"), std::nullopt);
  EXPECT_EQ(range("narrowing"), std::nullopt);
}

} // namespace
