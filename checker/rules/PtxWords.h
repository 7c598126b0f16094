//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
// The words of a PTX opcode, shared by the rules that read opcodes
// (ArchRules, PtxIsaRules).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_PTXWORDS_H
#define TMA_TIDY_RULES_PTXWORDS_H

#include <cstddef>
#include <string_view>
#include <vector>

namespace tma::rules {

/// "cp.async.bulk.shared::cta" -> {"cp", "async", "bulk", "shared::cta"};
/// empty words are dropped.
inline std::vector<std::string_view> splitDots(std::string_view S) {
  std::vector<std::string_view> Parts;
  std::size_t Start = 0;
  for (std::size_t I = 0; I <= S.size(); ++I)
    if (I == S.size() || S[I] == '.') {
      if (I > Start)
        Parts.push_back(S.substr(Start, I - Start));
      Start = I + 1;
    }
  return Parts;
}

} // namespace tma::rules

#endif // TMA_TIDY_RULES_PTXWORDS_H
