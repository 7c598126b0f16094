//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/MapLink.
//
//===----------------------------------------------------------------------===//
//
// One CUDA translation unit with kernels and the host code that launches
// them, parsed for the device against the stub headers (host functions are
// in the AST too). Each kernel passes one tensor-map operand to `sink`; the
// test links it, in the context of the kernel's one launch, and checks the
// encode call found (by its box) or that none is. The shapes exercise the
// linker's pieces: getters (getterObject), constructors (fromConstruct,
// member initialisers and bodies), and pointer fields (Deref path steps).
//
//===----------------------------------------------------------------------===//

#include "api/MapLink.h"
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
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>

__device__ void sink(const void *);

template <int Rows, int Cols>
void encode(CUtensorMap *map, void *ptr) {
  uint64_t dims[2] = {4096, 4096};
  uint64_t strides[1] = {8192};
  uint32_t box[2] = {Cols, Rows};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
template <int Rows, int Cols> CUtensorMap made(void *ptr) {
  CUtensorMap m;
  encode<Rows, Cols>(&m, ptr);
  return m;
}

// getterObject: a getter of the map, and a getter of a getter.
struct Holder {
  CUtensorMap m;
  __host__ __device__ const CUtensorMap *get() const { return &m; }
};
struct Outer {
  int pad;
  Holder h;
  __host__ __device__ const CUtensorMap *get() const { return h.get(); }
  __host__ __device__ const CUtensorMap &ref() const { return h.m; }
};
struct TwoReturns {
  CUtensorMap a, b;
  __host__ __device__ const CUtensorMap *get(bool first) const {
    if (first)
      return &a;
    return &b;
  }
};
__global__ void getter(const __grid_constant__ Holder g) { sink(g.get()); }
__global__ void nestedGetter(const __grid_constant__ Outer o) {
  sink(o.get());
}
__global__ void refGetter(const __grid_constant__ Outer o) { sink(&o.ref()); }
__global__ void twoReturns(const __grid_constant__ TwoReturns t) {
  sink(t.get(true));
}
void launchGetters(void *p) {
  Holder g;
  encode<64, 32>(&g.m, p);
  getter<<<1, 128>>>(g);
  Outer o;
  encode<128, 64>(&o.h.m, p);
  nestedGetter<<<1, 128>>>(o);
  refGetter<<<1, 128>>>(o);
  TwoReturns t;
  encode<16, 16>(&t.a, p);
  encode<32, 16>(&t.b, p);
  twoReturns<<<1, 128>>>(t);
}

// fromConstruct: a constructor body that encodes into its field, a member
// initialiser, and one that writes another field only.
struct Built {
  CUtensorMap desc;
  int rows;
  Built(void *p) : rows(64) { encode<64, 16>(&desc, p); }
};
struct Initialised {
  CUtensorMap desc;
  Initialised(void *p) : desc(made<32, 32>(p)) {}
};
struct OtherField {
  CUtensorMap desc;
  int rows;
  OtherField(int r) { rows = r; }
};
__global__ void built(const __grid_constant__ Built b) { sink(&b.desc); }
__global__ void initialised(const __grid_constant__ Initialised i) {
  sink(&i.desc);
}
__global__ void otherField(const __grid_constant__ OtherField o) {
  sink(&o.desc);
}
void launchBuilt(void *p) {
  Built b(p);
  built<<<1, 128>>>(b);
  Initialised i(p);
  initialised<<<1, 128>>>(i);
  OtherField o(3);
  otherField<<<1, 128>>>(o);
}

// Pointer fields: the field's pointee, a device copy of a host map.
template <int Rows, int Cols> CUtensorMap *deviceMap(void *ptr) {
  CUtensorMap host;
  encode<Rows, Cols>(&host, ptr);
  CUtensorMap *dev;
  cudaMalloc(&dev, sizeof(CUtensorMap));
  cudaMemcpy(dev, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  return dev;
}
struct PtrParams {
  const CUtensorMap *a;
  const CUtensorMap *b;
};
__global__ void ptrField(const __grid_constant__ PtrParams p) { sink(p.b); }
__global__ void ptrArrow(const PtrParams *p) { sink(p->a); }
__global__ void ptrRefilled(const __grid_constant__ PtrParams p) {
  sink(p.a);
}
void launchPointers(void *p) {
  PtrParams params{deviceMap<8, 64>(p), nullptr};
  params.b = deviceMap<16, 64>(p);
  ptrField<<<1, 128>>>(params);
  PtrParams *dev;
  cudaMalloc(&dev, sizeof(PtrParams));
  cudaMemcpy(dev, &params, sizeof(PtrParams), cudaMemcpyHostToDevice);
  ptrArrow<<<1, 128>>>(dev);
}
void launchRefilled(void *p) {
  CUtensorMap first, second;
  encode<8, 8>(&first, p);
  encode<4, 8>(&second, p);
  CUtensorMap *d;
  cudaMalloc(&d, sizeof(CUtensorMap));
  cudaMemcpy(d, &first, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  PtrParams params;
  params.a = d;
  cudaMemcpy(d, &second, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  ptrRefilled<<<1, 128>>>(params);
}

// Plain pointer variables: a store through the pointer writes the map; a
// copy of the pointer or an unknown call receiving it may write it later;
// a launch through a function pointer into a non-const parameter reads it.
__global__ void plainStored(const CUtensorMap *m) { sink(m); }
__global__ void plainCopied(const CUtensorMap *m) { sink(m); }
__global__ void plainUnknownCall(const CUtensorMap *m) { sink(m); }
__global__ void plainAfterLaunch(const CUtensorMap *m) { sink(m); }
__global__ void touch(CUtensorMap *m) { sink(m); }
void opaqueFill(CUtensorMap *m);
void launchStored(void *p) {
  CUtensorMap first, second;
  encode<8, 8>(&first, p);
  encode<4, 8>(&second, p);
  CUtensorMap *d;
  cudaMallocManaged((void **)&d, sizeof(CUtensorMap));
  *d = second;
  *d = first;
  plainStored<<<1, 128>>>(d);
}
void launchCopied(void *p) {
  CUtensorMap first, second;
  encode<8, 8>(&first, p);
  encode<4, 8>(&second, p);
  CUtensorMap *d;
  cudaMalloc(&d, sizeof(CUtensorMap));
  CUtensorMap *e = d;
  cudaMemcpy(d, &first, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  cudaMemcpy(e, &second, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  plainCopied<<<1, 128>>>(d);
}
void launchUnknownCall(void *p) {
  CUtensorMap first;
  encode<8, 8>(&first, p);
  CUtensorMap *d;
  cudaMalloc(&d, sizeof(CUtensorMap));
  cudaMemcpy(d, &first, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  opaqueFill(d);
  plainUnknownCall<<<1, 128>>>(d);
}
void launchAfterLaunch(void *p) {
  CUtensorMap first;
  encode<8, 8>(&first, p);
  CUtensorMap *d;
  cudaMalloc(&d, sizeof(CUtensorMap));
  cudaMemcpy(d, &first, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  auto *k = touch;
  k<<<1, 128>>>(d);
  plainAfterLaunch<<<1, 128>>>(d);
}
)cuda";

class MapLinkTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code);
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Folder = std::make_unique<ConstantFolder>(AST->getASTContext());
    Linker = std::make_unique<MapLinker>(*Folder, AST->getASTContext());
  }

  /// The box of the map that the `sink` operand of \p Kernel designates in
  /// the context of its one launch; empty when the link is not proven.
  std::vector<uint64_t> box(const std::string &Kernel) {
    const CallExpr *Call = nullptr;
    const FunctionDecl *Fn = nullptr;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Kernel), isDefinition(),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName("sink"))))
                                    .bind("call")))
                   .bind("f"),
               AST->getASTContext())) {
      Call = B.getNodeAs<CallExpr>("call");
      Fn = B.getNodeAs<FunctionDecl>("f");
    }
    EXPECT_TRUE(Call) << Kernel;
    if (!Call)
      return {};
    auto Contexts = Folder->contextsOf(Fn);
    EXPECT_EQ(Contexts.size(), 1u) << Kernel;
    if (Contexts.size() != 1)
      return {};
    std::optional<KnownMap> M = Linker->mapOf(Call->getArg(0), Contexts[0]);
    std::vector<uint64_t> Box;
    if (!M)
      return Box;
    for (const auto &E : M->Desc.BoxDim.Elems)
      Box.push_back(E.value_or(0));
    return Box;
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
  std::unique_ptr<MapLinker> Linker;
};

