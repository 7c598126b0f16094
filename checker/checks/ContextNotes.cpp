//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/ContextNotes.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::tma {

void noteBindings(ClangTidyCheck &Check, ConstantFolder &Folder,
                  llvm::ArrayRef<Binding> Through, SourceLocation WarnLoc,
                  const SourceManager &SM, const CallContext *Restore) {
  for (const Binding &B : llvm::reverse(Through)) {
    const CallExpr *Call = B.Context->Call;
    // A member operator call passes the object as argument 0.
    unsigned Index = B.Param->getFunctionScopeIndex();
    if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(B.Context->Callee))
      ++Index;
    const Expr *Arg =
        Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
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

} // namespace clang::tidy::tma
