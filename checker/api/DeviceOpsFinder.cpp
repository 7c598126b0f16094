//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The device-op finder's core: looking through address conversions and
// helpers, the statements of a body that may issue ops, and which functions
// may issue them. The recognisers per API surface: DeviceOpsAsm.cpp (inline
// PTX), DeviceOpsLibrary.cpp (cuda::ptx, cde, cuda::device wrappers and
// cuda::memcpy_async), DeviceOpsCutlass.cpp (CUTLASS barriers, CuTe copy
// atoms).
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpsFinder.h"
#include "api/DeviceOpsCommon.h"
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
        VD && VD->hasAttr<CUDASharedAttr>()) {
      Extras.NamesShared = true;
      Extras.NamesPool |= VD->hasExternalStorage();
    }
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

const DeviceOpsFinder::BodyExtras &DeviceOpsFinder::extrasOf(const Stmt *Body) {
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
      const auto *Lit =
          dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      Result =
          (Lit && Lit->getCharByteWidth() == 1 ? Names(Lit->getString())
                                               : Names(Asm->getAsmString())) ||
          !opsOf(*Asm).empty();
    } else if (const auto *Call = cast<CallExpr>(S); opOf(*Call)) {
      Result = true;
    } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      // A callee answered "no" adds nothing, whether or not it is an
      // address helper or a system function: one lookup instead of the
      // helper's test and the location's (most calls of a host pass).
      if (const FunctionDecl *CalleeDef = nullptr; Callee->hasBody(CalleeDef)) {
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
        Issues[IssueStack[I]] = {Result ? IssueState::Yes : IssueState::No, 0};
    }
    IssueStack.resize(Index);
    return Result;
  }
  Low = std::min(Low, MyLow);
  return false;
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
