//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/SharedBuffers.
//
//===----------------------------------------------------------------------===//
//
// One CUDA translation unit, parsed for the device against the stub headers.
// Each function passes one shared-memory address to `sink`; the test
// resolves that argument (looked through as DeviceOpsFinder does for
// OpValue::E) and checks the buffer, alignment, offset and room found.
//
//===----------------------------------------------------------------------===//

#include "api/SharedBuffers.h"
#include "api/DeviceOpsFinder.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "StubAST.h"
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
#include <cstdint>

__device__ void sink(const void *);
struct alignas(16) V4 { int x, y, z, w; };
struct Stage {
  uint64_t bar;
  alignas(128) float x[64];
};

__shared__ alignas(128) float a[256];
__shared__ alignas(1024) unsigned short t[2][64 * 64];
__shared__ alignas(128) Stage s;
__shared__ float plain[100];
extern __shared__ __align__(1024) char pool[];
extern __shared__ V4 pool4[];
__shared__ float *sp;

__device__ void whole() { sink(a); }
__device__ void element() { sink(&a[4]); }
__device__ void plus() { sink(a + 33); }
__device__ void minus() { sink(&a[8] - 2); }
__device__ void row() { sink(&t[1][0]); }
__device__ void rowDecay() { sink(t[1] + 64); }
__device__ void bytes() { sink(reinterpret_cast<char *>(a) + 8); }
__device__ void wide() { sink((V4 *)a + 3); }
__device__ void field() { sink(&s.x[2]); }
__device__ void fieldDecay() { sink(s.x); }
__device__ void natural() { sink(plain + 1); }
__device__ void externBytes() { sink(pool + 8); }
__device__ void externWide() { sink(reinterpret_cast<char *>(pool4) + 8); }
__device__ void externAligned() { sink(pool4 + 1); }
__device__ void externPlain() {
  extern __shared__ char plainPool[];
  sink(plainPool + 8);
}
__device__ void roundedMask() {
  sink(reinterpret_cast<char *>(
           (reinterpret_cast<uintptr_t>(pool4) + 1023) & ~uintptr_t(1023)) +
       64);
}
__device__ void roundedDiv() {
  sink(reinterpret_cast<V4 *>((reinterpret_cast<uint64_t>(&pool[0]) + 4096) /
                              1024 * 1024) +
       1);
}
__device__ void roundedShift() {
  sink((char *)(((uintptr_t)pool >> 7) << 7) + 32);
}
__device__ void roundedLocal() {
  const uintptr_t at = reinterpret_cast<uintptr_t>(pool4) + 127;
  sink(reinterpret_cast<char *>(at & ~uintptr_t(127)));
}
__device__ void notRounding() {
  sink(reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(pool) & 0xffff));
}
__device__ void local() {
  float *p = a + 32;
  sink(p + 4);
}
__device__ void modified() {
  float *q = a;
  q += 4;
  sink(q);
}
__device__ void reference() {
  Stage &r = *reinterpret_cast<Stage *>(pool4);
  sink(&r.x[2]);
}
__device__ void arrow() {
  Stage *r = reinterpret_cast<Stage *>(pool);
  sink(r->x + 1);
}
template <int K> __device__ void templ() { sink(a + K); }
template __device__ void templ<3>();
__device__ void helper(float *d, int k) { sink(d + k); }
__global__ void caller() { helper(a + 32, 4); }
__device__ void unknown() { sink(a + threadIdx.x); }
__global__ void global(float *g) { sink(g); }
__device__ void sharedPointer() { sink(sp); }
__device__ float *stagePtr(float *base, int stage) { return base + stage * 48; }
__device__ void helperReturn() { sink(stagePtr(a, 2)); }
__device__ void helperReturnUnknown(int s) { sink(stagePtr(a, s)); }
__device__ void stageRow(int s) { sink(&t[s][0]); }
__device__ void stageRowPlus(int s) { sink(reinterpret_cast<char *>(&t[s][0]) + 8); }
__device__ void stageFlat(int k) { sink(&t[0][0] + (k % 2) * 4096 + 64); }
__device__ void stageShift(int k) { sink(&t[0][0] + (k << 12)); }
__device__ void stageSmallStride(int s) { sink(&a[s]); }
__device__ void stageProduct(int i, int j) { sink(&t[0][0] + i * j); }
__device__ void local2d() {
  auto *rowp = t[1];
  sink(&rowp[16]);
}
namespace kittens {
template <int D = 1024> struct shared_allocator {
  int *ptr;
  __device__ shared_allocator(int *p) : ptr(p) {}
  template <int Al> __device__ void align_ptr() {
    uint64_t p = reinterpret_cast<uint64_t>(ptr);
    if (Al > 0 && p % Al != 0)
      ptr = (int *)(p + (Al - p % Al));
  }
  template <typename A> __device__ A &allocate() {
    align_ptr<D>();
    A *p = reinterpret_cast<A *>(ptr);
    ptr += sizeof(A) / sizeof(int);
    return *p;
  }
  template <int Al, typename A> __device__ A &allocate() {
    align_ptr<Al>();
    A *p = reinterpret_cast<A *>(ptr);
    ptr += sizeof(A) / sizeof(int);
    return *p;
  }
};
}
struct Blk {
  uint64_t bars[4];
  float x[64];
};
__device__ void allocated() {
  kittens::shared_allocator<> al((int *)pool);
  Blk &b = al.allocate<Blk>();
  sink(&b.x[0]);
}
__device__ void allocatedPerCall() {
  kittens::shared_allocator<16> al((int *)pool);
  Blk &b = al.allocate<128, Blk>();
  sink(b.x);
}
__device__ void allocatedUnaligned() {
  kittens::shared_allocator<-1> al((int *)pool);
  Blk &b = al.allocate<Blk>();
  sink(b.x);
}
__device__ void allocatorMoved() {
  kittens::shared_allocator<> al((int *)pool);
  al.ptr = (int *)sp;
  Blk &b = al.allocate<Blk>();
  sink(b.x);
}
)cuda";

