//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/SharedMatchers.h"
#include "checks/TraversalScope.h"
#include "folding/Stats.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

namespace clang::tidy::tma {

using namespace ast_matchers;

/// A definition with a body and __device__ or __global__. Only a
/// declaration with its own body: every check returns at once for a
/// definition without one (a lambda closure's implicit trivial destructor,
/// which CUDA makes __host__ __device__, one per lambda), after asking
/// isDependentFunction, which clang answers D contexts up for a closure D
/// deep. The attributes in one walk: Decl::getAttrs finds the TU's context
/// through every enclosing context, so each hasAttr cost D steps there;
/// with \p Ctx known they are read from it directly (one step).
static bool isDeviceBody(const FunctionDecl &Fn, ASTContext *Ctx = nullptr) {
  if (!Fn.doesThisDeclarationHaveABody() || !Fn.hasAttrs())
    return false;
  return llvm::any_of(
      Ctx ? Ctx->getDeclAttrs(&Fn) : Fn.getAttrs(),
      [](const Attr *A) { return isa<CUDADeviceAttr, CUDAGlobalAttr>(A); });
}

namespace {
/// One test, not the four matchers of functionDecl(isDefinition(),
/// anyOf(hasAttr(), hasAttr())).
AST_MATCHER(FunctionDecl, isDeviceDefinition) {
  (void)Builder;
  return isDeviceBody(Node, &Finder->getASTContext());
}
AST_MATCHER_P(CallExpr, wantedBy, const SharedMatchers *, Shared) {
  (void)Finder;
  (void)Builder;
  return Shared->wantsCall(Node);
}
} // namespace

/// The answers of isDependentFunction for the lambda call operators of the
/// TU being matched (cleared at its start and end).
static thread_local llvm::DenseMap<const FunctionDecl *, bool> Dependent;

bool isDependentFunction(const FunctionDecl &Fn) {
  // DeclContext::isDependentContext for a lambda's call operator: a generic
  // lambda's is a template; otherwise its closure type decides, or the
  // context the closure type is declared in. Any other function: clang's
  // answer, which stops at its first non-lambda context's.
  const auto *Op = dyn_cast<CXXMethodDecl>(&Fn);
  if (!Op || !Op->getParent()->isLambda() || !isLambdaCallOperator(Op))
    return Fn.isDependentContext();
  if (auto It = Dependent.find(Op); It != Dependent.end())
    return It->second;
  const CXXRecordDecl *Closure = Op->getParent();
  bool Result;
  if (Op->getDescribedFunctionTemplate() || Op->getFriendObjectKind() ||
      Closure->getDescribedClassTemplate() || Closure->isDependentLambda())
    Result = Op->isDependentContext();
  else if (Closure->isNeverDependentLambda())
    Result = false;
  else if (const auto *Outer =
               dyn_cast_or_null<FunctionDecl>(Closure->getParent()))
    Result = isDependentFunction(*Outer);
  else
    Result = Closure->getParent() && Closure->getParent()->isDependentContext();
  Dependent[Op] = Result;
  return Result;
}

bool matchedOnItsOwn(const LambdaExpr &Lambda) {
  const CXXMethodDecl *Op = Lambda.getCallOperator();
  return Op && isDeviceBody(*Op) && !isDependentFunction(*Op);
}

std::shared_ptr<SharedMatchers>
SharedMatchers::forFinder(MatchFinder *Finder) {
  // Per thread (clangd builds several files at once); an entry whose checks
  // are gone has expired, so a later finder at the same address gets a new
  // one.
  thread_local llvm::DenseMap<MatchFinder *, std::weak_ptr<SharedMatchers>>
      ByFinder;
  if (auto Shared = ByFinder.lookup(Finder).lock())
    return Shared;
  for (auto It = ByFinder.begin(); It != ByFinder.end(); ++It)
    if (It->second.expired())
      ByFinder.erase(It);
  // A new finder: clangd parses the file it will match next.
  beforeParse();
  auto Shared = std::make_shared<SharedMatchers>();
  Shared->Finder = Finder;
  ByFinder[Finder] = Shared;
  // The TU is matched before the walk of its scope starts, which may then
  // be widened (TraversalScope.h).
  Finder->addMatcher(translationUnitDecl().bind(TuId), Shared.get());
  return Shared;
}

void SharedMatchers::subscribe(ClangTidyCheck *Check) {
  auto *Callback = static_cast<MatchFinder::MatchCallback *>(Check);
  if (!llvm::is_contained(Checks, Callback))
    Checks.push_back(Callback);
}

std::shared_ptr<SharedMatchers>
SharedMatchers::functions(MatchFinder *Finder, ClangTidyCheck *Check,
                          Functions Which) {
  auto Shared = forFinder(Finder);
  Shared->subscribe(Check);
  Shared->FunctionSubs.push_back({Check, Which});
  if (!Shared->FunctionsAdded) {
    Shared->FunctionsAdded = true;
    Finder->addMatcher(functionDecl(isDeviceDefinition()).bind(FunctionId),
                       Shared.get());
  }
  return Shared;
}

std::shared_ptr<SharedMatchers>
SharedMatchers::calls(MatchFinder *Finder, ClangTidyCheck *Check,
                      CallFilter Wants) {
  auto Shared = forFinder(Finder);
  Shared->subscribe(Check);
  Shared->CallSubs.push_back({Check, Wants});
  if (!Shared->CallsAdded) {
    Shared->CallsAdded = true;
    Finder->addMatcher(callExpr(wantedBy(Shared.get())).bind(CallId),
                       Shared.get());
  }
  return Shared;
}

bool SharedMatchers::wantsCall(const CallExpr &Call) const {
  return llvm::any_of(CallSubs,
                      [&](const CallSub &S) { return S.Wants(Call); });
}

namespace {
/// The walk of the widened scope for the shared matchers alone: a
/// MatchFinder's walk (the same nodes in the same order, so the checks get
/// the same matches in the same order) without its matching machinery,
/// which tried every node, type and name of the reached bodies against the
/// two matchers (half the walk's cost on flashinfer's mha_sm90.cu).
/// MatchFinder's visitor visits template instantiations and implicit code,
/// tests a declaration or statement before walking into it (a statement
/// when its parent queues it), and walks three statements its own way:
/// a range for (its init, range, the implicit statements, then the body),
/// a rewritten operator (the operands written, then its children) and a
/// lambda (captures, closure class, template parameters, written
/// parameters, exceptions, noexcept, written result type, trailing
/// requires, then the body, which the closure's call operator skips).
class OwnWalk : public RecursiveASTVisitor<OwnWalk> {
  using Base = RecursiveASTVisitor<OwnWalk>;

public:
  OwnWalk(SharedMatchers &Shared, ASTContext &Ctx, bool Functions,
          bool Calls)
      : Shared(Shared), Ctx(Ctx), Functions(Functions), Calls(Calls) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitLambdaBody() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (const auto *Fn = dyn_cast<FunctionDecl>(D);
        Fn && Functions && isDeviceBody(*Fn, &Ctx))
      found(SharedMatchers::FunctionId, DynTypedNode::create(*Fn));
    return Base::TraverseDecl(D);
  }

  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    if (!S)
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && Calls && Shared.wantsCall(*Call))
      found(SharedMatchers::CallId, DynTypedNode::create(*Call));
    return Base::TraverseStmt(S, Queue);
  }

  bool dataTraverseNode(Stmt *S, DataRecursionQueue *Queue) {
    if (auto *For = dyn_cast<CXXForRangeStmt>(S)) {
      TraverseStmt(For->getInit());
      TraverseStmt(For->getRangeInit());
      for (Stmt *Child : For->children())
        if (Child != For->getBody())
          TraverseStmt(Child);
      TraverseStmt(For->getBody());
      return true;
    }
    if (auto *Op = dyn_cast<CXXRewrittenBinaryOperator>(S)) {
      TraverseStmt(const_cast<Expr *>(Op->getLHS()));
      TraverseStmt(const_cast<Expr *>(Op->getRHS()));
      for (Stmt *Child : Op->children())
        TraverseStmt(Child);
      return true;
    }
    if (auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      lambda(*Lambda, Queue);
      return true;
    }
    return Base::dataTraverseNode(S, Queue);
  }

