//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/TensorMapPlacementCheck.h"
#include "checks/SharedMatchers.h"
#include "checks/ContextNotes.h"
#include "api/DeviceOps.h"
#include "rules/FormRules.h"
#include "rules/TensorMapRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include <memory>
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

namespace {

/// What an expression is with respect to the tensor map being followed.
enum class Ref {
  None,
  /// An lvalue that designates the map, or a subobject that holds one.
  Object,
  /// A variable whose value is the map's address.
  AddressVar,
  /// A value that is the map's address: a pointer or a 64-bit integer.
  Address,
};

/// The declarations, TMA candidates and references of one function body, in
/// source order.
struct BodyNodes {
  std::vector<const VarDecl *> Vars;
  std::vector<const Stmt *> Sites;
  std::vector<const DeclRefExpr *> Refs;
};

} // namespace

/// One walk per body, shared by the rules of the check: the kernel's rules
/// and the functions the address flow follows used to walk the same body
/// up to five times (a RecursiveASTVisitor each), once per rule and per
/// followed parameter. The walk does not descend into a lambda that the
/// matcher hands to check() itself: that lambda's body has its own walk, and
/// D nested lambdas walked below each other cost D^2 / 2 node visits. It
/// keeps where such a lambda was met, so that the All scope is rebuilt in
/// the order of one full walk from the walks of those lambdas.
class PlacementBodies {
public:
  /// Which nodes of a body a rule asks for.
  enum class Scope {
    /// All of them, lambdas included.
    All,
    /// Not those of the lambdas that the matcher hands to check()
    /// themselves.
    OwnOnly,
    /// Not those of any lambda (a lambda's body is another function).
    NoLambdas,
  };
  const BodyNodes &of(const Stmt *Body, Scope S);

private:
  /// A lambda the walk left out, and how many nodes of each kind the walk
  /// had met before it.
  struct Skipped {
    const LambdaExpr *Lambda;
    size_t Vars, Sites, Refs;
  };
  struct Walked {
    /// The nodes outside the lambdas the matcher hands over (OwnOnly).
    BodyNodes Own;
    /// Whether each node of Own is in a lambda (one the matcher does not
    /// hand over).
    std::vector<bool> VarIn, SiteIn, RefIn;
    std::vector<Skipped> Left;
    std::optional<BodyNodes> NoLambdas, All;
  };
  class Walker;
  const BodyNodes &allOf(Walked &W);
  Walked &walkOf(const LambdaExpr *Lambda);
  llvm::DenseMap<const Stmt *, std::unique_ptr<Walked>> Bodies;
  /// The walks of left-out lambdas (all their nodes, captures included),
  /// for the All scope of the bodies around them.
  llvm::DenseMap<const LambdaExpr *, std::unique_ptr<Walked>> Lambdas;
};

class PlacementBodies::Walker : public RecursiveASTVisitor<Walker> {
public:
  explicit Walker(Walked &W) : W(W) {}

