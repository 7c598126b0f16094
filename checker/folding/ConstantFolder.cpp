//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/Stats.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <utility>

namespace clang::tidy::tma {

/// Bounds the recursion through variables, operators and arrays.
static constexpr unsigned MaxDepth = 24;
/// Pointer offsets beyond this are not followed (the arrays we fold hold at
/// most five meaningful elements).
static constexpr uint64_t MaxOffset = 64;
/// Folding steps allowed per context of one call site: a budget, so that
/// pathological code costs a bounded time and is left unknown.
static constexpr unsigned MaxSteps = 100000;

static bool isUsable(const Expr *E) {
  return E && !E->isValueDependent() && !E->isTypeDependent() &&
         !E->containsErrors();
}

/// \p V converted to the integer or enumeration type \p T, as C++ does.
static std::optional<llvm::APSInt> convertTo(const llvm::APSInt &V, QualType T,
                                             const ASTContext &Ctx) {
  if (T.isNull() || !T->isIntegralOrEnumerationType())
    return std::nullopt;
  if (T->isBooleanType())
    return llvm::APSInt(llvm::APInt(Ctx.getIntWidth(T), V != 0),
                        /*isUnsigned=*/true);
  llvm::APSInt R = V.extOrTrunc(Ctx.getIntWidth(T));
  R.setIsUnsigned(T->isUnsignedIntegerOrEnumerationType());
  return R;
}

static Origin originOf(const Expr *E) {
  Origin O{E->getSourceRange(), nullptr, E, {}};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const Expr *Init = VD->getAnyInitializer())
        O = Origin{Init->getSourceRange(), VD, Init, {}};
  return O;
}

/// The origin of a value computed by \p E from \p Operands: E itself, and
/// every parameter the operands were read through.
static Origin
computedOrigin(const Expr *E,
               std::initializer_list<const FoldedInt *> Operands) {
  Origin O{E->getSourceRange(), nullptr, E, {}};
  for (const FoldedInt *Op : Operands)
    O.Through.append(Op->From.Through.begin(), Op->From.Through.end());
  return O;
}

const Stmt *ConstantFolder::bodyOf(const VarDecl *VD) const {
  if (const auto *FD =
          dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()))
    return FD->getBody();
  return nullptr;
}

namespace {
/// The references to locals and the gotos under a body, in the order and
/// with the coverage of a findAll matcher (a RecursiveASTVisitor with
/// template instantiations and implicit code: lambda bodies and captures,
/// DeclStmt initialisers, default arguments, type locs and template
/// arguments), without the matcher's cost per node.
class BodyRefs : public RecursiveASTVisitor<BodyRefs> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  /// A matcher matches a statement where the traversal reaches it: a child
  /// when its parent queues it, before the child's own children (data
  /// recursion). So here, so that the uses come in the matcher's order.
  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S)) {
      if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
          Var && Var->hasLocalStorage())
        Uses[Var].push_back(DRE);
    } else if (isa_and_nonnull<GotoStmt>(S)) {
      Jumps = true;
    }
    return RecursiveASTVisitor::TraverseStmt(S, Queue);
  }
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> Uses;
  bool Jumps = false;
};
} // namespace

void ConstantFolder::walkBody(const Stmt *Body) {
  BodyRefs W;
  W.TraverseStmt(const_cast<Stmt *>(Body));
  Uses.try_emplace(Body, std::move(W.Uses));
  Jumps.try_emplace(Body, W.Jumps);
}

llvm::ArrayRef<const DeclRefExpr *> ConstantFolder::usesOf(const VarDecl *VD) {
  const Stmt *Body = bodyOf(VD);
  if (!Body)
    return {};
  auto It = Uses.find(Body);
  if (It == Uses.end()) {
    walkBody(Body);
    It = Uses.find(Body);
  }
  auto Found = It->second.find(VD);
  if (Found == It->second.end())
    return {};
  return Found->second;
}

std::shared_ptr<ConstantFolder>
ConstantFolder::forTranslationUnit(ASTContext &Ctx) {
  // Per thread: clangd checks several files at once.
  thread_local std::weak_ptr<ConstantFolder> Last;
  thread_local const ASTContext *LastCtx = nullptr;
  if (auto Shared = Last.lock(); Shared && LastCtx == &Ctx)
    return Shared;
  auto Folder = std::make_shared<ConstantFolder>(Ctx);
  ++CostStats::get().Folders;
  Last = Folder;
  LastCtx = &Ctx;
  return Folder;
}

ConstantFolder::~ConstantFolder() { checkNoTuParentMap(Ctx); }

const ParentMap &ConstantFolder::parentsOf(const Stmt *Body) {
  auto &PM = Parents[Body];
  if (!PM) {
    PM = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
    ++CostStats::get().ParentMaps;
  }
  return *PM;
}

const ParentMap &ConstantFolder::parentsOf(const FunctionDecl *F) {
  const Stmt *Body = F->getBody();
  const auto *MD = dyn_cast<CXXMethodDecl>(F);
  if (!MD || !MD->getParent()->isLambda())
    return parentsOf(Body);
  if (const ParentMap *PM = LambdaParents.lookup(Body))
    return *PM;
  // The outermost function around F through lambdas, from the answer of
  // the first lambda around F that has one (each of D nested lambdas walked
  // out to the function around them all).
  // Every lambda on the way has the same answer.
  const FunctionDecl *Outer = F;
  llvm::SmallVector<const FunctionDecl *, 8> Chain;
  while (const auto *Op = dyn_cast<CXXMethodDecl>(Outer)) {
    if (const FunctionDecl *Known = OutermostOf.lookup(Op)) {
      Outer = Known;
      break;
    }
    if (!Op->getParent()->isLambda())
      break;
    const auto *Around =
        dyn_cast<FunctionDecl>(Op->getParent()->getDeclContext());
    if (!Around || !Around->getBody())
      break;
    Chain.push_back(Op);
    Outer = Around;
  }
  for (const FunctionDecl *Op : Chain)
    OutermostOf[Op] = Outer;
  // The outer map holds the body unless the lambda is outside the outer
  // body (a default argument) or F is an instantiated generic lambda.
  const ParentMap *PM = nullptr;
  if (Outer != F) {
    const ParentMap &OuterPM = parentsOf(Outer->getBody());
    if (OuterPM.getParent(const_cast<Stmt *>(Body)))
      PM = &OuterPM;
  }
  if (!PM)
    PM = &parentsOf(Body);
  LambdaParents[Body] = PM;
  return *PM;
}

