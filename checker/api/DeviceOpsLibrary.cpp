//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The device-op finder's library surface: the cuda::ptx, cde
// (cuda::device::experimental) and cuda::device wrappers, read from their
// names and PTX tag arguments, and cuda::memcpy_async on its TMA path.
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpsCommon.h"
#include "api/DeviceOpsFinder.h"
#include "api/PtxParser.h"
#include "folding/Stats.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <array>
#include <cstdint>

namespace clang::tidy::tma {

namespace ptx = ::tma::ptx;
using device::BulkDirection;
using device::FenceKind;
using device::ReduceOp;
using device::Space;
using device::TensorDirection;
using device::TensorMode;

//===----------------------------------------------------------------------===//
// Library wrappers
//===----------------------------------------------------------------------===//

namespace {

/// What an argument of a library call provides.
enum class Role : std::uint8_t {
  None,
  Dst,
  Src,
  Size,
  Barrier,
  Mask,
  ByteMask,
  Map,
  Coords,
  Count,
  Bytes,
  ArriveCount,
  Phase,
  Addr,
  AddrSize,
  InitValue,
};
constexpr unsigned NumRoles = static_cast<unsigned>(Role::InitValue) + 1;

/// The op a library function issues.
enum class Shape : std::uint8_t {
  Bulk,
  BulkReduce,
  TensorLoad,
  TensorStore,
  TensorReduce,
  Init,
  ExpectTx,
  ArriveExpectTx,
  Arrive,
  TryWait,
  TestWait,
  FenceProxyAsync,
  FenceTensormap,
  StBulk,
};

/// One library function: where it lives, what it issues, and what its
/// arguments are after the leading cuda::ptx tag arguments (space_global,
/// sem_release, op_add, cta_group_2, ...), which it may lack.
struct LibraryFunction {
  const char *Name;
  OpApi Api;
  Shape Kind;
  /// The state spaces of a wrapper that takes no space tags.
  Space Dst, Src;
  TensorMode Mode;
  /// Wrappers that take N scalar coordinates (cde's _Nd_): N. Zero when
  /// the coordinates are one `const int32_t (&)[N]` argument.
  unsigned Dims;
  std::array<Role, 6> Args;
};

/// The tag arguments of a cuda::ptx call.
struct PtxTags {
  llvm::SmallVector<Space, 2> Spaces;
  device::Scope Scope = device::Scope::None;
  llvm::StringRef Sem;
  ReduceOp Op = ReduceOp::None;
  std::optional<unsigned> CtaGroup;
};

/// The operand of each role.
struct BoundArgs {
  std::array<OpValue, NumRoles> Slots;
  std::vector<OpValue> Coords;

