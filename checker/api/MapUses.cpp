//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/MapUses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::tma::placement {

class PlacementBodies::Walker : public RecursiveASTVisitor<Walker> {
public:
  Walker(Walked &W, bool (*OwnWalk)(const LambdaExpr &))
      : W(W), OwnWalk(OwnWalk) {}

  /// The nodes of \p L itself, as a walk of the body around it meets them.
  void walkLambda(LambdaExpr *L) { RecursiveASTVisitor::TraverseLambdaExpr(L); }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (OwnWalk(*L)) {
      W.Left.push_back(
          {L, W.Own.Vars.size(), W.Own.Sites.size(), W.Own.Refs.size()});
      return true;
    }
    ++InLambdas;
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --InLambdas;
    return Result;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!isa<ParmVarDecl>(V)) {
      W.Own.Vars.push_back(V);
      W.VarIn.push_back(InLambdas);
    }
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    W.Own.Sites.push_back(S);
    W.SiteIn.push_back(InLambdas);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    W.Own.Sites.push_back(C);
    W.SiteIn.push_back(InLambdas);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    W.Own.Refs.push_back(D);
    W.RefIn.push_back(InLambdas);
    return true;
  }

private:
  Walked &W;
  bool (*OwnWalk)(const LambdaExpr &);
  unsigned InLambdas = 0;
};

PlacementBodies::Walked &PlacementBodies::walkOf(const LambdaExpr *Lambda) {
  if (auto It = Lambdas.find(Lambda); It != Lambdas.end())
    return *It->second;
  auto W = std::make_unique<Walked>();
  Walker(*W, OwnWalk).walkLambda(const_cast<LambdaExpr *>(Lambda));
  return *(Lambdas[Lambda] = std::move(W));
}

const BodyNodes &PlacementBodies::allOf(Walked &W) {
  if (W.Left.empty())
    return W.Own;
  if (!W.All) {
    BodyNodes All;
    size_t Vars = 0, Sites = 0, Refs = 0;
    auto Take = [](const auto &From, size_t &I, size_t To, auto &Out) {
      Out.insert(Out.end(), From.begin() + I, From.begin() + To);
      I = To;
    };
    for (const Skipped &L : W.Left) {
      Take(W.Own.Vars, Vars, L.Vars, All.Vars);
      Take(W.Own.Sites, Sites, L.Sites, All.Sites);
      Take(W.Own.Refs, Refs, L.Refs, All.Refs);
      const BodyNodes &In = allOf(walkOf(L.Lambda));
      All.Vars.insert(All.Vars.end(), In.Vars.begin(), In.Vars.end());
      All.Sites.insert(All.Sites.end(), In.Sites.begin(), In.Sites.end());
      All.Refs.insert(All.Refs.end(), In.Refs.begin(), In.Refs.end());
    }
    Take(W.Own.Vars, Vars, W.Own.Vars.size(), All.Vars);
    Take(W.Own.Sites, Sites, W.Own.Sites.size(), All.Sites);
    Take(W.Own.Refs, Refs, W.Own.Refs.size(), All.Refs);
    W.All = std::move(All);
  }
  return *W.All;
}

const BodyNodes &PlacementBodies::of(const Stmt *Body, Scope S) {
  Walked *W = nullptr;
  if (auto It = Bodies.find(Body); It != Bodies.end()) {
    W = It->second.get();
  } else {
    auto New = std::make_unique<Walked>();
    Walker(*New, OwnWalk).TraverseStmt(const_cast<Stmt *>(Body));
    W = (Bodies[Body] = std::move(New)).get();
  }
  if (S == Scope::All)
    return allOf(*W);
  if (S == Scope::OwnOnly)
    return W->Own;
  if (!W->NoLambdas) {
    W->NoLambdas.emplace();
    auto Keep = [](const auto &From, const std::vector<bool> &In, auto &To) {
      for (size_t I = 0; I < From.size(); ++I)
        if (!In[I])
          To.push_back(From[I]);
    };
    Keep(W->Own.Vars, W->VarIn, W->NoLambdas->Vars);
    Keep(W->Own.Sites, W->SiteIn, W->NoLambdas->Sites);
    Keep(W->Own.Refs, W->RefIn, W->NoLambdas->Refs);
  }
  return *W->NoLambdas;
}

