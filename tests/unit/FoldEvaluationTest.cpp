//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the folder's use of clang's evaluator
// (folding/ConstantFolder): its answer for an expression is kept and read in
// every context, and the operand of a cast that clang cannot evaluate is not
// asked again. The folded values stay those of each context.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"

#include "StubAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

// Each sink argument of `f` mixes a constant part (clang evaluates it) with
// the parameter (only a context gives it), under casts.
const char *const Code = R"cuda(
void sink(long);
constexpr int K = 6;
void f(int n, short s) {
  sink((long)n);
  sink((long)(unsigned)(n + K));
  sink((long)sizeof(int) * K);
  sink((long)(s * 2));
  sink(n ? (long)K : 0L);
}
void a() { f(3, 4); }
void b() { f(-1, 7); }
void c() { f(0, 0); }
)cuda";

class FoldEvaluationTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(Code); }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  /// Each sink argument of f folded under each context of f, one string
  /// per context ("?" for unknown), and then without a context.
  std::vector<std::string> folded(ConstantFolder &Folder) {
    auto Fs = match(functionDecl(hasName("f"), isDefinition()).bind("f"),
                    AST->getASTContext());
    EXPECT_EQ(Fs.size(), 1u);
    if (Fs.empty())
      return {};
    const auto *F = Fs[0].getNodeAs<FunctionDecl>("f");
    auto Calls = match(
        functionDecl(
            hasName("f"), isDefinition(),
            forEachDescendant(
                callExpr(callee(functionDecl(hasName("sink")))).bind("call"))),
        AST->getASTContext());
    std::vector<const CallContext *> Contexts(Folder.contextsOf(F).begin(),
                                              Folder.contextsOf(F).end());
    Contexts.push_back(nullptr);
    std::vector<std::string> Out;
    for (const CallContext *Context : Contexts) {
      Folder.enterContext(Context);
      std::string Line;
      for (const auto &M : Calls) {
        auto V = Folder.foldInt(M.getNodeAs<CallExpr>("call")->getArg(0));
        Line += (Line.empty() ? "" : " ") +
                (V ? std::to_string(V->Value.getExtValue()) : "?");
      }
      Out.push_back(Line);
    }
    Folder.enterContext(nullptr);
    return Out;
  }

  static std::unique_ptr<ASTUnit> AST;
};

std::unique_ptr<ASTUnit> FoldEvaluationTest::AST;
using Lines = std::vector<std::string>;

TEST_F(FoldEvaluationTest, EveryContextKeepsItsValues) {
  ConstantFolder Folder(AST->getASTContext());
  const Lines Expected{"3 9 24 8 6", "-1 5 24 14 6", "0 6 24 0 0",
                       "? ? 24 ? ?"};
  EXPECT_EQ(folded(Folder), Expected);
  // Asked again (the evaluator's answers are kept): the same values.
  EXPECT_EQ(folded(Folder), Expected);
}

} // namespace
