//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/MapLink.h"
#include "api/BarrierPhases.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

/// Steps (parameters, variables, pointers, returns, helpers) followed from
/// one device operand; a helper chain of four functions takes about 16.
static constexpr unsigned MaxLinkDepth = 32;

namespace {

/// One write of a map variable (or of the map a pointer variable points to).
struct MapWrite {
  /// The statement of the write in its block.
  const Stmt *At;
  /// The map written; std::nullopt for a write the link cannot follow.
  std::optional<LinkedMap> Source;
};

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

/// The parameter that argument \p Arg of \p Call binds in \p Callee (a
/// member operator call, such as a lambda's, passes the object first).
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

/// The full statement of \p E: E's outermost enclosing expression (or
/// declaration) below a statement that is not an expression.
const Stmt *statementOf(const ParentMap &PM, const Stmt *E) {
  const Stmt *S = E;
  while (const Stmt *P = PM.getParent(S)) {
    if (!isa<Expr>(P) && !isa<DeclStmt>(P))
      break;
    S = P;
  }
  return S;
}

/// The uses of \p Var in \p S, with whether one lies in a lambda.
void usesIn(const Stmt *S, const VarDecl *Var,
            llvm::SmallVectorImpl<const DeclRefExpr *> &Out, bool &InLambda,
            bool Nested = false) {
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

/// The uses of `this` in \p S (explicit and implicit), with whether one lies
/// in a lambda.
void thisUsesIn(const Stmt *S, llvm::SmallVectorImpl<const Expr *> &Out,
                bool &InLambda, bool Nested = false) {
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

/// Walks up from a use of a variable through parentheses, casts (loads
/// included) and one address-of; reports the expression reached and whether the
/// address was taken.
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

/// The declaration statement of the local \p Var within \p S.
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

/// Which argument of \p Call is \p Arg; std::nullopt for the callee.
std::optional<unsigned> argumentIndex(const CallExpr &Call, const Expr *Arg) {
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    if (Call.getArg(I) == Arg)
      return I;
  return std::nullopt;
}

using PathStep = MapLinker::PathStep;
using AccessPath = MapLinker::AccessPath;
using PathRef = MapLinker::PathRef;

/// Whether the first \p Taken steps of \p Path end at a pointer whose
/// pointee holds the rest (a pointer field of a Params struct).
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

/// The index of a subscript of an array object (not of a pointer) when it
/// is a constant expression.
std::optional<uint64_t> constantIndex(const ArraySubscriptExpr &ASE,
                                      const ASTContext &Ctx) {
  const Expr *Base = ASE.getBase()->IgnoreParenImpCasts();
  const Expr *Idx = ASE.getIdx();
  if (!Ctx.getAsConstantArrayType(Base->getType()) ||
      Idx->isValueDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> V = Idx->getIntegerConstantExpr(Ctx);
  if (!V || V->isNegative())
    return std::nullopt;
  return V->getZExtValue();
}

/// Peels `.field` and constant `[i]` steps off the object expression \p E
/// and puts them in front of \p Path. Returns the object they start from;
/// \p ThroughPointer when a `->field` step starts from a pointer (returned).
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

/// The initialiser of the part \p Step in the (semantic) initialiser list
/// \p ILE; null when the list does not initialise that part.
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
          const auto *Sub = B < ILE.getNumInits()
                                ? dyn_cast<InitListExpr>(
                                      stripValue(ILE.getInit(B)))
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

/// The access path of one use of a variable: the steps from the variable to
/// the part that the use designates (End). Opaque: a run-time index follows.
struct UsePath {
  const Expr *End = nullptr;
  AccessPath Steps;
  bool Opaque = false;
};

/// Walks up from \p Use through `.field` and `[i]` steps (`->field` first
/// when the variable is a pointer to the object, \p Pointer).
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

/// How the part a use designates relates to the map at \p Want: another
/// part, a part that holds the map (or the map), or one that may overlap it.
enum class PathRel { Unrelated, Holds, MayOverlap };

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

/// Whether \p Root (a pointer's value) is only tested: compared, negated,
/// or converted to bool.
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

/// The value assigned to the lvalue \p LHS (`*d = other`, also through a
/// class type's operator=), or null.
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

/// Whether the pointer value \p Root is stored into a field of a struct
/// (`params.tma_a = d`, `Params{d, ...}`).
bool storedInStruct(const ParentMap &PM, const Expr *Root) {
  const Stmt *P = PM.getParent(Root);
  if (const auto *ILE = dyn_cast_or_null<InitListExpr>(P))
    return ILE->getType()->isRecordType();
  const auto *A = dyn_cast_or_null<BinaryOperator>(P);
  return A && A->getOpcode() == BO_Assign && A->getRHS() == Root &&
         isa<MemberExpr>(A->getLHS()->IgnoreParenImpCasts());
}

/// Whether parameter \p ArgIdx of \p Call's callee is a reference to
/// non-const (an out-parameter taken by reference).
bool bindsMutableReference(const CallExpr &Call, unsigned ArgIdx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  std::optional<unsigned> I = FD ? paramIndexOf(Call, *FD, ArgIdx)
                                 : std::nullopt;
  if (!I)
    return false;
  QualType T = FD->getParamDecl(*I)->getType();
  return T->isReferenceType() && !T->getPointeeType().isConstQualified();
}

bool isCalled(const CallExpr &Call, llvm::ArrayRef<StringRef> Names) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && FD->getIdentifier() && llvm::is_contained(Names, FD->getName());
}

/// A runtime or driver function that receives a pointer (argument
/// \p Arg) without writing what it points to and without keeping it for a
/// later write: frees, queries and hints. A loop that frees or queries its
/// maps after their launches (h100_gemm's profiling loop) changes no map
/// that the next iteration's launch reads; a launch after a free is a
/// use-after-free, not another map. (Functions whose parameter is a
/// pointer to const, such as cudaPointerGetAttributes or
/// cudaMemPrefetchAsync, read by their declaration.)
bool isReadOnlyRuntimeCall(const CallExpr &Call, unsigned Arg) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  struct Entry {
    StringRef Name;
    unsigned Arg;
  };
  static constexpr Entry ReadOnly[] = {
      {"cudaFree", 0},           {"cudaFreeAsync", 0},
      {"cudaFreeHost", 0},       {"cuMemFree", 0},
      {"cuMemFreeAsync", 0},     {"cuMemFreeHost", 0},
      {"cudaHostUnregister", 0}, {"cuMemHostUnregister", 0},
      {"cudaIpcGetMemHandle", 1}, {"cuIpcGetMemHandle", 1},
      {"cudaHostGetDevicePointer", 1}, {"cuMemHostGetDevicePointer", 1},
      {"cudaHostGetFlags", 1},   {"cuMemHostGetFlags", 1},
  };
  StringRef Name = FD->getName();
  return llvm::any_of(ReadOnly, [&](const Entry &E) {
    return E.Name == Name && E.Arg == Arg;
  });
}

/// Whether the asm text of \p S may write a tensor map in global memory:
/// tensormap.replace on a .global map or a generic address (only
/// .shared::cta names a shared copy), or tensormap.cp_fenceproxy, whose
/// destination is global.
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

/// Whether \p Call is a cuda::ptx call that writes a map in global memory:
/// tensormap_replace_*(space_global, map, ...), tensormap_cp_fenceproxy.
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

} // namespace

rules::CopyMode copyModeOf(::tma::device::TensorMode M) {
  using ::tma::device::TensorMode;
  switch (M) {
  case TensorMode::Tile:
    return rules::CopyMode::Tile;
  case TensorMode::TileGather4:
    return rules::CopyMode::Gather4;
  case TensorMode::TileScatter4:
    return rules::CopyMode::Scatter4;
  case TensorMode::Im2col:
    return rules::CopyMode::Im2col;
  case TensorMode::Im2colNoOffs:
    return rules::CopyMode::Im2colNoOffs;
  case TensorMode::Im2colW:
    return rules::CopyMode::Im2colW;
  case TensorMode::Im2colW128:
    return rules::CopyMode::Im2colW128;
  }
  return rules::CopyMode::Tile;
}

MapLinker::Place MapLinker::callerPlace(const CallContext *Context) {
  return Place{Folder.enclosingFunction(Context->Call), Context->Call,
               Context->Parent};
}

const FunctionDecl *MapLinker::launchedKernel(const CallExpr &Call,
                                              const CallContext *Context) {
  const Expr *K = nullptr;
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(&Call))
    K = KC->getCallee();
  else if (launchArgumentOffset(Call))
    K = Call.getArg(1);
  for (unsigned Steps = 0; K && Steps < 8; ++Steps) {
    if (const FunctionDecl *F = functionOf(K))
      return F;
    const VarDecl *Var = varOf(K->IgnoreParenImpCasts());
    if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Var)) {
      K = argumentFor(Param, Context);
      Context = Context ? Context->Parent : nullptr;
    } else if (Var && Var->hasLocalStorage() && Folder.isNeverWritten(Var)) {
      K = Var->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool MapLinker::bodyMayWriteGlobalMaps(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return asmWritesGlobalMap(*Asm);
  if (const auto *L = dyn_cast<LambdaExpr>(S))
    return bodyMayWriteGlobalMaps(L->getBody(), Depth);
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (callWritesGlobalMap(*Call))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A call through a pointer may run anything.
    if (!Callee && !isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      return true;
    if (Callee && mayWriteGlobalMaps(Callee, Depth + 1))
      return true;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
    if (mayWriteGlobalMaps(CE->getConstructor(), Depth + 1))
      return true;
  for (const Stmt *Child : S->children())
    if (bodyMayWriteGlobalMaps(Child, Depth))
      return true;
  return false;
}

bool MapLinker::mayWriteGlobalMaps(const FunctionDecl *Fn, unsigned Depth) {
  // Builtins and the toolkit's functions (CCCL's atomics call through
  // function references; cuda::ptx's map writers are known by name above)
  // write no map.
  const SourceManager &SM = Ctx.getSourceManager();
  if (Fn->getBuiltinID() ||
      SM.isInSystemHeader(SM.getFileLoc(Fn->getLocation())))
    return false;
  const FunctionDecl *Def = nullptr;
  if (!Fn->hasBody(Def)) {
    // A user function defined elsewhere may, through a parameter that is
    // a pointer (or reference) to non-const.
    return Fn->isVariadic() ||
           llvm::any_of(Fn->parameters(), [](const ParmVarDecl *P) {
             QualType T = P->getType();
             return (T->isPointerType() || T->isReferenceType()) &&
                    !T->getPointeeType().isConstQualified();
           });
  }
  if (auto It = MapWriters.find(Def); It != MapWriters.end()) {
    // A recursion in progress: the walk of its first call decides; an
    // answer that counted on it is not kept.
    if (llvm::is_contained(MapWalk, Def))
      Provisional = true;
    return It->second;
  }
  // A call chain deeper than this is not followed: it may write (and the
  // answer is not kept, so that it does not depend on the order of
  // questions).
  if (Depth > 24) {
    Provisional = true;
    return true;
  }
  MapWriters[Def] = false;
  MapWalk.push_back(Def);
  const bool Outer = Provisional;
  Provisional = false;
  const bool May = bodyMayWriteGlobalMaps(Def->getBody(), Depth);
  MapWalk.pop_back();
  if (Provisional && !May)
    MapWriters.erase(Def);
  else
    MapWriters[Def] = May;
  Provisional |= Outer;
  return May;
}

std::optional<KnownMap> MapLinker::mapOf(const Expr *Map,
                                         const CallContext *Context) {
  if (!Map)
    return std::nullopt;
  auto [It, New] = Memo.try_emplace({Map, Context});
  if (!New)
    return It->second;
  // Device side: follow parameters out through the calls of Context until
  // one of them is a kernel launch. E is a pointer to the map, or an lvalue
  // of the map itself (Object); Path leads from E's object to the map.
  const Expr *E = Map;
  bool Object = false;
  AccessPath Path;
  const CallContext *C = Context;
  for (unsigned Steps = 0; Steps < MaxLinkDepth; ++Steps) {
    const Expr *Inner = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Inner);
        !Object && U && U->getOpcode() == UO_AddrOf) {
      Inner = U->getSubExpr()->IgnoreParenImpCasts();
      Object = true;
    }
    // `p.tma_a` of a `const CUtensorMap *tma_a` field (`p->tma_a` of a
    // pointer to the struct): the map is the field's pointee.
    if (const auto *ME = dyn_cast<MemberExpr>(Inner);
        !Object && ME && isa<FieldDecl>(ME->getMemberDecl()) &&
        ME->getType()->isPointerType()) {
      Path = prepend({cast<FieldDecl>(ME->getMemberDecl()), 0, true}, Path);
      Inner = ME->getBase()->IgnoreParenCasts();
      Object = !ME->isArrow();
    }
    // `p.tma_a`, `maps[1]`, `p->desc`: the map is a part of a larger object.
    if (Object) {
      bool ThroughPointer = false;
      Inner = peelObject(Inner, Path, ThroughPointer, Ctx);
      Object = !ThroughPointer;
      // `*p` of a pointer to the object: the pointer.
      if (const auto *U = dyn_cast<UnaryOperator>(Inner);
          Object && U && U->getOpcode() == UO_Deref) {
        Inner = U->getSubExpr()->IgnoreParenCasts();
        Object = false;
      }
    }
    // A getter of the map's object (`src.get_tma<ST, axis>()` returning
    // `&this->tma_descs...`): the call's object, the fields below it.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Inner)) {
      AccessPath Fields;
      const Expr *Obj = getterObject(MC, Fields, 0);
      if (!Obj)
        break;
      Fields.append(Path.begin(), Path.end());
      Path = std::move(Fields);
      Object = !Obj->getType()->isPointerType();
      if (Object) {
        bool ThroughPointer = false;
        Inner = peelObject(Obj->IgnoreParenCasts(), Path, ThroughPointer, Ctx);
        Object = !ThroughPointer;
      } else {
        Inner = Obj->IgnoreParenCasts();
      }
    }
    // A local pointer (or reference) of the device function: what it was
    // initialised with when nothing changes it later, or the one map that
    // every assignment of it designates.
    if (const VarDecl *Local = varOf(Inner);
        Local && !isa<ParmVarDecl>(Local) && Local->hasLocalStorage() &&
        !Local->hasAttr<CUDASharedAttr>()) {
      const bool Ref = Local->getType()->isReferenceType();
      if (!Ref && (Object || !Local->getType()->isPointerType()))
        break;
      if (Ref || Folder.isNeverWritten(Local)) {
        if (!Local->getInit())
          break;
        E = Local->getInit();
        Object = Ref;
        continue;
      }
      It->second = reassignedMap(Local, Path, C);
      return It->second;
    }
    // A __constant__ map, set by the host with cudaMemcpyToSymbol. (A
    // __device__ map may also be written by device code: not followed.)
    if (const VarDecl *Var = varOf(Inner); Object && Var &&
                                           Var->hasGlobalStorage() &&
                                           Var->hasAttr<CUDAConstantAttr>()) {
      const CallExpr *Copy = nullptr;
      if (auto L = fromSymbol(Var, Path, Copy)) {
        It->second = describe(*L);
        It->second->Handoff = Copy;
        It->second->ToSymbol = true;
      }
      return It->second;
    }
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(varOf(Inner));
    // A lambda refers to the enclosing function's parameters directly: go
    // out to the call of that function.
    const auto *ParamFn =
        Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    while (ParamFn && C &&
           C->Callee->getCanonicalDecl() != ParamFn->getCanonicalDecl() &&
           isa<CXXMethodDecl>(C->Callee) &&
           cast<CXXMethodDecl>(C->Callee)->getParent()->isLambda())
      C = C->Parent;
    const Expr *Arg = Param ? argumentFor(Param, C) : nullptr;
    if (!Arg)
      break;
    const bool Ref = Param->getType()->isReferenceType();
    if (C->Callee->hasAttr<CUDAGlobalAttr>()) {
      // A map in global memory that the kernel itself may rewrite
      // (tensormap.replace) is not the one the host encoded; a by-value
      // map is the kernel's own parameter, which it cannot rewrite.
      if (!(Object && !Ref && !hasDeref(Path)) &&
          mayWriteGlobalMaps(C->Callee))
        break;
      // The launch: Arg is host code.
      Place P = callerPlace(C);
      if (!P.Fn)
        break;
      std::optional<LinkedMap> L = Object || Ref
                                       ? fromValue(Arg, P, 0, Path)
                                       : fromPointer(Arg, P, 0, Path);
      if (L) {
        It->second = describe(*L);
        It->second->Handoff = C->Call;
      }
      return It->second;
    }
    // A device helper's by-value map is a local copy: TMA cannot use it.
    // A by-value struct still holds the caller's pointer field, when the
    // helper does not change its copy.
    const bool CopiedPointer =
        Object && !Ref && hasDeref(Path) && Folder.isNeverWritten(Param);
    if (Object && !Ref && !CopiedPointer)
      break;
    Object = Ref || CopiedPointer;
    E = CopiedPointer ? stripValue(Arg) : Arg;
    C = C->Parent;
  }
  return std::nullopt;
}

