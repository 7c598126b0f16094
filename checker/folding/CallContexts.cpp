//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Call-site contexts: the calls of each function in the TU (one traversal),
// and the contexts in which a function's parameters are bound to the
// arguments of its callers.
//
//===----------------------------------------------------------------------===//

#include "folding/ConstantFolder.h"
#include "folding/FoldCommon.h"
#include "folding/Stats.h"
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

namespace clang::tidy::tma {

/// Call-site contexts follow at most this many callers outwards...
static constexpr unsigned MaxContextDepth = 4;
/// ...keep at most this many contexts per function...
static constexpr size_t MaxContextsPerFunction = 64;
/// ...and at most this many in a translation unit. Contexts are chosen
/// breadth-first (shorter chains of callers first, round-robin over the
/// callers), so a full budget drops the deepest chains, not the last callers.
static constexpr size_t MaxContextsPerTU = 16384;
/// At most this many chains of callers are explored per function.
static constexpr size_t MaxChainsExplored = 4096;

namespace {
/// Collects the calls of every function, template instantiations included,
/// and the function (or lambda call operator) each call is in.
class CallIndexer : public RecursiveASTVisitor<CallIndexer> {
public:
  using Item = ConstantFolder::IndexItem;
  using CallerMap = llvm::DenseMap<const CallExpr *, const FunctionDecl *>;
  /// \p SM null: only the enclosing function of each call (the fallback of
  /// enclosingFunction). Otherwise the index in walk order (\p Items), and
  /// with \p From valid, bodies that cannot name a function first named
  /// there or later are left out (an Item::LeftOut in their place).
  CallIndexer(std::vector<Item> *Items, CallerMap &Callers,
              const SourceManager *SM, SourceLocation From = SourceLocation())
      : Items(Items), Callers(Callers), SM(SM), From(From) {}
  /// The fallback for one call at \p Around: only the functions whose
  /// source range holds it (everything the walk visits inside a function
  /// lies in its range; an instantiation has its pattern's) are walked.
  CallIndexer(CallerMap &Callers, const SourceManager &Within,
              SourceLocation Around)
      : Callers(Callers), SM(nullptr), Within(&Within),
        Around(Within.getExpansionLoc(Around)) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Calls in types (decltype, array bounds) are never evaluated: skipping
  // type locations saves a third of the walk over template-heavy TUs.
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  bool TraverseType(QualType, bool = true) { return true; }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc) { return true; }
  bool TraverseDecl(Decl *D) {
    if (D && SM && skip(*D))
      return true;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD && From.isValid() && cannotNameLater(*FD)) {
      LeftOut = true;
      Items->push_back({Item::LeftOut, FD, nullptr});
      return true;
    }
    if (FD && Within && !holdsAround(*FD))
      return true;
    if (FD)
      Stack.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Stack.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    Stack.push_back(Lambda->getCallOperator());
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(Lambda);
    Stack.pop_back();
    return Result;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (!SM) {
      if (!Stack.empty())
        Callers[Call] = Stack.back();
      return true;
    }
    if (const FunctionDecl *Kernel = launchedKernel(*Call))
      Items->push_back({Item::Direct, Call, Kernel->getCanonicalDecl()});
    if (const FunctionDecl *FD = Call->getDirectCallee())
      Items->push_back({Item::Direct, Call, FD->getCanonicalDecl()});
    else if (const auto *Param = functionPointerParam(*Call))
      Items->push_back({Item::Through, Call, Param});
    else
      Items->push_back({Item::Indirect, Call, nullptr});
    if (!Stack.empty())
      Callers[Call] = Stack.back();
    return true;
  }