  /// The nodes of \p L itself, as a walk of the body around it meets them.
  void walkLambda(LambdaExpr *L) { RecursiveASTVisitor::TraverseLambdaExpr(L); }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (matchedOnItsOwn(*L)) {
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
  unsigned InLambdas = 0;
};

PlacementBodies::Walked &PlacementBodies::walkOf(const LambdaExpr *Lambda) {
  if (auto It = Lambdas.find(Lambda); It != Lambdas.end())
    return *It->second;
  auto W = std::make_unique<Walked>();
  Walker(*W).walkLambda(const_cast<LambdaExpr *>(Lambda));
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
    Walker(*New).TraverseStmt(const_cast<Stmt *>(Body));
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

namespace {

/// Follows the address of one kernel parameter through the kernel and the
/// device functions it calls.
class AddressFlow {
public:
  /// Which operations end the flow.
  enum class Mode {
    /// Every TMA operation that names a map.
    AnyTma,
    /// Only tensor copies, not tensormap.* instructions (which legitimately
    /// work on shared-memory copies of a map).
    CopiesOnly,
    /// Only the map operand of an instruction that writes a map:
    /// tensormap.replace and the destination of tensormap.cp_fenceproxy.
    MapWrites,
  };
  AddressFlow(ASTContext &Ctx, ConstantFolder &Folder,
              PlacementBodies &Bodies, unsigned MaxDepth,
              Mode M = Mode::AnyTma)
      : Ctx(Ctx), Folder(Folder), Bodies(Bodies), MaxDepth(MaxDepth), M(M) {}

  /// The statements from \p FD's body to the TMA operation that the map
  /// reaches, starting from \p Var (an Object or an AddressVar): the calls
  /// that pass it on, then the operation. Empty when nothing is proven.
  llvm::SmallVector<const Stmt *, 4>
  follow(const FunctionDecl &FD, const VarDecl &Var, Ref Kind, unsigned Depth);

private:
  ASTContext &Ctx;
  ConstantFolder &Folder;
  PlacementBodies &Bodies;
  const unsigned MaxDepth;
  const Mode M;
};

} // namespace

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
static bool holdsMap(QualType T, unsigned Depth = 0) {
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
static bool isMapType(QualType T) {
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
static bool isCudaPtx(const FunctionDecl &FD) {
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

/// One instruction of an asm statement's text: its opcode and operands.
struct AsmInstruction {
  StringRef Opcode;
  SmallVector<StringRef, 4> Operands;
};

/// The instructions of \p S's text (labels, braces, predicates and comments
/// dropped); empty when the text is not a plain literal.
static SmallVector<AsmInstruction, 4> asmInstructions(const GCCAsmStmt &S) {
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
static const Expr *asmOperandExpr(const GCCAsmStmt &S, StringRef Text,
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
static bool writesMap(StringRef Opcode) {
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

/// What \p E is with respect to the followed map, given the variables known
/// to hold it (\p Vars).
static Ref classify(const Expr *E, const TrackedVars &Vars,
                    const ASTContext &Ctx) {
  if (!E)
    return Ref::None;
  E = E->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return classify(FE->getSubExpr(), Vars, Ctx);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A lambda capture may be a copy.
    if (DRE->refersToEnclosingVariableOrCapture())
      return Ref::None;
    auto It = Vars.find(DRE->getDecl());
    return It == Vars.end() ? Ref::None : It->second;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    Ref Sub = classify(Cast->getSubExpr(), Vars, Ctx);
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
    Ref Sub = classify(UO->getSubExpr(), Vars, Ctx);
    if (UO->getOpcode() == UO_AddrOf && Sub == Ref::Object)
      return Ref::Address;
    if (UO->getOpcode() == UO_Deref && Sub == Ref::Address)
      return Ref::Object;
    return Ref::None;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!holdsMap(ME->getType()))
      return Ref::None;
    Ref Base = classify(ME->getBase(), Vars, Ctx);
    return (ME->isArrow() ? Base == Ref::Address : Base == Ref::Object)
               ? Ref::Object
               : Ref::None;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return classify(AS->getBase(), Vars, Ctx) == Ref::Address ? Ref::Object
                                                              : Ref::None;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (isAddressOfCall(*Call) &&
        classify(Call->getArg(0), Vars, Ctx) == Ref::Object)
      return Ref::Address;
  return Ref::None;
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
  // Locals bound to the map (references) or initialised with its address.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const VarDecl *V : Nodes.Vars) {
      if (Vars.count(V) || !V->getInit())
        continue;
      Ref R = classify(V->getInit(), Vars, Ctx);
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
          if (classify(E, Vars, Ctx) != Ref::None)
            return {S};
        continue;
      }
      if (!isTmaAsm(*Asm, M == Mode::CopiesOnly))
        continue;
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        if (classify(Asm->getInputExpr(I), Vars, Ctx) != Ref::None)
          return {S};
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (classify(Asm->getOutputExpr(I), Vars, Ctx) != Ref::None)
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
      Ref R = classify(Call->getArg(I), Vars, Ctx);
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
static bool survivesConst(const ParmVarDecl &Param, const FunctionDecl &Kernel,
                          ConstantFolder &Folder, PlacementBodies &Bodies) {
  if (Param.getType().isConstQualified())
    return true;
  const BodyNodes &Nodes = Bodies.of(Kernel.getBody(), PlacementBodies::Scope::All);
  const ParentMap &PM = Folder.parentsOf(Kernel.getBody());
  return llvm::all_of(Nodes.Refs, [&](const DeclRefExpr *DRE) {
    return DRE->getDecl() != &Param || isReadOnlyObjectUse(DRE, PM);
  });
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

/// True when an identifier such as CUTLASS_GRID_CONSTANT is written around
/// the parameter's type: a macro that expands to __grid_constant__ for nvcc
/// and to nothing here. The author asked for the attribute.
static bool hasGridConstantMacro(const ParmVarDecl &P, const SourceManager &SM,
                                 const LangOptions &LangOpts) {
  auto IsGridConstantName = [](const Token &Tok) {
    return Tok.is(tok::raw_identifier) &&
           Tok.getRawIdentifier().contains_insensitive("grid_constant");
  };
  SourceLocation Begin = SM.getFileLoc(P.getBeginLoc());
  SourceLocation Name = SM.getFileLoc(P.getLocation());
  // Back to the '(' or ',' before the parameter.
  SourceLocation Loc = Begin;
  for (unsigned I = 0; I < 4; ++I) {
    std::optional<Token> Tok =
        Lexer::findPreviousToken(Loc, SM, LangOpts, /*IncludeComments=*/false);
    if (!Tok || Tok->isOneOf(tok::l_paren, tok::comma))
      break;
    if (IsGridConstantName(*Tok))
      return true;
    Loc = Tok->getLocation();
  }
  // From the type to the name.
  Loc = Begin;
  for (unsigned I = 0; I < 16 && Loc.isValid() && Loc != Name; ++I) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, LangOpts, /*IgnoreWhiteSpace=*/true))
      break;
    if (IsGridConstantName(Tok))
      return true;
    std::optional<Token> Next = Lexer::findNextToken(Loc, SM, LangOpts);
    if (!Next)
      break;
    Loc = Next->getLocation();
  }
  return false;
}

TensorMapPlacementCheck::TensorMapPlacementCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), CallDepth(Options.get("CallDepth", 3U)),
      GlobalFence(Options.get("GlobalFence", true)) {}

PlacementBodies &TensorMapPlacementCheck::bodies() {
  if (!Bodies)
    Bodies = std::make_shared<PlacementBodies>();
  return *Bodies;
}

void TensorMapPlacementCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallDepth", CallDepth);
  Options.store(Opts, "GlobalFence", GlobalFence);
}

void TensorMapPlacementCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // Kernels (TMAP-PLACE-*) and other __device__ definitions (their map
  // copies), through the module's shared matcher.
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

/// The insertions that make parameter \p Index of \p Kernel
/// 'const __grid_constant__' on every declaration of the kernel, or nothing
/// when one of them cannot be edited safely.
static std::vector<FixItHint> gridConstantFixes(const FunctionDecl &Kernel,
                                                unsigned Index,
                                                const SourceManager &SM,
                                                const LangOptions &LangOpts) {
  const FunctionDecl *Written = Kernel.getTemplateInstantiationPattern();
  if (!Written)
    Written = &Kernel;
  std::vector<FixItHint> Fixes;
  for (const FunctionDecl *Decl : Written->redecls()) {
    if (Index >= Decl->getNumParams())
      return {};
    const ParmVarDecl &P = *Decl->getParamDecl(Index);
    // A template parameter's type is shared with other instantiations.
    if (P.getType()->isDependentType())
      return {};
    SourceLocation Begin = P.getBeginLoc();
    if (Begin.isInvalid() || Begin.isMacroID() || SM.isInSystemHeader(Begin))
      return {};
    if (!P.getType().isConstQualified()) {
      Fixes.push_back(
          FixItHint::CreateInsertion(Begin, "const __grid_constant__ "));
      continue;
    }
    // 'const CUtensorMap' -> 'const __grid_constant__ CUtensorMap'.
    Token Tok;
    if (!Lexer::getRawToken(Begin, Tok, SM, LangOpts) &&
        Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "const")
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(Begin, 0, SM, LangOpts),
          " __grid_constant__"));
    else
      Fixes.push_back(FixItHint::CreateInsertion(Begin, "__grid_constant__ "));
  }
  return Fixes;
}

//===----------------------------------------------------------------------===//
// Functions without a site
//===----------------------------------------------------------------------===//

/// Whether \p DC (a function, or a class or function declared in one)
/// declares, outside lambdas, a variable whose type holds a map; or
/// something this scan does not read, whose insides the body walk visits
/// (a local class's members, a block). Every local variable, static,
/// extern and structured binding included, is a declaration of the
/// function it is declared in (of its template instantiation too), so a
/// false answer means that checkMapCopies has no local candidate.
static bool declaresMapOrUnread(const DeclContext &DC, bool InLambda,
                                PlacementScanMemo &Memo);

/// declaresMapOrUnread's answer for \p DC, memoised: a lambda's answer
/// holds those of the lambdas nested in it, and each of D nested lambdas is
/// asked on its own (they were scanned D, D - 1, ... levels deep).
static bool declaresMapOrUnreadMemo(const DeclContext &DC, bool InLambda,
                                    PlacementScanMemo &Memo) {
  auto &Known = Memo.Declares[InLambda];
  if (auto It = Known.find(&DC); It != Known.end())
    return It->second;
  bool Result = declaresMapOrUnread(DC, InLambda, Memo);
  // Not Known[&DC] = ...: the recursion may have grown the map.
  Memo.Declares[InLambda][&DC] = Result;
  return Result;
}

static bool declaresMapOrUnread(const DeclContext &DC, bool InLambda,
                                PlacementScanMemo &Memo) {
  for (const Decl *D : DC.decls()) {
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (!InLambda && !isa<ParmVarDecl>(V) && holdsMap(V->getType()))
        return true;
      continue;
    }
    if (const auto *B = dyn_cast<BindingDecl>(D)) {
      if (const ValueDecl *Whole = B->getDecomposedDecl();
          !InLambda && Whole && holdsMap(Whole->getType()))
        return true;
      continue;
    }
    if (const auto *R = dyn_cast<CXXRecordDecl>(D)) {
      // A lambda's closure: its call operator is another function.
      if (!R->isLambda() ||
          declaresMapOrUnreadMemo(*R, /*InLambda=*/true, Memo))
        return true;
      continue;
    }
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D)) {
      // A generic lambda's call operator.
      if (declaresMapOrUnreadMemo(*T->getTemplatedDecl(), InLambda, Memo))
        return true;
      continue;
    }
    if (const auto *F = dyn_cast<FunctionDecl>(D)) {
      if (declaresMapOrUnreadMemo(*F, InLambda, Memo))
        return true;
      continue;
    }
    if (isa<EnumDecl>(D))
      continue;
    if (isa<DeclContext>(D))
      return true;
  }
  return false;
}