/// The deepest a record is searched for a tensor-map member.
static constexpr unsigned MaxRecordDepth = 4;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// True when \p DC is namespace \p Name at global scope, ignoring inline
/// (versioning) namespaces.
static bool isTopNamespace(const DeclContext *DC, StringRef Name) {
  while (DC &&
         (isa<LinkageSpecDecl>(DC) ||
          (isa<NamespaceDecl>(DC) && cast<NamespaceDecl>(DC)->isInline())))
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!NS || NS->getName() != Name)
    return false;
  DC = NS->getParent();
  while (DC &&
         (isa<LinkageSpecDecl>(DC) ||
          (isa<NamespaceDecl>(DC) && cast<NamespaceDecl>(DC)->isInline())))
    DC = DC->getParent();
  return DC && isa<TranslationUnitDecl>(DC);
}

/// True when \p RD is CUtensorMap, or the byte array CuTe calls
/// TmaDescriptor when cuda.h is too old.
static bool isMapRecord(const RecordDecl &RD) {
  if (RD.getName() == "CUtensorMap_st")
    return true;
  StringRef Name = RD.getName();
  if (Name.empty())
    if (const TypedefNameDecl *TD = RD.getTypedefNameForAnonDecl())
      Name = TD->getName();
  return (Name == "TmaDescriptor" || Name == "Im2ColTmaDescriptor") &&
         isTopNamespace(RD.getDeclContext(), "cute");
}

/// True when \p T is a tensor map, an array of them, or a class that holds
/// one (in a field or base, at any depth up to MaxRecordDepth).
bool holdsMap(QualType T, unsigned Depth) {
  if (T.isNull() || T->isDependentType())
    return false;
  T = T.getCanonicalType();
  while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    T = AT->getElementType().getCanonicalType();
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  if (isMapRecord(*RD))
    return true;
  RD = RD->getDefinition();
  if (!RD || Depth >= MaxRecordDepth)
    return false;
  for (const FieldDecl *F : RD->fields())
    if (holdsMap(F->getType(), Depth + 1))
      return true;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CRD->bases())
      if (holdsMap(B.getType(), Depth + 1))
        return true;
  return false;
}

/// True when \p T is the map type itself (not a class that holds one).
bool isMapType(QualType T) {
  const RecordDecl *RD = T.getCanonicalType()->getAsRecordDecl();
  return RD && isMapRecord(*RD);
}

/// True when a value of type \p T can carry an address: a pointer or an
/// integer of at least 64 bits.
static bool isAddressType(QualType T, const ASTContext &Ctx) {
  if (T->isPointerType())
    return true;
  return T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType() &&
         Ctx.getTypeSize(T) >= 64;
}

//===----------------------------------------------------------------------===//
// TMA operations
//===----------------------------------------------------------------------===//

/// True when the text of \p S issues a TMA operation that reads a tensor map.
/// With \p CopiesOnly, only a tensor copy (load, store, reduction,
/// prefetch) counts.
static bool isTmaAsm(const GCCAsmStmt &S, bool CopiesOnly = false) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return false;
  StringRef T = Text->getString();
  static constexpr llvm::StringLiteral Ops[] = {
      "cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor",
      "cp.async.bulk.prefetch.tensor", "prefetch.tensormap", "tensormap."};
  return llvm::any_of(llvm::ArrayRef(Ops).take_front(CopiesOnly ? 3 : 5),
                      [&](StringRef Op) { return T.contains(Op); });
}

