//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// ThreadGuards: uniform objects. A kernel local of class type whose fields
// only uniform values ever write (a persistent kernel's tile scheduler:
// `auto sched = Scheduler(shape_m, shape_n); ... while (sched.next(m, n))`)
// has the same state in every thread that reaches a use of it, so a member
// call on it that reads only fields, uniform arguments and uniform values
// returns one value there. Each thread holds its own copy: a call made in
// another role's branch (the producer's `while (sched.next(...))` beside
// the consumer's) changes the state of the threads of that branch only.
//
// The proof is an induction over the kernel's run: the object starts alike
// in every thread (a constructor or aggregate initialiser of uniform
// values), and every call that writes a field (a member function, itself
// or through calls on `this`) writes uniform values under uniform control,
// at a place that every thread reaching the use ran alike (uniform control
// down from the place where the use and the call part) or that no such
// thread ran (the other branch of an `if` that no loop repeats). While the
// proof runs, the member calls it meets on the object are taken as
// uniform (the induction's hypothesis). Anything else -- the object passed
// by reference, copied, captured by a lambda, its field's address taken,
// a `goto`, a break or continue under a condition that is not uniform --
// leaves the call unknown.
//
// Fields that no initialiser sets are read as their first write left them:
// a read of an indeterminate field is a bug of its own.
//
//===----------------------------------------------------------------------===//

#include "api/LoopParts.h"
#include "api/ThreadGuards.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::tma {

namespace {
constexpr unsigned MaxDepth = 32;

const Stmt *skipWrappers(const ParentMap &PM, const Stmt *S) {
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ParenExpr>(P) ||
               (isa<ImplicitCastExpr>(P) &&
                cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)))
    P = PM.getParent(P);
  return P;
}

/// A field of `*this` named by \p E (`f`, `this->f`).
const FieldDecl *thisField(const Expr *E) {
  const auto *M = dyn_cast_or_null<MemberExpr>(E ? E->IgnoreParens() : nullptr);
  if (!M || !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(M->getMemberDecl());
}

/// Whether \p P is a parameter of \p FD (any of its declarations).
bool ownParam(const ParmVarDecl *P, const FunctionDecl *FD) {
  const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext());
  return Owner && Owner->getCanonicalDecl() == FD->getCanonicalDecl();
}

bool isOutParam(const ParmVarDecl *P) {
  QualType T = P->getType();
  return T->isLValueReferenceType() && !T->getPointeeType().isConstQualified();
}

/// The local \p E names (past parentheses and casts), or null.
const VarDecl *localOf(const Expr *E) {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return V && (V->isLocalVarDecl() || isa<ParmVarDecl>(V)) ? V : nullptr;
}

bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V)
    return true;
  for (const Stmt *C : S->children())
    if (mentions(C, V))
      return true;
  return false;
}

/// Whether \p E is an argument of the call \p Use bound to a reference to
/// const (`ceil_div(sched.k, 64)` with `const T &`): read, not written.
bool constRefArgument(const Stmt *Use, const Expr *E) {
  const FunctionDecl *FD = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Use)) {
    if (isa<CXXOperatorCallExpr>(Call))
      return false;
    FD = Call->getDirectCallee();
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  } else if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(Use)) {
    FD = C->getConstructor();
    Args = llvm::ArrayRef(C->getArgs(), C->getNumArgs());
  }
  if (!FD)
    return false;
  for (unsigned I = 0; I < Args.size() && I < FD->getNumParams(); ++I)
    if (Args[I]->IgnoreParenNoopCasts(FD->getASTContext()) == E) {
      QualType T = FD->getParamDecl(I)->getType();
      return T->isLValueReferenceType() &&
             T->getPointeeType().isConstQualified();
    }
  return false;
}