bool ConstantFolder::hasJumps(const Stmt *Body) {
  auto It = Jumps.find(Body);
  if (It == Jumps.end()) {
    walkBody(Body);
    It = Jumps.find(Body);
  }
  return It->second;
}

bool ConstantFolder::isNeverWritten(const VarDecl *VD) {
  auto [It, New] = NeverWritten.try_emplace(VD, false);
  ++CostStats::get().NeverWrittenAsked;
  if (!New)
    return It->second;
  ++CostStats::get().NeverWrittenComputed;
  const Stmt *Body = bodyOf(VD);
  if (!Body)
    return false;
  const ParentMap &PM = parentsOf(Body);
  bool Written = llvm::any_of(
      usesOf(VD), [&](const DeclRefExpr *Use) { return mayWrite(PM, Use); });
  return NeverWritten[VD] = !Written;
}

std::optional<std::vector<const Expr *>>
ConstantFolder::assignmentsOf(const VarDecl *VD) {
  const Stmt *Body = bodyOf(VD);
  if (!Body)
    return std::nullopt;
  const ParentMap &PM = parentsOf(Body);
  std::vector<const Expr *> Out;
  for (const DeclRefExpr *Use : usesOf(VD)) {
    if (!mayWrite(PM, Use))
      continue;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(PM.getParentIgnoreParens(Use));
    if (!BO || BO->getOpcode() != BO_Assign ||
        BO->getLHS()->IgnoreParens() != Use)
      return std::nullopt;
    Out.push_back(BO->getRHS());
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

std::optional<FoldedInt> ConstantFolder::foldInt(const Expr *E) {
  return foldIntImpl(E, 0);
}

static std::optional<llvm::APSInt> foldBinary(BinaryOperatorKind Op,
                                              llvm::APSInt L, llvm::APSInt R,
                                              QualType T,
                                              const ASTContext &Ctx) {
  if (BinaryOperator::isComparisonOp(Op) || BinaryOperator::isLogicalOp(Op)) {
    int Cmp = llvm::APSInt::compareValues(L, R);
    bool V = false;
    switch (Op) {
    case BO_LT:
      V = Cmp < 0;
      break;
    case BO_GT:
      V = Cmp > 0;
      break;
    case BO_LE:
      V = Cmp <= 0;
      break;
    case BO_GE:
      V = Cmp >= 0;
      break;
    case BO_EQ:
      V = Cmp == 0;
      break;
    case BO_NE:
      V = Cmp != 0;
      break;
    case BO_LAnd:
      V = L != 0 && R != 0;
      break;
    case BO_LOr:
      V = L != 0 || R != 0;
      break;
    default:
      return std::nullopt;
    }
    return convertTo(llvm::APSInt::get(V), T, Ctx);
  }
  bool Shift = Op == BO_Shl || Op == BO_Shr;
  auto LC = convertTo(L, T, Ctx);
  auto RC = Shift ? std::optional<llvm::APSInt>(R) : convertTo(R, T, Ctx);
  if (!LC || !RC)
    return std::nullopt;
  L = *LC;
  R = *RC;
  bool U = L.isUnsigned();
  bool Overflow = false;
  llvm::APInt Res;
  switch (Op) {
  case BO_Add:
    Res = U ? L.uadd_ov(R, Overflow) : L.sadd_ov(R, Overflow);
    break;
  case BO_Sub:
    Res = U ? L.usub_ov(R, Overflow) : L.ssub_ov(R, Overflow);
    break;
  case BO_Mul:
    Res = U ? L.umul_ov(R, Overflow) : L.smul_ov(R, Overflow);
    break;
  case BO_Div:
  case BO_Rem:
    if (R == 0 || (!U && L.isMinSignedValue() && R.isAllOnes()))
      return std::nullopt;
    Res = Op == BO_Div ? (U ? L.udiv(R) : L.sdiv(R))
                       : (U ? L.urem(R) : L.srem(R));
    break;
  case BO_Shl:
  case BO_Shr:
    if (R.isNegative() || R.getZExtValue() >= L.getBitWidth())
      return std::nullopt;
    Res = Op == BO_Shl
              ? L.shl(R.getZExtValue())
              : (U ? L.lshr(R.getZExtValue()) : L.ashr(R.getZExtValue()));
    break;
  case BO_And:
    Res = L & R;
    break;
  case BO_Or:
    Res = L | R;
    break;
  case BO_Xor:
    Res = L ^ R;
    break;
  default:
    return std::nullopt;
  }
  // Unsigned arithmetic wraps; signed overflow is undefined: not a value.
  if (Overflow && !U)
    return std::nullopt;
  return llvm::APSInt(Res, U);
}

std::optional<FoldedInt> ConstantFolder::foldIntImpl(const Expr *E,
                                                     unsigned Depth) {
  const Expr *Unevaluable = std::exchange(NotEvaluable, nullptr);
  if (!isUsable(E) || Depth > MaxDepth || ++Steps > MaxSteps ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;

  // Clang's evaluator: literals, enumerators, sizeof, constexpr and const
  // values, template arguments.
  if (E != Unevaluable) {
    auto [It, New] = Evaluated.try_emplace(E);
    if (New) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, Ctx) && !R.HasSideEffects &&
          !R.HasUndefinedBehavior && R.Val.isInt())
        It->second = R.Val.getInt();
    }
    if (It->second)
      return FoldedInt{*It->second, originOf(E)};
  }

  const Expr *S = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(S)) {
    switch (Cast->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_IntegralToBoolean:
      break;
    default:
      return std::nullopt;
    }
    NotEvaluable = Cast->getSubExpr();
    auto Sub = foldIntImpl(Cast->getSubExpr(), Depth + 1);
    if (!Sub)
      return std::nullopt;
    auto V = convertTo(Sub->Value, Cast->getType(), Ctx);
    if (!V)
      return std::nullopt;
    return FoldedInt{*V, Sub->From};
  }

  if (const Expr *Forwarded = forwardedArgument(S))
    return foldIntImpl(Forwarded, Depth + 1);
  // A prvalue bound to a reference parameter (forwarding wrappers).
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(S))
    return foldIntImpl(Temp->getSubExpr(), Depth + 1);

  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      return foldParam(PVD, Depth + 1);
    if (auto It = LoopValues.find(DRE->getDecl()); It != LoopValues.end())
      return FoldedInt{*convertTo(It->second, DRE->getType(), Ctx),
                       Origin{DRE->getSourceRange(), nullptr, DRE, {}}};
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return foldLocalScalar(VD, Depth + 1);
  }

  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    auto Index = foldIntImpl(ASE->getIdx(), Depth + 1);
    if (!Index || Index->Value.isNegative() ||
        Index->Value.getZExtValue() >= MaxOffset)
      return std::nullopt;
    uint64_t I = Index->Value.getZExtValue();
    auto Array = foldArrayImpl(ASE->getBase(), ASE, I + 1, Depth + 1);
    if (!Array || I >= Array->Elems.size() || !Array->Elems[I])
      return std::nullopt;
    auto V = convertTo(Array->Elems[I]->Value, ASE->getType(), Ctx);
    if (!V)
      return std::nullopt;
    return FoldedInt{*V, Array->Elems[I]->From};
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    auto L = foldIntImpl(BO->getLHS(), Depth + 1);
    if (!L)
      return std::nullopt;
    // Short-circuit: the right operand need not fold.
    if ((BO->getOpcode() == BO_LAnd && L->Value == 0) ||
        (BO->getOpcode() == BO_LOr && L->Value != 0))
      return FoldedInt{
          *convertTo(llvm::APSInt::get(L->Value != 0), BO->getType(), Ctx),
          computedOrigin(BO, {&*L})};
    auto Rhs = foldIntImpl(BO->getRHS(), Depth + 1);
    if (!Rhs)
      return std::nullopt;
    auto V =
        foldBinary(BO->getOpcode(), L->Value, Rhs->Value, BO->getType(), Ctx);
    if (!V)
      return std::nullopt;
    return FoldedInt{*V, computedOrigin(BO, {&*L, &*Rhs})};
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    auto Sub = foldIntImpl(UO->getSubExpr(), Depth + 1);
    if (!Sub)
      return std::nullopt;
    auto V = convertTo(Sub->Value, UO->getType(), Ctx);
    if (!V)
      return std::nullopt;
    switch (UO->getOpcode()) {
    case UO_Plus:
      break;
    case UO_Minus:
      if (!V->isUnsigned() && V->isMinSignedValue())
        return std::nullopt;
      *V = -*V;
      break;
    case UO_Not:
      *V = ~*V;
      break;
    case UO_LNot:
      V = convertTo(llvm::APSInt::get(*V == 0), UO->getType(), Ctx);
      break;
    default:
      return std::nullopt;
    }
    return FoldedInt{*V, computedOrigin(UO, {&*Sub})};
  }

  // A field of an aggregate built from an initialiser list.
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || ME->isArrow())
      return std::nullopt;
    FieldInit Init;
    if (!fieldInit(ME->getBase(), FD, Depth + 1, Init))
      return std::nullopt;
    auto V =
        inContext(Init.Context, [&] { return foldIntImpl(Init.E, Depth + 1); });
    if (!V)
      return std::nullopt;
    auto C = convertTo(V->Value, ME->getType(), Ctx);
    if (!C)
      return std::nullopt;
    V->Value = *C;
    V->From.Through.append(Init.Through.begin(), Init.Through.end());
    return V;
  }

  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    auto Cond = foldIntImpl(CO->getCond(), Depth + 1);
    if (!Cond)
      return std::nullopt;
    return foldIntImpl(
        Cond->Value != 0 ? CO->getTrueExpr() : CO->getFalseExpr(), Depth + 1);
  }

  // A call of a small function (a type-to-enum or swizzle mapping): its
  // body under a context that binds its parameters to the arguments.
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getBody() || isa<CXXMethodDecl>(FD) ||
        FD->getNumParams() != Call->getNumArgs())
      return std::nullopt;
    std::optional<FoldedInt> Result = inContext(intern(Call, FD, Current), [&] {
      std::optional<FoldedInt> R;
      bool Returned = false;
      if (!execute(FD->getBody(), Depth + 1, R, Returned) || !Returned)
        R.reset();
      return R;
    });
    if (!Result)
      return std::nullopt;
    auto C = convertTo(Result->Value, Call->getType(), Ctx);
    if (!C)
      return std::nullopt;
    Result->Value = *C;
    return Result;
  }
  return std::nullopt;
}