std::optional<KnownMap> MapLinker::reassignedMap(const VarDecl *Local,
                                                 PathRef Path,
                                                 const CallContext *Context) {
  std::optional<std::vector<const Expr *>> Sources =
      Path.empty() ? Folder.assignmentsOf(Local) : std::nullopt;
  if (!Sources)
    return std::nullopt;
  if (const Expr *Init = Local->getInit())
    Sources->push_back(Init);
  std::optional<KnownMap> One;
  for (const Expr *S : *Sources) {
    // A null pointer designates no map: a copy through it would fault.
    if (S->IgnoreParenCasts()->isNullPointerConstant(
            Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    std::optional<KnownMap> M = mapOf(S, Context);
    if (!M || (One && (One->Link.Encode != M->Link.Encode ||
                       One->Link.Context != M->Link.Context)))
      return std::nullopt;
    One = M;
  }
  return One;
}

std::optional<KnownMap> MapLinker::hostMapOf(const Expr *Map,
                                             const FunctionDecl *Fn,
                                             const Stmt *At,
                                             const CallContext *Context) {
  if (!Map || !Fn || !At)
    return std::nullopt;
  if (std::optional<LinkedMap> L = fromPointer(Map, Place{Fn, At, Context}, 0))
    return describe(*L);
  return std::nullopt;
}

std::optional<LinkedMap> MapLinker::fromSymbol(const VarDecl *Var,
                                               PathRef Path,
                                               const CallExpr *&Copy) {
  if (!SymbolCopies) {
    SymbolCopies.emplace();
    for (const BoundNodes &B :
         match(findAll(callExpr(callee(functionDecl(
                                    hasAnyName("cudaMemcpyToSymbol",
                                               "cudaMemcpyToSymbolAsync"))),
                                argumentCountAtLeast(2))
                           .bind("c")),
               Ctx)) {
      const auto *Call = B.getNodeAs<CallExpr>("c");
      const Expr *Symbol = Call->getArg(0)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Symbol);
          U && U->getOpcode() == UO_AddrOf)
        Symbol = U->getSubExpr()->IgnoreParenImpCasts();
      // The template overload's own body passes its parameter on.
      const VarDecl *Target = varOf(Symbol);
      if (!Target || isa<ParmVarDecl>(Target))
        continue;
      // The traversal may reach a call twice.
      auto &Calls = (*SymbolCopies)[Target->getCanonicalDecl()];
      if (!llvm::is_contained(Calls, Call))
        Calls.push_back(Call);
    }
  }
  auto Found = SymbolCopies->find(Var->getCanonicalDecl());
  // One copy in the TU: with several, which one a launch sees is unknown.
  // (A copy with an offset into the symbol would need one too.)
  if (Found == SymbolCopies->end() || Found->second.size() != 1)
    return std::nullopt;
  const CallExpr *Call = Copy = Found->second.front();
  if (Call->getNumArgs() > 3)
    if (auto Offset = Folder.foldInt(Call->getArg(3));
        !Offset || Offset->Value != 0)
      return std::nullopt;
  const FunctionDecl *Fn = Folder.enclosingFunction(Call);
  if (!Fn)
    return std::nullopt;
  auto Contexts = Folder.contextsOf(Fn);
  const CallContext *Context =
      Contexts.size() == 1 ? Contexts.front() : nullptr;
  return fromPointer(Call->getArg(1), Place{Fn, Call, Context}, 0, Path);
}

