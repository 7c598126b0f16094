//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/PeerAddress: barrier addresses mapped
// to a peer CTA by `mapa.shared::cluster` (helpers, asm-written locals,
// never-written locals), and what is not one.
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpsFinder.h"
#include "api/PeerAddress.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
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

__device__ void sink(uint32_t);
__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ uint32_t peer(const void *p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(out) : "r"(smem(p)), "r"(rank));
  return out;
}
// Not a mapa helper: the asm holds a second instruction.
__device__ uint32_t peerPlus(const void *p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n add.u32 %0, %0, 8;"
               : "=r"(out) : "r"(smem(p)), "r"(rank));
  return out;
}

__global__ void helperCall() {
  __shared__ uint64_t bar;
  sink(peer(&bar, 1));
}
__global__ void helperLocal() {
  __shared__ uint64_t bar;
  const uint32_t r = peer(&bar, 3);
  sink(r);
}
__global__ void asmLocal() {
  __shared__ uint64_t bar;
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32\t%0, %1, %2;\n"
               : "=r"(r) : "r"(smem(&bar)), "r"(2));
  sink(r);
}
__global__ void asmLocalWrittenAgain() {
  __shared__ uint64_t bar;
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(r) : "r"(smem(&bar)), "r"(2));
  r += 8;
  sink(r);
}
__global__ void notMapa() {
  __shared__ uint64_t bar;
  sink(peerPlus(&bar, 1));
  sink(smem(&bar));
}
)cuda";

class PeerAddressTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(Code); }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Folder = std::make_unique<ConstantFolder>(AST->getASTContext());
    Finder = std::make_unique<DeviceOpsFinder>(AST->getASTContext());
    Peers = std::make_unique<PeerAddresses>(*Finder, *Folder);
    Folder->enterContext(nullptr);
  }

  /// The rank of the peer address that the \p N-th `sink` of \p Fn gets,
  /// -1 when it is no peer address, -2 when the rank does not fold; and
  /// the name of the variable mapped.
  std::pair<long, std::string> peerAt(const std::string &Fn, unsigned N = 0) {
    unsigned K = 0;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Fn), isDefinition(),
                            forEachDescendant(
                                callExpr(callee(functionDecl(hasName("sink"))))
                                    .bind("call"))),
               AST->getASTContext())) {
      if (K++ != N)
        continue;
      auto P = Peers->peerOf(B.getNodeAs<CallExpr>("call")->getArg(0));
      if (!P)
        return {-1, ""};
      auto Rank = Folder->foldInt(P->Rank);
      const auto *D = dyn_cast<DeclRefExpr>(
          Finder->lookThrough(P->Local)->IgnoreParenImpCasts());
      std::string Name = D ? D->getDecl()->getNameAsString() : "?";
      if (const auto *U = dyn_cast<UnaryOperator>(
              Finder->lookThrough(P->Local)->IgnoreParenImpCasts()))
        if (const auto *DR =
                dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
          Name = "&" + DR->getDecl()->getNameAsString();
      return {Rank ? static_cast<long>(Rank->Value.getExtValue()) : -2, Name};
    }
    ADD_FAILURE() << "no sink " << N << " in " << Fn;
    return {-3, ""};
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<ConstantFolder> Folder;
  std::unique_ptr<DeviceOpsFinder> Finder;
  std::unique_ptr<PeerAddresses> Peers;
};

std::unique_ptr<ASTUnit> PeerAddressTest::AST;

TEST_F(PeerAddressTest, HelperReturningMapa) {
  EXPECT_EQ(peerAt("helperCall"), std::make_pair(1L, std::string("&bar")));
}

TEST_F(PeerAddressTest, NeverWrittenLocalFromHelper) {
  EXPECT_EQ(peerAt("helperLocal"), std::make_pair(3L, std::string("&bar")));
}

TEST_F(PeerAddressTest, LocalWrittenByMapaAsmOnly) {
  EXPECT_EQ(peerAt("asmLocal"), std::make_pair(2L, std::string("&bar")));
  EXPECT_EQ(peerAt("asmLocalWrittenAgain").first, -1);
}

TEST_F(PeerAddressTest, OtherAddressesAreNoPeers) {
  EXPECT_EQ(peerAt("notMapa", 0).first, -1);
  EXPECT_EQ(peerAt("notMapa", 1).first, -1);
}

} // namespace
