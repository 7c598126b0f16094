//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h" // parent-map guard
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace clang::tidy::tma {

void refsTo(const Stmt *S, const VarDecl *VD,
            llvm::SmallVectorImpl<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == VD)
    Out.push_back(D);
  for (const Stmt *C : S->children())
    refsTo(C, VD, Out);
}

const Stmt *parentThroughParens(const ParentMap &PM, const Stmt *S,
                                const Stmt *&Child) {
  Child = S;
  const Stmt *P = PM.getParent(S);
  while (isa_and_nonnull<ParenExpr>(P)) {
    Child = P;
    P = PM.getParent(P);
  }
  return P;
}

/// The argument of a call to std::forward or std::move, which forwarding
/// wrappers put around every operand.
const Expr *forwardedArgument(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParens());
  if (!Call || Call->getNumArgs() != 1)
    return nullptr;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() ||
      (FD->getName() != "forward" && FD->getName() != "move"))
    return nullptr;
  return Call->getArg(0);
}

/// The parent of \p N within the function body \p PM was built for (a
/// per-body map: the TU-wide parent map costs a traversal of everything).
DynTypedNode parentOf(const ParentMap &PM, const DynTypedNode &N) {
  const auto *S = N.get<Stmt>();
  const Stmt *P = S ? PM.getParent(const_cast<Stmt *>(S)) : nullptr;
  return P ? DynTypedNode::create(*P) : DynTypedNode();
}

/// The statements from \p S up to (and including) \p Body.
llvm::SmallVector<const Stmt *, 16> ancestors(const ParentMap &PM,
                                              const Stmt *S, const Stmt *Body) {
  llvm::SmallVector<const Stmt *, 16> Chain;
  DynTypedNode N = DynTypedNode::create(*S);
  for (unsigned Steps = 0; Steps < 256 && !N.getNodeKind().isNone(); ++Steps) {
    if (const auto *St = N.get<Stmt>()) {
      Chain.push_back(St);
      if (St == Body)
        break;
    }
    N = parentOf(PM, N);
  }
  return Chain;
}

/// Whether the statement \p Write runs before \p UseSite on every path that
/// reaches it (straight-line code in a common block), maybe before it
/// (branches, loops, lambdas), or only after it.
/// Whether \p S contains a break or continue (not counting nested loops and
/// switches, whose own break and continue stay inside them).
static bool hasBreakOrContinue(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (Child &&
        !isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(Child) &&
        hasBreakOrContinue(Child))
      return true;
  return false;
}

/// `do { ... } while (0)`, the body of error-checking macros: it runs its
/// body once, straight through when nothing in it breaks out.
static bool isDoOnce(const Stmt *S) {
  const auto *Do = dyn_cast<DoStmt>(S);
  if (!Do)
    return false;
  const auto *Cond =
      dyn_cast<IntegerLiteral>(Do->getCond()->IgnoreParenImpCasts());
  const auto *False =
      dyn_cast<CXXBoolLiteralExpr>(Do->getCond()->IgnoreParenImpCasts());
  return ((Cond && Cond->getValue() == 0) || (False && !False->getValue())) &&
         !hasBreakOrContinue(Do->getBody());
}

/// Whether \p Parent runs its child \p Child whenever it runs: a block, a
/// do-once, or an `if` entered through its condition.
static bool runsStraightInto(const Stmt *Parent, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(Parent);
      If && (Child == If->getCond() || Child == If->getInit()))
    return true;
  return isa<CompoundStmt>(Parent) || isDoOnce(Parent);
}

/// Whether the statement \p Chain[From] runs \p Chain[0] whenever it runs:
/// every statement between them runs its child straight through.
static bool runsInto(llvm::ArrayRef<const Stmt *> Chain, size_t From) {
  for (size_t I = 1; I <= From; ++I)
    if (!runsStraightInto(Chain[I], Chain[I - 1]))
      return false;
  return true;
}

unsigned BlockPositions::of(const CompoundStmt *Block, const Stmt *Child) {
  auto [It, New] = Positions.try_emplace(Block);
  if (New) {
    unsigned I = 0;
    for (const Stmt *S : Block->body())
      It->second.try_emplace(S, I++);
  }
  return It->second.lookup(Child);
}

