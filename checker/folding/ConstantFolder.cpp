//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/FoldCommon.h"
#include "folding/Stats.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <functional>
#include <utility>

namespace clang::tidy::tma {

using namespace foldcommon;


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

/// The value of the conversion operator call \p E when its body is one
/// `return X;` whose X names nothing of the object (`return value;` of
/// std::integral_constant or CuTe's C<v>, a static constexpr member): the
/// value is X's whatever the object holds.
static std::optional<llvm::APSInt> objectFreeConversion(const Expr *E) {
  const auto *Call =
      dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  const auto *Conv = Call ? dyn_cast_or_null<CXXConversionDecl>(
                                Call->getMethodDecl())
                          : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Conv || !Conv->hasBody(Def) || !Def || !Def->isConstexpr() ||
      Call->HasSideEffects(Def->getASTContext()))
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  const Expr *X = Ret ? Ret->getRetValue() : nullptr;
  if (!X || X->isValueDependent() ||
      !X->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  // Nothing of the object: no `this`, no non-static member.
  bool Free = true;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S || !Free)
      return;
    if (isa<CXXThisExpr>(S))
      Free = false;
    if (const auto *M = dyn_cast<MemberExpr>(S))
      if (!isa<VarDecl>(M->getMemberDecl()))
        Free = false;
    for (const Stmt *C : S->children())
      Scan(C);
  };
  Scan(X);
  Expr::EvalResult R;
  if (!Free || !X->EvaluateAsInt(R, Def->getASTContext()) ||
      R.HasSideEffects || !R.Val.isInt())
    return std::nullopt;
  return R.Val.getInt();
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
    case CK_UserDefinedConversion:
      // `int(Int<4>{})`, `i < S` with CuTe's `C<4> S`: a conversion whose
      // value does not depend on the object.
      if (auto V = objectFreeConversion(Cast->getSubExpr()))
        if (auto C = convertTo(*V, Cast->getType(), Ctx))
          return FoldedInt{*C, originOf(E)};
      return std::nullopt;
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
    if (!Cond) {
      // `c ? 1 : 1` (DeepGEMM's `(kOnA and valid) ? kNumTMAMulticast : 1`
      // with one CTA per cluster): the value both arms fold to.
      auto T = foldIntImpl(CO->getTrueExpr(), Depth + 1);
      auto F = T ? foldIntImpl(CO->getFalseExpr(), Depth + 1) : std::nullopt;
      if (!T || !F || T->Value.getBitWidth() != F->Value.getBitWidth() ||
          T->Value.isSigned() != F->Value.isSigned() || T->Value != F->Value)
        return std::nullopt;
      return T;
    }
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

} // namespace clang::tidy::tma