bool ConstantFolder::execute(const Stmt *S, unsigned Depth,
                             std::optional<FoldedInt> &Result, bool &Returned) {
  if (!S || Depth > MaxDepth || ++Steps > MaxSteps)
    return false;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : Block->body()) {
      if (!execute(Child, Depth + 1, Result, Returned))
        return false;
      if (Returned)
        return true;
    }
    return true;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    Returned = true;
    Result = Return->getRetValue()
                 ? foldIntImpl(Return->getRetValue(), Depth + 1)
                 : std::nullopt;
    return Result.has_value();
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getInit() || If->getConditionVariable())
      return false;
    auto Cond = foldIntImpl(If->getCond(), Depth + 1);
    if (!Cond)
      return false;
    const Stmt *Taken = Cond->Value != 0 ? If->getThen() : If->getElse();
    return !Taken || execute(Taken, Depth + 1, Result, Returned);
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
    if (Switch->getInit() || Switch->getConditionVariable() || !Body)
      return false;
    auto Cond = foldIntImpl(Switch->getCond(), Depth + 1);
    if (!Cond)
      return false;
    // Run from the matching label (or default) to the end of the body; a
    // break ends the switch.
    const Stmt *Start = nullptr;
    for (const SwitchCase *Case = Switch->getSwitchCaseList(); Case;
         Case = Case->getNextSwitchCase()) {
      if (isa<DefaultStmt>(Case)) {
        if (!Start)
          Start = Case;
        continue;
      }
      const auto *C = cast<CaseStmt>(Case);
      auto Label = foldIntImpl(C->getLHS(), Depth + 1);
      if (!Label || C->getRHS())
        return false;
      if (llvm::APSInt::compareValues(Label->Value, Cond->Value) == 0)
        Start = Case;
    }
    if (!Start)
      return true;
    bool Running = false;
    for (const Stmt *Child : Body->body()) {
      Running = Running || Child == Start;
      if (!Running)
        continue;
      const Stmt *Inner = Child;
      while (const auto *Case = dyn_cast<SwitchCase>(Inner))
        Inner = Case->getSubStmt();
      if (isa<BreakStmt>(Inner))
        return true;
      if (!execute(Inner, Depth + 1, Result, Returned))
        return false;
      if (Returned)
        return true;
    }
    return true;
  }
  if (isa<NullStmt, BreakStmt>(S))
    return true;
  // Declarations of constants are read where they are used.
  if (const auto *Decls = dyn_cast<DeclStmt>(S))
    return llvm::all_of(Decls->decls(), [](const Decl *D) {
      const auto *VD = dyn_cast<VarDecl>(D);
      return !VD || VD->getType().isConstQualified() || VD->isConstexpr();
    });
  return false;
}

