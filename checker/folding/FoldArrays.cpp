//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// ConstantFolder's arrays: local arrays built by initialiser lists, element
// stores and fill loops, std::array, pointer arithmetic into them, and the
// store prefixes that carry an array's state from site to site.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/FoldCommon.h"
#include "folding/Stats.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include <utility>

namespace clang::tidy::tma {

using namespace foldcommon;

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
  // The statements from the body down to the site: Path(I) is the one I
  // edges below the body's statement that holds the site. Read off the
  // ancestry's jumps, only as far down as blocks and `if`s go (a walk up
  // from the site cost its depth: D^2 for sites in D nested lambdas).
  // (As the walk did: none when the site is the body or not under it, or
  // more than MaxStmtDepth + 1 statements deep.)
  std::optional<unsigned> Edges = Chains.edgesUpTo(UseSite, Body);
  if (!Edges || *Edges == 0 || *Edges > MaxStmtDepth + 1)
    return ApplyAll();
  const size_t PathSize = *Edges;
  auto Path = [&](size_t I) {
    return Chains.ancestorOf(UseSite, PathSize - 1 - I);
  };
  // The blocks from the body down to the site through blocks and `if`s,
  // and the position in each of the statement that holds the site.
  llvm::SmallVector<const CompoundStmt *, 4> Blocks{Block};
  llvm::SmallVector<unsigned, 4> Tops;
  for (size_t I = 0; I < PathSize;) {
    Tops.push_back(Positions.of(Blocks.back(), Path(I)));
    size_t J = I;
    if (const auto *If = dyn_cast<IfStmt>(Path(J));
        If && J + 1 < PathSize &&
        (Path(J + 1) == If->getThen() || Path(J + 1) == If->getElse()))
      ++J;
    const auto *Inner = dyn_cast<CompoundStmt>(Path(J));
    if (!Inner || J + 1 >= PathSize)
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
  auto [It, New] = PositionsIn.try_emplace({&PM, S, Block}, Unknown);
  if (!New)
    return It->second;
  const Stmt *Child = S;
  for (unsigned Steps = 0; Steps <= MaxStmtDepth; ++Steps) {
    const Stmt *Parent = PM.getParent(const_cast<Stmt *>(Child));
    if (!Parent)
      return It->second = NotIn;
    if (Parent == Block)
      return It->second = Positions.of(Block, Child);
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
    constexpr size_t OutOfOrder = ~size_t(0);
    auto [Scan, NewScan] = BlockScans.try_emplace({VD, B, P.Next}, OutOfOrder);
    if (NewScan) {
      unsigned Last = 0;
      size_t End = P.Next;
      for (; End < Uses.size(); ++End) {
        unsigned T = positionIn(PM, Uses[End], B);
        if (T == Unknown || T == NotIn || T < Last)
          break;
        Last = T;
      }
      // Stopped on a use out of order (or, in the body, short of the end).
      bool InOrder = End == Uses.size() ||
                     (Level != 0 && positionIn(PM, Uses[End], B) == NotIn);
      Scan->second = InOrder ? End : OutOfOrder;
    }
    if (Scan->second == OutOfOrder)
      return nullptr;
    P.End = Scan->second;
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

} // namespace clang::tidy::tma
