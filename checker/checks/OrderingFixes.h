//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The fix-its of tma-ordering (design.md, "Diagnostics contract"): the
// missing fence.proxy.async, the missing __syncthreads() after an
// mbarrier.init, and the depth of a wait_group.read that is too shallow.
// Each helper answers nothing unless the edit is certain: the statement to
// insert before is a statement of its own in a { } block, the wait depth is
// an integer literal written at the wait, no macro is involved, and the
// spelling is the one of the API the surrounding code calls.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_ORDERINGFIXES_H
#define TMA_TIDY_CHECKS_ORDERINGFIXES_H

#include "api/DeviceOps.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::tma {

/// The statement of \p Body that begins at \p Loc and is a direct child of
/// a compound statement (so that a statement can be inserted before it);
/// null otherwise.
const Stmt *statementAt(const Stmt *Body, SourceLocation Loc,
                        const SourceManager &SM);

/// The statement of \p Body's own { } block that holds \p Loc.
const Stmt *topLevelStatementAt(const Stmt *Body, SourceLocation Loc,
                                const SourceManager &SM);

/// Inserts \p Code (a statement with its `;`) before \p S: on a line of its
/// own with S's indentation when S begins its line. None in a macro.
std::optional<FixItHint> insertBefore(const Stmt &S, llvm::StringRef Code,
                                      const SourceManager &SM);

/// `fence.proxy.async.shared::cta;` in the API of \p Op (inline PTX,
/// cuda::ptx, cde), qualified the way the op's call is written in the
/// kernel body \p Body when \p InBody, else fully; none for other APIs.
std::optional<std::string> fenceStatement(const DeviceOp &Op, bool InBody,
                                          const Stmt *Body,
                                          const SourceManager &SM,
                                          const LangOptions &LO);

/// Replaces the depth \p Old of the bulk-group wait that begins at \p Loc
/// in \p Body by \p New, when \p Old is an integer literal there: the
/// template argument (`wait_group_read<1>()`, `tma_store_wait<1>()`), the
/// `n32_t<1>` argument or the digits of the asm string.
std::optional<FixItHint> waitDepthFix(const Stmt *Body, SourceLocation Loc,
                                      std::uint64_t Old, std::uint64_t New,
                                      const ASTContext &Ctx);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_ORDERINGFIXES_H