  /// Some body was left out (cannotNameLater).
  bool LeftOut = false;

private:
  /// Whether no call in \p FD can call a function first named at From or
  /// later: a name is found only where it was declared before, so a
  /// non-template function that ends before From (a member: its outermost
  /// class, whose member bodies see every member) calls none. Template
  /// instantiations are walked (their calls bind at the point of
  /// instantiation), and so are functions whose calls are not by name:
  /// through a function-pointer parameter (ThroughParams: what the callers
  /// pass), or that may return a lambda (a deduced return type).
  bool cannotNameLater(const FunctionDecl &FD) {
    if (FD.getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        FD.getDeclaredReturnType()->getContainedDeducedType())
      return false;
    for (const ParmVarDecl *P : FD.parameters()) {
      QualType T = P->getType().getNonReferenceType();
      if (T->isPointerType())
        T = T->getPointeeType();
      if (T->isFunctionType())
        return false;
    }
    const Decl *Outer = &FD;
    for (const DeclContext *DC = FD.getLexicalDeclContext();
         DC && isa<RecordDecl>(DC); DC = DC->getLexicalParent())
      Outer = cast<Decl>(DC);
    SourceLocation End = Outer->getEndLoc();
    return End.isValid() && beforeFrom(SM->getExpansionLoc(End));
  }

  /// Whether \p Loc (a file location) is before From. Every location of a
  /// file that is neither From's (where it is expanded, where it is
  /// spelled) nor one of the files that include those is on the same side
  /// of From: answered once per file (tens of thousands of functions, a few
  /// hundred files).
  bool beforeFrom(SourceLocation Loc) {
    FileID File = SM->getFileID(Loc);
    if (FromChain.empty())
      for (SourceLocation Start :
           {SM->getExpansionLoc(From), SM->getSpellingLoc(From)})
        for (SourceLocation L = Start; L.isValid();
             L = SM->getIncludeLoc(SM->getFileID(L)))
          FromChain.insert(SM->getFileID(L));
    if (FromChain.count(File))
      return SM->isBeforeInTranslationUnit(Loc, From);
    auto [It, New] = FileBefore.try_emplace(File, false);
    if (New)
      It->second = SM->isBeforeInTranslationUnit(Loc, From);
    return It->second;
  }

  /// The contexts index leaves out system headers (their calls of user code
  /// pass library internals, and the checks skip their sites) and template
  /// patterns (a call there binds no instantiated value; each instantiation
  /// is walked): on CUTLASS and DeepGEMM TUs most of the AST.
  bool skip(const Decl &D) const {
    if (const auto *DC = dyn_cast<DeclContext>(&D);
        DC && DC->isDependentContext())
      return true;
    // A function's own declarations (parameters, locals) lie in it: it was
    // not in a system header.
    if (isa_and_nonnull<FunctionDecl>(D.getLexicalDeclContext()))
      return false;
    SourceLocation Loc = D.getLocation();
    return Loc.isValid() && !isa<TranslationUnitDecl>(D) &&
           SM->isInSystemHeader(Loc);
  }

  static const ParmVarDecl *functionPointerParam(const CallExpr &Call) {
    const auto *Ref =
        dyn_cast_or_null<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts());
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || !isa<FunctionDecl>(Param->getDeclContext()))
      return nullptr;
    QualType T = Param->getType().getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return T->isFunctionType() ? Param : nullptr;
  }

  /// The kernel that cudaLaunchKernelEx(config, kernel, args...) launches.
  static const FunctionDecl *launchedKernel(const CallExpr &Call) {
    if (launchArgumentOffset(Call) == 0)
      return nullptr;
    const FunctionDecl *FD = functionOf(Call.getArg(1));
    return FD && FD->hasAttr<CUDAGlobalAttr>() ? FD : nullptr;
  }

  /// Whether \p FD's source range holds Around (a function made by a
  /// macro spans its expansion).
  bool holdsAround(const FunctionDecl &FD) const {
    SourceRange R = FD.getSourceRange();
    if (R.isInvalid())
      return true;
    SourceLocation B = Within->getExpansionLoc(R.getBegin());
    SourceLocation E = Within->getExpansionRange(R.getEnd()).getEnd();
    return !Within->isBeforeInTranslationUnit(Around, B) &&
           !Within->isBeforeInTranslationUnit(E, Around);
  }

  std::vector<Item> *Items = nullptr;
  CallerMap &Callers;
  const SourceManager *SM;
  const SourceManager *Within = nullptr;
  SourceLocation Around;
  SourceLocation From;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  /// From's file and the files that include it (beforeFrom).
  llvm::DenseSet<FileID> FromChain;
  llvm::DenseMap<FileID, bool> FileBefore;
};
} // namespace

