//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_DISCARDEDBRANCHES_H
#define TMA_TIDY_CHECKS_DISCARDEDBRANCHES_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace clang::tidy::tma {

/// An `if constexpr` branch that no code of the TU compiles: discarded in
/// each of the \c Instances resolutions of its statement the TU holds (every
/// instantiation of a template around it, or the one of non-template code).
struct DiscardedBranch {
  SourceLocation Begin; ///< the branch's first character (a file location)
  SourceLocation End;   ///< one past its last token
  /// The `if` of a statement with no other branch (it compiles to
  /// nothing), else invalid.
  SourceLocation Statement;
  unsigned Instances = 0;
};

/// The `if constexpr` branches of the TU discarded wherever their statement
/// is resolved. A statement only in templates nobody instantiates, one whose
/// condition does not fold, one in a macro and one in a system header give
/// none: only a branch that every resolution seen drops is listed (a branch
/// kept by one instantiation and dropped by another is compiled).
/// Walks the whole TU with its instantiations: for tma-ordering's
/// ExplainModel only (bench/mutate reads the list: a mutant inside such a
/// branch changes nothing the TU compiles).
std::vector<DiscardedBranch> discardedBranches(ASTContext &Ctx);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_DISCARDEDBRANCHES_H