std::optional<LinkedMap> MapLinker::fromPointer(const Expr *E, Place P,
                                                unsigned Depth,
                                                PathRef Path) {
  if (Depth > MaxLinkDepth)
    return std::nullopt;
  // An array of maps decays to a pointer to its first element.
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast)
      break;
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return fromValue(Cast->getSubExpr(), P, Depth + 1,
                       prepend({nullptr, 0}, Path));
    E = Cast->getSubExpr();
  }
  if (const Expr *Fwd = forwardedArgument(E))
    E = Fwd->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return fromValue(U->getSubExpr(), P, Depth + 1, Path);
  if (const VarDecl *Var = varOf(E))
    return fromVar(Var, /*Pointee=*/true, P, Depth + 1, Path);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return fromReturn(Call, FD, /*Pointer=*/true, P.Context, Depth + 1,
                        Path);
  return std::nullopt;
}

std::optional<LinkedMap> MapLinker::fromValue(const Expr *E, Place P,
                                              unsigned Depth, PathRef Path) {
  if (Depth > MaxLinkDepth)
    return std::nullopt;
  E = stripValue(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return fromPointer(U->getSubExpr(), P, Depth + 1, Path);
  // A part of a larger object: `params.tma_a`, `maps[1]`, `p->tma_b`.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field)
      return std::nullopt;
    AccessPath Outer = prepend({Field, 0}, Path);
    return ME->isArrow() ? fromPointer(ME->getBase(), P, Depth + 1, Outer)
                         : fromValue(ME->getBase(), P, Depth + 1, Outer);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<uint64_t> I = constantIndex(*ASE, Ctx);
    if (!I)
      return std::nullopt;
    return fromValue(ASE->getBase()->IgnoreParenImpCasts(), P, Depth + 1,
                     prepend({nullptr, *I}, Path));
  }
  // `Params{mapA, mapB}`: the initialiser of the part.
  if (const auto *ILE = dyn_cast<InitListExpr>(E)) {
    if (ILE->isTransparent())
      return fromValue(ILE->getInit(0), P, Depth + 1, Path);
    const Expr *Part = Path.empty() ? nullptr : initFor(*ILE, Path.front());
    if (!Part)
      return std::nullopt;
    return fromPart(Part, P, Depth + 1, Path, 1);
  }
  if (const VarDecl *Var = varOf(E))
    return fromVar(Var, /*Pointee=*/false, P, Depth + 1, Path);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return fromReturn(Call, FD, /*Pointer=*/false, P.Context, Depth + 1,
                        Path);
  // An object built by a constructor that encodes into its field
  // (ThunderKittens' gl and descriptor_dict).
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return fromConstruct(CE, Depth + 1, Path);
  return std::nullopt;
}