  const OpValue &operator[](Role R) const {
    return Slots[static_cast<unsigned>(R)];
  }
};

} // namespace

// clang-format off
/// The wrappers of tma-rules.md section 8. cde's load wrappers emit a
/// .shared::cluster destination, like the PTX they wrap.
static const LibraryFunction LibraryFunctions[] = {
  // cuda::ptx: spaces, semantics, scopes and reductions come from tags.
  {"cp_async_bulk", OpApi::CudaPtx, Shape::Bulk, Space::Generic,
   Space::Generic, TensorMode::Tile, 0,
   {Role::Dst, Role::Src, Role::Size, Role::Barrier, Role::Mask}},
  {"cp_async_bulk_cp_mask", OpApi::CudaPtx, Shape::Bulk, Space::Generic,
   Space::Generic, TensorMode::Tile, 0,
   {Role::Dst, Role::Src, Role::Size, Role::ByteMask}},
  {"cp_reduce_async_bulk", OpApi::CudaPtx, Shape::BulkReduce, Space::Generic,
   Space::Generic, TensorMode::Tile, 0,
   {Role::Dst, Role::Src, Role::Size, Role::Barrier}},
  {"cp_async_bulk_tensor", OpApi::CudaPtx, Shape::TensorLoad, Space::Generic,
   Space::Generic, TensorMode::Tile, 0,
   {Role::Dst, Role::Map, Role::Coords, Role::Barrier, Role::Mask}},
  {"cp_async_bulk_tensor", OpApi::CudaPtx, Shape::TensorStore,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Map, Role::Coords, Role::Src}},
  {"cp_async_bulk_tensor_tile_gather4", OpApi::CudaPtx, Shape::TensorLoad,
   Space::Generic, Space::Generic, TensorMode::TileGather4, 0,
   {Role::Dst, Role::Map, Role::Coords, Role::Barrier, Role::Mask}},
  {"cp_async_bulk_tensor_tile_scatter4", OpApi::CudaPtx, Shape::TensorStore,
   Space::Generic, Space::Generic, TensorMode::TileScatter4, 0,
   {Role::Map, Role::Coords, Role::Src}},
  {"cp_reduce_async_bulk_tensor", OpApi::CudaPtx, Shape::TensorReduce,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Map, Role::Coords, Role::Src}},
  {"mbarrier_init", OpApi::CudaPtx, Shape::Init, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Count}},
  {"mbarrier_arrive_expect_tx", OpApi::CudaPtx, Shape::ArriveExpectTx,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Barrier, Role::Bytes}},
  {"mbarrier_expect_tx", OpApi::CudaPtx, Shape::ExpectTx, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Bytes}},
  {"mbarrier_arrive", OpApi::CudaPtx, Shape::Arrive, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Count}},
  {"mbarrier_try_wait", OpApi::CudaPtx, Shape::TryWait, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Phase}},
  {"mbarrier_try_wait_parity", OpApi::CudaPtx, Shape::TryWait,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Barrier, Role::Phase}},
  {"mbarrier_test_wait", OpApi::CudaPtx, Shape::TestWait, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Phase}},
  {"mbarrier_test_wait_parity", OpApi::CudaPtx, Shape::TestWait,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Barrier, Role::Phase}},
  {"fence_proxy_async", OpApi::CudaPtx, Shape::FenceProxyAsync,
   Space::Generic, Space::Generic, TensorMode::Tile, 0, {}},
  {"st_bulk", OpApi::CudaPtx, Shape::StBulk, Space::SharedCta,
   Space::Generic, TensorMode::Tile, 0,
   {Role::Dst, Role::Size, Role::InitValue}},
  {"fence_proxy_tensormap_generic", OpApi::CudaPtx, Shape::FenceTensormap,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Addr, Role::AddrSize}},
  // cuda::device::experimental (cde): the name gives the spaces.
  {"cp_async_bulk_global_to_shared", OpApi::Cde, Shape::Bulk,
   Space::SharedCluster, Space::Global, TensorMode::Tile, 0,
   {Role::Dst, Role::Src, Role::Size, Role::Barrier}},
  {"cp_async_bulk_shared_to_global", OpApi::Cde, Shape::Bulk, Space::Global,
   Space::SharedCta, TensorMode::Tile, 0, {Role::Dst, Role::Src, Role::Size}},
#define TMA_CDE_TENSOR(N)                                                      \
  {"cp_async_bulk_tensor_" #N "d_global_to_shared", OpApi::Cde,                \
   Shape::TensorLoad, Space::SharedCluster, Space::Global, TensorMode::Tile,   \
   N, {Role::Dst, Role::Map, Role::Coords, Role::Barrier}},                    \
  {"cp_async_bulk_tensor_" #N "d_shared_to_global", OpApi::Cde,                \
   Shape::TensorStore, Space::Global, Space::SharedCta, TensorMode::Tile, N,   \
   {Role::Map, Role::Coords, Role::Src}},
  TMA_CDE_TENSOR(1) TMA_CDE_TENSOR(2) TMA_CDE_TENSOR(3) TMA_CDE_TENSOR(4)
  TMA_CDE_TENSOR(5)
#undef TMA_CDE_TENSOR
  {"fence_proxy_async_shared_cta", OpApi::Cde, Shape::FenceProxyAsync,
   Space::SharedCta, Space::Generic, TensorMode::Tile, 0, {}},
  // cuda::device: the barrier is a cuda::barrier<thread_scope_block>.
  {"barrier_arrive_tx", OpApi::CudaDevice, Shape::ArriveExpectTx,
   Space::Generic, Space::Generic, TensorMode::Tile, 0,
   {Role::Barrier, Role::ArriveCount, Role::Bytes}},
  {"barrier_expect_tx", OpApi::CudaDevice, Shape::ExpectTx, Space::Generic,
   Space::Generic, TensorMode::Tile, 0, {Role::Barrier, Role::Bytes}},
  // Issues cp.async.bulk.shared::cluster.global and nothing else
  // (CDE-BULK-NO-TX); static_assert(16 <= A) on its aligned_size_t<A>.
  {"memcpy_async_tx", OpApi::CudaDevice, Shape::Bulk, Space::SharedCluster,
   Space::Global, TensorMode::Tile, 0,
   {Role::Dst, Role::Src, Role::Size, Role::Barrier}},
};
// clang-format on

