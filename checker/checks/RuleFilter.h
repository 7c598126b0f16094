//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The DisabledRules option of every tma- check: rule ids (docs/rules/) whose
// diagnostics the check does not emit. Read as `<check>.DisabledRules`, else
// the global `DisabledRules` of CheckOptions, so one line turns an id off in
// every check. A check asks allows() with the rule id, or with a message that
// ends with one, before its warning (and skips the warning's notes with it).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_RULEFILTER_H
#define TMA_TIDY_CHECKS_RULEFILTER_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace clang::tidy::tma {

class RuleFilter {
public:
  explicit RuleFilter(const ClangTidyCheck::OptionsView &Options);

  /// Whether a diagnostic of RuleIdOrMessage may be emitted: a rule id, or a
  /// message ending with "(RULE-ID)". A message that names no id is allowed.
  bool allows(llvm::StringRef RuleIdOrMessage) const;

  /// The ids of the option that the rule reference does not know (a typo
  /// would silently disable nothing).
  const std::vector<std::string> &unknownIds() const { return Unknown; }

  /// The option as read, for storeOptions.
  llvm::StringRef option() const { return Option; }

  /// Emits a configuration warning of Check (named CheckName) for each
  /// unknown id, once per process: the global option once for all checks,
  /// `<check>.DisabledRules` once per check.
  void diagnoseUnknown(ClangTidyCheck &Check, llvm::StringRef CheckName) const;

private:
  std::string Option;
  /// The option is the check's own (`<check>.DisabledRules`).
  bool Local = false;
  llvm::StringSet<> Disabled;
  std::vector<std::string> Unknown;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_RULEFILTER_H
