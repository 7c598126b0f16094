//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

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
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
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

/// How many conversions, helper calls and locals lookThrough follows.
static constexpr unsigned MaxLookThrough = 16;

//===----------------------------------------------------------------------===//
// Looking through address conversions
//===----------------------------------------------------------------------===//

static bool isScalar(QualType T) {
  return T->isIntegerType() || T->isPointerType();
}

const Expr *DeviceOpsFinder::lookThrough(const Expr *E) {
  return lookThrough(E, 0);
}

const Expr *DeviceOpsFinder::lookThrough(const Expr *E, unsigned Depth) {
  while (E && Depth++ < MaxLookThrough) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      if (!isScalar(Cast->getType()) ||
          !isScalar(Cast->getSubExpr()->getType()))
        return E;
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const Expr *Arg = helperArgument(Call, Depth);
      if (!Arg)
        return E;
      E = Arg;
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() ||
        !VD->getInit() || !isScalar(VD->getType()))
      return E;
    // A local stands for its initialiser only when that converts something
    // (`uint32_t bar_ptr = __cvta_generic_to_shared(bar)`). A plain copy of
    // a value stays: the folder reads it and keeps it as the value's origin.
    const Expr *Init = VD->getInit();
    const Expr *Through = lookThrough(Init, Depth);
    if (Through == Init->IgnoreParenImpCasts() || !isNeverModified(VD))
      return E;
    return Through;
  }
  return E;
}

/// For a call of an address conversion or of a one-line helper whose
/// `return` converts one of its parameters (CCCL's __as_ptr_smem, CUTLASS's
/// cast_smem_ptr_to_uint, tilelang's smem_ptr_to_uint), the argument that is
/// converted; otherwise null.
const Expr *DeviceOpsFinder::helperArgument(const CallExpr *Call,
                                            unsigned Depth) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !isScalar(FD->getReturnType()))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic())
    return nullptr;
  if (FD->getIdentifier() && Call->getNumArgs() == 1 &&
      (FD->getName() == "__cvta_generic_to_shared" ||
       FD->getName() == "__cvta_generic_to_global"))
    return Call->getArg(0);
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Ret || !Ret->getRetValue())
    return nullptr;
  const auto *Ref =
      dyn_cast<DeclRefExpr>(lookThrough(Ret->getRetValue(), Depth));
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != Def ||
      Param->getFunctionScopeIndex() >= Call->getNumArgs())
    return nullptr;
  return Call->getArg(Param->getFunctionScopeIndex());
}

std::shared_ptr<DeviceOpsFinder>
DeviceOpsFinder::forTranslationUnit(ASTContext &Ctx) {
  // Per thread, like the folder: clangd checks several files at once.
  thread_local std::weak_ptr<DeviceOpsFinder> Last;
  thread_local const ASTContext *LastCtx = nullptr;
  if (auto Shared = Last.lock(); Shared && LastCtx == &Ctx)
    return Shared;
  auto Finder = std::make_shared<DeviceOpsFinder>(Ctx);
  ++CostStats::get().Finders;
  Last = Finder;
  LastCtx = &Ctx;
  return Finder;
}

bool DeviceOpsFinder::isNeverModified(const VarDecl *VD) {
  if (VD->getType().isConstQualified())
    return true;
  // One walk up the body's parent map per use, memoised per variable by the
  // folder (ExprMutationAnalyzer would build the TU-wide parent map).
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(Ctx);
  return Folder->isNeverWritten(VD);
}

//===----------------------------------------------------------------------===//
// Bodies that may issue ops
//===----------------------------------------------------------------------===//