bool ConstantFolder::before(SourceLocation A, SourceLocation B) const {
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                      SM.getExpansionLoc(B));
}

SourceLocation ConstantFolder::firstNamed(const FunctionDecl *F) {
  // The earliest of the declarations through which code can name F; an
  // invalid location anywhere gives an invalid result (index everything).
  // Each function's own part (its declarations, its template's, the classes
  // around it up to the next function) is taken once, and the answer of
  // the function around it is memoised: a lambda nested D deep walked D
  // levels at every question.
  auto Own = [&](const FunctionDecl *X, const FunctionDecl *&Around) {
    SourceLocation Min;
    bool Unknown = false;
    auto Take = [&](const Decl *D) {
      if (!D || Unknown)
        return;
      SourceLocation L = D->getCanonicalDecl()->getBeginLoc();
      if (L.isInvalid())
        Unknown = true;
      else if (Min.isInvalid() || before(L, Min))
        Min = L;
    };
    Take(X);
    Take(X->getPrimaryTemplate());
    Take(X->getInstantiatedFromMemberFunction());
    Take(X->getTemplateInstantiationPattern());
    // The classes around it (a lambda's closure is in a function), then
    // the function around those.
    Around = nullptr;
    for (const DeclContext *DC = X->getDeclContext(); DC;
         DC = DC->getParent()) {
      if (const auto *R = dyn_cast<CXXRecordDecl>(DC)) {
        Take(R);
        Take(R->getInstantiatedFromMemberClass());
        if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(R))
          Take(S->getSpecializedTemplate());
        continue;
      }
      if (const auto *Fn = dyn_cast<FunctionDecl>(DC)) {
        Around = Fn;
        break;
      }
      if (!isa<LinkageSpecDecl, ExportDecl>(DC))
        break; // A namespace or the TU.
    }
    return std::make_pair(Min, Unknown);
  };
  // F and the functions around it, innermost first, up to one answered.
  llvm::SmallVector<std::tuple<const FunctionDecl *, SourceLocation, bool>, 4>
      Chain;
  SourceLocation Min;
  bool Unknown = false;
  for (const FunctionDecl *X = F; X;) {
    if (auto It = FirstNamed.find(X); It != FirstNamed.end()) {
      Min = It->second;
      Unknown = Min.isInvalid();
      break;
    }
    const FunctionDecl *Around = nullptr;
    auto [L, U] = Own(X, Around);
    Chain.emplace_back(X, L, U);
    X = Around;
  }
  for (auto [X, L, U] : llvm::reverse(Chain)) {
    Unknown = Unknown || U;
    if (!Unknown && (Min.isInvalid() || before(L, Min)))
      Min = L;
    FirstNamed[X] = Unknown ? SourceLocation() : Min;
  }
  return Unknown ? SourceLocation() : Min;
}

/// The two functions of a never-written local function pointer initialised
/// with a choice (fast.cu's `auto *kernel = DB ? k<.., true> : k<..,
/// false>; kernel<<<...>>>(...)`): the call calls one of them, with the
/// same arguments. Empty for anything else.
static llvm::SmallVector<const FunctionDecl *, 2>
chosenFunctions(const Expr *E, ConstantFolder &Folder) {
  const auto *Ref =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *Choice =
      Var && Var->getInit()
          ? dyn_cast<ConditionalOperator>(Var->getInit()->IgnoreParenImpCasts())
          : nullptr;
  if (!Choice || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Folder.isNeverWritten(Var))
    return {};
  const FunctionDecl *T = functionOf(Choice->getTrueExpr());
  const FunctionDecl *F = functionOf(Choice->getFalseExpr());
  if (!T || !F)
    return {};
  if (T->getCanonicalDecl() == F->getCanonicalDecl())
    return {T};
  return {T, F};
}

