//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/KernelEvents.
//
//===----------------------------------------------------------------------===//
//
// The text recognisers (builtin and intrinsic roles, the address operand of
// ld.shared / ldmatrix) on their own; the barrier names and the start of a
// buffer on one CUDA translation unit parsed for the device: each function
// passes an address to `sink`, resolved with the substitution the kernel
// model gives (a parameter stands for the argument bound to it, a local
// pointer for its initialiser).
//
//===----------------------------------------------------------------------===//

#include "api/KernelEvents.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <functional>
#include <memory>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

TEST(KernelEvents, BuiltinRoles) {
  using events::IntrinsicRole;
  EXPECT_EQ(events::builtinRole("__syncthreads"), IntrinsicRole::ThreadSync);
  EXPECT_EQ(events::builtinRole("__nvvm_bar0_and"), IntrinsicRole::ThreadSync);
  EXPECT_EQ(events::builtinRole("__nvvm_barrier_sync_cnt"),
            IntrinsicRole::ThreadSync);
  EXPECT_EQ(events::builtinRole("__nvvm_barrier_cluster_wait"),
            IntrinsicRole::ThreadSync);
  // Register exchanges within a warp order no memory.
  EXPECT_EQ(events::builtinRole("__nvvm_shfl_sync_idx_i32"),
            IntrinsicRole::None);
  EXPECT_EQ(events::builtinRole("__nvvm_vote_ballot_sync"),
            IntrinsicRole::None);
  EXPECT_EQ(events::builtinRole("__nvvm_redux_sync_add"), IntrinsicRole::None);
  EXPECT_EQ(events::builtinRole("__nvvm_match_any_sync_i32"),
            IntrinsicRole::None);
  // __syncwarp orders one warp: a barrier of that warp only.
  EXPECT_EQ(events::builtinRole("__nvvm_bar_warp_sync"),
            IntrinsicRole::WarpSync);
  EXPECT_EQ(events::builtinRole("__nvvm_mbarrier_init_shared"),
            IntrinsicRole::Opaque);
  EXPECT_EQ(events::builtinRole("__nvvm_membar_cta"), IntrinsicRole::Opaque);
  EXPECT_EQ(events::builtinRole("__nvvm_read_ptx_sreg_tid_x"),
            IntrinsicRole::None);
}

TEST(KernelEvents, WarpBarrierLines) {
  using events::AsmLineKind;
  auto Kinds = [](llvm::StringRef Text) {
    std::vector<AsmLineKind> Out;
    for (const events::AsmLine &L : events::asmLines(Text))
      Out.push_back(L.Kind);
    return Out;
  };
  EXPECT_EQ(Kinds("bar.warp.sync 0xffffffff;"),
            std::vector<AsmLineKind>{AsmLineKind::WarpSync});
  EXPECT_EQ(Kinds("bar.sync 1, 256;"),
            std::vector<AsmLineKind>{AsmLineKind::ThreadSync});
  EXPECT_EQ(Kinds("barrier.sync.aligned 0;"),
            std::vector<AsmLineKind>{AsmLineKind::ThreadSync});
}

TEST(KernelEvents, SharedReads) {
  EXPECT_EQ(events::asmSharedReadOperand("ld.shared.b32", "%0, [%1]"), 1u);
  EXPECT_EQ(events::asmSharedReadOperand("ld.shared::cta.v4.u32",
                                         "{%0, %1, %2, %3}, [%4+16]"),
            4u);
  EXPECT_EQ(events::asmSharedReadOperand("ld.volatile.shared.f32", "%0, [%1]"),
            1u);
  EXPECT_EQ(events::asmSharedReadOperand(
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                "{%0, %1, %2, %3}, [%4]"),
            4u);
  // ldmatrix reads shared memory with a generic address too.
  EXPECT_EQ(events::asmSharedReadOperand("ldmatrix.sync.aligned.m8n8.x2.b16",
                                         "{%0, %1}, [%2]"),
            2u);
  // Not a generic shared read: global, a remote CTA, a register address.
  EXPECT_FALSE(events::asmSharedReadOperand("ld.global.b32", "%0, [%1]"));
  EXPECT_FALSE(
      events::asmSharedReadOperand("ld.shared::cluster.b32", "%0, [%1]"));
  EXPECT_FALSE(events::asmSharedReadOperand("ld.shared.b32", "%0, [ra]"));
  EXPECT_FALSE(events::asmSharedReadOperand("wgmma.mma_async.sync.aligned",
                                            "{%0}, %1, %2"));
  EXPECT_EQ(events::memoryOperand("[%3], %1"), 3u);
}