/// The constructor call that initialises \p V (`T v(a)`, `auto v = T(a)`).
const CXXConstructExpr *constructionOf(const Expr *Init) {
  while (Init) {
    Init = Init->IgnoreImplicit();
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Init)) {
      Init = F->getSubExpr();
      continue;
    }
    const auto *C = dyn_cast<CXXConstructExpr>(Init);
    if (!C)
      return nullptr;
    // A copy or move of a temporary (before C++17's elision).
    if (C->getConstructor()->isCopyOrMoveConstructor() &&
        C->getNumArgs() == 1 &&
        isa<MaterializeTemporaryExpr>(C->getArg(0)->IgnoreParenImpCasts())) {
      Init = C->getArg(0);
      continue;
    }
    return C;
  }
  return nullptr;
}
} // namespace

void ThreadGuards::forgetSince(std::size_t Mark) {
  for (std::size_t I = Mark; I < Assumed.size(); ++I) {
    if (Assumed[I].first)
      UniformVars.erase(Assumed[I].first);
    if (Assumed[I].second) {
      UniformObjects.erase(Assumed[I].second);
      ObjectSites.erase(Assumed[I].second);
    }
  }
  Assumed.resize(Mark);
}

bool ThreadGuards::fieldsKept(const FunctionDecl *MD, Resolver R,
                              unsigned Depth, bool Returns) {
  const FunctionDecl *Def = nullptr;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(MD);
  if (!Method || Depth > MaxDepth || !MD->hasBody(Def) || !Def)
    return false;
  const CXXRecordDecl *SavedThis = ThisObject;
  ThisObject = Method->getParent();
  bool Ok = methodBody(Def, R, Depth, Returns);
  ThisObject = SavedThis;
  return Ok;
}

bool ThreadGuards::methodBody(const FunctionDecl *Def, Resolver R,
                              unsigned Depth, bool Returns) {
  auto Inner = [&](const ParmVarDecl *P) -> const Expr * {
    return R ? R(P) : nullptr;
  };
  auto Uni = [&](const Expr *E) { return uniformImpl(E, Inner, Depth + 1); };
  // A write's target: a field (then the value must be uniform), a local of
  // the method, or an out-parameter (the caller's local: not the object).
  auto TargetOk = [&](const Expr *L, const Expr *Value) {
    if (thisField(L)) {
      WroteField = true;
      return !Value || Uni(Value);
    }
    const VarDecl *V = localOf(L);
    return V && (!isa<ParmVarDecl>(V) ||
                 !cast<ParmVarDecl>(V)->getType()->isReferenceType() ||
                 isOutParam(cast<ParmVarDecl>(V)));
  };
  std::vector<std::pair<const Stmt *, const Stmt *>> Work{
      {Def->getBody(), nullptr}};
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->isBaseInitializer() || !I->isAnyMemberInitializer() ||
          !Uni(I->getInit()))
        return false;
  while (!Work.empty()) {
    auto [S, Parent] = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (isa<LambdaExpr, GotoStmt, IndirectGotoStmt, AsmStmt, CXXTryStmt,
            CXXForRangeStmt>(S))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && !If->isConsteval() &&
        (If->getConditionVariable() || !Uni(If->getCond())))
      return false;
    if (isLoop(S) && loopCond(S) && !Uni(loopCond(S)))
      return false;
    if (const auto *Sw = dyn_cast<SwitchStmt>(S);
        Sw && (Sw->getConditionVariable() || !Uni(Sw->getCond())))
      return false;
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(S);
        C && !Uni(C->getCond()))
      return false;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S);
        Ret && Returns && Ret->getRetValue() && !Uni(Ret->getRetValue()))
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isLogicalOp() && !Uni(B->getLHS()))
        return false;
      if (B->isAssignmentOp() && !TargetOk(B->getLHS(), B->getRHS()))
        return false;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp() && !TargetOk(U->getSubExpr(), nullptr))
        return false;
      // The address of a field escapes.
      if (U->getOpcode() == UO_AddrOf && thisField(U->getSubExpr()))
        return false;
    }
    // `this` only as the object of a field or a member call.
    if (isa<CXXThisExpr>(S) && !isa_and_nonnull<MemberExpr>(Parent) &&
        !(isa_and_nonnull<ImplicitCastExpr>(Parent) &&
          cast<ImplicitCastExpr>(Parent)->getCastKind() == CK_NoOp))
      return false;
    // A reference local may name a field.
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getType()->isLValueReferenceType() &&
            !VD->getType()->getPointeeType().isConstQualified())
          return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD)
        return false;
      unsigned Shift =
          isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        if (!isa<CXXThisExpr>(
                MC->getImplicitObjectArgument()->IgnoreParenImpCasts()))
          return false;
        auto Callee = [&](const ParmVarDecl *P) -> const Expr * {
          unsigned I = P->getFunctionScopeIndex();
          if (ownParam(P, FD))
            return I < Call->getNumArgs() ? Call->getArg(I) : nullptr;
          return Inner(P);
        };
        if (!fieldsKept(FD, Callee, Depth + 1, Returns))
          return false;
      } else if (Shift) {
        return false; // an operator on an object: not followed
      }
      // A field passed by non-const reference may be written there.
      for (unsigned I = 0;
           I + Shift < Call->getNumArgs() && I < FD->getNumParams(); ++I)
        if (isOutParam(FD->getParamDecl(I)) &&
            !localOf(Call->getArg(I + Shift)))
          return false;
    }
    for (const Stmt *C : S->children())
      Work.push_back({C, S});
  }
  return true;
}