static std::optional<OpApi> apiOf(const FunctionDecl &FD) {
  if (isInNamespace(&FD, {"cuda", "ptx"}))
    return OpApi::CudaPtx;
  if (isInNamespace(&FD, {"cuda", "device", "experimental"}))
    return OpApi::Cde;
  if (isInNamespace(&FD, {"cuda", "device"}))
    return OpApi::CudaDevice;
  return std::nullopt;
}

/// The specialisation of std::integral_constant that \p T is: the type of
/// every cuda::ptx tag (space_t<dot_space::global>) and of n32_t<N>.
static const ClassTemplateSpecializationDecl *integralConstant(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "integral_constant" ||
      Spec->getTemplateArgs().size() != 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
    return nullptr;
  return Spec;
}

/// For a cuda::ptx tag type: the name of its enumeration and enumerator
/// ("dot_space", "global").
static std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
tagOf(QualType T) {
  const ClassTemplateSpecializationDecl *Spec = integralConstant(T);
  if (!Spec)
    return std::nullopt;
  const TemplateArgument &V = Spec->getTemplateArgs()[1];
  const EnumDecl *ED = V.getIntegralType()->getAsEnumDecl();
  if (ED && ED->getDefinition())
    ED = ED->getDefinition();
  if (!ED || !ED->getName().starts_with("dot_"))
    return std::nullopt;
  for (const EnumConstantDecl *C : ED->enumerators())
    if (llvm::APSInt::isSameValue(C->getInitVal(), V.getAsIntegral()))
      return std::make_pair(ED->getName(), C->getName());
  return std::nullopt;
}

/// Reads one tag into \p Tags; false when \p T is no tag.
static bool readTag(QualType T, PtxTags &Tags) {
  auto Tag = tagOf(T);
  if (!Tag)
    return false;
  auto [Enum, Value] = *Tag;
  if (Enum == "dot_space") {
    Tags.Spaces.push_back(llvm::StringSwitch<Space>(Value)
                              .Case("global", Space::Global)
                              .Case("shared", Space::SharedCta)
                              .Case("cluster", Space::SharedCluster)
                              .Default(Space::Generic));
  } else if (Enum == "dot_scope") {
    Tags.Scope = llvm::StringSwitch<device::Scope>(Value)
                     .Case("cta", device::Scope::Cta)
                     .Case("cluster", device::Scope::Cluster)
                     .Case("gpu", device::Scope::Gpu)
                     .Case("sys", device::Scope::Sys)
                     .Default(device::Scope::None);
  } else if (Enum == "dot_sem") {
    Tags.Sem = Value;
  } else if (Enum == "dot_op") {
    Tags.Op = llvm::StringSwitch<ReduceOp>(Value)
                  .Case("add", ReduceOp::Add)
                  .Case("min", ReduceOp::Min)
                  .Case("max", ReduceOp::Max)
                  .Case("inc", ReduceOp::Inc)
                  .Case("dec", ReduceOp::Dec)
                  .Case("and_op", ReduceOp::And)
                  .Case("or_op", ReduceOp::Or)
                  .Case("xor_op", ReduceOp::Xor)
                  .Default(ReduceOp::None);
  } else if (Enum == "dot_cta_group") {
    Tags.CtaGroup = Value == "cta_group_2" ? 2 : 1;
  }
  return true;
}

/// The first table entry for \p Name in \p Api that fits the spaces of the
/// call (a tensor store row needs a global destination, a load row a shared
/// one).
static const LibraryFunction *lookupFunction(llvm::StringRef Name, OpApi Api,
                                             const PtxTags &Tags) {
  for (const LibraryFunction &F : LibraryFunctions) {
    if (F.Api != Api || Name != F.Name)
      continue;
    bool GlobalDst = !Tags.Spaces.empty() && Tags.Spaces[0] == Space::Global;
    if (Api == OpApi::CudaPtx && F.Kind == Shape::TensorLoad && GlobalDst)
      continue;
    if (Api == OpApi::CudaPtx && F.Kind == Shape::TensorStore && !GlobalDst)
      continue;
    return &F;
  }
  return nullptr;
}

static bool isSharedSpace(Space S) {
  return S == Space::SharedCta || S == Space::SharedCluster;
}