/// True when \p FD is a CCCL function that issues a TMA operation on a
/// tensor-map argument: cuda::ptx::cp_async_bulk_tensor*,
/// cuda::ptx::cp_reduce_async_bulk_tensor,
/// cuda::device::experimental::cp_async_bulk_tensor_*.
static bool isTmaApi(const FunctionDecl &FD) {
  if (!FD.getIdentifier())
    return false;
  StringRef Name = FD.getName();
  const auto *NS = dyn_cast<NamespaceDecl>(FD.getDeclContext());
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getParent());
  if (!NS)
    return false;
  if (NS->getName() == "ptx" && isTopNamespace(NS->getParent(), "cuda"))
    return Name.starts_with("cp_async_bulk_tensor") ||
           Name == "cp_reduce_async_bulk_tensor";
  if (NS->getName() != "experimental")
    return false;
  const auto *Device = dyn_cast<NamespaceDecl>(NS->getParent());
  while (Device && Device->isInline())
    Device = dyn_cast<NamespaceDecl>(Device->getParent());
  return Device && Device->getName() == "device" &&
         isTopNamespace(Device->getParent(), "cuda") &&
         Name.starts_with("cp_async_bulk_tensor_");
}

/// True when \p FD is declared in namespace cuda::ptx.
bool isCudaPtx(const FunctionDecl &FD) {
  const auto *NS = dyn_cast<NamespaceDecl>(FD.getDeclContext());
  while (NS && NS->isInline())
    NS = dyn_cast<NamespaceDecl>(NS->getParent());
  return NS && NS->getName() == "ptx" && isTopNamespace(NS->getParent(), "cuda");
}

/// The argument of \p FD that names the map it writes:
/// cuda::ptx::tensormap_replace_*(space, map, ...) and the destination of
/// tensormap_cp_fenceproxy(sem, scope, dst, src, size); -1 otherwise.
static int mapWriteArgument(const FunctionDecl &FD) {
  if (!FD.getIdentifier() || !isCudaPtx(FD))
    return -1;
  StringRef Name = FD.getName();
  if (Name.starts_with("tensormap_replace_") && FD.getNumParams() >= 3)
    return 1;
  if (Name == "tensormap_cp_fenceproxy" && FD.getNumParams() == 5)
    return 2;
  return -1;
}

/// The instructions of \p S's text (labels, braces, predicates and comments
/// dropped); empty when the text is not a plain literal.
SmallVector<AsmInstruction, 4> asmInstructions(const GCCAsmStmt &S) {
  SmallVector<AsmInstruction, 4> Out;
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return Out;
  SmallVector<StringRef, 8> Parts;
  Text->getString().split(Parts, ';');
  for (StringRef Part : Parts) {
    SmallVector<StringRef, 4> Lines;
    Part.split(Lines, '\n');
    // The instruction is the last non-empty line before the ';'.
    StringRef Line;
    for (StringRef L : Lines) {
      L = L.split("//").first.trim(" \t\r{}");
      if (!L.empty())
        Line = L;
    }
    if (Line.contains(':') && !Line.contains("::"))
      Line = Line.split(':').second.trim(" \t\r{}");
    if (Line.consume_front("@"))
      Line = Line.split(' ').second.trim();
    size_t Space = Line.find_first_of(" \t");
    if (Space == StringRef::npos)
      continue;
    AsmInstruction I;
    I.Opcode = Line.take_front(Space);
    SmallVector<StringRef, 4> Ops;
    Line.drop_front(Space).split(Ops, ',');
    for (StringRef Op : Ops)
      I.Operands.push_back(Op.trim(" \t[]"));
    Out.push_back(I);
  }
  return Out;
}

/// The C++ expression of asm operand \p Text ("%N", or a register that a
/// `mov` of the same text sets from "%N"); null otherwise.
const Expr *asmOperandExpr(const GCCAsmStmt &S, StringRef Text,
                           ArrayRef<AsmInstruction> Instructions) {
  for (unsigned Hops = 0; Hops < 4 && !Text.starts_with("%"); ++Hops) {
    StringRef From;
    for (const AsmInstruction &I : Instructions)
      if (I.Opcode.starts_with("mov.") && I.Operands.size() == 2 &&
          I.Operands[0] == Text)
        From = I.Operands[1];
    if (From.empty())
      return nullptr;
    Text = From;
  }
  unsigned Index = 0;
  if (!Text.consume_front("%") || Text.getAsInteger(10, Index))
    return nullptr;
  if (Index < S.getNumOutputs())
    return S.getOutputExpr(Index);
  Index -= S.getNumOutputs();
  return Index < S.getNumInputs() ? S.getInputExpr(Index) : nullptr;
}

