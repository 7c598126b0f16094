//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/LaunchCluster.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtVisitor.h"
#include "llvm/ADT/SmallVector.h"
#include <map>

namespace clang::tidy::tma {

namespace {

/// A value written once, or known to be written inconsistently.
struct Once {
  std::optional<std::uint64_t> Value;
  bool Conflict = false;
  bool Seen = false;
  void set(std::optional<std::uint64_t> V) {
    if (Seen && Value != V)
      Conflict = true;
    Seen = true;
    Value = V;
  }
  std::optional<std::uint64_t> get() const {
    return Conflict ? std::nullopt : Value;
  }
};

const Expr *peel(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else
      return E;
  }
}

const VarDecl *localVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(peel(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

/// The enumerator \p E names, or "".
StringRef enumeratorName(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(peel(E));
  const auto *ECD = DRE ? dyn_cast<EnumConstantDecl>(DRE->getDecl()) : nullptr;
  return ECD ? ECD->getName() : StringRef();
}

/// The assignments of a function body: `lhs = rhs` as a built-in or a
/// class's operator=.
template <typename Fn> void forEachAssignment(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign)
    F(B->getLHS(), B->getRHS(), S);
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
           Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    F(Op->getArg(0), Op->getArg(1), S);
  for (const Stmt *Child : S->children())
    forEachAssignment(Child, F);
}

template <typename Fn> void forEachCall(const Stmt *S, Fn &&F) {
  if (!S)
    return;
  if (const auto *C = dyn_cast<CallExpr>(S))
    F(C);
  for (const Stmt *Child : S->children())
    forEachCall(Child, F);
}

unsigned countRefs(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    ++N;
  for (const Stmt *Child : S->children())
    N += countRefs(Child, VD);
  return N;
}

/// `Root[Index].m1.m2...`: the members innermost first.
struct Access {
  const VarDecl *Root = nullptr;
  std::optional<std::uint64_t> Index;
  llvm::SmallVector<StringRef, 4> Members;
};

std::optional<Access> accessOf(const Expr *E, ConstantFolder &Folder) {
  Access A;
  E = peel(E);
  while (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow() || !M->getMemberDecl()->getIdentifier())
      return std::nullopt;
    A.Members.insert(A.Members.begin(), M->getMemberDecl()->getName());
    E = peel(M->getBase());
  }
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    auto I = Folder.foldInt(Sub->getIdx());
    if (!I || I->Value.isNegative())
      return std::nullopt;
    A.Index = I->Value.getZExtValue();
    E = peel(Sub->getBase());
  } else {
    A.Index = 0;
  }
  A.Root = localVar(E);
  if (!A.Root)
    return std::nullopt;
  return A;
}

std::optional<std::uint64_t> fold(const Expr *E, ConstantFolder &Folder) {
  auto V = Folder.foldInt(E);
  if (!V || V->Value.isNegative())
    return std::nullopt;
  return V->Value.getZExtValue();
}

std::optional<ClusterSize> fromClusterDims(const FunctionDecl *K) {
  const auto *A = K->getAttr<CUDAClusterDimsAttr>();
  if (!A)
    return std::nullopt;
  const ASTContext &Ctx = K->getASTContext();
  std::uint64_t Size = 1;
  std::string Dims;
  for (const Expr *E : {A->getX(), A->getY(), A->getZ()}) {
    std::uint64_t V = 1;
    if (E) {
      if (E->isValueDependent())
        return std::nullopt;
      Expr::EvalResult R;
      if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().isNegative())
        return std::nullopt;
      V = R.Val.getInt().getZExtValue();
    }
    Size *= V;
    Dims += (Dims.empty() ? "" : ", ") + std::to_string(V);
  }
  return ClusterSize{Size, A->getLocation(),
                     "__cluster_dims__(" + Dims + ") of '" +
                         K->getNameAsString() + "'"};
}