/// The length of a `const int32_t (&)[N]` coordinate parameter.
static unsigned arrayLength(QualType T) {
  if (const auto *AT = dyn_cast<ConstantArrayType>(
          T.getNonReferenceType()->getAsArrayTypeUnsafe()))
    return static_cast<unsigned>(AT->getZExtSize());
  return 0;
}

/// For cuda::aligned_size_t<A>: A; otherwise 0.
static std::uint64_t alignedSizeAlign(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "aligned_size_t" ||
      !isInNamespace(Spec, {"cuda"}) || Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue();
}

bool DeviceOpsFinder::isUndecodedArrive(const FunctionDecl &FD,
                                        const ASTContext &Ctx) {
  if (unsigned ID = FD.getBuiltinID())
    return llvm::StringRef(Ctx.BuiltinInfo.getName(ID))
        .starts_with("__nvvm_cp_async_mbarrier_arrive");
  if (!FD.getIdentifier() || apiOf(FD) != OpApi::CudaPtx)
    return false;
  return llvm::StringSwitch<bool>(FD.getName())
      .Cases({"tcgen05_commit", "tcgen05_commit_mc", "cp_async_mbarrier_arrive",
              "cp_async_mbarrier_arrive_noinc"},
             true)
      .Default(false);
}

std::optional<DeviceOp> DeviceOpsFinder::opOf(const CallExpr &Call) {
  // Memoised: every check asks about every call of a device function.
  auto It = CallOps.find(&Call);
  if (It != CallOps.end())
    return It->second;
  std::optional<DeviceOp> Op = computeOpOf(Call);
  return CallOps[&Call] = Op;
}

