//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/BarrierPhases.h"
#include "api/DeviceOpsFinder.h"
#include "api/LoopParts.h"
#include "folding/ConstantFolder.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <functional>

namespace clang::tidy::tma {

namespace {
/// One step from the root to the barrier: a field (arrow or dot) or an index.
struct Step {
  const FieldDecl *Field = nullptr;
  bool Arrow = false;
  const Expr *Index = nullptr;
};

/// The root variable of \p Object and the steps to it, root first; null
/// when the chain does not end at a variable. Clears \p Solid when the chain
/// follows a pointer.
const VarDecl *rootOf(const Expr *Object, llvm::SmallVectorImpl<Step> &Steps,
                      bool &Solid) {
  const Expr *Cur = Object;
  while (true) {
    Cur = Cur->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Cur)) {
      // An index into a pointer rather than into an array.
      if (!A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        Solid = false;
      Steps.push_back({nullptr, false, A->getIdx()});
      Cur = A->getBase();
      continue;
    }
    if (const auto *M = dyn_cast<MemberExpr>(Cur)) {
      const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!FD)
        return nullptr;
      if (M->isArrow())
        Solid = false;
      Steps.push_back({FD, M->isArrow(), nullptr});
      Cur = M->getBase();
      continue;
    }
    break;
  }
  std::reverse(Steps.begin(), Steps.end());
  const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

void profileKey(BarrierIdentity &Id, llvm::ArrayRef<Step> Steps,
                const ASTContext &Ctx) {
  // An index that folds is profiled by its value (`bar[Second]` and
  // `bar[1]` are one barrier), any other by its spelling.
  llvm::SmallVector<std::pair<const void *, int64_t>, 2> Path;
  bool Constant = true;
  Id.Key.AddPointer(Id.Root->getCanonicalDecl());
  for (const Step &S : Steps) {
    if (S.Field) {
      Id.Key.AddInteger(1);
      Id.Key.AddPointer(S.Field->getCanonicalDecl());
      Id.Key.AddBoolean(S.Arrow);
      Path.push_back({S.Field->getCanonicalDecl(), S.Arrow});
      continue;
    }
    Expr::EvalResult R;
    if (!S.Index->isValueDependent() && S.Index->EvaluateAsInt(R, Ctx) &&
        R.Val.isInt()) {
      Id.Key.AddInteger(3);
      Id.Key.AddInteger(R.Val.getInt().getExtValue());
      Path.push_back({nullptr, R.Val.getInt().getExtValue()});
    } else {
      Id.Key.AddInteger(2);
      S.Index->IgnoreParenImpCasts()->Profile(Id.Key, Ctx, /*Canonical=*/true);
      Constant = false;
    }
  }
  Id.Key.AddBoolean(Id.ThroughPointer);
  if (Constant)
    Id.ConstantPath = std::move(Path);
}

/// Whether the steps from the root read a pointer stored in it: an arrow
/// below the root, or the barrier's pointer taken from a part of it.
bool readsPointer(const BarrierIdentity &Id, llvm::ArrayRef<Step> Steps) {
  for (size_t I = 1; I < Steps.size(); ++I)
    if (Steps[I].Arrow)
      return true;
  return Id.ThroughPointer && !Steps.empty();
}

bool isSolidRoot(const VarDecl *VD) {
  QualType T = VD->getType();
  return !T->isPointerType() && !T->isReferenceType() &&
         VD->isLocalVarDeclOrParm();
}
} // namespace

std::optional<BarrierIdentity> barrierIdentity(const Expr *E,
                                               const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  BarrierIdentity Id;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf) {
    Id.Object = U->getSubExpr()->IgnoreParenImpCasts();
  } else if (E->getType()->isPointerType()) {
    Id.Object = E;
    Id.ThroughPointer = true;
  } else {
    Id.Object = E;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Id.Object);
      U && U->getOpcode() == UO_Deref && !Id.ThroughPointer) {
    Id.Object = U->getSubExpr()->IgnoreParenImpCasts();
    Id.ThroughPointer = true;
  }

  // Down to the root variable; solid while no pointer is followed.
  bool Solid = !Id.ThroughPointer;
  llvm::SmallVector<Step, 4> Steps;
  const VarDecl *VD = rootOf(Id.Object, Steps, Solid);
  if (!VD)
    return std::nullopt;
  Id.Root = VD;
  Id.Solid = Solid && isSolidRoot(VD);
  Id.ReadsPointer = readsPointer(Id, Steps);
  profileKey(Id, Steps, Ctx);
  return Id;
}

