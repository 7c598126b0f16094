//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of the device-op finder (api/DeviceOpsFinder).
//
//===----------------------------------------------------------------------===//
//
// One CUDA translation unit, parsed for the device (sm_90a) against the stub
// headers of the lit tests: fast.cu-style inline-PTX helpers, helpers with
// named operands, outputs and register addresses, and calls of cuda::ptx,
// cde and cuda::device wrappers declared the way CCCL declares them (tags are
// std::integral_constant specialisations of dot_* enumerations, inside
// inline ABI namespaces). Each test checks the model of one site.
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpsFinder.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdint>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;

// fast.cu
__device__ static __forceinline__ void expect_bytes(uint64_t *bar,
                                                    uint32_t bytes) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               :: "r"(bar_ptr), "r"(bytes));
}

__device__ static inline void load_async(bf16 *dst, void const *const src_tma_map,
                                         uint64_t *bar, int global_col_idx,
                                         int global_row_idx) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(src_tma_map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];"
      :
      : "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "n"(0),
        "r"(global_row_idx), "r"(global_col_idx / 64)
      : "memory");
}

// A one-line address helper (CCCL's __as_ptr_smem, tilelang's
// smem_ptr_to_uint), operands numbered the other way round.
__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ void init_bar(uint64_t *bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%1], %0;"
               :: "r"(count), "r"(smem_u32(bar)));
}

// A named operand; the local is modified, so it stands for itself.
__device__ void arrive_named(uint64_t *bar) {
  uint32_t addr = smem_u32(bar);
  addr += 8;
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%[b]];" :: [b] "r"(addr));
}

// An output operand comes first in the numbering.
__device__ uint64_t arrive_state(uint64_t *bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], 2;"
               : "=l"(state) : "r"(smem_u32(bar)));
  return state;
}

// A barrier address computed in the asm text; a guarded instruction.
__device__ void arrive_remote(uint64_t *bar, uint32_t cta) {
  asm volatile("{\n\t.reg .b32 remAddr32;\n\t"
               "mapa.shared::cluster.u32  remAddr32, %0, %1;\n\t"
               "mbarrier.arrive.shared::cluster.b64  _, [remAddr32];\n\t}"
               :: "r"(smem_u32(bar)), "r"(cta));
}
// A register the text computes otherwise: no expression provides it.
__device__ void arrive_offset(uint64_t *bar) {
  asm volatile("{\n\t.reg .b32 r;\n\t"
               "add.u32 r, %0, 8;\n\t"
               "mbarrier.arrive.shared::cta.b64  _, [r];\n\t}"
               :: "r"(smem_u32(bar)));
}
__device__ void predicated(uint64_t *bar, uint32_t p) {
  asm volatile("{\n.reg .pred P;\nsetp.ne.u32 P, %1, 0;\n"
               "@P mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 64;\n}"
               :: "r"(smem_u32(bar)), "r"(p));
}

// Basic asm: no operands, `%` is not special.
__device__ void fences() {
  asm volatile("fence.proxy.async.shared::cta;");
  asm volatile("cp.async.bulk.commit_group;");
}