std::optional<FoldedInt> ConstantFolder::foldLocalScalar(const VarDecl *VD,
                                                         unsigned Depth) {
  // Clang's evaluator already handled const and constexpr variables. A
  // non-const local is its initialiser when nothing writes it or takes its
  // address; parameters, globals and statics are unknown.
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
      VD->getType()->isReferenceType() || VD->getType().isVolatileQualified() ||
      !VD->getInit() || !isNeverWritten(VD))
    return std::nullopt;
  auto Init = foldIntImpl(VD->getInit(), Depth + 1);
  if (!Init)
    return std::nullopt;
  auto V = convertTo(Init->Value, VD->getType(), Ctx);
  if (!V)
    return std::nullopt;
  Origin From = Init->From;
  if (!From.Var) {
    From.Range = VD->getInit()->getSourceRange();
    From.Var = VD;
    From.Source = VD->getInit();
  }
  return FoldedInt{*V, From};
}

bool ConstantFolder::fieldInit(const Expr *Base, const FieldDecl *FD,
                               unsigned Depth, FieldInit &Out) {
  if (!Base || Depth > MaxDepth || ++Steps > MaxSteps)
    return false;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Base))
    return fieldInit(Temp->getSubExpr(), FD, Depth + 1, Out);
  // A trivial copy of an aggregate has its source's fields.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Base)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Construct->getNumArgs() != 1 || !Ctor->isCopyOrMoveConstructor() ||
        !Ctor->isTrivial())
      return false;
    return fieldInit(Construct->getArg(0), FD, Depth + 1, Out);
  }
  if (const auto *ILE = dyn_cast<InitListExpr>(Base)) {
    if (ILE->isSyntacticForm() && ILE->getSemanticForm())
      ILE = ILE->getSemanticForm();
    if (ILE->getType()->getAsRecordDecl() != FD->getParent())
      return false;
    unsigned Index = FD->getFieldIndex();
    const Expr *Init = Index < ILE->getNumInits() ? ILE->getInit(Index)
                                                  : FD->getInClassInitializer();
    if (const auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(Init))
      Init = Default->getExpr();
    if (!Init)
      return false;
    Out.E = Init;
    Out.Context = Current;
    return true;
  }
  // A field of a field: find the inner aggregate's initialiser first.
  if (const auto *ME = dyn_cast<MemberExpr>(Base)) {
    const auto *Inner = dyn_cast<FieldDecl>(ME->getMemberDecl());
    FieldInit Outer;
    if (!Inner || ME->isArrow() ||
        !fieldInit(ME->getBase(), Inner, Depth + 1, Outer))
      return false;
    bool Found = inContext(
        Outer.Context, [&] { return fieldInit(Outer.E, FD, Depth + 1, Out); });
    Out.Through.insert(Out.Through.begin(), Outer.Through.begin(),
                       Outer.Through.end());
    return Found;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || VD->getType().isVolatileQualified())
    return false;
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    // A configuration struct passed by value or by const reference (a
    // const reference cannot be written through).
    const Expr *Arg = boundArgument(PVD);
    QualType T = PVD->getType();
    bool ConstRef =
        T->isReferenceType() && T->getPointeeType().isConstQualified();
    if (!Arg || (T->isReferenceType() && !ConstRef) ||
        (!ConstRef && !isNeverWritten(PVD)))
      return false;
    const CallContext *Bound = Current;
    bool Found = inContext(Bound->Parent,
                           [&] { return fieldInit(Arg, FD, Depth + 1, Out); });
    Out.Through.push_back(Binding{PVD, Bound});
    return Found;
  }
  // A local (or constant) aggregate that nothing writes after its
  // initialisation.
  bool IsConst = VD->getType().isConstQualified() || VD->isConstexpr();
  const Expr *Init = VD->getAnyInitializer();
  if (!Init || VD->getType()->isReferenceType() ||
      (!IsConst && (!VD->hasLocalStorage() || !isNeverWritten(VD))))
    return false;
  return fieldInit(Init, FD, Depth + 1, Out);
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

std::optional<FoldedArray> ConstantFolder::foldArray(const Expr *E,
                                                     const Expr *UseSite,
                                                     unsigned MaxElems) {
  return foldArrayImpl(E, UseSite, MaxElems, 0);
}

/// Drops the first \p K elements of \p A (pointer arithmetic).
static std::optional<FoldedArray> shifted(std::optional<FoldedArray> A,
                                          uint64_t K) {
  if (!A)
    return std::nullopt;
  if (A->Provided) {
    if (K > *A->Provided)
      return std::nullopt;
    *A->Provided -= K;
  }
  A->Elems.erase(A->Elems.begin(),
                 A->Elems.begin() + std::min<uint64_t>(K, A->Elems.size()));
  return A;
}

/// True when \p T is std::array or cuda::std::array.
static bool isStdArray(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->getName() != "array")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getEnclosingNamespaceContext());
  return NS && NS->getName() == "std";
}

/// The element type and extent of a C array or std::array type.
static std::optional<std::pair<QualType, uint64_t>>
arrayShape(QualType T, const ASTContext &Ctx) {
  if (const auto *CAT = Ctx.getAsConstantArrayType(T))
    return std::make_pair(CAT->getElementType(), CAT->getZExtSize());
  if (!isStdArray(T))
    return std::nullopt;
  const auto *Spec =
      dyn_cast<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() != 2)
    return std::nullopt;
  const TemplateArgument &Ty = Spec->getTemplateArgs()[0];
  const TemplateArgument &N = Spec->getTemplateArgs()[1];
  if (Ty.getKind() != TemplateArgument::Type ||
      N.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return std::make_pair(Ty.getAsType(), N.getAsIntegral().getZExtValue());
}

