//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model lives header-only in include/tma/rules/,
// shared with <tma/validate.h>; this name keeps the checker's includes.
//
//===----------------------------------------------------------------------===//

#include "tma/rules/Target.h"