/// True when \p Opcode writes the map its first operand names.
bool writesMap(StringRef Opcode) {
  return Opcode.starts_with("tensormap.replace") ||
         Opcode.starts_with("tensormap.cp_fenceproxy");
}

/// The expressions that name the map an instruction of \p S writes.
static SmallVector<const Expr *, 2> writtenMapOperands(const GCCAsmStmt &S) {
  SmallVector<const Expr *, 2> Out;
  SmallVector<AsmInstruction, 4> Instructions = asmInstructions(S);
  for (const AsmInstruction &I : Instructions)
    if (writesMap(I.Opcode) && !I.Operands.empty())
      if (const Expr *E = asmOperandExpr(S, I.Operands[0], Instructions))
        Out.push_back(E);
  return Out;
}

//===----------------------------------------------------------------------===//
// Address flow
//===----------------------------------------------------------------------===//

using TrackedVars = llvm::DenseMap<const ValueDecl *, Ref>;

/// True when \p Call is __builtin_addressof(X) or std::addressof(X).
static bool isAddressOfCall(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && Call.getNumArgs() == 1 &&
         (FD->getBuiltinID() == Builtin::BI__builtin_addressof ||
          (FD->getIdentifier() && FD->getName() == "addressof" &&
           FD->isInStdNamespace()));
}

/// True when \p DRE, in a lambda's body, names a variable that every lambda
/// between it and the body \p PM covers captures by reference: the same
/// object, not the closure's copy.
static bool capturedByReference(const DeclRefExpr &DRE, const ParentMap *PM) {
  if (!PM)
    return false;
  bool InLambda = false;
  for (const Stmt *S = PM->getParent(&DRE); S; S = PM->getParent(S)) {
    const auto *L = dyn_cast<LambdaExpr>(S);
    if (!L)
      continue;
    const LambdaCapture *C = llvm::find_if(L->captures(), [&](const auto &C) {
      return C.capturesVariable() && C.getCapturedVar() == DRE.getDecl();
    });
    if (C == L->capture_end() || C->getCaptureKind() != LCK_ByRef)
      return false;
    InLambda = true;
  }
  return InLambda;
}

static Ref classifyAccessor(const CXXMemberCallExpr &Call,
                            const TrackedVars &Vars, const ASTContext &Ctx,
                            const ParentMap *PM);