// Library stubs with CCCL's shapes.
namespace cuda {
namespace std {
template <class T, T V> struct integral_constant {
  static constexpr T value = V;
};
} // namespace std
template <int Scope> struct barrier {};
namespace ptx {
inline namespace __4 {
enum class dot_space { global, cluster, shared };
enum class dot_sem { acq_rel, acquire, relaxed, release, sc, weak };
enum class dot_scope { cta, cluster, gpu, sys };
enum class dot_op { add, dec, inc, max, min, and_op, or_op, xor_op };
template <dot_space S> using space_t = ::cuda::std::integral_constant<dot_space, S>;
template <dot_sem S> using sem_t = ::cuda::std::integral_constant<dot_sem, S>;
template <dot_scope S> using scope_t = ::cuda::std::integral_constant<dot_scope, S>;
template <dot_op O> using op_t = ::cuda::std::integral_constant<dot_op, O>;
template <int N> using n32_t = ::cuda::std::integral_constant<int, N>;
using space_global_t = space_t<dot_space::global>;
using space_shared_t = space_t<dot_space::shared>;
using space_cluster_t = space_t<dot_space::cluster>;
using sem_release_t = sem_t<dot_sem::release>;
using sem_acquire_t = sem_t<dot_sem::acquire>;
using scope_cta_t = scope_t<dot_scope::cta>;
using scope_gpu_t = scope_t<dot_scope::gpu>;
using op_add_t = op_t<dot_op::add>;
constexpr space_global_t space_global{};
constexpr space_shared_t space_shared{};
constexpr space_cluster_t space_cluster{};
constexpr sem_release_t sem_release{};
constexpr sem_acquire_t sem_acquire{};
constexpr scope_cta_t scope_cta{};
constexpr scope_gpu_t scope_gpu{};
constexpr op_add_t op_add{};

template <typename = void>
__device__ void cp_async_bulk(space_cluster_t, space_global_t, void *,
                              const void *, const uint32_t &, uint64_t *);
template <typename = void>
__device__ void cp_async_bulk(space_global_t, space_shared_t, void *,
                              const void *, const uint32_t &);
template <int N>
__device__ void cp_async_bulk_tensor(space_cluster_t, space_global_t, void *,
                                     const void *, const int32_t (&)[N],
                                     uint64_t *);
template <int N>
__device__ void cp_async_bulk_tensor(space_global_t, space_shared_t,
                                     const void *, const int32_t (&)[N],
                                     const void *);
template <dot_op Op, int N>
__device__ void cp_reduce_async_bulk_tensor(space_global_t, space_shared_t,
                                            op_t<Op>, const void *,
                                            const int32_t (&)[N],
                                            const void *);
template <typename = void>
__device__ void mbarrier_init(uint64_t *, const uint32_t &);
template <dot_scope S>
__device__ uint64_t mbarrier_arrive_expect_tx(sem_release_t, scope_t<S>,
                                              space_shared_t, uint64_t *,
                                              const uint32_t &);
template <typename = void>
__device__ bool mbarrier_try_wait_parity(uint64_t *, const uint32_t &);
template <int N, dot_scope S>
__device__ void fence_proxy_tensormap_generic(sem_acquire_t, scope_t<S>,
                                              const void *, n32_t<N>);
template <typename = void> __device__ uint32_t get_sreg_ctaid_x();
} // namespace __4
} // namespace ptx
namespace device {
inline namespace __4 {
__device__ void barrier_arrive_tx(barrier<0> &, long, long);
__device__ void barrier_expect_tx(barrier<0> &, long);
} // namespace __4
namespace experimental {
inline namespace __4 {
__device__ void cp_async_bulk_global_to_shared(void *, const void *, uint32_t,
                                               barrier<0> &);
__device__ void cp_async_bulk_tensor_2d_global_to_shared(void *,
                                                         const CUtensorMap *,
                                                         int, int,
                                                         barrier<0> &);
__device__ void cp_async_bulk_tensor_3d_shared_to_global(const CUtensorMap *,
                                                         int, int, int,
                                                         const void *);
} // namespace __4
} // namespace experimental
} // namespace device
} // namespace cuda
namespace mine {
__device__ void cp_async_bulk_global_to_shared(void *, const void *, uint32_t,
                                               cuda::barrier<0> &);
}

__global__ void library(const __grid_constant__ CUtensorMap map,
                        const float *g, int x, int y) {
  namespace ptx = cuda::ptx;
  namespace cde = cuda::device::experimental;
  __shared__ alignas(128) float smem[256];
  __shared__ uint64_t bar;
  __shared__ cuda::barrier<0> cbar;
  ptx::mbarrier_init(&bar, 1);
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, smem, g,
                     sizeof(smem), &bar);
  int32_t coords[2] = {x, y};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, smem, &map,
                            coords, &bar);
  ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map,
                            {x, y, 0}, smem);
  ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared,
                                   ptx::op_add, &map, coords, smem);
  ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                 ptx::space_shared, &bar, 1024u);
  ptx::mbarrier_try_wait_parity(&bar, 0);
  ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, &map,
                                     ptx::n32_t<128>());
  ptx::get_sreg_ctaid_x();
  cde::cp_async_bulk_global_to_shared(smem, g, 1024, cbar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(smem, &map, x, y, cbar);
  cde::cp_async_bulk_tensor_3d_shared_to_global(&map, x, y, 0, smem);
  cuda::device::barrier_arrive_tx(cbar, 1, sizeof(smem));
  cuda::device::barrier_expect_tx(cbar, 512);
  mine::cp_async_bulk_global_to_shared(smem, g, 1024, cbar);
}
)cuda";

class DeviceOpsFinderTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(Code);
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Finder = std::make_unique<DeviceOpsFinder>(AST->getASTContext());
  }

  /// The ops of the asm statements of function \p Function, in order.
  std::vector<DeviceOp> asmOps(const std::string &Function) {
    std::vector<DeviceOp> Ops;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Function),
                            forEachDescendant(asmStmt().bind("asm"))),
               AST->getASTContext()))
      if (const auto *S = B.getNodeAs<GCCAsmStmt>("asm"))
        for (DeviceOp &Op : Finder->opsOf(*S))
          Ops.push_back(std::move(Op));
    return Ops;
  }

  /// The op of each call in the kernel `library`, in source order
  /// (std::nullopt for a call that issues none).
  std::vector<std::optional<DeviceOp>> callOps() {
    std::vector<const CallExpr *> Calls;
    for (const BoundNodes &B :
         match(functionDecl(hasName("library"),
                            forEachDescendant(callExpr().bind("call"))),
               AST->getASTContext()))
      Calls.push_back(B.getNodeAs<CallExpr>("call"));
    const SourceManager &SM = AST->getSourceManager();
    llvm::sort(Calls, [&SM](const CallExpr *A, const CallExpr *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    std::vector<std::optional<DeviceOp>> Ops;
    for (const CallExpr *Call : Calls)
      Ops.push_back(Finder->opOf(*Call));
    return Ops;
  }

  /// The source text of \p E ("<null>" for none).
  std::string text(const Expr *E) {
    if (!E)
      return "<null>";
    const ASTContext &Ctx = AST->getASTContext();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<DeviceOpsFinder> Finder;
};

std::unique_ptr<ASTUnit> DeviceOpsFinderTest::AST;

/// The op of kind \p T in \p Op (a failed assertion when it is another).
template <typename T> const T &as(const DeviceOp &Op) {
  const T *P = std::get_if<T>(&Op);
  EXPECT_TRUE(P) << "op kind " << Op.index();
  static const T Empty{};
  return P ? *P : Empty;
}

template <typename T> const T &as(const std::optional<DeviceOp> &Op) {
  EXPECT_TRUE(Op.has_value());
  static const DeviceOp Empty = T{};
  return as<T>(Op ? *Op : Empty);
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

TEST_F(DeviceOpsFinderTest, FastCuExpectBytes) {
  std::vector<DeviceOp> Ops = asmOps("expect_bytes");
  ASSERT_EQ(Ops.size(), 1u);
  EXPECT_EQ(kindOf(Ops[0]), device::OpKind::ExpectTx);
  const auto &Op = as<ExpectTx>(Ops[0]);
  EXPECT_TRUE(Op.WithArrive);
  EXPECT_EQ(Op.Api, OpApi::InlinePtx);
  EXPECT_TRUE(isa<GCCAsmStmt>(Op.Site));
  EXPECT_TRUE(Op.Loc.isValid());
  EXPECT_FALSE(Op.Predicated);
  EXPECT_EQ(Op.BarrierSpace, device::Space::SharedCta);
  // The address local is looked through to the generic pointer.
  EXPECT_EQ(text(Op.Barrier.Written), "bar_ptr");
  EXPECT_EQ(text(Op.Barrier.E), "bar");
  EXPECT_EQ(text(Op.Bytes.E), "bytes");
  EXPECT_FALSE(Op.ArriveCount.Present);
}

TEST_F(DeviceOpsFinderTest, FastCuLoadAsync) {
  std::vector<DeviceOp> Ops = asmOps("load_async");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<TensorCopy>(Ops[0]);
  EXPECT_EQ(Op.Direction, device::TensorDirection::Load);
  EXPECT_EQ(Op.Mode, device::TensorMode::Tile);
  EXPECT_EQ(Op.Dims, 3u);
  EXPECT_EQ(Op.DstSpace, device::Space::SharedCluster);
  EXPECT_EQ(text(Op.Smem.E), "dst");
  EXPECT_EQ(text(Op.Map.E), "src_tma_map");
  EXPECT_EQ(text(Op.Map.Written), "tma_ptr");
  EXPECT_EQ(text(Op.Barrier.E), "bar");
  ASSERT_EQ(Op.Coords.size(), 3u);
  EXPECT_EQ(text(Op.Coords[0].E), "0");
  EXPECT_EQ(text(Op.Coords[1].E), "global_row_idx");
  EXPECT_EQ(text(Op.Coords[2].E), "global_col_idx / 64");
  EXPECT_FALSE(Op.CoordArray.Present);
  EXPECT_FALSE(Op.CtaMask.Present);
  EXPECT_FALSE(Op.CtaGroup);
}

TEST_F(DeviceOpsFinderTest, OneLineHelperAndSwappedOperands) {
  std::vector<DeviceOp> Ops = asmOps("init_bar");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<BarrierInit>(Ops[0]);
  EXPECT_EQ(text(Op.Barrier.Written), "smem_u32(bar)");
  EXPECT_EQ(text(Op.Barrier.E), "bar");
  EXPECT_EQ(text(Op.Count.E), "count");
}

TEST_F(DeviceOpsFinderTest, NamedOperandAndModifiedLocal) {
  std::vector<DeviceOp> Ops = asmOps("arrive_named");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<Arrive>(Ops[0]);
  EXPECT_EQ(text(Op.Barrier.E), "addr");
  EXPECT_FALSE(Op.Count.Present);
}

TEST_F(DeviceOpsFinderTest, OutputsAreNumberedFirst) {
  std::vector<DeviceOp> Ops = asmOps("arrive_state");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<Arrive>(Ops[0]);
  EXPECT_EQ(text(Op.Barrier.E), "bar");
  EXPECT_TRUE(Op.Count.Present);
  EXPECT_EQ(Op.Count.E, nullptr);
  EXPECT_EQ(Op.Count.Imm, std::optional<std::uint64_t>(2));
}

// The register that the text's one mapa writes stands for the address it
// maps: the peer's barrier at the same offset as `bar`.
TEST_F(DeviceOpsFinderTest, MapaRegisterNamesTheMappedOperand) {
  std::vector<DeviceOp> Ops = asmOps("arrive_remote");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<Arrive>(Ops[0]);
  EXPECT_EQ(Op.BarrierSpace, device::Space::SharedCluster);
  EXPECT_TRUE(Op.Barrier.Present);
  ASSERT_NE(Op.Barrier.E, nullptr);
  const auto *Ref = dyn_cast<DeclRefExpr>(Op.Barrier.E->IgnoreParenImpCasts());
  ASSERT_NE(Ref, nullptr);
  EXPECT_EQ(Ref->getDecl()->getName(), "bar");
  EXPECT_FALSE(Op.Barrier.Imm);
}

TEST_F(DeviceOpsFinderTest, RegisterAddressHasNoExpression) {
  std::vector<DeviceOp> Ops = asmOps("arrive_offset");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<Arrive>(Ops[0]);
  EXPECT_TRUE(Op.Barrier.Present);
  EXPECT_EQ(Op.Barrier.E, nullptr);
  EXPECT_FALSE(Op.Barrier.Imm);
}

TEST_F(DeviceOpsFinderTest, PredicatedInstruction) {
  std::vector<DeviceOp> Ops = asmOps("predicated");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<ExpectTx>(Ops[0]);
  EXPECT_TRUE(Op.Predicated);
  EXPECT_EQ(Op.Bytes.Imm, std::optional<std::uint64_t>(64));
}

TEST_F(DeviceOpsFinderTest, BasicAsm) {
  std::vector<DeviceOp> Ops = asmOps("fences");
  ASSERT_EQ(Ops.size(), 1u);
  const auto &Op = as<Fence>(Ops[0]);
  EXPECT_EQ(Op.Kind, device::FenceKind::ProxyAsync);
  EXPECT_EQ(Op.FencedSpace, device::Space::SharedCta);
}

//===----------------------------------------------------------------------===//
// Library wrappers
//===----------------------------------------------------------------------===//

TEST_F(DeviceOpsFinderTest, LibraryCalls) {
  std::vector<std::optional<DeviceOp>> Ops = callOps();
  ASSERT_EQ(Ops.size(), 15u);
  unsigned I = 0;

  const auto &Init = as<BarrierInit>(Ops[I++]);
  EXPECT_EQ(Init.Api, OpApi::CudaPtx);
  EXPECT_EQ(text(Init.Barrier.E), "&bar");
  EXPECT_EQ(text(Init.Count.Written), "1");

  const auto &Bulk = as<BulkCopy>(Ops[I++]);
  EXPECT_EQ(Bulk.Direction, device::BulkDirection::GlobalToShared);
  EXPECT_EQ(Bulk.DstSpace, device::Space::SharedCluster);
  EXPECT_EQ(text(Bulk.Dst.E), "smem");
  EXPECT_EQ(text(Bulk.Src.E), "g");
  EXPECT_EQ(text(Bulk.Size.Written), "sizeof(smem)");
  EXPECT_EQ(text(Bulk.Barrier.E), "&bar");
  EXPECT_FALSE(Bulk.CtaMask.Present);

  const auto &Load = as<TensorCopy>(Ops[I++]);
  EXPECT_EQ(Load.Direction, device::TensorDirection::Load);
  EXPECT_EQ(Load.Dims, 2u);
  EXPECT_EQ(text(Load.Smem.E), "smem");
  EXPECT_EQ(text(Load.Map.E), "&map");
  EXPECT_EQ(text(Load.CoordArray.E), "coords");
  EXPECT_TRUE(Load.Coords.empty());
  EXPECT_EQ(text(Load.Barrier.E), "&bar");

  const auto &Store = as<TensorCopy>(Ops[I++]);
  EXPECT_EQ(Store.Direction, device::TensorDirection::Store);
  EXPECT_EQ(Store.Dims, 3u);
  EXPECT_EQ(text(Store.Map.E), "&map");
  EXPECT_EQ(text(Store.Smem.E), "smem");
  ASSERT_EQ(Store.Coords.size(), 3u);
  EXPECT_EQ(text(Store.Coords[1].E), "y");
  EXPECT_FALSE(Store.Barrier.Present);

  const auto &Reduce = as<TensorCopy>(Ops[I++]);
  EXPECT_EQ(Reduce.Direction, device::TensorDirection::Reduce);
  EXPECT_EQ(Reduce.Reduce, device::ReduceOp::Add);
  EXPECT_EQ(Reduce.Dims, 2u);

  const auto &Expect = as<ExpectTx>(Ops[I++]);
  EXPECT_TRUE(Expect.WithArrive);
  EXPECT_EQ(Expect.BarrierSpace, device::Space::SharedCta);
  EXPECT_EQ(text(Expect.Barrier.E), "&bar");
  EXPECT_EQ(text(Expect.Bytes.Written), "1024u");

  const auto &TryWait = as<Wait>(Ops[I++]);
  EXPECT_TRUE(TryWait.TryWait);
  EXPECT_TRUE(TryWait.Parity);
  EXPECT_EQ(text(TryWait.Phase.Written), "0");

  const auto &Acquire = as<Fence>(Ops[I++]);
  EXPECT_EQ(Acquire.Kind, device::FenceKind::TensormapAcquire);
  EXPECT_EQ(Acquire.Scope, device::Scope::Gpu);
  EXPECT_EQ(text(Acquire.Address.E), "&map");
  EXPECT_EQ(Acquire.Size.Imm, std::optional<std::uint64_t>(128));

  EXPECT_FALSE(Ops[I++]) << "get_sreg_ctaid_x is no TMA op";

  const auto &CdeBulk = as<BulkCopy>(Ops[I++]);
  EXPECT_EQ(CdeBulk.Api, OpApi::Cde);
  EXPECT_EQ(CdeBulk.Direction, device::BulkDirection::GlobalToShared);
  EXPECT_EQ(CdeBulk.DstSpace, device::Space::SharedCluster);
  EXPECT_EQ(text(CdeBulk.Size.Written), "1024");
  EXPECT_EQ(text(CdeBulk.Barrier.E), "cbar");

  const auto &CdeLoad = as<TensorCopy>(Ops[I++]);
  EXPECT_EQ(CdeLoad.Api, OpApi::Cde);
  EXPECT_EQ(CdeLoad.Direction, device::TensorDirection::Load);
  EXPECT_EQ(CdeLoad.Dims, 2u);
  EXPECT_EQ(CdeLoad.DstSpace, device::Space::SharedCluster);
  ASSERT_EQ(CdeLoad.Coords.size(), 2u);
  EXPECT_EQ(text(CdeLoad.Coords[0].E), "x");
  EXPECT_EQ(text(CdeLoad.Coords[1].E), "y");
  EXPECT_EQ(text(CdeLoad.Barrier.E), "cbar");

  const auto &CdeStore = as<TensorCopy>(Ops[I++]);
  EXPECT_EQ(CdeStore.Direction, device::TensorDirection::Store);
  EXPECT_EQ(CdeStore.Dims, 3u);
  EXPECT_EQ(CdeStore.Coords.size(), 3u);
  EXPECT_EQ(text(CdeStore.Smem.E), "smem");

  const auto &ArriveTx = as<ExpectTx>(Ops[I++]);
  EXPECT_EQ(ArriveTx.Api, OpApi::CudaDevice);
  EXPECT_TRUE(ArriveTx.WithArrive);
  EXPECT_EQ(text(ArriveTx.ArriveCount.Written), "1");
  EXPECT_EQ(text(ArriveTx.Bytes.Written), "sizeof(smem)");

  const auto &ExpectOnly = as<ExpectTx>(Ops[I++]);
  EXPECT_FALSE(ExpectOnly.WithArrive);
  EXPECT_EQ(text(ExpectOnly.Bytes.Written), "512");

  EXPECT_FALSE(Ops[I++]) << "a function of another namespace";
  EXPECT_EQ(I, Ops.size());
}

//===----------------------------------------------------------------------===//
// cuda::memcpy_async, memcpy_async_tx, CUTLASS barriers, CuTe copy atoms
//===----------------------------------------------------------------------===//

// The stub <cuda/barrier> (whose memcpy_async dispatches like CCCL's) and
// the CUTLASS/CuTe stand-ins of the lit tests, included as user headers.
const char *const LibraryCode = R"cuda(
#include <cstdint>
#include <cuda/barrier>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/arch/barrier.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
struct alignas(16) Vec4 { float x[4]; };
struct Group { __device__ unsigned thread_rank() const; };

__global__ void memcpy_forms(const float *g, const Vec4 *gv, float *out,
                             block_barrier *pbar, Group grp) {
  __shared__ alignas(16) float s[64];
  __shared__ Vec4 sv[4];
  __shared__ block_barrier bar[1];
  __shared__ cuda::barrier<cuda::thread_scope_device> dbar[1];
  float *dst = s + 4;
  cuda::aligned_size_t<16> n(64);
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(128), bar[0]);
  cuda::memcpy_async(grp, dst, g, n, bar[0]);
  cuda::memcpy_async(sv, gv, sizeof(sv), bar[0]);
  cuda::memcpy_async(s, g, cuda::aligned_size_t<8>(128), bar[0]);
  cuda::memcpy_async(s, g, sizeof(s), bar[0]);
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(128), dbar[0]);
  cuda::memcpy_async(s, g, cuda::aligned_size_t<16>(128), *pbar);
  cuda::memcpy_async(out, g, cuda::aligned_size_t<16>(128), bar[0]);
  cuda::memcpy_async(s, s + 32, cuda::aligned_size_t<16>(128), bar[0]);
  cuda::device::memcpy_async_tx(s, g, cuda::aligned_size_t<16>(96), bar[0]);
}

__global__ void cutlass_forms(const __grid_constant__ CUtensorMap map, int x,
                              int y) {
  __shared__ alignas(128) float s[1024];
  __shared__ cutlass::arch::ClusterTransactionBarrier full[2];
  __shared__ uint64_t raw;
  full[0].init(1);
  cutlass::arch::ClusterBarrier::init(&raw, 2);
  full[0].arrive_and_expect_tx(sizeof(s));
  full[1].arrive_and_expect_tx(512, 1);
  cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&raw, 256);
  cutlass::arch::ClusterTransactionBarrier::expect_transaction(&raw, 128);
  full[1].expect_transaction(64);
  uint64_t *mbar = reinterpret_cast<uint64_t *>(&full[0]);
  cute::SM90_TMA_LOAD_2D::copy(&map, mbar, 0, s, x, y);
  cute::SM90_TMA_LOAD_MULTICAST_3D::copy(&map, mbar, 0x3, 7, s + 8, x, y, 0);
  cute::SM90_TMA_STORE_4D::copy(&map, s, x, y, 0, 1);
}
)cuda";

class LibraryFormsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    AST = tma_test::buildStubAST(LibraryCode, "--cuda-device-only",
                                 {"-I", TMA_TEST_HEADERS "/../cutlass"});
  }
  static void TearDownTestSuite() { AST.reset(); }

  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Finder = std::make_unique<DeviceOpsFinder>(AST->getASTContext());
  }

  /// The op of each call of \p Function, in source order; calls whose
  /// callee is not a library function (constructors aside) are left out.
  std::vector<std::optional<DeviceOp>> callOps(const std::string &Function) {
    std::vector<const CallExpr *> Calls;
    for (const BoundNodes &B :
         match(functionDecl(hasName(Function),
                            forEachDescendant(callExpr().bind("call"))),
               AST->getASTContext()))
      Calls.push_back(B.getNodeAs<CallExpr>("call"));
    const SourceManager &SM = AST->getSourceManager();
    llvm::sort(Calls, [&SM](const CallExpr *A, const CallExpr *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    std::vector<std::optional<DeviceOp>> Ops;
    for (const CallExpr *Call : Calls) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() &&
          (FD->getName() == "memcpy_async" ||
           FD->getName() == "memcpy_async_tx" || FD->getName() == "init" ||
           FD->getName() == "arrive_and_expect_tx" ||
           FD->getName() == "expect_transaction" || FD->getName() == "copy"))
        Ops.push_back(Finder->opOf(*Call));
    }
    return Ops;
  }

  /// The ops of every asm statement of the CUTLASS and CuTe stand-ins.
  unsigned libraryAsmOps() {
    unsigned N = 0;
    for (const BoundNodes &B :
         match(asmStmt().bind("asm"), AST->getASTContext()))
      N += Finder->opsOf(*B.getNodeAs<GCCAsmStmt>("asm")).size();
    return N;
  }

  std::string text(const Expr *E) {
    if (!E)
      return "<null>";
    const ASTContext &Ctx = AST->getASTContext();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

  static std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<DeviceOpsFinder> Finder;
};

