//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The device-op finder's CUTLASS surface: the barrier classes'
// methods and CuTe's TMA copy atoms, whose bodies issue the ops.
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
// CUTLASS barriers and CuTe copy atoms
//===----------------------------------------------------------------------===//

namespace {

/// What a recognised CUTLASS or CuTe function issues.
enum class LibraryKind : std::uint8_t {
  BarrierInit,       ///< ClusterBarrier::init
  ArriveExpectTx,    ///< ClusterTransactionBarrier::arrive_and_expect_tx
  ExpectTransaction, ///< ClusterTransactionBarrier::expect_transaction
  TmaLoad,           ///< SM90_TMA_LOAD_<N>D::copy
  TmaLoadMulticast,  ///< SM90_TMA_LOAD_MULTICAST_<N>D::copy
  TmaStore,          ///< SM90_TMA_STORE_<N>D::copy
};

struct LibraryMethod {
  LibraryKind Kind;
  /// N of a copy atom's _<N>D.
  unsigned Dims = 0;
};

} // namespace

/// The recognised CUTLASS and CuTe function that \p MD is, if any.
static std::optional<LibraryMethod> libraryMethod(const CXXMethodDecl &MD) {
  const CXXRecordDecl *RD = MD.getParent();
  if (!RD || !RD->getIdentifier() || !MD.getIdentifier())
    return std::nullopt;
  llvm::StringRef Record = RD->getName(), Name = MD.getName();
  if (isInNamespace(RD, {"cutlass", "arch"})) {
    bool Transaction = Record == "ClusterTransactionBarrier";
    if ((Transaction || Record == "ClusterBarrier") && Name == "init")
      return LibraryMethod{LibraryKind::BarrierInit};
    if (Transaction && Name == "arrive_and_expect_tx")
      return LibraryMethod{LibraryKind::ArriveExpectTx};
    if (Transaction && Name == "expect_transaction")
      return LibraryMethod{LibraryKind::ExpectTransaction};
    return std::nullopt;
  }
  if (Name != "copy" || !MD.isStatic() || !isInNamespace(RD, {"cute"}) ||
      !Record.consume_front("SM90_TMA_"))
    return std::nullopt;
  LibraryKind Kind;
  if (Record.consume_front("LOAD_MULTICAST_"))
    Kind = LibraryKind::TmaLoadMulticast;
  else if (Record.consume_front("LOAD_"))
    Kind = LibraryKind::TmaLoad;
  else if (Record.consume_front("STORE_"))
    Kind = LibraryKind::TmaStore;
  else
    return std::nullopt;
  if (Record.size() != 2 || Record[1] != 'D' || Record[0] < '1' ||
      Record[0] > '5')
    return std::nullopt;
  return LibraryMethod{Kind, static_cast<unsigned>(Record[0] - '0')};
}

/// The ops of the asm statements in the body of \p FD and, \p Depth levels
/// down, of the functions of its class it calls (a member form calls the
/// static form that holds the asm). Empty where the asm is compiled out
/// (CUDA_BARRIER_ENABLED, CUTE_ARCH_TMA_SM90_ENABLED, the host pass).
const std::vector<DeviceOp> &DeviceOpsFinder::bodyOps(const FunctionDecl *FD,
                                                      unsigned Depth) {
  static const std::vector<DeviceOp> None;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return None;
  if (auto It = BodyOps.find(Def); It != BodyOps.end())
    return It->second;
  std::vector<DeviceOp> Ops;
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  const CXXRecordDecl *Class = Method ? Method->getParent() : nullptr;
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      for (DeviceOp &Op : parseAsm(*Asm))
        Ops.push_back(std::move(Op));
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    const auto *Callee =
        Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee())
             : nullptr;
    if (Depth == 0 || !Class || !Callee || Callee == Def ||
        (Callee->getParent() != Class &&
         !Class->isDerivedFrom(Callee->getParent())))
      return;
    for (const DeviceOp &Op : bodyOps(Callee, Depth - 1))
      Ops.push_back(Op);
  });
  return BodyOps[Def] = std::move(Ops);
}

bool DeviceOpsFinder::inLibraryBody(const Stmt *S) {
  if (!LibraryStmts) {
    LibraryStmts.emplace();
    // The records of the recognised functions, looked up by name: their
    // bodies may precede any call the checks see.
    auto Lookup = [&](const DeclContext *DC, llvm::StringRef Name) {
      llvm::SmallVector<const DeclContext *, 2> Found;
      if (DC)
        for (const NamedDecl *D : DC->lookup(&Ctx.Idents.get(Name)))
          if (const auto *Inner = dyn_cast<DeclContext>(D))
            Found.push_back(Inner);
      return Found;
    };
    llvm::SmallVector<const DeclContext *, 16> Records;
    const DeclContext *TU = Ctx.getTranslationUnitDecl();
    for (const DeclContext *Cutlass : Lookup(TU, "cutlass"))
      for (const DeclContext *Arch : Lookup(Cutlass, "arch"))
        for (llvm::StringRef R :
             {"ClusterBarrier", "ClusterTransactionBarrier"})
          llvm::append_range(Records, Lookup(Arch, R));
    for (const DeclContext *Cute : Lookup(TU, "cute"))
      for (const char *Prefix : {"LOAD", "LOAD_MULTICAST", "STORE"})
        for (char N = '1'; N <= '5'; ++N)
          llvm::append_range(Records,
                             Lookup(Cute, (llvm::Twine("SM90_TMA_") + Prefix +
                                           "_" + llvm::Twine(N) + "D")
                                              .str()));
    for (const DeclContext *DC : Records)
      for (const Decl *D : DC->decls()) {
        const auto *MD = dyn_cast<CXXMethodDecl>(D);
        if (!MD || !libraryMethod(*MD) || !MD->hasBody())
          continue;
        forEachStmt(MD->getBody(), [&](const Stmt *Inner) {
          if (isa<GCCAsmStmt>(Inner) || isa<CallExpr>(Inner))
            LibraryStmts->insert(Inner);
        });
      }
  }
  return LibraryStmts->contains(S);
}