/// Whether \p Call's callee is named like a cuda::ptx::tensormap_replace_*
/// function (the name only: a cheap pre-filter of the walk).
static bool namedLikeReplace(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && FD->getIdentifier() &&
         FD->getName().starts_with("tensormap_replace_");
}

/// Whether a call in \p E (a lambda's capture initialiser) is named like a
/// cuda::ptx::tensormap_replace_* function.
static bool callsReplace(const Stmt *E) {
  if (!E)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && namedLikeReplace(*Call))
    return true;
  return llvm::any_of(E->children(), callsReplace);
}

/// Whether \p Body (its lambdas' bodies included) holds an asm text that
/// names tensormap.replace or a call named tensormap_replace_*: the sites
/// checkReplaceValues reads. From the finder's list of the body's asm
/// statements and calls, which the other checks have asked for already:
/// it reaches every site of checkReplaceValues' walk but those of a local
/// class (declaresMapOrUnread sends such a body to the walk) and those in
/// the unevaluated operands of a type (decltype), which never run.
/// Memoised per body (a lambda's answer holds its nested lambdas').
static bool mayReplace(DeviceOpsFinder &Finder, const Stmt *Body,
                       PlacementScanMemo &Memo) {
  if (auto It = Memo.Replaces.find(Body); It != Memo.Replaces.end())
    return It->second;
  bool Result = false;
  for (const DeviceOpsFinder::OpStmt &OS : Finder.opStmtsOf(Body)) {
    if (const auto *L = dyn_cast<LambdaExpr>(OS.S)) {
      if (llvm::any_of(L->capture_inits(), callsReplace) ||
          mayReplace(Finder, L->getBody(), Memo)) {
        Result = true;
        break;
      }
      continue;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(OS.S)) {
      const auto *Text =
          dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      if (Text && Text->getCharByteWidth() == 1 &&
          Text->getString().contains("tensormap.replace")) {
        Result = true;
        break;
      }
      continue;
    }
    if (namedLikeReplace(*cast<CallExpr>(OS.S))) {
      Result = true;
      break;
    }
  }
  return Memo.Replaces[Body] = Result;
}