std::unique_ptr<ASTUnit> LibraryFormsTest::AST;

TEST_F(LibraryFormsTest, MemcpyAsyncOnTheTmaPathOnly) {
  std::vector<std::optional<DeviceOp>> Ops = callOps("memcpy_forms");
  ASSERT_EQ(Ops.size(), 10u);

  const auto &Plain = as<BulkCopy>(Ops[0]);
  EXPECT_EQ(Plain.Api, OpApi::Libcudacxx);
  EXPECT_EQ(Plain.Direction, device::BulkDirection::GlobalToShared);
  EXPECT_EQ(Plain.DstSpace, device::Space::SharedCluster);
  EXPECT_TRUE(Plain.OwnsExpectTx);
  EXPECT_EQ(text(Plain.Dst.E), "s");
  EXPECT_EQ(text(Plain.Src.E), "g");
  // The byte count inside the aligned_size_t, for the folder.
  EXPECT_EQ(text(Plain.Size.Written), "128");
  EXPECT_EQ(text(Plain.Barrier.E), "bar[0]");
  EXPECT_FALSE(Plain.CtaMask.Present);

  // The cooperative-group overload; a local offset pointer; a local size.
  const auto &Grouped = as<BulkCopy>(Ops[1]);
  EXPECT_TRUE(Grouped.OwnsExpectTx);
  EXPECT_EQ(text(Grouped.Dst.Written), "dst");
  EXPECT_EQ(text(Grouped.Size.Written), "64");

  // alignof(Vec4) == 16 with a plain size.
  const auto &Typed = as<BulkCopy>(Ops[2]);
  EXPECT_EQ(text(Typed.Size.Written), "sizeof(sv)");

  EXPECT_FALSE(Ops[3]) << "aligned_size_t<8>: cp.async";
  EXPECT_FALSE(Ops[4]) << "float with a plain size: cp.async";
  EXPECT_FALSE(Ops[5]) << "a device-scope barrier";
  EXPECT_FALSE(Ops[6]) << "a barrier not provably in shared memory";
  EXPECT_FALSE(Ops[7]) << "a global destination";
  EXPECT_FALSE(Ops[8]) << "a shared source";

  const auto &Tx = as<BulkCopy>(Ops[9]);
  EXPECT_EQ(Tx.Api, OpApi::CudaDevice);
  EXPECT_EQ(Tx.Direction, device::BulkDirection::GlobalToShared);
  EXPECT_EQ(Tx.DstSpace, device::Space::SharedCluster);
  EXPECT_FALSE(Tx.OwnsExpectTx);
  EXPECT_EQ(text(Tx.Size.Written), "96");
  EXPECT_EQ(text(Tx.Barrier.E), "bar[0]");
}