private:
  void lambda(LambdaExpr &Lambda, DataRecursionQueue *Queue) {
    for (auto [Capture, Init] :
         llvm::zip(Lambda.captures(), Lambda.capture_inits()))
      TraverseLambdaCapture(&Lambda, &Capture, Init);
    TraverseDecl(Lambda.getLambdaClass());
    FunctionProtoTypeLoc Proto = Lambda.getCallOperator()
                                     ->getTypeSourceInfo()
                                     ->getTypeLoc()
                                     .getAsAdjusted<FunctionProtoTypeLoc>();
    if (TemplateParameterList *Params = Lambda.getTemplateParameterList()) {
      for (NamedDecl *P : *Params)
        TraverseDecl(P);
      TraverseStmt(Params->getRequiresClause());
    }
    if (Lambda.hasExplicitParameters())
      for (ParmVarDecl *P : Proto.getParams())
        TraverseDecl(P);
    const FunctionProtoType *Type = Proto.getTypePtr();
    for (QualType E : Type->exceptions())
      TraverseType(E, /*TraverseQualifier=*/true);
    if (Expr *NoExcept = Type->getNoexceptExpr())
      TraverseStmt(NoExcept, Queue);
    if (Lambda.hasExplicitResultType())
      TraverseTypeLoc(Proto.getReturnLoc(), /*TraverseQualifier=*/true);
    TraverseStmt(
        const_cast<Expr *>(Lambda.getTrailingRequiresClause().ConstraintExpr));
    TraverseStmt(Lambda.getBody());
  }

  /// Delivers \p Node bound to \p Id, as the finder's match would.
  void found(StringRef Id, const DynTypedNode &Node) {
    ast_matchers::internal::BoundNodesTreeBuilder Builder;
    Builder.setBinding(Id, Node);
    Deliver D(Shared, Ctx);
    Builder.visitMatches(&D);
  }

  struct Deliver : ast_matchers::internal::BoundNodesTreeBuilder::Visitor {
    Deliver(SharedMatchers &Shared, ASTContext &Ctx)
        : Shared(Shared), Ctx(Ctx) {}
    void visitMatch(const BoundNodes &Nodes) override {
      Shared.deliver(MatchFinder::MatchResult(Nodes, &Ctx));
    }
    SharedMatchers &Shared;
    ASTContext &Ctx;
  };

  SharedMatchers &Shared;
  ASTContext &Ctx;
  const bool Functions;
  const bool Calls;
};
} // namespace