void ConstantFolder::indexCallsOf(const FunctionDecl *F) {
  indexCalls(F ? firstNamed(F) : SourceLocation());
}

void ConstantFolder::indexCalls(SourceLocation From) {
  // Built for a place no later than From: it holds what is asked.
  if (Callers && (!Partial || (From.isValid() && !before(From, IndexedFrom))))
    return;
  ++CostStats::get().IndexWalks;
  if (Callers) {
    // Built for a later place (a function named earlier, a call in a body
    // left out): once more, leaving nothing out. Only the bodies left out
    // are walked, each in its place of the first walk's order, which is
    // then the order of a walk of the whole TU (the order of the contexts).
    From = SourceLocation();
    std::vector<IndexItem> Whole;
    Whole.reserve(IndexItems.size());
    for (const IndexItem &I : IndexItems) {
      if (I.K != IndexItem::LeftOut) {
        Whole.push_back(I);
        continue;
      }
      CallIndexer Indexer(&Whole, CallerOf, &Ctx.getSourceManager());
      Indexer.TraverseDecl(
          const_cast<FunctionDecl *>(static_cast<const FunctionDecl *>(I.A)));
    }
    IndexItems = std::move(Whole);
    Partial = false;
  } else {
    CallIndexer Indexer(&IndexItems, CallerOf, &Ctx.getSourceManager(), From);
    Indexer.TraverseAST(Ctx);
    Partial = Indexer.LeftOut;
  }
  IndexedFrom = From;
  Callers.emplace();
  ThroughParam.clear();
  // Other calls through a pointer, such as a local function pointer
  // initialised with a function (`auto *kernel = gemm<128>;
  // kernel<<<g, b>>>(...)`): the caller resolves what it can. Calls through
  // a function-pointer parameter (`template <class K> void launch(K
  // *kernel, ...) { kernel<<<g, b>>>(...); }`): a call of each function
  // that a call of the enclosing function passes.
  llvm::SmallVector<const CallExpr *, 16> Indirect;
  llvm::SmallVector<std::pair<const CallExpr *, const ParmVarDecl *>, 16>
      ThroughParams;
  for (const IndexItem &I : IndexItems) {
    const auto *Call = static_cast<const CallExpr *>(I.A);
    if (I.K == IndexItem::Direct)
      (*Callers)[static_cast<const FunctionDecl *>(I.B)].push_back(Call);
    else if (I.K == IndexItem::Indirect)
      Indirect.push_back(Call);
    else if (I.K == IndexItem::Through)
      ThroughParams.emplace_back(Call, static_cast<const ParmVarDecl *>(I.B));
  }
  // Kept only while a later question may need the bodies left out.
  if (!Partial)
    std::vector<IndexItem>().swap(IndexItems);
  for (const CallExpr *Call : Indirect) {
    if (const FunctionDecl *F = calledFunction(Call->getCallee())) {
      (*Callers)[F->getCanonicalDecl()].push_back(Call);
      continue;
    }
    for (const FunctionDecl *F : chosenFunctions(Call->getCallee(), *this))
      (*Callers)[F->getCanonicalDecl()].push_back(Call);
  }
  for (auto [Call, Param] : ThroughParams) {
    if (!isNeverWritten(Param))
      continue;
    const auto *Outer = cast<FunctionDecl>(Param->getDeclContext());
    auto It = Callers->find(Outer->getCanonicalDecl());
    if (It == Callers->end())
      continue;
    llvm::SmallPtrSet<const FunctionDecl *, 4> Passed;
    for (const CallExpr *OuterCall : It->second) {
      CallContext Bound{OuterCall, Outer, nullptr};
      if (const FunctionDecl *F = calledFunction(argumentFor(Param, &Bound)))
        Passed.insert(F->getCanonicalDecl());
    }
    for (const FunctionDecl *F : Passed) {
      (*Callers)[F].push_back(Call);
      ThroughParam[Call] = Param;
    }
  }
}

