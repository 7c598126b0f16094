//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/RuleFilter.h"

#include "rules/RuleReference.h"

namespace clang::tidy::tma {

RuleFilter::RuleFilter(const ClangTidyCheck::OptionsView &Options)
    : Option(Options.getLocalOrGlobal("DisabledRules", "")) {
  for (const std::string &Id : ::tma::rules::parseRuleList(Option)) {
    Disabled.insert(Id);
    if (!::tma::rules::findRuleDoc(Id))
      Unknown.push_back(Id);
  }
}

bool RuleFilter::allows(llvm::StringRef RuleIdOrMessage) const {
  if (Disabled.empty())
    return true;
  if (Disabled.contains(RuleIdOrMessage))
    return false;
  std::string_view Id = ::tma::rules::ruleIdOfMessage(
      std::string_view(RuleIdOrMessage.data(), RuleIdOrMessage.size()));
  return Id.empty() || !Disabled.contains(llvm::StringRef(Id.data(), Id.size()));
}

void RuleFilter::diagnoseUnknown(ClangTidyCheck &Check,
                                 llvm::StringRef CheckName) const {
  for (const std::string &Id : Unknown)
    Check.configurationDiag("%0: DisabledRules names '%1', which is not a "
                            "rule id of the rule reference (docs/rules)")
        << CheckName << Id;
}

} // namespace clang::tidy::tma