bool thisFieldPath(const Expr *E,
                   llvm::SmallVectorImpl<const FieldDecl *> &Path,
                   bool PointerFields) {
  const Expr *Cur = E;
  while (true) {
    Cur = Cur->IgnoreParenImpCasts();
    const auto *M = dyn_cast<MemberExpr>(Cur);
    if (!M)
      break;
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD)
      return false;
    Path.push_back(FD);
    // Only the first step from `this` may be an arrow (or, with
    // PointerFields, a step from a pointer field: `this->bar->b`).
    const Expr *Base = M->getBase()->IgnoreParenImpCasts();
    if (M->isArrow() && !isa<CXXThisExpr>(Base) &&
        !(PointerFields && isa<MemberExpr>(Base)))
      return false;
    Cur = Base;
  }
  std::reverse(Path.begin(), Path.end());
  return isa<CXXThisExpr>(Cur) && !Path.empty();
}

std::optional<BarrierIdentity>
memberBarrierIdentity(const Expr *Object,
                      llvm::ArrayRef<const FieldDecl *> Path,
                      const ASTContext &Ctx, bool Pointer) {
  if (!Object || Path.empty())
    return std::nullopt;
  BarrierIdentity Id;
  Id.Object = Object->IgnoreParenImpCasts();
  // `p->expect(n)`: the object is *p.
  bool Arrow = Id.Object->getType()->isPointerType();
  if (const auto *U = dyn_cast<UnaryOperator>(Id.Object);
      U && U->getOpcode() == UO_Deref) {
    Id.Object = U->getSubExpr()->IgnoreParenImpCasts();
    Arrow = true;
  }
  bool Solid = !Arrow;
  llvm::SmallVector<Step, 4> Steps;
  const VarDecl *VD = rootOf(Id.Object, Steps, Solid);
  if (!VD)
    return std::nullopt;
  for (const FieldDecl *FD : Path) {
    Steps.push_back({FD, Arrow, nullptr});
    Id.Member += (Arrow ? "->" : ".") + FD->getNameAsString();
    Arrow = FD->getType()->isPointerType();
    Solid &= !Arrow;
  }
  Id.ThroughPointer = Pointer;
  Id.Root = VD;
  Id.Solid = Solid && !Pointer && isSolidRoot(VD);
  Id.ReadsPointer = readsPointer(Id, Steps);
  profileKey(Id, Steps, Ctx);
  return Id;
}

bool mayAlias(const BarrierIdentity &A, const BarrierIdentity &B) {
  if (A.WindowOffset && B.WindowOffset && A.WindowFamily == B.WindowFamily)
    return *A.WindowOffset == *B.WindowOffset;
  // Different constant elements or fields of one object (`bar[0]`,
  // `bar[1]`); a path of another length (`bar` against `bar[0]`) may still
  // name the same barrier.
  if (A.Solid && B.Solid && A.Root == B.Root && A.ConstantPath &&
      B.ConstantPath && A.ConstantPath->size() == B.ConstantPath->size() &&
      A.ThroughPointer == B.ThroughPointer)
    return *A.ConstantPath == *B.ConstantPath;
  return !A.Solid || !B.Solid || A.Root == B.Root;
}

std::optional<unsigned>
BarrierIndex::groupOf(const BarrierIdentity &Id) const {
  auto It = GroupsByHash.find(Id.Key.ComputeHash());
  if (It != GroupsByHash.end())
    for (unsigned G : It->second)
      if (Groups[G].Id->Key == Id.Key)
        return G;
  return std::nullopt;
}

/// The shape of a constant path: its length and ThroughPointer.
static unsigned shapeOf(const BarrierIdentity &Id) {
  return 2 * Id.ConstantPath->size() + Id.ThroughPointer;
}