std::optional<LinkedMap> MapLinker::fromPart(const Expr *E, Place P,
                                             unsigned Depth, PathRef Path,
                                             size_t Taken) {
  PathRef Rest = Path.drop_front(Taken);
  return pointeeAfter(Path, Taken) ? fromPointer(E, P, Depth, Rest)
                                   : fromValue(E, P, Depth, Rest);
}

/// Counts the return statements of \p S outside lambdas, keeping the last.
static void collectReturns(const Stmt *S, unsigned &Count,
                           const ReturnStmt *&Last) {
  if (!S || isa<LambdaExpr>(S) || Count > 1)
    return;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    ++Count;
    Last = Ret;
  }
  for (const Stmt *Child : S->children())
    collectReturns(Child, Count, Last);
}

/// The one return statement of \p FD's body outside nested lambdas, or
/// null. (A lambda's call operator is a function like any other: `auto
/// make = [&] { CUtensorMap m; encode(&m, ...); return m; };`.) Memoised:
/// one walk per function, not per call.
const ReturnStmt *MapLinker::soleReturn(const FunctionDecl &FD) {
  auto [It, New] = SoleReturns.try_emplace(&FD, nullptr);
  if (!New)
    return It->second;
  unsigned Count = 0;
  const ReturnStmt *Last = nullptr;
  collectReturns(FD.getBody(), Count, Last);
  return It->second = Count == 1 ? Last : nullptr;
}

std::optional<LinkedMap>
MapLinker::fromReturn(const CallExpr *Call, const FunctionDecl *Callee,
                      bool Pointer, const CallContext *Parent, unsigned Depth,
                      PathRef Path) {
  const Stmt *Body = Callee->getBody();
  if (!Body || Depth > MaxLinkDepth || classifyEncodeCall(*Call))
    return std::nullopt;
  const ReturnStmt *Ret = soleReturn(*Callee);
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  Place Inner{Callee, Ret, Folder.contextFor(Call, Callee, Parent)};
  const bool Builds = hasDeref(Path);
  if (Builds)
    PointerBuilders.push_back(Callee);
  std::optional<LinkedMap> L =
      Pointer ? fromPointer(Ret->getRetValue(), Inner, Depth + 1, Path)
              : fromValue(Ret->getRetValue(), Inner, Depth + 1, Path);
  if (Builds)
    PointerBuilders.pop_back();
  return L;
}