Order orderOf(const ParentMap &PM, const Stmt *Write, const Stmt *UseSite,
              const Stmt *Body, BlockPositions *Positions) {
  auto UseChain = ancestors(PM, UseSite, Body);
  auto WriteChain = ancestors(PM, Write, Body);
  for (size_t U = 1; U < UseChain.size(); ++U) {
    const auto *Block = dyn_cast<CompoundStmt>(UseChain[U]);
    if (!Block)
      continue;
    const auto *InWrite = llvm::find(WriteChain, Block);
    if (InWrite == WriteChain.end())
      continue;
    if (InWrite == WriteChain.begin())
      return Order::MaybeBefore;
    const Stmt *UseChild = UseChain[U - 1];
    const Stmt *WriteChild = *(InWrite - 1);
    if (UseChild == WriteChild)
      return Order::MaybeBefore;
    if (Positions) {
      if (Positions->of(Block, WriteChild) < Positions->of(Block, UseChild))
        return runsInto(WriteChain, InWrite - WriteChain.begin() - 1)
                   ? Order::Before
                   : Order::MaybeBefore;
    } else
      for (const Stmt *Child : Block->body()) {
        if (Child == WriteChild)
          return runsInto(WriteChain, InWrite - WriteChain.begin() - 1)
                     ? Order::Before
                     : Order::MaybeBefore;
        if (Child == UseChild)
          break;
      }
    // The write follows the use in this block; a loop around the block runs
    // it before the next use.
    for (size_t A = U + 1; A < UseChain.size(); ++A)
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(UseChain[A]))
        return Order::MaybeBefore;
    return Order::After;
  }
  return Order::MaybeBefore;
}

Ancestry::Node *Ancestry::node(const Stmt *S) {
  if (Node *N = Nodes.lookup(S))
    return N;
  // The statements up to the first one with a node (or the root), then
  // their nodes from the top down.
  llvm::SmallVector<const Stmt *, 32> Path;
  Node *Above = nullptr;
  for (const Stmt *X = S; X;
       X = PM.getParent(const_cast<Stmt *>(X))) {
    if ((Above = Nodes.lookup(X)))
      break;
    Path.push_back(X);
  }
  for (const Stmt *X : llvm::reverse(Path)) {
    Node &N = Storage.emplace_back();
    N.S = X;
    N.Parent = Above;
    N.Jump[0] = Above;
    N.Depth = Above ? Above->Depth + 1 : 0;
    Nodes[X] = &N;
    Above = &N;
  }
  return Above;
}

Ancestry::Node *Ancestry::jump(Node *N, unsigned Level) {
  if (N->KnownJumps & (1u << Level))
    return N->Jump[Level];
  Node *Mid = jump(N, Level - 1);
  N->Jump[Level] = Mid ? jump(Mid, Level - 1) : nullptr;
  N->KnownJumps |= 1u << Level;
  return N->Jump[Level];
}

Ancestry::Node *Ancestry::up(Node *N, unsigned K) {
  assert(K < MaxChain && "beyond the chains' budget");
  for (unsigned Level = 0; N && K; ++Level, K >>= 1)
    if (K & 1)
      N = jump(N, Level);
  return N;
}

Ancestry::Node *Ancestry::upFar(Node *N, unsigned K) {
  for (; N && K >= MaxChain; K -= MaxChain - 1)
    N = up(N, MaxChain - 1);
  return N ? up(N, K) : nullptr;
}

std::optional<unsigned> Ancestry::edgesUpTo(const Stmt *S, const Stmt *A) {
  Node *N = node(S), *NA = node(A);
  if (NA->Depth > N->Depth || upFar(N, N->Depth - NA->Depth) != NA)
    return std::nullopt;
  return N->Depth - NA->Depth;
}

const Stmt *Ancestry::ancestorOf(const Stmt *S, unsigned K) {
  Node *N = upFar(node(S), K);
  return N ? N->S : nullptr;
}

unsigned Ancestry::chainEdges(Node *N, const Stmt *Body) {
  // ancestors() stops at Body, at the root, or at MaxChain statements.
  Node *B = node(Body);
  if (B->Depth <= N->Depth && N->Depth - B->Depth < MaxChain &&
      up(N, N->Depth - B->Depth) == B)
    return N->Depth - B->Depth;
  return std::min(N->Depth, MaxChain - 1);
}

