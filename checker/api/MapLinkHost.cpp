//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// MapLink's host side: from a launch argument (or a `__constant__` map's
// cudaMemcpyToSymbol) through variables, pointers, struct fields, helpers'
// returns and out-parameters, constructors and getters to the one encode
// call that writes the map, and the map's operands folded in that call's
// context (describe).
//
//===----------------------------------------------------------------------===//

#include "api/BarrierPhases.h"
#include "api/MapLink.h"
#include "api/MapLinkPaths.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

using namespace maplink;

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

std::optional<LinkedMap> MapLinker::fromSymbol(const VarDecl *Var, PathRef Path,
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
                                                unsigned Depth, PathRef Path) {
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
      return fromReturn(Call, FD, /*Pointer=*/true, P.Context, Depth + 1, Path);
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

std::optional<LinkedMap> MapLinker::fromReturn(const CallExpr *Call,
                                               const FunctionDecl *Callee,
                                               bool Pointer,
                                               const CallContext *Parent,
                                               unsigned Depth, PathRef Path) {
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

MapLinker::CallWrite MapLinker::fromOutParam(const CallExpr *Call,
                                             const FunctionDecl *Callee,
                                             unsigned Param,
                                             const CallContext *Parent,
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
        Found = fromValue(Op->getArg(1), Place{Callee, Op, Context}, Depth + 1,
                          Rest);
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

std::optional<LinkedMap> MapLinker::fromConstruct(const CXXConstructExpr *CE,
                                                  unsigned Depth,
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
  CallWrite W =
      writesThrough(Uses, /*This=*/true, /*Pointer=*/true, P, Depth + 1, Path);
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
      Add(Op, PointeeHere ? std::nullopt
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
    const bool ByRef =
        !PointeeHere && !AddressTaken && bindsMutableReference(*Call, *ArgIdx);
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
