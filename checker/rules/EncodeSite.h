//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// An encode call as a whole (tma-rules.md sections 1-4): the descriptor of
// its driver entry point, folded under one call-site context, judged by
// that encoder's rules (include/tma/rules), then TMAP-ENC-ARCH against the
// target only a map the unit's own kernels read is bound to. Every
// violation names the driver parameter it is about.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_ENCODESITE_H
#define TMA_TIDY_RULES_ENCODESITE_H

#include "rules/Im2colRules.h"
#include "rules/TiledRules.h"

#include <optional>
#include <type_traits>
#include <vector>

namespace tma::rules {

/// The driver entry points that write a tensor map.
enum class EncodeEntry { Tiled, Im2col, Im2colWide, ReplaceAddress };

/// The facts of one encode call: the descriptor of its entry point (the
/// other two stay empty). cuTensorMapReplaceAddress: Desc holds the new
/// address's proven alignment and, when the map is linked to its encode
/// call, that call's interleave and data type.
struct EncodeSite {
  EncodeEntry Entry = EncodeEntry::Tiled;
  TiledDescriptor Desc;
  Im2colDescriptor Im2col;
  Im2colWideDescriptor Wide;
};

/// A yes-or-no question the entry point asks only when the answer matters:
/// a non-owning reference to a callable (as llvm::function_ref; no
/// allocation per call), valid for the call it is passed to.
class LazyAnswer {
public:
  LazyAnswer() = default;
  template <typename F,
            typename = std::enable_if_t<
                !std::is_same_v<std::decay_t<F>, LazyAnswer>>>
  LazyAnswer(F &&Fn)
      : Obj(static_cast<const void *>(&Fn)), Ask([](const void *O) {
          return static_cast<bool>(
              (*static_cast<std::remove_reference_t<F> *>(
                  const_cast<void *>(O)))());
        }) {}
  explicit operator bool() const { return Ask != nullptr; }
  bool operator()() const { return Ask(Obj); }

private:
  const void *Obj = nullptr;
  bool (*Ask)(const void *) = nullptr;
};

/// Every violation of \p S, in its encoder's order. The descriptors'
/// Target is the translation unit's (newestEncodeTarget); where that gives
/// TMAP-ENC-ARCH, \p ReadByOwnKernel (asked only then; none: the map is
/// taken as read by the unit's kernels) says whether the target applies
/// (mapEncodeTarget); when it does not, the site is judged again with no
/// target.
std::vector<Violation>
checkEncodeSite(const EncodeSite &S, const EncodeRuleOptions &Opts,
                LazyAnswer ReadByOwnKernel = {});

} // namespace tma::rules

#endif // TMA_TIDY_RULES_ENCODESITE_H