const FunctionDecl *ConstantFolder::calledFunction(const Expr *E) {
  if (const FunctionDecl *F = functionOf(E))
    return F;
  // A local function pointer initialised with a function and never changed.
  const auto *Ref =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !isNeverWritten(Var))
    return nullptr;
  return functionOf(Var->getInit());
}

const FunctionDecl *functionOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

const FunctionDecl *ConstantFolder::enclosingFunction(const CallExpr *Call) {
  if (Callers)
    if (const FunctionDecl *F = CallerOf.lookup(Call))
      return F;
  const FunctionDecl *Owner = nullptr;
  if (const FunctionDecl *F = enclosingByLocal(Call, &Owner))
    return F;
  // The body that holds the call ends after it: not left out.
  indexCalls(Call->getBeginLoc());
  if (const FunctionDecl *F = CallerOf.lookup(Call))
    return F;
  // Calls the contexts index leaves out (template patterns, system headers,
  // no local operand, a call in a decltype): the TU once per such call,
  // into the functions that span it only (python_api.cpp's torch headers
  // were walked whole, for a call that no body holds).
  if (!AllCallers)
    AllCallers.emplace();
  auto [It, New] = AllCallers->try_emplace(Call, nullptr);
  if (!New)
    return It->second;
  ++CostStats::get().FullWalks;
  CallIndexer::CallerMap Found;
  // A call that names a local or parameter of Owner lies in Owner's
  // declaration (its body, or outside it: a decltype in the return type),
  // which the walk of the TU visits once: that walk alone. Not for what the
  // walk of the TU never visits: implicit code, the closures of lambdas
  // (an instantiated generic lambda).
  auto InLambda = [](const Decl *D) {
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *R = dyn_cast<CXXRecordDecl>(DC); R && R->isLambda())
        return true;
    return false;
  };
  if (Owner && !Owner->isImplicit() && !InLambda(Owner)) {
    CallIndexer Indexer(nullptr, Found, nullptr);
    Indexer.TraverseDecl(const_cast<FunctionDecl *>(Owner));
  } else {
    CallIndexer Indexer(Found, Ctx.getSourceManager(), Call->getBeginLoc());
    Indexer.TraverseAST(Ctx);
  }
  for (auto [C, F] : Found)
    AllCallers->try_emplace(C, F);
  return (*AllCallers)[Call] = Found.lookup(Call);
}

const FunctionDecl *ConstantFolder::enclosingByLocal(const CallExpr *Call,
                                                     const FunctionDecl **Owner) {
  // A local or parameter that the call's operands name is declared in the
  // function that holds the call, or in one around the lambda that does.
  llvm::SmallVector<const Stmt *, 16> Work(Call->children());
  const FunctionDecl *Candidate = nullptr;
  while (!Work.empty() && !Candidate) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (VD && (VD->hasLocalStorage() || VD->isStaticLocal()))
        Candidate =
            dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
      continue;
    }
    if (isa<LambdaExpr>(S))
      continue;
    Work.append(S->child_begin(), S->child_end());
  }
  if (Owner)
    *Owner = Candidate;
  if (!Candidate || !Candidate->getBody())
    return nullptr;
  // The call's parent in the body's own ParentMap (null: not in this body),
  // then the innermost lambda around it.
  const ParentMap &PM = parentsOf(Candidate);
  const Stmt *Up = PM.getParent(Call);
  if (!Up)
    return nullptr;
  for (const Stmt *S = Up; S; S = PM.getParent(S))
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      return Lambda->getCallOperator();
  return Candidate;
}