std::optional<DeviceOp>
DeviceOpsFinder::libraryMethodOp(const CallExpr &Call,
                                 const CXXMethodDecl &MD) {
  std::optional<LibraryMethod> M = libraryMethod(MD);
  if (!M)
    return std::nullopt;
  auto Bind = [&](const Expr *E) {
    OpValue V;
    V.Present = true;
    V.Written = E;
    V.E = lookThrough(E);
    return V;
  };
  unsigned N = Call.getNumArgs();
  OpApi Api = M->Kind == LibraryKind::BarrierInit ||
                      M->Kind == LibraryKind::ArriveExpectTx ||
                      M->Kind == LibraryKind::ExpectTransaction
                  ? OpApi::Cutlass
                  : OpApi::Cute;
  OpSite Site{&Call, Call.getBeginLoc(), Api, /*Predicated=*/false};

  if (Api == OpApi::Cutlass) {
    // The barrier: the pointer argument of the static forms, the object of
    // the member forms (bar.f(...) or bar->f(...)).
    unsigned First = MD.isStatic() ? 1 : 0;
    const Expr *Bar = nullptr;
    if (MD.isStatic() && N > 0)
      Bar = Call.getArg(0);
    else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
      Bar = Member->getImplicitObjectArgument();
    if (!Bar || N < First + 1)
      return std::nullopt;
    device::OpKind Kind = M->Kind == LibraryKind::BarrierInit
                              ? device::OpKind::BarrierInit
                              : device::OpKind::ExpectTx;
    // Only where the body really issues it (CUDA_BARRIER_ENABLED).
    if (llvm::none_of(bodyOps(&MD, 1),
                      [&](const DeviceOp &Op) { return kindOf(Op) == Kind; }))
      return std::nullopt;
    if (M->Kind == LibraryKind::BarrierInit) {
      if (N != First + 1)
        return std::nullopt;
      auto Op = at<BarrierInit>(Site);
      Op.Barrier = Bind(Bar);
      Op.Count = Bind(Call.getArg(First));
      return Op;
    }
    // (bytes) on the local barrier; (bytes, cta_id, pred) on the barrier of
    // CTA cta_id of the cluster, when pred.
    bool Remote = M->Kind == LibraryKind::ArriveExpectTx && N == First + 3;
    if (N != First + 1 && !Remote)
      return std::nullopt;
    auto Op = at<ExpectTx>(Site);
    Op.WithArrive = M->Kind == LibraryKind::ArriveExpectTx;
    Op.BarrierSpace = Remote ? Space::SharedCluster : Space::SharedCta;
    Op.Predicated = Remote;
    Op.Barrier = Bind(Bar);
    Op.Bytes = Bind(Call.getArg(First));
    return Op;
  }

  // CuTe: (desc, mbar, [mask,] hint, smem, crd...) or (desc, smem, crd...).
  unsigned Fixed = M->Kind == LibraryKind::TmaLoad            ? 4
                   : M->Kind == LibraryKind::TmaLoadMulticast ? 5
                                                              : 2;
  if (N != Fixed + M->Dims)
    return std::nullopt;
  // The instruction the body issues (.shared::cta on SM 120, none when
  // CUTE_ARCH_TMA_SM90_ENABLED is off): exactly one of the expected shape.
  bool Load = M->Kind != LibraryKind::TmaStore;
  const TensorCopy *Issued = nullptr;
  unsigned Count = 0;
  for (const DeviceOp &Op : bodyOps(&MD, 0))
    if (const auto *T = std::get_if<TensorCopy>(&Op); T && ++Count == 1)
      Issued = T;
  if (Count != 1 || Issued->Dims != M->Dims ||
      (Issued->Direction == TensorDirection::Load) != Load ||
      (Issued->Direction != TensorDirection::Load &&
       Issued->Direction != TensorDirection::Store) ||
      Issued->CtaMask.Present != (M->Kind == LibraryKind::TmaLoadMulticast))
    return std::nullopt;
  auto Op = at<TensorCopy>(Site);
  Op.Direction = Issued->Direction;
  Op.Mode = Issued->Mode;
  Op.Dims = M->Dims;
  Op.DstSpace = Issued->DstSpace;
  Op.CtaGroup = Issued->CtaGroup;
  Op.Map = Bind(Call.getArg(0));
  unsigned Arg = 1;
  if (Load) {
    Op.Barrier = Bind(Call.getArg(Arg++));
    if (M->Kind == LibraryKind::TmaLoadMulticast)
      Op.CtaMask = Bind(Call.getArg(Arg++));
    Op.CachePolicy = Bind(Call.getArg(Arg++));
  }
  Op.Smem = Bind(Call.getArg(Arg++));
  while (Arg < N)
    Op.Coords.push_back(Bind(Call.getArg(Arg++)));
  return Op;
}

} // namespace clang::tidy::tma