bool Ancestry::inChain(const Stmt *S, const Stmt *A, const Stmt *Body) {
  Node *N = node(S), *NA = node(A);
  return NA->Depth <= N->Depth &&
         N->Depth - NA->Depth <= chainEdges(N, Body) &&
         up(N, N->Depth - NA->Depth) == NA;
}

const Stmt *Ancestry::topOf(const Stmt *S, const Stmt *Body) {
  Node *N = node(S), *B = node(Body);
  if (B->Depth >= N->Depth || N->Depth - B->Depth >= MaxChain)
    return nullptr;
  Node *Top = up(N, N->Depth - B->Depth - 1);
  return Top->Parent == B ? Top->S : nullptr;
}

Ancestry::Node *Ancestry::commonAncestor(Node *A, Node *B) {
  if (A->Depth >= B->Depth + MaxChain || B->Depth >= A->Depth + MaxChain)
    return nullptr;
  unsigned Depth = std::min(A->Depth, B->Depth);
  A = up(A, A->Depth - Depth);
  B = up(B, B->Depth - Depth);
  if (A == B)
    return A;
  for (unsigned Level = Levels; Level-- > 0;)
    if (Node *JA = jump(A, Level), *JB = jump(B, Level); JA != JB) {
      A = JA;
      B = JB;
    }
  // A and B are the children of the common ancestor when it lies within
  // reach; otherwise their parents differ (or both are roots).
  return A->Parent == B->Parent ? A->Parent : nullptr;
}

/// The first node that \p Hit names walking up from \p N (Hit(X): the
/// node found at X, or null to go on), memoised in the members \p Have and
/// \p Memo of every node walked.
template <class Node, class HitFn>
static Node *memoisedUp(Node *N, bool Node::*Have, Node *Node::*Memo,
                        HitFn Hit) {
  llvm::SmallVector<Node *, 32> Path;
  Node *Found = nullptr;
  for (Node *X = N; X; X = X->Parent) {
    if (X->*Have) {
      Found = X->*Memo;
      break;
    }
    Path.push_back(X);
    if ((Found = Hit(X)))
      break;
  }
  for (Node *X : Path) {
    X->*Have = true;
    X->*Memo = Found;
  }
  return Found;
}

Ancestry::Node *Ancestry::nearestBlock(Node *N) {
  return memoisedUp(N, &Node::HaveBlock, &Node::Block, [](Node *X) {
    return isa<CompoundStmt>(X->S) ? X : nullptr;
  });
}

Ancestry::Node *Ancestry::nearestLoop(Node *N) {
  return memoisedUp(N, &Node::HaveLoop, &Node::Loop, [](Node *X) {
    return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(X->S) ? X
                                                                   : nullptr;
  });
}

Ancestry::Node *Ancestry::nearestStop(Node *N) {
  return memoisedUp(N, &Node::HaveStop, &Node::Stop, [](Node *X) {
    return X->Parent && !runsStraightInto(X->Parent->S, X->S) ? X->Parent
                                                              : nullptr;
  });
}

Order Ancestry::orderOf(const Stmt *Write, const Stmt *UseSite,
                        const Stmt *Body, BlockPositions &Positions) {
  // The first block of the use's chain (past the use itself) that the
  // write's chain holds is the nearest block at or above their lowest
  // common ancestor, when both chains reach it.
  Node *U = node(UseSite), *W = node(Write);
  Node *Common = commonAncestor(U, W);
  if (!Common)
    return Order::MaybeBefore;
  Node *From = Common == U ? U->Parent : Common;
  Node *B = From ? nearestBlock(From) : nullptr;
  if (!B || U->Depth - B->Depth > chainEdges(U, Body) ||
      W->Depth - B->Depth > chainEdges(W, Body) || B == W)
    return Order::MaybeBefore;
  Node *UseChild = up(U, U->Depth - B->Depth - 1);
  Node *WriteChild = up(W, W->Depth - B->Depth - 1);
  if (UseChild == WriteChild)
    return Order::MaybeBefore;
  const auto *Block = cast<CompoundStmt>(B->S);
  if (Positions.of(Block, WriteChild->S) < Positions.of(Block, UseChild->S)) {
    Node *Stop = nearestStop(W);
    return !Stop || Stop->Depth < WriteChild->Depth ? Order::Before
                                                    : Order::MaybeBefore;
  }
  // The write follows the use in this block; a loop around the block (in
  // the use's chain) runs it before the next use.
  Node *Loop = B->Parent ? nearestLoop(B->Parent) : nullptr;
  if (Loop && U->Depth - Loop->Depth <= chainEdges(U, Body))
    return Order::MaybeBefore;
  return Order::After;
}