const CallContext *ConstantFolder::intern(const CallExpr *Call,
                                          const FunctionDecl *Callee,
                                          const CallContext *Parent) {
  auto [It, New] = Interned.try_emplace({Call, Callee, Parent}, nullptr);
  if (New) {
    Contexts.push_back(CallContext{Call, Callee, Parent});
    It->second = &Contexts.back();
  }
  return It->second;
}

llvm::ArrayRef<const CallContext *>
ConstantFolder::contextsOf(const FunctionDecl *F) {
  static const CallContext *const NoContext[] = {nullptr};
  if (!F)
    return NoContext;
  auto It = ContextsOf.find(F);
  if (It != ContextsOf.end())
    return It->second;
  std::vector<const CallContext *> Found;
  ++CostStats::get().ContextSets;
  collectContexts(F, 0, Found);
  if (Found.empty())
    Found.push_back(nullptr);
  return ContextsOf[F] = std::move(Found);
}

void ConstantFolder::collectContexts(const FunctionDecl *F, unsigned Depth,
                                     std::vector<const CallContext *> &Out) {
  (void)Depth;
  indexCallsOf(F);
  // Chains of calls outwards from F: C[0] calls F, C[J] calls the function
  // that holds C[J - 1]. Explored breadth-first, one level at a time and
  // round-robin over the chains of the level before, so that every caller
  // keeps a chance when a budget runs out (depth-first, the first caller's
  // recursion filled the budget and later callers got no context). A chain
  // ends at a function with no caller, at one whose callers are all in the
  // chain (recursion: the bound values would depend on how deep it goes), or
  // at MaxContextDepth calls.
  struct Chain {
    llvm::SmallVector<const CallExpr *, 4> Calls;
    /// Each call's index among its callee's calls: the order of the
    /// depth-first enumeration, which is kept when nothing is cut.
    llvm::SmallVector<unsigned, 4> Order;
  };
  auto CalleeAt = [&](const Chain &C, size_t J) {
    return J == 0 ? F : enclosingFunction(C.Calls[J - 1]);
  };
  auto InChain = [&](const Chain &C, const FunctionDecl *Fn) {
    const FunctionDecl *Canon = Fn->getCanonicalDecl();
    for (size_t J = 0; J <= C.Calls.size(); ++J)
      if (CalleeAt(C, J)->getCanonicalDecl() == Canon)
        return true;
    return false;
  };
  // The extensions of C by one caller outwards (none: C is complete).
  auto Extend = [&](const Chain &C, std::vector<Chain> &Next) {
    const FunctionDecl *Top = CalleeAt(C, C.Calls.size());
    if (!Top || C.Calls.size() >= MaxContextDepth)
      return false;
    indexCallsOf(Top);
    auto It = Callers->find(Top->getCanonicalDecl());
    if (It == Callers->end())
      return false;
    // A copy: enclosingFunction below may rebuild the index.
    llvm::SmallVector<const CallExpr *, 8> Calls(It->second.begin(),
                                                 It->second.end());
    bool Any = false;
    for (unsigned I = 0; I < Calls.size(); ++I) {
      const CallExpr *Call = Calls[I];
      const FunctionDecl *Caller = enclosingFunction(Call);
      if (Caller && InChain(C, Caller))
        continue;
      Chain Longer = C;
      Longer.Calls.push_back(Call);
      Longer.Order.push_back(I);
      Next.push_back(std::move(Longer));
      Any = true;
    }
    return Any;
  };
  // Interns a complete chain from the outermost call inwards; null when a
  // call through a function-pointer parameter does not call the function,
  // or a guard of a caller skips a call of the chain.
  auto Complete = [&](const Chain &C) -> const CallContext * {
    const CallContext *Parent = nullptr;
    for (size_t J = C.Calls.size(); J-- > 0;) {
      const FunctionDecl *Callee = CalleeAt(C, J);
      if (const ParmVarDecl *Through = ThroughParam.lookup(C.Calls[J])) {
        const FunctionDecl *Passed =
            calledFunction(argumentFor(Through, Parent));
        if (!Passed ||
            Passed->getCanonicalDecl() != Callee->getCanonicalDecl())
          return nullptr;
      }
      // A call that a guard of its caller skips under the caller's context
      // binds nothing there (tma-rules.md §11.C).
      if (const FunctionDecl *Caller = enclosingFunction(C.Calls[J]);
          Caller && !mayRun(C.Calls[J], Caller, Parent))
        return nullptr;
      Parent = intern(C.Calls[J], Callee, Parent);
    }
    return Parent;
  };

  std::vector<std::pair<Chain, const CallContext *>> Found;
  std::vector<Chain> Level;
  Chain Empty;
  Extend(Empty, Level);
  size_t Explored = Level.size();
  while (!Level.empty() && Found.size() < MaxContextsPerFunction) {
    // Children of each chain, then taken round-robin across the chains.
    std::vector<std::vector<Chain>> Children(Level.size());
    for (size_t I = 0; I < Level.size() && Found.size() < MaxContextsPerFunction;
         ++I) {
      if (Extend(Level[I], Children[I]))
        continue;
      if (Contexts.size() >= MaxContextsPerTU)
        break;
      if (const CallContext *Ctx = Complete(Level[I]))
        Found.emplace_back(std::move(Level[I]), Ctx);
    }
    std::vector<Chain> Next;
    for (size_t Round = 0, Added = 1; Added; ++Round) {
      Added = 0;
      for (auto &Kids : Children)
        if (Round < Kids.size() && Explored < MaxChainsExplored) {
          Next.push_back(std::move(Kids[Round]));
          ++Explored;
          ++Added;
        }
    }
    Level = std::move(Next);
  }
  // The depth-first order of the chains (the order without budgets).
  llvm::sort(Found, [](const auto &A, const auto &B) {
    return std::lexicographical_compare(A.first.Order.begin(),
                                        A.first.Order.end(),
                                        B.first.Order.begin(),
                                        B.first.Order.end());
  });
  for (const auto &[C, Ctx] : Found)
    Out.push_back(Ctx);
}

