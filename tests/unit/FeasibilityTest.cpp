//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of ConstantFolder::mayRun (folding/
// Feasibility): which call-site contexts reach a statement (tma-rules.md
// §11.C).
//
//===----------------------------------------------------------------------===//
//
// Each function calls `sink(n)` after a guard; its callers pass constants.
// The test asks, for each context of the function, whether the sink call
// can run, and compares the bound values of the contexts that can.
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
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda_runtime.h>
void sink(int);
[[noreturn]] void fail();
__device__ void __trap();
__device__ void dsink(int);

void early(int n) { if (n == 0) return; sink(n); }
void throws(int n) { if (n % 2) throw 1; sink(n); }
void noreturn(int n) { if (n > 8) fail(); sink(n); }
void both(int n, int m) { if (n == 0 && m == 0) return; sink(n); }
void either(int n, int m) { if (n == 0 || m == 0) return; sink(n); }
void inBranch(int n) { if (n > 4) { sink(n); } }
void loop(int n) { for (int i = 0; i < n; ++i) sink(n); }
void inner(int n) { sink(n); }
void outer(int n) { if (n < 0) return; inner(n); }
__device__ void trapping(int n) { if (n == 3) __trap(); dsink(n); }

void calls(int unknown) {
  early(0); early(5);
  throws(3); throws(4);
  noreturn(9); noreturn(2);
  both(0, 0); both(0, 1);
  either(0, 1); either(2, 3);
  inBranch(1); inBranch(7);
  loop(0); loop(2);
  outer(-1); outer(6);
  early(unknown);
}
__global__ void kernel() { trapping(3); trapping(4); }
)cuda";

class FeasibilityTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code);
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Folder = std::make_unique<ConstantFolder>(AST->getASTContext());
  }

  /// The first argument that each context of \p Function reaching its sink
  /// call binds ("?" when it does not fold), in call order.
  std::vector<std::string> feasible(const std::string &Function) {
    auto Found = match(
        functionDecl(hasName(Function), isDefinition(),
                     forEachDescendant(callExpr(callee(functionDecl(hasAnyName(
                                                    "sink", "dsink", "inner"))))
                                           .bind("call")))
            .bind("f"),
        AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Function;
    std::vector<std::string> Out;
    if (Found.empty())
      return Out;
    const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
    const auto *Call = Found[0].getNodeAs<CallExpr>("call");
    for (const CallContext *Context : Folder->contextsOf(F)) {
      if (!Folder->mayRun(Call, F, Context))
        continue;
      Folder->enterContext(Context);
      auto V = Folder->foldInt(Call->getArg(0));
      Out.push_back(V ? std::to_string(V->Value.getExtValue()) : "?");
    }
    Folder->enterContext(nullptr);
    return Out;
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
};

std::unique_ptr<ASTUnit> FeasibilityTest::AST;
using Values = std::vector<std::string>;

TEST_F(FeasibilityTest, EarlyReturnDropsTheContext) {
  EXPECT_EQ(feasible("early"), (Values{"5", "?"}));
}

TEST_F(FeasibilityTest, ThrowAndNoReturnCallsLeave) {
  EXPECT_EQ(feasible("throws"), (Values{"4"}));
  EXPECT_EQ(feasible("noreturn"), (Values{"2"}));
}

TEST_F(FeasibilityTest, ShortCircuitConditions) {
  EXPECT_EQ(feasible("both"), (Values{"0"}));
  EXPECT_EQ(feasible("either"), (Values{"2"}));
}

TEST_F(FeasibilityTest, EnclosingBranchAndLoops) {
  EXPECT_EQ(feasible("inBranch"), (Values{"7"}));
  // The loop condition reads a written variable: it never folds, and both
  // contexts stay.
  EXPECT_EQ(feasible("loop"), (Values{"0", "2"}));
}

TEST_F(FeasibilityTest, GuardInTheCaller) {
  // outer(-1) returns before calling inner: inner has one context left.
  EXPECT_EQ(feasible("inner"), (Values{"6"}));
}

TEST_F(FeasibilityTest, TrapStopsTheThread) {
  EXPECT_EQ(feasible("trapping"), (Values{"4"}));
}

} // namespace