class SharedBuffersTest : public ::testing::Test {
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
    Buffers = std::make_unique<SharedBuffers>(AST->getASTContext(), *Folder);
  }

  /// The argument of the `sink` call in \p Function, looked through.
  const Expr *operand(const std::string &Function) {
    // A template's instantiation, not its pattern.
    const CallExpr *Call = nullptr;
    unsigned Count = 0;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Function), isDefinition(),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName("sink"))))
                                    .bind("call")))
                   .bind("f"),
               AST->getASTContext())) {
      if (B.getNodeAs<FunctionDecl>("f")->isDependentContext())
        continue;
      Call = B.getNodeAs<CallExpr>("call");
      ++Count;
    }
    EXPECT_EQ(Count, 1u) << Function;
    return Call ? Finder->lookThrough(Call->getArg(0)) : nullptr;
  }

  std::optional<SharedBuffer> resolve(const std::string &Function) {
    Folder->enterContext(nullptr);
    return Buffers->resolve(operand(Function));
  }

  static std::string name(const SharedBuffer &B) {
    return B.Var ? B.Var->getNameAsString() : "<null>";
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
  std::unique_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<SharedBuffers> Buffers;
};

std::unique_ptr<ASTUnit> SharedBuffersTest::AST;

using OptInt = std::optional<std::int64_t>;
using OptUInt = std::optional<std::uint64_t>;

TEST_F(SharedBuffersTest, WholeArray) {
  auto B = resolve("whole");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "a");
  EXPECT_FALSE(B->Extern);
  EXPECT_EQ(B->BaseAlign, OptUInt(128));
  EXPECT_TRUE(B->AlignDeclared);
  EXPECT_EQ(B->Offset, OptInt(0));
  EXPECT_EQ(B->Size, OptUInt(1024));
  EXPECT_EQ(B->BytesToEnd, OptUInt(1024));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(128));
}

TEST_F(SharedBuffersTest, ElementAndPointerArithmetic) {
  auto B = resolve("element");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(16));
  EXPECT_EQ(B->BytesToEnd, OptUInt(1008));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(16));
  B = resolve("plus");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(132));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(4));
  B = resolve("minus");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(24));
}

TEST_F(SharedBuffersTest, TwoDimensions) {
  auto B = resolve("row");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "t");
  EXPECT_EQ(B->BaseAlign, OptUInt(1024));
  EXPECT_EQ(B->Offset, OptInt(8192));
  EXPECT_EQ(B->BytesToEnd, OptUInt(8192));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(1024));
  B = resolve("rowDecay");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(8192 + 128));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(128));
  B = resolve("local2d");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(8192 + 32));
}

