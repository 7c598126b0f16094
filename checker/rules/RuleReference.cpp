//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/RuleReference.h"

#include <algorithm>
#include <cctype>

namespace tma::rules {

const std::vector<RuleDoc> &ruleDocs() {
  static const std::vector<RuleDoc> Docs = {
#include "RuleReference.inc"
  };
  return Docs;
}

const RuleDoc *findRuleDoc(std::string_view Id) {
  const std::vector<RuleDoc> &Docs = ruleDocs();
  auto It = std::lower_bound(
      Docs.begin(), Docs.end(), Id,
      [](const RuleDoc &Doc, std::string_view Key) { return Doc.Id < Key; });
  return It != Docs.end() && It->Id == Id ? &*It : nullptr;
}

namespace {

bool isIdChar(char C) {
  return (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '-';
}

} // namespace

std::string_view ruleIdOfMessage(std::string_view Message) {
  if (Message.size() < 3 || Message.back() != ')')
    return {};
  std::size_t Open = Message.rfind('(');
  if (Open == std::string_view::npos)
    return {};
  std::string_view Id = Message.substr(Open + 1, Message.size() - Open - 2);
  // An id has a dash and only upper-case letters, digits and dashes.
  if (Id.find('-') == std::string_view::npos || Id.front() == '-' ||
      !std::all_of(Id.begin(), Id.end(), isIdChar))
    return {};
  return Id;
}

std::vector<std::string> parseRuleList(std::string_view List) {
  std::vector<std::string> Ids;
  std::string Current;
  auto Flush = [&] {
    if (!Current.empty())
      Ids.push_back(Current);
    Current.clear();
  };
  for (char C : List) {
    if (C == ',' || C == ';' || std::isspace(static_cast<unsigned char>(C)))
      Flush();
    else
      Current += C;
  }
  Flush();
  return Ids;
}

} // namespace tma::rules