/// The asm statements, calls and lambdas of \p S, not descending into
/// lambdas; \p Discarded: \p S lies in a part of an `if constexpr` that is
/// never compiled. \p Extras gets the constructions and the expressions
/// the walk does not enter (default arguments and initialisers, opaque
/// values).
static void collectOpStmts(const Stmt *S, bool Discarded,
                           std::vector<DeviceOpsFinder::OpStmt> &Out,
                           DeviceOpsFinder::BodyExtras &Extras,
                           const ASTContext &Ctx) {
  if (!S)
    return;
  if (isa<GCCAsmStmt, CallExpr, LambdaExpr>(S))
    Out.push_back({S, Discarded});
  if (isa<LambdaExpr>(S))
    return;
  if (const auto *C = dyn_cast<CXXConstructExpr>(S))
    Extras.Constructs.push_back(C);
  else if (const auto *A = dyn_cast<CXXDefaultArgExpr>(S))
    Extras.Hidden.push_back(A->getExpr());
  else if (const auto *I = dyn_cast<CXXDefaultInitExpr>(S))
    Extras.Hidden.push_back(I->getExpr());
  else if (const auto *O = dyn_cast<OpaqueValueExpr>(S))
    Extras.Hidden.push_back(O->getSourceExpr());
  else if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(D->getDecl());
        VD && VD->hasAttr<CUDASharedAttr>())
      Extras.NamesShared = true;
  } else if (isa<IndirectGotoStmt, CXXTryStmt, MSAsmStmt, SEHTryStmt,
                 CoroutineBodyStmt>(S))
    Extras.Irregular = true;
  // Of an `if constexpr`, only the init statement and the branch taken are
  // compiled.
  if (const auto *If = dyn_cast<IfStmt>(S); If && If->isConstexpr())
    if (std::optional<const Stmt *> Taken = If->getNondiscardedCase(Ctx)) {
      for (const Stmt *Child : S->children())
        collectOpStmts(Child,
                       Discarded || (Child != If->getInit() && Child != *Taken),
                       Out, Extras, Ctx);
      return;
    }
  for (const Stmt *Child : S->children())
    collectOpStmts(Child, Discarded, Out, Extras, Ctx);
}

const DeviceOpsFinder::BodyStmts &
DeviceOpsFinder::bodyStmtsOf(const Stmt *Body) {
  auto &Stmts = OpStmts[Body];
  if (!Stmts) {
    Stmts = std::make_unique<BodyStmts>();
    collectOpStmts(Body, false, Stmts->Ops, Stmts->Extras, Ctx);
  }
  return *Stmts;
}

llvm::ArrayRef<DeviceOpsFinder::OpStmt>
DeviceOpsFinder::opStmtsOf(const Stmt *Body) {
  return bodyStmtsOf(Body).Ops;
}

const DeviceOpsFinder::BodyExtras &
DeviceOpsFinder::extrasOf(const Stmt *Body) {
  return bodyStmtsOf(Body).Extras;
}

/// How deep mayIssueOps follows calls before answering "may" unmemoised.
static constexpr unsigned MaxIssueDepth = 256;

bool DeviceOpsFinder::mayIssueOps(const FunctionDecl *FD) {
  unsigned Low = ~0u;
  IssueCut = false;
  bool Issues = mayIssueOps(FD, Low);
  assert(IssueStack.empty() && "every question on the stack is answered");
  return Issues;
}