std::optional<FoldedArray> ConstantFolder::foldArrayImpl(const Expr *E,
                                                         const Expr *UseSite,
                                                         unsigned MaxElems,
                                                         unsigned Depth) {
  if (!isUsable(E) || Depth > MaxDepth || ++Steps > MaxSteps)
    return std::nullopt;
  E = E->IgnoreParens();

  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
    case CK_NoOp:
    case CK_LValueToRValue:
      return foldArrayImpl(Cast->getSubExpr(), UseSite, MaxElems, Depth + 1);
    case CK_BitCast: {
      // Reinterpreting the elements is only a view when the sizes agree.
      QualType To = Cast->getType()->getPointeeType();
      QualType From = Cast->getSubExpr()->getType()->getPointeeType();
      if (From.isNull() && Cast->getSubExpr()->getType()->isArrayType())
        From =
            Ctx.getAsArrayType(Cast->getSubExpr()->getType())->getElementType();
      if (To.isNull() || From.isNull() || !To->isIntegerType() ||
          !From->isIntegerType() ||
          Ctx.getTypeSize(To) != Ctx.getTypeSize(From))
        return std::nullopt;
      return foldArrayImpl(Cast->getSubExpr(), UseSite, MaxElems, Depth + 1);
    }
    default:
      return std::nullopt;
    }
  }

  if (const Expr *Forwarded = forwardedArgument(E))
    return foldArrayImpl(Forwarded, UseSite, MaxElems, Depth + 1);

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
      return foldParamArray(PVD, MaxElems, Depth + 1);
    if (VD->getType()->isPointerType()) {
      // A local pointer that is never re-pointed aliases its initialiser.
      if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() ||
          !isNeverWritten(VD))
        return std::nullopt;
      return foldArrayImpl(VD->getInit(), UseSite, MaxElems, Depth + 1);
    }
    return foldArrayVar(VD, UseSite, MaxElems, Depth + 1);
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *Ptr = BO->getLHS(), *Off = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Off);
    if (!Ptr->getType()->isPointerType() || BO->getOpcode() == BO_Sub)
      return std::nullopt;
    auto K = foldIntImpl(Off, Depth + 1);
    if (!K || K->Value.isNegative() || K->Value.getZExtValue() > MaxOffset)
      return std::nullopt;
    uint64_t N = K->Value.getZExtValue();
    return shifted(foldArrayImpl(Ptr, UseSite, MaxElems + N, Depth + 1), N);
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_AddrOf)
      return std::nullopt;
    const Expr *Sub = UO->getSubExpr()->IgnoreParens();
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub)) {
      Base = ASE->getBase();
      Index = ASE->getIdx();
    } else if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Sub);
               OCE && OCE->getOperator() == OO_Subscript &&
               OCE->getNumArgs() == 2) {
      Base = OCE->getArg(0);
      Index = OCE->getArg(1);
    }
    if (!Base)
      return std::nullopt;
    auto K = foldIntImpl(Index, Depth + 1);
    if (!K || K->Value.isNegative() || K->Value.getZExtValue() > MaxOffset)
      return std::nullopt;
    uint64_t N = K->Value.getZExtValue();
    return shifted(foldArrayImpl(Base, UseSite, MaxElems + N, Depth + 1), N);
  }

  // An array field of an aggregate built from an initialiser list.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    auto Shape = FD ? arrayShape(FD->getType(), Ctx) : std::nullopt;
    FieldInit Init;
    if (!Shape || ME->isArrow() ||
        !fieldInit(ME->getBase(), FD, Depth + 1, Init))
      return std::nullopt;
    const auto *Inits = dyn_cast<InitListExpr>(Init.E->IgnoreImplicit());
    if (!Inits || !Inits->getType()->isArrayType())
      return std::nullopt;
    FoldedArray A;
    A.Provided = Shape->second;
    A.Elems.resize(std::min<uint64_t>(Shape->second, MaxElems));
    inContext(Init.Context, [&] {
      for (unsigned I = 0; I < A.Elems.size(); ++I) {
        const Expr *El = I < Inits->getNumInits() ? Inits->getInit(I) : nullptr;
        auto V = El ? foldIntImpl(El, Depth + 1) : std::nullopt;
        if (!V && !El)
          V = FoldedInt{llvm::APSInt::get(0),
                        Origin{Inits->getSourceRange(), nullptr, nullptr, {}}};
        if (auto C =
                V ? convertTo(V->Value, Shape->first, Ctx) : std::nullopt) {
          A.Elems[I] = FoldedInt{*C, V->From};
          A.Elems[I]->From.Through.append(Init.Through.begin(),
                                          Init.Through.end());
        }
      }
      return true;
    });
    return A;
  }

  // std::array<T, N>::data()
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const auto *MD = MCE->getMethodDecl();
    if (!MD || MD->getName() != "data" || MCE->getNumArgs() != 0)
      return std::nullopt;
    const Expr *Obj = MCE->getImplicitObjectArgument();
    if (!Obj || !isStdArray(Obj->getType()))
      return std::nullopt;
    return foldArrayImpl(Obj, UseSite, MaxElems, Depth + 1);
  }
  return std::nullopt;
}

/// The initialiser list of the elements: the list itself for a C array, the
/// list of the single member array for std::array.
static const InitListExpr *elementInits(const Expr *Init) {
  const auto *ILE = dyn_cast_or_null<InitListExpr>(Init->IgnoreImplicit());
  if (!ILE)
    return nullptr;
  if (ILE->getType()->isArrayType())
    return ILE;
  if (ILE->getNumInits() == 1)
    return dyn_cast<InitListExpr>(ILE->getInit(0)->IgnoreImplicit());
  return nullptr;
}

/// The elements of a constant-evaluated array or std::array value.
static const APValue *elementValues(const APValue &V) {
  if (V.isArray())
    return &V;
  if (V.isStruct() && V.getStructNumFields() == 1 &&
      V.getStructField(0).isArray())
    return &V.getStructField(0);
  return nullptr;
}

std::optional<FoldedArray> ConstantFolder::foldArrayVar(const VarDecl *VD,
                                                        const Expr *UseSite,
                                                        unsigned MaxElems,
                                                        unsigned Depth) {
  // Arrays filled from other arrays' elements would be refolded for every
  // element read: remember each (array, use, context).
  auto Key = std::make_tuple(VD, UseSite, Current);
  auto It = ArrayMemo.find(Key);
  if (It != ArrayMemo.end()) {
    const FoldedArray &Cached = It->second;
    if (Cached.Elems.size() >= MaxElems ||
        (Cached.Provided && Cached.Elems.size() >= *Cached.Provided)) {
      FoldedArray A = Cached;
      if (A.Elems.size() > MaxElems)
        A.Elems.resize(MaxElems);
      return A;
    }
  }
  auto A = computeArrayVar(VD, UseSite, MaxElems, Depth);
  if (A)
    ArrayMemo[Key] = *A;
  return A;
}