std::unique_ptr<ASTUnit> MapLinkTest::AST;

using Box = std::vector<uint64_t>;

TEST_F(MapLinkTest, GetterStandsForItsPart) {
  EXPECT_EQ(box("getter"), (Box{32, 64}));
}

TEST_F(MapLinkTest, GetterOfAGetterAddsTheFields) {
  EXPECT_EQ(box("nestedGetter"), (Box{64, 128}));
}

TEST_F(MapLinkTest, ReferenceGetter) {
  EXPECT_EQ(box("refGetter"), (Box{64, 128}));
}

TEST_F(MapLinkTest, GetterWithTwoReturnsIsNoGetter) {
  EXPECT_EQ(box("twoReturns"), Box{});
}

TEST_F(MapLinkTest, ConstructorBodyEncodesTheField) {
  EXPECT_EQ(box("built"), (Box{16, 64}));
}

TEST_F(MapLinkTest, ConstructorMemberInitialiser) {
  EXPECT_EQ(box("initialised"), (Box{32, 32}));
}

TEST_F(MapLinkTest, ConstructorWritingAnotherFieldEncodesNothing) {
  EXPECT_EQ(box("otherField"), Box{});
}

TEST_F(MapLinkTest, PointerFieldFollowsTheStoredPointer) {
  EXPECT_EQ(box("ptrField"), (Box{64, 16}));
}

TEST_F(MapLinkTest, PointerFieldThroughAPointerToTheStruct) {
  // The aggregate initialiser's first field, through the struct's device
  // copy.
  EXPECT_EQ(box("ptrArrow"), (Box{64, 8}));
}

TEST_F(MapLinkTest, PointeeRefilledAfterTheStoreIsUnproven) {
  EXPECT_EQ(box("ptrRefilled"), Box{});
}

TEST_F(MapLinkTest, StoreThroughAPointerWritesTheMap) {
  EXPECT_EQ(box("plainStored"), (Box{8, 8}));
}

TEST_F(MapLinkTest, PointerCopiedBeforeTheLastFillIsUnproven) {
  EXPECT_EQ(box("plainCopied"), Box{});
}

TEST_F(MapLinkTest, PointerPassedToAnUnknownCallIsUnproven) {
  EXPECT_EQ(box("plainUnknownCall"), Box{});
}

TEST_F(MapLinkTest, LaunchThroughAFunctionPointerReadsTheMap) {
  EXPECT_EQ(box("plainAfterLaunch"), (Box{8, 8}));
}

} // namespace