const char *const Code = R"cuda(
#include <cuda_runtime.h>
#include <cstdint>

__device__ void sink(const void *);
struct Stage {
  alignas(128) float C[64];
  uint64_t full[4];
};
__shared__ uint64_t bar;
__shared__ uint64_t bars[4];
__shared__ alignas(128) float tile[2][64];
__shared__ alignas(128) float flat[64];
extern __shared__ __align__(128) uint8_t smem[];

__device__ void scalar() { sink(&bar); }
__device__ void element0() { sink(&bars[0]); }
__device__ void decayed() { sink(bars); }
__device__ void offset() { sink(bars + 2); }
__device__ void element2() { sink(&bars[2]); }
__device__ void varying(int k) { sink(&bars[k]); }
__device__ void localPointer() {
  uint64_t *b = bars;
  sink(&b[2]);
}
__device__ void structBarrier() {
  Stage &s = *reinterpret_cast<Stage *>(smem);
  uint64_t *full = s.full;
  sink(&full[1]);
}
__device__ void structC() {
  Stage &s = *reinterpret_cast<Stage *>(smem);
  float *sC = s.C;
  sink(&sC[0]);
}
__device__ void structCPart() {
  Stage &s = *reinterpret_cast<Stage *>(smem);
  sink(&s.C[8]);
}
__device__ void stage0() { sink(&tile[0][0]); }
__device__ void flatStart() { sink(flat); }
__device__ void global(uint64_t *g) { sink(g); }
__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void sink(unsigned);
__device__ void windowPool() {
  const unsigned b = (unsigned)__cvta_generic_to_shared(smem);
  sink(b + 40);
}
__device__ void pointerPool() { sink(reinterpret_cast<uint64_t *>(smem + 40)); }
__device__ void windowFamily(int s) {
  const unsigned b = (unsigned)__cvta_generic_to_shared(smem);
  sink(b + 32 + 8 + s * 8);
}
__device__ void pointerFamily(int s) {
  sink(reinterpret_cast<uint64_t *>(smem + 40) + s);
}
__device__ void windowArray(int k) {
  sink((unsigned)__cvta_generic_to_shared(bars) + (k << 3));
}
__device__ void windowUnknown(int o) {
  const unsigned b = (unsigned)__cvta_generic_to_shared(smem);
  sink(b + o);
}
struct Vec4 { unsigned x, y, z, w; };
struct Pair { float a[2]; int b; };
__shared__ Vec4 vecs[8];
__shared__ Pair pairs[8];
__device__ void classCopy() { Vec4 v = vecs[1]; (void)v; }
__device__ void classAssign() { vecs[2] = vecs[3]; }
__device__ void compound() { flat[1] += 2.0f; }
__device__ void increment() { flat[1]++; }
__device__ unsigned vecLane() { return vecs[1].y; }
__device__ int pairField() { return pairs[1].b; }
)cuda";

class KernelEventsAst : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code);
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  const Expr *operand(const std::string &Function) {
    for (const BoundNodes &B : match(
             functionDecl(hasName(Function), isDefinition(),
                          forEachDescendant(
                              callExpr(callee(functionDecl(hasName("sink"))))
                                  .bind("call"))),
             AST->getASTContext()))
      return B.getNodeAs<CallExpr>("call")->getArg(0);
    return nullptr;
  }
  /// A local pointer or reference stands for its initialiser.
  static const Expr *initialiser(const VarDecl *VD) {
    return !VD || isa<ParmVarDecl>(VD) ? nullptr : VD->getInit();
  }
  std::optional<events::BarrierName> name(const std::string &Function) {
    return events::barrierNameOf(operand(Function), initialiser,
                                 AST->getASTContext());
  }
  bool start(const std::string &Function, const std::string &Root) {
    const Expr *E = operand(Function);
    const VarDecl *VD = nullptr;
    for (const BoundNodes &B :
         match(varDecl(hasName(Root)).bind("v"), AST->getASTContext()))
      VD = B.getNodeAs<VarDecl>("v");
    return events::startOfBuffer(E, initialiser, AST->getASTContext(), VD);
  }

  /// The accesses of every statement of \p Function's body, as "r" and
  /// "w" in statement order.
  std::string accesses(const std::string &Function) {
    std::string Out;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Function), isDefinition()).bind("f"),
               AST->getASTContext())) {
      std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
        if (!S)
          return;
        for (const Stmt *Child : S->children())
          Walk(Child); // operands first, as in the CFG
        for (const events::Access &A : events::accessesOf(S))
          Out += A.Write ? "w" : "r";
      };
      Walk(B.getNodeAs<FunctionDecl>("f")->getBody());
    }
    return Out;
  }
  /// Whether the member of \p Function's return value is an element part.
  bool elementPart(const std::string &Function) {
    for (const BoundNodes &B : match(
             functionDecl(hasName(Function), isDefinition(),
                          forEachDescendant(memberExpr().bind("m"))),
             AST->getASTContext()))
      return events::selectsElementPart(*B.getNodeAs<MemberExpr>("m"));
    return false;
  }

  static std::unique_ptr<ASTUnit> AST;
};
std::unique_ptr<ASTUnit> KernelEventsAst::AST;

