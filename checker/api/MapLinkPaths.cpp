//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/MapLinkPaths.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

namespace clang::tidy::tma::maplink {

const Expr *stripValue(const Expr *E) {
  for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const Expr *Fwd = forwardedArgument(E))
      E = Fwd;
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 &&
             C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E);
             F && F->getCastKind() == CK_NoOp)
      E = F->getSubExpr(); // Params{a, b}
    else if (const auto *L = dyn_cast<CompoundLiteralExpr>(E))
      E = L->getInitializer();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else
      return E;
  }
  return E;
}

const VarDecl *varOf(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

std::optional<unsigned> paramIndexOf(const CallExpr &Call,
                                     const FunctionDecl &Callee, unsigned Arg) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&Callee);
      MD && MD->isInstance() && isa<CXXOperatorCallExpr>(Call)) {
    if (Arg == 0)
      return std::nullopt;
    --Arg;
  }
  if (Arg >= Callee.getNumParams())
    return std::nullopt;
  return Arg;
}

const Stmt *statementOf(const ParentMap &PM, const Stmt *E) {
  const Stmt *S = E;
  while (const Stmt *P = PM.getParent(S)) {
    if (!isa<Expr>(P) && !isa<DeclStmt>(P))
      break;
    S = P;
  }
  return S;
}

void usesIn(const Stmt *S, const VarDecl *Var,
            llvm::SmallVectorImpl<const DeclRefExpr *> &Out, bool &InLambda,
            bool Nested) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
      Ref && Ref->getDecl() == Var) {
    Out.push_back(Ref);
    InLambda |= Nested;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      usesIn(Init, Var, Out, InLambda, Nested);
    usesIn(L->getBody(), Var, Out, InLambda, true);
    return;
  }
  for (const Stmt *Child : S->children())
    usesIn(Child, Var, Out, InLambda, Nested);
}

void thisUsesIn(const Stmt *S, llvm::SmallVectorImpl<const Expr *> &Out,
                bool &InLambda, bool Nested) {
  if (!S)
    return;
  if (const auto *T = dyn_cast<CXXThisExpr>(S)) {
    Out.push_back(T);
    InLambda |= Nested;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const Expr *Init : L->capture_inits())
      thisUsesIn(Init, Out, InLambda, Nested);
    thisUsesIn(L->getBody(), Out, InLambda, true);
    return;
  }
  for (const Stmt *Child : S->children())
    thisUsesIn(Child, Out, InLambda, Nested);
}

const Expr *useRoot(const ParentMap &PM, const Expr *Use, bool &AddressTaken) {
  AddressTaken = false;
  const Expr *E = Use;
  while (const auto *P = dyn_cast_or_null<Expr>(PM.getParent(E))) {
    if (isa<ParenExpr>(P) || isa<CastExpr>(P)) {
      E = P;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P);
        U && U->getOpcode() == UO_AddrOf && !AddressTaken) {
      AddressTaken = true;
      E = P;
      continue;
    }
    break;
  }
  return E;
}

const DeclStmt *declarationOf(const Stmt *S, const VarDecl *Var) {
  if (!S)
    return nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(S);
      DS && llvm::is_contained(DS->decls(), Var))
    return DS;
  for (const Stmt *Child : S->children())
    if (const DeclStmt *Found = declarationOf(Child, Var))
      return Found;
  return nullptr;
}

std::optional<unsigned> argumentIndex(const CallExpr &Call, const Expr *Arg) {
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    if (Call.getArg(I) == Arg)
      return I;
  return std::nullopt;
}

bool pointeeAfter(PathRef Path, size_t Taken) {
  return Taken > 0 && Taken <= Path.size() && Path[Taken - 1].Deref;
}

bool hasDeref(PathRef Path) {
  return llvm::any_of(Path, [](const PathStep &S) { return S.Deref; });
}

AccessPath prepend(PathStep Step, PathRef Path) {
  AccessPath Out{Step};
  Out.append(Path.begin(), Path.end());
  return Out;
}