std::optional<DeviceOp> DeviceOpsFinder::computeOpOf(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier() || inLibraryBody(&Call))
    return std::nullopt;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return libraryMethodOp(Call, *MD);
  if (FD->getName() == "memcpy_async" && isInNamespace(FD, {"cuda"}))
    return memcpyAsyncOp(Call, *FD);
  std::optional<OpApi> Api = apiOf(*FD);
  if (!Api)
    return std::nullopt;
  PtxTags Tags;
  unsigned First = 0;
  if (*Api == OpApi::CudaPtx)
    while (First < Call.getNumArgs() &&
           readTag(Call.getArg(First)->getType(), Tags))
      ++First;
  const LibraryFunction *F = lookupFunction(FD->getName(), *Api, Tags);
  if (!F)
    return std::nullopt;
  Space Dst = Tags.Spaces.size() > 0 ? Tags.Spaces[0] : F->Dst;
  Space Src = Tags.Spaces.size() > 1 ? Tags.Spaces[1] : F->Src;

  // Bind the arguments after the tags to the roles of the table.
  BoundArgs Args;
  unsigned Dims = F->Dims;
  auto Bind = [&](unsigned I) {
    OpValue V;
    V.Present = true;
    V.Written = Call.getArg(I);
    // memcpy_async_tx's size: the byte count inside the aligned_size_t.
    if (alignedSizeAlign(V.Written->getType())) {
      V.Written = alignedSizeValue(V.Written, 0);
      V.E = V.Written ? lookThrough(V.Written) : nullptr;
      return V;
    }
    V.E = lookThrough(V.Written);
    if (const ClassTemplateSpecializationDecl *N =
            integralConstant(V.Written->getType());
        N && !tagOf(V.Written->getType()))
      V.Imm = N->getTemplateArgs()[1].getAsIntegral().getZExtValue();
    return V;
  };
  unsigned Arg = First;
  for (Role R : F->Args) {
    if (R == Role::None || Arg >= Call.getNumArgs())
      break;
    if (R == Role::Coords && F->Dims) {
      for (unsigned C = 0; C < F->Dims && Arg < Call.getNumArgs(); ++C)
        Args.Coords.push_back(Bind(Arg++));
      continue;
    }
    OpValue V = Bind(Arg);
    if (R == Role::Coords) {
      if (Arg < FD->getNumParams())
        Dims = arrayLength(FD->getParamDecl(Arg)->getType());
      // A braced list passed to the array parameter: its elements.
      if (const auto *List = dyn_cast<InitListExpr>(
              Call.getArg(Arg)->IgnoreImplicit()->IgnoreParens()))
        for (const Expr *Init : List->inits()) {
          OpValue C;
          C.Present = true;
          C.Written = Init;
          C.E = lookThrough(Init);
          Args.Coords.push_back(C);
        }
    }
    Args.Slots[static_cast<unsigned>(R)] = V;
    ++Arg;
  }
  // More arguments than the table knows: an overload it does not describe.
  if (Arg < Call.getNumArgs())
    return std::nullopt;

  OpSite Site{&Call, Call.getBeginLoc(), *Api, /*Predicated=*/false};
  switch (F->Kind) {
  case Shape::Bulk:
  case Shape::BulkReduce: {
    auto Op = at<BulkCopy>(Site);
    if (isSharedSpace(Dst) && Src == Space::Global)
      Op.Direction = BulkDirection::GlobalToShared;
    else if (Dst == Space::SharedCluster && Src == Space::SharedCta)
      Op.Direction = BulkDirection::SharedToCluster;
    else if (Dst == Space::Global && Src == Space::SharedCta)
      Op.Direction = BulkDirection::SharedToGlobal;
    else
      return std::nullopt;
    Op.DstSpace = Dst;
    Op.Reduce = F->Kind == Shape::BulkReduce ? Tags.Op : ReduceOp::None;
    Op.Dst = Args[Role::Dst];
    Op.Src = Args[Role::Src];
    Op.Size = Args[Role::Size];
    Op.Barrier = Args[Role::Barrier];
    Op.CtaMask = Args[Role::Mask];
    Op.ByteMask = Args[Role::ByteMask];
    return Op;
  }
  case Shape::TensorLoad:
  case Shape::TensorStore:
  case Shape::TensorReduce: {
    auto Op = at<TensorCopy>(Site);
    bool Load = F->Kind == Shape::TensorLoad;
    if (Load)
      Op.Direction = TensorDirection::Load;
    else if (F->Kind == Shape::TensorStore)
      Op.Direction = TensorDirection::Store;
    else
      Op.Direction = TensorDirection::Reduce;
    Op.Mode = F->Mode;
    // gather4/scatter4 take five coordinates of a 2-D tensor (.2d).
    Op.Dims = F->Mode == TensorMode::TileGather4 ||
                      F->Mode == TensorMode::TileScatter4
                  ? 2
                  : Dims;
    Op.DstSpace = Load ? Dst : Space::Generic;
    Op.Reduce = F->Kind == Shape::TensorReduce ? Tags.Op : ReduceOp::None;
    Op.Map = Args[Role::Map];
    Op.Smem = Load ? Args[Role::Dst] : Args[Role::Src];
    Op.Coords = std::move(Args.Coords);
    if (!F->Dims)
      Op.CoordArray = Args[Role::Coords];
    Op.Barrier = Args[Role::Barrier];
    Op.CtaMask = Args[Role::Mask];
    Op.CtaGroup = Tags.CtaGroup;
    return Op;
  }
  case Shape::Init: {
    auto Op = at<BarrierInit>(Site);
    Op.Barrier = Args[Role::Barrier];
    Op.Count = Args[Role::Count];
    return Op;
  }
  case Shape::ExpectTx:
  case Shape::ArriveExpectTx: {
    auto Op = at<ExpectTx>(Site);
    Op.WithArrive = F->Kind == Shape::ArriveExpectTx;
    Op.BarrierSpace = Dst;
    Op.Barrier = Args[Role::Barrier];
    Op.Bytes = Args[Role::Bytes];
    Op.ArriveCount = Args[Role::ArriveCount];
    return Op;
  }
  case Shape::Arrive: {
    auto Op = at<Arrive>(Site);
    Op.BarrierSpace = Dst;
    Op.Barrier = Args[Role::Barrier];
    Op.Count = Args[Role::Count];
    return Op;
  }
  case Shape::TryWait:
  case Shape::TestWait: {
    auto Op = at<Wait>(Site);
    Op.TryWait = F->Kind == Shape::TryWait;
    Op.Parity = FD->getName().ends_with("_parity");
    Op.Barrier = Args[Role::Barrier];
    Op.Phase = Args[Role::Phase];
    return Op;
  }
  case Shape::FenceProxyAsync: {
    auto Op = at<Fence>(Site);
    Op.Kind = FenceKind::ProxyAsync;
    Op.FencedSpace = Dst;
    return Op;
  }
  case Shape::FenceTensormap: {
    auto Op = at<Fence>(Site);
    if (Tags.Sem == "release")
      Op.Kind = FenceKind::TensormapRelease;
    else if (Tags.Sem == "acquire")
      Op.Kind = FenceKind::TensormapAcquire;
    else
      return std::nullopt;
    Op.Scope = Tags.Scope;
    Op.Address = Args[Role::Addr];
    Op.Size = Args[Role::AddrSize];
    return Op;
  }
  case Shape::StBulk: {
    auto Op = at<StBulk>(Site);
    Op.Dst = Args[Role::Dst];
    Op.Size = Args[Role::Size];
    Op.InitValue = Args[Role::InitValue];
    return Op;
  }
  }
  llvm_unreachable("covered switch over Shape");
}