/// The type of the parameter that argument \p Arg of \p Call binds to, or a
/// null type when unknown (variadic, no prototype).
static QualType parameterTypeFor(const Expr *Call, const Expr *Arg) {
  const FunctionDecl *FD = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  unsigned Offset = 0;
  if (const auto *CE = dyn_cast<CallExpr>(Call)) {
    FD = CE->getDirectCallee();
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
    // A member operator call passes the object as argument 0.
    if (isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD))
      Offset = 1;
    if (!FD) {
      QualType T = CE->getCallee()->getType();
      if (T->isPointerType())
        T = T->getPointeeType();
      const auto *Proto = T->getAs<FunctionProtoType>();
      auto It = llvm::find(Args, Arg);
      if (!Proto || It == Args.end() ||
          static_cast<unsigned>(It - Args.begin()) >= Proto->getNumParams())
        return QualType();
      return Proto->getParamType(It - Args.begin());
    }
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call)) {
    FD = Construct->getConstructor();
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  auto It = llvm::find(Args, Arg);
  if (!FD || It == Args.end())
    return QualType();
  unsigned Index = It - Args.begin();
  if (Index < Offset) // The object of a member operator.
    return QualType();
  Index -= Offset;
  return Index < FD->getNumParams() ? FD->getParamDecl(Index)->getType()
                                    : QualType();
}

/// True for a pointer-to-const type.
bool isPointerToConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// Whether the use \p DRE may write the variable (or, through its address,
/// its elements or fields). Reads are loads, copies, const references,
/// pointers to const and unevaluated operands; anything else counts as a
/// write. Cheap: one walk up the per-body parent map.
bool mayWrite(const ParentMap &PM, const DeclRefExpr *DRE) {
  return mayWriteExpr(PM, DRE);
}

bool mayWriteExpr(const ParentMap &PM, const Expr *E) {
  bool Address = false; // E is the address of the variable or of a part.
  for (unsigned Steps = 0; Steps < 512; ++Steps) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(E));
    if (!P || isa<UnaryExprOrTypeTraitExpr, LambdaExpr, InitListExpr>(P))
      return false;
    if (const auto *Cast = dyn_cast<CastExpr>(P)) {
      if (Cast->getCastKind() == CK_LValueToRValue && !Address)
        return false;
      if (Cast->getCastKind() == CK_ArrayToPointerDecay)
        Address = true;
      if (Address && isPointerToConst(Cast->getType()))
        return false;
      if (!Address && isa<ExplicitCastExpr>(Cast) &&
          !Cast->getType()->isReferenceType())
        return false; // A cast of the value is a read.
      E = Cast;
      continue;
    }
    if (isa<ParenExpr>(P)) {
      E = cast<Expr>(P);
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (ME->getBase() != E || ME->isArrow())
        return true;
      if (const auto *Method = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
        return !Method->isConst();
      E = ME; // A field: its own uses decide.
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P)) {
      if (ASE->getBase() != E)
        return false; // Used as an index.
      Address = false;
      E = ASE;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      if (UO->getOpcode() != UO_AddrOf)
        return UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref;
      Address = true;
      E = UO;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->getLHS() == E && (BO->isAssignmentOp() || Address);
    if (isa<CallExpr, CXXConstructExpr>(P)) {
      const auto *Call = cast<Expr>(P);
      if (const auto *CE = dyn_cast<CallExpr>(Call);
          CE && forwardedArgument(CE) == E) {
        E = CE; // std::forward / std::move hand the object on.
        continue;
      }
      QualType T = parameterTypeFor(Call, E);
      if (T.isNull())
        return true;
      if (T->isReferenceType())
        return !T->getPointeeType().isConstQualified();
      if (Address)
        return !isPointerToConst(T);
      return false; // Passed by value: a copy.
    }
    if (const auto *Decls = dyn_cast<DeclStmt>(P)) {
      // The initialiser of another variable: a copy, unless it binds a
      // reference or keeps the address in a pointer to non-const.
      for (const Decl *D : Decls->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() == E) {
          QualType T = VD->getType();
          if (T->isReferenceType())
            return !T->getPointeeType().isConstQualified();
          return Address && !isPointerToConst(T);
        }
      return true;
    }
    if (isa<ReturnStmt>(P))
      return Address;
    // An asm input is read (GCC: input-only operands are not modified),
    // unless it is an address the asm may store through. The host pass
    // keeps an input whose constraint the host target does not know ("h")
    // an lvalue without a load: it reads as much as the device pass's.
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(P))
      return Address || llvm::none_of(Asm->inputs(), [&](const Expr *In) {
               return In == E;
             });
    return true;
  }
  return true;
}