/// Whether a rule of a __device__ function (not a kernel) can report in
/// \p FD: a map it holds by value (a parameter or a local) or a
/// tensormap.replace. A host pass hands over thousands of
/// __host__ __device__ bodies (CuTe's) that have neither: their walk was
/// most of the check's instructions.
static bool mayHoldSite(const FunctionDecl &FD, DeviceOpsFinder &Finder,
                        PlacementScanMemo &Memo) {
  for (const ParmVarDecl *P : FD.parameters()) {
    QualType T = P->getType();
    if (!T->isReferenceType() && !T->isPointerType() && holdsMap(T))
      return true;
  }
  return declaresMapOrUnreadMemo(FD, /*InLambda=*/false, Memo) ||
         mayReplace(Finder, FD.getBody(), Memo);
}

void TensorMapPlacementCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  // The shared matcher hands over no dependent function, and says once for
  // all checks whether it has a body outside system headers.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  if (const FunctionDecl *Fn = M.Fn; Fn && !M.Kernel) {
    if (M.UserBody) {
      if (!OpsFinder)
        OpsFinder = DeviceOpsFinder::forTranslationUnit(Ctx);
      if (!mayHoldSite(*Fn, *OpsFinder, ScanMemo))
        return;
      if (!Folder)
        Folder = ConstantFolder::forTranslationUnit(Ctx);
      checkMapCopies(*Fn, Ctx, SM);
      checkReplaceValues(*Fn, SM);
    }
    return;
  }
  const FunctionDecl *Kernel = M.Fn;
  // Templates are checked per instantiation.
  if (!Kernel || !Kernel->getBody())
    return;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(Ctx);
  if (M.UserBody) {
    checkMapCopies(*Kernel, Ctx, SM);
    checkReplaceValues(*Kernel, SM);
    checkReadonlyParams(*Kernel, Ctx, SM);
  }
  for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
    const ParmVarDecl &P = *Kernel->getParamDecl(I);
    QualType T = P.getType();
    // Pointers (a map in global memory) and references are not copies.
    if (!P.getIdentifier() || T->isReferenceType() || T->isPointerType() ||
        !holdsMap(T) || P.hasAttr<CUDAGridConstantAttr>())
      continue;
    SourceLocation Loc = SM.getFileLoc(P.getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        Reported.count(Loc.getRawEncoding()) ||
        hasGridConstantMacro(P, SM, getLangOpts()))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth)
                    .follow(*Kernel, P, Ref::Object,
                            /*Depth=*/0);
    if (Path.empty() || !Rules.allows("TMAP-PLACE-GRID-CONSTANT"))
      continue;
    Reported.insert(Loc.getRawEncoding());

    std::vector<FixItHint> Fixes;
    if (survivesConst(P, *Kernel, *Folder, bodies()))
      Fixes = gridConstantFixes(*Kernel, I, SM, getLangOpts());
    diag(Loc, "%select{CUtensorMap parameter %1 is|parameter %1 holds a "
              "CUtensorMap and is}0 passed by value without 'const "
              "__grid_constant__': its address points to a local copy, which "
              "TMA cannot read (TMAP-PLACE-GRID-CONSTANT)")
        << !isMapType(T) << &P << Fixes;

    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    diag(First,
         Path.size() == 1
             ? "the address of %0 reaches a TMA operation here"
             : "the address of %0 is passed on here and reaches a TMA "
               "operation",
         DiagnosticIDs::Note)
        << &P;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
  }
  if (GlobalFence)
    checkGlobalMaps(*Kernel, Ctx, SM);
}