//===----------------------------------------------------------------------===//
// cuda::memcpy_async
//===----------------------------------------------------------------------===//

/// True when \p D is declared in namespace \p Name or one nested in it.
static bool isWithinNamespace(const Decl *D, llvm::StringRef Name) {
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outermost = NS;
  return Outermost && Outermost->getName() == Name;
}

/// Whether the definition of \p FD, a function of CCCL, calls
/// cuda::ptx::cp_async_bulk through CCCL's own functions. An instantiation
/// holds that call only where the bulk path is compiled in: device code for
/// SM 90 or later, __cccl_ptx_isa >= 800, and (an `if constexpr`) an
/// alignment of at least 16.
bool DeviceOpsFinder::reachesBulkCopy(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > 8 || !FD->hasBody(Def))
    return false;
  if (auto It = ReachesBulk.find(Def); It != ReachesBulk.end())
    return It->second;
  ReachesBulk[Def] = false; // recursion guard
  bool Found = false;
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Found || !Callee || !Callee->getIdentifier() ||
        !isWithinNamespace(Callee, "cuda"))
      return;
    if (Callee->getName() == "cp_async_bulk" &&
        apiOf(*Callee) == OpApi::CudaPtx)
      Found = true;
    else
      Found = reachesBulkCopy(Callee, Depth + 1);
  });
  ReachesBulk[Def] = Found;
  return Found;
}

/// Whether \p T is cuda::barrier<thread_scope_block> with the default
/// completion function: the only barrier that memcpy_async completes by
/// complete_tx (CCCL's __is_local_smem_barrier).
static bool isBlockScopeBarrier(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "barrier" || !isInNamespace(Spec, {"cuda"}))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() != 2 || Args[0].getKind() != TemplateArgument::Integral ||
      Args[1].getKind() != TemplateArgument::Type)
    return false;
  const EnumDecl *Scope = Args[0].getIntegralType()->getAsEnumDecl();
  if (!Scope)
    return false;
  bool Block = llvm::any_of(Scope->enumerators(), [&](const auto *C) {
    return C->getName() == "thread_scope_block" &&
           llvm::APSInt::isSameValue(C->getInitVal(), Args[0].getAsIntegral());
  });
  const CXXRecordDecl *Completion = Args[1].getAsType()->getAsCXXRecordDecl();
  return Block && Completion && Completion->getIdentifier() &&
         Completion->getName() == "__empty_completion";
}