/// cudaFuncSetAttribute(K, cudaFuncAttributeRequiredCluster*, n) in \p Body.
std::optional<ClusterSize> fromFuncAttributes(const Stmt *Body,
                                              const FunctionDecl *K,
                                              ConstantFolder &Folder) {
  Once Dim[3];
  SourceLocation From;
  forEachCall(Body, [&](const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getIdentifier() ||
        FD->getName() != "cudaFuncSetAttribute" || C->getNumArgs() != 3)
      return;
    const FunctionDecl *Target = functionOf(C->getArg(0));
    if (!Target || Target->getCanonicalDecl() != K->getCanonicalDecl())
      return;
    StringRef Attr = enumeratorName(C->getArg(1));
    int I = Attr == "cudaFuncAttributeRequiredClusterWidth"    ? 0
            : Attr == "cudaFuncAttributeRequiredClusterHeight" ? 1
            : Attr == "cudaFuncAttributeRequiredClusterDepth"  ? 2
                                                               : -1;
    if (I < 0)
      return;
    Dim[I].set(fold(C->getArg(2), Folder));
    if (From.isInvalid())
      From = C->getBeginLoc();
  });
  std::uint64_t Size = 1;
  std::string Dims;
  for (const Once &D : Dim) {
    auto V = D.get();
    if (!V || !*V)
      return std::nullopt;
    Size *= *V;
    Dims += (Dims.empty() ? "" : ", ") + std::to_string(*V);
  }
  return ClusterSize{Size, From,
                     "cudaFuncSetAttribute requires clusters of {" + Dims +
                         "} for '" + K->getNameAsString() + "'"};
}

/// The cudaLaunchAttributeClusterDimension of the configuration that
/// cudaLaunchKernelEx(&config, K, ...) \p Launch passes.
std::optional<ClusterSize> fromLaunchConfig(const CallExpr *Launch,
                                            const Stmt *Body,
                                            ConstantFolder &Folder) {
  const auto *Addr = dyn_cast<UnaryOperator>(peel(Launch->getArg(0)));
  const VarDecl *Config =
      Addr && Addr->getOpcode() == UO_AddrOf ? localVar(Addr->getSubExpr())
                                             : nullptr;
  // Its initialiser, if any, is overwritten: the attrs and numAttrs that
  // count are assigned below.
  if (!Config)
    return std::nullopt;
  // config.attrs = attrs / &attr; config.numAttrs = n.
  const VarDecl *Attrs = nullptr;
  bool AttrsConflict = false;
  Once NumAttrs;
  forEachAssignment(Body, [&](const Expr *L, const Expr *R, const Stmt *) {
    auto A = accessOf(L, Folder);
    if (!A || A->Root != Config || A->Members.size() != 1)
      return;
    if (A->Members[0] == "numAttrs") {
      NumAttrs.set(fold(R, Folder));
    } else if (A->Members[0] == "attrs") {
      const Expr *P = peel(R);
      if (const auto *U = dyn_cast<UnaryOperator>(P);
          U && U->getOpcode() == UO_AddrOf)
        P = U->getSubExpr();
      const VarDecl *V = localVar(P);
      if (!V || (Attrs && Attrs != V))
        AttrsConflict = true;
      Attrs = V;
    }
  });
  auto Count = NumAttrs.get();
  if (!Attrs || AttrsConflict || !Count)
    return std::nullopt;
  // Uninitialised (a trivial default construction) or `= {}`.
  if (const Expr *Init = Attrs->getInit()) {
    const Expr *I = peel(Init);
    const auto *List = dyn_cast<InitListExpr>(I);
    const auto *Construct = dyn_cast<CXXConstructExpr>(I);
    if (!(List && !List->getNumInits()) &&
        !(Construct && !Construct->getNumArgs() &&
          Construct->getConstructor()->isTrivial()))
      return std::nullopt;
  }
  // Every use of the attribute storage is one of the writes below, or the
  // config.attrs assignment: no write through a pointer or an index that
  // does not fold.
  unsigned Uses = 0;
  struct Slot {
    std::string Id;
    bool IdUnknown = false;
    Once Dim[3];
    SourceLocation IdLoc;
  };
  std::map<std::uint64_t, Slot> Slots;
  bool Unknown = false;
  forEachAssignment(Body, [&](const Expr *L, const Expr *R, const Stmt *S) {
    if (auto CL = accessOf(L, Folder); CL && CL->Root == Config) {
      if (CL->Members.size() == 1 && CL->Members[0] == "attrs")
        ++Uses;
      return;
    }
    if (countRefs(L, Attrs) == 0)
      return;
    auto A = accessOf(L, Folder);
    if (!A || A->Root != Attrs) {
      Unknown = true;
      return;
    }
    Uses += countRefs(S, Attrs);
    Slot &Sl = Slots[*A->Index];
    const auto &M = A->Members;
    if (M.size() == 1 && M[0] == "id") {
      StringRef Name = enumeratorName(R);
      if (Name.empty())
        Sl.IdUnknown = true;
      else if (!Sl.Id.empty() && Sl.Id != Name)
        Sl.IdUnknown = true;
      Sl.Id = Name.str();
      Sl.IdLoc = S->getBeginLoc();
    } else if (M.size() >= 2 && M[0] == "val" && M[1] == "clusterDim") {
      if (M.size() == 3 && (M[2] == "x" || M[2] == "y" || M[2] == "z")) {
        Sl.Dim[M[2][0] - 'x'].set(fold(R, Folder));
      } else if (M.size() == 2) {
        const auto *List = dyn_cast<InitListExpr>(peel(R));
        if (!List || List->getNumInits() != 3) {
          Unknown = true;
          return;
        }
        for (unsigned I = 0; I < 3; ++I)
          Sl.Dim[I].set(fold(List->getInit(I), Folder));
      } else {
        Unknown = true;
      }
    } else if (M.size() >= 1 && M[0] == "val") {
      // Another attribute's value: a preferred cluster dimension may make
      // the cluster larger than the minimum.
      if (M.size() >= 2 && M[1] == "preferredClusterDim")
        Unknown = true;
    } else {
      Unknown = true;
    }
  });
  if (Unknown || Uses != countRefs(Body, Attrs))
    return std::nullopt;
  std::optional<ClusterSize> Found;
  for (auto &[Index, Sl] : Slots) {
    if (Index >= *Count)
      continue;
    if (Sl.IdUnknown || Sl.Id == "cudaLaunchAttributePreferredClusterDimension")
      return std::nullopt;
    if (Sl.Id != "cudaLaunchAttributeClusterDimension")
      continue;
    if (Found)
      return std::nullopt;
    std::uint64_t Size = 1;
    std::string Dims;
    for (const Once &D : Sl.Dim) {
      auto V = D.get();
      if (!V || !*V)
        return std::nullopt;
      Size *= *V;
      Dims += (Dims.empty() ? "" : ", ") + std::to_string(*V);
    }
    Found = ClusterSize{Size, Sl.IdLoc,
                        "cudaLaunchKernelEx launches it with clusters of {" +
                            Dims + "}"};
  }
  return Found;
}

} // namespace