/// Skips parentheses and the casts that keep an expression's identity.
static DynTypedNode skipTransparentParents(const ParentMap &PM,
                                           const Expr *&E) {
  DynTypedNode P = parentOf(PM, DynTypedNode::create(*E));
  while (const auto *PE = P.get<Expr>()) {
    const auto *Cast = dyn_cast<ImplicitCastExpr>(PE);
    bool Transparent =
        isa<ParenExpr>(PE) ||
        (Cast && (Cast->getCastKind() == CK_ArrayToPointerDecay ||
                  Cast->getCastKind() == CK_NoOp));
    if (!Transparent)
      break;
    E = PE;
    P = parentOf(PM, P);
  }
  return P;
}

/// Classifies the use \p DRE of a local array (C array or std::array).
ArrayUse classifyArrayUse(const ParentMap &PM, const DeclRefExpr *DRE) {
  const Expr *E = DRE;
  DynTypedNode P = skipTransparentParents(PM, E);

  // std::array: `a.data()` is a pointer, `a[k]` an element.
  if (const auto *ME = P.get<MemberExpr>()) {
    DynTypedNode Call = parentOf(PM, P);
    const auto *MCE = Call.get<CXXMemberCallExpr>();
    if (!MCE || ME->getMemberDecl()->getName() != "data" ||
        !ME->getMemberDecl()->isFunctionOrFunctionTemplate())
      return {ArrayUse::Escape, DRE};
    E = MCE;
    P = skipTransparentParents(PM, E);
  }

  const Expr *Base = nullptr, *Index = nullptr, *Element = nullptr;
  if (const auto *ASE = P.get<ArraySubscriptExpr>()) {
    Base = ASE->getBase();
    Index = ASE->getIdx();
    Element = ASE;
  } else if (const auto *OCE = P.get<CXXOperatorCallExpr>();
             OCE && OCE->getOperator() == OO_Subscript &&
             OCE->getNumArgs() == 2) {
    Base = OCE->getArg(0);
    Index = OCE->getArg(1);
    Element = OCE;
  }
  if (Element && Base->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
    const Expr *El = Element;
    DynTypedNode EP = skipTransparentParents(PM, El);
    if (const auto *Cast = EP.get<ImplicitCastExpr>();
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      return {ArrayUse::Read, DRE};
    if (const auto *BO = EP.get<BinaryOperator>();
        BO && BO->getOpcode() == BO_Assign &&
        BO->getLHS()->IgnoreParens() == El->IgnoreParens())
      return {ArrayUse::Store, BO, Index, BO->getRHS()};
    if (EP.get<UnaryExprOrTypeTraitExpr>())
      return {ArrayUse::Read, DRE};
    const auto *AddrOf = EP.get<UnaryOperator>();
    if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
      return {ArrayUse::ElementWrite, Element, Index};
    // `&arr[k]` is a pointer into the array: classified below.
    E = AddrOf;
    P = parentOf(PM, EP);
  }

  // std::forward and std::move hand the same object on.
  while (const auto *Call = P.get<CallExpr>()) {
    const Expr *Arg = forwardedArgument(Call);
    if (!Arg || Arg->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
      break;
    E = Call;
    P = skipTransparentParents(PM, E);
  }

  // Unevaluated operands (sizeof, decltype) read nothing at run time.
  if (!Element && P.get<UnaryExprOrTypeTraitExpr>())
    return {ArrayUse::Read, DRE};

  // A pointer that can only be read through: pointer-to-const after the
  // implicit conversions (this covers the encode call's own arguments).
  const Expr *Ptr = E;
  for (;;) {
    if (const auto *Cast = P.get<CastExpr>();
        Cast && Cast->getType()->isPointerType()) {
      Ptr = Cast;
      P = parentOf(PM, P);
      continue;
    }
    if (const auto *BO = P.get<BinaryOperator>();
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getType()->isPointerType()) {
      Ptr = BO;
      P = parentOf(PM, P);
      continue;
    }
    if (const auto *Paren = P.get<ParenExpr>()) {
      Ptr = Paren;
      P = parentOf(PM, P);
      continue;
    }
    break;
  }
  QualType T = Ptr->getType();
  if (T->isPointerType() && T->getPointeeType().isConstQualified())
    return {ArrayUse::Read, DRE};
  return {ArrayUse::Escape, DRE};
}

/// Whether a reference to \p Var in \p S may write it.
static bool writesVar(const ParentMap &PM, const Stmt *S, const VarDecl *Var) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
      DRE && DRE->getDecl() == Var && mayWrite(PM, DRE))
    return true;
  for (const Stmt *Child : S->children())
    if (writesVar(PM, Child, Var))
      return true;
  return false;
}