std::optional<std::vector<const CXXMemberCallExpr *>>
ThreadGuards::objectWrites(const VarDecl *V, unsigned Depth) {
  const auto *Kernel =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>() || !Kernel->getBody() ||
      !V->isLocalVarDecl() || V->isStaticLocal() || !RD ||
      !RD->hasDefinition() || RD->getNumBases() || RD->isPolymorphic() ||
      V->getType()->isReferenceType() || !V->getInit() || Depth > MaxDepth)
    return std::nullopt;
  auto Found = ObjectSites.find(V);
  if (Found != ObjectSites.end())
    return Found->second;
  auto [It, Inserted] = UniformObjects.try_emplace(V, true);
  if (!Inserted) // being decided: the induction's hypothesis
    return It->second ? std::optional<std::vector<const CXXMemberCallExpr *>>(
                            std::vector<const CXXMemberCallExpr *>())
                      : std::nullopt;
  std::size_t Mark = Assumed.size();
  Assumed.push_back({nullptr, V});
  std::vector<const CXXMemberCallExpr *> Writes;
  auto Decide = [&]() -> bool {
    // Every field starts alike.
    for (const FieldDecl *F : RD->fields())
      if (F->hasInClassInitializer() &&
          !uniformImpl(F->getInClassInitializer(), nullptr, Depth + 1))
        return false;
    const Expr *Init = V->getInit()->IgnoreImplicit();
    if (const auto *List = dyn_cast<InitListExpr>(Init)) {
      for (const Expr *E : List->inits())
        if (!uniformImpl(E, nullptr, Depth + 1))
          return false;
    } else if (const CXXConstructExpr *C = constructionOf(Init)) {
      for (const Expr *A : C->arguments())
        if (!uniformImpl(A, nullptr, Depth + 1))
          return false;
      const CXXConstructorDecl *Ctor = C->getConstructor();
      auto Args = [&](const ParmVarDecl *P) -> const Expr * {
        unsigned I = P->getFunctionScopeIndex();
        return ownParam(P, Ctor) && I < C->getNumArgs() ? C->getArg(I)
                                                        : nullptr;
      };
      if (!Ctor->isTrivial() && !fieldsKept(Ctor, Args, Depth + 1, false))
        return false;
    } else {
      return false;
    }
    // Every use in the kernel: a field read or a member call.
    const ParentMap &PM = Folder->parentsOf(Kernel->getBody());
    std::vector<const Stmt *> Work{Kernel->getBody()};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      for (const Stmt *C : S->children())
        Work.push_back(C);
      const auto *D = dyn_cast<DeclRefExpr>(S);
      if (!D || D->getDecl() != V)
        continue;
      for (const Stmt *P = PM.getParent(D); P; P = PM.getParent(P))
        if (isa<LambdaExpr>(P))
          return false;
      const auto *M = dyn_cast_or_null<MemberExpr>(skipWrappers(PM, D));
      if (!M || M->isArrow())
        return false;
      const Stmt *Use = skipWrappers(PM, M);
      if (isa<FieldDecl>(M->getMemberDecl())) {
        const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(Use);
        if ((!Read || Read->getCastKind() != CK_LValueToRValue) &&
            !constRefArgument(Use, M))
          return false;
        continue;
      }
      const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Use);
      if (!MC || MC->getCallee()->IgnoreParens() != M)
        return false;
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || MD->isStatic())
        return false;
      // Out-arguments are the caller's locals, never the object.
      for (unsigned I = 0; I < MC->getNumArgs() && I < MD->getNumParams(); ++I)
        if (isOutParam(MD->getParamDecl(I)) &&
            (!localOf(MC->getArg(I)) || mentions(MC->getArg(I), V)))
          return false;
      if (MD->isConst() && llvm::none_of(RD->fields(), [](const FieldDecl *F) {
            return F->isMutable();
          }))
        continue;
      auto Args = [&](const ParmVarDecl *P) -> const Expr * {
        unsigned I = P->getFunctionScopeIndex();
        return ownParam(P, MD) && I < MC->getNumArgs() ? MC->getArg(I)
                                                       : nullptr;
      };
      bool SavedWrote = WroteField;
      WroteField = false;
      bool Kept = fieldsKept(MD, Args, Depth + 1, false);
      if (Kept && WroteField)
        Writes.push_back(MC);
      WroteField = SavedWrote;
      if (!Kept)
        return false;
    }
    // A jump under a condition that is not uniform skips calls in some
    // threads only; a goto is not followed.
    std::vector<const Stmt *> Jumps{Kernel->getBody()};
    while (!Jumps.empty()) {
      const Stmt *S = Jumps.back();
      Jumps.pop_back();
      if (!S || isa<LambdaExpr>(S))
        continue;
      for (const Stmt *C : S->children())
        Jumps.push_back(C);
      if (isa<GotoStmt, IndirectGotoStmt>(S))
        return false;
      if (!isa<BreakStmt, ContinueStmt>(S))
        continue;
      const Stmt *Prev = S;
      for (const Stmt *P = PM.getParent(S);
           P && !isLoop(P) && !isa<SwitchStmt>(P);
           Prev = P, P = PM.getParent(P))
        if (!controlUniform(P, Prev, Depth))
          return false;
    }
    return true;
  };
  bool Result = Decide();
  UniformObjects[V] = Result;
  if (!Result) {
    forgetSince(Mark + 1);
    return std::nullopt;
  }
  ObjectSites[V] = Writes;
  return Writes;
}

