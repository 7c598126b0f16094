//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of a device op's form for the rule model (rules/OpFormSite.h):
// what the op's qualifiers say, read once from the recognised op (no
// folding: a form does not depend on a call-site context).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_OPFORMFACTS_H
#define TMA_TIDY_API_OPFORMFACTS_H

#include "api/DeviceOps.h"
#include "rules/OpFormSite.h"

namespace clang::tidy::tma {

/// The form of \p Op: a bulk reduction's pair where the op names its type
/// (the wrappers' overloads enforce it), a tensor reduction's mode, and
/// the coordinate count of an inline-PTX tensor copy (the library forms
/// fix the count by arity or array type).
::tma::rules::OpFormFacts opFormFacts(const DeviceOp &Op);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_OPFORMFACTS_H
