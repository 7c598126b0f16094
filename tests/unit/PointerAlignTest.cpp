//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of folding/PointerAlign.
//
//===----------------------------------------------------------------------===//
//
// One CUDA translation unit, parsed for the host against the stub headers.
// Each function passes one address to `sink`; the test asks the folder what
// is proven about it (ConstantFolder::pointerAlign): the base (a variable or
// a device allocation of the runtime or the driver), its alignment, the
// constant byte offset, and the largest power of two the address is proven
// to be a multiple of only (provenAlign). Whatever is not followed is
// std::nullopt: silence over guesses.
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
#include <optional>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <stdlib.h>

void sink(const void *);
struct alignas(64) Desc { char bytes[128]; };
struct Pair { int a; alignas(32) float b[8]; };

void runtimeMalloc(size_t n) { float *d; cudaMalloc(&d, n); sink(d + 3); }
void runtimeAligned(size_t n) { float *d; cudaMalloc(&d, n); sink(d + 64); }
void runtimeAsync(size_t n, cudaStream_t s) {
  char *d = nullptr;
  cudaMallocAsync((void **)&d, n, s);
  sink(d + 8);
}
void runtimeManaged(size_t n) {
  double *d;
  cudaMallocManaged((void **)&d, n, 1);
  sink(d - 1 + 3);
}
void runtimePitch() {
  unsigned short *d;
  size_t pitch;
  cudaMallocPitch((void **)&d, &pitch, 1024, 64);
  sink(d + 1);
}
void driverAlloc(size_t n) {
  CUdeviceptr d;
  cuMemAlloc(&d, n);
  sink((void *)(d + 4));
}
void driverPitch() {
  CUdeviceptr d;
  size_t pitch;
  cuMemAllocPitch(&d, &pitch, 1024, 64, 4);
  sink(reinterpret_cast<void *>(24 + d));
}
void driverManagedLocal(size_t n) {
  CUdeviceptr d;
  cuMemAllocManaged(&d, n, 1);
  const CUdeviceptr row = d + 512 - 2;
  sink((void *)row);
}
void driverAsync(size_t n, CUstream s) {
  CUdeviceptr d;
  cuMemAllocAsync(&d, n, s);
  sink((void *)(unsigned long long)(d + 32));
}
void variable() { Desc m; sink(&m); }
void member() { Pair p; sink(&p.b[1]); }
void array() { alignas(16) char buf[64]; sink(buf + 4); }
void helper(const float *p) { sink(p); }
void caller(size_t n) { float *d; cudaMalloc(&d, n); helper(d + 2); }

// Not proven: nothing is reported for these.
void reassigned(size_t n, float *other) {
  float *d;
  cudaMalloc(&d, n);
  d = other;
  sink(d + 1);
}
void driverReassigned(size_t n) {
  CUdeviceptr d;
  cuMemAlloc(&d, n);
  d += 4;
  sink((void *)d);
}
void runtimeOffset(size_t n, int k) { float *d; cudaMalloc(&d, n); sink(d + k); }
void hostHeap(size_t n) { float *d = (float *)malloc(n); sink(d + 1); }
void unbound(float *p) { sink(p + 1); }
void integerFromPointer(float *p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p) + 4;
  sink((void *)a);
}
void narrowInteger(size_t n) {
  CUdeviceptr d;
  cuMemAlloc(&d, n);
  unsigned low = (unsigned)d;
  sink((void *)(uintptr_t)low);
}
)cuda";

class PointerAlignTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code, "--cuda-host-only");
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Folder = std::make_unique<ConstantFolder>(AST->getASTContext());
  }

  /// The argument of the `sink` call in \p Function, and the function.
  const Expr *operand(const std::string &Function,
                      const FunctionDecl **FD = nullptr) {
    const CallExpr *Call = nullptr;
    unsigned Count = 0;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Function), isDefinition(),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName("sink"))))
                                    .bind("call")))
                   .bind("f"),
               AST->getASTContext())) {
      Call = B.getNodeAs<CallExpr>("call");
      if (FD)
        *FD = B.getNodeAs<FunctionDecl>("f");
      ++Count;
    }
    EXPECT_EQ(Count, 1u) << Function;
    return Call ? Call->getArg(0) : nullptr;
  }

  std::optional<PointerAlign> align(const std::string &Function) {
    Folder->enterContext(nullptr);
    return Folder->pointerAlign(operand(Function));
  }

  /// The callee that allocated the base, or "".
  static std::string allocator(const PointerAlign &A) {
    return A.Alloc && A.Alloc->getDirectCallee()
               ? A.Alloc->getDirectCallee()->getNameAsString()
               : "";
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
};