std::optional<uint64_t> constantIndex(const ArraySubscriptExpr &ASE,
                                      const ASTContext &Ctx) {
  const Expr *Base = ASE.getBase()->IgnoreParenImpCasts();
  const Expr *Idx = ASE.getIdx();
  if (!Ctx.getAsConstantArrayType(Base->getType()) || Idx->isValueDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> V = Idx->getIntegerConstantExpr(Ctx);
  if (!V || V->isNegative())
    return std::nullopt;
  return V->getZExtValue();
}

const Expr *peelObject(const Expr *E, AccessPath &Path, bool &ThroughPointer,
                       const ASTContext &Ctx) {
  ThroughPointer = false;
  AccessPath Inner; // innermost step first
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!Field)
        break;
      Inner.push_back({Field, 0});
      E = ME->getBase();
      if (ME->isArrow()) {
        ThroughPointer = true;
        E = E->IgnoreParenCasts();
        break;
      }
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      std::optional<uint64_t> I = constantIndex(*ASE, Ctx);
      if (!I)
        break;
      Inner.push_back({nullptr, *I});
      E = ASE->getBase();
      continue;
    }
    break;
  }
  AccessPath Out(Inner.rbegin(), Inner.rend());
  Out.append(Path.begin(), Path.end());
  Path = std::move(Out);
  return E;
}

const Expr *initFor(const InitListExpr &ILE, const PathStep &Step) {
  if (ILE.isTransparent())
    return nullptr;
  unsigned I = Step.Index;
  if (Step.Field) {
    const RecordDecl *RD = Step.Field->getParent();
    const RecordDecl *Of = ILE.getType()->getAsRecordDecl();
    if (!Of || RD->isUnion())
      return nullptr;
    if (Of->getCanonicalDecl() != RD->getCanonicalDecl()) {
      // A field of a base (`struct Params : MapsBase`): the base's own
      // initialiser list, then the field in it.
      const auto *CRD = dyn_cast<CXXRecordDecl>(Of);
      const auto *Want = dyn_cast<CXXRecordDecl>(RD);
      if (!CRD || !Want)
        return nullptr;
      unsigned B = 0;
      for (const CXXBaseSpecifier &Base : CRD->bases()) {
        const CXXRecordDecl *BD = Base.getType()->getAsCXXRecordDecl();
        if (!Base.isVirtual() && BD &&
            (BD->getCanonicalDecl() == Want->getCanonicalDecl() ||
             BD->isDerivedFrom(Want))) {
          const auto *Sub =
              B < ILE.getNumInits()
                  ? dyn_cast<InitListExpr>(stripValue(ILE.getInit(B)))
                  : nullptr;
          return Sub ? initFor(*Sub, Step) : nullptr;
        }
        ++B;
      }
      return nullptr;
    }
    I = Step.Field->getFieldIndex();
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
      I += CRD->getNumBases();
  } else if (!ILE.getType()->isArrayType()) {
    return nullptr;
  }
  return I < ILE.getNumInits() ? ILE.getInit(I) : nullptr;
}

UsePath usePathOf(const ParentMap &PM, const Expr *Use, bool Pointer,
                  const ASTContext &Ctx) {
  UsePath U;
  const Expr *Cur = Use;
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    const Expr *Up = Cur;
    const Stmt *P = PM.getParent(Up);
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
      Up = cast<Expr>(P);
      P = PM.getParent(P);
    }
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
        ME && ME->getBase() == Up && ME->isArrow() == Pointer &&
        isa<FieldDecl>(ME->getMemberDecl())) {
      U.Steps.push_back({cast<FieldDecl>(ME->getMemberDecl()), 0});
      Cur = ME;
      Pointer = false;
      continue;
    }
    if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(P);
        ASE && !Pointer && ASE->getBase() == Up &&
        Ctx.getAsConstantArrayType(Cur->getType())) {
      Cur = ASE;
      if (std::optional<uint64_t> I = constantIndex(*ASE, Ctx)) {
        U.Steps.push_back({nullptr, *I});
        continue;
      }
      U.Opaque = true;
      break;
    }
    break;
  }
  U.End = Cur;
  return U;
}