void BarrierIndex::add(unsigned Item, const BarrierIdentity &Id) {
  const unsigned At = Entries.size();
  Entries.push_back({Item, &Id});
  if (std::optional<unsigned> G = groupOf(Id)) {
    Groups[*G].Items.push_back(Item);
  } else {
    GroupsByHash[Id.Key.ComputeHash()].push_back(Groups.size());
    Groups.push_back({&Id, {Item}});
  }
  if (!Id.Solid) {
    NotSolid.push_back(At);
    return;
  }
  Root &R = Solid[Id.Root];
  if (Id.ConstantPath)
    R.Constant[shapeOf(Id)].push_back(At);
  else
    R.Other.push_back(At);
}

llvm::ArrayRef<unsigned>
BarrierIndex::sameKey(const BarrierIdentity &Id) const {
  std::optional<unsigned> G = groupOf(Id);
  return G ? llvm::ArrayRef<unsigned>(Groups[*G].Items)
           : llvm::ArrayRef<unsigned>();
}

bool BarrierIndex::anyAlias(const BarrierIdentity &Id,
                            llvm::function_ref<bool(unsigned)> F) const {
  auto Try = [&](unsigned At) {
    const Entry &E = Entries[At];
    return E.Id->Key != Id.Key && mayAlias(*E.Id, Id) && F(E.Item);
  };
  // Anything may alias an identity that is not solid (but another window
  // offset of its family, which mayAlias tells).
  if (!Id.Solid) {
    for (unsigned At = 0; At < Entries.size(); ++At)
      if (Try(At))
        return true;
    return false;
  }
  // A solid one: those that are not solid, and the solid ones of its root
  // (two solid roots never alias); of those, a constant path of its own
  // length and pointer-ness aliases exactly when it is the same path, that
  // is, the same key.
  if (llvm::any_of(NotSolid, Try))
    return true;
  auto It = Solid.find(Id.Root);
  if (It == Solid.end())
    return false;
  if (llvm::any_of(It->second.Other, Try))
    return true;
  std::optional<unsigned> Own;
  if (Id.ConstantPath)
    Own = shapeOf(Id);
  for (const auto &[Shape, Positions] : It->second.Constant)
    if (Own != Shape && llvm::any_of(Positions, Try))
      return true;
  return false;
}

bool blocksUntilComplete(const Wait &W) {
  const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(W.Site);
  const auto *Text =
      Asm ? dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr()) : nullptr;
  if (!Text || !Text->isOrdinary())
    return false;
  StringRef S = Text->getString();
  size_t At = S.find("mbarrier.try_wait");
  if (At == StringRef::npos)
    At = S.find("mbarrier.test_wait");
  if (At == StringRef::npos || S.find("mbarrier.", At + 1) != StringRef::npos)
    return false;
  // A label `L:` before the wait, and an unpredicated `bra L;` (or
  // `bra.uni L;`) after it that starts a line: the wait loops until done.
  StringRef Before = S.take_front(At);
  size_t Colon = Before.rfind(':');
  if (Colon == StringRef::npos)
    return false;
  size_t Start = Before.find_last_of(" \t\n{;", Colon);
  StringRef Label = Before.slice(Start == StringRef::npos ? 0 : Start + 1,
                                 Colon)
                        .trim();
  if (Label.empty() || !llvm::all_of(Label, [](char C) {
        return isAlphanumeric(C) || C == '_' || C == '$';
      }))
    return false;
  llvm::SmallVector<StringRef, 8> Lines;
  S.drop_front(At).split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.trim().rtrim(";").trim();
    if (!L.consume_front("bra"))
      continue;
    L.consume_front(".uni");
    if (L.trim() == Label)
      return true;
  }
  return false;
}

namespace {
/// \p E without parentheses, implicit casts and explicit integer casts.
const Expr *bare(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *C = dyn_cast<ExplicitCastExpr>(E);
    if (!C || !C->getType()->isIntegerType())
      break;
    E = C->getSubExpr();
  }
  return E;
}

/// Whether \p S holds an asm statement or a call that may issue ops.
bool mayIssue(const Stmt *S, DeviceOpsFinder &Finder) {
  if (!S)
    return false;
  if (isa<AsmStmt>(S))
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || Finder.opOf(*C) || (FD->hasBody() && Finder.mayIssueOps(FD)))
      return true;
  }
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return mayIssue(C, Finder); });
}

