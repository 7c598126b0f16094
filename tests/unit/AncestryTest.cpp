//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of folding/Uses' Ancestry: its memoised
// answers (chain membership, the top-level statement, orderOf) against the
// ancestors() chains they replace, on every statement of generated bodies:
// branches, do-once blocks, loops, lambdas, and nestings deeper than the
// chains' 256-statement budget.
//
//===----------------------------------------------------------------------===//

#include "folding/Uses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <random>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tidy::tma;

namespace {

/// Every statement of \p S's tree, parents before children.
void collect(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  Out.push_back(S);
  for (const Stmt *Child : S->children())
    collect(Child, Out);
}

/// What the chains say, and what Ancestry says, for \p Pairs random pairs
/// of statements of each function body of \p Code (all pairs when there
/// are fewer), with the body and its blocks as the chain's end. Returns the
/// number of questions compared.
size_t compare(const std::string &Code, size_t Pairs) {
  auto AST = tma_test::buildStubAST(Code, "--cuda-host-only");
  EXPECT_TRUE(AST);
  if (!AST)
    return 0;
  std::mt19937 Random(15);
  size_t Asked = 0;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->hasBody() ||
        !AST->getSourceManager().isInMainFile(FD->getLocation()))
      continue;
    const Stmt *Root = FD->getBody();
    ParentMap PM(const_cast<Stmt *>(Root));
    Ancestry Chains(PM);
    BlockPositions Positions, OldPositions;
    std::vector<const Stmt *> All;
    collect(Root, All);
    // Chain ends: the body and a few of its blocks.
    std::vector<const Stmt *> Ends = {Root};
    for (const Stmt *S : All)
      if (isa<CompoundStmt>(S) && S != Root && Random() % 8 == 0 &&
          Ends.size() < 6)
        Ends.push_back(S);
    size_t N = All.size();
    bool Every = N * N <= Pairs;
    size_t Count = Every ? N * N : Pairs;
    for (size_t K = 0; K < Count; ++K) {
      const Stmt *A = Every ? All[K / N] : All[Random() % N];
      const Stmt *B = Every ? All[K % N] : All[Random() % N];
      const Stmt *End = Ends[K % Ends.size()];
      auto Chain = ancestors(PM, A, End);
      // The first difference is enough to read (and the rest would repeat).
      auto Differs = [&](bool Same, const char *What) {
        if (!Same)
          ADD_FAILURE() << What << ", function " << FD->getName().str()
                        << ", pair " << K;
        return !Same;
      };
      if (Differs(Chains.inChain(A, B, End) == llvm::is_contained(Chain, B),
                  "inChain"))
        return Asked;
      const Stmt *Top = Chain.size() >= 2 && Chain.back() == End
                            ? Chain[Chain.size() - 2]
                            : nullptr;
      Order Old = orderOf(PM, B, A, End, &OldPositions);
      if (Differs(Chains.topOf(A, End) == Top, "topOf") ||
          Differs(Chains.orderOf(B, A, End, Positions) == Old, "orderOf") ||
          Differs(orderOf(PM, B, A, End) == Old, "orderOf without positions"))
        return Asked;
      Asked += 4;
    }
  }
  return Asked;
}

const char *const Prelude = R"cuda(
#include <cuda_runtime.h>
void use(int);
int pick();
)cuda";

TEST(AncestryTest, BranchesLoopsAndLambdas) {
  std::string Code = std::string(Prelude) + R"cuda(
void mixed(int n) {
  int a[4] = {1, 2, 3, 4};
  a[0] = 5;
  if (n > 2) { a[1] = 6; use(a[1]); } else a[2] = 7;
  if (int k = pick()) a[3] = k;
  do { a[0] = 1; use(a[0]); } while (0);
  do { if (n) break; a[1] = 2; } while (0);
  do { a[2] = 3; } while (n--);
  for (int i = 0; i < 4; ++i) { use(a[i]); a[i] = i; }
  while (n > 0) { --n; { use(a[0]); } }
  for (int v : a) use(v);
  switch (n) { case 0: a[0] = 9; break; default: use(a[1]); }
  [&] { a[0] = 3; [&] { use(a[0]); }(); }();
  int s = ({ int t = a[1]; t + 1; });
  use(s ? a[2] : a[3]);
  { { a[1] = 4; } use(a[1]); }
}
void straight() {
  int x = 1;
  use(x);
  x = 2;
  { use(x); }
  if ((x = 3)) use(x);
  use(x);
}
)cuda";
  EXPECT_GT(compare(Code, 200000), 1000u);
}

TEST(AncestryTest, NestingPastTheBudget) {
  // 70 nested lambdas (about 350 statements deep) and 300 nested blocks: the
  // chains stop at 256 statements, so the deep sites' chains miss the body.
  std::string Code = std::string(Prelude) + "void lambdas() {\n int a[2] = {1, 2};\n";
  for (int I = 0; I < 70; ++I)
    Code += "[&] { use(a[0]); a[1] = " + std::to_string(I) + ";\n";
  for (int I = 0; I < 70; ++I)
    Code += "}();\n";
  Code += "}\nvoid blocks(int n) {\n int x = 0;\n";
  for (int I = 0; I < 300; ++I)
    Code += I % 3 == 0 ? "x = " + std::to_string(I) + "; {\n"
            : I % 3 == 1 ? "if (n) {\n use(x);\n"
                         : "do { use(x);\n";
  for (int I = 300; I-- > 0;)
    Code += I % 3 == 2 ? "} while (0);\n" : "}\n";
  Code += "use(x);\n}\n";
  EXPECT_GT(compare(Code, 60000), 100000u);
}

} // namespace