bool DeviceOpsFinder::mayIssueOps(const FunctionDecl *FD, unsigned &Low) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return true;
  if (auto It = Issues.find(Def); It != Issues.end()) {
    if (It->second.State != IssueState::OnStack)
      return It->second.State == IssueState::Yes;
    // A recursion: no answer of its own; the caller's waits for Def's.
    Low = std::min(Low, It->second.Index);
    return false;
  }
  if (IssueStack.size() >= MaxIssueDepth) {
    IssueCut = true;
    return true;
  }
  const unsigned Index = IssueStack.size();
  Issues[Def] = {IssueState::OnStack, Index};
  IssueStack.push_back(Def);
  const bool CutBefore = IssueCut;
  IssueCut = false;
  unsigned MyLow = Index;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Result = false;
  for (const OpStmt &OS : opStmtsOf(Def->getBody())) {
    const Stmt *S = OS.S;
    if (isa<LambdaExpr>(S))
      continue;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      // Any mbarrier or bulk instruction, recognised or not (the text
      // first: it needs no parse).
      auto Names = [&](StringRef Text) {
        return Text.contains("mbarrier") || Text.contains(".async.bulk");
      };
      const auto *Lit = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      Result = (Lit && Lit->getCharByteWidth() == 1
                    ? Names(Lit->getString())
                    : Names(Asm->getAsmString())) ||
               !opsOf(*Asm).empty();
    } else if (const auto *Call = cast<CallExpr>(S); opOf(*Call)) {
      Result = true;
    } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      // A callee answered "no" adds nothing, whether or not it is an
      // address helper or a system function: one lookup instead of the
      // helper's test and the location's (most calls of a host pass).
      if (const FunctionDecl *CalleeDef = nullptr;
          Callee->hasBody(CalleeDef)) {
        auto It = Issues.find(CalleeDef);
        if (It != Issues.end() && It->second.State == IssueState::No)
          continue;
      }
      if (addressHelperArgument(*Call))
        continue; // `smem_u32(&bar)`: a conversion of its argument
      if (!SM.isInSystemHeader(SM.getFileLoc(Callee->getLocation())))
        Result = mayIssueOps(Callee, MyLow);
    } else {
      Result = true; // a call through a pointer
    }
    if (Result)
      break;
  }
  // The questions asked after Def's are still on the stack: each waits for
  // Def or a function below it, so it has Def's answer when Def has one.
  const bool Cut = IssueCut;
  IssueCut = CutBefore || Cut;
  if (Result || MyLow >= Index) {
    for (size_t I = Index; I < IssueStack.size(); ++I) {
      if (Cut && Result)
        Issues.erase(IssueStack[I]); // a budget cut is no answer
      else
        Issues[IssueStack[I]] = {Result ? IssueState::Yes : IssueState::No,
                                 0};
    }
    IssueStack.resize(Index);
    return Result;
  }
  Low = std::min(Low, MyLow);
  return false;
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

namespace {

/// Binds the operand references of one asm statement to its operand
/// expressions (outputs first, then inputs, as GCC numbers them).
class AsmOperands {
public:
  AsmOperands(DeviceOpsFinder &Finder, const GCCAsmStmt &S)
      : Finder(Finder), S(S) {}

  OpValue operator()(const std::optional<ptx::Value> &V) const {
    return V ? bind(*V) : OpValue();
  }

  std::vector<OpValue> operator()(const std::vector<ptx::Value> &Vs) const {
    std::vector<OpValue> Out;
    Out.reserve(Vs.size());
    for (const ptx::Value &V : Vs)
      Out.push_back(bind(V));
    return Out;
  }

private:
  OpValue bind(const ptx::Value &V) const {
    OpValue R;
    R.Present = true;
    R.Offset = V.Offset;
    if (V.Kind == ptx::Value::Immediate)
      R.Imm = V.Imm;
    if (V.Kind != ptx::Value::Ref)
      return R;
    int Index =
        V.Index ? static_cast<int>(*V.Index) : S.getNamedOperand(V.Name);
    if (Index < 0)
      return R;
    auto I = static_cast<unsigned>(Index);
    if (I < S.getNumOutputs())
      R.Written = S.getOutputExpr(I);
    else if (I - S.getNumOutputs() < S.getNumInputs())
      R.Written = S.getInputExpr(I - S.getNumOutputs());
    R.E = Finder.lookThrough(R.Written);
    return R;
  }

  DeviceOpsFinder &Finder;
  const GCCAsmStmt &S;
};

} // namespace

/// An op of kind \p Op issued at \p Site.
template <typename Op> static Op at(const OpSite &Site) {
  Op Result;
  static_cast<OpSite &>(Result) = Site;
  return Result;
}