/// What \p E is with respect to the followed map, given the variables known
/// to hold it (\p Vars); \p PM, the parents of the body, places a lambda's
/// captures.
static Ref classify(const Expr *E, const TrackedVars &Vars,
                    const ASTContext &Ctx, const ParentMap *PM) {
  if (!E)
    return Ref::None;
  E = E->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return classify(FE->getSubExpr(), Vars, Ctx, PM);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A capture by copy is the closure's own object.
    if (DRE->refersToEnclosingVariableOrCapture() &&
        !capturedByReference(*DRE, PM))
      return Ref::None;
    auto It = Vars.find(DRE->getDecl());
    return It == Vars.end() ? Ref::None : It->second;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    Ref Sub = classify(Cast->getSubExpr(), Vars, Ctx, PM);
    switch (Sub) {
    case Ref::None:
      return Ref::None;
    case Ref::Object:
      if (Cast->getCastKind() == CK_ArrayToPointerDecay)
        return Ref::Address;
      if (Cast->isGLValue() &&
          llvm::is_contained({CK_NoOp, CK_DerivedToBase,
                              CK_UncheckedDerivedToBase, CK_LValueBitCast},
                             Cast->getCastKind()))
        return Ref::Object;
      return Ref::None; // A copy.
    case Ref::AddressVar:
      if (Cast->getCastKind() == CK_LValueToRValue)
        return Ref::Address;
      if (Cast->getCastKind() == CK_NoOp && Cast->isGLValue())
        return Ref::AddressVar;
      return Ref::None;
    case Ref::Address:
      return isAddressType(Cast->getType(), Ctx) ? Ref::Address : Ref::None;
    }
    llvm_unreachable("covered switch");
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    Ref Sub = classify(UO->getSubExpr(), Vars, Ctx, PM);
    if (UO->getOpcode() == UO_AddrOf && Sub == Ref::Object)
      return Ref::Address;
    if (UO->getOpcode() == UO_Deref && Sub == Ref::Address)
      return Ref::Object;
    return Ref::None;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!holdsMap(ME->getType()))
      return Ref::None;
    Ref Base = classify(ME->getBase(), Vars, Ctx, PM);
    return (ME->isArrow() ? Base == Ref::Address : Base == Ref::Object)
               ? Ref::Object
               : Ref::None;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return classify(AS->getBase(), Vars, Ctx, PM) == Ref::Address ? Ref::Object
                                                              : Ref::None;
  if (isa<CXXThisExpr>(E)) {
    // In an accessor's body (classifyAccessor): its object holds the map.
    for (const auto &[D, R] : Vars)
      if (isa<CXXMethodDecl>(D))
        return R;
    return Ref::None;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (isAddressOfCall(*Call) &&
        classify(Call->getArg(0), Vars, Ctx, PM) == Ref::Object)
      return Ref::Address;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      return classifyAccessor(*MC, Vars, Ctx, PM);
  }
  return Ref::None;
}

/// The return statements of \p S, not those of the lambdas in it.
static void collectReturns(const Stmt *S,
                           SmallVectorImpl<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    Out.push_back(R);
    return;
  }
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

/// A member call on the object that holds the map (an accessor such as
/// `params.get_tma<T>()`, which returns `&tma_desc` or another accessor's
/// result): what one of its return statements yields of the map, read with
/// `this` naming the object. Depth-bounded (accessors that chain through
/// nested members are a few levels deep).
static Ref classifyAccessor(const CXXMemberCallExpr &Call,
                            const TrackedVars &Vars, const ASTContext &Ctx,
                            const ParentMap *PM) {
  static unsigned Depth = 0;
  const CXXMethodDecl *M = Call.getMethodDecl();
  const Expr *Obj = Call.getImplicitObjectArgument();
  if (!M || !Obj || M->isStatic() || Depth >= 4)
    return Ref::None;
  Ref ObjRef = classify(Obj, Vars, Ctx, PM);
  bool Arrow = Obj->getType()->isPointerType();
  if (ObjRef != (Arrow ? Ref::Address : Ref::Object))
    return Ref::None;
  QualType T = M->getReturnType();
  bool ReturnsAddress = isAddressType(T, Ctx);
  bool ReturnsObject = T->isReferenceType() && holdsMap(T->getPointeeType());
  const FunctionDecl *Def = M->getDefinition();
  if ((!ReturnsAddress && !ReturnsObject) || !Def || !Def->getBody())
    return Ref::None;
  TrackedVars This;
  This[cast<CXXMethodDecl>(Def)] = Ref::Address;
  SmallVector<const ReturnStmt *, 4> Returns;
  collectReturns(Def->getBody(), Returns);
  ++Depth;
  Ref Result = Ref::None;
  for (const ReturnStmt *R : Returns) {
    Ref Got = classify(R->getRetValue(), This, Ctx, /*PM=*/nullptr);
    if (Got == (ReturnsAddress ? Ref::Address : Ref::Object)) {
      Result = Got;
      break;
    }
  }
  --Depth;
  return Result;
}