/// Whether \p E (bare) is a read of \p VD.
bool isVar(const Expr *E, const VarDecl *VD) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(bare(E));
  return D && D->getDecl() == VD;
}

bool foldsTo(const Expr *E, int64_t V, ConstantFolder &Folder) {
  auto F = E ? Folder.foldInt(E) : std::nullopt;
  return F && F->Value.getExtValue() == V;
}

/// The flip of \p VD that \p Ref is the target of (`p ^= 1`, `p = p ^ 1`,
/// `p = 1 - p`, `p = !p`), or null.
const Expr *flipOf(const DeclRefExpr *Ref, const VarDecl *VD,
                   const ParentMap &PM, ConstantFolder &Folder) {
  const Stmt *P =
      PM.getParentIgnoreParenImpCasts(const_cast<DeclRefExpr *>(Ref));
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(P))
    return CA->getOpcode() == BO_XorAssign && bare(CA->getLHS()) == Ref &&
                   foldsTo(CA->getRHS(), 1, Folder)
               ? CA
               : nullptr;
  const auto *A = dyn_cast_or_null<BinaryOperator>(P);
  if (!A || A->getOpcode() != BO_Assign || bare(A->getLHS()) != Ref)
    return nullptr;
  const Expr *R = bare(A->getRHS());
  if (const auto *U = dyn_cast<UnaryOperator>(R))
    return U->getOpcode() == UO_LNot && isVar(U->getSubExpr(), VD) ? A
                                                                    : nullptr;
  const auto *B = dyn_cast<BinaryOperator>(R);
  if (!B)
    return nullptr;
  if (B->getOpcode() == BO_Xor &&
      ((isVar(B->getLHS(), VD) && foldsTo(B->getRHS(), 1, Folder)) ||
       (isVar(B->getRHS(), VD) && foldsTo(B->getLHS(), 1, Folder))))
    return A;
  if (B->getOpcode() == BO_Sub && foldsTo(B->getLHS(), 1, Folder) &&
      isVar(B->getRHS(), VD))
    return A;
  return nullptr;
}
} // namespace

bool returnsWaitPredicate(const FunctionDecl *Helper, const Wait &W) {
  const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(W.Site);
  const auto *Text =
      Asm ? dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr()) : nullptr;
  const auto *Body =
      Helper ? dyn_cast_or_null<CompoundStmt>(Helper->getBody()) : nullptr;
  if (!Text || !Text->isOrdinary() || !Body || Body->body_empty())
    return false;
  // The wait's predicate: its first operand.
  StringRef S = Text->getString();
  size_t At = S.find("mbarrier.try_wait");
  if (At == StringRef::npos)
    At = S.find("mbarrier.test_wait");
  if (At == StringRef::npos || S.find("mbarrier.", At + 1) != StringRef::npos)
    return false;
  StringRef Line = S.drop_front(At).split('\n').first;
  size_t Space = Line.find_first_of(" \t");
  if (Space == StringRef::npos)
    return false;
  StringRef Pred = Line.drop_front(Space).split(',').first.trim();
  // `selp.b32 %N, 1, 0, Pred;` after it, the only other instruction that
  // names an output.
  unsigned Out = ~0u;
  llvm::SmallVector<StringRef, 8> Lines;
  S.drop_front(At).split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.trim().rtrim(";").trim();
    if (!L.consume_front("selp."))
      continue;
    L = L.drop_until([](char C) { return C == ' ' || C == '\t'; }).trim();
    llvm::SmallVector<StringRef, 4> Ops;
    L.split(Ops, ',');
    if (Ops.size() != 4 || Ops[1].trim() != "1" || Ops[2].trim() != "0" ||
        Ops[3].trim() != Pred)
      return false;
    StringRef Ref = Ops[0].trim();
    if (!Ref.consume_front("%") || Ref.getAsInteger(10, Out))
      return false;
  }
  if (Out >= Asm->getNumOutputs() || Asm->getNumOutputs() != 1)
    return false;
  const auto *OutRef = dyn_cast<DeclRefExpr>(bare(Asm->getOutputExpr(Out)));
  const auto *VD = OutRef ? dyn_cast<VarDecl>(OutRef->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || VD->getDeclContext() != Helper)
    return false;
  // `return v;` (or `return v != 0;`, a cast of it) last and only, and v
  // referenced nowhere else.
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Ret || !Ret->getRetValue())
    return false;
  const Expr *R = bare(Ret->getRetValue());
  if (const auto *B = dyn_cast<BinaryOperator>(R);
      B && B->getOpcode() == BO_NE && isa<IntegerLiteral>(bare(B->getRHS())) &&
      cast<IntegerLiteral>(bare(B->getRHS()))->getValue() == 0)
    R = bare(B->getLHS());
  if (!isVar(R, VD))
    return false;
  llvm::SmallVector<const DeclRefExpr *, 4> Refs;
  refsTo(Body, VD, Refs);
  unsigned Returns = 0;
  for (const Stmt *St : Body->body())
    Returns += isa<ReturnStmt>(St);
  return Refs.size() == 2 && Returns == 1;
}