/// How many arguments of \p Call precede the launched kernel's own.
unsigned launchArgumentOffset(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "cudaLaunchKernelEx" &&
                 Call.getNumArgs() >= 2
             ? 2
             : 0;
}

/// The argument that \p Context's call passes for \p PVD, or null when
/// PVD is not a parameter of the called function.
const Expr *argumentFor(const ParmVarDecl *PVD, const CallContext *Context) {
  if (!Context)
    return nullptr;
  const auto *F = dyn_cast<FunctionDecl>(PVD->getDeclContext());
  if (!F || F->getCanonicalDecl() != Context->Callee->getCanonicalDecl())
    return nullptr;
  // A member operator call passes the object as argument 0.
  unsigned Index = PVD->getFunctionScopeIndex();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(F);
      MD && MD->isInstance() && isa<CXXOperatorCallExpr>(Context->Call))
    ++Index;
  // cudaLaunchKernelEx(config, kernel, args...) passes the kernel's
  // arguments after its own two.
  if (F->hasAttr<CUDAGlobalAttr>())
    Index += launchArgumentOffset(*Context->Call);
  if (Index >= Context->Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Context->Call->getArg(Index);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    Arg = Default->getExpr();
  return Arg;
}

const Expr *ConstantFolder::boundArgument(const ParmVarDecl *PVD) const {
  return argumentFor(PVD, Current);
}

const Expr *forwardedFrom(const Expr *E, const CallContext *&Context) {
  for (unsigned Steps = 0; Steps < 64 && Context; ++Steps) {
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const Expr *Forwarded = forwardedArgument(Inner))
      Inner = Forwarded->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Inner);
    const auto *PVD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    const Expr *Arg = PVD ? argumentFor(PVD, Context) : nullptr;
    if (!Arg)
      break;
    E = Arg;
    Context = Context->Parent;
  }
  return E;
}

//===----------------------------------------------------------------------===//
// Parameters folded in their caller's context
//===----------------------------------------------------------------------===//

using foldcommon::convertTo;

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