llvm::SmallVector<const Stmt *, 4> AddressFlow::follow(const FunctionDecl &FD,
                                                       const VarDecl &Var,
                                                       Ref Kind,
                                                       unsigned Depth) {
  const Stmt *Body = FD.getBody();
  if (!Body)
    return {};
  const BodyNodes &Nodes = Bodies.of(Body, PlacementBodies::Scope::All);
  // A variable that holds the address must keep it: not reassigned (the
  // folder's per-body answer, memoised per variable).
  auto Keeps = [&](const VarDecl &V) {
    return V.getType().isConstQualified() || Folder.isNeverWritten(&V);
  };
  if (Kind == Ref::AddressVar && !Keeps(Var))
    return {};

  TrackedVars Vars;
  Vars[&Var] = Kind;
  const ParentMap *PM = &Folder.parentsOf(&FD);
  // Locals bound to the map (references) or initialised with its address.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const VarDecl *V : Nodes.Vars) {
      if (Vars.count(V) || !V->getInit())
        continue;
      Ref R = classify(V->getInit(), Vars, Ctx, PM);
      bool Tracks = V->getType()->isReferenceType()
                        ? R == Ref::Object
                        : R == Ref::Address &&
                              isAddressType(V->getType(), Ctx) && Keeps(*V);
      if (Tracks) {
        Vars[V] =
            V->getType()->isReferenceType() ? Ref::Object : Ref::AddressVar;
        Changed = true;
      }
    }
  }

  for (const Stmt *S : Nodes.Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      if (M == Mode::MapWrites) {
        for (const Expr *E : writtenMapOperands(*Asm))
          if (classify(E, Vars, Ctx, PM) != Ref::None)
            return {S};
        continue;
      }
      if (!isTmaAsm(*Asm, M == Mode::CopiesOnly))
        continue;
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        if (classify(Asm->getInputExpr(I), Vars, Ctx, PM) != Ref::None)
          return {S};
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (classify(Asm->getOutputExpr(I), Vars, Ctx, PM) != Ref::None)
          return {S};
      continue;
    }
    const auto *Call = cast<CallExpr>(S);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      continue;
    int WriteArg = M == Mode::MapWrites ? mapWriteArgument(*Callee) : -1;
    bool Api = M == Mode::MapWrites ? WriteArg >= 0 : isTmaApi(*Callee);
    const FunctionDecl *Def = Callee;
    if (!Api) {
      Def = Callee->getDefinition();
      if (Depth >= MaxDepth || !Def || !Def->hasBody())
        continue;
    }
    // An operator call on an object passes the object as argument 0.
    unsigned Offset = 0;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        Method && isa<CXXOperatorCallExpr>(Call) && Method->isInstance())
      Offset = 1;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      if (I - Offset >= Def->getNumParams())
        break; // Variadic.
      Ref R = classify(Call->getArg(I), Vars, Ctx, PM);
      const ParmVarDecl &P = *Def->getParamDecl(I - Offset);
      bool ByAddress = R == Ref::Address && isAddressType(P.getType(), Ctx);
      bool ByReference = R == Ref::Object && P.getType()->isReferenceType();
      if (!ByAddress && !ByReference)
        continue;
      if (Api) {
        if (M != Mode::MapWrites || static_cast<int>(I - Offset) == WriteArg)
          return {S};
        continue;
      }
      auto Rest =
          follow(*Def, P, ByAddress ? Ref::AddressVar : Ref::Object, Depth + 1);
      if (!Rest.empty()) {
        Rest.insert(Rest.begin(), S);
        return Rest;
      }
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Whether 'const' can be added
//===----------------------------------------------------------------------===//

static bool isReadOnlyObjectUse(const Expr *E, const ParentMap &PM);

/// True when \p T is a reference to const.
static bool isConstReference(QualType T) {
  return T->isReferenceType() && T->getPointeeType().isConstQualified();
}