TEST_F(LibraryFormsTest, CutlassBarriers) {
  std::vector<std::optional<DeviceOp>> Ops = callOps("cutlass_forms");
  ASSERT_EQ(Ops.size(), 10u);

  const auto &MemberInit = as<BarrierInit>(Ops[0]);
  EXPECT_EQ(MemberInit.Api, OpApi::Cutlass);
  EXPECT_EQ(text(MemberInit.Barrier.E), "full[0]");
  EXPECT_EQ(text(MemberInit.Count.Written), "1");

  const auto &StaticInit = as<BarrierInit>(Ops[1]);
  EXPECT_EQ(text(StaticInit.Barrier.E), "&raw");
  EXPECT_EQ(text(StaticInit.Count.Written), "2");

  const auto &Member = as<ExpectTx>(Ops[2]);
  EXPECT_TRUE(Member.WithArrive);
  EXPECT_FALSE(Member.Predicated);
  EXPECT_EQ(Member.BarrierSpace, device::Space::SharedCta);
  EXPECT_EQ(text(Member.Barrier.E), "full[0]");
  EXPECT_EQ(text(Member.Bytes.Written), "sizeof(s)");
  EXPECT_FALSE(Member.ArriveCount.Present);

  // (bytes, cta_id, pred): the barrier of another CTA, when pred.
  const auto &Remote = as<ExpectTx>(Ops[3]);
  EXPECT_TRUE(Remote.WithArrive);
  EXPECT_TRUE(Remote.Predicated);
  EXPECT_EQ(Remote.BarrierSpace, device::Space::SharedCluster);
  EXPECT_EQ(text(Remote.Bytes.Written), "512");

  const auto &Static = as<ExpectTx>(Ops[4]);
  EXPECT_TRUE(Static.WithArrive);
  EXPECT_EQ(text(Static.Barrier.E), "&raw");
  EXPECT_EQ(text(Static.Bytes.Written), "256");

  const auto &Expect = as<ExpectTx>(Ops[5]);
  EXPECT_FALSE(Expect.WithArrive);
  EXPECT_EQ(Expect.BarrierSpace, device::Space::SharedCta);
  EXPECT_EQ(text(Expect.Bytes.Written), "128");

  const auto &MemberExpect = as<ExpectTx>(Ops[6]);
  EXPECT_FALSE(MemberExpect.WithArrive);
  EXPECT_EQ(text(MemberExpect.Barrier.E), "full[1]");
}