//===----------------------------------------------------------------------===//
// TMA-MAP-STATE-SPACE
//===----------------------------------------------------------------------===//

/// A local or __shared__ variable that holds a map by value.
static bool isMapVar(const VarDecl &V) {
  QualType T = V.getType();
  return V.isLocalVarDecl() && !T->isReferenceType() && !T->isPointerType() &&
         !V.hasAttr<CUDAConstantAttr>() && holdsMap(T) &&
         (V.hasLocalStorage() || V.hasAttr<CUDASharedAttr>());
}

void TensorMapPlacementCheck::checkMapCopies(const FunctionDecl &FD,
                                             ASTContext &Ctx,
                                             const SourceManager &SM) {
  using ::tma::rules::MapStorage;
  std::vector<std::pair<const VarDecl *, MapStorage>> Candidates;
  // By-value parameters of __device__ functions; a kernel's are
  // TMAP-PLACE-GRID-CONSTANT's.
  if (!FD.hasAttr<CUDAGlobalAttr>())
    for (const ParmVarDecl *P : FD.parameters()) {
      QualType T = P->getType();
      if (P->getIdentifier() && !T->isReferenceType() && !T->isPointerType() &&
          holdsMap(T))
        Candidates.emplace_back(P, MapStorage::DeviceParamCopy);
    }
  // A lambda's body is another function.
  for (const VarDecl *V :
       bodies().of(FD.getBody(), PlacementBodies::Scope::NoLambdas).Vars)
    if (isMapVar(*V))
      Candidates.emplace_back(V, V->hasAttr<CUDASharedAttr>()
                                     ? MapStorage::Shared
                                     : MapStorage::Local);
  for (const auto &[Var, Storage] : Candidates) {
    SourceLocation Loc = SM.getFileLoc(Var->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        Reported.count(Loc.getRawEncoding()))
      continue;
    std::optional<::tma::rules::DeviceViolation> V =
        ::tma::rules::checkTmaMapStateSpace(Storage);
    if (!V || !Rules.allows(V->RuleId))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth, AddressFlow::Mode::CopiesOnly)
                    .follow(FD, *Var, Ref::Object, 0);
    if (Path.empty())
      continue;
    Reported.insert(Loc.getRawEncoding());
    diag(Loc, "%select{tensor map %1|%1 holds a CUtensorMap and}0 %2 (%3)")
        << !isMapType(Var->getType()) << Var << V->Message << V->RuleId;
    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    diag(First,
         Path.size() == 1
             ? "the address of %0 reaches a TMA operation here"
             : "the address of %0 is passed on here and reaches a TMA "
               "operation",
         DiagnosticIDs::Note)
        << Var;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
    diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-READONLY-PARAM
//===----------------------------------------------------------------------===//

/// What the diagnostics call the map write \p S: the PTX instruction or
/// the cuda::ptx function.
static std::string mapWriteName(const Stmt &S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(&S)) {
    for (const AsmInstruction &I : asmInstructions(*Asm))
      if (writesMap(I.Opcode))
        return I.Opcode.starts_with("tensormap.replace")
                   ? "tensormap.replace"
                   : "tensormap.cp_fenceproxy";
    return "tensormap.replace";
  }
  const FunctionDecl *FD = cast<CallExpr>(S).getDirectCallee();
  return FD && FD->getIdentifier() ? "cuda::ptx::" + FD->getName().str()
                                   : "a tensormap write";
}

void TensorMapPlacementCheck::checkReadonlyParams(const FunctionDecl &Kernel,
                                                  ASTContext &Ctx,
                                                  const SourceManager &SM) {
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (!P->getIdentifier() || T->isReferenceType() || T->isPointerType() ||
        !holdsMap(T) ||
        !(P->hasAttr<CUDAGridConstantAttr>() ||
          hasGridConstantMacro(*P, SM, getLangOpts())))
      continue;
    std::optional<::tma::rules::DeviceViolation> V =
        ::tma::rules::checkDevReadonlyParam(
            ::tma::rules::MapStorage::GridConstantParam);
    if (!V || !Rules.allows(V->RuleId))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth,
                            AddressFlow::Mode::MapWrites)
                    .follow(Kernel, *P, Ref::Object, 0);
    if (Path.empty())
      continue;
    SourceLocation Loc = SM.getFileLoc(Path.front()->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "%select{%1 writes tensor map %2 in place|the address of tensor "
              "map %2 is passed on here to %1, which writes it in place}0; "
              "%2 %3 (%4)")
        << (Path.size() > 1) << mapWriteName(*Path.back()) << P
        << V->Message << V->RuleId;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the write", DiagnosticIDs::Note);
    diag(SM.getFileLoc(P->getLocation()), "%0 is declared here",
         DiagnosticIDs::Note)
        << P;
    diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-REPLACE-ENCODING
//===----------------------------------------------------------------------===//