static DeviceOp asmOpOf(const ptx::Instruction &I, const AsmOperands &Bind,
                        const OpSite &Site) {
  switch (I.Kind) {
  case device::OpKind::BulkCopy: {
    auto Op = at<BulkCopy>(Site);
    Op.Direction = I.BulkDir;
    Op.DstSpace = I.DstSpace;
    Op.Reduce = I.Reduce;
    Op.ReduceType = I.ElemType;
    Op.Dst = Bind(I.Dst);
    Op.Src = Bind(I.Src);
    Op.Size = Bind(I.Size);
    Op.Barrier = Bind(I.Barrier);
    Op.CtaMask = Bind(I.CtaMask);
    Op.CachePolicy = Bind(I.CachePolicy);
    Op.ByteMask = Bind(I.ByteMask);
    Op.IgnoreLeft = Bind(I.IgnoreLeft);
    Op.IgnoreRight = Bind(I.IgnoreRight);
    Op.NoFtz = I.NoFtz;
    return Op;
  }
  case device::OpKind::TensorCopy: {
    auto Op = at<TensorCopy>(Site);
    bool Load = I.TensorDir == TensorDirection::Load;
    Op.Direction = I.TensorDir;
    Op.Mode = I.Mode;
    Op.Dims = I.Dims;
    Op.DstSpace = Load ? I.DstSpace : Space::Generic;
    Op.Reduce = I.Reduce;
    Op.Map = Bind(I.TensorMap);
    Op.Smem = Bind(Load ? I.Dst : I.Src);
    Op.Coords = Bind(I.Coords);
    Op.Im2colInfo = Bind(I.Im2colInfo);
    Op.Barrier = Bind(I.Barrier);
    Op.CtaMask = Bind(I.CtaMask);
    Op.CachePolicy = Bind(I.CachePolicy);
    Op.CtaGroup = I.CtaGroup;
    Op.GlobalAddress = Bind(I.GlobalAddress);
    Op.Report = I.Report;
    return Op;
  }
  case device::OpKind::ExpectTx: {
    auto Op = at<ExpectTx>(Site);
    Op.WithArrive = I.WithArrive;
    Op.BarrierSpace = I.DstSpace;
    Op.Barrier = Bind(I.Barrier);
    Op.Bytes = Bind(I.TxCount);
    return Op;
  }
  case device::OpKind::Arrive: {
    auto Op = at<Arrive>(Site);
    Op.BarrierSpace = I.DstSpace;
    Op.Barrier = Bind(I.Barrier);
    Op.Count = Bind(I.Count);
    return Op;
  }
  case device::OpKind::BarrierInit: {
    auto Op = at<BarrierInit>(Site);
    Op.Barrier = Bind(I.Barrier);
    Op.Count = Bind(I.Count);
    Op.Layout = I.Layout.value_or(0);
    return Op;
  }
  case device::OpKind::Wait: {
    auto Op = at<Wait>(Site);
    Op.TryWait = I.TryWait;
    Op.Parity = I.Parity;
    Op.Barrier = Bind(I.Barrier);
    Op.Phase = Bind(I.Phase);
    return Op;
  }
  case device::OpKind::Fence: {
    auto Op = at<Fence>(Site);
    Op.Kind = I.Fence;
    Op.FencedSpace = I.DstSpace;
    Op.Scope = I.Scope;
    Op.Address = Bind(I.Address);
    Op.Size = Bind(I.AddressSize);
    return Op;
  }
  case device::OpKind::StBulk: {
    auto Op = at<StBulk>(Site);
    Op.Dst = Bind(I.Dst);
    Op.Size = Bind(I.Size);
    Op.InitValue = Bind(I.InitValue);
    return Op;
  }
  }
  llvm_unreachable("covered switch over OpKind");
}

std::vector<DeviceOp> DeviceOpsFinder::opsOf(const GCCAsmStmt &S) {
  // Memoised: every check asks about every asm statement.
  auto [It, New] = AsmOps.try_emplace(&S);
  if (!New)
    return It->second;
  std::vector<DeviceOp> Ops;
  // The asm of a recognised CUTLASS/CuTe function is seen at its callers.
  if (!inLibraryBody(&S))
    Ops = parseAsm(S);
  // parseAsm may have grown the map: find the slot again.
  return AsmOps[&S] = std::move(Ops);
}

