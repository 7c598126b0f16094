//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-descriptor's fix-its on an encode call: the literal a suggestion may
// replace, and the map as those fixes leave it (tma-expect-tx computes the
// byte count of a fixed map from it, so that two checks' fixes never
// fight). Source edits only: the rules come from rules/EncodeSite.h.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_ENCODEFIXES_H
#define TMA_TIDY_CHECKS_ENCODEFIXES_H

#include "api/EncodeFacts.h"
#include "api/MapLink.h"

#include "clang/Basic/SourceManager.h"
#include <optional>

namespace clang::tidy::tma {

/// A range the user can edit: in a file, not in a macro body.
bool isEditable(SourceRange R, const SourceManager &SM);

/// The source range that the fix-it of \p S replaces (the literal the value
/// came from, in code the user edits, not shared with other callers), or
/// std::nullopt when its spelling is not certain: then the note says what
/// to do and carries no fix-it.
std::optional<SourceRange> certainFix(const rules::Suggestion &S,
                                      const Expr *Arg, const EncodeFacts &Ops,
                                      const SourceManager &SM);

/// The map \p Map as tma-descriptor's own fix-its on its encode call leave
/// it: every broken rule of the call has a certain fix, each fixed value
/// replaces the folded one, and the fixed call breaks no rule. Otherwise
/// std::nullopt: the map will change by hand, and a fix computed from it
/// (an expect-tx byte count) would fight that change.
std::optional<rules::MapDescriptor>
mapAfterFixes(const KnownMap &Map, ConstantFolder &Folder, ASTContext &Ctx);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_ENCODEFIXES_H
