//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/ContextNotes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tma {

void noteBindings(ClangTidyCheck &Check, ConstantFolder &Folder,
                  llvm::ArrayRef<Binding> Through, SourceLocation WarnLoc,
                  const SourceManager &SM, const CallContext *Restore) {
  for (const Binding &B : llvm::reverse(Through)) {
    const CallExpr *Call = B.Context->Call;
    const Expr *Arg = argumentFor(B.Param, B.Context);
    SourceLocation L = SM.getFileLoc((Arg ? Arg : Call)->getBeginLoc());
    if (L == WarnLoc || SM.isInSystemHeader(L))
      continue;
    Folder.enterContext(B.Context->Parent);
    auto Value = Arg ? Folder.foldInt(Arg) : std::nullopt;
    Folder.enterContext(Restore);
    if (Value)
      Check.diag(L, "with %0 = %1 from this call", DiagnosticIDs::Note)
          << B.Param << toString(Value->Value, 10);
    else
      Check.diag(L, "with %0 from this call", DiagnosticIDs::Note) << B.Param;
  }
}

const CallExpr *bufferCall(ConstantFolder &Folder, const VarDecl *Var,
                           const CallContext *Context,
                           const SourceManager &SM) {
  const auto *Owner =
      dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  const CallContext *Use = nullptr;
  bool Found = false;
  // The device calls of the chain, innermost first (a kernel's own context
  // is its launch, host code).
  for (const CallContext *C = Context;
       C && !C->Callee->hasAttr<CUDAGlobalAttr>(); C = C->Parent) {
    if (Owner && C->Callee->getCanonicalDecl() == Owner->getCanonicalDecl())
      return nullptr; // the op runs in the declaring function itself
    Use = C;
    const FunctionDecl *Caller = Folder.enclosingFunction(C->Call);
    if (Owner && Caller &&
        Caller->getCanonicalDecl() == Owner->getCanonicalDecl()) {
      Found = true;
      break;
    }
  }
  if (!Use || (Owner && !Found) ||
      SM.isInSystemHeader(SM.getFileLoc(Use->Call->getBeginLoc())))
    return nullptr;
  return Use->Call;
}

void noteBufferCall(ClangTidyCheck &Check, const CallExpr *Call,
                    const VarDecl *Var, llvm::StringRef OpName,
                    SourceLocation WarnLoc, const SourceManager &SM) {
  if (!Call)
    return;
  SourceLocation L = SM.getFileLoc(Call->getBeginLoc());
  if (L == WarnLoc)
    return;
  Check.diag(L, "'%0' is used by %1 through this call of %2",
             DiagnosticIDs::Note)
      << Var->getName() << OpName << Call->getDirectCallee();
}

void noteHandoff(ClangTidyCheck &Check, const KnownMap &M,
                 const SourceManager &SM) {
  SourceLocation L = SM.getFileLoc(M.Handoff->getBeginLoc());
  if (M.ToSymbol)
    Check.diag(L, "and copied to the device here", DiagnosticIDs::Note);
  else
    Check.diag(L, "and passed to the kernel by this launch",
               DiagnosticIDs::Note);
}

} // namespace clang::tidy::tma