void SharedMatchers::run(const MatchFinder::MatchResult &Result) {
  if (Result.Nodes.getNodeAs<TranslationUnitDecl>(TuId)) {
    Ctx = Result.Context;
    NarrowScope = widenTraversalScope(*Ctx);
    if (NarrowScope)
      checkWidenedScope();
    return;
  }
  // The checks had the scope's matches from their own walk.
  if (Walked)
    return;
  deliver(Result);
}

void SharedMatchers::checkWidenedScope() {
  // The shared matchers' own walk (a finder's, without the finder) walks
  // the widened scope, and the checks end their translation unit on it; the clang-tidy finder then
  // walks clangd's scope, as stock clangd (the traversal scope is read
  // after the translation unit's matchers). Its other checks' matchers and
  // its parent map (hasParent, hasAncestor) stay off the helpers' bodies.
  OwnWalk(*this, *Ctx, FunctionsAdded, CallsAdded).TraverseAST(*Ctx);
  for (MatchFinder::MatchCallback *Check : Checks)
    Check->onEndOfTranslationUnit();
  Ctx->setTraversalScope(*NarrowScope);
  Walked = true;
}

void SharedMatchers::deliver(const MatchFinder::MatchResult &Result) {
  // Through MatchCallback::run, as MatchFinder itself calls a check (it
  // sets the check's AST context before check()).
  if (const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>(FunctionId)) {
    // Templates are checked per instantiation: every check returned at
    // once for a dependent function, each asking clang again.
    if (isDependentFunction(*Fn))
      return;
    const SourceManager &SM = *Result.SourceManager;
    // The attributes from the context: Decl::hasAttr finds it through every
    // enclosing context (D steps for a lambda D deep).
    const bool Kernel = Fn->hasAttrs() && hasSpecificAttr<CUDAGlobalAttr>(
                                              Result.Context->getDeclAttrs(Fn));
    Current = {Fn,
               Fn->getBody() &&
                   !SM.isInSystemHeader(SM.getFileLoc(Fn->getLocation())),
               Kernel};
    for (const FunctionSub &S : FunctionSubs)
      if (S.Which == Functions::DeviceOrKernel || Kernel)
        S.Check->run(Result);
    Current = {};
    return;
  }
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>(CallId))
    for (const CallSub &S : CallSubs)
      if (S.Wants(*Call))
        S.Check->run(Result);
}

void SharedMatchers::onStartOfTranslationUnit() {
  CostStats::get() = CostStats();
  Dependent.clear();
  for (MatchFinder::MatchCallback *Check : Checks)
    Check->onStartOfTranslationUnit();
}

void SharedMatchers::onEndOfTranslationUnit() {
  if (!Walked)
    for (MatchFinder::MatchCallback *Check : Checks)
      Check->onEndOfTranslationUnit();
  Dependent.clear();
  Ctx = nullptr;
  NarrowScope.reset();
  Walked = false;
  const char *Stats = std::getenv("TMA_TIDY_STATS");
  if (!Stats || !*Stats || *Stats == '0')
    return;
  const CostStats &S = CostStats::get();
  llvm::errs() << "tma-tidy stats: matchers "
               << unsigned(FunctionsAdded) + unsigned(CallsAdded)
               << " checks " << Checks.size() << " folders " << S.Folders
               << " finders " << S.Finders << " index-walks " << S.IndexWalks
               << " full-walks " << S.FullWalks << " context-sets "
               << S.ContextSets << " parent-maps " << S.ParentMaps
               << " never-written " << S.NeverWrittenComputed << "/"
               << S.NeverWrittenAsked << " asm-bindings " << S.AsmBindings
               << " asm-texts " << S.AsmTextsParsed << "\n";
}

} // namespace clang::tidy::tma