std::optional<FoldedArray> ConstantFolder::computeArrayVar(const VarDecl *VD,
                                                           const Expr *UseSite,
                                                           unsigned MaxElems,
                                                           unsigned Depth) {
  auto Shape = arrayShape(VD->getType(), Ctx);
  if (!Shape || !Shape->first->isIntegralOrEnumerationType())
    return std::nullopt;
  QualType ElemT = Shape->first;
  FoldedArray A;
  A.Provided = Shape->second;
  A.Array = VD;
  uint64_t Count = std::min<uint64_t>(Shape->second, MaxElems);
  A.Elems.resize(Count);

  const Expr *Init = VD->getAnyInitializer();
  const InitListExpr *Inits = Init ? elementInits(Init) : nullptr;
  auto OriginOf = [&](uint64_t I) {
    if (Inits && I < Inits->getNumInits())
      return Origin{
          Inits->getInit(I)->getSourceRange(), VD, Inits->getInit(I), {}};
    return Origin{
        Init ? Init->getSourceRange() : VD->getSourceRange(), VD, nullptr, {}};
  };

  bool IsConst = ElemT.isConstQualified() || VD->isConstexpr() ||
                 VD->getType().isConstQualified();
  if (IsConst && Init && !Init->isValueDependent()) {
    // Const arrays: Clang's evaluator has the final answer.
    if (const APValue *Value = VD->evaluateValue()) {
      if (const APValue *Elems = elementValues(*Value)) {
        for (uint64_t I = 0; I < Count; ++I) {
          const APValue &E =
              I < Elems->getArrayInitializedElts()
                  ? Elems->getArrayInitializedElt(I)
                  : (Elems->hasArrayFiller() ? Elems->getArrayFiller()
                                             : APValue());
          if (E.isInt())
            A.Elems[I] = FoldedInt{E.getInt(), OriginOf(I)};
        }
      }
    }
    // A local const array initialised from parameters
    // (`uint32_t const box[] = {rows, 64};`): fold the elements the
    // evaluator could not, in the current context. Nothing writes them.
    if (Inits && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
      for (uint64_t I = 0; I < Count && I < Inits->getNumInits(); ++I) {
        if (A.Elems[I])
          continue;
        if (auto V = foldIntImpl(Inits->getInit(I), Depth + 1))
          if (auto C = convertTo(V->Value, ElemT, Ctx)) {
            A.Elems[I] = FoldedInt{*C, OriginOf(I)};
            A.Elems[I]->From.Through = V->From.Through;
          }
      }
    return A;
  }

  // Non-const globals and statics can be written anywhere: only the extent
  // is known.
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
    return A;

  if (Inits) {
    for (uint64_t I = 0; I < Count; ++I) {
      if (I < Inits->getNumInits()) {
        if (auto V = foldIntImpl(Inits->getInit(I), Depth + 1))
          if (auto C = convertTo(V->Value, ElemT, Ctx)) {
            A.Elems[I] = FoldedInt{*C, OriginOf(I)};
            A.Elems[I]->From.Through = V->From.Through;
          }
        continue;
      }
      // Elements past a partial initialiser list are zero.
      A.Elems[I] =
          FoldedInt{llvm::APSInt(llvm::APInt(Ctx.getIntWidth(ElemT), 0),
                                 ElemT->isUnsignedIntegerOrEnumerationType()),
                    OriginOf(I)};
    }
  }
  applyStores(VD, UseSite, A, Depth);
  return A;
}

const ForStmt *ConstantFolder::fillLoopOf(const ArrayUse &Use,
                                          const VarDecl *Array) {
  const ParentMap &PM = parentsOf(bodyOf(Array));
  // The store must be a statement of the loop body itself.
  DynTypedNode P = parentOf(PM, DynTypedNode::create(*Use.Where));
  if (const auto *Block = P.get<CompoundStmt>()) {
    // Another write of the same array in the body would interleave with it.
    unsigned Writes = 0;
    for (const DeclRefExpr *DRE : usesOf(Array))
      if (ancestryOf(PM).inChain(DRE, Block, Block) &&
          classifyArrayUse(PM, DRE).Kind != ArrayUse::Read)
        ++Writes;
    if (Writes != 1)
      return nullptr;
    P = parentOf(PM, P);
  }
  const auto *Loop = P.get<ForStmt>();
  if (!Loop || !countedLoopVar(Loop, PM))
    return nullptr;
  return Loop;
}

bool ConstantFolder::unrollStore(const ForStmt *Loop, const ArrayUse &Use,
                                 const VarDecl *Array, FoldedArray &A,
                                 unsigned Depth) {
  const VarDecl *Var = countedLoopVar(Loop, parentsOf(bodyOf(Array)));
  const auto *Cond = cast<BinaryOperator>(Loop->getCond());
  auto First = foldIntImpl(Var->getInit(), Depth + 1);
  auto Bound = foldIntImpl(Cond->getRHS(), Depth + 1);
  if (!First || !Bound)
    return false;
  int64_t From = First->Value.getExtValue();
  int64_t To = Bound->Value.getExtValue() + (Cond->getOpcode() == BO_LE);
  if (To - From > static_cast<int64_t>(MaxOffset) || From > To)
    return false;
  QualType ElemT = arrayShape(Array->getType(), Ctx)->first;
  for (int64_t I = From; I < To; ++I) {
    LoopValues[Var] = llvm::APSInt::get(I);
    auto Index = foldIntImpl(Use.Index, Depth + 1);
    auto Value = foldIntImpl(Use.Value, Depth + 1);
    if (!Index || Index->Value.isNegative()) {
      LoopValues.erase(Var);
      return false;
    }
    uint64_t K = Index->Value.getZExtValue();
    if (K >= A.Elems.size())
      continue;
    A.Elems[K].reset();
    if (auto C = Value ? convertTo(Value->Value, ElemT, Ctx) : std::nullopt)
      A.Elems[K] = FoldedInt{*C, Origin{Use.Value->getSourceRange(), Array,
                                        Use.Value, Value->From.Through}};
  }
  LoopValues.erase(Var);
  return true;
}

std::optional<bool> ConstantFolder::runsUnderFoldedIfs(const Stmt *Write,
                                                       const Stmt *UseSite,
                                                       const Stmt *Body,
                                                       unsigned Depth) {
  // Climb from the store through blocks and `if`s with folded conditions to
  // the statement that is straight-line before the use.
  const ParentMap &PM = parentsOf(Body);
  Ancestry &Chains = ancestryOf(PM);
  const Stmt *Child = Write;
  bool Runs = true;
  for (unsigned Steps = 0; Steps < 32; ++Steps) {
    DynTypedNode P = parentOf(PM, DynTypedNode::create(*Child));
    const Stmt *Parent = P.get<Stmt>();
    if (!Parent)
      return std::nullopt;
    if (isa<CompoundStmt>(Parent) && Chains.inChain(UseSite, Parent, Body))
      break;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (If->getInit() || If->getConditionVariable() || Child == If->getCond())
        return std::nullopt;
      auto Cond = foldIntImpl(If->getCond(), Depth + 1);
      if (!Cond)
        return std::nullopt;
      Runs = Runs && ((Cond->Value != 0) == (Child == If->getThen()));
    } else if (!isa<CompoundStmt>(Parent)) {
      return std::nullopt;
    }
    Child = Parent;
  }
  if (Child == Write ||
      Chains.orderOf(Child, UseSite, Body, Positions) != Order::Before)
    return std::nullopt;
  return Runs;
}

