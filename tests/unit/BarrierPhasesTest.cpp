//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/BarrierPhases: the helper barrier
// parameter (barrierParameter), counted-loop trip counts (tripCount) and the
// identities of barriers reached through pointer fields.
//
//===----------------------------------------------------------------------===//

#include "api/BarrierPhases.h"
#include "api/DeviceOpsFinder.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda_runtime.h>
#include <cstdint>

__device__ void sink(const void *);
struct semaphore { uint64_t value; };

__device__ void byPointer(uint64_t *bar) { sink(bar); }
__device__ void byReference(semaphore &bar) { sink(&bar); }
__device__ void byLocal(semaphore &bar) {
  void const *const ptr = &bar;
  sink(ptr);
}
__device__ void byWrittenLocal(uint64_t *bar, int k) {
  uint64_t *p = bar;
  p += k;
  sink(p);
}
__device__ void addressOfPointer(uint64_t *bar) { sink(&bar); }
__device__ void notAParameter() {
  __shared__ uint64_t own;
  sink(&own);
}

template <int N> __device__ void loops(int n) {
  for (int k = 0; k < N / 8; ++k)
    sink(&k);
  for (int k = 2; k <= 5; k += 1)
    sink(&k);
  for (unsigned k = 0; k != 4; ++k)
    sink(&k);
  for (int k = 5; k < 2; ++k)
    sink(&k);
  for (int k = 0; k < n; ++k)
    sink(&k);
  for (int k = 0; k < 8; k += 2)
    sink(&k);
}
template __device__ void loops<64>(int);

struct TxBarrier { uint64_t barrier_; };
struct Pipeline {
  TxBarrier *full;
  uint64_t *raw;
  __device__ void viaThis() {
    sink(&this->full->barrier_);
    sink(raw);
  }
};
__device__ void pipelineOps(Pipeline pipe, TxBarrier own) {
  sink(&pipe.full->barrier_);
  sink(pipe.raw);
  sink(&own.barrier_);
}

// Waits: one that loops until the phase completes, one try, and one whose
// only branch back is predicated.
__device__ void loopWait(uint32_t bar, int phase) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(bar), "r"(phase));
}
__device__ void oneTry(uint32_t bar, int phase) {
  asm volatile("{\n.reg .pred P1;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n}\n"
               ::"r"(bar), "r"(phase));
}
__device__ void predicatedBack(uint32_t bar, int phase) {
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni LAB_WAIT;\n}\n"
               ::"r"(bar), "r"(phase));
}

// Parities of a wait at the top of a loop body (parityTracksIterations).
__device__ void waitOn(int phase);
__device__ void parities(int n) {
  int a = 0;
  for (int k = 0; k < n; ++k, a ^= 1)
    waitOn(a);
  int b = 0;
  for (int k = 0; k < n; ++k) {
    waitOn(b);
    b = 1 - b;
  }
  int c = 1;
  for (int k = 0; k < n; ++k) {
    c = !c;
    waitOn(c);
  }
  int d = 0;
  for (int k = 0; k < n; ++k) {
    d ^= 1;
    waitOn(d);
  }
  for (int k = 0; k < n; ++k)
    waitOn(k & 1);
  for (int k = 0; k < n; ++k)
    waitOn((k / 2) & 1);
  for (int k = 1; k < n; ++k)
    waitOn(k % 2);
  int e = 0;
  for (int k = 0; k < n; ++k) {
    waitOn(e);
    e ^= 1;
    e ^= 1;
  }
  int f = 0;
  for (int k = 0; k < n; ++k) {
    waitOn(f);
    if (k)
      f ^= 1;
  }
  int g = 0;
  for (int k = 0; k < n; ++k) {
    waitOn(g);
    g ^= 1;
    if (k == 3)
      continue;
  }
}
)cuda";

class BarrierPhasesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code);
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Folder = std::make_unique<ConstantFolder>(AST->getASTContext());
    Finder = std::make_unique<DeviceOpsFinder>(AST->getASTContext());
    Folder->enterContext(nullptr);
  }

  /// The function \p Name (its instantiation, for a template) and the
  /// `sink` arguments in it, looked through as DeviceOpsFinder does.
  const FunctionDecl *sinks(const std::string &Name,
                            std::vector<const Expr *> &Args) {
    const FunctionDecl *Fn = nullptr;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Name), isDefinition(),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName("sink"))))
                                    .bind("call")))
                   .bind("f"),
               AST->getASTContext())) {
      const auto *F = B.getNodeAs<FunctionDecl>("f");
      if (F->isDependentContext())
        continue;
      Fn = F;
      Args.push_back(
          Finder->lookThrough(B.getNodeAs<CallExpr>("call")->getArg(0)));
    }
    EXPECT_TRUE(Fn) << Name;
    return Fn;
  }

  std::string parameter(const std::string &Helper) {
    std::vector<const Expr *> Args;
    const FunctionDecl *Fn = sinks(Helper, Args);
    if (!Fn || Args.size() != 1)
      return "<no sink>";
    const ParmVarDecl *P = barrierParameter(Args[0], Fn, *Finder, *Folder);
    return P ? P->getNameAsString() : "";
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
  std::unique_ptr<DeviceOpsFinder> Finder;
};

std::unique_ptr<ASTUnit> BarrierPhasesTest::AST;

TEST_F(BarrierPhasesTest, PointerParameter) {
  EXPECT_EQ(parameter("byPointer"), "bar");
}

TEST_F(BarrierPhasesTest, AddressOfReferenceParameter) {
  EXPECT_EQ(parameter("byReference"), "bar");
}

TEST_F(BarrierPhasesTest, NeverWrittenLocalHoldingTheAddress) {
  EXPECT_EQ(parameter("byLocal"), "bar");
}

TEST_F(BarrierPhasesTest, WrittenLocalIsNoParameter) {
  EXPECT_EQ(parameter("byWrittenLocal"), "");
}

TEST_F(BarrierPhasesTest, AddressOfPointerParameterIsNoBarrier) {
  EXPECT_EQ(parameter("addressOfPointer"), "");
}

TEST_F(BarrierPhasesTest, OwnBarrierIsNoParameter) {
  EXPECT_EQ(parameter("notAParameter"), "");
}

TEST_F(BarrierPhasesTest, TripCounts) {
  const FunctionDecl *Fn = nullptr;
  std::vector<const ForStmt *> Loops;
  for (const BoundNodes &B :
       match(functionDecl(hasName("loops"), isDefinition(),
                          forEachDescendant(forStmt().bind("for")))
                 .bind("f"),
             AST->getASTContext())) {
    const auto *F = B.getNodeAs<FunctionDecl>("f");
    if (F->isDependentContext())
      continue;
    Fn = F;
    Loops.push_back(B.getNodeAs<ForStmt>("for"));
  }
  ASSERT_TRUE(Fn);
  ASSERT_EQ(Loops.size(), 6u);
  const ParentMap &PM = Folder->parentsOf(Fn->getBody());
  std::vector<std::optional<uint64_t>> Counts;
  for (const ForStmt *F : Loops)
    Counts.push_back(tripCount(F, PM, *Folder));
  using N = std::optional<uint64_t>;
  EXPECT_EQ(Counts[0], N(8));   // k < N / 8 with N = 64
  EXPECT_EQ(Counts[1], N(4));   // 2 <= k <= 5, k += 1
  EXPECT_EQ(Counts[2], N(4));   // k != 4
  EXPECT_EQ(Counts[3], N(0));   // 5 < 2: no iteration
  EXPECT_EQ(Counts[4], N());    // a run-time bound
  EXPECT_EQ(Counts[5], N());    // k += 2 is no counted loop
}

TEST_F(BarrierPhasesTest, ThisFieldPathThroughPointerFields) {
  std::vector<const Expr *> Args;
  ASSERT_TRUE(sinks("viaThis", Args));
  ASSERT_EQ(Args.size(), 2u);
  const auto *Addr = cast<UnaryOperator>(Args[0]->IgnoreParenCasts());
  llvm::SmallVector<const FieldDecl *, 2> Path;
  EXPECT_FALSE(thisFieldPath(Addr->getSubExpr(), Path));
  Path.clear();
  ASSERT_TRUE(thisFieldPath(Addr->getSubExpr(), Path, true));
  ASSERT_EQ(Path.size(), 2u);
  EXPECT_EQ(Path[0]->getName(), "full");
  EXPECT_EQ(Path[1]->getName(), "barrier_");
}