MapLinker::CallWrite MapLinker::writeThrough(const CallExpr &Call,
                                             unsigned ArgIdx,
                                             const CallContext *Context,
                                             unsigned Depth, PathRef Path) {
  if (std::optional<EncodeKind> K = classifyEncodeCall(Call)) {
    // cuTensorMapReplaceAddress keeps the encoded shape.
    if (ArgIdx != 0 || *K == EncodeKind::ReplaceAddress)
      return {CallWrite::Read, std::nullopt};
    if (!Path.empty())
      return {CallWrite::Write, std::nullopt};
    return {CallWrite::Write, LinkedMap{&Call, *K, Context}};
  }
  // A kernel launch reads the map it is passed, also through a function
  // pointer (`auto *k = gemm<...>; k<<<g, b>>>(d_map)`) and a non-const
  // parameter (h100_gemm's `CUtensorMap *tensorMapA`), unless the kernel
  // may rewrite a map in global memory (tensormap.replace): then what
  // later launches read is unknown.
  if (isa<CUDAKernelCallExpr>(Call) ||
      (launchArgumentOffset(Call) && ArgIdx >= launchArgumentOffset(Call))) {
    const FunctionDecl *Kernel = launchedKernel(Call, Context);
    unsigned Param = ArgIdx - launchArgumentOffset(Call);
    // A by-value parameter is the kernel's own copy.
    if (Kernel && Param < Kernel->getNumParams() && !hasDeref(Path) &&
        !Kernel->getParamDecl(Param)->getType()->isPointerType() &&
        !Kernel->getParamDecl(Param)->getType()->isReferenceType())
      return {CallWrite::Read, std::nullopt};
    if (!Kernel || mayWriteGlobalMaps(Kernel))
      return {CallWrite::Write, std::nullopt};
    return {CallWrite::Read, std::nullopt};
  }
  // Frees, queries and hints write no map.
  if (isReadOnlyRuntimeCall(Call, ArgIdx))
    return {CallWrite::Read, std::nullopt};
  const FunctionDecl *FD = Call.getDirectCallee();
  // The pointer printed by a library function (`printf("%p", map)`).
  if (FD && FD->isVariadic() && ArgIdx >= FD->getNumParams() &&
      Ctx.getSourceManager().isInSystemHeader(
          Ctx.getSourceManager().getFileLoc(FD->getLocation())))
    return {CallWrite::Read, std::nullopt};
  std::optional<unsigned> Index =
      FD ? paramIndexOf(Call, *FD, ArgIdx) : std::nullopt;
  if (!Index)
    return {CallWrite::Unknown, std::nullopt};
  QualType T = FD->getParamDecl(*Index)->getType();
  if (isPointerToConst(T) ||
      (T->isReferenceType() && T->getPointeeType().isConstQualified()))
    return {CallWrite::Read, std::nullopt};
  if (!FD->getBody())
    return {CallWrite::Unknown, std::nullopt};
  return fromOutParam(&Call, FD, *Index, Context, Depth + 1, Path);
}

MapLinker::CallWrite
MapLinker::fromOutParam(const CallExpr *Call, const FunctionDecl *Callee,
                        unsigned Param, const CallContext *Parent,
                        unsigned Depth, PathRef Path) {
  const CallWrite Unknown{CallWrite::Unknown, std::nullopt};
  const Stmt *Body = Callee->getBody();
  if (!Body || Depth > MaxLinkDepth)
    return Unknown;
  const CallContext *Context = Folder.contextFor(Call, Callee, Parent);
  const ParmVarDecl *PVD = Callee->getParamDecl(Param);
  // A pointer to the object, or a reference to it.
  const bool Pointer = PVD->getType()->isPointerType();
  if (!Pointer && !PVD->getType()->isReferenceType())
    return Unknown;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  bool InLambda = false;
  usesIn(Body, PVD, Refs, InLambda);
  if (InLambda)
    return Unknown;
  llvm::SmallVector<const Expr *, 8> Uses(Refs.begin(), Refs.end());
  const bool Builds = hasDeref(Path);
  if (Builds)
    PointerBuilders.push_back(Callee);
  CallWrite W = writesThrough(Uses, /*This=*/false, Pointer,
                              Place{Callee, nullptr, Context}, Depth, Path);
  if (Builds)
    PointerBuilders.pop_back();
  return W;
}

MapLinker::CallWrite MapLinker::writesThrough(llvm::ArrayRef<const Expr *> Uses,
                                              bool This, bool Pointer, Place P,
                                              unsigned Depth, PathRef Path) {
  const CallWrite Unknown{CallWrite::Unknown, std::nullopt};
  const FunctionDecl *Callee = P.Fn;
  const CallContext *Context = P.Context;
  const ParentMap &PM = Folder.parentsOf(Callee->getBody());
  // Whether a use may write: for `this`, the part it reaches decides.
  auto MayWrite = [&](const Expr *Use, const UsePath &U) {
    if (!This)
      return mayWrite(PM, cast<DeclRefExpr>(Use));
    return U.Steps.empty() || mayWriteExpr(PM, U.End);
  };
  std::optional<LinkedMap> Found;
  unsigned Writes = 0;
  for (const Expr *Use : Uses) {
    UsePath U = usePathOf(PM, Use, Pointer, Ctx);
    PathRel Rel = relate(U, Path);
    if (Rel == PathRel::Unrelated)
      continue;
    if (Rel == PathRel::MayOverlap) {
      if (MayWrite(Use, U))
        return Unknown;
      continue;
    }
    PathRef Rest = Path.drop_front(U.Steps.size());
    // The pointer parameter itself or a pointer field of the path (the
    // pointer to the rest), or (a part of) the object.
    const bool FieldPointer = pointeeAfter(Path, U.Steps.size());
    const bool PointerHere = (Pointer && U.Steps.empty()) || FieldPointer;
    bool AddressTaken = false;
    const Expr *Root = useRoot(PM, U.End, AddressTaken);
    const Stmt *Parent = PM.getParent(Root);
    if (PointerHere) {
      if (AddressTaken)
        return Unknown;
      // `out->tma_a = d_a;`
      if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
          FieldPointer && Assign && Assign->getOpcode() == BO_Assign &&
          Assign->getLHS()->IgnoreParenImpCasts() == U.End) {
        ++Writes;
        Found = fromPointer(Assign->getRHS(), Place{Callee, Assign, Context},
                            Depth + 1, Rest);
        continue;
      }
      // `*out = map;`
      if (const auto *Deref = dyn_cast_or_null<UnaryOperator>(Parent);
          Deref && Deref->getOpcode() == UO_Deref) {
        const auto *Assign =
            dyn_cast_or_null<BinaryOperator>(PM.getParent(Deref));
        if (Assign && Assign->getOpcode() == BO_Assign &&
            Assign->getLHS()->IgnoreParens() == Deref) {
          ++Writes;
          Found = fromValue(Assign->getRHS(), Place{Callee, Assign, Context},
                            Depth + 1, Rest);
          continue;
        }
      }
    } else if (!AddressTaken) {
      // `out = map;`, `out.tma_a = make(...);`, `out->tma_b = map;`
      if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
          Assign && Assign->getOpcode() == BO_Assign &&
          Assign->getLHS()->IgnoreParenImpCasts() == U.End) {
        ++Writes;
        Found = fromValue(Assign->getRHS(), Place{Callee, Assign, Context},
                          Depth + 1, Rest);
        continue;
      }
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
          Op && Op->getOperator() == OO_Equal &&
          Op->getArg(0)->IgnoreParenImpCasts() == U.End) {
        ++Writes;
        Found = fromValue(Op->getArg(1), Place{Callee, Op, Context},
                          Depth + 1, Rest);
        continue;
      }
      if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Parent);
          Copy && Copy->getConstructor()->isCopyOrMoveConstructor())
        continue; // a copy of the map is a read
    }
    if (const auto *Inner = dyn_cast_or_null<CallExpr>(Parent)) {
      std::optional<unsigned> ArgIdx = argumentIndex(*Inner, Root);
      if (!ArgIdx)
        return Unknown; // the callee itself
      // The address as an integer, printed by a library function
      // (ThunderKittens' error message: std::to_string(uintptr_t(map))).
      const FunctionDecl *Lib = Inner->getDirectCallee();
      const SourceManager &SM = Ctx.getSourceManager();
      if (PointerHere && Root->getType()->isIntegerType() && Lib &&
          SM.isInSystemHeader(SM.getFileLoc(Lib->getLocation())))
        continue;
      // The pointer passed on, the address of the part, or the part bound
      // to a reference.
      if (PointerHere || AddressTaken ||
          bindsMutableReference(*Inner, *ArgIdx)) {
        CallWrite W = writeThrough(*Inner, *ArgIdx, Context, Depth, Rest);
        if (W.Kind == CallWrite::Unknown)
          return Unknown;
        if (W.Kind == CallWrite::Write) {
          ++Writes;
          Found = W.Source;
        }
        continue;
      }
    }
    // Anything else the pointer (or the part's address) does may hand it
    // on; a test of the pointer is harmless.
    const auto *Deref = dyn_cast_or_null<UnaryOperator>(Parent);
    const bool Read = Deref && Deref->getOpcode() == UO_Deref;
    if (PointerHere ? !Read && !onlyTested(PM, Root) : AddressTaken)
      return Unknown;
    if (MayWrite(Use, U))
      return Unknown;
  }
  if (Writes == 0)
    return {CallWrite::Read, std::nullopt};
  if (Writes > 1)
    return {CallWrite::Write, std::nullopt};
  return {CallWrite::Write, Found};
}