bool ThreadGuards::controlUniform(const Stmt *P, const Stmt *Prev,
                                  unsigned Depth) {
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Prev == If->getCond() || If->isConstexpr() ||
           (!If->getConditionVariable() &&
            uniformImpl(If->getCond(), nullptr, Depth + 1));
  if (isLoop(P)) {
    if (isa<CXXForRangeStmt>(P))
      return false;
    if (const auto *F = dyn_cast<ForStmt>(P); F && Prev == F->getInit())
      return true;
    const Expr *C = loopCond(P);
    return !C || uniformImpl(C, nullptr, Depth + 1);
  }
  if (isa<SwitchStmt, LambdaExpr>(P))
    return false;
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(P))
    return Prev == C->getCond() ||
           uniformImpl(C->getCond(), nullptr, Depth + 1);
  if (const auto *B = dyn_cast<BinaryOperator>(P);
      B && B->isLogicalOp() && Prev == B->getRHS())
    return uniformImpl(B->getLHS(), nullptr, Depth + 1);
  return true;
}

bool ThreadGuards::uniformMemberCall(const CXXMemberCallExpr &MC, Resolver R,
                                     unsigned Depth) {
  const CXXMethodDecl *MD = MC.getMethodDecl();
  if (!MD || MD->isStatic() || Depth > MaxDepth)
    return false;
  auto Args = [&](const ParmVarDecl *P) -> const Expr * {
    unsigned I = P->getFunctionScopeIndex();
    if (ownParam(P, MD))
      return I < MC.getNumArgs() ? MC.getArg(I) : nullptr;
    return R ? R(P) : nullptr;
  };
  const Expr *Obj = MC.getImplicitObjectArgument()->IgnoreParenImpCasts();
  // A call on `this` in a method of the object being proven.
  if (isa<CXXThisExpr>(Obj))
    return ThisObject && MD->getParent() == ThisObject &&
           fieldsKept(MD, Args, Depth + 1, true);
  const auto *D = dyn_cast<DeclRefExpr>(Obj);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  // The value: the method's returns, read from uniform fields, arguments
  // and values.
  return V && V->getType()->getAsCXXRecordDecl() == MD->getParent() &&
         objectAlikeAt(V, MC, Depth + 1) &&
         fieldsKept(MD, Args, Depth + 1, true);
}