/// learn-cuda's tma_3d_g2s names its .cta_group by an "n" operand, which
/// the instantiation fixes: the parser then sees the instruction the
/// assembler does. References in operand positions stay.
std::string substituteModifierImmediates(const GCCAsmStmt &S, StringRef Text,
                                         const ASTContext &Ctx) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size(); ++I) {
    const bool InModifier = Text[I] == '%' && I > 0 &&
                            (Text[I - 1] == ':' || Text[I - 1] == '.') &&
                            I + 1 < Text.size() && llvm::isDigit(Text[I + 1]);
    if (InModifier) {
      size_t J = I + 1;
      unsigned N = 0;
      while (J < Text.size() && llvm::isDigit(Text[J]) && N < 1000)
        N = N * 10 + (Text[J++] - '0');
      if (N >= S.getNumOutputs() &&
          N - S.getNumOutputs() < S.getNumInputs()) {
        const unsigned In = N - S.getNumOutputs();
        const Expr *E = S.getInputExpr(In);
        Expr::EvalResult R;
        if (S.getInputConstraint(In) == "n" && !E->isValueDependent() &&
            E->EvaluateAsInt(R, Ctx)) {
          Out += std::to_string(R.Val.getInt().getExtValue());
          I = J - 1;
          continue;
        }
      }
    }
    Out += Text[I];
  }
  return Out;
}

/// Whether asm text \p Text may hold an instruction the parser decodes or
/// counts as unrecognised: each of its families (cp.async.bulk*,
/// cp.reduce.async.bulk*, mbarrier.*, fence.proxy.*, fence.mbarrier_init,
/// st.bulk) names "bulk", "mbarrier" or "fence", and the parser's opcode is
/// made of tokens that each split only before a '.', so such a word lies
/// whole in the text. The other asm (wgmma, mov, setmaxnreg: most of a
/// kernel's, and the longest texts) is neither lexed nor substituted.
static bool mayNameOps(StringRef Text) {
  return Text.contains("bulk") || Text.contains("mbarrier") ||
         Text.contains("fence");
}

std::vector<DeviceOp> DeviceOpsFinder::parseAsm(const GCCAsmStmt &S) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return {};
  AsmOperands Bind(*this, S);
  ++CostStats::get().AsmBindings;
  std::vector<DeviceOp> Ops;
  StringRef Raw = Text->getString();
  if (!mayNameOps(Raw))
    return Ops;
  // Only a reference right after ':' or '.' is a modifier's.
  const std::string Source =
      S.isSimple() || (!Raw.contains(":%") && !Raw.contains(".%"))
          ? Raw.str()
          : substituteModifierImmediates(S, Raw, Ctx);
  // Each distinct text is parsed once (instantiations repeat it).
  auto [Parsed, New] =
      Parses.try_emplace((S.isSimple() ? "s" : "e") + Source);
  if (New) {
    ++CostStats::get().AsmTextsParsed;
    Parsed->second.Instructions =
        ptx::parseAsm(Source, /*Extended=*/!S.isSimple(),
                      &Parsed->second.Unrecognised);
  }
  for (const ptx::Instruction &I : Parsed->second.Instructions) {
    OpSite Site{&S, S.getAsmLoc(), OpApi::InlinePtx, I.Predicate.has_value(),
                Parsed->second.Unrecognised != 0};
    Ops.push_back(asmOpOf(I, Bind, Site));
  }
  return Ops;
}

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

/// True when \p D is declared in the namespace \p Path (outermost first),
/// inline (ABI-versioning) namespaces aside.
static bool isInNamespace(const Decl *D, llvm::ArrayRef<llvm::StringRef> Path) {
  const DeclContext *DC = D->getDeclContext();
  for (llvm::StringRef Name : llvm::reverse(Path)) {
    while (DC && (DC->isInlineNamespace() || isa<LinkageSpecDecl>(DC)))
      DC = DC->getParent();
    const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
    if (!NS || NS->getName() != Name)
      return false;
    DC = NS->getParent();
  }
  while (DC && (DC->isInlineNamespace() || isa<LinkageSpecDecl>(DC)))
    DC = DC->getParent();
  return DC && DC->isTranslationUnit();
}

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

/// \p S and the statements below it, in pre-order.
template <typename Fn> static void forEachStmt(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  F(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, F);
}

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

std::optional<uint64_t> foldOperand(const OpValue &V, ConstantFolder &Folder) {
  if (!V.Present)
    return std::nullopt;
  if (V.Imm)
    return V.Imm;
  if (V.Written)
    if (auto F = Folder.foldInt(V.Written))
      return asU64(F->Value);
  return std::nullopt;
}

} // namespace clang::tidy::tma