std::optional<LinkedMap>
MapLinker::fromConstruct(const CXXConstructExpr *CE, unsigned Depth,
                         PathRef Path) {
  if (Path.empty() || !Path.front().Field || Depth > MaxLinkDepth)
    return std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!CE->getConstructor()->hasBody(Def))
    return std::nullopt;
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def);
  const FieldDecl *F = Path.front().Field;
  // A field of this class (a base's fields are not followed).
  if (!Ctor || F->getParent()->getCanonicalDecl() !=
                   Ctor->getParent()->getCanonicalDecl())
    return std::nullopt;
  // The constructor's parameters are not bound: no call context.
  Place P{Ctor, nullptr, nullptr};
  std::optional<LinkedMap> FromInit;
  for (const CXXCtorInitializer *I : Ctor->inits()) {
    if (I->isDelegatingInitializer())
      return std::nullopt;
    const FieldDecl *M = I->getMember();
    if (M && M->getCanonicalDecl() == F->getCanonicalDecl() && I->getInit())
      FromInit = fromPart(I->getInit(), P, Depth + 1, Path, 1);
  }
  // Then the body: what it does through `this`.
  llvm::SmallVector<const Expr *, 8> Uses;
  bool InLambda = false;
  thisUsesIn(Ctor->getBody(), Uses, InLambda);
  if (InLambda)
    return std::nullopt;
  CallWrite W = writesThrough(Uses, /*This=*/true, /*Pointer=*/true, P,
                              Depth + 1, Path);
  if (W.Kind == CallWrite::Read)
    return FromInit;
  return W.Source;
}

const Expr *MapLinker::getterObject(const CXXMemberCallExpr *Call,
                                    AccessPath &Fields, unsigned Depth) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || MD->isStatic() || !MD->getBody() || Depth > 8)
    return nullptr;
  const ReturnStmt *Ret = soleReturn(*MD);
  if (!Ret || !Ret->getRetValue())
    return nullptr;
  const Expr *X = Ret->getRetValue()->IgnoreParenCasts();
  const bool Pointer = MD->getReturnType()->isPointerType();
  if (!Pointer && !MD->getReturnType()->isReferenceType())
    return nullptr;
  // A getter of a part (`return this->f.get();`, the same kind of result),
  // or `&this->f.g` (`this->f.g` for a reference).
  AccessPath Inner;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
  if (MC && MC->getMethodDecl() &&
      MC->getMethodDecl()->getReturnType()->isPointerType() == Pointer) {
    X = getterObject(MC, Inner, Depth + 1);
    if (!X)
      return nullptr;
  } else if (Pointer) {
    const auto *U = dyn_cast<UnaryOperator>(X);
    if (!U || U->getOpcode() != UO_AddrOf)
      return nullptr;
    X = U->getSubExpr()->IgnoreParenImpCasts();
  }
  llvm::SmallVector<const FieldDecl *, 2> Steps;
  if (!thisFieldPath(X, Steps))
    return nullptr;
  AccessPath Out;
  for (const FieldDecl *FD : Steps)
    Out.push_back({FD, 0});
  Out.append(Inner.begin(), Inner.end());
  Out.append(Fields.begin(), Fields.end());
  Fields = std::move(Out);
  return Call->getImplicitObjectArgument();
}