std::unique_ptr<ASTUnit> PointerAlignTest::AST;

using OptUInt = std::optional<std::uint64_t>;

struct Expected {
  const char *Function;
  const char *Allocator;
  std::int64_t Offset;
  OptUInt Proven;
};

TEST_F(PointerAlignTest, DeviceAllocations) {
  const Expected Cases[] = {
      {"runtimeMalloc", "cudaMalloc", 12, 4},
      {"runtimeAligned", "cudaMalloc", 256, std::nullopt},
      {"runtimeAsync", "cudaMallocAsync", 8, 8},
      {"runtimeManaged", "cudaMallocManaged", 16, 16},
      {"runtimePitch", "cudaMallocPitch", 2, 2},
      {"driverAlloc", "cuMemAlloc_v2", 4, 4},
      {"driverPitch", "cuMemAllocPitch_v2", 24, 8},
      {"driverManagedLocal", "cuMemAllocManaged", 510, 2},
      {"driverAsync", "cuMemAllocAsync", 32, 32},
  };
  for (const Expected &E : Cases) {
    auto A = align(E.Function);
    ASSERT_TRUE(A) << E.Function;
    EXPECT_EQ(A->Kind, PointerAlign::Allocation) << E.Function;
    EXPECT_EQ(A->BaseAlign, DeviceAllocationAlign) << E.Function;
    EXPECT_EQ(allocator(*A), E.Allocator) << E.Function;
    EXPECT_EQ(A->Base->getName(), "d") << E.Function;
    EXPECT_EQ(A->Offset, E.Offset) << E.Function;
    EXPECT_EQ(A->provenAlign(), E.Proven) << E.Function;
  }
}

TEST_F(PointerAlignTest, Variables) {
  auto M = align("variable");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, PointerAlign::Variable);
  EXPECT_EQ(M->BaseAlign, 64u);
  EXPECT_EQ(M->Offset, 0);
  EXPECT_EQ(M->provenAlign(), std::nullopt);
  // Pair::b is at 32; b[1] 4 bytes further.
  auto P = align("member");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->BaseAlign, 32u);
  EXPECT_EQ(P->Offset, 36);
  EXPECT_EQ(P->provenAlign(), OptUInt(4));
  auto B = align("array");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->BaseAlign, 16u);
  EXPECT_EQ(B->provenAlign(), OptUInt(4));
}

TEST_F(PointerAlignTest, ParameterBoundByTheCall) {
  const FunctionDecl *Helper = nullptr;
  const Expr *Arg = operand("helper", &Helper);
  ASSERT_TRUE(Helper);
  // Without a context the parameter is unknown; under the caller's it is
  // the allocation plus 8 bytes.
  Folder->enterContext(nullptr);
  EXPECT_FALSE(Folder->pointerAlign(Arg));
  bool Found = false;
  for (const CallContext *C : Folder->contextsOf(Helper)) {
    Folder->enterContext(C);
    if (auto A = Folder->pointerAlign(Arg)) {
      Found = true;
      EXPECT_EQ(allocator(*A), "cudaMalloc");
      EXPECT_EQ(A->Offset, 8);
      EXPECT_EQ(A->provenAlign(), OptUInt(8));
      EXPECT_EQ(A->Through.size(), 1u);
    }
  }
  Folder->enterContext(nullptr);
  EXPECT_TRUE(Found);
}

TEST_F(PointerAlignTest, NotProvenIsSilent) {
  for (const char *F :
       {"reassigned", "driverReassigned", "runtimeOffset", "hostHeap",
        "unbound", "integerFromPointer", "narrowInteger"})
    EXPECT_FALSE(align(F)) << F;
}

} // namespace