bool ThreadGuards::objectAlikeAt(const VarDecl *V, const Expr &At,
                                 unsigned Depth) {
  if (Depth > MaxDepth)
    return false;
  // Asked again while deciding it: the induction's hypothesis.
  if (!AlikeAsked.insert(&At).second)
    return true;
  std::size_t Mark = Assumed.size();
  bool Alike = alikeAt(V, At, Depth);
  AlikeAsked.erase(&At);
  if (!Alike)
    forgetSince(Mark);
  return Alike;
}

bool ThreadGuards::alikeAt(const VarDecl *V, const Expr &At, unsigned Depth) {
  auto Writes = objectWrites(V, Depth + 1);
  if (!Writes)
    return false;
  const auto *Kernel = cast<FunctionDecl>(V->getParentFunctionOrMethod());
  const ParentMap &PM = Folder->parentsOf(Kernel->getBody());
  // The statements around this call, with the child on the way to it.
  llvm::DenseMap<const Stmt *, const Stmt *> Around;
  {
    const Stmt *Prev = &At;
    for (const Stmt *P = PM.getParent(Prev); P; Prev = P, P = PM.getParent(P))
      Around[P] = Prev;
    if (!Around.count(Kernel->getBody()))
      return false; // not in the kernel's body
  }
  // Each writing call: run alike by every thread that reaches this call, or
  // by none of them.
  for (const CXXMemberCallExpr *W : *Writes) {
    if (W == &At)
      continue;
    // The statement where the ways to the two calls part.
    std::vector<std::pair<const Stmt *, const Stmt *>> Path; // (P, Prev)
    const Stmt *Prev = W;
    const Stmt *P = PM.getParent(Prev);
    for (; P && !Around.count(P); Prev = P, P = PM.getParent(P))
      Path.push_back({P, Prev});
    if (!P)
      return false;
    const auto *If = dyn_cast<IfStmt>(P);
    const Stmt *Mine = Around[P];
    if (If && Prev != If->getCond() && Mine != If->getCond() && Prev != Mine) {
      // The other branch of an `if` that no loop around repeats: no
      // thread that reaches this use ran that call.
      for (const Stmt *Q = PM.getParent(If); Q; Q = PM.getParent(Q))
        if (isLoop(Q))
          return false;
      continue;
    }
    Path.push_back({P, Prev});
    for (auto [Q, QPrev] : Path)
      if (!controlUniform(Q, QPrev, Depth))
        return false;
  }
  return true;
}

} // namespace clang::tidy::tma