std::optional<LinkedMap> MapLinker::fromVar(const VarDecl *Var, bool Pointee,
                                            Place P, unsigned Depth,
                                            PathRef Path) {
  if (Depth > MaxLinkDepth || !P.Fn || !P.Fn->getBody())
    return std::nullopt;
  // A parameter of the host function: the argument of its call.
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    if (Pointee && llvm::is_contained(PointerBuilders, P.Fn))
      return std::nullopt;
    const Expr *Arg = argumentFor(Param, P.Context);
    if (!Arg ||
        P.Fn->getCanonicalDecl() != P.Context->Callee->getCanonicalDecl())
      return std::nullopt;
    const bool Ref = Param->getType()->isReferenceType();
    if (!Pointee && !Ref && !Param->getType().isConstQualified()) {
      // A by-value copy that the function may change first.
      const ParentMap &PM = Folder.parentsOf(P.Fn->getBody());
      llvm::SmallVector<const DeclRefExpr *, 8> Uses;
      bool InLambda = false;
      usesIn(P.Fn->getBody(), Var, Uses, InLambda);
      if (InLambda || llvm::any_of(Uses, [&](const DeclRefExpr *U) {
            return mayWrite(PM, U);
          }))
        return std::nullopt;
    }
    Place Caller = callerPlace(P.Context);
    if (!Caller.Fn)
      return std::nullopt;
    return Pointee ? fromPointer(Arg, Caller, Depth + 1, Path)
                   : fromValue(Arg, Caller, Depth + 1, Path);
  }
  // A local of this function, or a global that this function writes.
  if (Var->hasLocalStorage() && Var->getParentFunctionOrMethod() != P.Fn)
    return std::nullopt;
  const Stmt *Body = P.Fn->getBody();
  const ParentMap &PM = Folder.parentsOf(Body);
  llvm::SmallVector<const DeclRefExpr *, 8> Uses;
  bool InLambda = false;
  usesIn(Body, Var, Uses, InLambda);
  if (InLambda)
    return std::nullopt;

  llvm::SmallVector<MapWrite, 4> Writes;
  /// Statements that hand the pointer (to the map) on where the link
  /// cannot follow its later writes.
  llvm::SmallVector<const Stmt *, 2> Escapes;
  auto Add = [&](const Stmt *S, std::optional<LinkedMap> Source) {
    Writes.push_back({statementOf(PM, S), Source});
  };
  // The initialiser. A zero or aggregate initialiser of the map itself
  // (`CUtensorMap m{};`, `Params p{};`) encodes nothing.
  if (Var->hasLocalStorage() && Var->getInit()) {
    const Expr *Init = stripValue(Var->getInit());
    PathRef Part = Path;
    bool Trivial = false;
    for (unsigned Steps = 0; Steps < 16; ++Steps) {
      const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      if (isa<ImplicitValueInitExpr>(Init) ||
          (Construct && Construct->getNumArgs() == 0)) {
        Trivial = true;
        break;
      }
      const auto *ILE = dyn_cast<InitListExpr>(Init);
      if (!ILE)
        break;
      if (Pointee || Part.empty()) {
        Trivial = true;
        break;
      }
      if (ILE->isTransparent()) {
        Init = stripValue(ILE->getInit(0));
        continue;
      }
      const Expr *Sub = initFor(*ILE, Part.front());
      if (!Sub) {
        // Elements past the initialisers are zero.
        Trivial = ILE->getType()->isArrayType();
        break;
      }
      Init = stripValue(Sub);
      // A pointer field's initialiser: what it points to is followed below.
      if (Part.front().Deref)
        break;
      Part = Part.drop_front();
    }
    if (!Trivial) {
      const DeclStmt *DS = declarationOf(Body, Var);
      if (!DS)
        return std::nullopt;
      Place At{P.Fn, DS, P.Context};
      std::optional<LinkedMap> Init =
          Pointee ? fromPointer(Var->getInit(), At, Depth + 1, Path)
                  : fromValue(Var->getInit(), At, Depth + 1, Path);
      // `Params p{d_a};`: as for `p.tma_a = d_a`, the pointee must hold
      // the same map at the read.
      if (Init && !Pointee && hasDeref(Path) &&
          isa<InitListExpr>(stripValue(Var->getInit()))) {
        FollowedStores.push_back(DS);
        std::optional<LinkedMap> AtRead =
            fromValue(Var->getInit(), P, Depth + 1, Path);
        FollowedStores.pop_back();
        if (!AtRead || AtRead->Encode != Init->Encode ||
            AtRead->Context != Init->Context)
          Init.reset();
      }
      Add(DS, Init);
    }
  }
  for (const DeclRefExpr *Use : Uses) {
    // The read being followed (a launch passes the map by forwarding
    // reference, which looks like a write).
    bool AtRead = false;
    for (const Stmt *S = Use; S && !AtRead; S = PM.getParent(S))
      AtRead = S == P.At;
    if (AtRead)
      continue;
    // Which part of the variable the use touches: another part than the
    // map is no write of it; a part that may overlap it is unknown.
    UsePath U = usePathOf(PM, Use, Pointee, Ctx);
    PathRel Rel = relate(U, Path);
    if (Rel == PathRel::Unrelated)
      continue;
    if (Rel == PathRel::MayOverlap) {
      if (mayWrite(PM, Use))
        Add(Use, std::nullopt);
      continue;
    }
    PathRef Rest = Path.drop_front(U.Steps.size());
    // The use is the pointer to the rest: the pointer variable itself, or
    // a pointer field of the path (`params.tma_a` of `const CUtensorMap *`).
    const bool FieldPointer = pointeeAfter(Path, U.Steps.size());
    const bool PointeeHere = (Pointee && U.Steps.empty()) || FieldPointer;
    bool AddressTaken = false;
    const Expr *Root = useRoot(PM, U.End, AddressTaken);
    const Stmt *Parent = PM.getParent(Root);
    if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Parent);
        Assign && Assign->isAssignmentOp() && !AddressTaken &&
        Assign->getLHS()->IgnoreParenImpCasts() == U.End) {
      Place At{P.Fn, Assign, P.Context};
      if (Assign->getOpcode() != BO_Assign) {
        Add(Assign, std::nullopt);
      } else if (FieldPointer) {
        // `params.tma_a = d_a;`: the pointee must hold the same map when
        // the pointer is stored and at the read (a cudaMemcpy into d_a, or
        // another value of d_a, in between would change it).
        std::optional<LinkedMap> Stored =
            fromPointer(Assign->getRHS(), At, Depth + 1, Rest);
        std::optional<LinkedMap> AtRead;
        if (Stored) {
          FollowedStores.push_back(statementOf(PM, Assign));
          AtRead = fromPointer(Assign->getRHS(), P, Depth + 1, Rest);
          FollowedStores.pop_back();
        }
        Add(Assign, AtRead && AtRead->Encode == Stored->Encode &&
                            AtRead->Context == Stored->Context
                        ? Stored
                        : std::nullopt);
      } else {
        Add(Assign, PointeeHere
                        ? fromPointer(Assign->getRHS(), At, Depth + 1, Rest)
                        : fromValue(Assign->getRHS(), At, Depth + 1, Rest));
      }
      continue;
    }
    // `map = make(...)` through an operator= of a class type.
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent);
        Op && Op->getOperator() == OO_Equal && !AddressTaken &&
        Op->getArg(0)->IgnoreParenImpCasts() == U.End) {
      Add(Op, PointeeHere
                  ? std::nullopt
                  : fromValue(Op->getArg(1), Place{P.Fn, Op, P.Context},
                              Depth + 1, Rest));
      continue;
    }
    // A copy of the map (into a kernel argument, a return value...). A
    // copy of a struct holding a pointer to the map holds the pointer: a
    // call that receives it may write through it, and a copy kept
    // elsewhere may be written through later.
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Parent);
        Copy && Copy->getConstructor()->isCopyOrMoveConstructor()) {
      if (!hasDeref(Rest) || PointeeHere)
        continue;
      const auto *Outer = dyn_cast_or_null<CallExpr>(PM.getParent(Copy));
      std::optional<unsigned> CopyIdx =
          Outer ? argumentIndex(*Outer, Copy) : std::nullopt;
      CallWrite W = CopyIdx
                        ? writeThrough(*Outer, *CopyIdx, P.Context, Depth, Rest)
                        : CallWrite{CallWrite::Unknown, std::nullopt};
      if (W.Kind == CallWrite::Write)
        Add(Outer, W.Source);
      else if (W.Kind == CallWrite::Unknown)
        Escapes.push_back(statementOf(PM, Copy));
      continue;
    }
    // What is done through the pointer: `*d = other` writes the map,
    // `*d` read or `d->opaque` read leave it alone.
    if (PointeeHere && !AddressTaken) {
      if (const auto *D = dyn_cast_or_null<UnaryOperator>(Parent);
          D && D->getOpcode() == UO_Deref) {
        if (const Expr *RHS = assignedTo(PM, D))
          Add(D, fromValue(RHS, Place{P.Fn, statementOf(PM, D), P.Context},
                           Depth + 1, Rest));
        else if (mayWriteExpr(PM, D))
          Add(D, std::nullopt);
        continue;
      }
      if (const auto *ME = dyn_cast_or_null<MemberExpr>(Parent);
          ME && ME->isArrow() && ME->getBase() == Root) {
        if (mayWriteExpr(PM, ME))
          Add(ME, std::nullopt);
        continue;
      }
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
    std::optional<unsigned> ArgIdx =
        Call ? argumentIndex(*Call, Root) : std::nullopt;
    if (!ArgIdx) {
      // The pointer's value held elsewhere may be written through, before
      // or after any later write seen here: nothing after it is known.
      // That includes a copy into a field of a struct (`params.tma_a = d`),
      // which hands the pointer on with the struct, except the store that
      // the pointer-field link follows from that struct (it checks what
      // happens to the struct).
      if (PointeeHere && !AddressTaken && !onlyTested(PM, Root) &&
          !(storedInStruct(PM, Root) &&
            llvm::is_contained(FollowedStores, statementOf(PM, Use))))
        Escapes.push_back(statementOf(PM, Use));
      else if (mayWrite(PM, Use))
        Add(Use, std::nullopt);
      continue;
    }
    // The map object's address, a pointer to the map, or the map bound to
    // a reference out-parameter, passed to a call.
    const bool Object = !PointeeHere && AddressTaken;
    const bool Target = PointeeHere && !AddressTaken;
    const bool ByRef = !PointeeHere && !AddressTaken &&
                       bindsMutableReference(*Call, *ArgIdx);
    if (Object || Target || ByRef) {
      // cudaMemcpy(devicePtr, &hostMap, ...) fills the device copy.
      if (Target && isCalled(*Call, {"cudaMemcpy", "cudaMemcpyAsync",
                                     "cuMemcpyHtoD", "cuMemcpyHtoDAsync"})) {
        if (*ArgIdx == 0 && Call->getNumArgs() > 1)
          Add(Call, fromPointer(Call->getArg(1), Place{P.Fn, Call, P.Context},
                                Depth + 1, Rest));
        continue;
      }
      CallWrite W = writeThrough(*Call, *ArgIdx, P.Context, Depth, Rest);
      if (W.Kind == CallWrite::Read)
        continue;
      if (W.Kind == CallWrite::Write) {
        Add(Call, W.Source);
        continue;
      }
      // An unknown host call that receives the pointer may fill what it
      // points to, or keep the pointer and write through it later. (A
      // kernel launch reads it: writeThrough.)
      if (Target) {
        Escapes.push_back(statementOf(PM, Call));
        continue;
      }
    }
    if (mayWrite(PM, Use))
      Add(Call, std::nullopt);
  }

  // An escape of the pointer that may run before the read: unknown.
  if (llvm::any_of(Escapes, [&](const Stmt *S) {
        return orderOf(PM, S, P.At, Body) != Order::After;
      }))
    return std::nullopt;
  // The write that reaches P.At: the last one before it, proven to run
  // before it unless it is the only one.
  const SourceManager &SM = Ctx.getSourceManager();
  const MapWrite *Last = nullptr;
  unsigned Reaching = 0;
  Order LastOrder = Order::After;
  for (const MapWrite &W : Writes) {
    Order O = orderOf(PM, W.At, P.At, Body);
    if (O == Order::After)
      continue;
    ++Reaching;
    if (!Last || SM.isBeforeInTranslationUnit(Last->At->getBeginLoc(),
                                              W.At->getBeginLoc())) {
      Last = &W;
      LastOrder = O;
    }
  }
  if (!Last || (LastOrder != Order::Before && Reaching > 1))
    return std::nullopt;
  return Last->Source;
}