/// True when the pointer value \p E stays usable once it points to const:
/// converted to a pointer to const or an integer, C-style cast, compared, an
/// asm input, or subscripted (and the element only read).
static bool isReadOnlyAddressUse(const Expr *E, const ParentMap &PM) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    // The body's own parent map: ASTContext's covers the whole TU.
    const Stmt *PS = PM.getParent(const_cast<Expr *>(E));
    if (!PS)
      return false;
    DynTypedNode P = DynTypedNode::create(*PS);
    if (const auto *PE = P.get<ParenExpr>()) {
      E = PE;
      continue;
    }
    if (const auto *Cast = P.get<CastExpr>()) {
      QualType T = Cast->getType();
      if (isa<CStyleCastExpr, CXXFunctionalCastExpr, CXXConstCastExpr>(Cast))
        return true;
      if (T->isIntegerType() || T->isBooleanType())
        return true;
      return T->isPointerType() && T->getPointeeType().isConstQualified();
    }
    if (const auto *Asm = P.get<GCCAsmStmt>())
      return llvm::is_contained(Asm->inputs(), E);
    if (const auto *BO = P.get<BinaryOperator>())
      return BO->isComparisonOp();
    if (const auto *AS = P.get<ArraySubscriptExpr>())
      return AS->getBase() == E && isReadOnlyObjectUse(AS, PM);
    return false;
  }
  return false;
}

/// True when the lvalue \p E (the parameter, or a subobject of it) is only
/// read: the code still compiles when the parameter becomes const.
static bool isReadOnlyObjectUse(const Expr *E, const ParentMap &PM) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    // The body's own parent map: ASTContext's covers the whole TU.
    const Stmt *PS = PM.getParent(const_cast<Expr *>(E));
    if (!PS)
      return false;
    DynTypedNode P = DynTypedNode::create(*PS);
    if (const auto *PE = P.get<ParenExpr>()) {
      E = PE;
      continue;
    }
    if (const auto *ME = P.get<MemberExpr>()) {
      if (ME->getBase() != E || ME->isArrow())
        return false;
      E = ME;
      continue;
    }
    if (const auto *Cast = P.get<ImplicitCastExpr>()) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp: // Adds const.
        return true;
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        E = Cast;
        continue;
      case CK_ArrayToPointerDecay:
        return isReadOnlyAddressUse(Cast, PM);
      default:
        return false;
      }
    }
    if (const auto *UO = P.get<UnaryOperator>())
      return UO->getOpcode() == UO_AddrOf && isReadOnlyAddressUse(UO, PM);
    if (const auto *Construct = P.get<CXXConstructExpr>()) {
      unsigned Quals = 0;
      return Construct->getConstructor()->isCopyConstructor(Quals) &&
             (Quals & Qualifiers::Const);
    }
    if (P.get<UnaryExprOrTypeTraitExpr>())
      return true;
    // A capture's initialiser: a const map is captured as a const reference
    // or a copy; the uses in the lambda's body are references of their own.
    if (P.get<LambdaExpr>())
      return true;
    // __builtin_addressof(Map), std::addressof(Map).
    if (const auto *Call = P.get<CallExpr>()) {
      if (isAddressOfCall(*Call))
        return isReadOnlyAddressUse(Call, PM);
      // Bound to a reference parameter of the callee: const, or not.
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return false;
      unsigned Offset = isa<CXXOperatorCallExpr>(Call) &&
                                isa<CXXMethodDecl>(Callee) &&
                                cast<CXXMethodDecl>(Callee)->isInstance()
                            ? 1
                            : 0;
      for (unsigned I = Offset; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == E && I - Offset < Callee->getNumParams())
          return isConstReference(Callee->getParamDecl(I - Offset)->getType());
      return false;
    }
    if (const auto *Decls = P.get<DeclStmt>())
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit() == E)
          return isConstReference(Var->getType());
    return false;
  }
  return false;
}

/// True when every use of \p Param in \p Kernel still compiles once the
/// parameter is const.
bool survivesConst(const ParmVarDecl &Param, const FunctionDecl &Kernel,
                   ConstantFolder &Folder, PlacementBodies &Bodies) {
  if (Param.getType().isConstQualified())
    return true;
  const BodyNodes &Nodes = Bodies.of(Kernel.getBody(), PlacementBodies::Scope::All);
  const ParentMap &PM = Folder.parentsOf(Kernel.getBody());
  return llvm::all_of(Nodes.Refs, [&](const DeclRefExpr *DRE) {
    return DRE->getDecl() != &Param || isReadOnlyObjectUse(DRE, PM);
  });
}

} // namespace clang::tidy::tma::placement