/// The tensormap.replace field \p Name (PTX's spelling, or the cuda::ptx
/// function's suffix).
static std::optional<::tma::rules::ReplaceField>
replaceField(StringRef Name) {
  using ::tma::rules::ReplaceField;
  return llvm::StringSwitch<std::optional<ReplaceField>>(Name)
      .Case("global_address", ReplaceField::GlobalAddress)
      .Case("rank", ReplaceField::Rank)
      .Case("box_dim", ReplaceField::BoxDim)
      .Case("global_dim", ReplaceField::GlobalDim)
      .Case("global_stride", ReplaceField::GlobalStride)
      .Case("element_stride", ReplaceField::ElementStride)
      .Case("element_size", ReplaceField::ElementStride)
      .Case("elemtype", ReplaceField::ElemType)
      .Case("interleave_layout", ReplaceField::InterleaveLayout)
      .Case("swizzle_mode", ReplaceField::SwizzleMode)
      .Case("swizzle_atomicity", ReplaceField::SwizzleAtomicity)
      .Case("fill_mode", ReplaceField::FillMode)
      .Default(std::nullopt);
}

/// The driver enum that \p T is, or None.
static ::tma::rules::DriverEnum driverEnumOfType(QualType T) {
  using ::tma::rules::DriverEnum;
  const EnumDecl *ED = T->getAsEnumDecl();
  if (!ED)
    return DriverEnum::None;
  StringRef Name = ED->getName();
  if (Name.empty())
    if (const TypedefNameDecl *TD = ED->getTypedefNameForAnonDecl())
      Name = TD->getName();
  Name.consume_back("_enum");
  return llvm::StringSwitch<DriverEnum>(Name)
      .Case("CUtensorMapDataType", DriverEnum::DataType)
      .Case("CUtensorMapInterleave", DriverEnum::Interleave)
      .Case("CUtensorMapSwizzle", DriverEnum::Swizzle)
      .Case("CUtensorMapFloatOOBfill", DriverEnum::FloatOobFill)
      .Default(DriverEnum::None);
}

/// The driver enum whose value \p E is (an enumerator, or a value of the
/// enum type, through casts; in a template instantiation, the argument of
/// a template parameter of the enum type, whose replacement clang keeps as
/// a cast integer).
static ::tma::rules::DriverEnum driverEnumOf(const Expr *E) {
  using ::tma::rules::DriverEnum;
  if (!E)
    return DriverEnum::None;
  const Expr *Cur = E;
  for (unsigned Steps = 0; Cur && Steps < 8; ++Steps) {
    Cur = Cur->IgnoreParens();
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(Cur))
      return driverEnumOfType(S->getParameter()->getType());
    if (const auto *Full = dyn_cast<FullExpr>(Cur))
      Cur = Full->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Cur))
      Cur = Cast->getSubExpr();
    else
      break;
  }
  return driverEnumOfType(E->IgnoreParenCasts()->getType());
}

/// For an n32_t<V> argument (CCCL's integral_constant<int, V>, or a class
/// template of that name): V, and the expression written for it.
static std::optional<std::pair<uint64_t, const Expr *>>
n32Argument(const Expr *Arg) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Arg->getType().getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || (Spec->getName() != "integral_constant" &&
                Spec->getName() != "n32_t"))
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 ||
      Args[Args.size() - 1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  uint64_t Value = Args[Args.size() - 1].getAsIntegral().getZExtValue();
  // The type as written: n32_t<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16>{}.
  const Expr *Written = nullptr;
  const Expr *E = Arg->IgnoreImplicit();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreImplicit();
  TypeSourceInfo *TSI = nullptr;
  if (const auto *T = dyn_cast<CXXTemporaryObjectExpr>(E))
    TSI = T->getTypeSourceInfo();
  else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    TSI = F->getTypeInfoAsWritten();
  else if (const auto *C = dyn_cast<CompoundLiteralExpr>(E))
    TSI = C->getTypeSourceInfo();
  if (TSI)
    if (auto TL = TSI->getTypeLoc()
                      .getAsAdjusted<TemplateSpecializationTypeLoc>();
        TL && TL.getNumArgs() > 0 &&
        TL.getArgLoc(TL.getNumArgs() - 1).getArgument().getKind() ==
            TemplateArgument::Expression)
      Written = TL.getArgLoc(TL.getNumArgs() - 1).getSourceExpression();
  return std::make_pair(Value, Written);
}

void TensorMapPlacementCheck::reportReplace(
    SourceLocation Loc, const Expr *Written,
    const ::tma::rules::DeviceViolation &V, const SourceManager &SM,
    const ReplaceOrigin &From) {
  SourceLocation OpLoc = Loc;
  if (Written)
    Loc = SM.getFileLoc(Written->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      !Rules.allows(V.RuleId) ||
      !ReplaceReported.insert({Loc.getRawEncoding(), V.Message}).second)
    return;
  diag(Loc, "%0 (%1)") << V.Message << V.RuleId;
  // A value that a helper's parameter forwards is reported where a caller
  // wrote it: the calls in between, and the instruction that receives it.
  if (From.Value)
    noteBindings(*this, *Folder, From.Value->From.Through, Loc, SM,
                 From.Context);
  if (From.Forwarded && OpLoc != Loc && !SM.isInSystemHeader(OpLoc))
    diag(OpLoc, "passed to tensormap.replace .%0 here", DiagnosticIDs::Note)
        << ::tma::rules::replaceFieldName(From.Field);
  if (!V.Suggestion.empty())
    diag(Loc, "%0", DiagnosticIDs::Note) << V.Suggestion;
  if (From.Instantiation &&
      From.Instantiation->getPointOfInstantiation().isValid())
    diag(SM.getFileLoc(From.Instantiation->getPointOfInstantiation()),
         "in instantiation of %0 requested here", DiagnosticIDs::Note)
        << From.Instantiation;
}

