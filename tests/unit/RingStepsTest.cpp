//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/RingSteps: which writes of a stage
// and its phase bit keep them the position and lap of one count (inline,
// through a helper taking them by reference, a lambda capturing them by
// reference, a stride), and the wrap size they prove.
//
//===----------------------------------------------------------------------===//

#include "api/RingSteps.h"

#include "StubAST.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma::waitparity;

namespace {

const char *const Code = R"cuda(
constexpr int S = 4;
void use(int, int);
void next(int &stage, int &phase) {
  stage++;
  if (stage == S) { stage = 0; phase ^= 1; }
}
void advance(int &stage, int &phase, int n) {
  phase = phase ^ (((stage + n) / S) & 1);
  stage = (stage + n) % S;
}
void nextByValue(int &stage, int phase) { if (++stage == S) stage = 0; }
void otherWrap(int &stage, int &phase) {
  if (++stage == S - 1) { stage = 0; phase ^= 1; }
}

void inlineWrap(int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    if (++stage == S) { stage = 0; phase ^= 1; }
  }
}
void viaHelper(int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) { use(stage, phase); next(stage, phase); }
}
void viaLambda(int nk) {
  int stage = 0, phase = 0;
  auto step = [&](int &k) {
    ++k;
    stage = stage == S - 1 ? 0 : stage + 1;
    phase ^= stage == 0;
  };
  for (int k = 0; k < nk; step(k)) use(stage, phase);
}
void viaStrides(int nk, int n) {
  int stage = 0, phase = 0;
  advance(stage, phase, n);
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    stage = (stage + 1) % S;
    if (stage == 0) phase ^= 1;
    stage += n;
    phase ^= (stage / S) % 2;
    stage %= S;
  }
}
void helperAfterInline(int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    if (stage == S) { stage = 0; phase ^= 1; }
    use(stage, phase);
    ++stage;
    next(stage, phase);
  }
}
void phaseByValue(int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    nextByValue(stage, phase);
    if (stage == 0) phase ^= 1;
  }
}
void mixedWraps(int nk) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    if (k & 1) next(stage, phase); else otherWrap(stage, phase);
  }
}
void strideOtherLap(int nk, int n) {
  int stage = 0, phase = 0;
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    next(stage, phase);
    phase ^= ((stage + n) / (2 * S)) & 1;
    stage = (stage + n) % S;
  }
}
void mutableCopy(int nk) {
  int stage = 0, phase = 0;
  auto step = [=]() mutable {
    stage = stage == S - 1 ? 0 : stage + 1;
    phase ^= stage == 0;
  };
  for (int k = 0; k < nk; ++k) { use(stage, phase); step(); }
}
void initCapture(int nk) {
  int stage = 0, phase = 0;
  auto restart = [&s = stage]() { s = 0; };
  for (int k = 0; k < nk; ++k) {
    use(stage, phase);
    if (++stage == S) { stage = 0; phase ^= 1; }
    if (k == 5) restart();
  }
}
)cuda";

class RingStepsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(Code); }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  /// The wrap size RingSteps proves for the locals stage and phase of
  /// \p Name.
  std::optional<std::uint64_t> stages(const std::string &Name) {
    std::optional<RingSteps::Ring> R = ring(Name);
    return R ? std::optional<std::uint64_t>(R->Stages) : std::nullopt;
  }
  std::optional<RingSteps::Ring> ring(const std::string &Name) {
    ASTContext &Ctx = AST->getASTContext();
    auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                       Ctx);
    EXPECT_EQ(Found.size(), 1u) << Name;
    if (Found.empty())
      return std::nullopt;
    const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
    auto Var = [&](const char *V) -> const VarDecl * {
      auto M = match(
          functionDecl(equalsNode(F),
                       hasDescendant(varDecl(hasName(V)).bind("v"))),
          Ctx);
      return M.empty() ? nullptr : M[0].getNodeAs<VarDecl>("v");
    };
    std::map<const FunctionDecl *, std::unique_ptr<ParentMap>> Maps;
    RingSteps Steps(
        [&](const Expr *E) -> std::optional<std::int64_t> {
          Expr::EvalResult R;
          if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
            return R.Val.getInt().getSExtValue();
          return std::nullopt;
        },
        [&](const FunctionDecl *G) -> const ParentMap & {
          // A lambda's body is in the map of the function around it.
          if (const auto *MD = dyn_cast<CXXMethodDecl>(G);
              MD && MD->getParent()->isLambda())
            G = F;
          auto &PM = Maps[G];
          if (!PM)
            PM = std::make_unique<ParentMap>(G->getBody());
          return *PM;
        });
    llvm::SmallVector<const DeclStmt *, 2> Decls;
    std::optional<RingSteps::Ring> S =
        Steps.stages(F, Var("stage"), Var("phase"), Decls);
    if (S)
      EXPECT_EQ(Decls.size(), 2u) << Name;
    return S;
  }

  static std::unique_ptr<ASTUnit> AST;
};

std::unique_ptr<ASTUnit> RingStepsTest::AST;

TEST_F(RingStepsTest, InlineWrap) { EXPECT_EQ(stages("inlineWrap"), 4u); }

TEST_F(RingStepsTest, HelperTakingBothByReference) {
  EXPECT_EQ(stages("viaHelper"), 4u);
}

TEST_F(RingStepsTest, LambdaCapturingBothByReference) {
  EXPECT_EQ(stages("viaLambda"), 4u);
}

TEST_F(RingStepsTest, StridesInHelperAndInline) {
  std::optional<RingSteps::Ring> R = ring("viaStrides");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Stages, 4u);
  EXPECT_TRUE(R->Strides);
  EXPECT_FALSE(ring("viaHelper")->Strides);
  EXPECT_FALSE(ring("viaLambda")->Strides);
}

// An inline `++stage` may leave the stage at S for the helper's step.
TEST_F(RingStepsTest, HelperAfterInlineStepIsNotProven) {
  EXPECT_EQ(stages("helperAfterInline"), std::nullopt);
}

TEST_F(RingStepsTest, HelperTakingThePhaseByValueIsNotProven) {
  EXPECT_EQ(stages("phaseByValue"), std::nullopt);
}

TEST_F(RingStepsTest, HelpersOfTwoWrapSizesAreNotProven) {
  EXPECT_EQ(stages("mixedWraps"), std::nullopt);
}

TEST_F(RingStepsTest, StrideOfAnotherLapIsNotProven) {
  EXPECT_EQ(stages("strideOtherLap"), std::nullopt);
}

// `[&s = stage]` writes the stage through another name.
TEST_F(RingStepsTest, InitCaptureIsNotProven) {
  EXPECT_EQ(stages("initCapture"), std::nullopt);
}

TEST_F(RingStepsTest, MutableLambdaStepsItsOwnCopies) {
  EXPECT_EQ(stages("mutableCopy"), std::nullopt);
}

} // namespace
