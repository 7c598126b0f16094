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
#include "folding/Uses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/ScopeExit.h"

namespace clang::tidy::tma {

/// Call-site contexts follow at most this many callers outwards...
static constexpr unsigned MaxContextDepth = 4;
/// ...keep at most this many contexts per function...
static constexpr size_t MaxContextsPerFunction = 64;
/// ...and at most this many in a translation unit.
static constexpr size_t MaxContextsPerTU = 16384;

namespace {
/// Collects the calls of every function, template instantiations included,
/// and the function (or lambda call operator) each call is in.
class CallIndexer : public RecursiveASTVisitor<CallIndexer> {
public:
  using CallMap =
      llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>>;
  using CallerMap = llvm::DenseMap<const CallExpr *, const FunctionDecl *>;
  CallIndexer(CallMap &Calls, CallerMap &Callers)
      : Calls(Calls), Callers(Callers) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
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
    if (const FunctionDecl *FD = Call->getDirectCallee())
      Calls[FD->getCanonicalDecl()].push_back(Call);
    if (!Stack.empty())
      Callers[Call] = Stack.back();
    return true;
  }

private:
  CallMap &Calls;
  CallerMap &Callers;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
};
} // namespace

void ConstantFolder::indexCalls() {
  if (Callers)
    return;
  Callers.emplace();
  CallIndexer(*Callers, CallerOf).TraverseAST(Ctx);
}

const FunctionDecl *ConstantFolder::enclosingFunction(const CallExpr *Call) {
  indexCalls();
  return CallerOf.lookup(Call);
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
  collectContexts(F, 0, Found);
  if (Found.empty())
    Found.push_back(nullptr);
  return ContextsOf[F] = std::move(Found);
}

void ConstantFolder::collectContexts(const FunctionDecl *F, unsigned Depth,
                                     std::vector<const CallContext *> &Out) {
  indexCalls();
  auto It = Callers->find(F->getCanonicalDecl());
  if (Depth >= MaxContextDepth || It == Callers->end())
    return;
  Path.push_back(F->getCanonicalDecl());
  llvm::scope_exit Pop([this] { Path.pop_back(); });
  for (const CallExpr *Call : It->second) {
    const FunctionDecl *Caller = enclosingFunction(Call);
    // A recursive call binds values that depend on how deep the recursion
    // goes, which is not known: only calls from outside the cycle count.
    if (Caller && llvm::is_contained(Path, Caller->getCanonicalDecl()))
      continue;
    std::vector<const CallContext *> Outer;
    if (Caller)
      collectContexts(Caller, Depth + 1, Outer);
    if (Outer.empty())
      Outer.push_back(nullptr);
    for (const CallContext *Parent : Outer) {
      if (Out.size() >= MaxContextsPerFunction ||
          Contexts.size() >= MaxContextsPerTU)
        return;
      Out.push_back(intern(Call, F, Parent));
    }
  }
}

const Expr *argumentFor(const ParmVarDecl *PVD,
                               const CallContext *Context) {
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

} // namespace clang::tidy::tma