TEST_F(SharedBuffersTest, CastsChangeTheStep) {
  auto B = resolve("bytes");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(8));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
  B = resolve("wide");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(48));
}

TEST_F(SharedBuffersTest, Fields) {
  auto B = resolve("field");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "s");
  EXPECT_EQ(B->Offset, OptInt(136));
  EXPECT_EQ(B->Size, OptUInt(384));
  EXPECT_EQ(B->BytesToEnd, OptUInt(248));
  B = resolve("fieldDecay");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(128));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(128));
}

TEST_F(SharedBuffersTest, NaturalAlignmentOnly) {
  auto B = resolve("natural");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, OptUInt(4));
  EXPECT_FALSE(B->AlignDeclared);
  EXPECT_EQ(B->Offset, OptInt(4));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(4));
}

TEST_F(SharedBuffersTest, ExternPools) {
  // An extern pool's start is taken as aligned to its declaration's
  // __align__: 8 bytes in breaks it.
  auto B = resolve("externBytes");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "pool");
  EXPECT_TRUE(B->Extern);
  EXPECT_EQ(B->BaseAlign, OptUInt(1024));
  EXPECT_TRUE(B->AlignDeclared);
  EXPECT_EQ(B->Offset, OptInt(8));
  EXPECT_FALSE(B->Size);
  EXPECT_FALSE(B->BytesToEnd);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
  // A 16-byte element type proves 16 bytes: an offset of 8 is misaligned...
  B = resolve("externWide");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, OptUInt(16));
  EXPECT_FALSE(B->AlignDeclared);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
  // ...and a multiple of 16 proves no more than the unknown start.
  B = resolve("externAligned");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(16));
  EXPECT_FALSE(addressAlignOf(*B));
  // char and no __align__: dynamic shared memory starts 16-byte aligned.
  B = resolve("externPlain");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, OptUInt(16));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
}

TEST_F(SharedBuffersTest, ExternCastToAlignedType) {
  // *reinterpret_cast<Stage *>(pool4): the code takes the start to be
  // aligned to Stage (alignas(128) member), more than V4's 16 bytes.
  auto B = resolve("reference");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, OptUInt(128));
  EXPECT_TRUE(B->AlignFromCast);
  EXPECT_EQ(B->Offset, OptInt(136));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
  // The declared 1024 of pool is more than Stage's 128.
  B = resolve("arrow");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, OptUInt(1024));
  EXPECT_TRUE(B->AlignDeclared);
  EXPECT_FALSE(B->AlignFromCast);
}

TEST_F(SharedBuffersTest, RoundedAddresses) {
  // (p + 1023) & ~1023, then 64 bytes: the rounded address is the base.
  auto B = resolve("roundedMask");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "pool4");
  EXPECT_EQ(B->RoundedTo, 1024u);
  EXPECT_EQ(B->BaseAlign, OptUInt(1024));
  EXPECT_EQ(B->Offset, OptInt(64));
  EXPECT_FALSE(B->BytesToEnd);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(64));
  // (p + 4096) / 1024 * 1024, then one V4.
  B = resolve("roundedDiv");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->RoundedTo, 1024u);
  EXPECT_EQ(B->Offset, OptInt(16));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(16));
  // p >> 7 << 7, then 32 bytes.
  B = resolve("roundedShift");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->RoundedTo, 128u);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(32));
  // Through a const local; at the rounded address itself the alignment is
  // at least 128 and perhaps more: no answer.
  B = resolve("roundedLocal");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->RoundedTo, 128u);
  EXPECT_EQ(B->Offset, OptInt(0));
  EXPECT_FALSE(addressAlignOf(*B));
  // A mask that keeps low bits rounds nothing.
  EXPECT_FALSE(resolve("notRounding"));
}

TEST_F(SharedBuffersTest, Locals) {
  auto B = resolve("local");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(144));
  EXPECT_FALSE(resolve("modified"));
  B = resolve("reference");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "pool4");
  EXPECT_EQ(B->Offset, OptInt(136));
  B = resolve("arrow");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "pool");
  EXPECT_EQ(B->Offset, OptInt(132));
}

TEST_F(SharedBuffersTest, TemplateConstant) {
  auto B = resolve("templ");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(12));
}