TEST_F(LibraryFormsTest, CuteCopyAtoms) {
  std::vector<std::optional<DeviceOp>> Ops = callOps("cutlass_forms");
  ASSERT_EQ(Ops.size(), 10u);

  const auto &Load = as<TensorCopy>(Ops[7]);
  EXPECT_EQ(Load.Api, OpApi::Cute);
  EXPECT_EQ(Load.Direction, device::TensorDirection::Load);
  EXPECT_EQ(Load.Mode, device::TensorMode::Tile);
  EXPECT_EQ(Load.Dims, 2u);
  // The space of the instruction the atom's body issues.
  EXPECT_EQ(Load.DstSpace, device::Space::SharedCluster);
  EXPECT_EQ(text(Load.Map.E), "&map");
  // The never-modified local is looked through to the barrier.
  EXPECT_EQ(text(Load.Barrier.Written), "mbar");
  EXPECT_EQ(text(Load.Barrier.E), "&full[0]");
  EXPECT_EQ(text(Load.CachePolicy.Written), "0");
  EXPECT_EQ(text(Load.Smem.E), "s");
  ASSERT_EQ(Load.Coords.size(), 2u);
  EXPECT_EQ(text(Load.Coords[0].E), "x");
  EXPECT_EQ(text(Load.Coords[1].E), "y");
  EXPECT_FALSE(Load.CtaMask.Present);

  const auto &Multicast = as<TensorCopy>(Ops[8]);
  EXPECT_EQ(Multicast.Dims, 3u);
  EXPECT_EQ(text(Multicast.CtaMask.Written), "0x3");
  EXPECT_EQ(text(Multicast.CachePolicy.Written), "7");
  EXPECT_EQ(text(Multicast.Smem.Written), "s + 8");
  EXPECT_EQ(Multicast.Coords.size(), 3u);

  const auto &Store = as<TensorCopy>(Ops[9]);
  EXPECT_EQ(Store.Direction, device::TensorDirection::Store);
  EXPECT_EQ(Store.Dims, 4u);
  EXPECT_EQ(text(Store.Smem.E), "s");
  EXPECT_FALSE(Store.Barrier.Present);
  ASSERT_EQ(Store.Coords.size(), 4u);
  EXPECT_EQ(text(Store.Coords[3].E), "1");
}

TEST_F(LibraryFormsTest, LibraryBodiesAreSeenAtTheirCallers) {
  // Every asm statement of the TU is inside a recognised CUTLASS or CuTe
  // function (the stand-ins are user headers here): none yields an op.
  EXPECT_EQ(libraryAsmOps(), 0u);
  // Nor do the calls of the static forms inside the member forms.
  for (const BoundNodes &B :
       match(cxxMethodDecl(hasName("arrive_and_expect_tx"),
                           unless(isStaticStorageClass()),
                           forEachDescendant(callExpr().bind("call"))),
             AST->getASTContext()))
    EXPECT_FALSE(Finder->opOf(*B.getNodeAs<CallExpr>("call")));
}

//===----------------------------------------------------------------------===//
// mayIssueOps: exact over the call graph, whatever the order of questions
//===----------------------------------------------------------------------===//

const char *const IssueCode = R"cuda(
#include <cuda_runtime.h>
#include <cstdint>

__device__ void leaf_op(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
               :: "r"(static_cast<unsigned>(reinterpret_cast<unsigned long long>(bar))));
}
__device__ int leaf_value(int x) { return x + 1; }

