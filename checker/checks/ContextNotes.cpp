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