std::optional<ClusterSize> clusterOf(const FunctionDecl *Fn,
                                     const CallContext *Context,
                                     ConstantFolder &Folder) {
  if (!Fn)
    return std::nullopt;
  const FunctionDecl *Kernel = nullptr;
  const CallContext *Launch = nullptr;
  if (Fn->hasAttr<CUDAGlobalAttr>()) {
    Kernel = Fn;
    Launch = Context;
  } else {
    for (const CallContext *C = Context; C; C = C->Parent)
      if (const FunctionDecl *Caller = Folder.enclosingFunction(C->Call);
          Caller && Caller->hasAttr<CUDAGlobalAttr>()) {
        Kernel = Caller;
        Launch = C->Parent;
        break;
      }
  }
  if (!Kernel)
    return std::nullopt;
  if (auto S = fromClusterDims(Kernel))
    return S;
  if (!Launch || !Launch->Callee ||
      Launch->Callee->getCanonicalDecl() != Kernel->getCanonicalDecl())
    return std::nullopt;
  const FunctionDecl *Host = Folder.enclosingFunction(Launch->Call);
  const Stmt *Body = Host ? Host->getBody() : nullptr;
  if (!Body)
    return std::nullopt;
  // The launching function's values, under its own callers' context.
  const CallContext *Saved = Folder.currentContext();
  Folder.enterContext(Launch->Parent);
  std::optional<ClusterSize> S = fromFuncAttributes(Body, Kernel, Folder);
  if (!S && launchArgumentOffset(*Launch->Call))
    S = fromLaunchConfig(Launch->Call, Body, Folder);
  Folder.enterContext(Saved);
  return S;
}

} // namespace clang::tidy::tma