/// The loop variable of `for (T I = A; I < B; ++I)` (also <=, !=, I++,
/// I += 1), when the body does not write it.
const VarDecl *countedLoopVar(const ForStmt *Loop, const ParentMap &PM) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl())
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Var || !Var->getInit() || !Var->getType()->isIntegerType())
    return nullptr;
  auto IsVar = [Var](const Expr *E) {
    const auto *DRE =
        E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    return DRE && DRE->getDecl() == Var;
  };
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
  if (!Cond || !IsVar(Cond->getLHS()) ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE &&
       Cond->getOpcode() != BO_NE))
    return nullptr;
  const Expr *Inc = Loop->getInc();
  bool Step = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    Step = UO->isIncrementOp() && IsVar(UO->getSubExpr());
  else if (const auto *CAO = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    Step = CAO->getOpcode() == BO_AddAssign && IsVar(CAO->getLHS()) &&
           isa<IntegerLiteral>(CAO->getRHS()->IgnoreParenImpCasts()) &&
           cast<IntegerLiteral>(CAO->getRHS()->IgnoreParenImpCasts())
                   ->getValue() == 1;
  // One walk of the body up its parent map (ExprMutationAnalyzer would
  // build the TU-wide parent map).
  if (!Step || writesVar(PM, Loop->getBody(), Var))
    return nullptr;
  return Var;
}

namespace {
/// ParentMapContext keeps its map in a private member and says nowhere
/// whether it has been built. An explicit instantiation may name a private
/// member ([temp.spec.general]); this one hands out a pointer to it.
using ParentsMember =
    std::unique_ptr<ParentMapContext::ParentMap> ParentMapContext::*;
ParentsMember parentsMember();
template <ParentsMember M> struct ParentsAccess {
  friend ParentsMember parentsMember() { return M; }
};
template struct ParentsAccess<&ParentMapContext::Parents>;
} // namespace

bool tuParentMapBuilt(ASTContext &Ctx) {
  return static_cast<bool>(Ctx.getParentMapContext() // parent-map guard
                               .*parentsMember());
}

void checkNoTuParentMap(ASTContext &Ctx) {
  const char *Mode = std::getenv("TMA_TIDY_ASSERT_NO_PARENT_MAP");
  if (!Mode || !*Mode || std::strcmp(Mode, "0") == 0)
    return;
  if (std::strcmp(Mode, "selftest") == 0)
    (void)Ctx.getParents(*Ctx.getTranslationUnitDecl()); // parent-map guard
  if (tuParentMapBuilt(Ctx))
    llvm::report_fatal_error(
        "tma-tidy built the TU-wide parent map (ASTContext::getParents, a "
        "hasAncestor/hasParent matcher or ExprMutationAnalyzer): use the "
        "folder's per-body parentsOf instead",
        /*GenCrashDiag=*/false);
}

} // namespace clang::tidy::tma