/// The byte count inside a cuda::aligned_size_t expression
/// (`aligned_size_t<16>(n)`, a never-modified local initialised so), or
/// null.
const Expr *DeviceOpsFinder::alignedSizeValue(const Expr *E, unsigned Depth) {
  while (E && Depth++ < MaxLookThrough) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (E->getType()->isIntegerType())
      return E;
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      E = Construct->getArg(0);
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (!VD || !VD->isLocalVarDecl() || !VD->getInit() ||
          !isNeverModified(VD))
        return nullptr;
      E = VD->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// Whether the object \p E (an lvalue) lies in \p Space: a __shared__
/// variable (SharedCta) or a __device__ variable (Global), an element or
/// member of one, or what a pointer into that space designates.
bool DeviceOpsFinder::objectIn(const Expr *E, Space Space, unsigned Depth) {
  if (!E || Depth > MaxLookThrough)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return pointsInto(A->getBase(), Space, Depth + 1);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? pointsInto(M->getBase(), Space, Depth + 1)
                        : objectIn(M->getBase(), Space, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref &&
           pointsInto(U->getSubExpr(), Space, Depth + 1);
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD)
    return false;
  // A local reference stands for the object it is bound to.
  if (VD->getType()->isReferenceType())
    return VD->isLocalVarDecl() && VD->getInit() &&
           objectIn(VD->getInit(), Space, Depth + 1);
  if (Space == Space::SharedCta)
    return VD->hasAttr<CUDASharedAttr>();
  return Space == Space::Global && VD->hasGlobalStorage() &&
         VD->hasAttr<CUDADeviceAttr>() && !VD->hasAttr<CUDASharedAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>();
}

/// Whether the pointer \p E provably points into \p Space: the address of
/// (an element of) an object objectIn that space, an offset from such a
/// pointer, a never-modified local initialised by one, or, for Global, a
/// never-modified pointer parameter of a kernel (the host cannot pass an
/// address of shared or local memory).
bool DeviceOpsFinder::pointsInto(const Expr *E, Space Space, unsigned Depth) {
  if (!E || Depth > MaxLookThrough)
    return false;
  E = lookThrough(E);
  if (E->getType()->isArrayType())
    return objectIn(E, Space, Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_AddrOf &&
           objectIn(U->getSubExpr(), Space, Depth + 1);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
      return false;
    if (B->getLHS()->getType()->isPointerType())
      return pointsInto(B->getLHS(), Space, Depth + 1);
    return B->getOpcode() == BO_Add &&
           B->getRHS()->getType()->isPointerType() &&
           pointsInto(B->getRHS(), Space, Depth + 1);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType() || !isNeverModified(VD))
    return false;
  if (const auto *Param = dyn_cast<ParmVarDecl>(VD)) {
    const auto *Fn = dyn_cast<FunctionDecl>(Param->getDeclContext());
    return Space == Space::Global && Fn && Fn->hasAttr<CUDAGlobalAttr>();
  }
  return VD->isLocalVarDecl() && VD->getInit() &&
         pointsInto(VD->getInit(), Space, Depth + 1);
}

/// cuda::memcpy_async([group,] dst, src, size, barrier): a bulk copy only
/// where MEMCPY-ASYNC-TMA-PATH holds for certain; it then also performs the
/// expect-tx of its bytes (MEMCPY-ASYNC-TX-OWNED).
std::optional<DeviceOp> DeviceOpsFinder::memcpyAsyncOp(const CallExpr &Call,
                                                       const FunctionDecl &FD) {
  unsigned N = Call.getNumArgs();
  if ((N != 4 && N != 5) || FD.getNumParams() != N)
    return std::nullopt;
  unsigned First = N - 4; // the cooperative-group overload leads with g
  const Expr *Dst = Call.getArg(First), *Src = Call.getArg(First + 1),
             *Size = Call.getArg(First + 2), *Bar = Call.getArg(First + 3);
  if (!isBlockScopeBarrier(FD.getParamDecl(First + 3)->getType()))
    return std::nullopt;
  // The alignment CCCL dispatches on: the larger of alignof(T) and A.
  std::uint64_t Align = alignedSizeAlign(FD.getParamDecl(First + 2)->getType());
  QualType Pointee = FD.getParamDecl(First)->getType()->getPointeeType();
  if (!Pointee.isNull() && !Pointee->isVoidType() &&
      !Pointee->isIncompleteType())
    Align = std::max<std::uint64_t>(
        Align, Ctx.getTypeAlignInChars(Pointee).getQuantity());
  if (Align < 16 || !reachesBulkCopy(&FD, 0))
    return std::nullopt;
  // The run-time conditions: global source, shared destination, barrier
  // in shared memory.
  if (!pointsInto(Dst, Space::SharedCta, 0) ||
      !pointsInto(Src, Space::Global, 0) || !objectIn(Bar, Space::SharedCta, 0))
    return std::nullopt;

  OpSite Site{&Call, Call.getBeginLoc(), OpApi::Libcudacxx,
              /*Predicated=*/false};
  auto Op = at<BulkCopy>(Site);
  Op.Direction = BulkDirection::GlobalToShared;
  Op.DstSpace = Space::SharedCluster; // CCCL issues .shared::cluster.global
  auto Bind = [&](const Expr *E) {
    OpValue V;
    V.Present = true;
    V.Written = E;
    V.E = E ? lookThrough(E) : nullptr;
    return V;
  };
  Op.Dst = Bind(Dst);
  Op.Src = Bind(Src);
  Op.Size = Bind(alignedSizeAlign(Size->getType()) ? alignedSizeValue(Size, 0)
                                                   : Size);
  Op.Barrier = Bind(Bar);
  Op.OwnsExpectTx = true;
  return Op;
}

} // namespace clang::tidy::tma