// A chain of twelve helpers that compute values only (deeper than the
// six levels the check once followed before answering "may").
__device__ int c11(int x) { return leaf_value(x); }
__device__ int c10(int x) { return c11(x); }
__device__ int c9(int x) { return c10(x); }
__device__ int c8(int x) { return c9(x); }
__device__ int c7(int x) { return c8(x); }
__device__ int c6(int x) { return c7(x); }
__device__ int c5(int x) { return c6(x); }
__device__ int c4(int x) { return c5(x); }
__device__ int c3(int x) { return c4(x); }
__device__ int c2(int x) { return c3(x); }
__device__ int c1(int x) { return c2(x); }
__device__ int c0(int x) { return c1(x); }
// The same chain ending in an op.
__device__ void d11(uint64_t *b) { leaf_op(b); }
__device__ void d10(uint64_t *b) { d11(b); }
__device__ void d9(uint64_t *b) { d10(b); }
__device__ void d8(uint64_t *b) { d9(b); }
__device__ void d7(uint64_t *b) { d8(b); }
__device__ void d6(uint64_t *b) { d7(b); }
__device__ void d5(uint64_t *b) { d6(b); }
__device__ void d4(uint64_t *b) { d5(b); }
__device__ void d3(uint64_t *b) { d4(b); }
__device__ void d2(uint64_t *b) { d3(b); }
__device__ void d1(uint64_t *b) { d2(b); }
__device__ void d0(uint64_t *b) { d1(b); }

// Recursions: none issues; one whose second function issues; one that
// reaches an op only after the recursive call.
__device__ int r1(int);
__device__ int r2(int x) { return x ? r1(x - 1) : leaf_value(x); }
__device__ int r1(int x) { return r2(x); }
__device__ void s2(uint64_t *b, int n);
__device__ void s1(uint64_t *b, int n) { if (n) s2(b, n - 1); }
__device__ void s2(uint64_t *b, int n) { s1(b, n); leaf_op(b); }
__device__ void t1(uint64_t *b, int n);
__device__ void t3(uint64_t *b, int n) { t1(b, n); }
__device__ void t2(uint64_t *b, int n) { t3(b, n); }
__device__ void t1(uint64_t *b, int n) { t2(b, n); if (n) leaf_op(b); }

// An address helper's call converts only; a call through a pointer may do
// anything.
__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(reinterpret_cast<unsigned long long>(p));
}
__device__ uint32_t converts(uint64_t *b) { return smem_u32(b); }
__device__ void through(void (*f)(uint64_t *), uint64_t *b) { f(b); }
)cuda";

class MayIssueOpsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { AST = tma_test::buildStubAST(IssueCode); }
  static void TearDownTestSuite() { AST.reset(); }
  void SetUp() override {
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }

  static const FunctionDecl *function(const std::string &Name) {
    auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                       AST->getASTContext());
    return Found.empty() ? nullptr : Found.front().getNodeAs<FunctionDecl>("f");
  }

  /// The answers for \p Names, asked in that order of one finder.
  static std::vector<bool> answers(const std::vector<std::string> &Names) {
    DeviceOpsFinder Finder(AST->getASTContext());
    std::vector<bool> Result;
    for (const std::string &Name : Names) {
      const FunctionDecl *F = function(Name);
      EXPECT_TRUE(F) << Name;
      Result.push_back(F && Finder.mayIssueOps(F));
    }
    return Result;
  }

  static std::unique_ptr<ASTUnit> AST;
};

std::unique_ptr<ASTUnit> MayIssueOpsTest::AST;

TEST_F(MayIssueOpsTest, DeepChains) {
  EXPECT_EQ(answers({"c0", "c7", "c11", "leaf_value"}),
            (std::vector<bool>{false, false, false, false}));
  EXPECT_EQ(answers({"d0", "d7", "d11", "leaf_op"}),
            (std::vector<bool>{true, true, true, true}));
}

TEST_F(MayIssueOpsTest, AnswersDoNotDependOnTheOrderOfQuestions) {
  const std::vector<std::string> Names = {
      "c0", "c6", "c7", "c11", "r1", "r2", "s1", "s2", "t1", "t2", "t3",
      "d0", "d9", "converts", "through"};
  const std::vector<bool> Expected = {false, false, false, false, false,
                                      false, true,  true,  true,  true,
                                      true,  true,  true,  false, true};
  EXPECT_EQ(answers(Names), Expected);
  std::vector<std::string> Reversed(Names.rbegin(), Names.rend());
  std::vector<bool> ReversedExpected(Expected.rbegin(), Expected.rend());
  EXPECT_EQ(answers(Reversed), ReversedExpected);
  // Each question asked first, then every other.
  for (size_t I = 0; I < Names.size(); ++I) {
    std::vector<std::string> Order{Names[I]};
    std::vector<bool> Want{Expected[I]};
    for (size_t J = 0; J < Names.size(); ++J)
      if (J != I) {
        Order.push_back(Names[J]);
        Want.push_back(Expected[J]);
      }
    EXPECT_EQ(answers(Order), Want) << "first: " << Names[I];
  }
}

} // namespace