Ancestry &ConstantFolder::ancestryOf(const ParentMap &PM) {
  auto &A = Ancestries[&PM];
  if (!A)
    A = std::make_unique<Ancestry>(PM);
  return *A;
}

llvm::ArrayRef<const DeclRefExpr *>
ConstantFolder::writesOf(const VarDecl *VD, const ParentMap &PM) {
  auto [It, New] = Writes.try_emplace(VD);
  if (New)
    for (const DeclRefExpr *DRE : usesOf(VD)) {
      auto [KindIt, NewKind] = UseKinds.try_emplace(DRE, ArrayUse{});
      if (NewKind)
        KindIt->second = classifyArrayUse(PM, DRE);
      if (KindIt->second.Kind != ArrayUse::Read)
        It->second.push_back(DRE);
    }
  return It->second;
}

void ConstantFolder::applyStores(const VarDecl *VD, const Expr *UseSite,
                                 FoldedArray &A, unsigned Depth) {
  const Stmt *Body = bodyOf(VD);
  if (!Body)
    return;
  const ParentMap &PM = parentsOf(Body);
  Ancestry &Chains = ancestryOf(PM);
  QualType ElemT = arrayShape(VD->getType(), Ctx)->first;
  auto Forget = [](FoldedArray &Arr) {
    for (auto &E : Arr.Elems)
      E.reset();
  };
  // What one use does to \p Arr as seen at UseSite; false when the array
  // escapes there (then nothing about it is known).
  auto Apply = [&](const DeclRefExpr *DRE, FoldedArray &Arr) {
    // The use site's own operands are what is being folded; whatever the
    // callee does through them happens after the values are read (callees
    // that write through a parameter are refused in foldParamArray).
    if (Chains.inChain(DRE, UseSite, UseSite))
      return true;
    auto [KindIt, NewKind] = UseKinds.try_emplace(DRE, ArrayUse{});
    if (NewKind)
      KindIt->second = classifyArrayUse(PM, DRE);
    ArrayUse Use = KindIt->second;
    if (Use.Kind == ArrayUse::Read)
      return true;
    Order When = Chains.orderOf(Use.Where, UseSite, Body, Positions);
    // A goto can jump over straight-line code (or back over the use).
    if (When != Order::MaybeBefore && hasJumps(Body))
      When = Order::MaybeBefore;
    if (When == Order::After)
      return true;
    if (Use.Kind == ArrayUse::Store && When == Order::MaybeBefore) {
      if (const ForStmt *Loop = fillLoopOf(Use, VD)) {
        Order LoopOrder = Chains.orderOf(Loop, UseSite, Body, Positions);
        if (LoopOrder == Order::After)
          return true;
        if (LoopOrder == Order::Before &&
            unrollStore(Loop, Use, VD, Arr, Depth))
          return true;
      } else if (auto Runs =
                     runsUnderFoldedIfs(Use.Where, UseSite, Body, Depth)) {
        if (!*Runs)
          return true;
        When = Order::Before;
      }
    }
    if (Use.Kind == ArrayUse::Escape) {
      Forget(Arr);
      return false;
    }
    auto Index = foldIntImpl(Use.Index, Depth + 1);
    if (!Index || Index->Value.isNegative()) {
      Forget(Arr);
      return true;
    }
    uint64_t I = Index->Value.getZExtValue();
    if (I >= Arr.Elems.size())
      return true;
    Arr.Elems[I].reset();
    if (Use.Kind != ArrayUse::Store || When != Order::Before)
      return true;
    if (auto V = foldIntImpl(Use.Value, Depth + 1))
      if (auto C = convertTo(V->Value, ElemT, Ctx))
        Arr.Elems[I] = FoldedInt{*C, Origin{Use.Value->getSourceRange(), VD,
                                            Use.Value, V->From.Through}};
    return true;
  };

  // Reads change nothing: only the other uses are applied (each site
  // scanned every read of the array, D^2 for D nested lambdas).
  llvm::ArrayRef<const DeclRefExpr *> Uses = writesOf(VD, PM);
  auto ApplyAll = [&] {
    for (const DeclRefExpr *DRE : Uses)
      if (!Apply(DRE, A))
        return;
  };
  // Without gotos, the uses in the statements of a block before the one
  // that holds the site act the same for every later site in the block, and
  // those after it are after the site; so do the uses before the block when
  // only blocks and `if`s lie between it and the body. The state before the
  // site's statement is carried from site to site, per block (each site
  // paid for every store before it: N encode calls re-storing shared arrays
  // cost N^2, in the body or in a block nested in it).
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  if (!Block || hasJumps(Body) || !LoopValues.empty())
    return ApplyAll();
  // The statements from the site up to the body.
  llvm::SmallVector<const Stmt *, 32> Path;
  for (const Stmt *X = UseSite; X != Body;
       X = PM.getParent(const_cast<Stmt *>(X))) {
    if (!X || Path.size() > MaxStmtDepth)
      return ApplyAll();
    Path.push_back(X);
  }
  if (Path.empty())
    return ApplyAll();
  std::reverse(Path.begin(), Path.end());
  // The blocks from the body down to the site through blocks and `if`s,
  // and the position in each of the statement that holds the site.
  llvm::SmallVector<const CompoundStmt *, 4> Blocks{Block};
  llvm::SmallVector<unsigned, 4> Tops;
  for (size_t I = 0; I < Path.size();) {
    Tops.push_back(Positions.of(Blocks.back(), Path[I]));
    size_t J = I;
    if (const auto *If = dyn_cast<IfStmt>(Path[J]);
        If && J + 1 < Path.size() &&
        (Path[J + 1] == If->getThen() || Path[J + 1] == If->getElse()))
      ++J;
    const auto *Inner = dyn_cast<CompoundStmt>(Path[J]);
    if (!Inner || J + 1 >= Path.size())
      break;
    Blocks.push_back(Inner);
    I = J + 1;
  }
  StorePrefix *P = storePrefix(VD, A, Blocks, Tops, Blocks.size() - 1, Uses,
                               PM, Depth, Apply);
  if (!P)
    return ApplyAll();
  A = P->A;
  if (P->Escaped)
    return;
  // The uses in the site's statement.
  size_t I = P->Next;
  for (; I < P->End; ++I) {
    if (positionIn(PM, Uses[I], P->Block) > Tops.back())
      break;
    if (!Apply(Uses[I], A))
      return;
  }
  // The later statements of the site's block are after the site; the rest
  // of each statement around the block (an `else`, a condition after it)
  // may not be, up to the body.
  I = P->End;
  for (StorePrefix *X = P; X->Parent; X = X->Parent) {
    StorePrefix *Y = X->Parent;
    for (; I < Y->End; ++I) {
      if (positionIn(PM, Uses[I], Y->Block) > X->ParentTop)
        break;
      if (!Apply(Uses[I], A))
        return;
    }
    I = Y->End;
  }
}

