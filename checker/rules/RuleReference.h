//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The rule reference (docs/rules/<RULE-ID>.md) as data: the summary and
// condition of each page, generated at build time (cmake/RuleReference.cmake)
// so that SARIF rules and option validation never drift from the pages.
// Plus the two helpers every consumer of a diagnostic needs: the rule id a
// message ends with, and the list of rule ids an option turns off.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_RULEREFERENCE_H
#define TMA_TIDY_RULES_RULEREFERENCE_H

#include <string>
#include <string_view>
#include <vector>

namespace tma::rules {

/// One page of the rule reference.
struct RuleDoc {
  /// "TMAP-TILED-BOX-RANGE"; the page is docs/rules/<Id>.md.
  const char *Id;
  /// The check that reports it, e.g. "tma-descriptor".
  const char *Check;
  /// The page's **Summary:** line (one sentence).
  const char *Summary;
  /// The first paragraph of its "## Condition" section.
  const char *Condition;
};

/// Every page, sorted by id.
const std::vector<RuleDoc> &ruleDocs();

/// The page of Id, or nullptr.
const RuleDoc *findRuleDoc(std::string_view Id);

/// The rule id a diagnostic message names at its end, "... (RULE-ID)"; empty
/// when the message names none.
std::string_view ruleIdOfMessage(std::string_view Message);

/// The rule ids of a DisabledRules option: separated by commas, semicolons
/// or blanks, each trimmed.
std::vector<std::string> parseRuleList(std::string_view List);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_RULEREFERENCE_H
