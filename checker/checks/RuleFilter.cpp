//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/RuleFilter.h"

#include "rules/RuleReference.h"

#include <mutex>

namespace clang::tidy::tma {

RuleFilter::RuleFilter(const ClangTidyCheck::OptionsView &Options)
    : Option(Options.getLocalOrGlobal("DisabledRules", "")),
      Local(Options.get("DisabledRules").has_value()) {
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
  // Every tma- check reads the global option, and each translation unit
  // (each CUDA pass) builds the checks again: one warning per option and
  // id in the process, not one per check and pass.
  static std::mutex Mutex;
  static llvm::StringSet<> Warned;
  for (const std::string &Id : Unknown) {
    std::string Key = (Local ? CheckName.str() + "." : std::string()) +
                      "DisabledRules=" + Id;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      if (!Warned.insert(Key).second)
        continue;
    }
    if (Local)
      Check.configurationDiag("%0.DisabledRules names '%1', which is not a "
                              "rule id of the rule reference (docs/rules)")
          << CheckName << Id;
    else
      Check.configurationDiag("DisabledRules names '%0', which is not a "
                              "rule id of the rule reference (docs/rules)")
          << Id;
  }
}

} // namespace clang::tidy::tma