KnownMap MapLinker::describe(const LinkedMap &L) {
  const CallContext *Saved = Folder.currentContext();
  Folder.enterContext(L.Context);
  const CallExpr &Call = *L.Encode;
  auto Scalar = [&](unsigned I) -> rules::Known {
    if (I >= Call.getNumArgs())
      return std::nullopt;
    auto V = Folder.foldInt(Call.getArg(I));
    return V ? rules::Known(asU64(V->Value)) : std::nullopt;
  };
  auto Array = [&](unsigned I) {
    rules::KnownArray A;
    if (I >= Call.getNumArgs())
      return A;
    auto V = Folder.foldArray(Call.getArg(I), &Call, 5);
    if (!V)
      return A;
    A.Provided = V->Provided;
    for (const auto &E : V->Elems)
      A.Elems.push_back(E ? rules::Known(asU64(E->Value)) : rules::Known());
    return A;
  };
  KnownMap M;
  M.Link = L;
  rules::MapDescriptor &D = M.Desc;
  D.DataType = Scalar(1);
  D.Rank = Scalar(2);
  switch (L.Kind) {
  case EncodeKind::Tiled:
    D.Encoder = rules::MapEncoder::Tiled;
    D.BoxDim = Array(6);
    D.ElementStrides = Array(7);
    D.Interleave = Scalar(8);
    D.Swizzle = Scalar(9);
    M.BoxArg = Call.getArg(6);
    break;
  case EncodeKind::Im2col:
  case EncodeKind::Im2colWide: {
    const bool Wide = L.Kind == EncodeKind::Im2colWide;
    D.Encoder =
        Wide ? rules::MapEncoder::Im2colWide : rules::MapEncoder::Im2col;
    if (!Wide) {
      D.LowerCorner = Array(6);
      D.UpperCorner = Array(7);
    }
    D.ChannelsPerPixel = Scalar(8);
    D.PixelsPerColumn = Scalar(9);
    D.ElementStrides = Array(10);
    D.Interleave = Scalar(11);
    if (Wide)
      D.WideMode = Scalar(12);
    D.Swizzle = Scalar(Wide ? 13 : 12);
    M.BoxArg = Call.getArg(9);
    break;
  }
  case EncodeKind::ReplaceAddress:
    break;
  }
  Folder.enterContext(Saved);
  return M;
}

} // namespace clang::tidy::tma