TEST_F(BarrierPhasesTest, MemberIdentityThroughPointerFields) {
  std::vector<const Expr *> Args;
  ASSERT_TRUE(sinks("pipelineOps", Args));
  ASSERT_EQ(Args.size(), 3u);
  const ASTContext &Ctx = AST->getASTContext();
  // `&pipe.full->barrier_` named directly...
  auto Direct = barrierIdentity(Args[0], Ctx);
  ASSERT_TRUE(Direct);
  EXPECT_TRUE(Direct->ReadsPointer);
  EXPECT_FALSE(Direct->Solid);
  // ... and as a method of `pipe` on its fields full, barrier_.
  const auto *Barrier = cast<MemberExpr>(
      cast<UnaryOperator>(Args[0]->IgnoreParenCasts())->getSubExpr());
  const auto *Full = cast<MemberExpr>(Barrier->getBase()->IgnoreParenImpCasts());
  const FieldDecl *Path[] = {cast<FieldDecl>(Full->getMemberDecl()),
                             cast<FieldDecl>(Barrier->getMemberDecl())};
  auto Member = memberBarrierIdentity(Full->getBase(), Path, Ctx);
  ASSERT_TRUE(Member);
  EXPECT_EQ(Member->Key, Direct->Key);
  EXPECT_EQ(Member->Member, ".full->barrier_");
  // `pipe.raw` as the barrier's pointer, both ways.
  auto Raw = barrierIdentity(Args[1], Ctx);
  ASSERT_TRUE(Raw);
  EXPECT_TRUE(Raw->ThroughPointer);
  EXPECT_TRUE(Raw->ReadsPointer);
  const auto *RawField = cast<MemberExpr>(Args[1]->IgnoreParenImpCasts());
  const FieldDecl *RawPath[] = {cast<FieldDecl>(RawField->getMemberDecl())};
  auto RawMember = memberBarrierIdentity(RawField->getBase(), RawPath, Ctx,
                                         /*Pointer=*/true);
  ASSERT_TRUE(RawMember);
  EXPECT_EQ(RawMember->Key, Raw->Key);
  // A barrier object's own field reads no pointer and is solid.
  auto Own = barrierIdentity(Args[2], Ctx);
  ASSERT_TRUE(Own);
  EXPECT_FALSE(Own->ReadsPointer);
  EXPECT_TRUE(Own->Solid);
  EXPECT_NE(Own->Key, Direct->Key);
}

/// Whether the one wait in the asm statement of \p Name blocks.
std::optional<bool> blocks(ASTContext &Ctx, DeviceOpsFinder &Finder,
                           const std::string &Name) {
  for (const BoundNodes &B :
       match(functionDecl(hasName(Name), isDefinition(),
                          forEachDescendant(asmStmt().bind("asm"))),
             Ctx))
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(B.getNodeAs<AsmStmt>("asm")))
      for (const DeviceOp &Op : Finder.opsOf(*Asm))
        if (const auto *W = std::get_if<Wait>(&Op))
          return blocksUntilComplete(*W);
  return std::nullopt;
}

TEST_F(BarrierPhasesTest, WaitThatLoopsBlocks) {
  EXPECT_EQ(blocks(AST->getASTContext(), *Finder, "loopWait"), true);
  EXPECT_EQ(blocks(AST->getASTContext(), *Finder, "oneTry"), false);
  EXPECT_EQ(blocks(AST->getASTContext(), *Finder, "predicatedBack"), false);
}

TEST_F(BarrierPhasesTest, ParityTracksIterations) {
  ASTContext &Ctx = AST->getASTContext();
  std::vector<bool> Tracks;
  for (const BoundNodes &B :
       match(functionDecl(hasName("parities"), isDefinition(),
                          forEachDescendant(
                              callExpr(callee(functionDecl(hasName("waitOn"))))
                                  .bind("call")))
                 .bind("f"),
             Ctx)) {
    const auto *F = B.getNodeAs<FunctionDecl>("f");
    const auto *Call = B.getNodeAs<CallExpr>("call");
    const Stmt *Body = F->getBody();
    const ParentMap &PM = Folder->parentsOf(Body);
    const Stmt *Loop = Call;
    while (Loop && !isa<ForStmt>(Loop))
      Loop = PM.getParent(Loop);
    ASSERT_TRUE(Loop);
    Tracks.push_back(parityTracksIterations(Call->getArg(0), Call, Loop, Body,
                                            PM, *Folder));
  }
  // a ^= 1 in the increment, b = 1 - b after the wait, c = !c before it
  // from 1, k & 1: yes; d flipped first from 0, (k / 2) & 1, k % 2 from 1,
  // two flips, a guarded flip, a continue: no.
  EXPECT_EQ(Tracks, (std::vector<bool>{true, true, true, false, true, false,
                                       false, false, false, false}));
}

} // namespace