TEST_F(KernelEventsAst, Accesses) {
  // The copy of a class-typed element reads it; a copy assignment reads
  // its source and writes its target (the loads of the operator's own
  // reference parameters are not accesses).
  EXPECT_EQ(accesses("classCopy"), "r");
  EXPECT_EQ(accesses("classAssign"), "rw");
  // A compound assignment and an increment read, then write.
  EXPECT_EQ(accesses("compound"), "rw");
  EXPECT_EQ(accesses("increment"), "rw");
  EXPECT_EQ(accesses("vecLane"), "r");
}

TEST_F(KernelEventsAst, ElementParts) {
  EXPECT_TRUE(elementPart("vecLane"));   // vecs[1].y: a lane of an element
  EXPECT_FALSE(elementPart("pairField")); // a struct with an array field
}

TEST_F(KernelEventsAst, BarrierNames) {
  auto Scalar = name("scalar");
  ASSERT_TRUE(Scalar);
  EXPECT_EQ(Scalar->Display, "bar");
  EXPECT_TRUE(Scalar->Fixed);
  // &bars[0], bars and &b[0] through a local: one barrier.
  auto E0 = name("element0"), D = name("decayed");
  ASSERT_TRUE(E0 && D);
  EXPECT_EQ(E0->Key, D->Key);
  // bars + 2, &bars[2] and &b[2] with b = bars: one barrier, not bars[0].
  auto Off = name("offset"), E2 = name("element2"), Local = name("localPointer");
  ASSERT_TRUE(Off && E2 && Local);
  EXPECT_EQ(Off->Key, E2->Key);
  EXPECT_EQ(Local->Key, E2->Key);
  EXPECT_NE(E2->Key, E0->Key);
  auto V = name("varying");
  ASSERT_TRUE(V);
  EXPECT_FALSE(V->Fixed);
  // A field of a struct laid over extern shared memory, through a reference
  // and a local pointer.
  auto S = name("structBarrier");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Display, "smem.full");
  // A pointer parameter with nothing bound names no barrier.
  EXPECT_FALSE(name("global"));
}

TEST_F(KernelEventsAst, WindowAddresses) {
  // An integer shared-window address of a byte pool plus a byte offset is
  // the barrier the pointer form names, by its offset in the pool.
  auto W = name("windowPool"), P = name("pointerPool");
  ASSERT_TRUE(W && P);
  EXPECT_EQ(W->Key, P->Key);
  EXPECT_EQ(W->Display, "smem + 40");
  EXPECT_TRUE(W->Fixed);
  // A stride times a run-time index: a member of the pool's family.
  auto WF = name("windowFamily"), PF = name("pointerFamily");
  ASSERT_TRUE(WF && PF);
  EXPECT_EQ(WF->Display, "smem + 40 + 8 * s");
  EXPECT_EQ(PF->Display, WF->Display);
  EXPECT_FALSE(WF->Fixed);
  EXPECT_TRUE(WF->Index && WF->Pool);
  EXPECT_EQ(WF->Members, 0u);
  // The window address of an array of barriers: an array member.
  auto WA = name("windowArray");
  ASSERT_TRUE(WA);
  EXPECT_EQ(WA->Display, "bars");
  EXPECT_EQ(WA->Members, 4u);
  EXPECT_FALSE(WA->Pool);
  // An offset that is no constant or stage term names nothing.
  EXPECT_FALSE(name("windowUnknown"));
}

TEST_F(KernelEventsAst, StartOfBuffer) {
  EXPECT_TRUE(start("structC", "smem"));   // &sC[0], sC = s.C
  EXPECT_FALSE(start("structCPart", "smem")); // &s.C[8]
  EXPECT_TRUE(start("flatStart", "flat"));
  // The first stage of an array of stages is not the whole buffer.
  EXPECT_FALSE(start("stage0", "tile"));
  EXPECT_FALSE(start("flatStart", "tile")); // another root
}

} // namespace