unsigned ConstantFolder::positionIn(const ParentMap &PM, const Stmt *S,
                                    const CompoundStmt *Block) {
  const Stmt *Child = S;
  for (unsigned Steps = 0; Steps <= MaxStmtDepth; ++Steps) {
    const Stmt *Parent = PM.getParent(const_cast<Stmt *>(Child));
    if (!Parent)
      return NotIn;
    if (Parent == Block)
      return Positions.of(Block, Child);
    Child = Parent;
  }
  return Unknown;
}

ConstantFolder::StorePrefix *ConstantFolder::storePrefix(
    const VarDecl *VD, const FoldedArray &Init,
    llvm::ArrayRef<const CompoundStmt *> Blocks, llvm::ArrayRef<unsigned> Tops,
    size_t Level, llvm::ArrayRef<const DeclRefExpr *> Uses,
    const ParentMap &PM, unsigned Depth,
    llvm::function_ref<bool(const DeclRefExpr *, FoldedArray &)> Apply) {
  const CompoundStmt *B = Blocks[Level];
  auto Key = std::make_tuple(VD, Current, Init.Elems.size(), Depth, B);
  auto [It, New] = Prefixes.try_emplace(Key, StorePrefix{});
  StorePrefix &P = It->second;
  if (New) {
    P.Block = B;
    P.Valid = false;
    if (Level == 0) {
      P.A = Init;
    } else {
      StorePrefix *Up = storePrefix(VD, Init, Blocks, Tops, Level - 1, Uses,
                                    PM, Depth, Apply);
      if (!Up)
        return nullptr;
      P.Parent = Up;
      P.ParentTop = Tops[Level - 1];
      P.A = Up->A;
      P.Next = Up->Next;
      P.Escaped = Up->Escaped;
      // The uses in the parent's statement before the block (a condition).
      for (; P.Next < Up->End; ++P.Next) {
        if (positionIn(PM, Uses[P.Next], B) != NotIn)
          break;
        unsigned T = positionIn(PM, Uses[P.Next], Up->Block);
        if (T != P.ParentTop)
          return nullptr; // After the block, or out of order.
        if (!P.Escaped && !Apply(Uses[P.Next], P.A))
          P.Escaped = true;
      }
    }
    // The uses in the block: in the order of its statements, and (in the
    // body) all of them.
    unsigned Last = 0;
    for (P.End = P.Next; P.End < Uses.size(); ++P.End) {
      unsigned T = positionIn(PM, Uses[P.End], B);
      if (T == Unknown || (T != NotIn && T < Last))
        return nullptr;
      if (T == NotIn)
        break;
      Last = T;
    }
    if (Level == 0 && P.End != Uses.size())
      return nullptr;
    P.Valid = true;
  }
  // A prefix found out of order, or a site before the one the state was
  // carried to: every use is applied instead.
  if (!P.Valid || Tops[Level] < P.Top)
    return nullptr;
  for (; P.Next < P.End && !P.Escaped; ++P.Next) {
    if (positionIn(PM, Uses[P.Next], B) >= Tops[Level])
      break;
    if (!Apply(Uses[P.Next], P.A))
      P.Escaped = true;
  }
  P.Top = Tops[Level];
  return &P;
}

//===----------------------------------------------------------------------===//
// Call-site contexts
//===----------------------------------------------------------------------===//

std::optional<FoldedInt> ConstantFolder::foldParam(const ParmVarDecl *PVD,
                                                   unsigned Depth) {
  const Expr *Arg = boundArgument(PVD);
  if (!Arg || PVD->getType().isVolatileQualified() || !isNeverWritten(PVD))
    return std::nullopt;
  const CallContext *Bound = Current;
  auto V =
      inContext(Bound->Parent, [&] { return foldIntImpl(Arg, Depth + 1); });
  if (!V)
    return std::nullopt;
  auto C = convertTo(V->Value, PVD->getType().getNonReferenceType(), Ctx);
  if (!C)
    return std::nullopt;
  V->Value = *C;
  V->From.Through.push_back(Binding{PVD, Bound});
  return V;
}

std::optional<FoldedArray>
ConstantFolder::foldParamArray(const ParmVarDecl *PVD, unsigned MaxElems,
                               unsigned Depth) {
  const Expr *Arg = boundArgument(PVD);
  QualType Pointee = PVD->getType()->getPointeeType();
  // A pointer parameter must not be re-pointed; a reference cannot be.
  if (!Arg || Pointee.isNull() ||
      (!PVD->getType()->isReferenceType() && !isNeverWritten(PVD)))
    return std::nullopt;
  // Through a pointer to non-const the callee could write the elements.
  if (!Pointee.isConstQualified())
    for (const DeclRefExpr *Use : usesOf(PVD))
      if (classifyArrayUse(parentsOf(bodyOf(PVD)), Use).Kind != ArrayUse::Read)
        return std::nullopt;
  const CallContext *Bound = Current;
  auto A = inContext(Bound->Parent, [&] {
    return foldArrayImpl(Arg, Bound->Call, MaxElems, Depth + 1);
  });
  if (A)
    for (auto &E : A->Elems)
      if (E)
        E->From.Through.push_back(Binding{PVD, Bound});
  return A;
}

} // namespace clang::tidy::tma