void TensorMapPlacementCheck::checkReplaceValue(
    const Stmt &Site, const FunctionDecl &FD, ::tma::rules::ReplaceField F,
    const Expr *E, ::tma::rules::Known Imm, const SourceManager &SM) {
  using namespace ::tma::rules;
  SourceLocation Loc = SM.getFileLoc(Site.getBeginLoc());
  // An immediate (or an n32_t<V> template argument) is the same under every
  // caller; an expression is folded under each caller's context, so a
  // helper's parameter is the value its caller passes.
  if (Imm || !E) {
    if (auto V = checkReplaceEncoding(F, Imm, driverEnumOf(E))) {
      ReplaceOrigin From{F};
      // A template argument: which instantiation.
      From.Instantiation = FD.isTemplateInstantiation() ? &FD : nullptr;
      reportReplace(Loc, E, *V, SM, From);
    }
    return;
  }
  for (const CallContext *Context : Folder->contextsOf(&FD)) {
    // Nothing to report where a guard leaves before the site (§11.C).
    if (!Folder->mayRun(&Site, &FD, Context))
      continue;
    Folder->enterContext(Context);
    ReplaceOrigin From{F};
    From.Context = Context;
    From.Value = Folder->foldInt(E);
    Known Value;
    if (From.Value)
      Value = asU64(From.Value->Value);
    // The caller's argument says which enum the value was written as.
    const CallContext *Outer = Context;
    const Expr *Arg = forwardedFrom(E, Outer);
    From.Forwarded = Arg != E;
    DriverEnum AsWritten = driverEnumOf(Arg);
    if (AsWritten == DriverEnum::None)
      AsWritten = driverEnumOf(E);
    if (auto V = checkReplaceEncoding(F, Value, AsWritten))
      reportReplace(Loc, Arg, *V, SM, From);
  }
  Folder->enterContext(nullptr);
}

void TensorMapPlacementCheck::checkReplaceValues(const FunctionDecl &FD,
                                                 const SourceManager &SM) {
  using namespace ::tma::rules;
  // A site outside system headers; asked after the cheap tests of the
  // text or callee, which rule out almost every site.
  auto InUserCode = [&](const Stmt *S) {
    SourceLocation Loc = SM.getFileLoc(S->getBeginLoc());
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  };
  for (const Stmt *S : bodies().of(FD.getBody(), PlacementBodies::Scope::OwnOnly).Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      // An opcode is a part of the text.
      const auto *Text = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      if (!Text || Text->getCharByteWidth() != 1 ||
          !Text->getString().contains("tensormap.replace") || !InUserCode(S))
        continue;
      SmallVector<AsmInstruction, 4> Instructions = asmInstructions(*Asm);
      for (const AsmInstruction &I : Instructions) {
        if (!I.Opcode.starts_with("tensormap.replace") || I.Operands.size() < 2)
          continue;
        // tensormap.replace.mode.field1{.ss}.b1024.type [addr], {ord,} new_val
        std::optional<ReplaceField> F;
        SmallVector<StringRef, 8> Parts;
        I.Opcode.split(Parts, '.');
        for (StringRef P : Parts)
          if ((F = replaceField(P)))
            break;
        if (!F)
          continue;
        StringRef Text = I.Operands.back();
        const Expr *E = asmOperandExpr(*Asm, Text, Instructions);
        uint64_t Imm = 0;
        Known Value;
        if (!E && !Text.getAsInteger(0, Imm))
          Value = Imm;
        if (E || Value)
          checkReplaceValue(*S, FD, *F, E, Value, SM);
      }
      continue;
    }
    const auto *Call = cast<CallExpr>(S);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !Callee->getName().starts_with("tensormap_replace_") ||
        Call->getNumArgs() < 3 || !isCudaPtx(*Callee) || !InUserCode(S))
      continue;
    std::optional<ReplaceField> F =
        replaceField(Callee->getName().drop_front(strlen("tensormap_replace_")));
    if (!F)
      continue;
    const Expr *Arg = Call->getArg(Call->getNumArgs() - 1);
    if (auto N = n32Argument(Arg))
      checkReplaceValue(*S, FD, *F, N->second ? N->second : Arg, N->first,
                        SM);
    else
      checkReplaceValue(*S, FD, *F, Arg, std::nullopt, SM);
  }
}

//===----------------------------------------------------------------------===//
// TMAP-PLACE-GLOBAL-FENCE
//===----------------------------------------------------------------------===//

/// How deep calls are searched for an acquire fence.
static constexpr unsigned MaxFenceDepth = 8;