TEST_F(SharedBuffersTest, CallSiteContext) {
  // Without a context the parameter is unknown.
  EXPECT_FALSE(resolve("helper"));
  const Expr *E = operand("helper");
  auto Helper =
      match(functionDecl(hasName("helper")).bind("f"), AST->getASTContext());
  ASSERT_EQ(Helper.size(), 1u);
  auto Contexts = Folder->contextsOf(Helper[0].getNodeAs<FunctionDecl>("f"));
  ASSERT_EQ(Contexts.size(), 1u);
  Folder->enterContext(Contexts[0]);
  auto B = Buffers->resolve(E);
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "a");
  EXPECT_EQ(B->Offset, OptInt(144));
  EXPECT_EQ(Folder->currentContext(), Contexts[0]);
}

TEST_F(SharedBuffersTest, HelperReturningAnAddress) {
  auto B = resolve("helperReturn");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "a");
  EXPECT_EQ(B->Offset, OptInt(384));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(128));
  B = resolve("helperReturnUnknown");
  ASSERT_TRUE(B);
  EXPECT_FALSE(B->Offset);
}

TEST_F(SharedBuffersTest, UnknownIndexKeepsTheBuffer) {
  auto B = resolve("unknown");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "a");
  EXPECT_FALSE(B->Offset);
  EXPECT_FALSE(B->BytesToEnd);
  EXPECT_FALSE(addressAlignOf(*B));
}

TEST_F(SharedBuffersTest, RunTimeStageIndexKnownModuloTheStride) {
  // t: alignas(1024) unsigned short[2][4096], rows of 8192 bytes.
  auto B = resolve("stageRow");
  ASSERT_TRUE(B);
  EXPECT_FALSE(B->Offset);
  EXPECT_FALSE(B->BytesToEnd);
  EXPECT_EQ(B->Stride, 8192u);
  EXPECT_EQ(B->Residue, 0);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(1024));
  B = resolve("stageRowPlus");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Residue, 8);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(8));
  B = resolve("stageFlat");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Stride, 8192u);
  EXPECT_EQ(B->Residue, 128);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(128));
  B = resolve("stageShift");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Stride, 8192u);
  EXPECT_EQ(addressAlignOf(*B), OptUInt(1024));
}

TEST_F(SharedBuffersTest, StrideBelowTheBaseAlignmentProvesLittle) {
  // a: alignas(128) float[256]: a 4-byte stride, residue 0: unknown.
  auto B = resolve("stageSmallStride");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Stride, 4u);
  EXPECT_FALSE(addressAlignOf(*B));
  // Two run-time factors: any element.
  B = resolve("stageProduct");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Stride, 2u);
  EXPECT_FALSE(addressAlignOf(*B));
}

TEST_F(SharedBuffersTest, AllocatorRoundsToItsDefaultAlignment) {
  // ThunderKittens' shared_allocator: the pool, rounded up to 1024 bytes;
  // the field's offset counts from there.
  auto B = resolve("allocated");
  ASSERT_TRUE(B);
  EXPECT_EQ(name(*B), "pool");
  EXPECT_EQ(B->RoundedTo, 1024u);
  EXPECT_EQ(B->Offset, OptInt(32));
  EXPECT_EQ(addressAlignOf(*B), OptUInt(32));
}

TEST_F(SharedBuffersTest, AllocatorPerCallAlignment) {
  auto B = resolve("allocatedPerCall");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->RoundedTo, 128u);
  EXPECT_EQ(B->Offset, OptInt(32));
}

TEST_F(SharedBuffersTest, AllocatorThatDoesNotRoundOrIsMovedIsUnknown) {
  EXPECT_FALSE(resolve("allocatedUnaligned"));
  EXPECT_FALSE(resolve("allocatorMoved"));
}

TEST_F(SharedBuffersTest, NotSharedMemory) {
  EXPECT_FALSE(resolve("global"));
  EXPECT_FALSE(resolve("sharedPointer"));
  EXPECT_FALSE(Buffers->resolve(static_cast<const Expr *>(nullptr)));
}

TEST_F(SharedBuffersTest, AsmOperandOffset) {
  OpValue V;
  V.Present = true;
  V.E = operand("element");
  V.Offset = 16;
  Folder->enterContext(nullptr);
  auto B = Buffers->resolve(V);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Offset, OptInt(32));
  EXPECT_EQ(B->BytesToEnd, OptUInt(992));
}

} // namespace