const Stmt *waitLoopOf(const Stmt *S, const Wait &W, const FunctionDecl *Helper,
                       const ParentMap &PM, DeviceOpsFinder &Finder) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return nullptr;
  // The call's value is the wait's predicate.
  if (Helper ? !returnsWaitPredicate(Helper, W) : W.Site != Call)
    return nullptr;
  // `!call`, up through parentheses and casts, is the loop's condition.
  const Stmt *Cur = Call, *Up = PM.getParent(Cur);
  while (Up && (isa<ParenExpr>(Up) || isa<ImplicitCastExpr>(Up) ||
                (isa<ExplicitCastExpr>(Up) &&
                 cast<Expr>(Up)->getType()->isScalarType()))) {
    Cur = Up;
    Up = PM.getParent(Cur);
  }
  const auto *Not = dyn_cast_or_null<UnaryOperator>(Up);
  if (!Not || Not->getOpcode() != UO_LNot)
    return nullptr;
  Cur = Not;
  Up = PM.getParent(Cur);
  // (ExprWithCleanups: a temporary bound to a `const uint32_t &` parity.)
  while (Up && (isa<ParenExpr>(Up) || isa<ImplicitCastExpr>(Up) ||
                isa<FullExpr>(Up))) {
    Cur = Up;
    Up = PM.getParent(Cur);
  }
  const Stmt *LoopBody = nullptr;
  if (const auto *Wh = dyn_cast_or_null<WhileStmt>(Up);
      Wh && Wh->getCond() == Cur && !Wh->getConditionVariable())
    LoopBody = Wh->getBody();
  else if (const auto *Do = dyn_cast_or_null<DoStmt>(Up);
           Do && Do->getCond() == Cur)
    LoopBody = Do->getBody();
  else if (const auto *F = dyn_cast_or_null<ForStmt>(Up);
           F && F->getCond() == Cur && !F->getInit() &&
           !F->getConditionVariable())
    LoopBody = F->getBody();
  if (!LoopBody || mayIssue(LoopBody, Finder))
    return nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Up); F && mayIssue(F->getInc(), Finder))
    return nullptr;
  return Up;
}

