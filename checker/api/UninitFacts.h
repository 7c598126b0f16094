//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// MBAR-UNINIT's facts of a kernel (rules/UninitSite's UninitFacts), read
// from its events and its AST: the groups of barriers, whether every
// reference to a barrier is known (a recognised op's operand, a helper that
// issues only those, a local that only holds its address), the struct laid
// over the dynamic shared-memory pool, whether code elsewhere names the
// pool, and the pool's barriers named by offset. A fact is read only where
// those before it let the rule go on (UninitGroupFacts' order), so the
// AST is walked only for a barrier that may be reported.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_UNINITFACTS_H
#define TMA_TIDY_API_UNINITFACTS_H

#include "api/DeviceOpsFinder.h"
#include "api/KernelModel.h"
#include "rules/UninitSite.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include <functional>

namespace clang::tidy::tma {

/// MBAR-UNINIT's facts of \p Kernel, whose events are \p K. \p BodyRuns
/// tells whether a body is the code that runs (the device pass, or a host
/// body with no `#if` branch left out in it).
::tma::rules::ordering::UninitFacts
uninitFacts(const FunctionDecl &Kernel, const KernelSequence &K,
            KernelModel &Model, DeviceOpsFinder &Finder,
            const SourceManager &SM,
            std::function<bool(const Stmt *)> BodyRuns);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_UNINITFACTS_H
