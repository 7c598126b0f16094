//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the contexts index (folding/
// CallContexts): an index rebuilt for a question about a function named
// earlier than the first question's (it walks only the bodies the first
// walk left out) gives the contexts, in the same order, of an index built
// whole at once.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/Stats.h"

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

// `early` is first named at the top. A question about `late` first leaves
// out the bodies that end before it (callsFirst); the question about
// `early` then needs them. Its contexts come in the order of the TU:
// callsFirst's, then callsSecond's, then callsThird's.
const char *const Code = R"cuda(
void sink(int);
void early(int n);
void callsFirst() { early(1); }
void late(int n) { sink(n); }
void callsSecond() { early(2); late(0); }
void callsThird() { early(3); early(4); }
void early(int n) { sink(n); }
)cuda";

class CallIndexTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(Code); }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  const FunctionDecl *definition(const std::string &Name) {
    auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Name;
    return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
  }

  /// The value of `n` at the sink call of \p F under each of its contexts.
  std::vector<std::string> bound(ConstantFolder &Folder,
                                 const FunctionDecl *F) {
    auto Found = match(
        functionDecl(
            hasName(F->getName()), isDefinition(),
            forEachDescendant(
                callExpr(callee(functionDecl(hasName("sink")))).bind("call"))),
        AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u);
    std::vector<std::string> Out;
    if (Found.empty())
      return Out;
    const auto *Call = Found[0].getNodeAs<CallExpr>("call");
    for (const CallContext *Context : Folder.contextsOf(F)) {
      Folder.enterContext(Context);
      auto V = Folder.foldInt(Call->getArg(0));
      Out.push_back(V ? std::to_string(V->Value.getExtValue()) : "?");
    }
    Folder.enterContext(nullptr);
    return Out;
  }

  static std::unique_ptr<ASTUnit> AST;
};

std::unique_ptr<ASTUnit> CallIndexTest::AST;
using Values = std::vector<std::string>;

TEST_F(CallIndexTest, RebuildKeepsTheOrderOfAWholeWalk) {
  const FunctionDecl *Early = definition("early");
  const FunctionDecl *Late = definition("late");
  ASSERT_TRUE(Early && Late);

  // Built whole for the first question (nothing before `early`'s name).
  ConstantFolder Whole(AST->getASTContext());
  unsigned Walks = CostStats::get().IndexWalks;
  EXPECT_EQ(bound(Whole, Early), (Values{"1", "2", "3", "4"}));
  EXPECT_EQ(bound(Whole, Late), (Values{"0"}));
  EXPECT_EQ(CostStats::get().IndexWalks - Walks, 1u);

  // Built for `late` first, leaving callsFirst out, then rebuilt.
  ConstantFolder Rebuilt(AST->getASTContext());
  Walks = CostStats::get().IndexWalks;
  EXPECT_EQ(bound(Rebuilt, Late), (Values{"0"}));
  EXPECT_EQ(CostStats::get().IndexWalks - Walks, 1u);
  EXPECT_EQ(bound(Rebuilt, Early), (Values{"1", "2", "3", "4"}));
  EXPECT_EQ(CostStats::get().IndexWalks - Walks, 2u);

  // The same calls in the same order.
  auto Calls = [](llvm::ArrayRef<const CallContext *> Contexts) {
    std::vector<const CallExpr *> Out;
    for (const CallContext *C : Contexts)
      Out.push_back(C ? C->Call : nullptr);
    return Out;
  };
  EXPECT_EQ(Calls(Whole.contextsOf(Early)), Calls(Rebuilt.contextsOf(Early)));
  EXPECT_EQ(Calls(Whole.contextsOf(Late)), Calls(Rebuilt.contextsOf(Late)));
}

} // namespace