bool parityTracksIterations(const Expr *Parity, const Stmt *WaitStmt,
                            const Stmt *Loop, const Stmt *Body,
                            const ParentMap &PM, ConstantFolder &Folder) {
  const Expr *P = bare(Parity);
  if (!P)
    return false;
  // `k & 1`, `k % 2` of the counted variable from 0.
  if (const auto *B = dyn_cast<BinaryOperator>(P)) {
    const auto *F = dyn_cast<ForStmt>(Loop);
    const VarDecl *K = F ? countedLoopVar(F, PM) : nullptr;
    return K && isVar(B->getLHS(), K) &&
           ((B->getOpcode() == BO_And && foldsTo(B->getRHS(), 1, Folder)) ||
            (B->getOpcode() == BO_Rem && foldsTo(B->getRHS(), 2, Folder))) &&
           foldsTo(K->getInit(), 0, Folder);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(P);
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() || !VD->getInit() ||
      VD->getType().isVolatileQualified())
    return false;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  };
  // Declared in Body before the loop, outside it.
  if (!Before(VD->getLocation(), Loop->getBeginLoc()))
    return false;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(Body, VD, Refs);
  const Expr *Flip = nullptr;
  for (const DeclRefExpr *R : Refs) {
    const Stmt *Parent = PM.getParent(R);
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Parent);
        C && C->getCastKind() == CK_LValueToRValue)
      continue; // a read
    const Expr *F = flipOf(R, VD, PM, Folder);
    if (!F || Flip)
      return false; // another write, its address, a second flip
    Flip = F;
  }
  if (!Flip)
    return false;
  const Stmt *LoopBody = nullptr;
  const Expr *Inc = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Loop)) {
    LoopBody = F->getBody();
    Inc = F->getInc();
  } else if (const auto *Wh = dyn_cast<WhileStmt>(Loop)) {
    LoopBody = Wh->getBody();
  } else if (const auto *Do = dyn_cast<DoStmt>(Loop)) {
    LoopBody = Do->getBody();
  }
  bool FlipFirst = false;
  if (Inc && isWithin(PM, Flip, Inc)) {
    // The increment: `++k, tic ^= 1` (a comma list of it).
    for (const Stmt *Cur = PM.getParent(Flip); Cur != Inc;
         Cur = PM.getParent(Cur)) {
      const auto *B = dyn_cast_or_null<BinaryOperator>(Cur);
      if (!B || B->getOpcode() != BO_Comma)
        return false;
    }
  } else {
    // Straight in the body, every iteration (no continue, goto).
    PhasePlace FP = phasePlaceOf(PM, Flip, Body);
    if (FP.Region != LoopBody || !FP.Branches.empty() || FP.Unclear ||
        PM.getParent(Flip) != LoopBody)
      return false;
    std::function<bool(const Stmt *)> Skips = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S))
        return false;
      if (isa<ContinueStmt, GotoStmt, IndirectGotoStmt>(S))
        return true;
      return llvm::any_of(S->children(), Skips);
    };
    if (Skips(LoopBody))
      return false;
    FlipFirst = Before(Flip->getBeginLoc(), WaitStmt->getBeginLoc());
  }
  return foldsTo(VD->getInit(), FlipFirst ? 1 : 0, Folder);
}

bool separatedByLoopWait(const ParentMap &PM, const SourceManager &SM,
                         const Stmt *A, const Stmt *B, const Stmt *Body,
                         llvm::ArrayRef<const Stmt *> Ops,
                         llvm::ArrayRef<BlockingWait> Waits,
                         llvm::ArrayRef<const Stmt *> Inits,
                         ConstantFolder &Folder) {
  // Only the function body around the loop: in a loop around it, the last
  // iteration's phase may still be pending when the next prologue issues.
  const Stmt *Inner = A == Body ? B : A;
  if ((A != Body && B != Body) || Inner == Body)
    return false;
  const Stmt *Loop = PM.getParent(Inner);
  if (!Loop || !isLoop(Loop) || loopBody(Loop) != Inner)
    return false;
  PhasePlace LP = phasePlaceOf(PM, Loop, Body);
  if (LP.Region != Body || LP.Unclear || !LP.Branches.empty())
    return false;
  auto Begin = [&](const Stmt *S) { return SM.getExpansionLoc(S->getBeginLoc()); };
  auto End = [&](const Stmt *S) {
    return SM.getExpansionRange(S->getEndLoc()).getEnd();
  };
  auto Before = [&](const Stmt *X, const Stmt *Y) {
    return SM.isBeforeInTranslationUnit(End(X), Begin(Y));
  };
  // The first blocking wait straight in the loop body.
  const BlockingWait *First = nullptr;
  for (const BlockingWait &W : Waits) {
    PhasePlace WP = phasePlaceOf(PM, W.S, Body);
    if (WP.Region == Inner && WP.Branches.empty() && !WP.Unclear &&
        (!First || Before(W.S, First->S)))
      First = &W;
  }
  if (!First)
    return false;
  const Stmt *Wait = First->S;
  // It waits for the phase the previous iteration (or the prologue)
  // issued into: its own phase, or a parity that tracks the iterations
  // from the prologue's phase 0 (the barrier initialised before the loop).
  if (!First->OwnPhase) {
    if (!First->Parity ||
        !parityTracksIterations(First->Parity, Wait, Loop, Body, PM, Folder))
      return false;
    if (llvm::none_of(Inits, [&](const Stmt *I) {
          PhasePlace IP = phasePlaceOf(PM, I, Body);
          return IP.Region == Body && !IP.Unclear && Before(I, Loop);
        }))
      return false;
  }
  return llvm::all_of(Ops, [&](const Stmt *S) {
    if (isWithin(PM, S, Loop))
      return isWithin(PM, S, Inner) && Before(Wait, S);
    return Before(S, Loop);
  });
}