/// Whether \p FD, or a function it calls, may execute
/// fence.proxy.tensormap::generic.acquire. A call of a function whose body
/// is not visible (outside system headers) may: silence over guesses.
bool TensorMapPlacementCheck::mayFence(const FunctionDecl &FD,
                                       const SourceManager &SM,
                                       unsigned Depth) {
  const FunctionDecl *Def = FD.getDefinition();
  if (!Def || !Def->hasBody()) {
    // Builtins (no location) and system declarations do not fence.
    SourceLocation Loc = SM.getFileLoc(FD.getLocation());
    return FD.getBuiltinID() == 0 && Loc.isValid() && !SM.isInSystemHeader(Loc);
  }
  if (auto It = Fenced.find(Def); It != Fenced.end())
    return It->second;
  // Too deep to search: user code may fence, the library's internals do not.
  if (Depth > MaxFenceDepth)
    return !SM.isInSystemHeader(SM.getFileLoc(Def->getLocation()));
  // Assume a fence while the body is searched (recursion).
  Fenced[Def] = true;
  const BodyNodes &Nodes = bodies().of(Def->getBody(), PlacementBodies::Scope::All);
  auto IsAcquire = [](const DeviceOp &Op) {
    const auto *F = std::get_if<Fence>(&Op);
    return F && F->Kind == device::FenceKind::TensormapAcquire;
  };
  bool Found = false;
  for (const Stmt *S : Nodes.Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      Found = llvm::any_of(OpsFinder->opsOf(*Asm), IsAcquire);
    } else {
      const auto *Call = cast<CallExpr>(S);
      if (std::optional<DeviceOp> Op = OpsFinder->opOf(*Call)) {
        Found = IsAcquire(*Op);
      } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Found = mayFence(*Callee, SM, Depth + 1);
      } else {
        // A call through a pointer in user code may reach anything; the
        // library's own (CCCL's atomics) reach the library.
        Found = !Call->getType()->isDependentType() &&
                !SM.isInSystemHeader(SM.getFileLoc(Call->getBeginLoc()));
      }
    }
    if (Found)
      break;
  }
  return Fenced[Def] = Found;
}

/// True when \p VD is a `__device__` variable (global memory) that holds a
/// map.
static bool isGlobalMemoryMap(const VarDecl &VD) {
  return VD.hasGlobalStorage() && VD.hasAttr<CUDADeviceAttr>() &&
         !VD.hasAttr<CUDAConstantAttr>() && !VD.hasAttr<CUDASharedAttr>() &&
         holdsMap(VD.getType());
}

void TensorMapPlacementCheck::checkGlobalMaps(const FunctionDecl &Kernel,
                                              ASTContext &Ctx,
                                              const SourceManager &SM) {
  // The maps in global memory the kernel reads: pointer parameters and
  // __device__ variables it names.
  llvm::SmallVector<std::pair<const VarDecl *, Ref>, 4> Maps;
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (P->getIdentifier() && T->isPointerType() &&
        holdsMap(T->getPointeeType()))
      Maps.push_back({P, Ref::AddressVar});
  }
  const BodyNodes &Nodes = bodies().of(Kernel.getBody(), PlacementBodies::Scope::All);
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  for (const DeclRefExpr *DRE : Nodes.Refs)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && isGlobalMemoryMap(*VD) && Seen.insert(VD).second)
      Maps.push_back({VD, Ref::Object});
  if (Maps.empty())
    return;
  if (!OpsFinder)
    OpsFinder = DeviceOpsFinder::forTranslationUnit(Ctx);

  // Only a tensor copy or prefetch reads the map through the tensormap
  // proxy (prefetch.tensormap is a hint; tensormap.replace writes).
  auto IsTensorCopy = [&](const Stmt *S) {
    auto Is = [](const DeviceOp &Op) {
      return std::holds_alternative<TensorCopy>(Op);
    };
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      return llvm::any_of(OpsFinder->opsOf(*Asm), Is);
    std::optional<DeviceOp> Op = OpsFinder->opOf(*cast<CallExpr>(S));
    return Op && Is(*Op);
  };
  for (auto [Var, Kind] : Maps) {
    auto Path =
        AddressFlow(Ctx, *Folder, bodies(), CallDepth).follow(Kernel, *Var, Kind, 0);
    if (Path.empty() || !IsTensorCopy(Path.back()) || mayFence(Kernel, SM, 0))
      continue;
    // A parameter is reported once; a __device__ map once per kernel use.
    SourceLocation Loc =
        SM.getFileLoc(isa<ParmVarDecl>(Var) ? Var->getLocation()
                                            : Path.front()->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        !Rules.allows("TMAP-PLACE-GLOBAL-FENCE") ||
        !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "tensor map %0 is read from global memory by a TMA operation, "
              "but %1 executes no fence.proxy.tensormap::generic.acquire "
              "before it: TMA may use a stale copy of the map "
              "(TMAP-PLACE-GLOBAL-FENCE)")
        << Var << &Kernel;
    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    if (First != Loc)
      diag(First,
           Path.size() == 1
               ? "the address of %0 reaches a TMA operation here"
               : "the address of %0 is passed on here and reaches a TMA "
                 "operation",
           DiagnosticIDs::Note)
          << Var;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
    diag(SM.getFileLoc(Kernel.getLocation()),
         "in one thread of each block, before the first use: "
         "cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, "
         "cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then "
         "__syncthreads(); or pass the map as 'const __grid_constant__ "
         "CUtensorMap'",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::tma
