//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Notes shared by the checks that fold under call-site contexts.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_CONTEXTNOTES_H
#define TMA_TIDY_CHECKS_CONTEXTNOTES_H

#include "api/MapLink.h"
#include "folding/ConstantFolder.h"

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::tma {

/// Notes "with 'Cols' = 1001 from this call" at each call that bound a
/// parameter the reported value was read through, innermost first; none at
/// \p WarnLoc itself or in system headers. Folds each bound argument in its
/// caller's context and leaves \p Folder in \p Restore.
void noteBindings(ClangTidyCheck &Check, ConstantFolder &Folder,
                  llvm::ArrayRef<Binding> Through, SourceLocation WarnLoc,
                  const SourceManager &SM, const CallContext *Restore);

/// The call through which the shared-memory buffer \p Var reaches a
/// device op of a helper that runs in \p Context: the call, in Context's
/// chain of device calls, made from the function that declares Var (for a
/// variable at namespace scope, the outermost device call). Null when the
/// op is in that function itself or the call lies in a system header.
const CallExpr *bufferCall(ConstantFolder &Folder, const VarDecl *Var,
                           const CallContext *Context,
                           const SourceManager &SM);

/// A note at bufferCall's \p Call ("'sA' is used by OP through this call
/// of 'load'"); none for a null Call or one at \p WarnLoc.
void noteBufferCall(ClangTidyCheck &Check, const CallExpr *Call,
                    const VarDecl *Var, llvm::StringRef OpName,
                    SourceLocation WarnLoc, const SourceManager &SM);

/// A note at the host call that hands the linked map \p M to the device:
/// the kernel launch, or the cudaMemcpyToSymbol call.
void noteHandoff(ClangTidyCheck &Check, const KnownMap &M,
                 const SourceManager &SM);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_CONTEXTNOTES_H