PathRel relate(const UsePath &U, PathRef Want) {
  size_t N = std::min(U.Steps.size(), Want.size());
  for (size_t I = 0; I < N; ++I) {
    if (U.Steps[I] == Want[I])
      continue;
    const FieldDecl *F = U.Steps[I].Field;
    if (F && F->getParent()->isUnion())
      return PathRel::MayOverlap;
    return PathRel::Unrelated;
  }
  if (U.Opaque || U.Steps.size() > Want.size())
    return PathRel::MayOverlap;
  return PathRel::Holds;
}

bool onlyTested(const ParentMap &PM, const Expr *Root) {
  if (Root->getType()->isBooleanType())
    return true;
  const Stmt *P = PM.getParent(Root);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
    return BO->isComparisonOp() || BO->isLogicalOp();
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    return UO->getOpcode() == UO_LNot;
  return false;
}

const Expr *assignedTo(const ParentMap &PM, const Expr *LHS) {
  const Stmt *P = PM.getParent(LHS);
  while (isa_and_nonnull<ParenExpr>(P)) {
    LHS = cast<Expr>(P);
    P = PM.getParent(P);
  }
  if (const auto *A = dyn_cast_or_null<BinaryOperator>(P);
      A && A->getOpcode() == BO_Assign && A->getLHS() == LHS)
    return A->getRHS();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
      Op->getArg(0) == LHS)
    return Op->getArg(1);
  return nullptr;
}

bool storedInStruct(const ParentMap &PM, const Expr *Root) {
  const Stmt *P = PM.getParent(Root);
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(P))
    return ILE->getType()->isRecordType();
  const auto *A = dyn_cast_or_null<BinaryOperator>(P);
  return A && A->getOpcode() == BO_Assign && A->getRHS() == Root &&
         isa<MemberExpr>(A->getLHS()->IgnoreParenImpCasts());
}

bool bindsMutableReference(const CallExpr &Call, unsigned ArgIdx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  std::optional<unsigned> I =
      FD ? paramIndexOf(Call, *FD, ArgIdx) : std::nullopt;
  if (!I)
    return false;
  QualType T = FD->getParamDecl(*I)->getType();
  return T->isReferenceType() && !T->getPointeeType().isConstQualified();
}

bool isCalled(const CallExpr &Call, llvm::ArrayRef<StringRef> Names) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && FD->getIdentifier() && llvm::is_contained(Names, FD->getName());
}

bool isReadOnlyRuntimeCall(const CallExpr &Call, unsigned Arg) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  struct Entry {
    StringRef Name;
    unsigned Arg;
  };
  static constexpr Entry ReadOnly[] = {
      {"cudaFree", 0},
      {"cudaFreeAsync", 0},
      {"cudaFreeHost", 0},
      {"cuMemFree", 0},
      {"cuMemFreeAsync", 0},
      {"cuMemFreeHost", 0},
      {"cudaHostUnregister", 0},
      {"cuMemHostUnregister", 0},
      {"cudaIpcGetMemHandle", 1},
      {"cuIpcGetMemHandle", 1},
      {"cudaHostGetDevicePointer", 1},
      {"cuMemHostGetDevicePointer", 1},
      {"cudaHostGetFlags", 1},
      {"cuMemHostGetFlags", 1},
  };
  StringRef Name = FD->getName();
  return llvm::any_of(
      ReadOnly, [&](const Entry &E) { return E.Name == Name && E.Arg == Arg; });
}

bool asmWritesGlobalMap(const GCCAsmStmt &S) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return false;
  StringRef T = Text->getString();
  for (size_t At = T.find("tensormap."); At != StringRef::npos;
       At = T.find("tensormap.", At + 1)) {
    StringRef Op = T.drop_front(At).take_until(
        [](char C) { return C == ' ' || C == '\t' || C == '\n'; });
    if ((Op.starts_with("tensormap.replace") && !Op.contains(".shared")) ||
        Op.starts_with("tensormap.cp_fenceproxy"))
      return true;
  }
  return false;
}

bool callWritesGlobalMap(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (Name == "tensormap_cp_fenceproxy")
    return true;
  if (!Name.starts_with("tensormap_replace_") || Call.getNumArgs() < 2)
    return false;
  // space_global_t, or what it names: space_t<dot_space::global>.
  std::string Space =
      Call.getArg(0)->getType().getCanonicalType().getAsString();
  return StringRef(Space).contains("global");
}

} // namespace clang::tidy::tma::maplink