PhasePlace phasePlaceOf(const ParentMap &PM, const Stmt *S, const Stmt *Body) {
  PhasePlace P;
  P.Region = Body;
  const Stmt *Prev = S;
  const Stmt *Cur = S == Body ? nullptr : PM.getParent(S);
  for (; Cur; Prev = Cur, Cur = Cur == Body ? nullptr : PM.getParent(Cur)) {
    if (isLoop(Cur)) {
      if (loopBody(Cur) != Prev)
        P.Unclear = true;
      P.Region = Prev;
      return P;
    }
    if (const auto *If = dyn_cast<IfStmt>(Cur)) {
      // The branch an instantiation keeps of an `if constexpr` always runs.
      if (If->isConstexpr() && (Prev == If->getThen() || Prev == If->getElse()))
        continue;
      if (Prev == If->getThen())
        P.Branches.push_back({If, false});
      else if (Prev == If->getElse())
        P.Branches.push_back({If, true});
      else
        P.Unclear = true;
      continue;
    }
    if (isa<SwitchStmt>(Cur) || isa<ConditionalOperator>(Cur) ||
        isa<BinaryConditionalOperator>(Cur) || isa<LambdaExpr>(Cur))
      P.Unclear = true;
    if (const auto *B = dyn_cast<BinaryOperator>(Cur); B && B->isLogicalOp())
      P.Unclear = true;
  }
  // Not below Body: the parent map does not know the statement.
  if (!Cur && Prev != Body)
    P.Unclear = true;
  return P;
}

const ParmVarDecl *barrierParameter(const Expr *E, const FunctionDecl *H,
                                    DeviceOpsFinder &Finder,
                                    ConstantFolder &Folder) {
  for (unsigned Steps = 0; E && Steps < 8; ++Steps) {
    E = E->IgnoreParenCasts();
    bool AddrOf = false;
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_AddrOf) {
      E = U->getSubExpr()->IgnoreParenImpCasts();
      AddrOf = true;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD)
      return nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      // The address of a pointer parameter is no barrier address.
      if (P->getDeclContext() != H ||
          (AddrOf && !P->getType()->isReferenceType()))
        return nullptr;
      return P;
    }
    if (AddrOf || !VD->isLocalVarDecl() || !VD->getInit() ||
        !VD->getType()->isPointerType() || !Folder.isNeverWritten(VD))
      return nullptr;
    E = Finder.lookThrough(VD->getInit());
  }
  return nullptr;
}

std::optional<uint64_t> tripCount(const ForStmt *F, const ParentMap &PM,
                                  ConstantFolder &Folder) {
  const VarDecl *Var = countedLoopVar(F, PM);
  const auto *Cond = Var ? dyn_cast<BinaryOperator>(F->getCond()) : nullptr;
  if (!Cond)
    return std::nullopt;
  auto From = Folder.foldInt(Var->getInit());
  auto To = Folder.foldInt(Cond->getRHS());
  if (!From || !To)
    return std::nullopt;
  int64_t A = From->Value.getExtValue(), B = To->Value.getExtValue();
  if (Cond->getOpcode() == BO_LE)
    ++B;
  if (B < A)
    return Cond->getOpcode() == BO_NE ? std::nullopt
                                      : std::optional<uint64_t>(0);
  return static_cast<uint64_t>(B - A);
}

bool isWithin(const ParentMap &PM, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *Cur = Inner; Cur; Cur = PM.getParent(Cur))
    if (Cur == Outer)
      return true;
  return false;
}

} // namespace clang::tidy::tma
